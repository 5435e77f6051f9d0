// The seeds' Kalman workload on webgpu with the adapter's own storage-buffer limit: the suite
// of kalman_parallel_suite.ts (kalman-parallel-limit8.test.ts runs it with 8).
import { init } from "../../pkg/index.js";
import { kalmanSuite } from "./kalman_parallel_suite.ts";

await init({ smallOnHost: false });
kalmanSuite("adapter limit");
