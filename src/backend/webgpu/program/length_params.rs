//! A scan's length as a run-time parameter of its shader, so that a new sequence length of an
//! unchanged body compiles nothing. The serial and looping shaders (`serial`, `looping`) write
//! the length and the sizes that follow from it (trip counts, the last row, word offsets of
//! the regions laid out after the xs and ys) as integer literals. Each is emitted twice: for
//! the scan's length and for a probe [`PROBE_STEPS`] steps longer. The literals that differ
//! between the two depend on the length: they read the parameter binding (`stage_params`),
//! with this length's values; every other literal stays a constant. The pipeline is cached by
//! that parametrised source (`WebGpuBackend::shared_dispatch`), so the scans of one body at
//! lengths of one template share it, each with its own parameter buffer.
//!
//! Exactness: the emitters write the same code for every length (a length of zero aside),
//! so the probe's template is the shader's. The probe is longer by a prime number of steps,
//! so a literal that depends on the length in any way but a period dividing it (the carries'
//! parity, a chunk's remainder: all of them) differs, and reads a parameter. When the two
//! emissions differ in more than literal values (or a literal that differs is a divisor,
//! which stays in the template), every literal stays a constant: one pipeline per length, as
//! without parameters. The values read are the literals of this length's own emission, so
//! every parameter is exact by construction, and the cache key (the parametrised source)
//! holds every literal that stays a constant.

use super::stage_params::{literals, template, varying, varying_values, with_params, Shared};
use crate::kernel::device_program::DeviceProgram;

/// How much longer the probe is than the scan: a prime (odd: the carries' parity differs).
pub(super) const PROBE_STEPS: usize = 3361;

/// `plan` at the probe's length.
pub(super) fn probe(plan: &DeviceProgram) -> DeviceProgram {
    DeviceProgram {
        length: plan.length + PROBE_STEPS,
        ..plan.clone()
    }
}

/// `source` (the shader of a scan) with the literals that differ from `probe` (the same
/// shader emitted for [`probe`]) read from parameters; `source` as it is when there is no
/// probe, the templates differ or no literal depends on the length.
pub(super) fn by_length(source: String, probe: Option<&str>) -> Shared {
    let unshared = |source| Shared {
        source,
        params: Vec::new(),
    };
    let Some(probe) = probe else {
        return unshared(source);
    };
    let (lits, probe_lits) = (literals(&source), literals(probe));
    if lits.len() != probe_lits.len() || template(&source, &lits) != template(probe, &probe_lits) {
        return unshared(source);
    }
    let varying = varying(&[&lits, &probe_lits]);
    if !varying.iter().any(|&v| v) {
        return unshared(source);
    }
    let params: Vec<u32> = varying_values(&lits, &varying).collect();
    Shared {
        source: with_params(&source, &lits, &varying),
        params,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_literals_that_follow_the_length_become_parameters() {
        let emit = |n: u32| {
            format!(
                "@group(0) @binding(0) var<storage, read_write> ox_buf: array<u32>;\nfn main() {{\n  ox_zp = wid.z;\n  for (var s: u32 = 0u; s < {n}u; s = s + 1u) {{ ox_buf[{}u + s * 4u] = ox_buf[7u + (s & 1u) * {}u]; }}\n}}\n",
                100 + 4 * n,
                n & 1
            )
        };
        let probe = |n: u32| emit(n + PROBE_STEPS as u32);
        let shared = by_length(emit(10), Some(&probe(10)));
        assert_eq!(shared.params, vec![10, 140, 0]);
        assert!(shared.source.contains("ox_p0 = ox_p[0];"));
        assert!(shared.source.contains("s * 4u"));
        // Another length, odd or even: the same shader, its own values.
        let odd = by_length(emit(11), Some(&probe(11)));
        assert_eq!(
            (&odd.source, odd.params),
            (&shared.source, vec![11, 144, 1])
        );
        // Different code for the probe: nothing is shared.
        let alone = by_length(emit(10), Some("fn other() {}"));
        assert_eq!((alone.source, alone.params), (emit(10), vec![]));
        assert_eq!(by_length(emit(10), None).params, vec![]);
    }
}
