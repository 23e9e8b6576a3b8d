//! What the game waits for: the pending decision as a typed value, worked out in one place.
//!
//! [`stage`] reads the frame on top of the stack, or with an empty stack the part of the round
//! (`State::stage`, a [`RoundStage`]) and the turn, once; `Ruleset::pending` is built from it.

use crate::check;
use crate::resolve;
use crate::setup::Cid;
use crate::state::{Card, Frame, RoundStage, State};
use fray_engine::{Pending, Seats};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The target of the attack on top of the stack reacts (dodge, parry, break-free, resist)
    /// or passes (EIN-R19, EIN-R25).
    Reaction {
        /// The attacked creature.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// The defender beat the attack: it may take one of the attacker's cards for one of its own,
    /// or pass (EIN-R7).
    Swap {
        /// The defender.
        target: Cid,
        /// The attacker, whose cards it may take.
        by: Cid,
    },
    /// The attacker spends the attack's extra successes (with no extra success left to spend,
    /// every `spend` is refused as not asked now).
    ExtraSuccesses {
        /// The attacker.
        by: Cid,
        /// The attacked creature.
        target: Cid,
    },
    /// A foe in a fleer's zone is asked whether it chases (EIN-R33).
    Chase {
        /// The foe asked (`resolve::next_chaser`).
        chaser: Cid,
        /// The fleer.
        fleer: Cid,
    },
    /// The holder of a creature breaking free holds on or lets it try (EIN-R30).
    Hold {
        /// The holder.
        holder: Cid,
        /// The creature breaking free.
        breaker: Cid,
    },
    /// Harm is split into levels (EIN-R34).
    Harm {
        /// Who takes it.
        who: Cid,
        /// Mental Harm rather than Physical.
        mental: bool,
        /// How much.
        amount: u8,
    },
    /// A creature that drew two cards keeps one (EIN-H25).
    Card {
        /// Who drew them.
        who: Cid,
        /// The two cards.
        drawn: [Card; 2],
    },
    /// A failed test may be pushed, or accepted.
    Push {
        /// Who tested.
        who: Cid,
    },
    /// The swap stage of a round: the seats still deciding (`State::swapping`, several at
    /// once) propose swaps of cards or are ready (EIN-R5).
    CardSwaps,
    /// The seat of a group sharing a card picks which member acts on it now (EIN-R2).
    GroupTurn {
        /// The members it may pick, a bit per creature ([`check::group_choices`]).
        choices: u64,
    },
    /// A creature's turn, on its `n`-th card.
    Turn {
        /// Whose turn.
        who: Cid,
        /// The card the turn is on.
        n: u8,
    },
}

impl Stage {
    /// The kind of decision, as `Pending.kind` gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            Stage::Reaction { .. } => "reaction",
            Stage::Swap { .. } => "swap",
            Stage::ExtraSuccesses { .. } => "extra-successes",
            Stage::Chase { .. } => "chase",
            Stage::Hold { .. } => "hold",
            Stage::Harm { .. } => "harm",
            Stage::Card { .. } => "card",
            Stage::Push { .. } => "push",
            Stage::CardSwaps => "card-swaps",
            Stage::GroupTurn { .. } => "group-turn",
            Stage::Turn { .. } => "turn",
        }
    }

    /// The creature who decides: none for the swap stage (seats decide for their characters)
    /// or a group's pick (the group's seat decides which member).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Reaction { target, .. } | Stage::Swap { target, .. } => Some(target),
            Stage::ExtraSuccesses { by, .. } => Some(by),
            Stage::Chase { chaser, .. } => Some(chaser),
            Stage::Hold { holder, .. } => Some(holder),
            Stage::Harm { who, .. } | Stage::Card { who, .. } | Stage::Push { who } | Stage::Turn { who, .. } => {
                Some(who)
            }
            Stage::CardSwaps | Stage::GroupTurn { .. } => None,
        }
    }

    /// The seats that decide: the actor's; at the swap stage every seat still deciding; for a
    /// group's pick the group's seat (its members' seat, EIN-R2).
    pub fn seats(&self, s: &State) -> Seats {
        match *self {
            Stage::CardSwaps => s.swapping,
            Stage::GroupTurn { choices } => Seats::one(s.seat_of(choices.trailing_zeros() as Cid)),
            _ => self.actor().map_or(Seats::EMPTY, |who| Seats::one(s.seat_of(who))),
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

/// The decision the game waits for now: `None` once the combat is over, while the frame on top
/// of the stack asks nobody (a flight with no foe left to ask about a chase), at the swap stage
/// once every seat is done, or with no turn under way and no group's pick.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) if a.defence.is_none() => Some(Stage::Reaction {
                target: a.target,
                by: a.by,
            }),
            Frame::Attack(a) if a.defender_swap.is_none() && check::defender_may_swap(s, a) => Some(Stage::Swap {
                target: a.target,
                by: a.by,
            }),
            Frame::Attack(a) => Some(Stage::ExtraSuccesses {
                by: a.by,
                target: a.target,
            }),
            Frame::Flee(fl) => resolve::next_chaser(s, fl).map(|chaser| Stage::Chase { chaser, fleer: fl.who }),
            Frame::Break(b) => Some(Stage::Hold {
                holder: b.holder,
                breaker: b.who,
            }),
            Frame::Split(sp) => Some(Stage::Harm {
                who: sp.who,
                mental: sp.mental,
                amount: sp.amount,
            }),
            Frame::Keep(k) => Some(Stage::Card {
                who: k.who,
                drawn: k.drawn,
            }),
            Frame::Push(p) => Some(Stage::Push { who: p.who }),
        };
    }
    if s.stage == RoundStage::Swaps {
        return (!s.swapping.is_empty()).then_some(Stage::CardSwaps);
    }
    match s.turn {
        Some(t) => Some(Stage::Turn { who: t.who, n: t.n }),
        None => {
            // EIN-R2: the group's seat picks the member that acts now.
            let choices = check::group_choices(s);
            (choices != 0).then_some(Stage::GroupTurn { choices })
        }
    }
}
