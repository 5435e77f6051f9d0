//! The argument kinds of library calls (`library::call`): how each is read from what a call
//! crosses the JS boundary with (its array handles, resolved to values, and its numbers), and
//! its TypeScript type and encoder statement, from which the generated
//! TypeScript call layer (`js/lib-calls.ts`) is rendered. One declaration per kind serves both
//! sides, so the layouts cannot drift.
//!
//! Layouts in the numbers buffer: a number is itself (NaN is an ordinary value); a boolean is
//! 0 or 1; an option is a presence flag (0 or 1) followed by the value when present; a list is
//! its length followed by its items; a choice is the index of its name. Arrays take the next
//! value of the arrays buffer.

use crate::transform::Value;
use crate::util::{Error, Result};

/// A cursor over the buffers of one call of library function `function`.
pub struct Reader<'a> {
    function: &'static str,
    arrays: &'a [Value],
    nums: &'a [f64],
    next_array: usize,
    next_num: usize,
}

/// A field's name as JavaScript spells it (`keep_dims` → `keepDims`).
pub fn camel(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut upper = false;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The field readers are never inlined: one copy serves every argument struct.
impl<'a> Reader<'a> {
    pub fn new(function: &'static str, arrays: &'a [Value], nums: &'a [f64]) -> Self {
        Reader {
            function,
            arrays,
            nums,
            next_array: 0,
            next_num: 0,
        }
    }

    pub fn function(&self) -> &'static str {
        self.function
    }

    /// An error naming the function and field `field`.
    #[cold]
    #[inline(never)]
    pub fn error(&self, field: &str, problem: impl std::fmt::Display) -> Error {
        Error::new(self.function, format!("{} {problem}", camel(field)))
    }

    #[inline(never)]
    pub fn num(&mut self, field: &str) -> Result<f64> {
        let x = self.nums.get(self.next_num).copied();
        let x = x.ok_or_else(|| self.error(field, "is missing"))?;
        self.next_num += 1;
        Ok(x)
    }

    #[inline(never)]
    pub fn int(&mut self, field: &str) -> Result<i64> {
        let x = self.num(field)?;
        if x.fract() == 0.0 && x.abs() <= 9.007_199_254_740_991e15 {
            Ok(x as i64)
        } else {
            Err(self.error(field, format!("must be an integer, got {x}")))
        }
    }

    #[inline(never)]
    pub fn size(&mut self, field: &str) -> Result<usize> {
        let k = self.int(field)?;
        usize::try_from(k)
            .map_err(|_| self.error(field, format!("must be a non-negative integer, got {k}")))
    }

    #[inline(never)]
    pub fn flag(&mut self, field: &str) -> Result<bool> {
        match self.num(field)? {
            0.0 => Ok(false),
            1.0 => Ok(true),
            x => Err(self.error(field, format!("must be a boolean, got {x}"))),
        }
    }

    /// A list length: at most the values left, so a bad length cannot allocate much.
    #[inline(never)]
    pub fn len(&mut self, field: &str) -> Result<usize> {
        let n = self.size(field)?;
        let left = (self.nums.len() - self.next_num) + (self.arrays.len() - self.next_array);
        if n > left {
            return Err(self.error(field, format!("has {n} entries but only {left} were given")));
        }
        Ok(n)
    }

    #[inline(never)]
    pub fn array(&mut self, field: &str) -> Result<Value> {
        let x = self.arrays.get(self.next_array).cloned();
        let x = x.ok_or_else(|| self.error(field, "is missing (an Array)"))?;
        self.next_array += 1;
        Ok(x)
    }

    /// Checks that every value was read.
    pub fn finish(&self) -> Result<()> {
        if self.next_num < self.nums.len() || self.next_array < self.arrays.len() {
            return Err(Error::new(
                self.function,
                format!(
                    "unexpected extra arguments ({} numbers and {} arrays given, {} and {} read)",
                    self.nums.len(),
                    self.arrays.len(),
                    self.next_num,
                    self.next_array
                ),
            ));
        }
        Ok(())
    }
}

/// A field kind: its reader, and its TypeScript type and encoder.
pub trait Arg: Sized {
    fn read(r: &mut Reader, field: &str) -> Result<Self>;

    /// The field's TypeScript type.
    fn ts_type() -> String;

    /// The TypeScript statement that encodes `expr` (a value of `ts_type`) into the call `c`
    /// (a `LibCall` of `js/lib.ts`).
    fn ts_encode(field: &str, expr: &str) -> String;

    /// Whether the field may be left out in TypeScript (options, and `Axes`).
    fn ts_optional() -> bool {
        false
    }
}

macro_rules! scalar_arg {
    ($t:ty, $read:ident, $ts:literal, $enc:literal) => {
        impl Arg for $t {
            fn read(r: &mut Reader, field: &str) -> Result<Self> {
                r.$read(field)
            }
            fn ts_type() -> String {
                $ts.into()
            }
            fn ts_encode(field: &str, expr: &str) -> String {
                format!("c.{}({field:?}, {expr});", $enc)
            }
        }
    };
}

scalar_arg!(f64, num, "number", "num");
scalar_arg!(i64, int, "number", "int");
scalar_arg!(usize, size, "number", "size");
scalar_arg!(bool, flag, "boolean", "bool");
scalar_arg!(Value, array, "Array", "array");

/// An array argument that JavaScript may also give as a number, boolean or nested list (made
/// a temporary array for the call).
#[derive(Clone)]
pub struct ArrayLike(pub Value);

impl std::ops::Deref for ArrayLike {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.0
    }
}

impl Arg for ArrayLike {
    fn read(r: &mut Reader, field: &str) -> Result<Self> {
        r.array(field).map(ArrayLike)
    }
    fn ts_type() -> String {
        "ArrayInput".into()
    }
    fn ts_encode(field: &str, expr: &str) -> String {
        format!("c.input({field:?}, {expr});")
    }
}

impl<T: Arg> Arg for Option<T> {
    fn read(r: &mut Reader, field: &str) -> Result<Self> {
        match r.flag(field)? {
            true => T::read(r, field).map(Some),
            false => Ok(None),
        }
    }
    fn ts_type() -> String {
        format!("{} | null", T::ts_type())
    }
    fn ts_encode(field: &str, expr: &str) -> String {
        format!("if (c.present({expr})) {}", T::ts_encode(field, expr))
    }
    fn ts_optional() -> bool {
        true
    }
}

impl<T: Arg> Arg for Vec<T> {
    fn read(r: &mut Reader, field: &str) -> Result<Self> {
        let n = r.len(field)?;
        (0..n).map(|_| T::read(r, field)).collect()
    }
    fn ts_type() -> String {
        let t = T::ts_type();
        match t.contains(' ') {
            true => format!("({t})[]"),
            false => format!("{t}[]"),
        }
    }
    fn ts_encode(field: &str, expr: &str) -> String {
        let item = T::ts_encode(field, "x");
        format!("for (const x of c.list({field:?}, {expr})) {item}")
    }
}

/// Axes to work over: `None` means every axis. TypeScript gives one axis, a list, or null.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axes(pub Option<Vec<i64>>);

impl Axes {
    pub fn as_deref(&self) -> Option<&[i64]> {
        self.0.as_deref()
    }
}

impl Arg for Axes {
    fn read(r: &mut Reader, field: &str) -> Result<Self> {
        Option::<Vec<i64>>::read(r, field).map(Axes)
    }
    fn ts_type() -> String {
        "number | number[] | null".into()
    }
    fn ts_encode(field: &str, expr: &str) -> String {
        format!("c.axes({field:?}, {expr});")
    }
    fn ts_optional() -> bool {
        true
    }
}

/// Declares an enum of named choices (a string union in TypeScript, its index on the wire).
macro_rules! choice {
    ($(#[$m:meta])* pub enum $E:ident { $($V:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $E { $($V),+ }

        impl $E {
            const NAMES: &'static [&'static str] = &[$($s),+];
            const ALL: &'static [$E] = &[$($E::$V),+];
        }

        impl $crate::library::args::Arg for $E {
            fn read(r: &mut $crate::library::args::Reader, field: &str) -> $crate::util::Result<Self> {
                let k = r.size(field)?;
                Self::ALL.get(k).copied().ok_or_else(|| {
                    r.error(field, format!("must be one of {:?}, got choice {k}", Self::NAMES))
                })
            }
            fn ts_type() -> String {
                Self::NAMES.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(" | ")
            }
            fn ts_encode(field: &str, expr: &str) -> String {
                format!("c.choice({field:?}, {expr}, {:?});", Self::NAMES)
            }
        }
    };
}
pub(crate) use choice;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_layout_and_names_the_bad_field() {
        let nums = [3.0, 1.0, 2.0, 0.0, 1.0, -1.0, 5.0];
        let mut r = Reader::new("f", &[], &nums);
        let list: Vec<usize> = Arg::read(&mut r, "dims").unwrap();
        assert_eq!(list, vec![1, 2, 0]);
        assert_eq!(Option::<i64>::read(&mut r, "axis").unwrap(), Some(-1));
        assert_eq!(f64::read(&mut r, "d").unwrap(), 5.0);
        r.finish().unwrap();

        let mut r = Reader::new("glu", &[], &[1.5]);
        let e = i64::read(&mut r, "axis").unwrap_err();
        assert_eq!(e.message(), "glu: axis must be an integer, got 1.5");
        let mut r = Reader::new("glu", &[], &[]);
        let e = i64::read(&mut r, "keep_dims").unwrap_err();
        assert_eq!(e.message(), "glu: keepDims is missing");
        let r = Reader::new("glu", &[], &[1.0]);
        let e = r.finish().unwrap_err();
        assert!(e.message().starts_with("glu: unexpected extra arguments"));
        let mut r = Reader::new("roll", &[], &[1e9, 1.0]);
        let e = Vec::<i64>::read(&mut r, "shift").unwrap_err();
        assert_eq!(
            e.message(),
            "roll: shift has 1000000000 entries but only 1 were given"
        );
        let mut r = Reader::new("f", &[], &[2.0]);
        let e = bool::read(&mut r, "keepdims").unwrap_err();
        assert_eq!(e.message(), "f: keepdims must be a boolean, got 2");
    }

    #[test]
    fn typescript_of_nested_kinds() {
        assert_eq!(Vec::<Option<i64>>::ts_type(), "(number | null)[]");
        assert_eq!(
            Option::<Vec<usize>>::ts_encode("shape", "a.shape"),
            "if (c.present(a.shape)) for (const x of c.list(\"shape\", a.shape)) c.size(\"shape\", x);"
        );
    }
}
