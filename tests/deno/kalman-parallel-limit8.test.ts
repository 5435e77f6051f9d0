// The seeds' Kalman workload on webgpu with the storage-buffer limit forced to the spec minimum
// of 8 (as SwiftShader): the suite of kalman_parallel_suite.ts.
import { init } from "../../pkg/index.js";
import { kalmanSuite } from "./kalman_parallel_suite.ts";

await init({ maxStorageBuffers: 8, smallOnHost: false });
kalmanSuite("8 storage buffers");
