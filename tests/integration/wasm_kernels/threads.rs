//! The wasm device on several threads (Node `worker_threads`): every case of the kernel corpus,
//! and batched routines (Cholesky, triangular solves, LU), give the same bits on one thread
//! and split across worker threads, and equal the `cpu` interpreter as on one thread (bit for
//! bit for exact operations, within the corpus's ulps for transcendentals).
//!
//! The pool is the package's own (`pkg/wasm-pool.js`, built by `node scripts/build.mjs`, which
//! `npm test` runs first), attached to this test binary's data memory. Its `workersOnly` test
//! switch leaves every chunk to the workers, and `threads::set_split_everything` splits even
//! the corpus's 64-element kernels into 16-element chunks, so each case's chunks are computed
//! on worker threads (counted, so the comparison is not vacuous).

use js_sys::{Function, Promise, Reflect};
use oxjax::backend::cpu::CpuBackend;
use oxjax::backend::wasm::{emit, threads, WasmBackend};
use oxjax::backend::Backend;
use oxjax::core::DType;
use oxjax::kernel::{Routine, RoutineKind};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

use super::{ulps_for, ALL};
use crate::common::corpus::{check, corpus};
use crate::common::{encode, run_on, run_routine_on, values};

const THREADS: f64 = 4.0;

/// The package's worker pool over this binary's data memory, started with `THREADS` threads,
/// every chunk left to the workers. Returns the pool object.
async fn start_pool() -> JsValue {
    let url = concat!("file://", env!("CARGO_MANIFEST_DIR"), "/pkg/wasm-pool.js");
    let start = Function::new_with_args(
        "url, memory, threads",
        "return import(url).then(async ({ WasmPool }) => {
           const pool = new WasmPool(memory);
           pool.workersOnly = true;
           await pool.configure(threads);
           return pool;
         }, (e) => { throw new Error(`${url} (run node scripts/build.mjs first): ${e}`); });",
    );
    let memory = oxjax::backend::wasm::data::object();
    let promise = start
        .call3(&JsValue::NULL, &url.into(), &memory.into(), &THREADS.into())
        .expect("the pool's loader");
    JsFuture::from(Promise::from(promise))
        .await
        .expect("the worker pool starts")
}

/// `pool.info()[field]` as a number.
fn info(pool: &JsValue, field: &str) -> f64 {
    let f: Function = Reflect::get(pool, &"info".into()).unwrap().into();
    let info = f.call0(pool).unwrap();
    Reflect::get(&info, &field.into())
        .unwrap()
        .as_f64()
        .unwrap_or(f64::NAN)
}

fn attach(pool: &JsValue) {
    let f: Function = Reflect::get(pool, &"entries".into()).unwrap().into();
    threads::attach(&f.call0(pool).unwrap());
}

fn detach() {
    threads::attach(&JsValue::UNDEFINED);
}

/// Stops the pool's workers.
async fn stop(pool: &JsValue) {
    detach();
    let f: Function = Reflect::get(pool, &"configure".into()).unwrap().into();
    JsFuture::from(Promise::from(f.call1(pool, &1.into()).unwrap()))
        .await
        .unwrap();
}

#[wasm_bindgen_test]
async fn every_corpus_case_is_the_same_on_several_threads() {
    let pool = start_pool().await;
    assert_eq!(info(&pool, "threads"), THREADS);
    threads::set_split_everything(true);
    let cases = corpus(ALL);
    let mut single = WasmBackend::new();
    detach();
    let one: Vec<Vec<u8>> = cases
        .iter()
        .map(|c| run_on(&mut single, &c.kernel, &c.inputs))
        .collect();
    assert_eq!(single.split_dispatches(), 0);
    attach(&pool);
    let mut multi = WasmBackend::new();
    let mut cpu = CpuBackend::new();
    let (mut failures, mut split) = (vec![], 0);
    for (case, one) in cases.iter().zip(&one) {
        let before = (multi.split_dispatches(), info(&pool, "workerChunks"));
        let got = run_on(&mut multi, &case.kernel, &case.inputs);
        let was_split = multi.split_dispatches() > before.0;
        if was_split {
            split += 1;
            assert!(
                info(&pool, "workerChunks") > before.1,
                "{}: no worker chunk",
                case.name
            );
        } else if case.kernel.size >= 2 * emit::split_align(&case.kernel) {
            failures.push(format!("{}: not split", case.name));
        }
        if got != *one {
            failures.push(format!("{}: threads differ from one thread", case.name));
        }
        let want = run_on(&mut cpu, &case.kernel, &case.inputs);
        if let Err(e) = check(case, &got, &want, ulps_for(case)) {
            failures.push(e);
        }
    }
    threads::set_split_everything(false);
    stop(&pool).await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(split > 100, "{split} of {} corpus cases split", cases.len());
    assert!(info(&pool, "workerChunks") >= 2.0 * split as f64);
    assert_eq!(multi.stats().live_buffers, 0);
}

/// A batch of well-conditioned matrices: noise plus `n` on the diagonal (symmetric positive
/// definite after symmetrising for Cholesky; diagonally dominant for LU and the solves).
fn matrices(batch: usize, n: usize, dtype: DType, symmetric: bool) -> Vec<u8> {
    let v = values(batch * n * n, 3.0);
    let mut a = vec![0.0; batch * n * n];
    for b in 0..batch {
        for i in 0..n {
            for j in 0..n {
                let at = |i: usize, j: usize| v[b * n * n + i * n + j] / 8.0;
                let x = if symmetric {
                    at(i, j) + at(j, i)
                } else {
                    at(i, j)
                };
                a[b * n * n + i * n + j] = x + if i == j { 4.0 * n as f64 } else { 0.0 };
            }
        }
    }
    encode(dtype, &a)
}

#[wasm_bindgen_test]
async fn batched_routines_are_the_same_on_several_threads() {
    let pool = start_pool().await;
    threads::set_split_everything(true);
    let (batch, n, m) = (7, 12, 5);
    let solve = |left_side, lower, transpose_a| RoutineKind::TriangularSolve {
        left_side,
        lower,
        transpose_a,
        unit_diagonal: false,
    };
    let mut failures = vec![];
    for dtype in [DType::Float32, DType::Float64] {
        let cases = [
            (
                RoutineKind::Cholesky,
                n,
                n,
                vec![matrices(batch, n, dtype, true)],
            ),
            (
                RoutineKind::Lu,
                n,
                n,
                vec![matrices(batch, n, dtype, false)],
            ),
            (
                RoutineKind::Lu,
                n,
                m,
                vec![
                    matrices(batch, n, dtype, false)[..batch * n * m * dtype.byte_size()].to_vec(),
                ],
            ),
            (
                solve(true, true, false),
                n,
                m,
                vec![
                    matrices(batch, n, dtype, false),
                    encode(dtype, &values(batch * n * m, 5.0)),
                ],
            ),
            (
                solve(false, false, true),
                m,
                n,
                vec![
                    matrices(batch, n, dtype, false),
                    encode(dtype, &values(batch * n * m, 6.0)),
                ],
            ),
        ];
        for (kind, rows, cols, inputs) in cases {
            let r = Routine {
                kind,
                dtype,
                batch,
                m: rows,
                n: cols,
            };
            let name = format!("{} {} {rows}×{cols}", r.name(), dtype.name());
            detach();
            let one = run_routine_on(&mut WasmBackend::new(), &r, &inputs);
            attach(&pool);
            let mut multi = WasmBackend::new();
            let before = info(&pool, "workerChunks");
            let got = run_routine_on(&mut multi, &r, &inputs);
            if multi.split_dispatches() != 1 || info(&pool, "workerChunks") < before + batch as f64
            {
                failures.push(format!("{name}: not split into {batch} worker chunks"));
            }
            if got != one {
                failures.push(format!("{name}: threads differ from one thread"));
            }
            if dtype == DType::Float64 && got != run_routine_on(&mut CpuBackend::new(), &r, &inputs)
            {
                failures.push(format!("{name}: differs from the cpu interpreter"));
            }
        }
    }
    threads::set_split_everything(false);
    stop(&pool).await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
