/** `lax` names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "./unsupported.js";

export const workgroupAssociativeScan = notYet("workgroupAssociativeScan");
export const blockMap = notYet("blockMap");
export const tiledMatmul = notYet("tiledMatmul");
