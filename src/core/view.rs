//! Views of a buffer: shape, strides, offset and an optional validity mask (ShapeTracker).
