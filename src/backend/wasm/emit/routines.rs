//! Routine IR → a WebAssembly module (walrus): one module per routine shape, exporting
//! `kernel(batch, out0, …, in0, …)` that loops over the batch and runs the routine's textbook
//! algorithm with the sizes as constants (a host routine, `backend/wasm/host.rs`, is a call of
//! its import instead). Arithmetic is in f64 (float32 elements are widened
//! on load and rounded on store), in the operation order of the `cpu` interpreter
//! (`backend/cpu/routines.rs`), so float64 results match it exactly.

use walrus::ir::{LoadKind, StoreKind};
use walrus::{FunctionId, MemoryId, Module, ValType};

use super::dsl::{f64c, i32c, procedure, when, Var, E, S};
use super::KERNEL_EXPORT;
use crate::core::DType;
use crate::kernel::routine::{LeftSolve, Routine, RoutineKind};
use crate::util::{Error, Result};

mod unrolled;

struct Cx {
    module: Module,
    memory: MemoryId,
    dtype: DType,
}

impl Cx {
    fn var(&mut self, ty: ValType) -> Var {
        Var::new(&mut self.module, ty)
    }

    fn bytes(&self) -> i32 {
        self.dtype.byte_size() as i32
    }

    /// Element `idx` of the float matrix at `base`, as f64.
    fn ld(&self, base: Var, idx: E) -> E {
        let addr = base.get() + idx * i32c(self.bytes());
        match self.dtype {
            DType::Float64 => E::Load(self.memory, LoadKind::F64, ValType::F64, Box::new(addr)),
            _ => E::Load(self.memory, LoadKind::F32, ValType::F32, Box::new(addr)).widen(),
        }
    }

    /// Stores f64 `value` as element `idx` of the float matrix at `base`.
    fn st(&self, base: Var, idx: E, value: E) -> S {
        let addr = base.get() + idx * i32c(self.bytes());
        match self.dtype {
            DType::Float64 => S::Store(self.memory, StoreKind::F64, addr, value),
            _ => S::Store(self.memory, StoreKind::F32, addr, value.demote()),
        }
    }

    fn ld_i32(&self, base: Var, idx: E) -> E {
        let addr = base.get() + idx * i32c(4);
        E::Load(
            self.memory,
            LoadKind::I32 { atomic: false },
            ValType::I32,
            Box::new(addr),
        )
    }

    fn st_i32(&self, base: Var, idx: E, value: E) -> S {
        let addr = base.get() + idx * i32c(4);
        S::Store(self.memory, StoreKind::I32 { atomic: false }, addr, value)
    }
}

/// `for v in start..end { body }` (signed i32 bounds).
fn for_(v: Var, start: E, end: E, mut body: Vec<S>) -> S {
    body.push(v.set(v.get() + i32c(1)));
    S::Block(vec![v.set(start), S::While(v.get().lt(end), body)])
}

fn c(x: usize) -> E {
    i32c(x as i32)
}

pub fn emit_routine(routine: &Routine) -> Result<Vec<u8>> {
    let (module, memory) = super::new_module();
    let (mut module, func) = routine_function(module, memory, routine, false)?;
    module.exports.add(KERNEL_EXPORT, func);
    Ok(module.emit_wasm())
}

/// Adds `routine` to `module` as a function `(batch, out0, …, in0, …)` (not exported); with
/// `unroll` (loop modules) small Cholesky factorisations and triangular solves are unrolled.
pub(super) fn routine_function(
    module: Module,
    memory: MemoryId,
    routine: &Routine,
    unroll: bool,
) -> Result<(Module, FunctionId)> {
    if let Some(name) = crate::backend::wasm::host::import_name(routine.kind) {
        return Ok(host_call(module, routine, name));
    }
    if !matches!(routine.dtype, DType::Float32 | DType::Float64) {
        return Err(Error::new(
            routine.name(),
            format!(
                "{} matrices are not supported on the wasm device",
                routine.dtype.name()
            ),
        ));
    }
    let mut cx = Cx {
        module,
        memory,
        dtype: routine.dtype,
    };
    let batch = cx.var(ValType::I32);
    let outs: Vec<Var> = routine
        .outputs()
        .iter()
        .map(|_| cx.var(ValType::I32))
        .collect();
    let ins: Vec<Var> = routine
        .inputs()
        .iter()
        .map(|_| cx.var(ValType::I32))
        .collect();
    // Per-matrix base addresses, advanced after each problem of the batch.
    let bases: Vec<Var> = outs
        .iter()
        .chain(&ins)
        .map(|_| cx.var(ValType::I32))
        .collect();
    let strides = batch_strides(routine);
    let body = match routine.kind {
        RoutineKind::Cholesky if unroll && unrolled::cholesky_small(routine.n) => {
            unrolled::cholesky(&mut cx, routine.n, bases[0], bases[1])
        }
        RoutineKind::Cholesky => cholesky(&mut cx, routine.n, bases[0], bases[1]),
        RoutineKind::TriangularSolve { .. } => {
            let s = LeftSolve::of(routine).expect("a triangular solve");
            let count = routine.m * routine.n;
            if unroll && unrolled::solve_small(&s) {
                unrolled::triangular_solve(&mut cx, &s, count, bases[0], bases[1], bases[2])
            } else {
                triangular_solve(&mut cx, &s, count, bases[0], bases[1], bases[2])
            }
        }
        RoutineKind::Lu => lu(&mut cx, routine.m, routine.n, &bases[..3], bases[3]),
        RoutineKind::Sort
        | RoutineKind::Fft { .. }
        | RoutineKind::Diagonalize
        | RoutineKind::OrthogonalColumns { .. } => unreachable!("a host routine"),
    };
    let bi = cx.var(ValType::I32);
    let mut step: Vec<S> = body;
    for (b, s) in bases.iter().zip(&strides) {
        step.push(b.set(b.get() + i32c(*s as i32)));
    }
    let mut stmts: Vec<S> = bases
        .iter()
        .zip(outs.iter().chain(&ins))
        .map(|(b, p)| b.set(p.get()))
        .collect();
    stmts.push(for_(bi, i32c(0), batch.get(), step));
    let mut params = vec![batch];
    params.extend(outs);
    params.extend(ins);
    let mut module = cx.module;
    let func = procedure(&mut module, &params, &stmts);
    Ok((module, func))
}

/// The bytes each buffer of `routine` (outputs, then inputs) advances per problem of its batch:
/// problem `b` of a call reads and writes at `address + b × stride`, so a call on problems
/// `s..e` is a call of `e − s` problems at `address + s × stride`.
pub fn batch_strides(routine: &Routine) -> Vec<u32> {
    routine
        .outputs()
        .iter()
        .chain(&routine.inputs())
        .map(|&(dtype, count)| (count / routine.batch.max(1) * dtype.byte_size()) as u32)
        .collect()
}

/// A host routine (`backend/wasm/host.rs`) as a function `(batch, out0, …, in0, …)` calling
/// the import `env.NAME(dtype, batch, n, out0, …, in0, …)`.
fn host_call(mut module: Module, routine: &Routine, name: &str) -> (Module, FunctionId) {
    let count = routine.inputs().len() + routine.outputs().len();
    let params: Vec<Var> = (0..=count)
        .map(|_| Var::new(&mut module, ValType::I32))
        .collect();
    let import = match module.imports.get_func("env", name) {
        Ok(f) => f,
        Err(_) => {
            let ty = module.types.add(&vec![ValType::I32; count + 4], &[]);
            module.add_import_func("env", name, ty).0
        }
    };
    let mut args = vec![
        i32c(crate::backend::wasm::host::dtype_code(routine.dtype)),
        params[0].get(),
        c(routine.m),
        c(routine.n),
    ];
    args.extend(params[1..].iter().map(|p| p.get()));
    let func = procedure(&mut module, &params, &[S::Call(import, args)]);
    (module, func)
}

fn cholesky(cx: &mut Cx, n: usize, l: Var, a: Var) -> Vec<S> {
    let (i, j, k) = (
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
    );
    let (d, s, t) = (
        cx.var(ValType::F64),
        cx.var(ValType::F64),
        cx.var(ValType::F64),
    );
    let nn = c(n);
    let at = |r: E, col: E| r * c(n) + col;
    let column = vec![
        d.set(cx.ld(a, at(j.get(), j.get()))),
        for_(
            k,
            i32c(0),
            j.get(),
            vec![
                t.set(cx.ld(l, at(j.get(), k.get()))),
                d.set(d.get() - t.get() * t.get()),
            ],
        ),
        d.set(d.get().sqrt()),
        cx.st(l, at(j.get(), j.get()), d.get()),
        for_(
            i,
            j.get() + i32c(1),
            nn.clone(),
            vec![
                s.set(cx.ld(a, at(i.get(), j.get()))),
                for_(
                    k,
                    i32c(0),
                    j.get(),
                    vec![s.set(
                        s.get() - cx.ld(l, at(i.get(), k.get())) * cx.ld(l, at(j.get(), k.get())),
                    )],
                ),
                cx.st(l, at(i.get(), j.get()), s.get() / d.get()),
            ],
        ),
        for_(
            i,
            i32c(0),
            j.get(),
            vec![cx.st(l, at(i.get(), j.get()), f64c(0.0))],
        ),
    ];
    vec![for_(j, i32c(0), nn.clone(), column)]
}

fn triangular_solve(cx: &mut Cx, s: &LeftSolve, count: usize, x: Var, a: Var, b: Var) -> Vec<S> {
    let (e, j, pos, q, r, col) = (
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
    );
    let v = cx.var(ValType::F64);
    let k = s.k;
    let a_at = |row: E, cl: E| {
        if s.a_transposed {
            cl * c(k) + row
        } else {
            row * c(k) + cl
        }
    };
    let b_at = |row: E, jj: E| {
        if s.b_transposed {
            jj * c(k) + row
        } else {
            row * c(s.cols) + jj
        }
    };
    // The row solved at step `p`: forward for lower, backward for upper.
    let row_of = |p: E| if s.lower { p } else { c(k) - i32c(1) - p };
    let mut solve_row = vec![
        r.set(row_of(pos.get())),
        v.set(cx.ld(x, b_at(r.get(), j.get()))),
        for_(
            q,
            i32c(0),
            pos.get(),
            vec![
                col.set(row_of(q.get())),
                v.set(
                    v.get()
                        - cx.ld(a, a_at(r.get(), col.get())) * cx.ld(x, b_at(col.get(), j.get())),
                ),
            ],
        ),
    ];
    if !s.unit_diagonal {
        solve_row.push(v.set(v.get() / cx.ld(a, a_at(r.get(), r.get()))));
    }
    solve_row.push(cx.st(x, b_at(r.get(), j.get()), v.get()));
    vec![
        for_(
            e,
            i32c(0),
            c(count),
            vec![cx.st(x, e.get(), cx.ld(b, e.get()))],
        ),
        for_(
            j,
            i32c(0),
            c(s.cols),
            vec![for_(pos, i32c(0), c(k), solve_row)],
        ),
    ]
}

fn lu(cx: &mut Cx, m: usize, n: usize, outs: &[Var], a: Var) -> Vec<S> {
    let (lu, piv, perm) = (outs[0], outs[1], outs[2]);
    let (i, j, cl, pr, tmp_i) = (
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
        cx.var(ValType::I32),
    );
    let (best, t, d, f) = (
        cx.var(ValType::F64),
        cx.var(ValType::F64),
        cx.var(ValType::F64),
        cx.var(ValType::F64),
    );
    let at = |r: E, col: E| r * c(n) + col;
    let swap_rows = for_(
        cl,
        i32c(0),
        c(n),
        vec![
            t.set(cx.ld(lu, at(j.get(), cl.get()))),
            cx.st(lu, at(j.get(), cl.get()), cx.ld(lu, at(pr.get(), cl.get()))),
            cx.st(lu, at(pr.get(), cl.get()), t.get()),
        ],
    );
    let swap_perm = vec![
        tmp_i.set(cx.ld_i32(perm, j.get())),
        cx.st_i32(perm, j.get(), cx.ld_i32(perm, pr.get())),
        cx.st_i32(perm, pr.get(), tmp_i.get()),
    ];
    let mut swap = vec![swap_rows];
    swap.extend(swap_perm);
    let step = vec![
        pr.set(j.get()),
        best.set(cx.ld(lu, at(j.get(), j.get())).abs()),
        for_(
            i,
            j.get() + i32c(1),
            c(m),
            vec![
                t.set(cx.ld(lu, at(i.get(), j.get())).abs()),
                when(
                    t.get().gt(best.get()),
                    vec![best.set(t.get()), pr.set(i.get())],
                ),
            ],
        ),
        cx.st_i32(piv, j.get(), pr.get()),
        when(pr.get().ne(j.get()), swap),
        d.set(cx.ld(lu, at(j.get(), j.get()))),
        when(
            d.get().ne(f64c(0.0)),
            vec![for_(
                i,
                j.get() + i32c(1),
                c(m),
                vec![cx.st(
                    lu,
                    at(i.get(), j.get()),
                    cx.ld(lu, at(i.get(), j.get())) / d.get(),
                )],
            )],
        ),
        for_(
            i,
            j.get() + i32c(1),
            c(m),
            vec![
                f.set(cx.ld(lu, at(i.get(), j.get()))),
                for_(
                    cl,
                    j.get() + i32c(1),
                    c(n),
                    vec![cx.st(
                        lu,
                        at(i.get(), cl.get()),
                        cx.ld(lu, at(i.get(), cl.get()))
                            - f.get() * cx.ld(lu, at(j.get(), cl.get())),
                    )],
                ),
            ],
        ),
    ];
    vec![
        for_(
            i,
            i32c(0),
            c(m * n),
            vec![cx.st(lu, i.get(), cx.ld(a, i.get()))],
        ),
        for_(i, i32c(0), c(m), vec![cx.st_i32(perm, i.get(), i.get())]),
        for_(j, i32c(0), c(m.min(n)), step),
    ]
}
