//! The kernels of one dependency level of a stage shader (`stages`), placed on the
//! workgroup's invocations. Each kernel runs on a lane range of its own; a kernel whose lanes
//! cover the elements of its band computes one element per invocation (an `if`), otherwise
//! its lanes stride over them (a loop).
//!
//! Kernels of a level whose code differs only in integer literals (the same operation on
//! other slots, offsets or row counts: the blocks of a batched contraction, the two halves of
//! a symmetrisation) are emitted ONCE, as one block over all their lane ranges: each
//! invocation finds its kernel's number from its lane, and each literal that differs among
//! them is read from a table of the kernels' values. A shader's compile time follows the
//! amount of distinct kernel code in it, so this keeps a stage's code to one copy per kernel
//! shape. Literals are found as `stage_params` finds them (suffixed decimal integers, not
//! divisors), so a divisor always stays a constant.

use std::collections::HashMap;
use std::fmt::Write;

use super::schedule::WARP;
use super::stage_params::{literals, replace_literals, template, varying, varying_values, Literal};

/// One kernel's code in a stage, before it has lanes.
pub(super) struct Piece {
    /// Statements computing `ox_lo` and `ox_hi`, the first and end element of its band.
    pub bounds: String,
    /// Statements computing and storing element `idx` (`i` is `i32(idx)`).
    pub body: String,
    /// Invocations it needs to compute every element of its band at once.
    pub want: u32,
}

/// The invocations of a level still free: lane ranges are taken from the front, each
/// starting at a multiple of [`WARP`].
pub(super) struct Lanes {
    used: u32,
    workgroup: u32,
}

impl Lanes {
    pub fn new(workgroup: u32) -> Lanes {
        Lanes { used: 0, workgroup }
    }

    /// The first lane and the lane count of a kernel that wants `want` invocations: its own
    /// range when it fits, else every lane of the workgroup (its elements then share
    /// invocations with the other kernels of the level).
    pub fn take(&mut self, want: u32) -> (u32, u32) {
        let lane = self.used.div_ceil(WARP) * WARP;
        if lane + want <= self.workgroup {
            self.used = lane + want;
            (lane, want)
        } else {
            (0, self.workgroup)
        }
    }

    /// The first lane of `count` ranges of `span` lanes each, or None when they do not fit.
    fn take_all(&mut self, count: u32, span: u32) -> Option<u32> {
        let lane = self.used.div_ceil(WARP) * WARP;
        let end = lane.checked_add(count.checked_mul(span)?)?;
        (end <= self.workgroup).then(|| {
            self.used = end;
            lane
        })
    }
}

/// Appends the code of `pieces` (the kernels of one level) to `out`, taking their lanes from
/// `lanes`; returns each piece's lane count (for the loop budget).
pub(super) fn place(pieces: &[Piece], lanes: &mut Lanes, out: &mut String) -> Vec<u32> {
    let texts: Vec<String> = pieces.iter().map(joined).collect();
    let lits: Vec<Vec<Literal>> = texts.iter().map(|t| literals(t)).collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::new();
    for (i, text) in texts.iter().enumerate() {
        let key = renumbered(&template(text, &lits[i]));
        let g = *group_of.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let mut spans = vec![0u32; pieces.len()];
    for members in &groups {
        if members.len() > 1 {
            let span = members
                .iter()
                .map(|&i| pieces[i].want)
                .max()
                .unwrap_or(1)
                .div_ceil(WARP)
                * WARP;
            if let Some(lane) = lanes.take_all(members.len() as u32, span) {
                let values: Vec<&[Literal]> = members.iter().map(|&i| &lits[i][..]).collect();
                out.push_str(&group_block(&texts[members[0]], &values, lane, span));
                for &i in members {
                    spans[i] = span;
                }
                continue;
            }
        }
        for &i in members {
            let (lane, span) = lanes.take(pieces[i].want);
            out.push_str(&single_block(&texts[i], pieces[i].want, lane, span));
            spans[i] = span;
        }
    }
    spans
}

/// Marks where the element loop (or test) opens, between a piece's bounds and its body.
const OPEN: &str = "    @open@\n";

/// A piece's statements with [`OPEN`] between its bounds and its body.
fn joined(p: &Piece) -> String {
    format!("{}{OPEN}{}", p.bounds, p.body)
}

/// The opening of the element loop (or test) over `idx` from `first`.
fn opening(first: &str, span: u32, flat: bool) -> String {
    match flat {
        true => format!("    let idx = {first};\n    if (idx < ox_hi) {{\n"),
        false => format!("    for (var idx: u32 = {first}; idx < ox_hi; idx = idx + {span}u) {{\n"),
    }
}

/// One kernel on lanes `lane..lane + span`: one element per invocation when `span` covers
/// the `want` elements of its band.
fn single_block(text: &str, want: u32, lane: u32, span: u32) -> String {
    let open = opening(&format!("ox_lo + lid - {lane}u"), span, span >= want);
    let code = text.replacen(OPEN, &open, 1);
    format!(
        "  if (lid >= {lane}u && lid < {end}u) {{\n{code}    }}\n  }}\n",
        end = lane + span
    )
}

/// Kernels of one template (`values[k]`: kernel `k`'s literals) on `values.len()` ranges of
/// `span` lanes from `lane`, one element per invocation; `text` is the first kernel's code.
fn group_block(text: &str, values: &[&[Literal]], lane: u32, span: u32) -> String {
    let varying = varying(values);
    let width = varying.iter().filter(|&&v| v).count();
    let table: Vec<String> = values
        .iter()
        .flat_map(|v| varying_values(v, &varying))
        .map(|value| format!("{value}u"))
        .collect();
    let table = table.join(", ");
    let code = replace_literals(text, 0, values[0], &varying, |j| {
        format!("ox_t[ox_m * {width}u + {j}u]")
    });
    let open = opening(
        &format!("ox_lo + lid - {lane}u - ox_m * {span}u"),
        span,
        true,
    );
    let code = code.replacen(OPEN, &open, 1);
    let count = values.len();
    format!(
        "  if (lid >= {lane}u && lid < {end}u) {{
    let ox_m = (lid - {lane}u) / {span}u;
    var ox_t = array<u32, {size}>({table});
{code}    }}
  }}
",
        end = lane + span * count as u32,
        size = (width * count).max(1),
    )
}

/// `text` with its expression variables (`v` and a number) renumbered in order of first
/// appearance, so that two kernels' codes compare equal when only their numbering differs.
fn renumbered(text: &str) -> String {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'v'
            && (i == 0 || !word(b[i - 1]))
            && b.get(i + 1).is_some_and(|c| c.is_ascii_digit())
        {
            let mut end = i + 1;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end == b.len() || !word(b[end]) {
                let next = names.len();
                let n = *names.entry(&text[i..end]).or_insert(next);
                out.push_str(&text[at..i]);
                write!(out, "v{n}").unwrap();
                at = end;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(v: usize, base: u32, out: u32, rows: u32) -> Piece {
        Piece {
            bounds: format!(
                "    let ox_lo = u32(clamp(ox_g + (-1i), 0i, {rows}i)) * 4u;\n    let ox_hi = u32(clamp(ox_g + (8i), 0i, {rows}i)) * 4u;\n"
            ),
            body: format!(
                "      let i = i32(idx);\n      let v{v}: f32 = bitcast<f32>(ox_buf[{base}u + u32(i / 4i)]);\n      ox_buf[{out}u + idx] = bitcast<u32>(v{v});\n"
            ),
            want: 40,
        }
    }

    #[test]
    fn kernels_of_one_template_share_one_block() {
        let pieces = [piece(3, 100, 500, 10), piece(9, 200, 600, 10)];
        let mut out = String::new();
        let spans = place(&pieces, &mut Lanes::new(256), &mut out);
        assert_eq!(spans, vec![64, 64]);
        assert_eq!(out.matches("if (lid >=").count(), 1, "{out}");
        assert!(out.contains("lid < 128u"), "{out}");
        assert!(out.contains("var ox_t = array<u32, 4>(100u, 500u, 200u, 600u);"));
        assert!(
            out.contains("ox_buf[ox_t[ox_m * 2u + 0u] + u32(i / 4i)]"),
            "{out}"
        );
        // Literals the kernels agree on, divisors and signs stay in the code.
        assert!(out.contains("clamp(ox_g + (-1i), 0i, 10i)) * 4u"), "{out}");
        assert!(out.contains("let idx = ox_lo + lid - 0u - ox_m * 64u;"));
    }

    #[test]
    fn different_kernels_get_their_own_blocks() {
        let mut other = piece(4, 100, 500, 10);
        other.body = other.body.replace("i / 4i", "i / 2i");
        let pieces = [piece(3, 100, 500, 10), other];
        let mut out = String::new();
        place(&pieces, &mut Lanes::new(256), &mut out);
        assert_eq!(out.matches("if (lid >=").count(), 2, "{out}");
        assert!(!out.contains("ox_t"));
        // Each covers its band: one element per invocation.
        assert_eq!(out.matches("if (idx < ox_hi)").count(), 2, "{out}");
    }

    #[test]
    fn kernels_past_the_workgroup_loop_over_it() {
        let pieces = [piece(3, 100, 500, 10), piece(9, 200, 600, 10)];
        let mut out = String::new();
        let spans = place(&pieces, &mut Lanes::new(32), &mut out);
        assert_eq!(spans, vec![32, 32]);
        assert_eq!(out.matches("for (var idx").count(), 2, "{out}");
    }

    #[test]
    fn renumbering_ignores_other_identifiers() {
        assert_eq!(
            renumbered("let v12 = v7 + v12 + vec2(1) + ov3;"),
            "let v0 = v1 + v0 + vec2(1) + ov3;"
        );
    }
}
