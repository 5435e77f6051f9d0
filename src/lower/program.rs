//! [`Program`]: what lowering produces. Slots `0..inputs` hold the Jaxpr's constants and then
//! its arguments; every step writes new slots. Kernel steps read dense slots as logical
//! row-major arrays (the executor maps program inputs through their runtime views).

use std::fmt::Write;

use crate::core::{Aval, Primitive};
use crate::kernel::Kernel;

/// A buffer slot of a Program.
pub type Slot = usize;

/// An operand: a slot, or a JS number with its (weak, 0-d) aval.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Slot(Slot),
    Literal(f64, Aval),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Runs `kernel`; its input `j` is slot `inputs[j]`.
    Kernel {
        kernel: Kernel,
        inputs: Vec<Slot>,
        output: Slot,
    },
    /// An equation without a kernel, applied by the eager evaluator.
    Fallback {
        primitive: Primitive,
        inputs: Vec<Arg>,
        outputs: Vec<Slot>,
    },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// How many leading slots are inputs (constants, then arguments).
    pub inputs: usize,
    /// The aval of every slot.
    pub avals: Vec<Aval>,
    pub steps: Vec<Step>,
    /// Slots to free after each step (filled by the lifetimes pass).
    pub frees: Vec<Vec<Slot>>,
    pub outputs: Vec<Arg>,
}

impl Program {
    pub fn new_slot(&mut self, aval: Aval) -> Slot {
        self.avals.push(aval);
        self.avals.len() - 1
    }

    /// The number of kernel steps (dispatches per run, fallbacks aside).
    pub fn kernel_count(&self) -> usize {
        self.kernels().count()
    }

    pub fn kernels(&self) -> impl Iterator<Item = &Kernel> {
        self.steps.iter().filter_map(|s| match s {
            Step::Kernel { kernel, .. } => Some(kernel),
            Step::Fallback { .. } => None,
        })
    }

    pub fn fallback_count(&self) -> usize {
        self.steps.len() - self.kernel_count()
    }

    /// A one-line-per-step summary (for `setDebug`): each step, then the slots freed after it.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (i, step) in self.steps.iter().enumerate() {
            let frees = match self.frees.get(i) {
                Some(f) if !f.is_empty() => format!("; free {f:?}"),
                _ => String::new(),
            };
            let _ = match step {
                Step::Kernel {
                    kernel,
                    inputs,
                    output,
                } => writeln!(
                    s,
                    "  {i}: kernel {inputs:?} -> {output} ({} elements{}){frees}",
                    kernel.size,
                    if kernel.reduction.is_some() {
                        ", reduce"
                    } else {
                        ""
                    }
                ),
                Step::Fallback {
                    primitive, outputs, ..
                } => writeln!(
                    s,
                    "  {i}: fallback {} -> {outputs:?}{frees}",
                    primitive.name()
                ),
            };
        }
        s
    }
}
