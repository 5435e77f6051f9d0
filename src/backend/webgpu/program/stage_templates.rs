//! Whole-program shaders shared ACROSS programs. A jitted program called at a new size (another
//! sequence length) lowers to the same kernels with other numbers: the word offsets of its
//! slots in the packed buffer, its row counts, element counts and bands. `stage_params` turns
//! the literals that differ among ONE program's stages into parameters; here, in addition,
//! every literal of a structural kind (see [`structural`]: a word offset, a bound of rows,
//! invocations, elements or words, a band's first row) and every literal of [`SIZE_LIKE`] or
//! more is a parameter from the first program on, so another size whose shaders have the same
//! templates compiles nothing.
//!
//! Each template remembers the positions it was last compiled with and their values. A later
//! program whose other literals differ (a size that reached a constant of a kernel's index
//! expression) makes those positions parameters too: one more pipeline, which every later
//! size of that template then shares. A literal that stays a constant is part of the
//! pipeline's key (its source), so sharing never changes what a shader computes.

use super::stage_params::{share_by, varying, Literal, Shared};
use crate::util::lru::Lru;

/// Literals of at least this value are parameters too: inside a kernel's index expressions
/// they are sizes and offsets (a concatenation's split, the rows of a slice), which follow
/// the program's size, far more often than strides of small axes; as parameters they cost
/// next to nothing (divisors stay constants, `stage_params`).
const SIZE_LIKE: u32 = 64;

/// Templates remembered (a staged program has tens).
const CAPACITY: usize = 512;

/// The text just before a literal (in the template: earlier literals are marked `#i`/`#u`)
/// that makes it structural: an offset into the packed buffer or workgroup memory, a bound of
/// invocations, elements, rows (a clamp's upper bound), matrices or words, a row's stride,
/// and the band arithmetic of a staged shader (its first row, a member's rows around its
/// band).
const CONTEXTS: [&str; 12] = [
    "ox_buf[",
    "ox_wg[",
    "lid < ",
    "lid >= ",
    "idx < ",
    "bi < ",
    "w < ",
    ", #i, ",
    "wid.x) * ",
    "+ (",
    "t < ",
    "row * ",
];

/// Which literals of `template` (a shader's text with its literals marked, `stage_params`)
/// are structural.
pub(super) fn structural(template: &str) -> Vec<bool> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = template[at..].find('#') {
        let i = at + i;
        if matches!(template.as_bytes().get(i + 1), Some(b'u') | Some(b'i')) {
            out.push(CONTEXTS.iter().any(|c| template[..i].ends_with(c)));
        }
        at = i + 1;
    }
    out
}

/// The templates of the shaders compiled so far: the positions made parameters and the
/// values of the others.
pub(in crate::backend::webgpu) struct Templates(Lru<String, (Vec<bool>, Vec<u32>)>);

impl Default for Templates {
    fn default() -> Templates {
        Templates(Lru::new(CAPACITY))
    }
}

impl Templates {
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The shaders of `sources` (one program's) with parameters for the literals that differ
    /// among those of one template, the structural ones, and those that differ from what the
    /// template was compiled with before.
    pub(super) fn share(&mut self, sources: &[String]) -> Vec<Shared> {
        share_by(sources, |template, lists: &[&[Literal]]| {
            let mut chosen = varying(lists);
            let first = lists[0];
            for (j, (c, s)) in chosen.iter_mut().zip(structural(template)).enumerate() {
                *c |= s || lists.iter().any(|l| l[j].value >= SIZE_LIKE);
            }
            if let Some((before, values)) = self.0.get(&template.to_string()) {
                for (j, c) in chosen.iter_mut().enumerate() {
                    *c |= before[j] || values[j] != first[j].value;
                }
            }
            let values = first.iter().map(|l| l.value).collect();
            self.0
                .insert(template.to_string(), (chosen.clone(), values));
            chosen
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stage's shader at `n` rows whose kernel reads `k` elements back and compares with
    /// `4n`.
    fn shader(n: u32, k: u32) -> String {
        format!(
            "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;\nfn main() {{\n  ox_zp = wid.z;\n  let ox_g = i32(wid.x) * 64i + (0i);\n  let ox_hi = u32(clamp(ox_g + (64i), 0i, {n}i)) * 4u;\n  if (lid < 256u) {{ let idx = lid; let v = ox_buf[{}u + idx - {k}u]; let c = v0 < {}i; ox_buf[{}u + idx] = v * 3u; }}\n}}\n",
            8 * n,
            4 * n,
            12 * n
        )
    }

    #[test]
    fn structural_literals_are_parameters_from_the_first_program_on() {
        let t = |s: &str| {
            super::super::stage_params::template(s, &super::super::stage_params::literals(s))
        };
        assert_eq!(
            structural(&t(&shader(10, 4))),
            vec![true, true, true, false, true, false, true, true, false, false, true, false]
        );
        let mut templates = Templates::default();
        let first = templates.share(&[shader(1600, 4)]).pop().unwrap();
        assert_eq!(first.params, vec![64, 0, 64, 1600, 256, 12800, 6400, 19200]);
        assert!(first.source.contains("- 4u]") && first.source.contains("v * 3u"));
        // Another size: the same shader, its own values.
        let second = templates.share(&[shader(1601, 4)]).pop().unwrap();
        assert_eq!(second.source, first.source);
        assert_eq!(
            second.params,
            vec![64, 0, 64, 1601, 256, 12808, 6404, 19212]
        );
        // A constant that changed (a small one: not a size): it becomes a parameter, from
        // then on for every size.
        let third = templates.share(&[shader(1700, 8)]).pop().unwrap();
        assert_ne!(third.source, first.source);
        assert_eq!(third.params.len(), 9);
        let fourth = templates.share(&[shader(20, 4)]).pop().unwrap();
        assert_eq!(fourth.source, third.source);
        assert_eq!(fourth.params, vec![64, 0, 64, 20, 256, 160, 4, 80, 240]);
    }
}
