/** `random` names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "./unsupported.js";

export const categorical = notYet("categorical");
export const cauchy = notYet("cauchy");
export const exponential = notYet("exponential");
export const gumbel = notYet("gumbel");
export const laplace = notYet("laplace");
export const multivariateNormal = notYet("multivariateNormal");
export const ball = notYet("ball");
export const choice = notYet("choice");
export const doubleSidedMaxwell = notYet("doubleSidedMaxwell");
export const geometric = notYet("geometric");
export const logistic = notYet("logistic");
export const lognormal = notYet("lognormal");
export const maxwell = notYet("maxwell");
export const pareto = notYet("pareto");
export const permutation = notYet("permutation");
export const rademacher = notYet("rademacher");
export const randint = notYet("randint");
export const rayleigh = notYet("rayleigh");
export const triangular = notYet("triangular");
export const weibullMin = notYet("weibullMin");
