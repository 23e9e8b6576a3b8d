//! Influence (MUR-R8): distracting, intimidating and taunting, checked (a main action on a
//! visible character) and resolved (the target's WIT save, waived by the GM's overwhelm or
//! the `influence-save` option; the fearless are not frightened), with its legal list; and
//! what a taunt forbids its target this turn.

use crate::Murdham;
use crate::actions::attack::visible;
use crate::actions::{Offer, Plan, main_left, no, reveal};
use crate::codes;
use crate::command::{Aim, Command};
use crate::data::Ability;
use crate::place::Place;
use crate::roll::{Res, save};
use crate::setup::Cid;
use crate::state::{Condition, Event, Influence, State, Turn, Why};
use fray_engine::{Cx, Reject};

/// Refused when `who` is taunted and `c` does not try to harm the taunter.
pub fn taunted(s: &State, who: Cid, c: &Command) -> Result<(), Reject> {
    let me = s.ch(who);
    let zones = &s.setup.zones;
    // MUR-R8: a taunted character spends this turn only on trying to harm the taunter: moving
    // no farther from it, readying, reloading and attacking it.
    if let Some(x) = me.taunted_by
        && s.ch(x).up()
    {
        let ok = match c {
            Command::Move { to, .. } => {
                let d = |p: Place| p.range(s.ch(x).at, zones).unwrap_or(u8::MAX);
                d(*to) <= d(me.at)
            }
            Command::Attack { aim: Aim::At(t), .. } => *t == x,
            Command::Attack { .. } | Command::Influence { .. } | Command::Shove { .. } | Command::Throw { .. } => false,
            Command::Free(_) | Command::Use { .. } | Command::Drop(_) | Command::PickUp(_) => false,
            Command::Interact { .. } | Command::Say(_) | Command::Surrender | Command::Cover => false,
            _ => true,
        };
        if !ok {
            return Err(no(
                codes::CONDITION,
                format!(
                    "{} is taunted by {}: this turn it may only try to harm it",
                    me.name,
                    s.ch(x).name
                ),
            ));
        }
    }
    Ok(())
}

/// The check of an influence on `target` in `t`: a main action on a visible character who is
/// up (a taunted character influences only the taunter).
pub fn check(s: &State, t: &Turn, kind: Influence, target: Cid) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    main_left(t)?;
    let ok = s
        .chars
        .get(target as usize)
        .is_some_and(|x| x.up() && target != who && visible(s, who, target));
    if !ok {
        return Err(no(codes::BAD_TARGET, "aim it at a character you can see who is up"));
    }
    if me.taunted_by.is_some_and(|x| x != target) {
        return Err(no(
            codes::CONDITION,
            format!("{} is taunted and may only try to harm the taunter", me.name),
        ));
    }
    let _ = kind;
    Ok(Plan::Plain)
}

/// The influences `who` may try in its turn, in the legal list's order.
pub fn legal(s: &State, offer: &mut dyn Offer) {
    for x in s.ids() {
        for kind in [Influence::Distract, Influence::Intimidate, Influence::Taunt] {
            offer.checked(Command::Influence { kind, target: x });
        }
    }
}

/// `who` tries to distract, intimidate or taunt `target`: the action, the noise it makes, then
/// the target's save ([`influence`]).
pub fn resolve(cx: &mut Cx<'_, Murdham>, who: Cid, kind: Influence, target: Cid) -> Res<()> {
    let verb = match kind {
        Influence::Distract => "tries to distract",
        Influence::Intimidate => "tries to intimidate",
        Influence::Taunt => "taunts",
    };
    cx.emit(Event::Acted {
        who,
        main: true,
        what: format!("{verb} {}", cx.s.ch(target).name),
    });
    reveal(cx, who);
    influence(cx, who, kind, target)?;
    Ok(())
}

/// Distract, intimidate or taunt (MUR-R8).
fn influence(cx: &mut Cx<'_, Murdham>, who: Cid, kind: Influence, target: Cid) -> Res<()> {
    let s = &*cx.s;
    let waived = s.ch(who).overwhelming || !s.options.influence_save;
    if s.ch(who).overwhelming {
        cx.emit(Event::Condition {
            who,
            condition: Condition::Overwhelming(false),
        });
    }
    let resisted = if waived {
        false
    } else {
        save(cx, target, Ability::Wit, Why::Influence)?
    };
    if resisted {
        return Ok(());
    }
    let s = &*cx.s;
    let condition = match kind {
        Influence::Distract => Condition::LosesTurn(Some(s.round_to_lose(target))),
        Influence::Intimidate => {
            if s.ch(target).stats.fearless() {
                return Ok(());
            }
            Condition::Frightened(Some(who))
        }
        Influence::Taunt => Condition::Taunted(Some(who)),
    };
    cx.emit(Event::Condition { who: target, condition });
    Ok(())
}
