//! Kernel IR expressions → WGSL statements. Each node becomes one `let` (so the nesting depth of
//! the WGSL stays flat however deep the tree, well inside Tint's and naga's parser limits), and
//! the emitter records which helper functions (see `wgsl_lib`) the kernel needs. Within one
//! expression, structurally equal subexpressions are one `let` (value numbering on the emitted
//! text: a node whose type and right-hand side were bound before reuses that name).
//!
//! Values live in registers as `f32`, `i32`, `u32` and `bool` (bool is `u32` 0/1 only in
//! storage). No operation is a WGSL const-expression, so the shader-creation errors for
//! const-expressions that overflow, divide by zero or produce ±∞/NaN can never trigger: an
//! integer or bool constant is a literal only as an operand of an operation or comparison
//! whose other operand is not a constant (so the operation is evaluated at run time; a
//! literal divisor other than 0 and −1 then needs no helper), otherwise a function-scope
//! `var` (naga folds `let`s of constants), and f32 constants are their bits
//! xor-ed with a zero the compiler cannot see through. The latter also keeps f32 constants
//! opaque to the driver: Vulkan lets it reassociate float arithmetic that is not marked
//! `NoContraction` (naga never marks it), and Mesa does fold `x·c1·c2` into `x·(c1·c2)`, which
//! would change the bits of exact operations. For the same reason every float `+ − ×` passes
//! through `ox_keep`, an integer no-op the driver cannot see through, so it is neither
//! reassociated nor fused into a multiply-add (÷, reciprocal and √ are helpers whose results
//! are assembled from integers). `Where` is `select`, which evaluates both
//! sides: that is safe because the other side has no effects and loads are indexed with `u32`
//! (a guarded load's index may be negative or past the end; WGSL clamps or zeroes such runtime
//! accesses, and a runtime index is never a shader-creation error).
//!
//! float16 (`wgsl_half`): values in `f32` registers, read from u32 words, written to `f16`
//! storage; each operation of float16 dtype is the float32 one rounded to float16.

use std::collections::HashMap;
use std::fmt::Write;

use super::wgsl_lib::{Helper, Helpers};
use crate::core::DType;
use crate::kernel::{AluExp, AluKind, BinaryOp, CompareOp, ThreefryMode, UnaryOp};
use crate::util::{Error, Result};

/// A `u32` zero that the shader compiler cannot prove to be zero: a private variable that
/// `main` sets to `gid.z` (kernels are dispatched with one workgroup along z).
pub(super) const OPAQUE_ZERO: &str = "ox_zp";

fn unsupported(what: String) -> Error {
    Error::new(
        "webgpu",
        format!("{what} is not supported by the WGSL emitter"),
    )
}

/// The WGSL type of a dtype in storage buffers.
/// The element type an input of `dtype` is bound as: float16 inputs are read as u32 words
/// (`wgsl_half::load`), the others as their storage type.
pub(super) fn input_type(dtype: DType) -> Result<&'static str> {
    match dtype {
        DType::Float16 => Ok("u32"),
        _ => storage_type(dtype),
    }
}

pub(super) fn storage_type(dtype: DType) -> Result<&'static str> {
    match dtype {
        DType::Float32 => Ok("f32"),
        DType::Int32 => Ok("i32"),
        DType::Uint32 | DType::Bool => Ok("u32"),
        DType::Float64 => Err(Error::new(
            "webgpu",
            "float64 is not supported on the webgpu device; use the \"cpu\" or \"wasm\" device",
        )),
        // The output; inputs are read as u32 words (`wgsl_half`). Needs `enable f16;`
        // (`wgsl_half::ENABLE`), which `wgsl` emits for float16 kernels.
        DType::Float16 => Ok("f16"),
    }
}

/// The dtype whose register operations compute `d`: float16 computes in float32.
pub(super) fn wide(d: DType) -> DType {
    if d == DType::Float16 {
        DType::Float32
    } else {
        d
    }
}

/// The WGSL type of a dtype in registers.
pub(super) fn value_type(dtype: DType) -> Result<&'static str> {
    match dtype {
        DType::Bool => Ok("bool"),
        DType::Float16 => Ok("f32"),
        other => storage_type(other),
    }
}

/// A register value converted for storing to a buffer of its dtype.
pub(super) fn to_storage(dtype: DType, value: &str) -> String {
    match dtype {
        DType::Bool => format!("select(0u, 1u, {value})"),
        DType::Float16 => format!("f16({value})"),
        _ => value.to_string(),
    }
}

/// A WGSL literal of `value` (already converted to `dtype` by the caller's rules) for a `var`
/// initializer; f32 constants are given by their bits (returned with `bits: true`).
fn literal(dtype: DType, value: f64) -> Result<(String, bool)> {
    Ok(match dtype {
        DType::Float32 => (format!("{:#010x}u", (value as f32).to_bits()), true),
        DType::Float16 => {
            let rounded = crate::core::f16::round(value) as f32;
            (format!("{:#010x}u", rounded.to_bits()), true)
        }
        DType::Int32 => (
            format!("bitcast<i32>({:#010x}u)", value as i32 as u32),
            false,
        ),
        DType::Uint32 => (format!("{}u", value as u32), false),
        DType::Bool => ((value != 0.0).to_string(), false),
        other => return Err(storage_type(other).unwrap_err()),
    })
}

fn is_const(e: &AluExp) -> bool {
    matches!(e.kind, AluKind::Const(_))
}

/// An integer or bool constant as a WGSL literal (None for floats and for `i32::MIN`, whose
/// literal would be the negation of an out-of-range `2147483648i`).
fn int_literal(e: &AluExp) -> Option<String> {
    let v = e.const_value()?;
    match e.dtype {
        DType::Int32 if v as i32 == i32::MIN => None,
        DType::Int32 if v < 0.0 => Some(format!("({}i)", v as i32)),
        DType::Int32 => Some(format!("{}i", v as i32)),
        DType::Uint32 => Some(format!("{}u", v as u32)),
        DType::Bool => Some((v != 0.0).to_string()),
        _ => None,
    }
}

pub(super) struct Emitter {
    /// The statements emitted so far.
    pub body: String,
    pub helpers: Helpers,
    /// Which inputs the expression loads from.
    pub loaded: Vec<bool>,
    /// When set, input `j` is not a binding of its own but the elements of a packed `u32`
    /// array (`ox_buf` in storage, `ox_wg` in workgroup memory) from an offset expression on:
    /// (array, offset) per input (the looping scan shader, `program::looping`).
    pub packed: Option<Vec<(String, String)>>,
    /// When set, input `j` is binding `in{j}` from this offset expression on (the
    /// pre-encoded scan steps, `program::encoded`: xs rows of a stacked buffer).
    pub offsets: Option<Vec<String>>,
    /// When set, every load is this name (a kernel's epilogue, whose only input is the value
    /// it maps, emitted in the same invocation by the scan shaders).
    pub substitute: Option<String>,
    /// When set, the lane of the wide form being emitted and its inputs bound as vectors
    /// (`wgsl_wide`): 32-bit loads read vector components or elements through vectors.
    pub lanes: Option<super::wgsl_wide::Lanes>,
    indent: String,
    next: usize,
    /// The name bound to each (type, value) during one [`Emitter::emit`] call: a repeated
    /// subexpression is computed once (see the module comment).
    memo: HashMap<(&'static str, String), String>,
}

impl Emitter {
    /// Touches each input the expression did not load (`arrayLength`, at `indent`): every
    /// binding must be used, or the pipeline's derived layout would lack it.
    pub fn use_unloaded_inputs(&mut self, indent: &str) {
        for (i, loaded) in self.loaded.iter().enumerate() {
            if !loaded {
                writeln!(self.body, "{indent}_ = arrayLength(&in{i});").unwrap();
            }
        }
    }

    pub fn new(inputs: usize, indent: &str) -> Emitter {
        Emitter {
            body: String::new(),
            helpers: Helpers::default(),
            loaded: vec![false; inputs],
            packed: None,
            offsets: None,
            substitute: None,
            lanes: None,
            indent: indent.to_string(),
            next: 0,
            memo: HashMap::new(),
        }
    }

    pub fn set_indent(&mut self, indent: &str) {
        self.indent = indent.to_string();
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("v{}", self.next - 1)
    }

    fn line(&mut self, text: String) {
        writeln!(self.body, "{}{text}", self.indent).unwrap();
    }

    /// Binds `value` (of `dtype`) to a new name.
    fn bind(&mut self, dtype: DType, value: String) -> Result<String> {
        let ty = value_type(dtype)?;
        if let Some(name) = self.memo.get(&(ty, value.clone())) {
            return Ok(name.clone());
        }
        let name = self.fresh();
        self.line(format!("let {name}: {ty} = {value};"));
        self.memo.insert((ty, value), name.clone());
        Ok(name)
    }

    /// A float result that the driver may not reassociate or contract with its neighbours
    /// (`ox_keep`, see `wgsl_lib`): exact operations must round exactly as written.
    pub fn keep(&mut self, value: String) -> String {
        self.helpers.add(Helper::Keep);
        format!("ox_keep({value})")
    }

    fn call(&mut self, helper: Helper, name: &str, args: &[&str]) -> String {
        self.helpers.add(helper);
        format!("{name}({})", args.join(", "))
    }

    /// A constant (see the module comment), returning the name to read it by.
    pub fn constant(&mut self, dtype: DType, value: f64) -> Result<String> {
        let (lit, bits) = literal(dtype, value)?;
        if bits {
            return self.bind(dtype, format!("bitcast<f32>({lit} ^ {OPAQUE_ZERO})"));
        }
        let ty = value_type(dtype)?;
        let key = (ty, format!("var {lit}"));
        if let Some(name) = self.memo.get(&key) {
            return Ok(name.clone());
        }
        let name = self.fresh();
        self.line(format!("var {name}: {ty} = {lit};"));
        self.memo.insert(key, name.clone());
        Ok(name)
    }

    /// Emits statements computing `exp`; returns the name holding its value. Equal
    /// subexpressions within `exp` are computed once; nothing is shared with other calls
    /// (the caller may have opened or closed a block in between).
    pub fn emit(&mut self, exp: &AluExp) -> Result<String> {
        self.memo.clear();
        let name = self.node(exp);
        self.memo.clear();
        name
    }

    /// An operand of an operation whose other operands are not all constants: an integer or
    /// bool constant is written as a literal (the operation stays a runtime expression),
    /// anything else is emitted. Returns the text and whether it is a literal.
    fn operand(&mut self, e: &AluExp, inline: bool) -> Result<(String, bool)> {
        match (inline, int_literal(e)) {
            (true, Some(lit)) => Ok((lit, true)),
            _ => Ok((self.node(e)?, false)),
        }
    }

    fn node(&mut self, exp: &AluExp) -> Result<String> {
        let d = exp.dtype;
        value_type(d)?;
        let value = match &exp.kind {
            AluKind::Const(bits) => return self.constant(d, f64::from_bits(*bits)),
            AluKind::Index => "i".to_string(),
            AluKind::ReduceIndex => "r".to_string(),
            AluKind::Load { .. } if self.substitute.is_some() => {
                return Ok(self.substitute.clone().unwrap_or_default());
            }
            AluKind::Load { input, index } if self.lanes.is_some() && d != DType::Float16 => {
                self.lane_load(*input, index, d)?
            }
            AluKind::Load { input, index } => {
                let ix = self.node(index)?;
                self.loaded[*input] = true;
                let ix = match &self.offsets {
                    Some(offsets) => format!("{} + {ix}", offsets[*input]),
                    None => ix,
                };
                match (&self.packed, d) {
                    (Some(_), DType::Float16) => {
                        return Err(unsupported("float16 in a packed buffer".to_string()))
                    }
                    (None, DType::Float16) => {
                        self.helpers.add(Helper::Half);
                        super::wgsl_half::load(*input, &ix)
                    }
                    (Some(sites), _) => {
                        let (array, offset) = &sites[*input];
                        let word = format!("{array}[{offset} + u32({ix})]");
                        match d {
                            DType::Bool => format!("({word} != 0u)"),
                            DType::Uint32 => word,
                            _ => format!("bitcast<{}>({word})", value_type(d)?),
                        }
                    }
                    (None, DType::Bool) => format!("(in{input}[u32({ix})] != 0u)"),
                    (None, _) => format!("in{input}[u32({ix})]"),
                }
            }
            AluKind::Unary(op, a) => {
                let a = self.node(a)?;
                let v = self.unary(*op, wide(d), &a)?;
                self.rounded(d, v)
            }
            AluKind::Binary(op, a, b) => {
                let (x, _) = self.operand(a, !is_const(b))?;
                let (y, literal) = self.operand(b, !is_const(a))?;
                // A literal divisor other than 0 and −1 needs none of the helpers' cases.
                let native = literal
                    && matches!(op, BinaryOp::Div | BinaryOp::Rem)
                    && b.const_value().is_some_and(|c| c != 0.0 && c != -1.0);
                let v = match (native, d) {
                    (true, DType::Int32 | DType::Uint32) => {
                        let symbol = if *op == BinaryOp::Div { "/" } else { "%" };
                        format!("{x} {symbol} {y}")
                    }
                    _ => self.binary(*op, wide(d), &x, &y)?,
                };
                let v = match (op, wide(d)) {
                    (
                        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div,
                        DType::Float32,
                    ) => self.keep(v),
                    _ => v,
                };
                self.rounded(d, v)
            }
            AluKind::Compare(op, a, b) => {
                let operand = wide(a.dtype);
                value_type(operand)?;
                let (x, _) = self.operand(a, !is_const(b))?;
                let (y, _) = self.operand(b, !is_const(a))?;
                self.compare(*op, operand, &x, &y)
            }
            AluKind::Where(c, a, b) => {
                let (c, a, b) = (self.node(c)?, self.node(a)?, self.node(b)?);
                format!("select({b}, {a}, {c})")
            }
            AluKind::Cast(a) => {
                let from = a.dtype;
                value_type(from)?;
                let a = self.node(a)?;
                if from == d {
                    a
                } else {
                    let v = self.cast(wide(from), wide(d), &a);
                    self.rounded(d, v)
                }
            }
            AluKind::Bitcast(a) => {
                let from = a.dtype;
                value_type(from)?;
                let a = self.node(a)?;
                if from == d {
                    a
                } else if [from, d]
                    .iter()
                    .any(|t| matches!(t, DType::Bool | DType::Float16))
                {
                    return Err(unsupported(format!("bitcast {from:?} to {d:?}")));
                } else {
                    format!("bitcast<{}>({a})", value_type(d)?)
                }
            }
            AluKind::Threefry(mode, operands) => self.threefry(*mode, operands)?,
        };
        self.bind(d, value)
    }

    /// threefry2x32 of `operands` in `mode` (`wgsl_lib`'s helpers). Out of `node`, whose
    /// frame every level of a deep expression pays for.
    fn threefry(&mut self, mode: ThreefryMode, operands: &[AluExp; 4]) -> Result<String> {
        let mut args = Vec::with_capacity(operands.len());
        for o in operands {
            args.push(self.node(o)?);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (name, word) = match mode {
            ThreefryMode::Xor => ("ox_threefry_xor", ""),
            ThreefryMode::Word0 => ("ox_threefry", ".x"),
            ThreefryMode::Word1 => ("ox_threefry", ".y"),
        };
        Ok(format!(
            "{}{word}",
            self.call(Helper::Threefry, name, &args)
        ))
    }

    /// A 32-bit load of `input` at `index` in a lane of the wide form (see [`Emitter::lanes`]).
    fn lane_load(&mut self, input: usize, index: &AluExp, d: DType) -> Result<String> {
        self.loaded[input] = true;
        let lanes = self.lanes.as_ref().expect("a lane is being emitted");
        let word = match lanes.component(input, d, index) {
            Some(component) => component,
            None => {
                let ix = self.node(index)?;
                let lanes = self.lanes.as_ref().expect("a lane is being emitted");
                lanes.element(input, &ix)
            }
        };
        Ok(match d {
            DType::Bool => format!("({word} != 0u)"),
            _ => word,
        })
    }

    /// `value` (computed in f32) rounded to float16 when `d` is float16.
    fn rounded(&mut self, d: DType, value: String) -> String {
        if d == DType::Float16 {
            self.call(Helper::Half, "ox_round_f16", &[&value])
        } else {
            value
        }
    }

    fn unary(&mut self, op: UnaryOp, d: DType, a: &str) -> Result<String> {
        use UnaryOp::*;
        let float = |name: &str, helper: Option<Helper>| (name.to_string(), helper);
        Ok(match (op, d) {
            (Neg, DType::Float32) => format!("bitcast<f32>(bitcast<u32>({a}) ^ 0x80000000u)"),
            (Abs, DType::Float32) => format!("bitcast<f32>(bitcast<u32>({a}) & 0x7fffffffu)"),
            (Neg, DType::Int32) => format!("0i - {a}"),
            (Neg, DType::Uint32) => format!("0u - {a}"),
            (Abs, DType::Int32) => format!("select({a}, 0i - {a}, {a} < 0i)"),
            (Abs, DType::Uint32) => a.to_string(),
            (Not, DType::Bool) => format!("!{a}"),
            (Not, DType::Int32 | DType::Uint32) => format!("~{a}"),
            (_, DType::Float32) => {
                let (name, helper) = match op {
                    Reciprocal => {
                        let one = self.constant(d, 1.0)?;
                        return Ok(self.call(Helper::DivF32, "ox_div_f32", &[&one, a]));
                    }
                    Floor => float("floor", None),
                    Ceil => float("ceil", None),
                    RoundEven => float("round", None),
                    Sqrt => float("ox_sqrt_f32", Some(Helper::SqrtF32)),
                    Exp => float("ox_exp", Some(Helper::Exp)),
                    Log => float("ox_log", Some(Helper::Log)),
                    Sin => float("ox_sin", Some(Helper::Sin)),
                    Cos => float("ox_cos", Some(Helper::Cos)),
                    Asin => float("ox_asin", Some(Helper::Asin)),
                    Atan => float("ox_atan", Some(Helper::Atan)),
                    Tanh => float("ox_tanh", Some(Helper::Tanh)),
                    Erf => float("ox_erf", Some(Helper::Erf)),
                    Erfc => float("ox_erfc", Some(Helper::Erfc)),
                    Neg | Abs | Not => return Err(unsupported(format!("{op:?} of {d:?}"))),
                };
                match helper {
                    Some(h) => self.call(h, &name, &[a]),
                    None => format!("{name}({a})"),
                }
            }
            _ => return Err(unsupported(format!("{op:?} of {d:?}"))),
        })
    }

    fn binary(&mut self, op: BinaryOp, d: DType, a: &str, b: &str) -> Result<String> {
        use BinaryOp::*;
        let infix = |symbol: &str| format!("{a} {symbol} {b}");
        Ok(match (op, d) {
            (Add, DType::Float32 | DType::Int32 | DType::Uint32) => infix("+"),
            (Sub, DType::Float32 | DType::Int32 | DType::Uint32) => infix("-"),
            (Mul, DType::Float32 | DType::Int32 | DType::Uint32) => infix("*"),
            (Div, DType::Float32) => self.call(Helper::DivF32, "ox_div_f32", &[a, b]),
            (Rem, DType::Float32) => self.call(Helper::FmodF32, "ox_fmod_f32", &[a, b]),
            (Min, DType::Float32) => self.call(Helper::MinF32, "ox_min_f32", &[a, b]),
            (Max, DType::Float32) => self.call(Helper::MaxF32, "ox_max_f32", &[a, b]),
            (Div, DType::Int32) => self.call(Helper::DivI32, "ox_div_i32", &[a, b]),
            (Rem, DType::Int32) => self.call(Helper::RemI32, "ox_rem_i32", &[a, b]),
            (Div, DType::Uint32) => self.call(Helper::DivU32, "ox_div_u32", &[a, b]),
            (Rem, DType::Uint32) => self.call(Helper::RemU32, "ox_rem_u32", &[a, b]),
            (Min, DType::Int32 | DType::Uint32) => format!("min({a}, {b})"),
            (Max, DType::Int32 | DType::Uint32) => format!("max({a}, {b})"),
            (And, DType::Int32 | DType::Uint32 | DType::Bool) => infix("&"),
            (Or, DType::Int32 | DType::Uint32 | DType::Bool) => infix("|"),
            (Xor, DType::Int32 | DType::Uint32) => infix("^"),
            (Xor, DType::Bool) => infix("!="),
            (Shl, DType::Int32) => format!("{a} << (bitcast<u32>({b}) & 31u)"),
            (Shr, DType::Int32) => format!("{a} >> (bitcast<u32>({b}) & 31u)"),
            (Shl, DType::Uint32) => format!("{a} << ({b} & 31u)"),
            (Shr, DType::Uint32) => format!("{a} >> ({b} & 31u)"),
            _ => return Err(unsupported(format!("{op:?} of {d:?}"))),
        })
    }

    fn compare(&mut self, op: CompareOp, operand: DType, a: &str, b: &str) -> String {
        use CompareOp::*;
        match (op, operand) {
            (Lt, DType::Float32) => self.call(Helper::LtF32, "ox_lt_f32", &[a, b]),
            (Le, DType::Float32) => self.call(Helper::LeF32, "ox_le_f32", &[a, b]),
            (Eq, DType::Float32) => self.call(Helper::EqF32, "ox_eq_f32", &[a, b]),
            (Ne, DType::Float32) => format!("!{}", self.call(Helper::EqF32, "ox_eq_f32", &[a, b])),
            (Lt, DType::Bool) => format!("!{a} & {b}"),
            (Le, DType::Bool) => format!("!{a} | {b}"),
            (Lt, _) => format!("{a} < {b}"),
            (Le, _) => format!("{a} <= {b}"),
            (Eq, _) => format!("{a} == {b}"),
            (Ne, _) => format!("{a} != {b}"),
        }
    }

    /// Conversions with the interpreter's rules: float → integer truncates and saturates
    /// (NaN → 0), int32 ↔ uint32 keeps the bits (wraps), anything → bool is `!= 0` (NaN → true).
    fn cast(&mut self, from: DType, to: DType, a: &str) -> String {
        use DType::*;
        match (from, to) {
            _ if from == to => a.to_string(),
            (Bool, Float32) => format!("select(0.0f, 1.0f, {a})"),
            (Bool, Int32) => format!("select(0i, 1i, {a})"),
            (Bool, _) => format!("select(0u, 1u, {a})"),
            (Float32, Bool) => format!("(bitcast<u32>({a}) & 0x7fffffffu) != 0u"),
            (Int32, Bool) => format!("{a} != 0i"),
            (_, Bool) => format!("{a} != 0u"),
            (Float32, Int32) => self.call(Helper::F32ToI32, "ox_f32_to_i32", &[a]),
            (Float32, _) => self.call(Helper::F32ToU32, "ox_f32_to_u32", &[a]),
            (Int32, Uint32) => format!("bitcast<u32>({a})"),
            (Uint32, Int32) => format!("bitcast<i32>({a})"),
            (_, _) => format!("f32({a})"),
        }
    }
}
