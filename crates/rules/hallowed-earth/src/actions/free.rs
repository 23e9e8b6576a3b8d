//! The Free action (HAL-R17): a short move, drawing or dropping a weapon, or speech, declared
//! before the creature's action and taken on its turn (`free`, `step`): whether it can be taken
//! now, what it costs the hurt, and the Free actions a creature may declare.
//!
//! The short move's way through the squares is a move's, so it is in `moves`; what makes it a
//! Free action (declared, not yet taken, the Dying's limit) is here.

use super::hurt::{acting_costs, dying_may_act, pay_strain};
use super::weapons::weapon_usable;
use super::{Cx1, no};
use crate::command::Command;
use crate::data::Hand;
use crate::options::Speech;
use crate::setup::Cid;
use crate::state::{Cap, Conditions, Event, Free, State, Turn};
use crate::{HallowedEarth, codes};
use fray_engine::{Answer, EngineError, Reject};
use fray_space::Pos;

/// How far a short move goes, in squares (`free-move`, HAL-R17).
pub fn short_move(s: &State) -> u32 {
    s.options.squares(s.options.free_move)
}

/// Whether `who` could take the Free action `f` now, as far as its weapons, speech and state go
/// (HAL-R17, HAL-R29, HAL-R30).
pub fn free_ok(s: &State, who: Cid, f: Free) -> Result<(), Reject> {
    let me = s.ch(who);
    let o = &s.options;
    let weapon = |w: u8| match s.stats(who).weapons.get(usize::from(w)) {
        None => Err(no(codes::NO_WEAPON, format!("{} has no weapon #{w}", me.name))),
        Some(_) if me.thrown & (1 << (w & 15)) != 0 => {
            Err(no(codes::NO_WEAPON, format!("{} has thrown it away", me.name)))
        }
        Some(x) if x.hand == Hand::Natural => Err(no(
            codes::NO_WEAPON,
            format!("{}'s {} is part of it: never drawn or dropped", me.name, x.name),
        )),
        Some(x) => Ok(x),
    };
    match f {
        Free::Step => {
            if short_move(s) == 0 {
                return Err(no(codes::CANNOT_ACT, "free-move is 0: there is no short move"));
            }
            // HAL-R29, HAL-R30: the Incapacitated and the Dying only crawl.
            if matches!(s.cap_now(who), Cap::Incapacitated | Cap::Dying | Cap::Out) {
                return Err(no(
                    codes::CANNOT_MOVE,
                    format!("{} can only crawl: no short move", me.name),
                ));
            }
            Ok(())
        }
        Free::Draw { weapon: w } => {
            let x = weapon(w)?;
            if me.away & (1 << (w & 15)) == 0 {
                return Err(no(
                    codes::NO_WEAPON,
                    format!("{}'s {} is in hand already", me.name, x.name),
                ));
            }
            // An injured arm cannot take it up either.
            weapon_usable(s, who, w, Some(w)).map(drop)
        }
        Free::Drop { weapon: w } => {
            let x = weapon(w)?;
            if me.away & (1 << (w & 15)) != 0 {
                return Err(no(codes::NO_WEAPON, format!("{}'s {} is not in hand", me.name, x.name)));
            }
            Ok(())
        }
        Free::Speak => {
            if o.speech == Speech::NotAnAction {
                return Err(no(
                    codes::CANNOT_ACT,
                    "speaking is not an action (speech = \"not-an-action\"): just speak",
                ));
            }
            if me.has(Conditions::MUTE) {
                return Err(no(codes::CANNOT_SPEAK, format!("{} cannot speak", me.name)));
            }
            Ok(())
        }
    }
}

/// Whether the turn's declared Free action can be taken now (`free`, or `step` for a short
/// move): declared, not yet taken, and within the limits of the Dying (HAL-R30: one action of
/// any kind, not both move and act; speech is no action).
pub fn free_now(s: &State, t: &Turn, step: bool) -> Result<Free, Reject> {
    let me = s.ch(t.who);
    let Some(f) = s.acts[usize::from(t.act)].free else {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} declared no free action for this turn", me.name),
        ));
    };
    if t.freed {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} has taken its free action this turn", me.name),
        ));
    }
    if step != (f == Free::Step) {
        return Err(no(
            codes::CANNOT_ACT,
            if step {
                "the free action declared is not a short move: free"
            } else {
                "the free action declared is a short move: step <x,y>"
            },
        ));
    }
    if f.is_action() {
        dying_may_act(s, t)?;
    }
    free_ok(s, t.who, f)?;
    Ok(f)
}

/// A Free action is taken (HAL-R17). Speech costs nothing (HAL-R29); any other Free action is
/// an action for the costs of acting hurt: a Wound Point for the Incapacitated and the Dying
/// (HAL-R29, HAL-R30), and for the Stabilized beyond their first action of the round (HAL-R33;
/// each cost untyped Wound Point damage, HAL-R43).
pub(crate) fn take_free(cx: Cx1<'_, '_>, who: Cid, free: Free, to: Option<Pos>) -> Result<(), EngineError> {
    let cost = free.is_action() && acting_costs(&cx.s, who);
    cx.emit(Event::Free { who, free, to });
    pay_strain(cx, who, cost);
    Ok(())
}

/// The Free actions `who` may declare before its action, in their fixed order (short move, each
/// draw, each drop, speech); `push` keeps those the check accepts.
pub(crate) fn list_declarations(
    s: &State,
    who: Cid,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    let n = s.stats(who).weapons.len() as u8;
    push(out, Command::DeclareFree { who, free: Free::Step });
    let draws = (0..n).map(|weapon| Free::Draw { weapon });
    let drops = (0..n).map(|weapon| Free::Drop { weapon });
    for free in draws.chain(drops) {
        push(out, Command::DeclareFree { who, free });
    }
    push(out, Command::DeclareFree { who, free: Free::Speak });
}
