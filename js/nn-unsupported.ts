/** `nn` names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "./unsupported.js";

export const hardSigmoid = notYet("hardSigmoid");
export const hardTanh = notYet("hardTanh");
export const mish = notYet("mish");
export const selu = notYet("selu");
export const sparsePlus = notYet("sparsePlus");
export const sparseSigmoid = notYet("sparseSigmoid");
export const hardSilu = notYet("hardSilu");
export const hardSwish = notYet("hardSwish");
export const identity = notYet("identity");
export const celu = notYet("celu");
export const squareplus = notYet("squareplus");
export const glu = notYet("glu");
export const logmeanexp = notYet("logmeanexp");
export const standardize = notYet("standardize");
export const dotProductAttention = notYet("dotProductAttention");
export const log1mexp = notYet("log1mexp");
