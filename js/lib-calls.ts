// Generated from src/library/call_args.rs and src/library/call.rs by
// `node scripts/gen_lib_calls.mjs`; do not edit. A test in src/library/call.rs fails
// when this file is stale.
import type { Array } from "./array.js";
import { run, run1, type ArrayInput, type LibCall } from "./lib.js";

export interface UnaryArgs { x: ArrayInput }
function encodeUnary(c: LibCall, a: UnaryArgs): void { c.only(a, ["x"]); c.input("x", a.x); }

export interface BinaryArgs { a: ArrayInput; b: ArrayInput }
function encodeBinary(c: LibCall, a: BinaryArgs): void { c.only(a, ["a", "b"]); c.input("a", a.a); c.input("b", a.b); }

export interface ArrayListArgs { arrays: ArrayInput[] }
function encodeArrayList(c: LibCall, a: ArrayListArgs): void { c.only(a, ["arrays"]); for (const x of c.list("arrays", a.arrays)) c.input("arrays", x); }

export interface IndicesArgs { dimensions: number[] }
function encodeIndices(c: LibCall, a: IndicesArgs): void { c.only(a, ["dimensions"]); for (const x of c.list("dimensions", a.dimensions)) c.size("dimensions", x); }

export interface FftFreqArgs { n: number; d?: number }
function encodeFftFreq(c: LibCall, a: FftFreqArgs): void { c.only(a, ["n", "d"]); c.size("n", a.n); c.num("d", a.d ?? 1.0); }

export interface GluArgs { x: ArrayInput; axis?: number }
function encodeGlu(c: LibCall, a: GluArgs): void { c.only(a, ["x", "axis"]); c.input("x", a.x); c.int("axis", a.axis ?? -1); }

export interface LogmeanexpArgs { x: ArrayInput; axis?: number | number[] | null; keepdims?: boolean }
function encodeLogmeanexp(c: LibCall, a: LogmeanexpArgs): void { c.only(a, ["x", "axis", "keepdims"]); c.input("x", a.x); c.axes("axis", a.axis); c.bool("keepdims", a.keepdims ?? false); }

export interface StandardizeArgs { x: ArrayInput; axis?: number | number[] | null; mean?: ArrayInput | null; variance?: ArrayInput | null; epsilon?: number }
function encodeStandardize(c: LibCall, a: StandardizeArgs): void { c.only(a, ["x", "axis", "mean", "variance", "epsilon"]); c.input("x", a.x); c.axes("axis", a.axis); if (c.present(a.mean)) c.input("mean", a.mean); if (c.present(a.variance)) c.input("variance", a.variance); c.num("epsilon", a.epsilon ?? 1e-5); }

export interface AttentionArgs { q: Array; k: Array; v: Array; bias?: Array | null; mask?: Array | null; scale?: number | null; isCausal?: boolean }
function encodeAttention(c: LibCall, a: AttentionArgs): void { c.only(a, ["q", "k", "v", "bias", "mask", "scale", "isCausal"]); c.array("q", a.q); c.array("k", a.k); c.array("v", a.v); if (c.present(a.bias)) c.array("bias", a.bias); if (c.present(a.mask)) c.array("mask", a.mask); if (c.present(a.scale)) c.num("scale", a.scale); c.bool("isCausal", a.isCausal ?? false); }

export interface NanReductionArgs { x: ArrayInput; axis?: number | number[] | null; keepdims?: boolean; ddof?: number }
function encodeNanReduction(c: LibCall, a: NanReductionArgs): void { c.only(a, ["x", "axis", "keepdims", "ddof"]); c.input("x", a.x); c.axes("axis", a.axis); c.bool("keepdims", a.keepdims ?? false); c.num("ddof", a.ddof ?? 0); }

export interface NanScanArgs { x: ArrayInput; axis?: number | null }
function encodeNanScan(c: LibCall, a: NanScanArgs): void { c.only(a, ["x", "axis"]); c.input("x", a.x); if (c.present(a.axis)) c.int("axis", a.axis); }

export interface CumulativeArgs { x: Array; axis?: number | null; includeInitial?: boolean }
function encodeCumulative(c: LibCall, a: CumulativeArgs): void { c.only(a, ["x", "axis", "includeInitial"]); c.array("x", a.x); if (c.present(a.axis)) c.int("axis", a.axis); c.bool("includeInitial", a.includeInitial ?? false); }

export interface AverageArgs { x: ArrayInput; axis?: number | number[] | null; weights?: ArrayInput | null }
function encodeAverage(c: LibCall, a: AverageArgs): void { c.only(a, ["x", "axis", "weights"]); c.input("x", a.x); c.axes("axis", a.axis); if (c.present(a.weights)) c.input("weights", a.weights); }

export interface AllcloseArgs { a: ArrayInput; b: ArrayInput; rtol?: number; atol?: number }
function encodeAllclose(c: LibCall, a: AllcloseArgs): void { c.only(a, ["a", "b", "rtol", "atol"]); c.input("a", a.a); c.input("b", a.b); c.num("rtol", a.rtol ?? 1e-5); c.num("atol", a.atol ?? 1e-7); }

export interface ArrayEqualArgs { a: ArrayInput; b: ArrayInput; equalNan?: boolean }
function encodeArrayEqual(c: LibCall, a: ArrayEqualArgs): void { c.only(a, ["a", "b", "equalNan"]); c.input("a", a.a); c.input("b", a.b); c.bool("equalNan", a.equalNan ?? false); }

export interface CovArgs { x: ArrayInput; y?: ArrayInput | null; rowvar?: boolean; ddof?: number }
function encodeCov(c: LibCall, a: CovArgs): void { c.only(a, ["x", "y", "rowvar", "ddof"]); c.input("x", a.x); if (c.present(a.y)) c.input("y", a.y); c.bool("rowvar", a.rowvar ?? true); c.num("ddof", a.ddof ?? 1); }

export interface RepeatArgs { x: ArrayInput; repeats: number; axis?: number | null }
function encodeRepeat(c: LibCall, a: RepeatArgs): void { c.only(a, ["x", "repeats", "axis"]); c.input("x", a.x); c.size("repeats", a.repeats); if (c.present(a.axis)) c.int("axis", a.axis); }

export interface RollArgs { x: ArrayInput; shift: number[]; axis?: number[] | null }
function encodeRoll(c: LibCall, a: RollArgs): void { c.only(a, ["x", "shift", "axis"]); c.input("x", a.x); for (const x of c.list("shift", a.shift)) c.int("shift", x); if (c.present(a.axis)) for (const x of c.list("axis", a.axis)) c.int("axis", x); }

export interface Rot90Args { x: ArrayInput; k?: number; axes?: number[] }
function encodeRot90(c: LibCall, a: Rot90Args): void { c.only(a, ["x", "k", "axes"]); c.input("x", a.x); c.int("k", a.k ?? 1); for (const x of c.list("axes", a.axes ?? [0, 1])) c.int("axes", x); }

export interface AppendArgs { x: ArrayInput; values: ArrayInput; axis?: number | null }
function encodeAppend(c: LibCall, a: AppendArgs): void { c.only(a, ["x", "values", "axis"]); c.input("x", a.x); c.input("values", a.values); if (c.present(a.axis)) c.int("axis", a.axis); }

export interface DiffArgs { x: ArrayInput; n?: number; axis?: number }
function encodeDiff(c: LibCall, a: DiffArgs): void { c.only(a, ["x", "n", "axis"]); c.input("x", a.x); c.size("n", a.n ?? 1); c.int("axis", a.axis ?? -1); }

export interface TakeArgs { x: ArrayInput; indices: ArrayInput; axis?: number | null }
function encodeTake(c: LibCall, a: TakeArgs): void { c.only(a, ["x", "indices", "axis"]); c.input("x", a.x); c.input("indices", a.indices); if (c.present(a.axis)) c.int("axis", a.axis); }

export interface TakeAlongAxisArgs { x: ArrayInput; indices: ArrayInput; axis: number }
function encodeTakeAlongAxis(c: LibCall, a: TakeAlongAxisArgs): void { c.only(a, ["x", "indices", "axis"]); c.input("x", a.x); c.input("indices", a.indices); c.int("axis", a.axis); }

export interface MeshgridArgs { arrays: ArrayInput[]; indexing?: "xy" | "ij" }
function encodeMeshgrid(c: LibCall, a: MeshgridArgs): void { c.only(a, ["arrays", "indexing"]); for (const x of c.list("arrays", a.arrays)) c.input("arrays", x); c.choice("indexing", a.indexing ?? "xy", ["xy", "ij"]); }

export interface AxisSplitArgs { x: ArrayInput; axis?: number }
function encodeAxisSplit(c: LibCall, a: AxisSplitArgs): void { c.only(a, ["x", "axis"]); c.input("x", a.x); c.int("axis", a.axis ?? 0); }

export interface ArraySplitArgs { x: ArrayInput; sections: number; axis?: number }
function encodeArraySplit(c: LibCall, a: ArraySplitArgs): void { c.only(a, ["x", "sections", "axis"]); c.input("x", a.x); c.size("sections", a.sections); c.int("axis", a.axis ?? 0); }

export interface VanderArgs { x: ArrayInput; n?: number | null; increasing?: boolean }
function encodeVander(c: LibCall, a: VanderArgs): void { c.only(a, ["x", "n", "increasing"]); c.input("x", a.x); if (c.present(a.n)) c.size("n", a.n); c.bool("increasing", a.increasing ?? false); }

export interface SelectArgs { condlist: ArrayInput[]; choicelist: ArrayInput[]; defaultValue: ArrayInput }
function encodeSelect(c: LibCall, a: SelectArgs): void { c.only(a, ["condlist", "choicelist", "defaultValue"]); for (const x of c.list("condlist", a.condlist)) c.input("condlist", x); for (const x of c.list("choicelist", a.choicelist)) c.input("choicelist", x); c.input("defaultValue", a.defaultValue); }

export interface IsinArgs { element: ArrayInput; testElements: ArrayInput; invert?: boolean }
function encodeIsin(c: LibCall, a: IsinArgs): void { c.only(a, ["element", "testElements", "invert"]); c.input("element", a.element); c.input("testElements", a.testElements); c.bool("invert", a.invert ?? false); }

export interface TrapezoidArgs { y: ArrayInput; x?: ArrayInput | null; dx?: number; axis?: number }
function encodeTrapezoid(c: LibCall, a: TrapezoidArgs): void { c.only(a, ["y", "x", "dx", "axis"]); c.input("y", a.y); if (c.present(a.x)) c.input("x", a.x); c.num("dx", a.dx ?? 1); c.int("axis", a.axis ?? -1); }

export interface WindowArgs { kind: "hamming" | "hann" | "bartlett" | "blackman"; m: number; device?: "cpu" | "wasm" | "webgpu" | "webgl" | null }
function encodeWindow(c: LibCall, a: WindowArgs): void { c.only(a, ["kind", "m", "device"]); c.choice("kind", a.kind, ["hamming", "hann", "bartlett", "blackman"]); c.size("m", a.m); if (c.present(a.device)) c.choice("device", a.device, ["cpu", "wasm", "webgpu", "webgl"]); }

export interface LogspaceArgs { start: number; stop: number; num?: number; endpoint?: boolean; base?: number; dtype?: "bool" | "uint32" | "int32" | "float16" | "float32" | "float64" | null; device?: "cpu" | "wasm" | "webgpu" | "webgl" | null }
function encodeLogspace(c: LibCall, a: LogspaceArgs): void { c.only(a, ["start", "stop", "num", "endpoint", "base", "dtype", "device"]); c.num("start", a.start); c.num("stop", a.stop); c.size("num", a.num ?? 50); c.bool("endpoint", a.endpoint ?? true); c.num("base", a.base ?? 10); if (c.present(a.dtype)) c.choice("dtype", a.dtype, ["bool", "uint32", "int32", "float16", "float32", "float64"]); if (c.present(a.device)) c.choice("device", a.device, ["cpu", "wasm", "webgpu", "webgl"]); }

export interface GeomspaceArgs { start: number; stop: number; num?: number; endpoint?: boolean; dtype?: "bool" | "uint32" | "int32" | "float16" | "float32" | "float64" | null; device?: "cpu" | "wasm" | "webgpu" | "webgl" | null }
function encodeGeomspace(c: LibCall, a: GeomspaceArgs): void { c.only(a, ["start", "stop", "num", "endpoint", "dtype", "device"]); c.num("start", a.start); c.num("stop", a.stop); c.size("num", a.num ?? 50); c.bool("endpoint", a.endpoint ?? true); if (c.present(a.dtype)) c.choice("dtype", a.dtype, ["bool", "uint32", "int32", "float16", "float32", "float64"]); if (c.present(a.device)) c.choice("device", a.device, ["cpu", "wasm", "webgpu", "webgl"]); }

export interface TriArgs { n: number; m?: number | null; k?: number; dtype?: "bool" | "uint32" | "int32" | "float16" | "float32" | "float64" | null; device?: "cpu" | "wasm" | "webgpu" | "webgl" | null }
function encodeTri(c: LibCall, a: TriArgs): void { c.only(a, ["n", "m", "k", "dtype", "device"]); c.size("n", a.n); if (c.present(a.m)) c.size("m", a.m); c.int("k", a.k ?? 0); if (c.present(a.dtype)) c.choice("dtype", a.dtype, ["bool", "uint32", "int32", "float16", "float32", "float64"]); if (c.present(a.device)) c.choice("device", a.device, ["cpu", "wasm", "webgpu", "webgl"]); }

export interface DiagflatArgs { v: Array; k?: number }
function encodeDiagflat(c: LibCall, a: DiagflatArgs): void { c.only(a, ["v", "k"]); c.array("v", a.v); c.int("k", a.k ?? 0); }

export interface TensordotArgs { a: ArrayInput; b: ArrayInput; count?: number | null; aAxes?: number[]; bAxes?: number[] }
function encodeTensordot(c: LibCall, a: TensordotArgs): void { c.only(a, ["a", "b", "count", "aAxes", "bAxes"]); c.input("a", a.a); c.input("b", a.b); if (c.present(a.count)) c.int("count", a.count); for (const x of c.list("aAxes", a.aAxes ?? [])) c.int("aAxes", x); for (const x of c.list("bAxes", a.bAxes ?? [])) c.int("bAxes", x); }

export interface VecdotArgs { a: ArrayInput; b: ArrayInput; axis?: number }
function encodeVecdot(c: LibCall, a: VecdotArgs): void { c.only(a, ["a", "b", "axis"]); c.input("a", a.a); c.input("b", a.b); c.int("axis", a.axis ?? -1); }

export interface PolyderArgs { p: ArrayInput; m?: number }
function encodePolyder(c: LibCall, a: PolyderArgs): void { c.only(a, ["p", "m"]); c.input("p", a.p); c.size("m", a.m ?? 1); }

export interface ScatterAddArgs { target: ArrayInput; indices: ArrayInput; updates: ArrayInput; axis?: number }
function encodeScatterAdd(c: LibCall, a: ScatterAddArgs): void { c.only(a, ["target", "indices", "updates", "axis"]); c.input("target", a.target); c.input("indices", a.indices); c.input("updates", a.updates); c.int("axis", a.axis ?? 0); }

export interface UnwrapArgs { p: ArrayInput; discont?: number | null; axis?: number; period?: number }
function encodeUnwrap(c: LibCall, a: UnwrapArgs): void { c.only(a, ["p", "discont", "axis", "period"]); c.input("p", a.p); if (c.present(a.discont)) c.num("discont", a.discont); c.int("axis", a.axis ?? -1); c.num("period", a.period ?? 2 * Math.PI); }

export interface ComplexFftArgs { real: ArrayInput; imag: ArrayInput; axis?: number; n?: number | null }
function encodeComplexFft(c: LibCall, a: ComplexFftArgs): void { c.only(a, ["real", "imag", "axis", "n"]); c.input("real", a.real); c.input("imag", a.imag); c.int("axis", a.axis ?? -1); if (c.present(a.n)) c.size("n", a.n); }

export interface RealFftArgs { x: ArrayInput; axis?: number; n?: number | null }
function encodeRealFft(c: LibCall, a: RealFftArgs): void { c.only(a, ["x", "axis", "n"]); c.input("x", a.x); c.int("axis", a.axis ?? -1); if (c.present(a.n)) c.size("n", a.n); }

export interface FftShiftArgs { x: ArrayInput; axes?: number | number[] | null }
function encodeFftShift(c: LibCall, a: FftShiftArgs): void { c.only(a, ["x", "axes"]); c.input("x", a.x); c.axes("axes", a.axes); }

export interface ComplexFftnArgs { real: Array; imag: Array; axes?: number[] | null }
function encodeComplexFftn(c: LibCall, a: ComplexFftnArgs): void { c.only(a, ["real", "imag", "axes"]); c.array("real", a.real); c.array("imag", a.imag); if (c.present(a.axes)) for (const x of c.list("axes", a.axes)) c.int("axes", x); }

export interface RealFftnArgs { x: Array; axes?: number[] | null }
function encodeRealFftn(c: LibCall, a: RealFftnArgs): void { c.only(a, ["x", "axes"]); c.array("x", a.x); if (c.present(a.axes)) for (const x of c.list("axes", a.axes)) c.int("axes", x); }

export interface DrawArgs { key: ArrayInput; shape?: number[] }
function encodeDraw(c: LibCall, a: DrawArgs): void { c.only(a, ["key", "shape"]); c.input("key", a.key); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface LognormalArgs { key: ArrayInput; sigma?: number; shape?: number[] }
function encodeLognormal(c: LibCall, a: LognormalArgs): void { c.only(a, ["key", "sigma", "shape"]); c.input("key", a.key); c.num("sigma", a.sigma ?? 1); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface RayleighArgs { key: ArrayInput; scale?: number; shape?: number[] }
function encodeRayleigh(c: LibCall, a: RayleighArgs): void { c.only(a, ["key", "scale", "shape"]); c.input("key", a.key); c.num("scale", a.scale ?? 1); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface ParetoArgs { key: ArrayInput; b: number; shape?: number[] }
function encodePareto(c: LibCall, a: ParetoArgs): void { c.only(a, ["key", "b", "shape"]); c.input("key", a.key); c.num("b", a.b); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface GeometricArgs { key: ArrayInput; p: number; shape?: number[] }
function encodeGeometric(c: LibCall, a: GeometricArgs): void { c.only(a, ["key", "p", "shape"]); c.input("key", a.key); c.num("p", a.p); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface DoubleSidedMaxwellArgs { key: ArrayInput; loc: number; scale: number; shape?: number[] }
function encodeDoubleSidedMaxwell(c: LibCall, a: DoubleSidedMaxwellArgs): void { c.only(a, ["key", "loc", "scale", "shape"]); c.input("key", a.key); c.num("loc", a.loc); c.num("scale", a.scale); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface WeibullMinArgs { key: ArrayInput; scale: number; concentration: number; shape?: number[] }
function encodeWeibullMin(c: LibCall, a: WeibullMinArgs): void { c.only(a, ["key", "scale", "concentration", "shape"]); c.input("key", a.key); c.num("scale", a.scale); c.num("concentration", a.concentration); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface TriangularArgs { key: ArrayInput; left: number; mode: number; right: number; shape?: number[] }
function encodeTriangular(c: LibCall, a: TriangularArgs): void { c.only(a, ["key", "left", "mode", "right", "shape"]); c.input("key", a.key); c.num("left", a.left); c.num("mode", a.mode); c.num("right", a.right); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface RandintArgs { key: ArrayInput; minval: number; maxval: number; shape?: number[] }
function encodeRandint(c: LibCall, a: RandintArgs): void { c.only(a, ["key", "minval", "maxval", "shape"]); c.input("key", a.key); c.num("minval", a.minval); c.num("maxval", a.maxval); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface BallArgs { key: ArrayInput; d: number; p?: number; shape?: number[] }
function encodeBall(c: LibCall, a: BallArgs): void { c.only(a, ["key", "d", "p", "shape"]); c.input("key", a.key); c.num("d", a.d); c.num("p", a.p ?? 2); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); }

export interface CategoricalArgs { key: ArrayInput; logits: ArrayInput; axis?: number; shape?: number[] | null; replace?: boolean }
function encodeCategorical(c: LibCall, a: CategoricalArgs): void { c.only(a, ["key", "logits", "axis", "shape", "replace"]); c.input("key", a.key); c.input("logits", a.logits); c.int("axis", a.axis ?? -1); if (c.present(a.shape)) for (const x of c.list("shape", a.shape)) c.size("shape", x); c.bool("replace", a.replace ?? true); }

export interface MultivariateNormalArgs { key: ArrayInput; mean: ArrayInput; cov: ArrayInput; shape?: number[] | null }
function encodeMultivariateNormal(c: LibCall, a: MultivariateNormalArgs): void { c.only(a, ["key", "mean", "cov", "shape"]); c.input("key", a.key); c.input("mean", a.mean); c.input("cov", a.cov); if (c.present(a.shape)) for (const x of c.list("shape", a.shape)) c.size("shape", x); }

export interface PermutationCountArgs { key: ArrayInput; n: number }
function encodePermutationCount(c: LibCall, a: PermutationCountArgs): void { c.only(a, ["key", "n"]); c.input("key", a.key); c.size("n", a.n); }

export interface PermutationArgs { key: ArrayInput; x: ArrayInput; axis?: number; independent?: boolean }
function encodePermutation(c: LibCall, a: PermutationArgs): void { c.only(a, ["key", "x", "axis", "independent"]); c.input("key", a.key); c.input("x", a.x); c.int("axis", a.axis ?? 0); c.bool("independent", a.independent ?? false); }

export interface ChoiceArgs { key: ArrayInput; a?: ArrayInput | null; n?: number; shape?: number[]; replace?: boolean; p?: ArrayInput | null; axis?: number }
function encodeChoice(c: LibCall, a: ChoiceArgs): void { c.only(a, ["key", "a", "n", "shape", "replace", "p", "axis"]); c.input("key", a.key); if (c.present(a.a)) c.input("a", a.a); c.size("n", a.n ?? 0); for (const x of c.list("shape", a.shape ?? [])) c.size("shape", x); c.bool("replace", a.replace ?? true); if (c.present(a.p)) c.input("p", a.p); c.int("axis", a.axis ?? 0); }

export interface DotArgs { lhs: ArrayInput; rhs: ArrayInput; lhsContractingDims?: number[] | null; rhsContractingDims?: number[] | null; lhsBatchDims?: number[]; rhsBatchDims?: number[] }
function encodeDot(c: LibCall, a: DotArgs): void { c.only(a, ["lhs", "rhs", "lhsContractingDims", "rhsContractingDims", "lhsBatchDims", "rhsBatchDims"]); c.input("lhs", a.lhs); c.input("rhs", a.rhs); if (c.present(a.lhsContractingDims)) for (const x of c.list("lhsContractingDims", a.lhsContractingDims)) c.int("lhsContractingDims", x); if (c.present(a.rhsContractingDims)) for (const x of c.list("rhsContractingDims", a.rhsContractingDims)) c.int("rhsContractingDims", x); for (const x of c.list("lhsBatchDims", a.lhsBatchDims ?? [])) c.int("lhsBatchDims", x); for (const x of c.list("rhsBatchDims", a.rhsBatchDims ?? [])) c.int("rhsBatchDims", x); }

export interface DynamicSliceArgs { x: ArrayInput; startIndices: ArrayInput[]; sliceSizes: number[] }
function encodeDynamicSlice(c: LibCall, a: DynamicSliceArgs): void { c.only(a, ["x", "startIndices", "sliceSizes"]); c.input("x", a.x); for (const x of c.list("startIndices", a.startIndices)) c.input("startIndices", x); for (const x of c.list("sliceSizes", a.sliceSizes)) c.size("sliceSizes", x); }

export interface DynamicIndexInDimArgs { x: ArrayInput; index: ArrayInput; axis?: number; keepdims?: boolean }
function encodeDynamicIndexInDim(c: LibCall, a: DynamicIndexInDimArgs): void { c.only(a, ["x", "index", "axis", "keepdims"]); c.input("x", a.x); c.input("index", a.index); c.int("axis", a.axis ?? 0); c.bool("keepdims", a.keepdims ?? false); }

export interface DynamicUpdateSliceArgs { dst: ArrayInput; src: ArrayInput; offset: ArrayInput; axis?: number }
function encodeDynamicUpdateSlice(c: LibCall, a: DynamicUpdateSliceArgs): void { c.only(a, ["dst", "src", "offset", "axis"]); c.input("dst", a.dst); c.input("src", a.src); c.input("offset", a.offset); c.int("axis", a.axis ?? 0); }

export interface TopKArgs { x: ArrayInput; k: number; axis?: number }
function encodeTopK(c: LibCall, a: TopKArgs): void { c.only(a, ["x", "k", "axis"]); c.input("x", a.x); c.size("k", a.k); c.int("axis", a.axis ?? -1); }

export interface PoolArgs { x: ArrayInput; windowDimensions: number[]; strides: number[] }
function encodePool(c: LibCall, a: PoolArgs): void { c.only(a, ["x", "windowDimensions", "strides"]); c.input("x", a.x); for (const x of c.list("windowDimensions", a.windowDimensions)) c.size("windowDimensions", x); for (const x of c.list("strides", a.strides)) c.size("strides", x); }

export interface ConvTransposeArgs { lhs: ArrayInput; rhs: ArrayInput; strides: number[]; padding: "explicit" | "VALID" | "SAME"; pads?: number[]; rhsDilation?: number[] | null; transposeKernel?: boolean }
function encodeConvTranspose(c: LibCall, a: ConvTransposeArgs): void { c.only(a, ["lhs", "rhs", "strides", "padding", "pads", "rhsDilation", "transposeKernel"]); c.input("lhs", a.lhs); c.input("rhs", a.rhs); for (const x of c.list("strides", a.strides)) c.size("strides", x); c.choice("padding", a.padding, ["explicit", "VALID", "SAME"]); for (const x of c.list("pads", a.pads ?? [])) c.int("pads", x); if (c.present(a.rhsDilation)) for (const x of c.list("rhsDilation", a.rhsDilation)) c.size("rhsDilation", x); c.bool("transposeKernel", a.transposeKernel ?? false); }

export interface MatrixArgs { a: Array }
function encodeMatrix(c: LibCall, a: MatrixArgs): void { c.only(a, ["a"]); c.array("a", a.a); }

export interface MatrixPairArgs { a: Array; b: Array }
function encodeMatrixPair(c: LibCall, a: MatrixPairArgs): void { c.only(a, ["a", "b"]); c.array("a", a.a); c.array("b", a.b); }

export interface MatrixListArgs { arrays: Array[] }
function encodeMatrixList(c: LibCall, a: MatrixListArgs): void { c.only(a, ["arrays"]); for (const x of c.list("arrays", a.arrays)) c.array("arrays", x); }

export interface LaxCholeskyArgs { a: Array; upper?: boolean }
function encodeLaxCholesky(c: LibCall, a: LaxCholeskyArgs): void { c.only(a, ["a", "upper"]); c.array("a", a.a); c.bool("upper", a.upper ?? false); }

export interface LaxTriangularSolveArgs { a: Array; b: Array; leftSide?: boolean; lower?: boolean; transposeA?: boolean; unitDiagonal?: boolean }
function encodeLaxTriangularSolve(c: LibCall, a: LaxTriangularSolveArgs): void { c.only(a, ["a", "b", "leftSide", "lower", "transposeA", "unitDiagonal"]); c.array("a", a.a); c.array("b", a.b); c.bool("leftSide", a.leftSide ?? false); c.bool("lower", a.lower ?? false); c.bool("transposeA", a.transposeA ?? false); c.bool("unitDiagonal", a.unitDiagonal ?? false); }

export interface QrArgs { a: Array; fullMatrices?: boolean }
function encodeQr(c: LibCall, a: QrArgs): void { c.only(a, ["a", "fullMatrices"]); c.array("a", a.a); c.bool("fullMatrices", a.fullMatrices ?? true); }

export interface EighArgs { a: Array; lower?: boolean; symmetrizeInput?: boolean }
function encodeEigh(c: LibCall, a: EighArgs): void { c.only(a, ["a", "lower", "symmetrizeInput"]); c.array("a", a.a); c.bool("lower", a.lower ?? true); c.bool("symmetrizeInput", a.symmetrizeInput ?? true); }

export interface SvdArgs { a: Array; fullMatrices?: boolean; computeUv?: boolean }
function encodeSvd(c: LibCall, a: SvdArgs): void { c.only(a, ["a", "fullMatrices", "computeUv"]); c.array("a", a.a); c.bool("fullMatrices", a.fullMatrices ?? true); c.bool("computeUv", a.computeUv ?? true); }

export interface ScipyCholeskyArgs { a: Array; lower?: boolean }
function encodeScipyCholesky(c: LibCall, a: ScipyCholeskyArgs): void { c.only(a, ["a", "lower"]); c.array("a", a.a); c.bool("lower", a.lower ?? false); }

export interface SolveTriangularArgs { a: Array; b: Array; lower?: boolean; trans?: boolean; unitDiagonal?: boolean }
function encodeSolveTriangular(c: LibCall, a: SolveTriangularArgs): void { c.only(a, ["a", "b", "lower", "trans", "unitDiagonal"]); c.array("a", a.a); c.array("b", a.b); c.bool("lower", a.lower ?? false); c.bool("trans", a.trans ?? false); c.bool("unitDiagonal", a.unitDiagonal ?? false); }

export interface CholeskyArgs { a: Array; upper?: boolean; symmetrizeInput?: boolean }
function encodeCholesky(c: LibCall, a: CholeskyArgs): void { c.only(a, ["a", "upper", "symmetrizeInput"]); c.array("a", a.a); c.bool("upper", a.upper ?? false); c.bool("symmetrizeInput", a.symmetrizeInput ?? true); }

export interface VectorNormArgs { x: Array; ord?: number; axis?: number | number[] | null; keepdims?: boolean }
function encodeVectorNorm(c: LibCall, a: VectorNormArgs): void { c.only(a, ["x", "ord", "axis", "keepdims"]); c.array("x", a.x); c.num("ord", a.ord ?? 2); c.axes("axis", a.axis); c.bool("keepdims", a.keepdims ?? false); }

export interface NormArgs { x: Array; ord?: number | null; ordName?: "fro" | "nuc" | null; axis?: number | number[] | null; keepdims?: boolean }
function encodeNorm(c: LibCall, a: NormArgs): void { c.only(a, ["x", "ord", "ordName", "axis", "keepdims"]); c.array("x", a.x); if (c.present(a.ord)) c.num("ord", a.ord); if (c.present(a.ordName)) c.choice("ordName", a.ordName, ["fro", "nuc"]); c.axes("axis", a.axis); c.bool("keepdims", a.keepdims ?? false); }

export interface MatrixNormArgs { x: Array; ord?: number | null; ordName?: "fro" | "nuc" | null; keepdims?: boolean }
function encodeMatrixNorm(c: LibCall, a: MatrixNormArgs): void { c.only(a, ["x", "ord", "ordName", "keepdims"]); c.array("x", a.x); if (c.present(a.ord)) c.num("ord", a.ord); if (c.present(a.ordName)) c.choice("ordName", a.ordName, ["fro", "nuc"]); c.bool("keepdims", a.keepdims ?? false); }

export interface CrossArgs { a: Array; b: Array; axis?: number }
function encodeCross(c: LibCall, a: CrossArgs): void { c.only(a, ["a", "b", "axis"]); c.array("a", a.a); c.array("b", a.b); c.int("axis", a.axis ?? -1); }

export interface MatrixPowerArgs { a: Array; n: number }
function encodeMatrixPower(c: LibCall, a: MatrixPowerArgs): void { c.only(a, ["a", "n"]); c.array("a", a.a); c.num("n", a.n); }

export const indices = (a: IndicesArgs): Array => run1(0, "indices", a, encodeIndices);
export const fftfreq = (a: FftFreqArgs): Array => run1(1, "fftfreq", a, encodeFftFreq);
export const rfftfreq = (a: FftFreqArgs): Array => run1(2, "rfftfreq", a, encodeFftFreq);
export const glu = (a: GluArgs): Array => run1(3, "glu", a, encodeGlu);
export const logmeanexp = (a: LogmeanexpArgs): Array => run1(4, "logmeanexp", a, encodeLogmeanexp);
export const standardize = (a: StandardizeArgs): Array => run1(5, "standardize", a, encodeStandardize);
export const dotProductAttention = (a: AttentionArgs): Array => run1(6, "dotProductAttention", a, encodeAttention);
export const ptp = (a: NanReductionArgs): Array => run1(7, "ptp", a, encodeNanReduction);
export const countNonzero = (a: NanReductionArgs): Array => run1(8, "countNonzero", a, encodeNanReduction);
export const nansum = (a: NanReductionArgs): Array => run1(9, "nansum", a, encodeNanReduction);
export const nanprod = (a: NanReductionArgs): Array => run1(10, "nanprod", a, encodeNanReduction);
export const nanmax = (a: NanReductionArgs): Array => run1(11, "nanmax", a, encodeNanReduction);
export const nanmin = (a: NanReductionArgs): Array => run1(12, "nanmin", a, encodeNanReduction);
export const nanmean = (a: NanReductionArgs): Array => run1(13, "nanmean", a, encodeNanReduction);
export const nanvar = (a: NanReductionArgs): Array => run1(14, "nanvar", a, encodeNanReduction);
export const nanstd = (a: NanReductionArgs): Array => run1(15, "nanstd", a, encodeNanReduction);
export const nanargmax = (a: NanScanArgs): Array => run1(16, "nanargmax", a, encodeNanScan);
export const nanargmin = (a: NanScanArgs): Array => run1(17, "nanargmin", a, encodeNanScan);
export const nancumsum = (a: NanScanArgs): Array => run1(18, "nancumsum", a, encodeNanScan);
export const nancumprod = (a: NanScanArgs): Array => run1(19, "nancumprod", a, encodeNanScan);
export const cumulativeSum = (a: CumulativeArgs): Array => run1(20, "cumulativeSum", a, encodeCumulative);
export const cumulativeProd = (a: CumulativeArgs): Array => run1(21, "cumulativeProd", a, encodeCumulative);
export const average = (a: AverageArgs): Array => run1(22, "average", a, encodeAverage);
export const allclose = (a: AllcloseArgs): Array => run1(23, "allclose", a, encodeAllclose);
export const arrayEqual = (a: ArrayEqualArgs): Array => run1(24, "arrayEqual", a, encodeArrayEqual);
export const arrayEquiv = (a: ArrayEqualArgs): Array => run1(25, "arrayEquiv", a, encodeArrayEqual);
export const cov = (a: CovArgs): Array => run1(26, "cov", a, encodeCov);
export const corrcoef = (a: CovArgs): Array => run1(27, "corrcoef", a, encodeCov);
export const frexp = (a: UnaryArgs): [Array, Array] => run(28, "frexp", a, encodeUnary) as [Array, Array];
export const modf = (a: UnaryArgs): [Array, Array] => run(29, "modf", a, encodeUnary) as [Array, Array];
export const repeat = (a: RepeatArgs): Array => run1(30, "repeat", a, encodeRepeat);
export const roll = (a: RollArgs): Array => run1(31, "roll", a, encodeRoll);
export const rot90 = (a: Rot90Args): Array => run1(32, "rot90", a, encodeRot90);
export const append = (a: AppendArgs): Array => run1(33, "append", a, encodeAppend);
export const diff = (a: DiffArgs): Array => run1(34, "diff", a, encodeDiff);
export const ediff1d = (a: UnaryArgs): Array => run1(35, "ediff1d", a, encodeUnary);
export const take = (a: TakeArgs): Array => run1(36, "take", a, encodeTake);
export const takeAlongAxis = (a: TakeAlongAxisArgs): Array => run1(37, "takeAlongAxis", a, encodeTakeAlongAxis);
export const meshgrid = (a: MeshgridArgs): Array[] => run(38, "meshgrid", a, encodeMeshgrid);
export const broadcastArrays = (a: ArrayListArgs): Array[] => run(39, "broadcastArrays", a, encodeArrayList);
export const unstack = (a: AxisSplitArgs): Array[] => run(40, "unstack", a, encodeAxisSplit);
export const arraySplit = (a: ArraySplitArgs): Array[] => run(41, "arraySplit", a, encodeArraySplit);
export const vander = (a: VanderArgs): Array => run1(42, "vander", a, encodeVander);
export const select = (a: SelectArgs): Array => run1(43, "select", a, encodeSelect);
export const isin = (a: IsinArgs): Array => run1(44, "isin", a, encodeIsin);
export const trapezoid = (a: TrapezoidArgs): Array => run1(45, "trapezoid", a, encodeTrapezoid);
export const window = (a: WindowArgs): Array => run1(46, "window", a, encodeWindow);
export const logspace = (a: LogspaceArgs): Array => run1(47, "logspace", a, encodeLogspace);
export const geomspace = (a: GeomspaceArgs): Array => run1(48, "geomspace", a, encodeGeomspace);
export const tri = (a: TriArgs): Array => run1(49, "tri", a, encodeTri);
export const diagflat = (a: DiagflatArgs): Array => run1(50, "diagflat", a, encodeDiagflat);
export const tensordot = (a: TensordotArgs): Array => run1(51, "tensordot", a, encodeTensordot);
export const inner = (a: BinaryArgs): Array => run1(52, "inner", a, encodeBinary);
export const outer = (a: BinaryArgs): Array => run1(53, "outer", a, encodeBinary);
export const vdot = (a: BinaryArgs): Array => run1(54, "vdot", a, encodeBinary);
export const matvec = (a: BinaryArgs): Array => run1(55, "matvec", a, encodeBinary);
export const vecmat = (a: BinaryArgs): Array => run1(56, "vecmat", a, encodeBinary);
export const cross = (a: BinaryArgs): Array => run1(57, "cross", a, encodeBinary);
export const vecdot = (a: VecdotArgs): Array => run1(58, "vecdot", a, encodeVecdot);
export const polyval = (a: BinaryArgs): Array => run1(59, "polyval", a, encodeBinary);
export const polyadd = (a: BinaryArgs): Array => run1(60, "polyadd", a, encodeBinary);
export const polysub = (a: BinaryArgs): Array => run1(61, "polysub", a, encodeBinary);
export const polymul = (a: BinaryArgs): Array => run1(62, "polymul", a, encodeBinary);
export const polyder = (a: PolyderArgs): Array => run1(63, "polyder", a, encodePolyder);
export const scatterAdd = (a: ScatterAddArgs): Array => run1(64, "scatterAdd", a, encodeScatterAdd);
export const unwrap = (a: UnwrapArgs): Array => run1(65, "unwrap", a, encodeUnwrap);
export const fft = (a: ComplexFftArgs): [Array, Array] => run(66, "fft", a, encodeComplexFft) as [Array, Array];
export const ifft = (a: ComplexFftArgs): [Array, Array] => run(67, "ifft", a, encodeComplexFft) as [Array, Array];
export const irfft = (a: ComplexFftArgs): Array => run1(68, "irfft", a, encodeComplexFft);
export const hfft = (a: ComplexFftArgs): Array => run1(69, "hfft", a, encodeComplexFft);
export const rfft = (a: RealFftArgs): [Array, Array] => run(70, "rfft", a, encodeRealFft) as [Array, Array];
export const ihfft = (a: RealFftArgs): [Array, Array] => run(71, "ihfft", a, encodeRealFft) as [Array, Array];
export const fftn = (a: ComplexFftnArgs): [Array, Array] => run(72, "fftn", a, encodeComplexFftn) as [Array, Array];
export const ifftn = (a: ComplexFftnArgs): [Array, Array] => run(73, "ifftn", a, encodeComplexFftn) as [Array, Array];
export const irfftn = (a: ComplexFftnArgs): Array => run1(74, "irfftn", a, encodeComplexFftn);
export const rfftn = (a: RealFftnArgs): [Array, Array] => run(75, "rfftn", a, encodeRealFftn) as [Array, Array];
export const fftshift = (a: FftShiftArgs): Array => run1(76, "fftshift", a, encodeFftShift);
export const ifftshift = (a: FftShiftArgs): Array => run1(77, "ifftshift", a, encodeFftShift);
export const cauchy = (a: DrawArgs): Array => run1(78, "cauchy", a, encodeDraw);
export const exponential = (a: DrawArgs): Array => run1(79, "exponential", a, encodeDraw);
export const gumbel = (a: DrawArgs): Array => run1(80, "gumbel", a, encodeDraw);
export const laplace = (a: DrawArgs): Array => run1(81, "laplace", a, encodeDraw);
export const logistic = (a: DrawArgs): Array => run1(82, "logistic", a, encodeDraw);
export const maxwell = (a: DrawArgs): Array => run1(83, "maxwell", a, encodeDraw);
export const rademacher = (a: DrawArgs): Array => run1(84, "rademacher", a, encodeDraw);
export const lognormal = (a: LognormalArgs): Array => run1(85, "lognormal", a, encodeLognormal);
export const rayleigh = (a: RayleighArgs): Array => run1(86, "rayleigh", a, encodeRayleigh);
export const pareto = (a: ParetoArgs): Array => run1(87, "pareto", a, encodePareto);
export const geometric = (a: GeometricArgs): Array => run1(88, "geometric", a, encodeGeometric);
export const doubleSidedMaxwell = (a: DoubleSidedMaxwellArgs): Array => run1(89, "doubleSidedMaxwell", a, encodeDoubleSidedMaxwell);
export const weibullMin = (a: WeibullMinArgs): Array => run1(90, "weibullMin", a, encodeWeibullMin);
export const triangular = (a: TriangularArgs): Array => run1(91, "triangular", a, encodeTriangular);
export const randint = (a: RandintArgs): Array => run1(92, "randint", a, encodeRandint);
export const ball = (a: BallArgs): Array => run1(93, "ball", a, encodeBall);
export const categorical = (a: CategoricalArgs): Array => run1(94, "categorical", a, encodeCategorical);
export const multivariateNormal = (a: MultivariateNormalArgs): Array => run1(95, "multivariateNormal", a, encodeMultivariateNormal);
export const permutationCount = (a: PermutationCountArgs): Array => run1(96, "permutation", a, encodePermutationCount);
export const permutation = (a: PermutationArgs): Array => run1(97, "permutation", a, encodePermutation);
export const choice = (a: ChoiceArgs): Array => run1(98, "choice", a, encodeChoice);
export const dot = (a: DotArgs): Array => run1(99, "dot", a, encodeDot);
export const dynamicSlice = (a: DynamicSliceArgs): Array => run1(100, "dynamicSlice", a, encodeDynamicSlice);
export const dynamicIndexInDim = (a: DynamicIndexInDimArgs): Array => run1(101, "dynamicIndexInDim", a, encodeDynamicIndexInDim);
export const dynamicUpdateSlice = (a: DynamicUpdateSliceArgs): Array => run1(102, "dynamicUpdateSlice", a, encodeDynamicUpdateSlice);
export const topK = (a: TopKArgs): [Array, Array] => run(103, "topK", a, encodeTopK) as [Array, Array];
export const pool = (a: PoolArgs): Array => run1(104, "reduceWindow", a, encodePool);
export const convTranspose = (a: ConvTransposeArgs): Array => run1(105, "convTranspose", a, encodeConvTranspose);
export const laxCholesky = (a: LaxCholeskyArgs): Array => run1(106, "cholesky", a, encodeLaxCholesky);
export const laxTriangularSolve = (a: LaxTriangularSolveArgs): Array => run1(107, "triangularSolve", a, encodeLaxTriangularSolve);
export const laxQr = (a: QrArgs): [Array, Array] => run(108, "qr", a, encodeQr) as [Array, Array];
export const laxEigh = (a: EighArgs): [Array, Array] => run(109, "eigh", a, encodeEigh) as [Array, Array];
export const laxSvd = (a: SvdArgs): Array[] => run(110, "svd", a, encodeSvd);
export const laxLu = (a: MatrixArgs): [Array, Array, Array] => run(111, "lu", a, encodeMatrix) as [Array, Array, Array];
export const scipyCholesky = (a: ScipyCholeskyArgs): Array => run1(112, "cholesky", a, encodeScipyCholesky);
export const scipySolveTriangular = (a: SolveTriangularArgs): Array => run1(113, "solveTriangular", a, encodeSolveTriangular);
export const linalgCholesky = (a: CholeskyArgs): Array => run1(114, "cholesky", a, encodeCholesky);
export const linalgVectorNorm = (a: VectorNormArgs): Array => run1(115, "vectorNorm", a, encodeVectorNorm);
export const linalgMatrixNorm = (a: MatrixNormArgs): Array => run1(116, "matrixNorm", a, encodeMatrixNorm);
export const linalgNorm = (a: NormArgs): Array => run1(117, "norm", a, encodeNorm);
export const linalgCross = (a: CrossArgs): Array => run1(118, "cross", a, encodeCross);
export const linalgMultiDot = (a: MatrixListArgs): Array => run1(119, "multiDot", a, encodeMatrixList);
export const linalgMatrixPower = (a: MatrixPowerArgs): Array => run1(120, "matrixPower", a, encodeMatrixPower);
export const linalgLstsq = (a: MatrixPairArgs): Array => run1(121, "lstsq", a, encodeMatrixPair);
export const linalgQr = (a: QrArgs): [Array, Array] => run(122, "qr", a, encodeQr) as [Array, Array];
export const linalgEigh = (a: EighArgs): [Array, Array] => run(123, "eigh", a, encodeEigh) as [Array, Array];
export const linalgEigvalsh = (a: EighArgs): Array => run1(124, "eigvalsh", a, encodeEigh);
export const linalgSvd = (a: SvdArgs): Array[] => run(125, "svd", a, encodeSvd);
export const linalgSvdvals = (a: MatrixArgs): Array => run1(126, "svdvals", a, encodeMatrix);
export const linalgSolve = (a: MatrixPairArgs): Array => run1(127, "solve", a, encodeMatrixPair);
export const linalgInv = (a: MatrixArgs): Array => run1(128, "inv", a, encodeMatrix);
export const linalgDet = (a: MatrixArgs): Array => run1(129, "det", a, encodeMatrix);
export const linalgSlogdet = (a: MatrixArgs): [Array, Array] => run(130, "slogdet", a, encodeMatrix) as [Array, Array];
