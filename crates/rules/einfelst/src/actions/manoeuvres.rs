//! Manoeuvres and what pays them (EIN-R16, EIN-R19): a turn's slow and fast manoeuvre on each
//! card, a fast one taken from the slow, a reaction paid from any card, and the spending.
//!
//! Every action's check asks here which allowance pays it (the [`Pay`] of its plan), and every
//! action's resolution spends that same allowance with [`spend`]: the one place that knows how
//! manoeuvres are counted, so the check and the resolution cannot count them differently.

use crate::Einfelst;
use crate::codes;
use crate::options::{AmbushBonusTarget, OpposingTiming};
use crate::plan::{Pay, Say, no};
use crate::setup::Cid;
use crate::state::{Event, State};
use fray_engine::{Cx, Reject};

/// How the turn's creature pays a slow manoeuvre (EIN-R16).
pub fn pay_slow(s: &State, who: Cid, n: u8) -> Option<Pay> {
    (s.ch(who).left[n as usize][0] > 0).then_some(Pay { n, slow: true })
}

/// How the turn's creature pays a fast manoeuvre: the fast one, else the slow one taken as a
/// fast one (EIN-R16).
pub fn pay_fast(s: &State, who: Cid, n: u8) -> Option<Pay> {
    let l = s.ch(who).left[n as usize];
    if l[1] > 0 {
        Some(Pay { n, slow: false })
    } else if l[0] > 0 {
        Some(Pay { n, slow: true })
    } else {
        None
    }
}

/// How a creature pays a reaction (EIN-R19): a fast manoeuvre of any of its cards (its turn's
/// card first, then in card order), else a slow one when `reaction-may-use-slow` allows.
pub fn pay_reaction(s: &State, who: Cid) -> Option<Pay> {
    let c = s.ch(who);
    let cards = c.cards.len().max(1) as u8;
    let mine = s.turn.filter(|t| t.who == who).map(|t| t.n);
    // The turn's own card first, then the others in card order; no allocation (hot path).
    let order = || mine.into_iter().chain((0..cards).filter(move |n| Some(*n) != mine));
    if let Some(n) = order().find(|&n| c.left[n as usize][1] > 0) {
        return Some(Pay { n, slow: false });
    }
    if s.options.reaction_may_use_slow
        && let Some(n) = order().find(|&n| c.left[n as usize][0] > 0)
    {
        return Some(Pay { n, slow: true });
    }
    None
}

/// Whether a creature may react at all now: in the fight, not burning (EIN-R39), with a
/// manoeuvre left (EIN-R19).
pub fn may_react(s: &State, who: Cid) -> bool {
    let c = s.ch(who);
    !c.out() && c.fire.is_none() && pay_reaction(s, who).is_some()
}

/// The slow manoeuvre that pays a turn's slow manoeuvre on card `n`, or why there is none.
pub(crate) fn slow(s: &State, who: Cid, n: u8, say: Say) -> Result<Pay, Reject> {
    pay_slow(s, who, n).ok_or_else(|| {
        no(say, codes::NO_MANEUVER, || {
            format!("{} has no slow manoeuvre left this round", s.ch(who).name)
        })
    })
}

/// The manoeuvre that pays a turn's fast manoeuvre on card `n`, or why there is none.
pub(crate) fn fast(s: &State, who: Cid, n: u8, say: Say) -> Result<Pay, Reject> {
    pay_fast(s, who, n).ok_or_else(|| {
        no(say, codes::NO_MANEUVER, || {
            format!("{} has no manoeuvre left this round", s.ch(who).name)
        })
    })
}

/// What pays a reaction of `who`, or why it has none (EIN-R19).
pub(crate) fn reaction(s: &State, who: Cid, say: Say) -> Result<Pay, Reject> {
    pay_reaction(s, who).ok_or_else(|| {
        no(say, codes::NO_MANEUVER, || {
            format!(
                "{} has no manoeuvre left this round to react with (EIN-R19)",
                s.ch(who).name
            )
        })
    })
}

/// Spends a manoeuvre; under `first-maneuver`, a manoeuvre without a test loses the ambush
/// bonus (EIN-H11).
pub(crate) fn spend(cx: &mut Cx<'_, Einfelst>, who: Cid, pay: Pay, tests: bool) {
    cx.emit(Event::Spent {
        who,
        n: pay.n,
        slow: pay.slow,
    });
    if !tests && cx.s.ch(who).ambush_bonus > 0 && cx.s.options.ambush_bonus_target == AmbushBonusTarget::FirstManeuver {
        cx.emit(Event::AmbushUsed { who });
    }
}

/// Whether a reaction that opposes a roll (a chase, a hold) is asked now: before the roll or
/// after it, as `opposing-reaction-timing` says (EIN-H26); `rolled` says whether the roll it
/// opposes is made.
pub(crate) fn opposing_asked(s: &State, rolled: bool) -> bool {
    let before = s.options.opposing_reaction_timing == OpposingTiming::BeforeRoll;
    before != rolled
}
