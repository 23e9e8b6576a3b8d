//! What the game waits for: the pending decision as a typed value, decided in one place.
//!
//! [`stage`] reads the frame on top of the stack (an attack's step, a step of movement, the
//! morale choices), else the opening, the turn under way or the faction whose opportunity it
//! is, once; `Ruleset::pending` is built from it, and the check, the legal list and the
//! resolver are handed it and match on it instead of working out again which decision is open.
//! The seats asked come from the state as before ([`Stage::seats`]): a faction's opportunity
//! and the opening may ask several seats at once. GM rulings are no stage: they are accepted
//! whatever the game waits for.

use crate::resolve::{faction_to_pick, openers, seats_asked};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Frame, State, Turn};
use fray_engine::{Pending, Seat, Seats};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The GM approves or vetoes the stunt `by` proposes against `target` (MUR-R32).
    StuntApproval {
        /// The attacker proposing the stunt.
        by: Cid,
        /// Its target.
        target: Cid,
    },
    /// The target of a stunt accepts or refuses it (MUR-R32).
    Stunt {
        /// The target asked.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// The target of an attack takes it, dodges, counters or hides behind someone (MUR-R19).
    Reaction {
        /// The target reacting.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// A character near the target may guard it, or declines (MUR-R24).
    Guard {
        /// The character asked.
        guard: Cid,
        /// The target it would guard.
        target: Cid,
    },
    /// A character the target would hide behind agrees to stand in, or declines (MUR-R23).
    StandIn {
        /// The character asked.
        who: Cid,
        /// The target hiding.
        hider: Cid,
    },
    /// An enemy of a moving character makes an opportunity attack, or declines (MUR-R25).
    Opportunity {
        /// The enemy asked.
        foe: Cid,
        /// The mover.
        mover: Cid,
    },
    /// A character who failed morale surrenders or retreats (MUR-R44).
    Morale {
        /// The first of those still to choose.
        who: Cid,
    },
    /// The faction holding the initiative chooses which faction acts first (MUR-R6).
    Open {
        /// The faction holding the initiative.
        side: u8,
    },
    /// A character's turn: its actions and movement left (MUR-R7).
    Turn {
        /// The turn.
        turn: Turn,
    },
    /// A faction's opportunity: give the turn to one of its characters, or pass (MUR-R1).
    Faction {
        /// The faction.
        side: u8,
    },
}

impl Stage {
    /// The kind of decision, as `Pending.kind` gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            Stage::StuntApproval { .. } => "stunt-approval",
            Stage::Stunt { .. } => "stunt",
            Stage::Reaction { .. } => "reaction",
            Stage::Guard { .. } => "guard",
            Stage::StandIn { .. } => "stand-in",
            Stage::Opportunity { .. } => "opportunity",
            Stage::Morale { .. } => "morale",
            Stage::Open { .. } => "open",
            Stage::Turn { .. } => "turn",
            Stage::Faction { .. } => "faction",
        }
    }

    /// The character the decision is about (none for the opening and a faction's opportunity;
    /// the attacker for a stunt's approval).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::StuntApproval { by, .. } => Some(by),
            Stage::Stunt { target, .. } | Stage::Reaction { target, .. } => Some(target),
            Stage::Guard { guard, .. } => Some(guard),
            Stage::StandIn { who, .. } | Stage::Morale { who } => Some(who),
            Stage::Opportunity { foe, .. } => Some(foe),
            Stage::Turn { turn } => Some(turn.who),
            Stage::Open { .. } | Stage::Faction { .. } => None,
        }
    }

    /// Whether the decision answers the attack on top of the stack ([`attack`]).
    pub fn of_attack(&self) -> bool {
        matches!(
            self,
            Stage::StuntApproval { .. }
                | Stage::Stunt { .. }
                | Stage::Reaction { .. }
                | Stage::Guard { .. }
                | Stage::StandIn { .. }
        )
    }

    /// The seats asked: the GM for a stunt's approval (MUR-R32); for the opening every seat
    /// with a character of the initiative faction still fighting ([`openers`]); for a
    /// faction's opportunity every seat of it with a character able to take a turn that has not
    /// passed ([`seats_asked`]); else the seat that plays the character ([`State::seat_of`]).
    pub fn seats(&self, s: &State) -> Seats {
        match *self {
            Stage::StuntApproval { .. } => Seats::one(Seat::GM),
            Stage::Open { .. } => openers(s),
            Stage::Faction { side } => seats_asked(s, side),
            Stage::Stunt { target: c, .. }
            | Stage::Reaction { target: c, .. }
            | Stage::Guard { guard: c, .. }
            | Stage::StandIn { who: c, .. }
            | Stage::Morale { who: c }
            | Stage::Opportunity { foe: c, .. } => Seats::one(s.seat_of(c)),
            Stage::Turn { turn } => Seats::one(s.seat_of(turn.who)),
        }
    }

    /// The pending decision the engine is told about.
    pub fn pending(&self, s: &State) -> Pending {
        Pending {
            seats: self.seats(s),
            kind: self.kind(),
            actor: self.actor(),
        }
    }
}

/// The decision the game waits for now: `None` once the combat is over, and while the attack
/// on top of the stack asks nobody (its aim and its landing are rolled without a decision).
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) => match a.stage {
                AttackStage::Approve => Some(Stage::StuntApproval {
                    by: a.by,
                    target: a.target,
                }),
                AttackStage::Answer => Some(Stage::Stunt {
                    target: a.target,
                    by: a.by,
                }),
                AttackStage::React => Some(Stage::Reaction {
                    target: a.target,
                    by: a.by,
                }),
                AttackStage::Guard { next } => Some(Stage::Guard {
                    guard: next,
                    target: a.target,
                }),
                AttackStage::Agree { who } => Some(Stage::StandIn { who, hider: a.target }),
                AttackStage::Aim | AttackStage::Land => None,
            },
            Frame::Step(st) => Some(Stage::Opportunity {
                foe: st.next,
                mover: st.who,
            }),
            Frame::Morale { who } => who.first().map(|&who| Stage::Morale { who }),
        };
    }
    if s.opening {
        return Some(Stage::Open { side: s.initiative });
    }
    if let Some(t) = &s.turn {
        return Some(Stage::Turn { turn: *t });
    }
    faction_to_pick(s).map(|side| Stage::Faction { side })
}

/// The attack on top of the stack: what a stunt's approval and answer, a guard, a stand-in
/// and a reaction are about (its weapon, blast, surprise and what has been asked already).
pub fn attack(s: &State) -> Option<&Attack> {
    match s.frames.last() {
        Some(Frame::Attack(a)) => Some(a),
        _ => None,
    }
}
