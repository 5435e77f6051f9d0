//! Stage shaders that differ only in integer constants share one pipeline. The stages of a
//! staged program (`stages`) are often the same code with other numbers: the rounds of
//! an `associativeScan` run the same kernels on other slots (word offsets), other row counts
//! and other shifts. Each stage's WGSL is cut into a TEMPLATE (its text with every decimal
//! integer literal `123u` / `123i` taken out) and its literals; stages of one template become
//! one shader in which each literal that differs among them reads a parameter instead
//! (`ox_p[k]`, a read-only storage binding filled once per stage), and every literal they
//! agree on stays a constant.
//!
//! Only suffixed decimal literals are parameters, and not divisors (`x / 4i`, `x % 2u`: a
//! constant divisor compiles to a multiply and shift); in these shaders they are run-time values
//! (offsets, bounds, shifts, loop bounds, index constants), never the constant expressions
//! WGSL requires elsewhere (workgroup sizes, bindings and array sizes are unsuffixed or
//! hexadecimal). A value stays exact: literals are non-negative (a sign stays in the template)
//! and at most `u32::MAX`.

use std::collections::HashMap;

/// The binding of the parameters (binding 0 is the packed buffer).
pub const PARAMS_BINDING: u32 = 1;

/// One literal of a shader: its byte range, value and suffix (`u` or `i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Literal {
    pub start: usize,
    pub end: usize,
    pub value: u32,
    pub suffix: u8,
}

/// The suffixed decimal literals of `src`, in order.
pub(super) fn literals(src: &str) -> Vec<Literal> {
    let b = src.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && word(b[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let suffix = b.get(i).copied().unwrap_or(0);
        let after = b.get(i + 1).copied().unwrap_or(b' ');
        // A divisor stays a constant (division by a constant compiles to a multiply and a
        // shift; by a run-time value it is a long sequence): it is part of the template.
        let before = src[..start].trim_end().bytes().last();
        let divisor = matches!(before, Some(b'/') | Some(b'%'));
        if (suffix == b'u' || suffix == b'i') && !word(after) && !divisor {
            if let Ok(value) = src[start..i].parse::<u32>() {
                out.push(Literal {
                    start,
                    end: i + 1,
                    value,
                    suffix,
                });
            }
            i += 1;
        }
    }
    out
}

/// `src` with every literal replaced by a marker of its suffix.
pub(super) fn template(src: &str, lits: &[Literal]) -> String {
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for l in lits {
        out.push_str(&src[at..l.start]);
        out.push_str(if l.suffix == b'u' { "#u" } else { "#i" });
        at = l.end;
    }
    out.push_str(&src[at..]);
    out
}

/// A stage's shader after sharing: the WGSL to compile (identical for every stage of one
/// template) and the values of its parameters (empty: no parameter binding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shared {
    pub source: String,
    pub params: Vec<u32>,
}

/// The shaders of `sources` with the literals that differ within each template turned into
/// parameters (see the module doc); a source alone in its template is returned as it is.
/// (Programs share with the structural literals as parameters too: `stage_templates`.)
#[cfg(test)]
pub fn share(sources: &[String]) -> Vec<Shared> {
    share_by(sources, |_, lists| varying(lists))
}

/// [`share`] with the literals to turn into parameters chosen by `choose`, given each
/// template and the literal lists of its sources (at least the positions that differ among
/// them: the others keep the first source's values).
pub(super) fn share_by(
    sources: &[String],
    mut choose: impl FnMut(&str, &[&[Literal]]) -> Vec<bool>,
) -> Vec<Shared> {
    let lits: Vec<Vec<Literal>> = sources.iter().map(|s| literals(s)).collect();
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        let t = template(s, &lits[i]);
        if !groups.contains_key(&t) {
            order.push(t.clone());
        }
        groups.entry(t).or_default().push(i);
    }
    let mut out: Vec<Option<Shared>> = vec![None; sources.len()];
    for t in &order {
        let members = &groups[t];
        let first = members[0];
        let lists: Vec<&[Literal]> = members.iter().map(|&m| &lits[m][..]).collect();
        let varying = choose(t, &lists);
        if !varying.iter().any(|&v| v) {
            for &m in members {
                out[m] = Some(Shared {
                    source: sources[m].clone(),
                    params: Vec::new(),
                });
            }
            continue;
        }
        let source = with_params(&sources[first], &lits[first], &varying);
        for &m in members {
            let params = varying_values(&lits[m], &varying).collect();
            out[m] = Some(Shared {
                source: source.clone(),
                params,
            });
        }
    }
    out.into_iter()
        .map(|s| s.expect("every stage shared"))
        .collect()
}

/// Which positions of the literal lists of one template (`lists`, each a shader's or a
/// kernel's literals in order) hold values that differ among them.
pub(super) fn varying(lists: &[&[Literal]]) -> Vec<bool> {
    let first = lists[0];
    (0..first.len())
        .map(|j| lists.iter().any(|l| l[j].value != first[j].value))
        .collect()
}

/// The values of `lits` at the positions marked `varying`, in order.
pub(super) fn varying_values<'a>(
    lits: &'a [Literal],
    varying: &'a [bool],
) -> impl Iterator<Item = u32> + 'a {
    lits.iter()
        .zip(varying)
        .filter(|(_, &v)| v)
        .map(|(l, _)| l.value)
}

/// `src` from byte `from` on, with each literal marked `varying` (and starting there) replaced
/// by `read(k)` for the `k`-th of them: a `u32` expression, bitcast for an `i` literal.
pub(super) fn replace_literals(
    src: &str,
    from: usize,
    lits: &[Literal],
    varying: &[bool],
    mut read: impl FnMut(usize) -> String,
) -> String {
    let mut out = String::with_capacity(src.len() + 64);
    let mut at = from;
    let mut k = 0;
    for (l, &v) in lits.iter().zip(varying) {
        if l.start < from || !v {
            continue;
        }
        out.push_str(&src[at..l.start]);
        let r = read(k);
        match l.suffix {
            b'u' => out.push_str(&r),
            _ => out.push_str(&format!("bitcast<i32>({r})")),
        }
        k += 1;
        at = l.end;
    }
    out.push_str(&src[at..]);
    out
}

/// The statement after which `main` has begun (every packed-buffer shader's entry head
/// ends with it): parameters used in `main` are loaded into `let`s there.
const MAIN_START: &str = "ox_zp = wid.z;\n";

/// `src` with the literals marked `varying` read from the parameter binding: inside `main`
/// through a `let ox_pK` loaded at its start, elsewhere (helper functions, a shader without
/// the usual entry head) from the binding directly. Both are uniform values (a read-only
/// storage binding), so a loop bound that is a parameter may hold barriers (WGSL's
/// uniformity analysis rejects a private variable there).
pub(super) fn with_params(src: &str, lits: &[Literal], varying: &[bool]) -> String {
    let first_line = src.find('\n').map_or(0, |i| i + 1);
    let start = src.find(MAIN_START).map(|i| i + MAIN_START.len());
    // `main` ends at the first closing brace in column 0 after its start.
    let main = start.map(|s| s..src[s..].find("\n}\n").map_or(src.len(), |e| s + e));
    let in_main: Vec<bool> = lits
        .iter()
        .zip(varying)
        .filter(|(l, &v)| v && l.start >= first_line)
        .map(|(l, _)| main.as_ref().is_some_and(|m| m.contains(&l.start)))
        .collect();
    let mut loads = String::new();
    let body = replace_literals(src, first_line, lits, varying, |k| match in_main[k] {
        true => {
            loads.push_str(&format!("  let ox_p{k} = ox_p[{k}];\n"));
            format!("ox_p{k}")
        }
        false => format!("ox_p[{k}]"),
    });
    let mut out = String::with_capacity(body.len() + loads.len() + 128);
    out.push_str(&src[..first_line]);
    out.push_str(&format!(
        "@group(0) @binding({PARAMS_BINDING}) var<storage, read> ox_p: array<u32>;\n"
    ));
    match start.and_then(|s| body.find(MAIN_START).filter(|_| s > 0)) {
        Some(i) => {
            let i = i + MAIN_START.len();
            out.push_str(&body[..i]);
            out.push_str(&loads);
            out.push_str(&body[i..]);
        }
        None => out.push_str(&body),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_skip_identifiers_hex_and_floats() {
        let src = "let v12: i32 = v3 + 32i; x[130057u + u32(v1)] = bitcast<f32>(0x7fc00000u) * 0.5f; vec3<u32>(1u) / 4u + v % 3i;";
        let got: Vec<u32> = literals(src).iter().map(|l| l.value).collect();
        assert_eq!(got, vec![32, 130057, 1]);
    }

    #[test]
    fn differing_literals_become_parameters() {
        let a = "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;\nfn main() { ox_buf[10u + i] = ox_buf[7u] + 2u; let s = -4i; }".to_string();
        let b = a.replace("10u", "99u").replace("-4i", "-8i");
        let c = "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;\nfn other() {}"
            .to_string();
        let shared = share(&[a.clone(), b, c.clone()]);
        assert_eq!(shared[0].source, shared[1].source);
        assert_eq!(shared[0].params, vec![10, 4]);
        assert_eq!(shared[1].params, vec![99, 8]);
        assert!(shared[0]
            .source
            .contains("ox_buf[ox_p[0] + i] = ox_buf[7u] + 2u"));
        assert!(shared[0].source.contains("let s = -bitcast<i32>(ox_p[1]);"));
        assert!(shared[0]
            .source
            .contains("var<storage, read> ox_p: array<u32>;"));
        assert_eq!(
            shared[2],
            Shared {
                source: c,
                params: vec![]
            }
        );
    }
}
