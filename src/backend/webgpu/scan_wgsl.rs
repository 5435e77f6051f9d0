//! The looping scan shader: a whole `scan` as ONE compute dispatch of one workgroup. The
//! shader loops over the steps; each body kernel becomes a workgroup-strided loop over its
//! output elements (the same exact expression emitter as ordinary kernels, `wgsl_alu`), with a
//! `storageBarrier()` wherever an op reads what an earlier op of the step wrote (or overwrites
//! what one read) and at the end of every step.
//!
//! Every value lives in ONE packed `array<u32>` storage buffer (`ox_buf`, one binding whatever
//! the storage-buffer limit): constants, the xs and ys (a row per step, addressed by the step's
//! row index, reversed for a reverse scan), the temporaries of a step, and the carries, which
//! are double-buffered by step parity (step `s` reads half `s & 1` and writes the other half),
//! so no op ever reads what another thread of the same op writes.

use std::fmt::Write;

use super::wgsl::reduce_into;
use super::wgsl_alu::{to_storage, value_type, Emitter};
use crate::core::DType;
use crate::kernel::{verify, Kernel};
use crate::util::{Error, Result};

/// Where a value of the body lives in the packed buffer (in 32-bit words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// Identifies the storage the place belongs to, for barrier placement: places of the
    /// same region may overlap, places of different regions never do.
    pub region: usize,
    pub base: u32,
    /// Words per row: the value is row `row` of a stacked array (xs, ys); 0 otherwise.
    pub row_stride: u32,
    pub parity: Parity,
}

/// Double buffering of carries by step parity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parity {
    None,
    /// The half read at step `s` (`s & 1`), halves `size` words apart.
    Current(u32),
    /// The half written at step `s` (`(s + 1) & 1`).
    Next(u32),
}

impl Place {
    pub fn fixed(region: usize, base: u32) -> Place {
        Place {
            region,
            base,
            row_stride: 0,
            parity: Parity::None,
        }
    }

    /// The WGSL `u32` expression of the place's first word at the current step.
    fn offset(&self) -> String {
        let mut s = format!("{}u", self.base);
        if self.row_stride != 0 {
            write!(s, " + row * {}u", self.row_stride).unwrap();
        }
        match self.parity {
            Parity::None => {}
            Parity::Current(size) => write!(s, " + (step & 1u) * {size}u").unwrap(),
            Parity::Next(size) => write!(s, " + ((step + 1u) & 1u) * {size}u").unwrap(),
        }
        s
    }
}

/// One kernel of the body with the places of its inputs and output.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LoopOp {
    pub kernel: Kernel,
    pub inputs: Vec<Place>,
    pub output: Place,
}

/// The whole loop: the body's ops run in order at each of `length` steps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LoopShader {
    pub ops: Vec<LoopOp>,
    pub length: u32,
    pub reverse: bool,
}

/// Most invocations of the one workgroup.
pub const MAX_WORKGROUP: u32 = 256;

impl LoopShader {
    /// Invocations of the workgroup: the largest op's size rounded up to a power of two
    /// (32..=256): every op of a small body is then one element per invocation.
    pub fn workgroup_size(&self) -> u32 {
        let largest = self.ops.iter().map(|op| op.kernel.size).max().unwrap_or(1);
        (largest as u32)
            .clamp(1, MAX_WORKGROUP)
            .next_power_of_two()
            .max(32)
    }

    /// The WGSL source of the looping shader.
    pub fn emit(&self) -> Result<String> {
        let wg = self.workgroup_size();
        let mut e = Emitter::new(0, "      ");
        let mut body = String::new();
        // Regions written and read since the last barrier.
        let mut written: Vec<usize> = Vec::new();
        let mut read: Vec<usize> = Vec::new();
        for (k, op) in self.ops.iter().enumerate() {
            verify::verify(&op.kernel)?;
            if op.inputs.len() != op.kernel.inputs.len() {
                return Err(Error::new(
                    "scan",
                    format!(
                        "internal error: op {k} has {} places for {} inputs",
                        op.inputs.len(),
                        op.kernel.inputs.len()
                    ),
                ));
            }
            let reads: Vec<usize> = op.inputs.iter().map(|p| p.region).collect();
            let hazard = reads.iter().any(|r| written.contains(r))
                || written.contains(&op.output.region)
                || read.contains(&op.output.region);
            if hazard {
                body.push_str("    storageBarrier();\n");
                written.clear();
                read.clear();
            }
            read.extend(reads);
            written.push(op.output.region);
            body.push_str(&self.emit_op(&mut e, op, wg)?);
        }
        let length = self.length;
        let row = if self.reverse {
            format!("{}u - step", length.saturating_sub(1))
        } else {
            "step".to_string()
        };
        let mut src = String::new();
        write!(
            src,
            "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;
var<private> ox_zp: u32;

@compute @workgroup_size({wg})
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {{
  ox_zp = wid.z;
  for (var step: u32 = 0u; step < {length}u; step = step + 1u) {{
    let row = {row};
{body}    storageBarrier();
  }}
}}
"
        )
        .unwrap();
        src.push_str(&e.helpers.source());
        Ok(src)
    }

    /// The statements of one op: a strided loop over its output elements.
    fn emit_op(&self, e: &mut Emitter, op: &LoopOp, wg: u32) -> Result<String> {
        let kernel = &op.kernel;
        e.loaded = vec![false; kernel.inputs.len()];
        e.packed = Some(op.inputs.iter().map(Place::offset).collect());
        e.body.clear();
        let dtype = kernel.output_dtype();
        let value = match kernel.reduction {
            None => {
                e.set_indent("      ");
                e.emit(&kernel.exp)?
            }
            Some(red) => reduce_into(e, kernel, red, "      ")?,
        };
        let stored = to_storage(dtype, &value);
        let word = match dtype {
            DType::Uint32 | DType::Bool => stored,
            _ => {
                value_type(dtype)?;
                format!("bitcast<u32>({stored})")
            }
        };
        let size = kernel.size;
        let head = if size as u32 <= wg {
            format!("    if (lid < {size}u) {{\n      let idx = lid;\n")
        } else {
            format!("    for (var idx: u32 = lid; idx < {size}u; idx = idx + {wg}u) {{\n")
        };
        Ok(format!(
            "{head}      let i = i32(idx);\n{}      ox_buf[{} + idx] = {word};\n    }}\n",
            e.body,
            op.output.offset()
        ))
    }
}
