//! [`PanicCell`]: the `RefCell` of every thread-local state, made usable again after a panic.
//!
//! On wasm32 a panic aborts (a WebAssembly trap) without unwinding, and a JS exception thrown
//! through Rust frames (a stack overflow inside a call) discards them the same way, so a
//! `RefCell` borrowed at that moment would stay borrowed for good and every later call into
//! oxjax would fail with "already borrowed". The panic hook, and the bridge after any call that
//! did not return normally (`api::panic::recover_after_trap`, which also rewinds the shadow
//! stack), call [`note_panic`], which starts a new epoch. A borrow flag set in an earlier epoch
//! belongs to frames already discarded (wasm is single-threaded, and no Rust frame is live
//! between calls from JS), so the next borrow clears it. Within an epoch the cell behaves
//! exactly like a `RefCell`.

use std::cell::{Cell, UnsafeCell};
use std::fmt;
use std::ops::{Deref, DerefMut};

thread_local! {
    static EPOCH: Cell<u32> = const { Cell::new(0) };
}

/// Records that a panic happened: every borrow taken before it is void from now on. Called by
/// the panic hook (only where a panic aborts instead of unwinding).
pub fn note_panic() {
    EPOCH.with(|e| e.set(e.get().wrapping_add(1)));
}

fn epoch() -> u32 {
    EPOCH.with(Cell::get)
}

/// A cell already borrowed incompatibly (in the current epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BorrowError;

impl fmt::Display for BorrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("already borrowed")
    }
}

/// A `RefCell` whose borrows from before the last [`note_panic`] no longer count.
pub struct PanicCell<T> {
    value: UnsafeCell<T>,
    /// 0: free; n > 0: n shared borrows; −1: borrowed mutably.
    state: Cell<isize>,
    /// The epoch in which `state` was last set.
    epoch: Cell<u32>,
}

impl<T> PanicCell<T> {
    pub const fn new(value: T) -> Self {
        PanicCell {
            value: UnsafeCell::new(value),
            state: Cell::new(0),
            epoch: Cell::new(0),
        }
    }

    /// The current state, with borrows left over from an earlier epoch dropped.
    fn current(&self) -> isize {
        let now = epoch();
        if self.epoch.get() != now {
            self.epoch.set(now);
            self.state.set(0);
        }
        self.state.get()
    }

    pub fn try_borrow(&self) -> Result<PanicRef<'_, T>, BorrowError> {
        let s = self.current();
        if s < 0 {
            return Err(BorrowError);
        }
        self.state.set(s + 1);
        Ok(PanicRef {
            cell: self,
            epoch: self.epoch.get(),
        })
    }

    pub fn try_borrow_mut(&self) -> Result<PanicRefMut<'_, T>, BorrowError> {
        if self.current() != 0 {
            return Err(BorrowError);
        }
        self.state.set(-1);
        Ok(PanicRefMut {
            cell: self,
            epoch: self.epoch.get(),
        })
    }

    /// Panics if borrowed mutably (a bug, as with `RefCell`).
    pub fn borrow(&self) -> PanicRef<'_, T> {
        self.try_borrow()
            .expect("PanicCell already mutably borrowed")
    }

    /// Panics if borrowed (a bug, as with `RefCell`).
    pub fn borrow_mut(&self) -> PanicRefMut<'_, T> {
        self.try_borrow_mut().expect("PanicCell already borrowed")
    }

    /// Releases one borrow taken in `taken`, unless that epoch is over (its state was reset).
    fn release(&self, mutable: bool, taken: u32) {
        if taken == epoch() && self.epoch.get() == taken {
            let s = self.state.get();
            self.state.set(if mutable { 0 } else { s - 1 });
        }
    }
}

pub struct PanicRef<'a, T> {
    cell: &'a PanicCell<T>,
    epoch: u32,
}

pub struct PanicRefMut<'a, T> {
    cell: &'a PanicCell<T>,
    epoch: u32,
}

impl<T> Deref for PanicRef<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: a shared borrow is counted in `state`, so no mutable guard exists in this
        // epoch; guards of earlier epochs died with the frames the trap discarded.
        unsafe { &*self.cell.value.get() }
    }
}

impl<T> Deref for PanicRefMut<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: as for `deref_mut`.
        unsafe { &*self.cell.value.get() }
    }
}

impl<T> DerefMut for PanicRefMut<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: `state` is −1 for this guard, so it is the only live borrow of this epoch.
        unsafe { &mut *self.cell.value.get() }
    }
}

impl<T> Drop for PanicRef<'_, T> {
    fn drop(&mut self) {
        self.cell.release(false, self.epoch);
    }
}

impl<T> Drop for PanicRefMut<'_, T> {
    fn drop(&mut self) {
        self.cell.release(true, self.epoch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_ref_cell_within_an_epoch() {
        let c = PanicCell::new(1);
        {
            let a = c.borrow();
            let b = c.borrow();
            assert_eq!(*a + *b, 2);
            assert_eq!(c.try_borrow_mut().err(), Some(BorrowError));
        }
        {
            let mut m = c.borrow_mut();
            *m = 5;
            assert!(c.try_borrow().is_err());
            assert!(c.try_borrow_mut().is_err());
        }
        assert_eq!(*c.borrow(), 5);
    }

    #[test]
    fn a_borrow_leaked_by_a_trap_is_cleared_after_the_panic_is_noted() {
        // `forget` leaves the flag set exactly as a trap that skips the guard's drop does.
        let c = PanicCell::new(vec![1]);
        std::mem::forget(c.borrow_mut());
        assert!(
            c.try_borrow().is_err(),
            "still borrowed before the panic is noted"
        );
        note_panic();
        c.borrow_mut().push(2);
        assert_eq!(*c.borrow(), vec![1, 2]);
        std::mem::forget(c.borrow());
        note_panic();
        assert!(c.try_borrow_mut().is_ok());
    }
}
