//! Whole-program shaders shared ACROSS programs. A jitted program called at a new size (another
//! sequence length) lowers to the same kernels with other numbers: the word offsets of its
//! slots in the packed buffer, its row counts, element counts and bands. `stage_params` turns
//! the literals that differ among ONE program's stages into parameters; here, in addition,
//! once a template comes back with other values (a second size), every literal of a
//! structural kind (see [`structural`]: a word offset, a bound of rows, invocations, elements
//! or words, a band's first row) and every literal of [`SIZE_LIKE`] or more becomes a
//! parameter, so every later size whose shaders have the same templates compiles nothing.
//! The first program keeps its constants: parameters cost the driver more to compile and the
//! shader more to run, which a program used at one size (the common case) would pay for
//! nothing.
//!
//! A shader that would read more than [`MAX_PARAMS`] parameters keeps its constants (it is
//! shared within its program only). Each template remembers the positions it was last
//! compiled with and their values. A later program whose other literals differ (a size that
//! reached a constant of a kernel's index expression) makes those positions parameters too:
//! one more pipeline, which every later size of that template then shares. A literal that
//! stays a constant is part of the pipeline's key (its source), so sharing never changes what
//! a shader computes.

use super::stage_params::{share_by, varying, Literal, Shared};
use crate::util::lru::Lru;

/// Literals of at least this value are parameters too: inside a kernel's index expressions
/// they are sizes and offsets (a concatenation's split, the rows of a slice), which follow
/// the program's size, far more often than strides of small axes; as parameters they cost
/// next to nothing (divisors stay constants, `stage_params`).
const SIZE_LIKE: u32 = 64;

/// A shader that would read more parameters than this is shared within its program only
/// (`stage_params`): a long fused chain's stage has hundreds of offsets, and SwiftShader lost
/// the device running a 400-op jitted chain whose stages read each of them as a parameter.
const MAX_PARAMS: usize = 96;

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
    /// among those of one template, those that differ from what the template was compiled
    /// with before, and, once it was compiled at another size, the structural and size-like
    /// ones.
    pub(super) fn share(&mut self, sources: &[String]) -> Vec<Shared> {
        share_by(sources, |template, lists: &[&[Literal]]| {
            let mut chosen = varying(lists);
            let first = lists[0];
            if let Some((before, values)) = self.0.get(&template.to_string()) {
                let resized = values.iter().zip(first).any(|(v, l)| *v != l.value);
                let structural = structural(template);
                for (j, c) in chosen.iter_mut().enumerate() {
                    let size_like = lists.iter().any(|l| l[j].value >= SIZE_LIKE);
                    *c |= before[j]
                        || values[j] != first[j].value
                        || (resized && (structural[j] || size_like));
                }
            }
            if chosen.iter().filter(|&&c| c).count() > MAX_PARAMS {
                return varying(lists);
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
    fn structural_literals_are_parameters_from_the_second_size_on() {
        let t = |s: &str| {
            super::super::stage_params::template(s, &super::super::stage_params::literals(s))
        };
        assert_eq!(
            structural(&t(&shader(10, 4))),
            vec![true, true, true, false, true, false, true, true, false, false, true, false]
        );
        let mut templates = Templates::default();
        // The first size keeps its constants; the same size again is the same shader.
        let first = templates.share(&[shader(1600, 4)]).pop().unwrap();
        assert!(first.params.is_empty());
        assert_eq!(first.source, shader(1600, 4));
        let again = templates.share(&[shader(1600, 4)]).pop().unwrap();
        assert_eq!((again.source, again.params), (first.source, first.params));
        // Another size: its structural and size-like literals become parameters.
        let second = templates.share(&[shader(1601, 4)]).pop().unwrap();
        assert_ne!(second.source, shader(1601, 4));
        assert!(second.source.contains("- 4u]") && second.source.contains("v * 3u"));
        assert_eq!(
            second.params,
            vec![64, 0, 64, 1601, 256, 12808, 6404, 19212]
        );
        // A third size shares the second's shader, with its own values.
        let third = templates.share(&[shader(1602, 4)]).pop().unwrap();
        assert_eq!(third.source, second.source);
        assert_eq!(third.params, vec![64, 0, 64, 1602, 256, 12816, 6408, 19224]);
        // A constant that changed (a small one: not a size): it becomes a parameter, from
        // then on for every size.
        let fourth = templates.share(&[shader(1700, 8)]).pop().unwrap();
        assert_ne!(fourth.source, second.source);
        assert_eq!(fourth.params.len(), 9);
        let fifth = templates.share(&[shader(20, 4)]).pop().unwrap();
        assert_eq!(fifth.source, fourth.source);
        assert_eq!(fifth.params, vec![64, 0, 64, 20, 256, 160, 4, 80, 240]);
    }
}
