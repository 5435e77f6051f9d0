#!/usr/bin/env python3
"""Hand-written variants of the tiled matrix product, outside the library's emitter, for
`bench/matmul_tiles.ts`: `python3 bench/matmul_variants.py DIR N...` writes
`mm_N_<variant>_X_Y.wgsl` for C = A @ B with N x N float32 row-major operands (N a multiple
of the variant's tile; `cargo run --example matmul_wgsl -- DIR N...` adds the emitter's own
tiles to the same directory). The variants try what the emitter does not do: `vec4` global
loads of both operands (`p_vec*`, `q_vec*`; `p_scal` is the emitter's scalar-load kernel
rewritten here), 8 or 32 steps of k per barrier, the k step as a loop, `vec4` output stores,
other warp layouts, contiguous 8 x 8 blocks per invocation, 128-invocation workgroups and
other register tiles, and the subgroup form with `vec4` (or `vec2`) loads of `a` (`sg*`,
with and without `enable subgroups;`). Subgroup variants need a device opened with
`subgroups` (matmul_tiles.ts requests it where the adapter offers it).

Parameters of `gen`: TM x TN outputs per invocation (multiples of 4, as 4 x 4 blocks 4*WY
rows / 4*WX columns apart, or adjacent with `contig`), a WX x WY grid of invocations, BK
steps of k per barrier, `vec` loads, `unroll`ed k steps, `sg` (a through subgroupShuffle
within row groups of `wc` invocations), `wc` block columns per warp, `vec_out` stores.
"""
import os
import sys


def gen(n, TM=8, TN=8, WX=16, WY=16, BK=16, vec=True, unroll=True, sg=False, wc=4,
        enable=False, vec_out=False, contig=False):
    gm, gn = TM // 4, TN // 4
    T = WX * WY
    BM, BN = WY * TM, WX * TN
    aw = BM // 4 + 1
    L = []
    w = L.append
    if sg and enable:
        w("enable subgroups;")
    # bindings
    if sg:
        av = BK // wc  # consecutive k per lane per row
        at = {1: "f32", 2: "vec2<f32>", 4: "vec4<f32>"}[av]
    else:
        av = 4 if vec else 1
        at = "vec4<f32>" if vec else "f32"
    bt = "vec4<f32>" if vec else "f32"
    w(f"@group(0) @binding(0) var<storage, read> in0: array<{at}>;")
    w(f"@group(0) @binding(1) var<storage, read> in1: array<{bt}>;")
    w(f"@group(0) @binding(2) var<storage, read_write> out: array<{'vec4<f32>' if vec_out else 'f32'}>;")
    if not sg:
        w(f"var<workgroup> ta: array<array<vec4<f32>, {aw}>, {BK}>;")
    w(f"var<workgroup> tb: array<array<vec4<f32>, {BN // 4}>, {BK}>;")
    w("")
    extra = ", @builtin(subgroup_invocation_id) sid: u32" if sg else ""
    w(f"@compute @workgroup_size({WX * WY})" if sg else f"@compute @workgroup_size({WX}, {WY})")
    w(f"fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lane: u32{extra}) {{")
    across = WX // wc
    rows_w = 32 // wc
    w(f"  let tx = lane % {wc}u + {wc}u * ((lane / 32u) % {across}u);")
    w(f"  let ty = (lane % 32u) / {wc}u + {rows_w}u * ((lane / 32u) / {across}u);")
    w(f"  let row0 = wid.y * {BM}u;")
    w(f"  let col0 = wid.x * {BN}u;")
    # ---- loads
    loads_a, stores_a, loads_b, stores_b = [], [], [], []
    regs = []
    if not sg:
        if vec:
            la = BM * BK // (4 * T)
            assert la >= 1 and BM * BK % (4 * T) == 0, (BM, BK, T)
            kq = BK // 4
            for l in range(la):
                regs.append(f"  var ra{l}: vec4<f32>;")
                loads_a.append(f"    ra{l} = in0[(row0 + (lane + {l * T}u) / {kq}u) * {n // 4}u + kb / 4u + (lane + {l * T}u) % {kq}u];")
                for c in range(4):
                    stores_a.append(f"    {{ let e = lane + {l * T}u; let r = e / {kq}u; ta[(e % {kq}u) * 4u + {c}u][r >> 2u][r & 3u] = ra{l}[{c}]; }}")
        else:
            la = BM * BK // T
            for l in range(la):
                regs.append(f"  var ra{l}: f32;")
                loads_a.append(f"    ra{l} = in0[(row0 + (lane + {l * T}u) / {BK}u) * {n}u + kb + (lane + {l * T}u) % {BK}u];")
                stores_a.append(f"    {{ let e = lane + {l * T}u; let r = e / {BK}u; ta[e % {BK}u][r >> 2u][r & 3u] = ra{l}; }}")
    else:
        # lane (ty_l, j) holds rows 4ty+x+4WY g, k = kb + j*av .. +av
        for g in range(gm):
            for x in range(4):
                regs.append(f"  var ra{g}{x}: {at};")
                loads_a.append(f"    ra{g}{x} = in0[(row0 + {4 * WY * g + x}u + 4u * ty) * {n // av}u + kb / {av}u + lane % {wc}u];")
    if vec:
        lb = BN * BK // (4 * T)
        cq = BN // 4
        assert lb >= 1
        for l in range(lb):
            regs.append(f"  var rb{l}: vec4<f32>;")
            loads_b.append(f"    rb{l} = in1[(kb + (lane + {l * T}u) / {cq}u) * {n // 4}u + col0 / 4u + (lane + {l * T}u) % {cq}u];")
            stores_b.append(f"    {{ let e = lane + {l * T}u; tb[e / {cq}u][e % {cq}u] = rb{l}; }}")
    else:
        lb = BN * BK // T
        for l in range(lb):
            regs.append(f"  var rb{l}: f32;")
            loads_b.append(f"    rb{l} = in1[(kb + (lane + {l * T}u) / {BN}u) * {n}u + col0 + (lane + {l * T}u) % {BN}u];")
            stores_b.append(f"    {{ let e = lane + {l * T}u; let c = e % {BN}u; tb[e / {BN}u][c >> 2u][c & 3u] = rb{l}; }}")
    L.extend(regs)
    for g in range(gm):
        for x in range(4):
            for h in range(gn):
                w(f"  var c{g}{x}_{h}: vec4<f32> = vec4<f32>(0.0f);")
    # ---- the product of one staged step
    def prod(kk):
        out = []
        kidx = f"{kk}" if isinstance(kk, int) else kk
        if not sg:
            for g in range(gm):
                out.append(f"    let a{g} = ta[{kidx}][{g}u + {gm}u * ty];" if contig else f"    let a{g} = ta[{kidx}][{g * WY}u + ty];")
        for h in range(gn):
            out.append(f"    let b{h} = tb[{kidx}][{h}u + {gn}u * tx];" if contig else f"    let b{h} = tb[{kidx}][{h * WX}u + tx];")
        for g in range(gm):
            for x in range(4):
                if sg:
                    comp = "" if av == 1 else f"[{kk % av}]"
                    out.append(f"    let s{g}{x} = subgroupShuffle(ra{g}{x}{comp}, sid - sid % {wc}u + {kk // av}u);")
                    av_ = f"s{g}{x}"
                else:
                    av_ = f"a{g}[{x}]"
                for h in range(gn):
                    out.append(f"    c{g}{x}_{h} = fma(vec4<f32>({av_}), b{h}, c{g}{x}_{h});")
        return out
    body = []
    if unroll or sg:
        for kk in range(BK):
            body.append("    {")
            body.extend(prod(kk))
            body.append("    }")
    else:
        body.append(f"    for (var kk: u32 = 0u; kk < {BK}u; kk = kk + 1u) {{")
        body.extend(prod("kk"))
        body.append("    }")
    w("  {")
    w("    let kb = 0u;")
    L.extend(loads_a + loads_b)
    w("  }")
    w(f"  for (var k0: u32 = 0u; k0 < {n}u; k0 = k0 + {BK}u) {{")
    if not sg:
        L.extend(stores_a)
    L.extend(stores_b)
    w("    workgroupBarrier();")
    if sg:
        # a of this step is in registers now; prefetch b only
        w(f"    if (k0 + {BK}u < {n}u) {{")
        w(f"      let kb = k0 + {BK}u;")
        L.extend(["  " + s for s in loads_b])
        w("    }")
        L.extend(body)
        w("    workgroupBarrier();")
        w(f"    if (k0 + {BK}u < {n}u) {{")
        w(f"      let kb = k0 + {BK}u;")
        L.extend(["  " + s for s in loads_a])
        w("    }")
    else:
        w(f"    if (k0 + {BK}u < {n}u) {{")
        w(f"      let kb = k0 + {BK}u;")
        L.extend(["  " + s for s in loads_a + loads_b])
        w("    }")
        L.extend(body)
        w("    workgroupBarrier();")
    w("  }")
    for g in range(gm):
        for x in range(4):
            w(f"  let gr{g}{x} = row0 + {4 * g + x}u + {TM}u * ty;" if contig else f"  let gr{g}{x} = row0 + {4 * WY * g + x}u + 4u * ty;")
            for h in range(gn):
                gc = f"col0 + {4 * h}u + {TN}u * tx" if contig else f"col0 + {4 * WX * h}u + 4u * tx"
                if vec_out:
                    w(f"  out[(gr{g}{x} * {n}u + {gc}) / 4u] = c{g}{x}_{h};")
                else:
                    for y in range(4):
                        w(f"  out[gr{g}{x} * {n}u + {gc} + {y}u] = c{g}{x}_{h}[{y}];")
    w("}")
    return "\n".join(L) + "\n", (n // BN, n // BM)


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    sizes = [int(s) for s in sys.argv[2:]] or [4096]
    variants = {
        "p_scal": dict(vec=False),
        "p_vec": dict(),
        "p_vec_bk8": dict(BK=8),
        "p_vec_bk32": dict(BK=32),
        "p_vec_loop": dict(unroll=False),
        "p_vec_vout": dict(vec_out=True),
        "p_vec_w8": dict(wc=8),
        "p_vec_t128r": dict(WX=16, WY=8),   # 64x128 tile, 128 threads
        "p_vec_t128c": dict(WX=8, WY=16),   # 128x64 tile
        "p_vec_8x16": dict(TN=16, WX=8, WY=16, wc=4),  # 128x128 with 128 threads
        "p_vec_16x8": dict(TM=16, WX=16, WY=8),        # 128x128, 128 threads
        "sg_bk16": dict(sg=True),
        "sg_bk8": dict(sg=True, BK=8),
        "sg_bk16_en": dict(sg=True, enable=True),
        "sg_bk16_w8": dict(sg=True, wc=8),
        "p_vec_contig": dict(contig=True),
        "p_vec_bk8_t128c": dict(BK=8, WX=8, WY=16),
        "q_vec_4x4": dict(TM=4, TN=4),
        "q_vec_4x8": dict(TM=4, TN=8),
        "q_vec_8x4": dict(TN=4),
        "q_vec_4x4_bk32": dict(TM=4, TN=4, BK=32),
    }
    for n in sizes:
        for tag, kw in variants.items():
            try:
                src, (x, y) = gen(n, **kw)
            except AssertionError as e:
                print("skip", tag, e)
                continue
            with open(f"{d}/mm_{n}_{tag}_{x}_{y}.wgsl", "w") as f:
                f.write(src)

if __name__ == "__main__":
    main()
