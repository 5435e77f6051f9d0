//! A scan loop (`kernel/device_program.rs`) → ONE WebAssembly module (decision 6): every
//! kernel and routine of the body becomes a function of the module (the same emitters as the
//! single-kernel modules, sharing one math library), and an exported driver runs all steps:
//!
//! ```text
//! kernel(length, reverse, table)   table: u32 addresses of every slot, then init, then finals
//!   copy init → carry-in buffers
//!   for t in 0..length: i = reverse ? length-1-t : t
//!       x/y row addresses = base + i·row_bytes
//!       call each step's function with its slots' addresses
//!       swap the carry-in and carry-out addresses
//!   copy carry-in buffers → finals
//! ```
//!
//! A nested loop step (`LoopStep::Loop`) is the same statements again, inlined in the step of
//! the enclosing loop with locals of its own: its slots' base addresses are the enclosing
//! slots' current addresses (set anew at each run, since the carry swap moves them), its length
//! and direction are constants. Its body's functions are emitted once, like any step's.
//!
//! Identical kernels share one function. The driver is one call from Rust for the whole scan.
//!
//! The driver has a local per slot (and per x/y row) of every run, nested ones included:
//! [`driver_locals`] counts them before emitting, since V8 refuses a function of more than
//! [`MAX_LOCALS`].

use std::collections::HashMap;

use walrus::ir::LoadKind;
use walrus::{FunctionId, MemoryId, Module, ValType};

use super::dsl::{i32c, procedure, select, Var, E, S};
use super::{kernel_function, math, new_module, routines::routine_function, KERNEL_EXPORT};
use crate::kernel::device_program::{LoopBody, LoopStep, SlotRole};
use crate::kernel::Kernel;
use crate::util::{Error, Result};

fn load_u32(memory: MemoryId, addr: E) -> E {
    E::Load(
        memory,
        LoadKind::I32 { atomic: false },
        ValType::I32,
        Box::new(addr),
    )
}

/// The module being built: the step functions emitted so far.
struct Emitter<'a> {
    module: Module,
    memory: MemoryId,
    lib: math::Lib,
    kernels: HashMap<&'a Kernel, FunctionId>,
    functions: usize,
}

/// Where one run of a loop body finds its buffers: one address per slot (for x/y slots, the
/// whole stacked array), the initial and final carries; its length and direction.
struct Run {
    slots: Vec<E>,
    init: Vec<E>,
    finals: Vec<E>,
    length: E,
    reverse: E,
    /// Run once with no carries (`emit_once`): every slot's address is read where it is used,
    /// with no local per slot.
    once: bool,
}

impl<'a> Emitter<'a> {
    /// The function of a kernel or routine step (`None` for a nested loop).
    fn function(&mut self, step: &'a LoopStep) -> Result<Option<FunctionId>> {
        let module = std::mem::take(&mut self.module);
        let (module, f) = match step {
            LoopStep::Kernel { kernel, .. } => match self.kernels.get(kernel) {
                Some(&f) => (module, f),
                None => {
                    let (mut m, f) =
                        kernel_function(module, self.memory, &mut self.lib, kernel, true, false)?;
                    m.funcs.get_mut(f).name = Some(format!("step{}_kernel", self.functions));
                    self.kernels.insert(kernel, f);
                    (m, f)
                }
            },
            LoopStep::Routine { routine, .. } => {
                let (mut m, f) = routine_function(module, self.memory, routine, true)?;
                let name = format!("step{}_{}", self.functions, routine.name());
                m.funcs.get_mut(f).name = Some(name);
                (m, f)
            }
            LoopStep::Loop { .. } => {
                self.module = module;
                return Ok(None);
            }
        };
        self.module = module;
        self.functions += 1;
        Ok(Some(f))
    }

    fn var(&mut self) -> Var {
        Var::new(&mut self.module, ValType::I32)
    }

    /// The statements of one whole run of `body` (the loop of the module doc).
    fn run(&mut self, body: &'a LoopBody, run: Run) -> Result<Vec<S>> {
        let funcs = body
            .steps
            .iter()
            .map(|st| self.function(st))
            .collect::<Result<Vec<_>>>()?;
        let memory = self.memory;
        let (t, i, tmp) = (self.var(), self.var(), self.var());
        // Base address of every slot; the address each slot has during the current step.
        let once = run.once;
        let vars = if once { 0 } else { body.slots.len() };
        let base: Vec<Var> = (0..vars).map(|_| self.var()).collect();
        let mut at: Vec<Var> = base.clone();
        let rows: Vec<usize> = (0..vars)
            .filter(|&s| matches!(body.slots[s].role, SlotRole::XRow(_) | SlotRole::YRow(_)))
            .collect();
        for &s in &rows {
            at[s] = self.var();
        }
        let direct: Vec<E> = if once { run.slots.clone() } else { Vec::new() };
        let addr = |s: usize| if once { direct[s].clone() } else { at[s].get() };
        let mut stmts: Vec<S> = base.iter().zip(run.slots).map(|(v, e)| v.set(e)).collect();
        let carries: Vec<(Var, Var, i32)> = (0..body.num_carry)
            .map(|k| {
                let (cin, cout) = (body.carry_in(k), body.carry_out(k));
                (base[cin], base[cout], body.slots[cin].bytes() as i32)
            })
            .collect();
        for (&(cin, _, bytes), init) in carries.iter().zip(run.init) {
            stmts.push(S::Copy(memory, cin.get(), init, i32c(bytes)));
        }
        // One step of the loop.
        let mut step: Vec<S> = vec![i.set(select(
            run.reverse,
            run.length.clone() - i32c(1) - t.get(),
            t.get(),
        ))];
        for &s in &rows {
            let stride = body.slots[s].bytes() as i32;
            step.push(at[s].set(base[s].get() + i.get() * i32c(stride)));
        }
        for (st, f) in body.steps.iter().zip(funcs) {
            match (st, f) {
                (
                    LoopStep::Kernel {
                        kernel,
                        inputs,
                        output,
                    },
                    Some(f),
                ) => {
                    if kernel.size == 0 {
                        continue;
                    }
                    let mut a = vec![i32c(kernel.size as i32), addr(*output)];
                    a.extend(inputs.iter().map(|&s| addr(s)));
                    step.push(S::Call(f, a));
                }
                (
                    LoopStep::Routine {
                        routine,
                        inputs,
                        outputs,
                    },
                    Some(f),
                ) => {
                    if routine.is_empty() {
                        continue;
                    }
                    let mut a = vec![i32c(routine.batch as i32)];
                    a.extend(outputs.iter().chain(inputs).map(|&s| addr(s)));
                    step.push(S::Call(f, a));
                }
                (
                    LoopStep::Loop {
                        inner,
                        slots,
                        init,
                        finals,
                    },
                    _,
                ) => {
                    let length = i32::try_from(inner.length)
                        .map_err(|_| Error::new("scan", "a nested scan is too long for wasm"))?;
                    let addrs = |v: &[usize]| v.iter().map(|&s| addr(s)).collect();
                    let nested = Run {
                        slots: addrs(slots),
                        init: addrs(init),
                        finals: addrs(finals),
                        length: i32c(length),
                        reverse: i32c(i32::from(inner.reverse)),
                        once: false,
                    };
                    step.push(S::Block(self.run(&inner.body, nested)?));
                }
                (_, None) => {
                    return Err(Error::new("scan", "internal error: a step without code"));
                }
            }
        }
        for &(cin, cout, _) in &carries {
            step.extend([tmp.set(cin.get()), cin.set(cout.get()), cout.set(tmp.get())]);
        }
        step.push(t.set(t.get() + i32c(1)));
        stmts.push(t.set(i32c(0)));
        stmts.push(S::While(t.get().ltu(run.length), step));
        for (&(cin, _, bytes), fin) in carries.iter().zip(run.finals) {
            stmts.push(S::Copy(memory, fin, cin.get(), i32c(bytes)));
        }
        Ok(stmts)
    }
}

/// V8's limit on the locals of one function (`kV8MaxWasmFunctionLocals`).
pub const MAX_LOCALS: usize = 50_000;

/// The largest loop module emitted: Chromium refuses to compile a module of more than 8 MB
/// synchronously on the main thread (`new WebAssembly.Module`, which kernels use), and V8 any
/// function of more than 7,654,321 bytes; under 7 MiB a module meets both.
pub const MAX_MODULE_BYTES: usize = 7 << 20;

/// The locals the driver of `body`'s loop module declares (its parameters included): per run,
/// a counter, an index and a swap temp, then (in a loop run) a base address per slot and a
/// current address per x/y row slot; a nested loop is a run of its own.
pub fn driver_locals(body: &LoopBody, once: bool) -> usize {
    let slots = if once {
        0
    } else {
        let rows = body
            .slots
            .iter()
            .filter(|s| matches!(s.role, SlotRole::XRow(_) | SlotRole::YRow(_)))
            .count();
        body.slots.len() + rows
    };
    let nested: usize = body
        .steps
        .iter()
        .map(|st| match st {
            LoopStep::Loop { inner, .. } => driver_locals(&inner.body, false) - 3,
            _ => 0,
        })
        .sum();
    3 + 3 + slots + nested
}

/// Emits the loop module of `body`; its export `kernel(length, reverse, table)` runs the scan.
pub fn emit_loop(body: &LoopBody) -> Result<Vec<u8>> {
    emit(body, false)
}

/// Emits the module of a body without carries or xs run for ONE step (a whole jitted program,
/// `backend/wasm/program.rs`): every step reads its slots' addresses straight from the table,
/// so the driver needs no local per slot (a program has hundreds of slots).
pub fn emit_once(body: &LoopBody) -> Result<Vec<u8>> {
    if body.num_carry != 0 || body.num_xs != 0 {
        return Err(Error::new(
            "jit",
            "internal error: a one-step module of a body with carries or xs",
        ));
    }
    emit(body, true)
}

fn emit(body: &LoopBody, once: bool) -> Result<Vec<u8>> {
    let locals = driver_locals(body, once);
    if locals > MAX_LOCALS {
        return Err(Error::new(
            "scan",
            format!(
                "the loop module's driver would need {locals} locals (one per buffer of a step), \
                 more than the {MAX_LOCALS} a WebAssembly function may have"
            ),
        ));
    }
    let (module, memory) = new_module();
    let mut e = Emitter {
        module,
        memory,
        lib: math::Lib::default(),
        kernels: HashMap::new(),
        functions: 0,
    };
    let length = e.var();
    let reverse = e.var();
    let table = e.var();
    let word = |k: usize| load_u32(memory, table.get() + i32c(4 * k as i32));
    let (n, nk) = (body.slots.len(), body.num_carry);
    let run = Run {
        slots: (0..n).map(word).collect(),
        init: (n..n + nk).map(word).collect(),
        finals: (n + nk..n + 2 * nk).map(word).collect(),
        length: length.get(),
        reverse: reverse.get(),
        once,
    };
    let stmts = e.run(body, run)?;
    let mut module = e.module;
    let driver = procedure(&mut module, &[length, reverse, table], &stmts);
    // Names (the wasm name section) for profiles.
    module.funcs.get_mut(driver).name = Some("scan_driver".into());
    module.exports.add(KERNEL_EXPORT, driver);
    walrus::passes::gc::run(&mut module);
    let bytes = module.emit_wasm();
    if bytes.len() > MAX_MODULE_BYTES {
        return Err(Error::new(
            "scan",
            format!(
                "the loop module would be {} KB, more than the {} KB a WebAssembly module may \
                 have to compile on a browser's main thread",
                bytes.len() >> 10,
                MAX_MODULE_BYTES >> 10
            ),
        ));
    }
    Ok(bytes)
}
