//! The GM's rulings (`gm ...`): adjusting a gauge, moving, adding or removing a creature, ending
//! the combat, and Hallowed Earth's own (unaware, obvious outcome, blinded). They are no stage:
//! accepted whatever the game waits for, checked here, and applied by `state::apply`.

use super::{Cx1, no};
use crate::codes;
use crate::command::{Gauge, OwnRuling, Ruling};
use crate::data::STAT_LIMIT;
use crate::setup::{Cid, MAX_COMBATANTS};
use crate::state::{Conditions, Event, Phase, State};
use fray_engine::Reject;
use fray_engine::encounter::is_word;
use fray_engine::gm::Ruling as R;

/// Whether a GM ruling can be carried out: its creature in the combat, its numbers in bounds,
/// a newcomer's id, template and square free.
pub(crate) fn check(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let live = |w: &Cid| match s.chars.get(usize::from(*w)) {
        Some(c) if c.gone() => bad(format!("{} is out of the combat", c.name)),
        Some(_) => Ok(()),
        None => bad(format!("no combatant #{w}")),
    };
    match r {
        R::Adjust { who, gauge, by } => {
            live(who)?;
            let c = s.ch(*who);
            let (now, lo, hi) = match gauge {
                Gauge::Stress => (c.stress, 0, c.stress_max),
                Gauge::Wp => (c.wp, -STAT_LIMIT, s.wp_max(*who)),
                Gauge::Mana => (c.mana, 0, STAT_LIMIT),
            };
            match by.apply(now) {
                v if (lo..=hi).contains(&v) => Ok(()),
                v => bad(format!(
                    "{} would be {v}: it must stay within {lo}..={hi}",
                    gauge.name()
                )),
            }
        }
        R::Move { who, to } if s.open(*to) => live(who),
        R::Move { to, .. } => bad(format!("{to} is not an open square")),
        R::Add { id, template, side, at } => {
            if !is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                bad(format!(
                    "no template '{template}'{}",
                    fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str))
                ))
            } else if usize::from(*side) >= s.setup.sides.len() || !s.open(*at) || s.chars.len() >= MAX_COMBATANTS {
                bad(format!(
                    "no room for '{id}' on {at} (or no such side, or {MAX_COMBATANTS} combatants already)"
                ))
            } else if s.phase == Phase::Setup {
                bad("newcomers join once the first round has begun".into())
            } else {
                Ok(())
            }
        }
        R::Remove { who } => live(who),
        R::End { winner: Some(w) } if usize::from(*w) >= s.setup.sides.len() => bad(format!("no side #{w}")),
        R::End { .. } => Ok(()),
        R::Other(OwnRuling::Unaware(who)) => {
            live(who)?;
            let c = s.ch(*who);
            let fresh = c.arrived == s.round || s.round <= 1;
            if c.declared.is_some() || !fresh || c.has(Conditions::SURPRISED) {
                bad(format!(
                    "{} cannot be made unaware now: only a newcomer, or anyone in round 1, before declaring",
                    c.name
                ))
            } else {
                Ok(())
            }
        }
        R::Other(OwnRuling::Obvious(who)) => live(who),
        R::Other(OwnRuling::Blind(who)) => live(who),
    }
}

/// A GM ruling carried out: logged, and applied by `state::apply` like any event.
pub(crate) fn ruled(cx: Cx1<'_, '_>, r: &Ruling) {
    cx.emit(Event::Ruled(r.clone()));
}
