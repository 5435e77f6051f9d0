//! Running a looping scan shader (`scan_wgsl`): the operands are copied into one packed
//! storage buffer, the shader runs as ONE dispatch of one workgroup, and the results are copied
//! out, all encoded into the current batch (copies are not dispatches). Pipelines are cached
//! by the loop's structure.

use super::exe::Stage;
use super::scan_wgsl::LoopShader;
use super::{padded, WebGpuBackend, MAX_BATCH};
use crate::backend::{Backend, BufferId};
use crate::util::{Error, Result};

/// Compiled looping shaders kept.
pub(super) const LOOP_CACHE_CAPACITY: usize = 64;

/// A buffer and where its words start in the packed buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packed {
    pub buffer: BufferId,
    pub word: u32,
}

impl WebGpuBackend {
    /// Whether a packed buffer of `words` 32-bit words can be bound.
    pub fn loop_fits(&self, words: u64) -> bool {
        let limits = self.device.limits();
        let bytes = words.max(1) * 4;
        bytes <= limits.max_storage_buffer_binding_size as u64 && bytes <= limits.max_buffer_size
    }

    /// Runs `shader` over a packed buffer of `words` words: each of `inputs` is copied in at
    /// its word offset first (its whole logical size), each of `outputs` is copied out from its
    /// word offset afterwards (as many bytes as the output buffer holds). One dispatch.
    pub fn run_loop(
        &mut self,
        shader: &LoopShader,
        words: u32,
        inputs: &[Packed],
        outputs: &[Packed],
    ) -> Result<()> {
        if !self.loop_fits(words as u64) {
            return Err(Error::new(
                "scan",
                format!("internal error: a looping shader of {words} words does not fit a binding"),
            ));
        }
        let stage = self.loop_stage(shader)?;
        let packed = self.alloc(words.max(1) as usize * 4)?;
        let result = self.encode_loop(&stage, packed, inputs, outputs);
        self.free(packed);
        result?;
        self.dispatches += 1;
        if self.pending >= MAX_BATCH {
            self.flush();
        }
        Ok(())
    }

    fn encode_loop(
        &mut self,
        stage: &Stage,
        packed: BufferId,
        inputs: &[Packed],
        outputs: &[Packed],
    ) -> Result<()> {
        let dst = self.buffer(packed)?.gpu.clone();
        let mut copies = Vec::with_capacity(inputs.len());
        for p in inputs {
            let b = self.buffer(p.buffer)?;
            copies.push((b.gpu.clone(), b.bytes));
        }
        let encoder = self.encoder();
        for ((src, bytes), p) in copies.iter().zip(inputs) {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(src, 0, &dst, p.word as u64 * 4, padded(*bytes));
            }
        }
        self.encode_bound(&stage.pipeline, Some(&stage.layout), (1, 1), &[packed], &[])?;
        let mut outs = Vec::with_capacity(outputs.len());
        for p in outputs {
            let b = self.buffer(p.buffer)?;
            outs.push((b.gpu.clone(), b.bytes));
        }
        let encoder = self.encoder();
        for ((out, bytes), p) in outs.iter().zip(outputs) {
            if *bytes > 0 {
                encoder.copy_buffer_to_buffer(&dst, p.word as u64 * 4, out, 0, padded(*bytes));
            }
        }
        Ok(())
    }

    /// The compiled pipeline of `shader` (cached by structure).
    fn loop_stage(&mut self, shader: &LoopShader) -> Result<Stage> {
        if let Some(stage) = self.loops.get(shader) {
            return Ok(stage.clone());
        }
        let source = shader.emit()?;
        let stage = self.make_stage(source, (1, 1));
        self.loops.insert(shader.clone(), stage.clone());
        Ok(stage)
    }
}
