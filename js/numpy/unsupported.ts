/** numpy names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "../unsupported.js";

/** Needs vmap over a JS callback. */
export const applyAlongAxis = notYet("applyAlongAxis");
