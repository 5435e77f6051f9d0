//! Views of a buffer: shape, strides, offset and an optional validity mask (ShapeTracker).
//! Movement ops (reshape, permute, expand, shrink, pad, flip) never copy: they return a new
//! [`ShapeTracker`], a stack of [`View`]s mapping each element the user sees to a buffer
//! position or to "invalid" (padding, read as 0). After tinygrad's and jax-js's ShapeTracker.
//!
//! # Addressing (what kernel code generators must reproduce)
//!
//! With `views = [v0, …, vn]` (`vn` outermost; its shape is the array's shape), the element at
//! multi-index `idx` of `vn.shape` is found by walking from `vn` down to `v0`:
//!
//! 1. In view `vk` the element is invalid if some axis has `idx[a] < mask[a].0` or
//!    `idx[a] >= mask[a].1` (no mask: valid). Invalid at any level means invalid.
//! 2. Otherwise `p = offset + Σ_a idx[a] * strides[a]` (in range only for valid elements, so
//!    kernels guard their loads with the mask).
//! 3. For `v0`, `p` is the buffer position. For `k > 0`, `p` is a row-major flat index into
//!    `v(k-1).shape`: go to step 1 with `v(k-1)` and `idx = unravel(p, &v(k-1).shape)`.
//!
//! Only a reshape that the outermost view cannot express pushes a view ([`View::reshape`]);
//! every other op rewrites the outermost view.

use crate::core::shape::{contiguous_strides, row_major as dense_strides, size};
use crate::util::{Error, Result};

/// Per-axis valid ranges `[start, end)` of a [`View`].
pub type Mask = Vec<(usize, usize)>;

/// A strided, possibly masked window onto a flat index space (the buffer for `views[0]`, the
/// row-major flat index of the view below otherwise): element `idx` (`idx[a] < shape[a]`) is
/// valid iff `mask[a].0 <= idx[a] < mask[a].1` on every axis (`None`: all valid) and then lives
/// at `offset + Σ idx[a] * strides[a]`. Views are kept canonical ([`View::canonical`]) so that
/// equal addressing compares equal: size-1 axes have stride 0; a mask covering everything is
/// `None`; an axis whose mask keeps one element has stride 0 (the offset absorbs it); a view
/// with no valid element has strides 0, offset 0 and mask `(0, 0)` on every axis; a view of
/// size 0 is [`View::contiguous`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct View {
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: isize,
    pub mask: Option<Mask>,
}

/// Row-major multi-index of flat index `flat` in `shape` (the inverse of row-major flattening).
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for a in (0..shape.len()).rev().filter(|&a| shape[a] > 0) {
        (idx[a], flat) = (flat % shape[a], flat / shape[a]);
    }
    idx
}

fn row_major(shape: &[usize]) -> Vec<isize> {
    let strides = contiguous_strides(shape);
    strides.iter().map(|&st| st as isize).collect()
}

impl View {
    /// The canonical form ([`View::canonical`]) of the view with these fields.
    pub fn new(shape: Vec<usize>, strides: Vec<isize>, offset: isize, mask: Option<Mask>) -> View {
        assert_eq!(strides.len(), shape.len(), "View::new: strides rank");
        let view = View {
            shape,
            strides,
            offset,
            mask,
        };
        view.canonical()
    }

    /// The row-major view of a buffer of `size(shape)` elements, offset 0, no mask.
    pub fn contiguous(shape: &[usize]) -> View {
        View::new(shape.to_vec(), row_major(shape), 0, None)
    }

    /// This view in canonical form (see [`View`]); it addresses exactly the same elements.
    pub fn canonical(mut self) -> View {
        let rank = self.shape.len();
        if size(&self.shape) == 0 {
            (self.strides, self.offset, self.mask) = (row_major(&self.shape), 0, None);
        }
        if let Some(m) = &mut self.mask {
            assert_eq!(m.len(), rank, "View::canonical: mask rank");
            for (a, r) in m.iter_mut().enumerate() {
                r.1 = r.1.min(self.shape[a]);
                if r.0 + 1 == r.1 {
                    self.offset += r.0 as isize * self.strides[a];
                    self.strides[a] = 0;
                }
            }
            if m.iter().any(|&(b, e)| b >= e) {
                (self.strides, self.offset) = (vec![0; rank], 0);
                self.mask = Some(vec![(0, 0); rank]);
            } else if (0..rank).all(|a| m[a] == (0, self.shape[a])) {
                self.mask = None;
            }
        }
        for a in (0..rank).filter(|&a| self.shape[a] == 1) {
            self.strides[a] = 0;
        }
        self
    }

    /// True iff element `i` (row-major) lives at position `i` for every `i`.
    pub fn is_contiguous(&self) -> bool {
        self.dense_start() == Some(0)
    }

    /// `Some(start)` iff element `i` (row-major) lives at position `start + i` for every `i`
    /// (one contiguous range of the buffer).
    pub fn dense_start(&self) -> Option<usize> {
        let dense = self.mask.is_none() && dense_strides(&self.shape, &self.strides);
        (dense && self.offset >= 0).then_some(self.offset as usize)
    }

    /// True iff the mask excludes every element (the canonical fully padded view).
    pub fn is_all_invalid(&self) -> bool {
        self.mask.iter().flatten().any(|&(b, e)| b >= e)
    }

    /// `p` of step 2 of the module docs for the element at `idx`, or None if masked out.
    pub fn position(&self, idx: &[usize]) -> Option<isize> {
        let mut p = self.offset;
        for (a, &i) in idx.iter().enumerate() {
            let (b, e) = self.mask.as_ref().map_or((0, usize::MAX), |m| m[a]);
            if i < b || i >= e {
                return None;
            }
            p += i as isize * self.strides[a];
        }
        Some(p)
    }

    /// This view reshaped (row-major) into `new_shape` of the same size, or None if one view
    /// cannot express that. The non-1 axes of both shapes split into minimal groups of equal
    /// product. A group's old axes must merge into one (`strides[a] == strides[a+1] *
    /// shape[a+1]`: true for contiguous, strided-contiguous and broadcast runs), which its new
    /// axes then split; if it touches a masked axis it must be one old axis onto one new axis
    /// (the mask carries over). Size-1 axes come and go; the offset is kept. Views of size 0 or
    /// with no valid element always reshape (the latter not to rank 0, which has no mask).
    pub fn reshape(&self, new_shape: &[usize]) -> Option<View> {
        assert_eq!(size(new_shape), size(&self.shape), "View::reshape: size");
        let (rank, shape) = (new_shape.len(), &self.shape);
        if size(new_shape) == 0 {
            return Some(View::contiguous(new_shape));
        }
        if self.is_all_invalid() {
            let mask = Some(vec![(0, 0); rank]);
            return (rank > 0).then(|| View::new(new_shape.to_vec(), vec![0; rank], 0, mask));
        }
        let non1 = |s: &[usize]| (0..s.len()).filter(|&a| s[a] != 1).collect::<Vec<_>>();
        let (old, new) = (non1(shape), non1(new_shape));
        let mut out = View::new(new_shape.to_vec(), vec![0; rank], self.offset, None);
        if self.mask.is_some() {
            out.mask = Some(new_shape.iter().map(|&s| (0, s)).collect());
        }
        let merges = |a: usize, b: usize| self.strides[a] == self.strides[b] * shape[b] as isize;
        let (mut i, mut j) = (0, 0);
        while i < old.len() {
            let (i0, j0, mut po, mut pn) = (i, j, 1, 1);
            while po == 1 || po != pn {
                if po <= pn {
                    (po, i) = (po * shape[old[i]], i + 1);
                } else {
                    (pn, j) = (pn * new_shape[new[j]], j + 1);
                }
            }
            let (g_old, g_new) = (&old[i0..i], &new[j0..j]);
            if !g_old.windows(2).all(|w| merges(w[0], w[1])) {
                return None;
            }
            if let (Some(m), Some(out_mask)) = (&self.mask, &mut out.mask) {
                if g_old.iter().any(|&a| m[a] != (0, shape[a])) {
                    if g_old.len() != 1 || g_new.len() != 1 {
                        return None;
                    }
                    out_mask[g_new[0]] = m[g_old[0]];
                }
            }
            let mut st = self.strides[g_old[g_old.len() - 1]];
            for &a in g_new.iter().rev() {
                (out.strides[a], st) = (st, st * new_shape[a] as isize);
            }
        }
        Some(out.canonical())
    }
}

/// A stack of views; `views[last]` is outermost and has the shape the user sees. The module
/// docs say how an element walks from `views[last]` down to a buffer position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShapeTracker {
    pub views: Vec<View>,
}

fn check_rank(function: &str, what: &str, shape: &[usize], got: usize) -> Result<()> {
    let n = shape.len();
    let problem = format!("expected {n} {what} for shape {shape:?}, got {got}");
    let ok = (got == n).then_some(());
    ok.ok_or(Error::new(function, problem))
}

impl ShapeTracker {
    /// The identity tracker: one contiguous view.
    pub fn contiguous(shape: &[usize]) -> ShapeTracker {
        let views = vec![View::contiguous(shape)];
        ShapeTracker { views }
    }

    fn top(&self) -> &View {
        &self.views[self.views.len() - 1]
    }

    pub fn shape(&self) -> &[usize] {
        &self.top().shape
    }

    pub fn size(&self) -> usize {
        size(self.shape())
    }

    /// True iff element `i` (row-major) is buffer position `i` for every `i`.
    pub fn is_contiguous(&self) -> bool {
        self.dense_start() == Some(0)
    }

    /// `Some(start)` iff element `i` (row-major) is buffer position `start + i` for every `i`.
    pub fn dense_start(&self) -> Option<usize> {
        match &self.views[..] {
            [v] => v.dense_start(),
            _ => None,
        }
    }

    /// Replace the outermost view, then drop outermost identity views (contiguous, as big as the
    /// view below) that the view below absorbs: transpose, flatten, unflatten gives one view.
    fn with_top(&self, top: View) -> ShapeTracker {
        let mut views = self.views.clone();
        *views.last_mut().expect("a tracker has a view") = top.canonical();
        while let [.., below, top] = &views[..] {
            let identity = top.is_contiguous() && size(&top.shape) == size(&below.shape);
            let Some(merged) = identity.then(|| below.reshape(&top.shape)).flatten() else {
                break;
            };
            views.truncate(views.len() - 2);
            views.push(merged);
        }
        ShapeTracker { views }
    }

    /// Row-major reshape: merged into the outermost view when [`View::reshape`] allows it,
    /// otherwise a contiguous view of `new_shape` is pushed over the current views.
    pub fn reshape(&self, new_shape: &[usize]) -> Result<ShapeTracker> {
        if size(new_shape) != self.size() {
            let problem = format!("cannot reshape {:?} into {new_shape:?}", self.shape());
            return Err(Error::new("reshape", problem));
        }
        if let Some(v) = self.top().reshape(new_shape) {
            return Ok(self.with_top(v));
        }
        let mut views = self.views.clone();
        views.push(View::contiguous(new_shape));
        Ok(ShapeTracker { views })
    }

    /// Axis `k` of the result is axis `axes[k]` of the input.
    pub fn permute(&self, axes: &[usize]) -> Result<ShapeTracker> {
        let (v, rank) = (self.top(), self.shape().len());
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        if !sorted.into_iter().eq(0..rank) {
            let problem = format!("{axes:?} is not a permutation of {rank} axes");
            return Err(Error::new("permute", problem));
        }
        let mut w = v.clone();
        for (k, &a) in axes.iter().enumerate() {
            (w.shape[k], w.strides[k]) = (v.shape[a], v.strides[a]);
            if let (Some(wm), Some(vm)) = (&mut w.mask, &v.mask) {
                wm[k] = vm[a];
            }
        }
        Ok(self.with_top(w))
    }

    /// Broadcast size-1 axes to `new_shape` (same rank; other axes keep their size).
    pub fn expand(&self, new_shape: &[usize]) -> Result<ShapeTracker> {
        let mut v = self.top().clone();
        let fits = |(&s, &n): (&usize, &usize)| s == n || s == 1;
        if new_shape.len() != v.shape.len() || !v.shape.iter().zip(new_shape).all(fits) {
            let problem = format!("cannot expand {:?} to {new_shape:?}", v.shape);
            return Err(Error::new("expand", problem));
        }
        for (a, &n) in new_shape.iter().enumerate() {
            if let Some(m) = v.mask.as_mut().filter(|_| v.shape[a] != n) {
                m[a].1 *= n; // a size-1 axis: its mask is (0, 1), or (0, 0) if nothing is valid
            }
        }
        v.shape = new_shape.to_vec();
        Ok(self.with_top(v))
    }

    /// Keep `arg[a].0 .. arg[a].1` of each axis `a`.
    pub fn shrink(&self, arg: &[(usize, usize)]) -> Result<ShapeTracker> {
        let mut v = self.top().clone();
        check_rank("shrink", "(start, end) pairs", &v.shape, arg.len())?;
        for (a, &(b, e)) in arg.iter().enumerate() {
            let s = v.shape[a];
            if b > e || e > s {
                let problem = format!("invalid range ({b}, {e}) for axis {a} of size {s}");
                return Err(Error::new("shrink", problem));
            }
            v.offset += b as isize * v.strides[a];
            v.shape[a] = e - b;
            if let Some(m) = &mut v.mask {
                m[a] = (m[a].0.clamp(b, e) - b, m[a].1.clamp(b, e) - b);
            }
        }
        Ok(self.with_top(v))
    }

    /// Add `arg[a].0` invalid elements before and `arg[a].1` after each axis `a`.
    pub fn pad(&self, arg: &[(usize, usize)]) -> Result<ShapeTracker> {
        let mut v = self.top().clone();
        check_rank("pad", "(before, after) pairs", &v.shape, arg.len())?;
        let full = v.shape.iter().map(|&s| (0, s)).collect();
        let mut mask = v.mask.take().unwrap_or(full);
        for (a, &(b, e)) in arg.iter().enumerate() {
            v.offset -= b as isize * v.strides[a];
            v.shape[a] += b + e;
            mask[a] = (mask[a].0 + b, mask[a].1 + b);
        }
        v.mask = Some(mask);
        Ok(self.with_top(v))
    }

    /// Reverse each axis listed in `axes` (each at most once).
    pub fn flip(&self, axes: &[usize]) -> Result<ShapeTracker> {
        let mut v = self.top().clone();
        let rank = v.shape.len();
        let mut seen = vec![false; rank];
        for &a in axes {
            if a >= rank || std::mem::replace(&mut seen[a], true) {
                let problem = format!("{axes:?} are not distinct axes of a rank-{rank} array");
                return Err(Error::new("flip", problem));
            }
            let s = v.shape[a];
            v.offset += (s as isize - 1) * v.strides[a];
            v.strides[a] = -v.strides[a];
            if let Some(m) = &mut v.mask {
                m[a] = (s.saturating_sub(m[a].1), s.saturating_sub(m[a].0));
            }
        }
        Ok(self.with_top(v))
    }

    /// Buffer position of the element at multi-index `idx` of [`Self::shape`] (in bounds), or
    /// None if it is padding: the reference evaluator of the module docs' addressing.
    pub fn index_of(&self, idx: &[usize]) -> Option<usize> {
        let shape = self.shape();
        let inside = idx.len() == shape.len() && (0..idx.len()).all(|a| idx[a] < shape[a]);
        assert!(inside, "index_of: {idx:?} is out of bounds for {shape:?}");
        let mut p = self.top().position(idx)?;
        for v in self.views.iter().rev().skip(1) {
            p = v.position(&unravel(p as usize, &v.shape))?;
        }
        Some(p as usize)
    }

    /// [`Self::index_of`] of the row-major element `i`.
    pub fn flat_index_of(&self, i: usize) -> Option<usize> {
        self.index_of(&unravel(i, self.shape()))
    }
}

#[cfg(test)]
#[path = "view_tests.rs"]
mod tests;
