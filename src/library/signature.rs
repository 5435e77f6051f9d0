//! How library calls are declared: `call_args!` declares the argument structs (fields in wire
//! order, TypeScript defaults), `calls!` declares the typed call ids (`CallId`) with the struct
//! each decodes and the number of results, and [`typescript`] renders the TypeScript call
//! layer from both declarations (`js/lib-calls.ts`, checked by a test in `library::call`).

use super::args::{camel, Reader};
use crate::util::Result;

/// An argument struct: read field by field, in declaration order.
pub trait Args: Sized {
    fn read(r: &mut Reader) -> Result<Self>;
}

/// One field of an argument struct, for rendering TypeScript.
pub struct FieldSig {
    pub name: &'static str,
    pub ts_type: fn() -> String,
    pub ts_encode: fn(&str, &str) -> String,
    pub ts_optional: fn() -> bool,
    /// The TypeScript default (a literal), applied to `null` and `undefined`.
    pub default: Option<&'static str>,
}

/// One argument struct, for rendering TypeScript.
pub struct ArgsSig {
    pub name: &'static str,
    pub fields: &'static [FieldSig],
}

/// How many arrays a call returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    One,
    Two,
    Three,
    Many,
}

impl Out {
    /// Whether `n` results match.
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Out::One => n == 1,
            Out::Two => n == 2,
            Out::Three => n == 3,
            Out::Many => true,
        }
    }

    /// The TypeScript result type, the runner (`js/lib.ts`) and the cast of its result.
    fn ts(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Out::One => ("Array", "run1", ""),
            Out::Two => ("[Array, Array]", "run", " as [Array, Array]"),
            Out::Three => ("[Array, Array, Array]", "run", " as [Array, Array, Array]"),
            Out::Many => ("Array[]", "run", ""),
        }
    }
}

/// One call id, for rendering TypeScript.
pub struct CallSig {
    /// The `CallId` variant; the TypeScript function is its lower camel case.
    pub variant: &'static str,
    /// The function name errors report.
    pub name: &'static str,
    pub args: &'static str,
    pub out: Out,
}

macro_rules! default_str {
    () => {
        None
    };
    ($d:expr) => {
        Some(stringify!($d))
    };
}
pub(crate) use default_str;

/// Declares argument structs: `pub struct S { field: Type = default, … }`.
macro_rules! call_args {
    ($($(#[$m:meta])* pub struct $S:ident {
        $($(#[$fm:meta])* $f:ident : $t:ty $(= $d:expr)?),* $(,)?
    })*) => {
        $(
            $(#[$m])*
            pub struct $S { $($(#[$fm])* pub $f: $t),* }

            impl $crate::library::signature::Args for $S {
                fn read(r: &mut $crate::library::args::Reader) -> $crate::util::Result<Self> {
                    use $crate::library::args::Arg;
                    Ok($S { $($f: <$t as Arg>::read(r, stringify!($f))?),* })
                }
            }
        )*

        /// Every argument struct, for rendering TypeScript.
        pub const ARGS: &[$crate::library::signature::ArgsSig] = &[$(
            $crate::library::signature::ArgsSig {
                name: stringify!($S),
                fields: &[$($crate::library::signature::FieldSig {
                    name: stringify!($f),
                    ts_type: <$t as $crate::library::args::Arg>::ts_type,
                    ts_encode: <$t as $crate::library::args::Arg>::ts_encode,
                    ts_optional: <$t as $crate::library::args::Arg>::ts_optional,
                    default: $crate::library::signature::default_str!($($d)?),
                }),*],
            }
        ),*];
    };
}
pub(crate) use call_args;

/// Declares the call ids: `Variant "name" (Args) -> One | Two | Three | Many = implementation`,
/// where the implementation takes the decoded `Args` and returns the results; or several ids
/// of one argument struct and one implementation that also takes the name,
/// `A "a" | B "b" (Args) -> One by implementation` (`implementation("a", args)`).
macro_rules! calls {
    ($($($V:ident $name:literal)|+ ($S:ident) -> $out:ident $how:tt $run:expr),* $(,)?) => {
        /// A library function, as JavaScript names it by number (its declaration index).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum CallId { $($($V),+),* }

        /// Every call id in declaration order, for rendering TypeScript.
        pub const CALLS: &[$crate::library::signature::CallSig] = &[$($(
            $crate::library::signature::CallSig {
                variant: stringify!($V),
                name: $name,
                args: stringify!($S),
                out: $crate::library::signature::Out::$out,
            }
        ),+),*];

        impl CallId {
            /// The id JavaScript sends, if it names a function.
            pub fn from_index(id: u32) -> Option<CallId> {
                const ALL: &[CallId] = &[$($(CallId::$V),+),*];
                ALL.get(id as usize).copied()
            }

            pub fn name(self) -> &'static str {
                CALLS[self as usize].name
            }

            pub fn out(self) -> $crate::library::signature::Out {
                CALLS[self as usize].out
            }

            /// Reads this function's arguments from `r` and runs it.
            pub fn run(
                self,
                r: &mut $crate::library::args::Reader,
            ) -> $crate::util::Result<Vec<$crate::transform::Value>> {
                use $crate::library::signature::Args;
                match self {
                    $($(CallId::$V => {
                        let args = <$S>::read(r)?;
                        r.finish()?;
                        $crate::library::signature::run_impl!($how $name, $S, args, $run)
                    })+)*
                }
            }
        }
    };
}

/// One implementation of `calls!`: `=` runs it on the arguments, `by` on the name and them.
macro_rules! run_impl {
    (= $name:literal, $S:ident, $args:ident, $run:expr) => {
        $crate::library::signature::apply($args, $run)
    };
    (by $name:literal, $S:ident, $args:ident, $run:expr) => {{
        let run: fn(&'static str, $S) -> $crate::util::Result<Vec<$crate::transform::Value>> = $run;
        run($name, $args)
    }};
}
pub(crate) use calls;
pub(crate) use run_impl;

/// Runs `f` on `args` (gives the implementations of `calls!` their argument type).
pub fn apply<A>(
    args: A,
    f: impl FnOnce(A) -> Result<Vec<crate::transform::Value>>,
) -> Result<Vec<crate::transform::Value>> {
    f(args)
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

/// An interface and an encoder, one line each.
fn render_args(out: &mut String, a: &ArgsSig) {
    let fields: Vec<String> = a
        .fields
        .iter()
        .map(|f| {
            let optional = f.default.is_some() || (f.ts_optional)();
            let q = if optional { "?" } else { "" };
            format!("{}{q}: {}", camel(f.name), (f.ts_type)())
        })
        .collect();
    out.push_str(&format!(
        "\nexport interface {}Args {{ {} }}\n",
        a.name,
        fields.join("; ")
    ));
    let keys: Vec<String> = a
        .fields
        .iter()
        .map(|f| format!("{:?}", camel(f.name)))
        .collect();
    let mut body = format!("c.only(a, [{}]);", keys.join(", "));
    for f in a.fields {
        let key = camel(f.name);
        let expr = match f.default {
            Some(d) => format!("a.{key} ?? {d}"),
            None => format!("a.{key}"),
        };
        body.push(' ');
        body.push_str(&(f.ts_encode)(&key, &expr));
    }
    out.push_str(&format!(
        "function encode{0}(c: LibCall, a: {0}Args): void {{ {body} }}\n",
        a.name
    ));
}

/// The TypeScript call layer: an interface and an encoder per argument struct, and a function
/// per call id that encodes its arguments and calls `libCall` with the id.
pub fn typescript(args: &[ArgsSig], calls: &[CallSig]) -> String {
    let mut out = String::from(
        "// Generated from src/library/call_args.rs and src/library/call.rs by\n\
         // `node scripts/gen_lib_calls.mjs`; do not edit. A test in src/library/call.rs fails\n\
         // when this file is stale.\n\
         import type { Array } from \"./array.js\";\n\
         import { run, run1, type ArrayInput, type LibCall } from \"./lib.js\";\n",
    );
    for a in args {
        render_args(&mut out, a);
    }
    out.push('\n');
    for (id, c) in calls.iter().enumerate() {
        let (ty, runner, pick) = c.out.ts();
        out.push_str(&format!(
            "export const {} = (a: {}Args): {ty} => {runner}({id}, {:?}, a, encode{})",
            lower_first(c.variant),
            c.args,
            c.name,
            c.args
        ));
        out.push_str(pick);
        out.push_str(";\n");
    }
    out
}
