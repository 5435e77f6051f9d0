/** `lax` names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "./unsupported.js";

export const dot = notYet("dot");
export const convTranspose = notYet("convTranspose");
export const reduceWindow = notYet("reduceWindow");
export const topK = notYet("topK");
export const dynamicUpdateSlice = notYet("dynamicUpdateSlice");
export const sliceInDim = notYet("sliceInDim");
export const dynamicIndexInDim = notYet("dynamicIndexInDim");
export const dynamicSlice = notYet("dynamicSlice");
export const uncheckedDynamicSlice = notYet("uncheckedDynamicSlice");
export const workgroupAssociativeScan = notYet("workgroupAssociativeScan");
export const blockMap = notYet("blockMap");
export const tiledMatmul = notYet("tiledMatmul");
export const bitcastConvertType = notYet("bitcastConvertType");
