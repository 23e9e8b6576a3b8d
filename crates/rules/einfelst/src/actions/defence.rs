//! Defence (EIN-R7, EIN-R19, EIN-R25, EIN-R27, EIN-R31, EIN-R39, EIN-H10, EIN-H14, EIN-H16,
//! EIN-H18): the reaction the target of an attack declares before the roll (dodge, parry,
//! break free, resist, or pass), the Action it defends with, and the card swap a defender who
//! beat the attack may take.
//!
//! [`defence_ok`] is the one verdict on a reaction: the reaction decision's check, whether the
//! decision is asked at all ([`can_defend`]), and the text's list of what the target may do all
//! call it, so they cannot disagree.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::data::Action;
use crate::plan::{Pay, Plan, Say, no, not_checked, not_now, paid};
use crate::setup::Cid;
use crate::state::{AttackFrame, AttackKind, Card, Event, Frame, State};
use fray_engine::{Cx, EngineError, Reject};

use super::manoeuvres::{reaction, spend};

/// The Action a creature parries with (EIN-R25): Strike with a close-combat weapon in hand,
/// Force without one, and a natural weapon's own Action.
pub fn parry_action(s: &State, who: Cid) -> Action {
    match s.ch(who).wield.and_then(|w| s.weapon(w)) {
        Some(w) if w.melee() => w.close_action(),
        _ => Action::Force,
    }
}

/// Whether the target may answer an attack with any reaction but `pass`.
pub fn can_defend(s: &State, a: &AttackFrame) -> bool {
    use crate::state::Defence as D;
    [D::Dodge, D::Parry, D::BreakFree, D::Resist]
        .into_iter()
        .any(|d| defence_in(s, a, d, Say::Code).is_ok())
}

/// Whether the target may answer an attack with this reaction (EIN-R25, EIN-R27, EIN-H14,
/// EIN-H16), and what pays it (nothing pays `pass`); a refusal says why.
pub fn defence_ok(s: &State, a: &AttackFrame, d: crate::state::Defence) -> Result<Option<Pay>, Reject> {
    defence_in(s, a, d, Say::Sentence)
}

/// [`defence_ok`], saying why it refuses as `say` asks.
fn defence_in(s: &State, a: &AttackFrame, d: crate::state::Defence, say: Say) -> Result<Option<Pay>, Reject> {
    use crate::state::Defence as D;
    if d == D::None {
        return Ok(None);
    }
    let t = s.ch(a.target);
    if t.out() {
        return Err(no(say, codes::NO_MANEUVER, || {
            format!("{} is out of the fight", t.name)
        }));
    }
    if t.fire.is_some() {
        // EIN-R39.
        return Err(no(say, codes::NO_MANEUVER, || {
            format!("{} is on fire: a burning creature cannot react (EIN-R39)", t.name)
        }));
    }
    let pay = reaction(s, a.target, say)?;
    let restrained = t.held_by.is_some();
    fn bad(say: Say, why: impl FnOnce() -> String) -> Result<(), Reject> {
        Err(no(say, codes::BAD_REACTION, why))
    }
    let what = match a.kind {
        AttackKind::Shoot => "a shot or a throw",
        AttackKind::Cast(_) => "a spell",
        AttackKind::Grapple => "a grapple",
        _ => "close combat",
    };
    let verdict: Result<(), Reject> = match (d, a.kind) {
        (D::BreakFree, AttackKind::Grapple) => Ok(()),
        (D::BreakFree, _) => bad(say, || format!("break-free answers a grapple, and this is {what}")),
        (_, AttackKind::Grapple) => bad(say, || {
            "a grapple is answered with break-free, or pass (EIN-R27)".into()
        }),
        // EIN-H10: the restrained may parry, nothing else.
        (D::Resist, AttackKind::Cast(_)) if restrained => bad(say, || {
            format!(
                "{} is restrained: it may parry, but not resist a spell (EIN-H10)",
                t.name
            )
        }),
        (D::Resist, AttackKind::Cast(_)) => Ok(()),
        (D::Resist, _) => bad(say, || format!("resist answers a spell, and this is {what}")),
        (_, AttackKind::Cast(_)) => bad(say, || {
            "a spell is resisted (resist), not dodged or parried (EIN-H16)".into()
        }),
        // EIN-R25, EIN-R31, EIN-H10: parry answers close combat, the restrained too.
        (D::Parry, k) if k.melee() => Ok(()),
        (D::Parry, _) => bad(say, || format!("{what} cannot be parried: dodge it (EIN-R25)")),
        (D::Dodge, _) if restrained => bad(say, || {
            format!("{} is restrained: it may parry, but not dodge (EIN-H10)", t.name)
        }),
        (D::Dodge, k) if k.melee() && !s.options.dodge_melee => bad(say, || {
            "close combat is parried, not dodged (EIN-R25, EIN-H14: the dodge-melee option is off)".into()
        }),
        (D::Dodge, _) => Ok(()),
        (D::None, _) => Ok(()),
    };
    verdict.map(|()| Some(pay))
}

/// A reaction to the attack on top of the stack, and what pays it (nothing pays `pass`).
pub(crate) fn check_reaction(s: &State, c: &Command, say: Say) -> Result<Plan, Reject> {
    let attack = match s.frames.last() {
        Some(Frame::Attack(a)) => Some(a),
        _ => None,
    };
    let (Some(a), Some(d)) = (attack, c.defence()) else {
        return Err(not_now(say));
    };
    Ok(defence_in(s, a, d, say)?.map_or(Plan::Plain, Plan::Pay))
}

/// The reactions to an attack, `pass` last.
pub(crate) fn list_reactions(push: &mut impl FnMut(Command) -> bool) {
    for c in [
        Command::Dodge,
        Command::Parry,
        Command::BreakFree,
        Command::Resist,
        Command::Pass,
    ] {
        push(c);
    }
}

/// Resolves a reaction: its manoeuvre is spent, and the attack frame keeps the defence
/// declared before the roll.
pub(crate) fn resolve_reaction(
    cx: &mut Cx<'_, Einfelst>,
    a: AttackFrame,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    let d = c.defence().ok_or_else(|| not_checked(c))?;
    if d != crate::state::Defence::None {
        spend(cx, a.target, paid(plan, c)?, true);
    }
    cx.update(Frame::Attack(AttackFrame { defence: Some(d), ..a }));
    Ok(())
}

/// Whether the defender beat the attack and may swap cards (EIN-R7, EIN-H18).
pub fn defender_may_swap(s: &State, a: &AttackFrame) -> bool {
    let Some((att, def)) = a.rolled else { return false };
    let defended = matches!(
        a.defence,
        Some(crate::state::Defence::Dodge | crate::state::Defence::Parry)
    );
    defended
        && def > att
        && !s.ch(a.by).out()
        && !s.ch(a.target).out()
        && !s.ch(a.by).cards.is_empty()
        && !s.ch(a.target).cards.is_empty()
}

/// A `swap` answer (EIN-R7): one of the attacker's cards, then one of the defender's.
pub(crate) fn check_swap(s: &State, by: Cid, target: Cid, take: &Card, give: &Card, say: Say) -> Result<Plan, Reject> {
    if s.ch(by).cards.cards().contains(take) && s.ch(target).cards.cards().contains(give) && take != give {
        Ok(Plan::Plain)
    } else {
        Err(no(
            say,
            codes::BAD_CARD,
            || "swap <card> <card>: one of the attacker's cards, then one of the defender's (EIN-R7)",
        ))
    }
}

/// Every swap the defender may take, then `pass`.
pub(crate) fn list_swaps(s: &State, by: Cid, target: Cid, push: &mut impl FnMut(Command) -> bool) {
    for &take in s.ch(by).cards.cards() {
        for &give in s.ch(target).cards.cards() {
            push(Command::Swap(take, give));
        }
    }
    push(Command::Pass);
}

/// Resolves the defender's answer: the swap taken, if any, and the attack frame keeps it.
pub(crate) fn resolve_swap(cx: &mut Cx<'_, Einfelst>, a: AttackFrame, c: &Command) {
    let taken = match c {
        Command::Swap(take, give) => Some((*take, *give)),
        _ => None,
    };
    if let Some((card_a, card_b)) = taken {
        // EIN-R7: the defender takes one of the attacker's cards for one of its own.
        cx.emit(Event::Swapped {
            a: a.by,
            card_a,
            b: a.target,
            card_b,
            forced: true,
        });
    }
    cx.update(Frame::Attack(AttackFrame {
        defender_swap: Some(taken.map_or(crate::state::SwapAnswer::Declined, |x| {
            crate::state::SwapAnswer::Took(x.0)
        })),
        ..a
    }));
}
