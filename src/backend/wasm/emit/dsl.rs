//! A small typed expression and statement language over wasm values, lowered to walrus
//! instructions. The kernel body and the math routines are written in it, so that code reads
//! like arithmetic (`x * y + c`) instead of stack pushes. Every node knows its wasm value type;
//! operators pick the instruction for that type (`+` on f64 is `f64.add`, on i64 `i64.add`).

use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Sub};

use walrus::ir::{BinaryOp as B, LoadKind, MemArg, StoreKind, UnaryOp as U};
use walrus::{FunctionBuilder, FunctionId, InstrSeqBuilder, LocalId, MemoryId, Module, ValType};

use ValType::{F32, F64, I32, I64, V128};

/// A local variable with its type.
#[derive(Clone, Copy, Debug)]
pub struct Var {
    pub id: LocalId,
    pub ty: ValType,
}

impl Var {
    pub fn new(module: &mut Module, ty: ValType) -> Var {
        Var {
            id: module.locals.add(ty),
            ty,
        }
    }

    pub fn get(self) -> E {
        E::Get(self)
    }

    pub fn set(self, value: E) -> S {
        S::Set(self, value)
    }
}

/// An expression producing one wasm value.
#[derive(Clone, Debug)]
pub enum E {
    F32(f32),
    F64(f64),
    I32(i32),
    I64(i64),
    Get(Var),
    Bin(B, ValType, Box<E>, Box<E>),
    Un(U, ValType, Box<E>),
    Call(FunctionId, ValType, Vec<E>),
    Load(MemoryId, LoadKind, ValType, Box<E>),
    /// `cond ? a : b`, evaluating only the chosen side.
    If(Box<E>, Box<E>, Box<E>),
    /// `cond ? a : b`, evaluating both sides (branch-free).
    Select(Box<E>, Box<E>, Box<E>),
    /// Runs the statements, then evaluates the expression.
    Seq(Vec<S>, Box<E>),
    /// A 128-bit vector constant.
    V128(u128),
    /// `v128.bitselect(a, b, mask)`: bits of `a` where `mask` is set, else of `b`.
    Bitselect(Box<E>, Box<E>, Box<E>),
    /// `i8x16.shuffle` of two vectors (byte indices 0..16 pick from `a`, 16..32 from `b`).
    Shuffle([u8; 16], Box<E>, Box<E>),
    /// `memory.size`: the memory's current size in 64 KiB pages (i32).
    MemoryPages(MemoryId),
}

/// A statement.
#[derive(Clone, Debug)]
pub enum S {
    Set(Var, E),
    If(E, Vec<S>, Vec<S>),
    /// `while cond { body }`.
    While(E, Vec<S>),
    Store(MemoryId, StoreKind, E, E),
    Return(E),
    /// Statements in order (a group, for helpers that return one statement).
    Block(Vec<S>),
    /// A call of a function without results.
    Call(FunctionId, Vec<E>),
    /// `memory.copy(dst, src, bytes)` within one memory.
    Copy(MemoryId, E, E, E),
}

pub fn f64c(v: f64) -> E {
    E::F64(v)
}

pub fn i64c(v: i64) -> E {
    E::I64(v)
}

pub fn i32c(v: i32) -> E {
    E::I32(v)
}

pub fn if_(cond: E, then: Vec<S>, else_: Vec<S>) -> S {
    S::If(cond, then, else_)
}

pub fn when(cond: E, then: Vec<S>) -> S {
    S::If(cond, then, vec![])
}

/// `cond ? a : b`, evaluating only the chosen side.
pub fn cond(c: E, a: E, b: E) -> E {
    E::If(Box::new(c), Box::new(a), Box::new(b))
}

/// `cond ? a : b`, both sides evaluated.
pub fn select(c: E, a: E, b: E) -> E {
    E::Select(Box::new(c), Box::new(a), Box::new(b))
}

pub fn seq(stmts: Vec<S>, value: E) -> E {
    E::Seq(stmts, Box::new(value))
}

/// The f64 with these bits.
pub fn f64_bits(bits: u64) -> E {
    E::F64(f64::from_bits(bits))
}

impl E {
    pub fn ty(&self) -> ValType {
        match self {
            E::F32(_) => F32,
            E::F64(_) => F64,
            E::I32(_) | E::MemoryPages(_) => I32,
            E::I64(_) => I64,
            E::V128(_) | E::Bitselect(..) | E::Shuffle(..) => V128,
            E::Get(v) => v.ty,
            E::Bin(_, t, ..) | E::Un(_, t, _) | E::Call(_, t, _) | E::Load(_, _, t, _) => *t,
            E::If(_, a, _) | E::Select(_, a, _) | E::Seq(_, a) => a.ty(),
        }
    }

    /// Any walrus binary op with an explicit result type.
    pub fn bin(self, op: B, ty: ValType, other: E) -> E {
        E::Bin(op, ty, Box::new(self), Box::new(other))
    }

    /// A binary operation chosen by the operand type among (i32, i64, f32, f64) variants.
    fn typed(self, ops: [B; 4], result: Option<ValType>, other: E) -> E {
        let t = self.ty();
        let op = match t {
            I32 => ops[0],
            I64 => ops[1],
            F32 => ops[2],
            F64 => ops[3],
            _ => unreachable!("no vector types here"),
        };
        self.bin(op, result.unwrap_or(t), other)
    }

    fn un(self, op: U, ty: ValType) -> E {
        E::Un(op, ty, Box::new(self))
    }

    fn float_un(self, ops: [U; 2]) -> E {
        let t = self.ty();
        self.un(if t == F32 { ops[0] } else { ops[1] }, t)
    }

    /// Signed (or float) `<`.
    pub fn lt(self, o: E) -> E {
        self.typed([B::I32LtS, B::I64LtS, B::F32Lt, B::F64Lt], Some(I32), o)
    }
    pub fn le(self, o: E) -> E {
        self.typed([B::I32LeS, B::I64LeS, B::F32Le, B::F64Le], Some(I32), o)
    }
    pub fn gt(self, o: E) -> E {
        self.typed([B::I32GtS, B::I64GtS, B::F32Gt, B::F64Gt], Some(I32), o)
    }
    pub fn ge(self, o: E) -> E {
        self.typed([B::I32GeS, B::I64GeS, B::F32Ge, B::F64Ge], Some(I32), o)
    }
    pub fn eq(self, o: E) -> E {
        self.typed([B::I32Eq, B::I64Eq, B::F32Eq, B::F64Eq], Some(I32), o)
    }
    pub fn ne(self, o: E) -> E {
        self.typed([B::I32Ne, B::I64Ne, B::F32Ne, B::F64Ne], Some(I32), o)
    }
    /// Unsigned integer `<`.
    pub fn ltu(self, o: E) -> E {
        self.typed([B::I32LtU, B::I64LtU, B::F32Lt, B::F64Lt], Some(I32), o)
    }
    pub fn leu(self, o: E) -> E {
        self.typed([B::I32LeU, B::I64LeU, B::F32Le, B::F64Le], Some(I32), o)
    }
    pub fn shl(self, o: E) -> E {
        self.typed([B::I32Shl, B::I64Shl, B::I32Shl, B::I64Shl], None, o)
    }
    /// Arithmetic shift right.
    pub fn shr_s(self, o: E) -> E {
        self.typed([B::I32ShrS, B::I64ShrS, B::I32ShrS, B::I64ShrS], None, o)
    }
    /// Logical shift right.
    pub fn shr_u(self, o: E) -> E {
        self.typed([B::I32ShrU, B::I64ShrU, B::I32ShrU, B::I64ShrU], None, o)
    }
    pub fn div_s(self, o: E) -> E {
        self.typed([B::I32DivS, B::I64DivS, B::F32Div, B::F64Div], None, o)
    }
    pub fn div_u(self, o: E) -> E {
        self.typed([B::I32DivU, B::I64DivU, B::F32Div, B::F64Div], None, o)
    }
    pub fn rem_s(self, o: E) -> E {
        self.typed([B::I32RemS, B::I64RemS, B::I32RemS, B::I64RemS], None, o)
    }
    pub fn rem_u(self, o: E) -> E {
        self.typed([B::I32RemU, B::I64RemU, B::I32RemU, B::I64RemU], None, o)
    }
    pub fn copysign(self, o: E) -> E {
        self.typed(
            [
                B::F32Copysign,
                B::F64Copysign,
                B::F32Copysign,
                B::F64Copysign,
            ],
            None,
            o,
        )
    }

    pub fn abs(self) -> E {
        self.float_un([U::F32Abs, U::F64Abs])
    }
    pub fn sqrt(self) -> E {
        self.float_un([U::F32Sqrt, U::F64Sqrt])
    }
    pub fn floor(self) -> E {
        self.float_un([U::F32Floor, U::F64Floor])
    }
    pub fn ceil(self) -> E {
        self.float_un([U::F32Ceil, U::F64Ceil])
    }
    /// Round to nearest, ties to even.
    pub fn nearest(self) -> E {
        self.float_un([U::F32Nearest, U::F64Nearest])
    }
    /// Leading zeros of an i64.
    pub fn clz(self) -> E {
        let t = self.ty();
        self.un(if t == I32 { U::I32Clz } else { U::I64Clz }, t)
    }
    /// i32 → 1 if zero else 0.
    pub fn eqz(self) -> E {
        let t = self.ty();
        self.un(if t == I32 { U::I32Eqz } else { U::I64Eqz }, I32)
    }
    /// The bits of an f64 as i64 (or of an f32 as i32).
    pub fn bits(self) -> E {
        match self.ty() {
            F32 => self.un(U::I32ReinterpretF32, I32),
            _ => self.un(U::I64ReinterpretF64, I64),
        }
    }
    /// An i64 reinterpreted as f64 (or i32 as f32).
    pub fn reinterpret(self) -> E {
        match self.ty() {
            I32 => self.un(U::F32ReinterpretI32, F32),
            _ => self.un(U::F64ReinterpretI64, F64),
        }
    }
    pub fn wrap(self) -> E {
        self.un(U::I32WrapI64, I32)
    }
    pub fn extend_s(self) -> E {
        self.un(U::I64ExtendSI32, I64)
    }
    pub fn extend_u(self) -> E {
        self.un(U::I64ExtendUI32, I64)
    }
    /// i32/i64 (signed) → f64.
    pub fn widen(self) -> E {
        match self.ty() {
            I32 => self.un(U::F64ConvertSI32, F64),
            I64 => self.un(U::F64ConvertSI64, F64),
            F32 => self.un(U::F64PromoteF32, F64),
            _ => self,
        }
    }
    /// Unsigned i64 → f64.
    pub fn u64_to_f64(self) -> E {
        self.un(U::F64ConvertUI64, F64)
    }
    pub fn demote(self) -> E {
        self.un(U::F32DemoteF64, F32)
    }
    /// f64 → i32, truncating and saturating.
    pub fn trunc_i32(self) -> E {
        let op = if self.ty() == F32 {
            U::I32TruncSSatF32
        } else {
            U::I32TruncSSatF64
        };
        self.un(op, I32)
    }
    /// Any walrus unary op with an explicit result type.
    pub fn unop(self, op: U, ty: ValType) -> E {
        self.un(op, ty)
    }
    /// A vector binary op (result v128).
    pub fn v2(self, op: B, other: E) -> E {
        self.bin(op, V128, other)
    }
    /// A vector unary op (result v128).
    pub fn v1(self, op: U) -> E {
        self.un(op, V128)
    }
}

macro_rules! arith {
    ($trait:ident, $method:ident, $ops:expr) => {
        impl $trait for E {
            type Output = E;
            fn $method(self, o: E) -> E {
                self.typed($ops, None, o)
            }
        }
    };
}

arith!(Add, add, [B::I32Add, B::I64Add, B::F32Add, B::F64Add]);
arith!(Sub, sub, [B::I32Sub, B::I64Sub, B::F32Sub, B::F64Sub]);
arith!(Mul, mul, [B::I32Mul, B::I64Mul, B::F32Mul, B::F64Mul]);
arith!(Div, div, [B::I32DivS, B::I64DivS, B::F32Div, B::F64Div]);
arith!(BitAnd, bitand, [B::I32And, B::I64And, B::I32And, B::I64And]);
arith!(BitOr, bitor, [B::I32Or, B::I64Or, B::I32Or, B::I64Or]);
arith!(BitXor, bitxor, [B::I32Xor, B::I64Xor, B::I32Xor, B::I64Xor]);

impl Neg for E {
    type Output = E;
    fn neg(self) -> E {
        match self.ty() {
            F32 => self.un(U::F32Neg, F32),
            F64 => self.un(U::F64Neg, F64),
            I32 => E::I32(0) - self,
            _ => E::I64(0) - self,
        }
    }
}

/// Builds a function from its parameters, result type and body (which must end in a
/// `Return`); returns its id.
pub fn function(module: &mut Module, params: &[Var], result: ValType, body: &[S]) -> FunctionId {
    let types: Vec<ValType> = params.iter().map(|v| v.ty).collect();
    let mut builder = FunctionBuilder::new(&mut module.types, &types, &[result]);
    {
        let mut seq = builder.func_body();
        for s in body {
            emit_s(&mut seq, s);
        }
    }
    builder.finish(params.iter().map(|v| v.id).collect(), &mut module.funcs)
}

/// Builds a function without results.
pub fn procedure(module: &mut Module, params: &[Var], body: &[S]) -> FunctionId {
    let types: Vec<ValType> = params.iter().map(|v| v.ty).collect();
    let mut builder = FunctionBuilder::new(&mut module.types, &types, &[]);
    {
        let mut seq = builder.func_body();
        for s in body {
            emit_s(&mut seq, s);
        }
    }
    builder.finish(params.iter().map(|v| v.id).collect(), &mut module.funcs)
}

pub fn mem_arg(bytes: u32) -> MemArg {
    MemArg {
        align: bytes,
        offset: 0,
    }
}

fn emit_e(b: &mut InstrSeqBuilder, e: &E) {
    match e {
        E::F32(v) => {
            b.f32_const(*v);
        }
        E::F64(v) => {
            b.f64_const(*v);
        }
        E::I32(v) => {
            b.i32_const(*v);
        }
        E::I64(v) => {
            b.i64_const(*v);
        }
        E::Get(v) => {
            b.local_get(v.id);
        }
        E::Bin(op, _, x, y) => {
            emit_e(b, x);
            emit_e(b, y);
            b.binop(*op);
        }
        E::Un(op, _, x) => {
            emit_e(b, x);
            b.unop(*op);
        }
        E::Call(f, _, args) => {
            for a in args {
                emit_e(b, a);
            }
            b.call(*f);
        }
        E::Load(memory, kind, ty, addr) => {
            emit_e(b, addr);
            // Vectors are 4-byte aligned (buffers are 16-byte aligned, element offsets are not).
            let bytes = match (kind, ty) {
                (LoadKind::I32_16 { .. }, _) => 2, // float16 patterns
                (_, F64 | I64) => 8,
                _ => 4,
            };
            b.load(*memory, *kind, mem_arg(bytes));
        }
        E::If(c, x, y) => {
            emit_e(b, c);
            b.if_else(Some(x.ty()), |t| emit_e(t, x), |f| emit_e(f, y));
        }
        E::Select(c, x, y) => {
            emit_e(b, x);
            emit_e(b, y);
            emit_e(b, c);
            b.select(None);
        }
        E::Seq(stmts, value) => {
            for s in stmts {
                emit_s(b, s);
            }
            emit_e(b, value);
        }
        E::V128(v) => {
            b.const_(walrus::ir::Value::V128(*v));
        }
        E::Bitselect(x, y, mask) => {
            emit_e(b, x);
            emit_e(b, y);
            emit_e(b, mask);
            b.v128_bitselect();
        }
        E::Shuffle(indices, x, y) => {
            emit_e(b, x);
            emit_e(b, y);
            b.i8x16_shuffle(*indices);
        }
        E::MemoryPages(memory) => {
            b.memory_size(*memory);
        }
    }
}

fn emit_s(b: &mut InstrSeqBuilder, s: &S) {
    match s {
        S::Set(v, e) => {
            emit_e(b, e);
            b.local_set(v.id);
        }
        S::If(c, then, else_) => {
            emit_e(b, c);
            b.if_else(
                None,
                |t| then.iter().for_each(|s| emit_s(t, s)),
                |f| else_.iter().for_each(|s| emit_s(f, s)),
            );
        }
        S::While(c, body) => {
            b.block(None, |exit| {
                let exit_id = exit.id();
                exit.loop_(None, |l| {
                    let loop_id = l.id();
                    emit_e(l, c);
                    l.unop(U::I32Eqz).br_if(exit_id);
                    body.iter().for_each(|s| emit_s(l, s));
                    l.br(loop_id);
                });
            });
        }
        S::Store(memory, kind, addr, value) => {
            emit_e(b, addr);
            emit_e(b, value);
            let bytes = match (kind, value.ty()) {
                (StoreKind::I32_16 { .. }, _) => 2, // float16 patterns
                (_, F64 | I64) => 8,
                _ => 4,
            };
            b.store(*memory, *kind, mem_arg(bytes));
        }
        S::Return(e) => {
            emit_e(b, e);
            b.return_();
        }
        S::Block(stmts) => stmts.iter().for_each(|s| emit_s(b, s)),
        S::Call(f, args) => {
            args.iter().for_each(|a| emit_e(b, a));
            b.call(*f);
        }
        S::Copy(memory, dst, src, bytes) => {
            emit_e(b, dst);
            emit_e(b, src);
            emit_e(b, bytes);
            b.instr(walrus::ir::MemoryCopy {
                src: *memory,
                dst: *memory,
            });
        }
    }
}
