//! A bounded cache of compiled routines shared by the backends: each backend keeps one, with
//! its own compiled form `T` (the cpu keeps the descriptor, wasm an instantiated module,
//! webgpu a pipeline). Routine ids are a namespace of their own, separate from kernel ids.

use super::ExeId;
use crate::kernel::Routine;
use crate::util::lru::{CacheStats, Lru};
use crate::util::{Error, Result};

const CAPACITY: usize = 64;

pub struct RoutineCache<T> {
    ids: Lru<Routine, ExeId>,
    compiled: Lru<ExeId, (Routine, T)>,
    next: ExeId,
}

impl<T> Default for RoutineCache<T> {
    fn default() -> Self {
        RoutineCache {
            ids: Lru::new(CAPACITY),
            compiled: Lru::new(CAPACITY),
            next: 1,
        }
    }
}

impl<T> RoutineCache<T> {
    /// Hands out ids after those of `old` (a cache this one replaces).
    pub fn continue_ids_from(&mut self, old: &RoutineCache<T>) {
        self.next = self.next.max(old.next);
    }

    /// The id of `routine`, compiling it with `compile` on a miss.
    pub fn get_or_compile(
        &mut self,
        routine: &Routine,
        compile: impl FnOnce(&Routine) -> Result<T>,
    ) -> Result<ExeId> {
        if let Some(&id) = self.ids.get(routine) {
            return Ok(id);
        }
        let value = compile(routine)?;
        let id = self.next;
        self.next += 1;
        self.ids.insert(*routine, id);
        self.compiled.insert(id, (*routine, value));
        Ok(id)
    }

    /// The routine and compiled form of `id`.
    pub fn get(&mut self, id: ExeId) -> Result<&(Routine, T)> {
        self.compiled
            .get(&id)
            .ok_or_else(|| Error::new("routine", format!("internal error: unknown routine {id}")))
    }

    /// Room for at least `routines` entries (see `Lru::reserve`).
    pub fn reserve(&mut self, routines: usize) {
        self.ids.reserve(routines);
        self.compiled.reserve(routines);
    }

    pub fn stats(&self) -> CacheStats {
        self.ids.stats()
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        self.compiled.clear();
    }
}

/// Checks the buffer counts of a routine dispatch.
pub fn check_arity(routine: &Routine, inputs: usize, outputs: usize) -> Result<()> {
    if inputs != routine.inputs().len() || outputs != routine.outputs().len() {
        return Err(Error::new(
            routine.name(),
            format!("internal error: dispatched with {inputs} inputs and {outputs} outputs"),
        ));
    }
    Ok(())
}
