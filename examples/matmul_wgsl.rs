//! Writes the tiled WGSL matrix product of N×N by N×N float32 matrices in several tile shapes,
//! for `bench/matmul_tiles.ts`: `cargo run --example matmul_wgsl -- DIR N…`. Each file is
//! named `mm_N_TMxTN_bkBK_wWARPCOLS[_sg][_chosen]_X_Y.wgsl` (X × Y workgroups; `sg`: the
//! subgroup form, written without `enable subgroups;` as wgpu-based runtimes take it;
//! `chosen`: the tile that `wgsl_matmul::tile` picks with 48 KiB of workgroup storage, without
//! subgroups).

use oxjax::backend::webgpu::wgsl_matmul::{self, Tile};
use oxjax::core::{Aval, DType};
use oxjax::rules::linalg::matmul_kernel;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: matmul_wgsl DIR N…");
    for n in args.map(|s| s.parse::<usize>().expect("a size")) {
        let a = Aval::new(vec![n, n], DType::Float32);
        let kernel = matmul_kernel(&a, &a, &a);
        let m = wgsl_matmul::recognise(&kernel).expect("a tiled product");
        let chosen = wgsl_matmul::tile(&m, false, 49152, 0);
        let shapes = [(8, 8, 16), (4, 4, 16), (8, 16, 8), (8, 4, 16)];
        let plain = shapes
            .iter()
            .flat_map(|&s| [(s, 16, false), (s, 8, false), (s, 4, false)]);
        let subgroup = [
            ((8, 8, 16), 4, true),
            ((8, 8, 8), 4, true),
            ((4, 4, 16), 4, true),
        ];
        for ((tm, tn, bk), warp_cols, subgroup) in plain.chain(subgroup) {
            let tile = Tile {
                tm,
                tn,
                bk,
                warp_cols,
                subgroup,
            };
            let source = wgsl_matmul::emit(&kernel, &m, &tile).expect("WGSL");
            let (x, y) = wgsl_matmul::workgroups(&m, &tile);
            let sg = if subgroup { "_sg" } else { "" };
            let mark = if tile == chosen { "_chosen" } else { "" };
            let name = format!("{dir}/mm_{n}_{tm}x{tn}_bk{bk}_w{warp_cols}{sg}{mark}_{x}_{y}.wgsl");
            std::fs::write(&name, source).expect("writable DIR");
        }
    }
}
