//! What the game waits for: the pending decision as a typed value, worked out in one place.
//!
//! [`stage`] looks at the top of the resolution stack, or with an empty stack at the turn's
//! step, once; `Ruleset::pending` is built from it, and the check, the legal list and the
//! resolver are handed it and match on it rather than reading the stack top or the turn step
//! again to learn which decision is open. GM rulings are no stage: they are accepted whatever
//! the game waits for.

use crate::ability::AbilityId;
use crate::setup::Cid;
use crate::state::{FixedKind, Frame, Prompt, State, Step, UseStage};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A target of the ability use on top of the stack picks its defence (`defend`, or
    /// `defend ... with` its Buff).
    Defence {
        /// The target defending.
        defender: Cid,
        /// Who uses the ability.
        user: Cid,
        /// The ability it defends against.
        ability: AbilityId,
    },
    /// The trigger window on top of the stack asks a holder whether to use a triggered
    /// ability (`trigger`, or `pass`).
    Trigger {
        /// The holder asked.
        holder: Cid,
        /// The triggered ability asked about first (with `controller-orders-own-triggers`, the
        /// holder may use another of its own still on offer: see [`offered`]).
        ability: AbilityId,
    },
    /// A failed Panic or Incapacity Roll: reroll it with the roller's Buff, or `pass`.
    Reroll {
        /// Who rolled.
        who: Cid,
        /// Which roll.
        roll: FixedKind,
    },
    /// A move inside resolution (Interpose, a follow-up): `move` to a square, or `pass`.
    MovePrompt {
        /// Who may move.
        who: Cid,
        /// Squares of movement.
        budget: i16,
        /// The character the move must not end farther from, if any.
        toward: Option<Cid>,
    },
    /// A target already under a Buff is offered another: `accept` or `decline` (THR-R142).
    BuffReplace {
        /// The target.
        target: Cid,
        /// The new Buff's creator.
        creator: Cid,
        /// The new Buff's ability.
        ability: AbilityId,
    },
    /// A used-up Buff: its creator pays to `keep` it, or lets it end (`release`).
    Keep {
        /// The creator.
        creator: Cid,
        /// The Buff's bearer.
        target: Cid,
        /// The Stress to pay.
        cost: i16,
    },
    /// An upkeep Overexert: `keep` paying for it, or `release` it (THR-R135).
    Upkeep {
        /// The creator.
        creator: Cid,
        /// Index of the Terrain Effect in the state's list.
        effect: u8,
        /// The Stress to pay.
        cost: i16,
    },
    /// A slot has come up: `begin` the turn, or `delay` (THR-R13).
    Slot {
        /// Whose slot.
        who: Cid,
    },
    /// Round Zero: a PC picks its starting square (THR-R22).
    Place {
        /// Who places.
        who: Cid,
    },
    /// A turn's Move step (move, step, act, take a Stance or end), or the fresh allowance an
    /// Action granted (Dash: move, take a Stance or end; no Action).
    Turn {
        /// Whose turn.
        who: Cid,
        /// Whether this is the movement an Action granted (`Step::ActionMove`), after the
        /// Action.
        dash: bool,
    },
    /// The Stance step: take a Stance or end the turn.
    Stance {
        /// Whose turn.
        who: Cid,
    },
}

impl Stage {
    /// The kind of decision, as `Pending.kind` gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            Stage::Defence { .. } => "defence",
            Stage::Trigger { .. } => "trigger",
            Stage::Reroll { .. } => "reroll",
            Stage::MovePrompt { .. } => "move",
            Stage::BuffReplace { .. } => "buff",
            Stage::Keep { .. } => "keep",
            Stage::Upkeep { .. } => "upkeep",
            Stage::Slot { .. } => "slot",
            Stage::Place { .. } => "place",
            Stage::Turn { .. } => "turn",
            Stage::Stance { .. } => "stance",
        }
    }

    /// The combatant who decides (every Thrum decision has one).
    pub fn actor(&self) -> Option<Cid> {
        Some(match *self {
            Stage::Defence { defender, .. } => defender,
            Stage::Trigger { holder, .. } => holder,
            Stage::Reroll { who, .. } | Stage::MovePrompt { who, .. } => who,
            Stage::BuffReplace { target, .. } => target,
            Stage::Keep { creator, .. } | Stage::Upkeep { creator, .. } => creator,
            Stage::Slot { who } | Stage::Place { who } | Stage::Turn { who, .. } | Stage::Stance { who } => who,
        })
    }

    /// Whether the decision is asked inside resolution (a frame on the stack asks it), not by
    /// the turn.
    pub fn in_resolution(&self) -> bool {
        !matches!(
            self,
            Stage::Slot { .. } | Stage::Place { .. } | Stage::Turn { .. } | Stage::Stance { .. }
        )
    }
}

/// The decision the game waits for now: `None` once the combat is over, while the frame on top
/// of the stack asks nobody (an ability use between its decisions, a roll that did not fail, a
/// start of turn, a trigger window with nobody left to ask), or when the turn is over.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(top) = s.stack.last() {
        return match top {
            Frame::Use(u) if u.stage == UseStage::Defences => {
                u.targets.get(u.index as usize).map(|&defender| Stage::Defence {
                    defender,
                    user: u.user,
                    ability: u.ability,
                })
            }
            Frame::Window(w) => w
                .candidates
                .get(w.asked as usize)
                .map(|&(holder, ability)| Stage::Trigger { holder, ability }),
            Frame::Roll(r) if r.asking => Some(Stage::Reroll {
                who: r.who,
                roll: r.kind,
            }),
            Frame::Prompt(p) => Some(match *p {
                Prompt::Move { who, budget, toward } => Stage::MovePrompt { who, budget, toward },
                Prompt::BuffReplace {
                    target,
                    creator,
                    ability,
                } => Stage::BuffReplace {
                    target,
                    creator,
                    ability,
                },
                Prompt::BuffKeep { creator, target, cost } => Stage::Keep { creator, target, cost },
                Prompt::Upkeep { creator, effect, cost } => Stage::Upkeep { creator, effect, cost },
            }),
            Frame::Use(_) | Frame::Roll(_) | Frame::StartOfTurn { .. } => None,
        };
    }
    let who = s.turn.who;
    match s.turn.step {
        Step::Slot => Some(Stage::Slot { who }),
        Step::Place => Some(Stage::Place { who }),
        Step::Move => Some(Stage::Turn { who, dash: false }),
        Step::ActionMove => Some(Stage::Turn { who, dash: true }),
        Step::Stance => Some(Stage::Stance { who }),
        Step::Done => None,
    }
}

/// The triggered abilities the window on top of the stack still offers `holder` (a
/// [`Stage::Trigger`]'s holder): its candidates from the one being asked on, in asking order.
pub fn offered(s: &State, holder: Cid) -> impl Iterator<Item = AbilityId> + '_ {
    let rest = match s.stack.last() {
        Some(Frame::Window(w)) => w.candidates.get(w.asked as usize..).unwrap_or(&[]),
        _ => &[],
    };
    rest.iter().filter(move |(h, _)| *h == holder).map(|&(_, a)| a)
}

