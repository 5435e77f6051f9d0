//! A scan loop (`kernel/scan_loop.rs`) → ONE WebAssembly module (DESIGN.md decision 6): every
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
//! Identical kernels share one function. The driver is one call from Rust for the whole scan.

use std::collections::HashMap;

use walrus::ir::LoadKind;
use walrus::{FunctionId, MemoryId, ValType};

use super::dsl::{i32c, procedure, select, Var, E, S};
use super::{kernel_function, math, new_module, routines::routine_function, KERNEL_EXPORT};
use crate::kernel::scan_loop::{LoopBody, LoopStep, SlotRole};
use crate::kernel::Kernel;
use crate::util::Result;

fn load_u32(memory: MemoryId, addr: E) -> E {
    E::Load(
        memory,
        LoadKind::I32 { atomic: false },
        ValType::I32,
        Box::new(addr),
    )
}

/// Emits the loop module of `body`; its export `kernel(length, reverse, table)` runs the scan.
pub fn emit_loop(body: &LoopBody) -> Result<Vec<u8>> {
    let (mut module, memory) = new_module();
    let mut lib = math::Lib::default();
    // One function per distinct step.
    let mut kernels: HashMap<&Kernel, FunctionId> = HashMap::new();
    let mut funcs: Vec<FunctionId> = Vec::with_capacity(body.steps.len());
    for step in &body.steps {
        let f = match step {
            LoopStep::Kernel { kernel, .. } => match kernels.get(kernel) {
                Some(&f) => f,
                None => {
                    let (m, f) = kernel_function(module, memory, &mut lib, kernel, true)?;
                    module = m;
                    module.funcs.get_mut(f).name = Some(format!("step{}_kernel", funcs.len()));
                    kernels.insert(kernel, f);
                    f
                }
            },
            LoopStep::Routine { routine, .. } => {
                let (m, f) = routine_function(module, memory, routine, true)?;
                module = m;
                let name = format!("step{}_{}", funcs.len(), routine.name());
                module.funcs.get_mut(f).name = Some(name);
                f
            }
        };
        funcs.push(f);
    }
    let length = Var::new(&mut module, ValType::I32);
    let reverse = Var::new(&mut module, ValType::I32);
    let table = Var::new(&mut module, ValType::I32);
    let t = Var::new(&mut module, ValType::I32);
    let i = Var::new(&mut module, ValType::I32);
    let tmp = Var::new(&mut module, ValType::I32);
    let nk = body.num_carry;
    // Base address of every slot, the initial and final carries.
    let base: Vec<Var> = body
        .slots
        .iter()
        .map(|_| Var::new(&mut module, ValType::I32))
        .collect();
    // The address each slot has during the current step.
    let mut at: Vec<Var> = base.clone();
    let rows: Vec<usize> = (0..body.slots.len())
        .filter(|&s| matches!(body.slots[s].role, SlotRole::XRow(_) | SlotRole::YRow(_)))
        .collect();
    for &s in &rows {
        at[s] = Var::new(&mut module, ValType::I32);
    }
    let word = |k: usize| load_u32(memory, table.get() + i32c(4 * k as i32));
    let mut stmts: Vec<S> = base
        .iter()
        .enumerate()
        .map(|(s, v)| v.set(word(s)))
        .collect();
    let n = body.slots.len();
    let carries: Vec<(Var, Var, i32)> = (0..nk)
        .map(|k| {
            let (cin, cout) = (body.carry_in(k), body.carry_out(k));
            (base[cin], base[cout], body.slots[cin].bytes() as i32)
        })
        .collect();
    for (k, &(cin, _, bytes)) in carries.iter().enumerate() {
        stmts.push(S::Copy(memory, cin.get(), word(n + k), i32c(bytes)));
    }
    // One step of the loop.
    let mut step: Vec<S> = vec![i.set(select(
        reverse.get(),
        length.get() - i32c(1) - t.get(),
        t.get(),
    ))];
    for &s in &rows {
        let stride = body.slots[s].bytes() as i32;
        step.push(at[s].set(base[s].get() + i.get() * i32c(stride)));
    }
    for (st, &f) in body.steps.iter().zip(&funcs) {
        let args: Vec<E> = match st {
            LoopStep::Kernel {
                kernel,
                inputs,
                output,
            } => {
                if kernel.size == 0 {
                    continue;
                }
                let mut a = vec![i32c(kernel.size as i32), at[*output].get()];
                a.extend(inputs.iter().map(|&s| at[s].get()));
                a
            }
            LoopStep::Routine {
                routine,
                inputs,
                outputs,
            } => {
                if routine.is_empty() {
                    continue;
                }
                let mut a = vec![i32c(routine.batch as i32)];
                a.extend(outputs.iter().chain(inputs).map(|&s| at[s].get()));
                a
            }
        };
        step.push(S::Call(f, args));
    }
    for &(cin, cout, _) in &carries {
        step.extend([tmp.set(cin.get()), cin.set(cout.get()), cout.set(tmp.get())]);
    }
    step.push(t.set(t.get() + i32c(1)));
    stmts.push(t.set(i32c(0)));
    stmts.push(S::While(t.get().ltu(length.get()), step));
    for (k, &(cin, _, bytes)) in carries.iter().enumerate() {
        stmts.push(S::Copy(memory, word(n + nk + k), cin.get(), i32c(bytes)));
    }
    let driver = procedure(&mut module, &[length, reverse, table], &stmts);
    // Names (the wasm name section) for profiles.
    module.funcs.get_mut(driver).name = Some("scan_driver".into());
    module.exports.add(KERNEL_EXPORT, driver);
    walrus::passes::gc::run(&mut module);
    Ok(module.emit_wasm())
}
