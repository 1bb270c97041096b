//! The information-flow register machine of ETNA's IFC workload
//! (`workloads/Coq/IFC/Src/{Labels,Instructions,Rules,Memory,Machine}.v`):
//! the four-point diamond lattice of labels, labelled values, a memory of
//! frames allocated per stamp, a call stack, and `fstep`, whose every
//! instruction asks the rule table (`run_tmr`) whether it may run and which
//! labels its result and the next pc get.
//!
//! The port follows the Rocq definitions one to one: `Z` is `i64` (the
//! generators keep every number small), a `regId` is an `i64`, `None` is a
//! stuck machine (`fstep` returns `None`).

/// A security label: the four-point diamond `L ⊑ M1, M2 ⊑ H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    /// Bottom.
    L,
    /// One of the two middle labels.
    M1,
    /// The other middle label.
    M2,
    /// Top.
    H,
}

impl Label {
    /// Every label, in ETNA's `all_labels` order.
    pub const ALL: [Label; 4] = [Label::L, Label::M1, Label::M2, Label::H];

    /// The least upper bound.
    pub fn join(self, other: Label) -> Label {
        use Label::*;
        match (self, other) {
            (_, H) | (H, _) => H,
            (L, l) | (l, L) => l,
            (M1, M2) | (M2, M1) => H,
            (l, _) => l,
        }
    }

    /// `self ⊑ other`.
    pub fn flows(self, other: Label) -> bool {
        use Label::*;
        matches!(
            (self, other),
            (L, _) | (M1, M1) | (M1, H) | (M2, M2) | (M2, H) | (H, H)
        )
    }

    /// The labels below `self` (`allThingsBelow`), in `ALL` order.
    pub fn below(self) -> impl Iterator<Item = Label> {
        Label::ALL.into_iter().filter(move |l| l.flows(self))
    }
}

/// A register number (`regId`, a `Z` in Rocq).
pub type Reg = i64;

/// The operators of `BinOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOpT {
    /// Integer addition.
    Add,
    /// Integer multiplication.
    Mult,
    /// Join of two labels.
    Join,
    /// `1` when the first label flows to the second, else `0`.
    FlowsTo,
    /// `1` when the values are equal, else `0`.
    Eq,
}

impl BinOpT {
    /// Every operator.
    pub const ALL: [BinOpT; 5] = [
        BinOpT::Add,
        BinOpT::Mult,
        BinOpT::Join,
        BinOpT::FlowsTo,
        BinOpT::Eq,
    ];
}

/// An instruction (`Instructions.v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    /// `Put n r`: `r := n`.
    Put(i64, Reg),
    /// `Mov r1 r2`: `r2 := r1`.
    Mov(Reg, Reg),
    /// `Load r1 r2`: `r2 := mem[r1]`.
    Load(Reg, Reg),
    /// `Store r1 r2`: `mem[r1] := r2` (the no-sensitive-upgrade check).
    Store(Reg, Reg),
    /// `Write r1 r2`: `mem[r1] := r2` (the permissive-upgrade check).
    Write(Reg, Reg),
    /// `BinOp o r1 r2 r3`: `r3 := r1 o r2`.
    BinOp(BinOpT, Reg, Reg, Reg),
    /// No operation.
    Nop,
    /// Stop.
    Halt,
    /// `Jump r`: `pc := r`.
    Jump(Reg),
    /// `BNZ n r`: `pc += n` unless `r` is 0.
    Bnz(i64, Reg),
    /// `BCall r1 r2 r3`: call `r1` with return label `r2`, result to `r3`.
    BCall(Reg, Reg, Reg),
    /// Return.
    BRet,
    /// `Lab r1 r2`: `r2 :=` the label of `r1`.
    Lab(Reg, Reg),
    /// `PcLab r`: `r :=` the pc's label.
    PcLab(Reg),
    /// `PutLab l r`: `r := l`.
    PutLab(Label, Reg),
    /// `Alloc r1 r2 r3`: a frame of `r1` zeros labelled `r2`, its pointer to `r3`.
    Alloc(Reg, Reg, Reg),
    /// `PGetOff r1 r2`: `r2 :=` the offset of pointer `r1`.
    PGetOff(Reg, Reg),
    /// `PSetOff r1 r2 r3`: `r3 :=` pointer `r1` at offset `r2`.
    PSetOff(Reg, Reg, Reg),
    /// `MSize r1 r2`: `r2 :=` the size of `r1`'s frame.
    MSize(Reg, Reg),
    /// `MLab r1 r2`: `r2 :=` the label of `r1`'s frame.
    MLab(Reg, Reg),
}

/// The opcodes, one rule each (`Halt` has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpCode {
    /// `Put`.
    Put,
    /// `Mov`.
    Mov,
    /// `Load`.
    Load,
    /// `Store`.
    Store,
    /// `Write`.
    Write,
    /// `BinOp`.
    BinOp,
    /// `Nop`.
    Nop,
    /// `Jump`.
    Jump,
    /// `BNZ`.
    BNZ,
    /// `BCall`.
    BCall,
    /// `BRet`.
    BRet,
    /// `Lab`.
    Lab,
    /// `PcLab`.
    PcLab,
    /// `PutLab`.
    PutLab,
    /// `Alloc`.
    Alloc,
    /// `PGetOff`.
    PGetOff,
    /// `PSetOff`.
    PSetOff,
    /// `MSize`.
    MSize,
    /// `MLab`.
    MLab,
}

impl OpCode {
    /// Every opcode, in ETNA's `opCodes` order.
    pub const ALL: [OpCode; 19] = [
        OpCode::Put,
        OpCode::Mov,
        OpCode::Load,
        OpCode::Store,
        OpCode::Write,
        OpCode::BinOp,
        OpCode::Nop,
        OpCode::Jump,
        OpCode::BNZ,
        OpCode::BCall,
        OpCode::BRet,
        OpCode::Lab,
        OpCode::PcLab,
        OpCode::PutLab,
        OpCode::Alloc,
        OpCode::PGetOff,
        OpCode::PSetOff,
        OpCode::MSize,
        OpCode::MLab,
    ];
}

impl Instr {
    /// Its opcode (`opcode_of_instr`; `None` for `Halt`).
    pub fn opcode(self) -> Option<OpCode> {
        Some(match self {
            Instr::Put(..) => OpCode::Put,
            Instr::Mov(..) => OpCode::Mov,
            Instr::Load(..) => OpCode::Load,
            Instr::Store(..) => OpCode::Store,
            Instr::Write(..) => OpCode::Write,
            Instr::BinOp(..) => OpCode::BinOp,
            Instr::Nop => OpCode::Nop,
            Instr::Halt => return None,
            Instr::Jump(..) => OpCode::Jump,
            Instr::Bnz(..) => OpCode::BNZ,
            Instr::BCall(..) => OpCode::BCall,
            Instr::BRet => OpCode::BRet,
            Instr::Lab(..) => OpCode::Lab,
            Instr::PcLab(..) => OpCode::PcLab,
            Instr::PutLab(..) => OpCode::PutLab,
            Instr::Alloc(..) => OpCode::Alloc,
            Instr::PGetOff(..) => OpCode::PGetOff,
            Instr::PSetOff(..) => OpCode::PSetOff,
            Instr::MSize(..) => OpCode::MSize,
            Instr::MLab(..) => OpCode::MLab,
        })
    }
}

// ---------------------------------------------------------------------------
// Rules (`Rules.v`): a label expression is a join of label variables, so it
// is a set of them, a bit mask; `BOT` is the empty join.

/// A label expression: the join of the variables in the mask.
pub type LExpr = u8;
/// `BOT`.
pub const BOT: LExpr = 0;
/// `Lab1`, the rule's first label argument.
pub const L1: LExpr = 1;
/// `Lab2`.
pub const L2: LExpr = 2;
/// `Lab3`.
pub const L3: LExpr = 4;
/// `Lab4`.
pub const L4: LExpr = 8;
/// `LabPC`, the pc's label.
pub const PC: LExpr = 16;

/// A rule's side condition (every rule of the table is `TRUE` or one `LE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Always allowed.
    True,
    /// Allowed when the first expression flows to the second.
    Le(LExpr, LExpr),
}

/// A rule (`AllowModify`): when the instruction may run, the label of its
/// result (if it has one) and of the next pc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The side condition.
    pub allow: Cond,
    /// The result's label.
    pub res: Option<LExpr>,
    /// The next pc's label.
    pub pc: LExpr,
}

/// The value of `e` for the rule's arguments `labs` and the pc label.
fn eval_expr(e: LExpr, labs: &[Label], pc: Label) -> Label {
    let mut out = Label::L;
    for (i, l) in labs.iter().enumerate() {
        if e & (1 << i) != 0 {
            out = out.join(*l);
        }
    }
    if e & PC != 0 {
        out = out.join(pc);
    }
    out
}

impl Rule {
    /// `apply_rule`: `None` when the side condition fails, else the result's
    /// label (if any) and the next pc's.
    pub fn apply(&self, labs: &[Label], pc: Label) -> Option<(Option<Label>, Label)> {
        if let Cond::Le(a, b) = self.allow {
            if !eval_expr(a, labs, pc).flows(eval_expr(b, labs, pc)) {
                return None;
            }
        }
        Some((
            self.res.map(|e| eval_expr(e, labs, pc)),
            eval_expr(self.pc, labs, pc),
        ))
    }
}

crate::named_enum! {
    /// The mutants of the rule table (ETNA's `Machine.v`, one per `(*!! … *)`); [`Mutant::Base`] is the correct table.
    Mutant {
        /// The correct rule table.
        Base = "base",
        /// `OpLab`: see [`Mutant::rule`].
        OpLab1 = "OpLab_1",
        /// `OpMLab`: see [`Mutant::rule`].
        OpMLab1 = "OpMLab_1",
        /// `OpMLab`: see [`Mutant::rule`].
        OpMLab2 = "OpMLab_2",
        /// `OpPcLab`: see [`Mutant::rule`].
        OpPcLab1 = "OpPcLab_1",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall1 = "OpBCall_1",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall2 = "OpBCall_2",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall3 = "OpBCall_3",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall4 = "OpBCall_4",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall5 = "OpBCall_5",
        /// `OpBCall`: see [`Mutant::rule`].
        OpBCall6 = "OpBCall_6",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet1 = "OpBRet_1",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet2 = "OpBRet_2",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet3 = "OpBRet_3",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet4 = "OpBRet_4",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet5 = "OpBRet_5",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet6 = "OpBRet_6",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet7 = "OpBRet_7",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet8 = "OpBRet_8",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet9 = "OpBRet_9",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet10 = "OpBRet_10",
        /// `OpBRet`: see [`Mutant::rule`].
        OpBRet11 = "OpBRet_11",
        /// `OpPutLab`: see [`Mutant::rule`].
        OpPutLab1 = "OpPutLab_1",
        /// `OpNop`: see [`Mutant::rule`].
        OpNop1 = "OpNop_1",
        /// `OpPut`: see [`Mutant::rule`].
        OpPut1 = "OpPut_1",
        /// `OpBinOp`: see [`Mutant::rule`].
        OpBinOp1 = "OpBinOp_1",
        /// `OpBinOp`: see [`Mutant::rule`].
        OpBinOp2 = "OpBinOp_2",
        /// `OpBinOp`: see [`Mutant::rule`].
        OpBinOp3 = "OpBinOp_3",
        /// `OpBinOp`: see [`Mutant::rule`].
        OpBinOp4 = "OpBinOp_4",
        /// `OpJump`: see [`Mutant::rule`].
        OpJump1 = "OpJump_1",
        /// `OpJump`: see [`Mutant::rule`].
        OpJump2 = "OpJump_2",
        /// `OpJump`: see [`Mutant::rule`].
        OpJump3 = "OpJump_3",
        /// `OpBNZ`: see [`Mutant::rule`].
        OpBNZ1 = "OpBNZ_1",
        /// `OpBNZ`: see [`Mutant::rule`].
        OpBNZ2 = "OpBNZ_2",
        /// `OpBNZ`: see [`Mutant::rule`].
        OpBNZ3 = "OpBNZ_3",
        /// `OpLoad`: see [`Mutant::rule`].
        OpLoad1 = "OpLoad_1",
        /// `OpLoad`: see [`Mutant::rule`].
        OpLoad2 = "OpLoad_2",
        /// `OpLoad`: see [`Mutant::rule`].
        OpLoad3 = "OpLoad_3",
        /// `OpLoad`: see [`Mutant::rule`].
        OpLoad4 = "OpLoad_4",
        /// `OpStore`: see [`Mutant::rule`].
        OpStore1 = "OpStore_1",
        /// `OpStore`: see [`Mutant::rule`].
        OpStore2 = "OpStore_2",
        /// `OpStore`: see [`Mutant::rule`].
        OpStore3 = "OpStore_3",
        /// `OpStore`: see [`Mutant::rule`].
        OpStore4 = "OpStore_4",
        /// `OpStore`: see [`Mutant::rule`].
        OpStore5 = "OpStore_5",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite1 = "OpWrite_1",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite2 = "OpWrite_2",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite3 = "OpWrite_3",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite4 = "OpWrite_4",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite5 = "OpWrite_5",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite6 = "OpWrite_6",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite7 = "OpWrite_7",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite8 = "OpWrite_8",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite9 = "OpWrite_9",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite10 = "OpWrite_10",
        /// `OpWrite`: see [`Mutant::rule`].
        OpWrite11 = "OpWrite_11",
        /// `OpAlloc`: see [`Mutant::rule`].
        OpAlloc1 = "OpAlloc_1",
        /// `OpAlloc`: see [`Mutant::rule`].
        OpAlloc2 = "OpAlloc_2",
        /// `OpAlloc`: see [`Mutant::rule`].
        OpAlloc3 = "OpAlloc_3",
        /// `OpAlloc`: see [`Mutant::rule`].
        OpAlloc4 = "OpAlloc_4",
        /// `OpPSetOff`: see [`Mutant::rule`].
        OpPSetOff1 = "OpPSetOff_1",
        /// `OpPSetOff`: see [`Mutant::rule`].
        OpPSetOff2 = "OpPSetOff_2",
        /// `OpPSetOff`: see [`Mutant::rule`].
        OpPSetOff3 = "OpPSetOff_3",
        /// `OpPSetOff`: see [`Mutant::rule`].
        OpPSetOff4 = "OpPSetOff_4",
        /// `OpPGetOff`: see [`Mutant::rule`].
        OpPGetOff1 = "OpPGetOff_1",
        /// `OpPGetOff`: see [`Mutant::rule`].
        OpPGetOff2 = "OpPGetOff_2",
        /// `OpMSize`: see [`Mutant::rule`].
        OpMSize1 = "OpMSize_1",
        /// `OpMSize`: see [`Mutant::rule`].
        OpMSize2 = "OpMSize_2",
        /// `OpMSize`: see [`Mutant::rule`].
        OpMSize3 = "OpMSize_3",
        /// `OpMSize`: see [`Mutant::rule`].
        OpMSize4 = "OpMSize_4",
        /// `OpMov`: see [`Mutant::rule`].
        OpMov1 = "OpMov_1",
        /// `OpMov`: see [`Mutant::rule`].
        OpMov2 = "OpMov_2",
    }
}

/// The correct rule of each opcode (ETNA's `default_table`).
pub fn default_rule(op: OpCode) -> Rule {
    match op {
        OpCode::Lab => Rule {
            allow: Cond::True,
            res: Some(BOT),
            pc: PC,
        },
        OpCode::MLab => Rule {
            allow: Cond::True,
            res: Some(L1),
            pc: PC,
        },
        OpCode::PcLab => Rule {
            allow: Cond::True,
            res: Some(BOT),
            pc: PC,
        },
        OpCode::BCall => Rule {
            allow: Cond::True,
            res: Some(L2 | PC),
            pc: L1 | PC,
        },
        OpCode::BRet => Rule {
            allow: Cond::Le(L1 | PC, L2 | L3),
            res: Some(L2),
            pc: L3,
        },
        OpCode::PutLab => Rule {
            allow: Cond::True,
            res: Some(BOT),
            pc: PC,
        },
        OpCode::Nop => Rule {
            allow: Cond::True,
            res: None,
            pc: PC,
        },
        OpCode::Put => Rule {
            allow: Cond::True,
            res: Some(BOT),
            pc: PC,
        },
        OpCode::BinOp => Rule {
            allow: Cond::True,
            res: Some(L1 | L2),
            pc: PC,
        },
        OpCode::Jump => Rule {
            allow: Cond::True,
            res: None,
            pc: L1 | PC,
        },
        OpCode::BNZ => Rule {
            allow: Cond::True,
            res: None,
            pc: L1 | PC,
        },
        OpCode::Load => Rule {
            allow: Cond::True,
            res: Some(L3),
            pc: L1 | L2 | PC,
        },
        OpCode::Store => Rule {
            allow: Cond::Le(L1 | PC, L2),
            res: Some(L3),
            pc: PC,
        },
        OpCode::Write => Rule {
            allow: Cond::Le(L1 | L3 | PC, L2 | L4),
            res: Some(L4),
            pc: PC,
        },
        OpCode::Alloc => Rule {
            allow: Cond::True,
            res: Some(L1 | L2),
            pc: PC,
        },
        OpCode::PSetOff => Rule {
            allow: Cond::True,
            res: Some(L1 | L2),
            pc: PC,
        },
        OpCode::PGetOff => Rule {
            allow: Cond::True,
            res: Some(L1),
            pc: PC,
        },
        OpCode::MSize => Rule {
            allow: Cond::True,
            res: Some(L2),
            pc: L1 | PC,
        },
        OpCode::Mov => Rule {
            allow: Cond::True,
            res: Some(L1),
            pc: PC,
        },
    }
}

impl Mutant {
    /// The opcode whose rule this mutant replaces, and its rule (`None` for [`Mutant::Base`]).
    pub fn rule(self) -> Option<(OpCode, Rule)> {
        Some(match self {
            Mutant::Base => return None,
            Mutant::OpLab1 => (
                OpCode::Lab,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: BOT,
                },
            ),
            Mutant::OpMLab1 => (
                OpCode::MLab,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpMLab2 => (
                OpCode::MLab,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: BOT,
                },
            ),
            Mutant::OpPcLab1 => (
                OpCode::PcLab,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: BOT,
                },
            ),
            Mutant::OpBCall1 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: L1 | PC,
                },
            ),
            Mutant::OpBCall2 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: L1 | PC,
                },
            ),
            Mutant::OpBCall3 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(PC),
                    pc: L1 | PC,
                },
            ),
            Mutant::OpBCall4 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(L2 | PC),
                    pc: BOT,
                },
            ),
            Mutant::OpBCall5 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(L2 | PC),
                    pc: L1,
                },
            ),
            Mutant::OpBCall6 => (
                OpCode::BCall,
                Rule {
                    allow: Cond::True,
                    res: Some(L2 | PC),
                    pc: PC,
                },
            ),
            Mutant::OpBRet1 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet2 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1, L2),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet3 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1, L3),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet4 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1, L2 | L3),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet5 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(PC, L2),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet6 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(PC, L3),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet7 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(PC, L2 | L3),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet8 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1 | PC, L2),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet9 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1 | PC, L3),
                    res: Some(L2),
                    pc: L3,
                },
            ),
            Mutant::OpBRet10 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1 | PC, L2 | L3),
                    res: Some(BOT),
                    pc: L3,
                },
            ),
            Mutant::OpBRet11 => (
                OpCode::BRet,
                Rule {
                    allow: Cond::Le(L1 | PC, L2 | L3),
                    res: Some(L2),
                    pc: BOT,
                },
            ),
            Mutant::OpPutLab1 => (
                OpCode::PutLab,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: BOT,
                },
            ),
            Mutant::OpNop1 => (
                OpCode::Nop,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: BOT,
                },
            ),
            Mutant::OpPut1 => (
                OpCode::Put,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: BOT,
                },
            ),
            Mutant::OpBinOp1 => (
                OpCode::BinOp,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpBinOp2 => (
                OpCode::BinOp,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: PC,
                },
            ),
            Mutant::OpBinOp3 => (
                OpCode::BinOp,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: PC,
                },
            ),
            Mutant::OpBinOp4 => (
                OpCode::BinOp,
                Rule {
                    allow: Cond::True,
                    res: Some(L1 | L2),
                    pc: BOT,
                },
            ),
            Mutant::OpJump1 => (
                OpCode::Jump,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: BOT,
                },
            ),
            Mutant::OpJump2 => (
                OpCode::Jump,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: PC,
                },
            ),
            Mutant::OpJump3 => (
                OpCode::Jump,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: L1,
                },
            ),
            Mutant::OpBNZ1 => (
                OpCode::BNZ,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: BOT,
                },
            ),
            Mutant::OpBNZ2 => (
                OpCode::BNZ,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: L1,
                },
            ),
            Mutant::OpBNZ3 => (
                OpCode::BNZ,
                Rule {
                    allow: Cond::True,
                    res: None,
                    pc: PC,
                },
            ),
            Mutant::OpLoad1 => (
                OpCode::Load,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: L1 | L2 | PC,
                },
            ),
            Mutant::OpLoad2 => (
                OpCode::Load,
                Rule {
                    allow: Cond::True,
                    res: Some(L3),
                    pc: BOT,
                },
            ),
            Mutant::OpLoad3 => (
                OpCode::Load,
                Rule {
                    allow: Cond::True,
                    res: Some(L3),
                    pc: PC,
                },
            ),
            Mutant::OpLoad4 => (
                OpCode::Load,
                Rule {
                    allow: Cond::True,
                    res: Some(L3),
                    pc: L1 | L2,
                },
            ),
            Mutant::OpStore1 => (
                OpCode::Store,
                Rule {
                    allow: Cond::True,
                    res: Some(L3),
                    pc: PC,
                },
            ),
            Mutant::OpStore2 => (
                OpCode::Store,
                Rule {
                    allow: Cond::Le(L1, L2),
                    res: Some(L3),
                    pc: PC,
                },
            ),
            Mutant::OpStore3 => (
                OpCode::Store,
                Rule {
                    allow: Cond::Le(PC, L2),
                    res: Some(L3),
                    pc: PC,
                },
            ),
            Mutant::OpStore4 => (
                OpCode::Store,
                Rule {
                    allow: Cond::Le(L1 | PC, L2),
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpStore5 => (
                OpCode::Store,
                Rule {
                    allow: Cond::Le(L1 | PC, L2),
                    res: Some(L3),
                    pc: BOT,
                },
            ),
            Mutant::OpWrite1 => (
                OpCode::Write,
                Rule {
                    allow: Cond::True,
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite2 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | PC, L2),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite3 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | PC, L4),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite4 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | PC, L2 | L4),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite5 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L3, L2),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite6 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L3, L4),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite7 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L3, L2 | L4),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite8 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | L3 | PC, L2),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite9 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | L3 | PC, L4),
                    res: Some(L4),
                    pc: PC,
                },
            ),
            Mutant::OpWrite10 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | L3 | PC, L2 | L4),
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpWrite11 => (
                OpCode::Write,
                Rule {
                    allow: Cond::Le(L1 | L3 | PC, L2 | L4),
                    res: Some(L4),
                    pc: BOT,
                },
            ),
            Mutant::OpAlloc1 => (
                OpCode::Alloc,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpAlloc2 => (
                OpCode::Alloc,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: PC,
                },
            ),
            Mutant::OpAlloc3 => (
                OpCode::Alloc,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: PC,
                },
            ),
            Mutant::OpAlloc4 => (
                OpCode::Alloc,
                Rule {
                    allow: Cond::True,
                    res: Some(L1 | L2),
                    pc: BOT,
                },
            ),
            Mutant::OpPSetOff1 => (
                OpCode::PSetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpPSetOff2 => (
                OpCode::PSetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: PC,
                },
            ),
            Mutant::OpPSetOff3 => (
                OpCode::PSetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: PC,
                },
            ),
            Mutant::OpPSetOff4 => (
                OpCode::PSetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(L1 | L2),
                    pc: BOT,
                },
            ),
            Mutant::OpPGetOff1 => (
                OpCode::PGetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpPGetOff2 => (
                OpCode::PGetOff,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: BOT,
                },
            ),
            Mutant::OpMSize1 => (
                OpCode::MSize,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: L1 | PC,
                },
            ),
            Mutant::OpMSize2 => (
                OpCode::MSize,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: BOT,
                },
            ),
            Mutant::OpMSize3 => (
                OpCode::MSize,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: PC,
                },
            ),
            Mutant::OpMSize4 => (
                OpCode::MSize,
                Rule {
                    allow: Cond::True,
                    res: Some(L2),
                    pc: L1,
                },
            ),
            Mutant::OpMov1 => (
                OpCode::Mov,
                Rule {
                    allow: Cond::True,
                    res: Some(BOT),
                    pc: PC,
                },
            ),
            Mutant::OpMov2 => (
                OpCode::Mov,
                Rule {
                    allow: Cond::True,
                    res: Some(L1),
                    pc: BOT,
                },
            ),
        })
    }
}

impl Mutant {
    /// The rule of `op` in this mutant's table.
    pub fn table(self, op: OpCode) -> Rule {
        match self.rule() {
            Some((o, r)) if o == op => r,
            _ => default_rule(op),
        }
    }

    /// `run_tmr` expecting a result label.
    fn with_result(self, op: OpCode, labs: &[Label], pc: Label) -> Option<(Label, Label)> {
        match self.table(op).apply(labs, pc)? {
            (Some(rl), rpc) => Some((rl, rpc)),
            (None, _) => None,
        }
    }

    /// `run_tmr` expecting no result label.
    fn without_result(self, op: OpCode, labs: &[Label], pc: Label) -> Option<Label> {
        match self.table(op).apply(labs, pc)? {
            (None, rpc) => Some(rpc),
            (Some(_), _) => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Values, memory and states (`Memory.v`, `Machine.v`).

/// A memory block: an index among the frames of its stamp, and the stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The index among the frames allocated with the same stamp.
    pub index: i64,
    /// The stamp: the label of the context that allocated it.
    pub stamp: Label,
}

/// A value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A pointer: a block and an offset.
    Ptr(Block, i64),
    /// A label.
    Lab(Label),
}

/// A labelled value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The value.
    pub v: Value,
    /// Its label.
    pub l: Label,
}

/// A program counter: an address and a label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PtrAtom {
    /// The address.
    pub addr: i64,
    /// The label.
    pub l: Label,
}

/// A memory frame: its label and its atoms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The frame's label.
    pub lab: Label,
    /// Its contents.
    pub data: Vec<Atom>,
}

/// The memory: for each stamp (in `Label::ALL` order), the frames allocated
/// with it, in allocation order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Memory {
    /// `frames[s]`: the frames of stamp `Label::ALL[s]`.
    pub frames: [Vec<Frame>; 4],
}

impl Memory {
    /// The frame at `b` (`get_memframe`).
    pub fn get(&self, b: Block) -> Option<&Frame> {
        usize::try_from(b.index)
            .ok()
            .and_then(|i| self.frames[b.stamp as usize].get(i))
    }

    /// The frame at `b`, to update (`upd_memframe`'s lookup).
    pub fn get_mut(&mut self, b: Block) -> Option<&mut Frame> {
        usize::try_from(b.index)
            .ok()
            .and_then(|i| self.frames[b.stamp as usize].get_mut(i))
    }

    /// Allocate `fr` with stamp `s` (`Memory.alloc`).
    pub fn alloc(&mut self, s: Label, fr: Frame) -> Block {
        let frames = &mut self.frames[s as usize];
        frames.push(fr);
        Block {
            index: frames.len() as i64 - 1,
            stamp: s,
        }
    }

    /// The blocks of the stamps `ss`, stamp by stamp (`get_blocks`).
    pub fn blocks(&self, ss: impl Iterator<Item = Label>) -> Vec<Block> {
        ss.flat_map(|s| {
            (0..self.frames[s as usize].len()).map(move |i| Block {
                index: i as i64,
                stamp: s,
            })
        })
        .collect()
    }
}

/// A call-stack frame: the return pc, the caller's registers, the register
/// that receives the result, and the label the result is bounded by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StackFrame {
    /// Where to return, with the label the pc returns to.
    pub ret: PtrAtom,
    /// The caller's registers.
    pub regs: Vec<Atom>,
    /// The register the result goes to.
    pub target: Reg,
    /// The label of the call's result.
    pub lab: Label,
}

/// A machine state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The instruction memory.
    pub imem: Vec<Instr>,
    /// The data memory.
    pub mem: Memory,
    /// The call stack, top first.
    pub stack: Vec<StackFrame>,
    /// The registers.
    pub regs: Vec<Atom>,
    /// The program counter.
    pub pc: PtrAtom,
}

/// `nth_error_Z`.
fn nth<T>(xs: &[T], i: i64) -> Option<&T> {
    usize::try_from(i).ok().and_then(|i| xs.get(i))
}

/// `update_list_Z`: `None` out of range.
fn update<T: Clone>(xs: &[T], i: i64, y: T) -> Option<Vec<T>> {
    let i = usize::try_from(i).ok().filter(|i| *i < xs.len())?;
    let mut out = xs.to_vec();
    out[i] = y;
    Some(out)
}

/// `eval_binop`.
fn eval_binop(o: BinOpT, v1: Value, v2: Value) -> Option<Value> {
    Some(match (o, v1, v2) {
        (BinOpT::Add, Value::Int(a), Value::Int(b)) => Value::Int(a.wrapping_add(b)),
        (BinOpT::Mult, Value::Int(a), Value::Int(b)) => Value::Int(a.wrapping_mul(b)),
        (BinOpT::FlowsTo, Value::Lab(a), Value::Lab(b)) => Value::Int(i64::from(a.flows(b))),
        (BinOpT::Join, Value::Lab(a), Value::Lab(b)) => Value::Lab(a.join(b)),
        (BinOpT::Eq, a, b) => Value::Int(i64::from(a == b)),
        _ => return None,
    })
}

/// `load`.
fn load(m: &Memory, b: Block, off: i64) -> Option<Atom> {
    nth(&m.get(b)?.data, off).copied()
}

/// `store`.
fn store(m: &Memory, b: Block, off: i64, a: Atom) -> Option<Memory> {
    let data = update(&m.get(b)?.data, off, a)?;
    let mut m = m.clone();
    m.get_mut(b)?.data = data;
    Some(m)
}

/// The pointer in register `r`, with its label.
fn ptr_in(regs: &[Atom], r: Reg) -> Option<(Block, i64, Label)> {
    match nth(regs, r)? {
        Atom {
            v: Value::Ptr(b, off),
            l,
        } => Some((*b, *off, *l)),
        _ => None,
    }
}

/// The integer in register `r`, with its label.
fn int_in(regs: &[Atom], r: Reg) -> Option<(i64, Label)> {
    match nth(regs, r)? {
        Atom {
            v: Value::Int(n),
            l,
        } => Some((*n, *l)),
        _ => None,
    }
}

/// The label value in register `r`, with the register's label.
fn lab_in(regs: &[Atom], r: Reg) -> Option<(Label, Label)> {
    match nth(regs, r)? {
        Atom {
            v: Value::Lab(x),
            l,
        } => Some((*x, *l)),
        _ => None,
    }
}

/// One step of the machine under mutant `t`'s rule table (`fstep`);
/// `None` when it is stuck (halted, out of the program, a rule or a
/// dynamic check refuses).
pub fn fstep(t: Mutant, st: &State) -> Option<State> {
    let instr = *nth(&st.imem, st.pc.addr)?;
    let (j, lpc) = (st.pc.addr, st.pc.l);
    let r = &st.regs;
    let next = |regs: Vec<Atom>, rpc: Label| State {
        imem: st.imem.clone(),
        mem: st.mem.clone(),
        stack: st.stack.clone(),
        regs,
        pc: PtrAtom {
            addr: j + 1,
            l: rpc,
        },
    };
    let set = |reg: Reg, v: Value, l: Label| update(r, reg, Atom { v, l });
    match instr {
        Instr::Lab(r1, r2) => {
            let k = nth(r, r1)?.l;
            let (rl, rpc) = t.with_result(OpCode::Lab, &[], lpc)?;
            Some(next(set(r2, Value::Lab(k), rl)?, rpc))
        }
        Instr::PcLab(r1) => {
            let (rl, rpc) = t.with_result(OpCode::PcLab, &[], lpc)?;
            Some(next(set(r1, Value::Lab(lpc), rl)?, rpc))
        }
        Instr::MLab(r1, r2) => {
            let (b, _, k) = ptr_in(r, r1)?;
            let c = st.mem.get(b)?.lab;
            let (rl, rpc) = t.with_result(OpCode::MLab, &[k, c], lpc)?;
            Some(next(set(r2, Value::Lab(c), rl)?, rpc))
        }
        Instr::PutLab(l, r1) => {
            let (rl, rpc) = t.with_result(OpCode::PutLab, &[], lpc)?;
            Some(next(set(r1, Value::Lab(l), rl)?, rpc))
        }
        Instr::BCall(r1, r2, r3) => {
            let (addr, la) = int_in(r, r1)?;
            let (b, k) = lab_in(r, r2)?;
            let (rl, rpc) = t.with_result(OpCode::BCall, &[la, k], lpc)?;
            let mut stack = Vec::with_capacity(st.stack.len() + 1);
            stack.push(StackFrame {
                ret: PtrAtom { addr: j + 1, l: rl },
                regs: r.clone(),
                target: r3,
                lab: b,
            });
            stack.extend(st.stack.iter().cloned());
            Some(State {
                imem: st.imem.clone(),
                mem: st.mem.clone(),
                stack,
                regs: r.clone(),
                pc: PtrAtom { addr, l: rpc },
            })
        }
        Instr::BRet => {
            let (top, rest) = st.stack.split_first()?;
            let a = *nth(r, top.target)?;
            let (rl, rpc) = t.with_result(OpCode::BRet, &[a.l, top.lab, top.ret.l], lpc)?;
            let regs = update(&top.regs, top.target, Atom { v: a.v, l: rl })?;
            Some(State {
                imem: st.imem.clone(),
                mem: st.mem.clone(),
                stack: rest.to_vec(),
                regs,
                pc: PtrAtom {
                    addr: top.ret.addr,
                    l: rpc,
                },
            })
        }
        Instr::Alloc(r1, r2, r3) => {
            let (i, k) = int_in(r, r1)?;
            let (ll, k2) = lab_in(r, r2)?;
            let (rl, rpc) = t.with_result(OpCode::Alloc, &[k, k2, ll], lpc)?;
            let stamp = k.join(k2).join(lpc);
            if i < 0 {
                return None;
            }
            let fr = Frame {
                lab: ll,
                data: vec![
                    Atom {
                        v: Value::Int(0),
                        l: Label::L
                    };
                    i as usize
                ],
            };
            let mut mem = st.mem.clone();
            let b = mem.alloc(stamp, fr);
            let regs = set(r3, Value::Ptr(b, 0), rl)?;
            let mut out = next(regs, rpc);
            out.mem = mem;
            Some(out)
        }
        Instr::Load(r1, r2) => {
            let (b, off, k) = ptr_in(r, r1)?;
            let a = load(&st.mem, b, off)?;
            let c = st.mem.get(b)?.lab;
            let (rl, rpc) = t.with_result(OpCode::Load, &[k, c, a.l], lpc)?;
            Some(next(set(r2, a.v, rl)?, rpc))
        }
        Instr::Store(r1, r2) => {
            let (b, off, lp) = ptr_in(r, r1)?;
            let v = *nth(r, r2)?;
            let lf = st.mem.get(b)?.lab;
            let (rl, rpc) = t.with_result(OpCode::Store, &[lp, lf, v.l], lpc)?;
            let mem = store(&st.mem, b, off, Atom { v: v.v, l: rl })?;
            let mut out = next(r.clone(), rpc);
            out.mem = mem;
            Some(out)
        }
        Instr::Write(r1, r2) => {
            let (b, off, lp) = ptr_in(r, r1)?;
            let v = *nth(r, r2)?;
            let old = load(&st.mem, b, off)?;
            let lf = st.mem.get(b)?.lab;
            let (rl, rpc) = t.with_result(OpCode::Write, &[lp, lf, v.l, old.l], lpc)?;
            let mem = store(&st.mem, b, off, Atom { v: v.v, l: rl })?;
            let mut out = next(r.clone(), rpc);
            out.mem = mem;
            Some(out)
        }
        Instr::Jump(r1) => {
            let (addr, ll) = int_in(r, r1)?;
            let rpc = t.without_result(OpCode::Jump, &[ll], lpc)?;
            let mut out = next(r.clone(), rpc);
            out.pc.addr = addr;
            Some(out)
        }
        Instr::Bnz(n, r1) => {
            let (m, k) = int_in(r, r1)?;
            let rpc = t.without_result(OpCode::BNZ, &[k], lpc)?;
            let mut out = next(r.clone(), rpc);
            out.pc.addr = if m == 0 { j + 1 } else { j.wrapping_add(n) };
            Some(out)
        }
        Instr::PSetOff(r1, r2, r3) => {
            let (b, _, k1) = ptr_in(r, r1)?;
            let (n, k2) = int_in(r, r2)?;
            let (rl, rpc) = t.with_result(OpCode::PSetOff, &[k1, k2], lpc)?;
            Some(next(set(r3, Value::Ptr(b, n), rl)?, rpc))
        }
        Instr::Put(x, r1) => {
            let (rl, rpc) = t.with_result(OpCode::Put, &[], lpc)?;
            Some(next(set(r1, Value::Int(x), rl)?, rpc))
        }
        Instr::BinOp(o, r1, r2, r3) => {
            let a1 = *nth(r, r1)?;
            let a2 = *nth(r, r2)?;
            let (rl, rpc) = t.with_result(OpCode::BinOp, &[a1.l, a2.l], lpc)?;
            let v = eval_binop(o, a1.v, a2.v)?;
            Some(next(set(r3, v, rl)?, rpc))
        }
        Instr::Nop => {
            let rpc = t.without_result(OpCode::Nop, &[], lpc)?;
            Some(next(r.clone(), rpc))
        }
        Instr::MSize(r1, r2) => {
            let (b, _, k) = ptr_in(r, r1)?;
            let fr = st.mem.get(b)?;
            let (rl, rpc) = t.with_result(OpCode::MSize, &[k, fr.lab], lpc)?;
            Some(next(set(r2, Value::Int(fr.data.len() as i64), rl)?, rpc))
        }
        Instr::PGetOff(r1, r2) => {
            let (_, off, k) = ptr_in(r, r1)?;
            let (rl, rpc) = t.with_result(OpCode::PGetOff, &[k], lpc)?;
            Some(next(set(r2, Value::Int(off), rl)?, rpc))
        }
        Instr::Mov(r1, r2) => {
            let a = *nth(r, r1)?;
            let (rl, rpc) = t.with_result(OpCode::Mov, &[a.l], lpc)?;
            Some(next(set(r2, a.v, rl)?, rpc))
        }
        Instr::Halt => None,
    }
}
