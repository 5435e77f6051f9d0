/** `lax` names oxjax does not implement yet (each throws a clear error when called). */
import { notYet } from "../unsupported.js";

/**
 * The fork's WebGPU workgroup scan; not in oxjax (throws): use `lax.associativeScan`, which
 * runs as one dispatch or a few on webgpu.
 */
export const workgroupAssociativeScan = notYet("workgroupAssociativeScan");
/** The fork's WebGPU tiling tool; not in oxjax (throws): kernels are planned by oxjax. */
export const blockMap = notYet("blockMap");
/** The fork's WebGPU tiled matrix product; not in oxjax (throws): use `numpy.matmul`. */
export const tiledMatmul = notYet("tiledMatmul");
