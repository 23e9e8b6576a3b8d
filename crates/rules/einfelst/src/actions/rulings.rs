//! The Director's rulings (`gm ...`): their check (a ruling is accepted whatever the game waits
//! for, and its refusal always says why) and their resolution, including Einfelst's own: Fear,
//! fire, poison, falls (EIN-R43, EIN-H5, EIN-H29), deprivation, circumstances, and a
//! creature joining mid-fight (EIN-H12).
//!
//! Rulings are no stage: both dispatchers send them here before they look at the decision
//! asked. The hazards a ruling starts are the same functions the fight itself calls
//! (`actions::hazards`, `actions::harm`), so a ruled fire burns as a fire from a weapon does.

use crate::Einfelst;
use crate::codes;
use crate::command::{Own, Ruling};
use crate::data::Action;
use crate::plan::{Say, no};
use crate::setup::{Cid, MAX_COMBATANTS};
use crate::state::{Event, RoundStage, State};
use fray_engine::gm::Ruling as R;
use fray_engine::{Cx, EngineError, Reject};
use fray_space::ZoneId;

use super::cards::draw;
use super::harm::harm;
use super::hazards::{fear, ignite, poison};
use super::roll::{Kind, raw, test};

pub(crate) fn check(s: &State, r: &Ruling) -> Result<(), Reject> {
    // A ruling's refusal always says why: rulings are never listed.
    let bad = |m: String| Err(no(Say::Sentence, codes::BAD_RULING, || m));
    let live = |w: &Cid| match s.chars.get(*w as usize) {
        Some(c) if c.out() => bad(format!("{} is out of the fight", c.name)),
        Some(_) => Ok(()),
        None => bad(format!("no creature #{w}")),
    };
    let any = |w: &Cid| match s.chars.get(*w as usize) {
        Some(_) => Ok(()),
        None => bad(format!("no creature #{w}")),
    };
    let zone = |z: &ZoneId| {
        if z.index() < s.setup.zones.len() {
            Ok(())
        } else {
            bad(format!("no zone #{}", z.get()))
        }
    };
    match r {
        R::Adjust { who, by, .. } => {
            any(who)?;
            if s.ch(*who).status == crate::state::Status::Fled {
                return bad("a creature that fled is gone".into());
            }
            match by.apply(0) {
                v if (-20..=20).contains(&v) => Ok(()),
                v => bad(format!("{v} is out of range")),
            }
        }
        R::Move { who, to } => {
            live(who)?;
            zone(to)
        }
        R::Add { id, template, side, at } => {
            if !fray_engine::encounter::is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                let hint = fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str));
                bad(format!("no template '{template}'{hint}"))
            } else if *side as usize >= s.setup.sides.len() || s.chars.len() >= MAX_COMBATANTS {
                bad(format!("no side #{side}, or {MAX_COMBATANTS} creatures already"))
            } else {
                zone(at)
            }
        }
        R::Remove { who } => live(who),
        R::End { winner: Some(w) } if *w as usize >= s.setup.sides.len() => bad(format!("no side #{w}")),
        R::End { .. } => Ok(()),
        R::Other(o) => match o {
            Own::Fear { who, value, .. } => {
                live(who)?;
                if *value > 9 {
                    bad("a Fear value is 0 to 9".into())
                } else {
                    Ok(())
                }
            }
            Own::Ignite { who, intensity } => {
                live(who)?;
                if (1..=3).contains(intensity) {
                    Ok(())
                } else {
                    bad("a fire's intensity is 1 to 3 (EIN-H4)".into())
                }
            }
            Own::Poison { who, toxicity, .. } => {
                live(who)?;
                if (1..=30).contains(toxicity) {
                    Ok(())
                } else {
                    bad("toxicity is 1 to 30".into())
                }
            }
            Own::Fall { who, feet, .. } => {
                live(who)?;
                if *feet <= 150 {
                    Ok(())
                } else {
                    bad("a fall of at most 150 feet".into())
                }
            }
            Own::Douse { who }
            | Own::Antidote { who }
            | Own::Deprive { who, .. }
            | Own::Prone { who, .. }
            | Own::Release { who } => live(who),
            Own::Circumstance { name, zone: z, .. } => {
                if !s.setup.circumstances.contains_key(name) {
                    return bad(format!("no circumstance '{name}'"));
                }
                match z {
                    Some(z) => zone(z),
                    None => Ok(()),
                }
            }
        },
    }
}

/// Resolves a ruling: it is recorded, then what it does beyond its own event is done.
pub(crate) fn resolve(cx: &mut Cx<'_, Einfelst>, r: &Ruling) -> Result<(), EngineError> {
    cx.emit(Event::Ruled(r.clone()));
    match r {
        R::Other(o) => own(cx, o)?,
        // EIN-H12: a joiner draws from the cards left (or takes the highest value + 1) and
        // acts from the next round, when the order is dealt again.
        R::Add { .. } if cx.s.stage != RoundStage::Setup => {
            let who = (cx.s.chars.len() - 1) as Cid;
            for _ in 0..cx.s.stats(who).cards {
                let card = draw(cx, who)?;
                cx.emit(Event::Kept { who, card, back: None });
            }
        }
        _ => {}
    }
    Ok(())
}

fn own(cx: &mut Cx<'_, Einfelst>, o: &Own) -> Result<(), EngineError> {
    match o {
        Own::Fear { who, value, position } => {
            // EIN-R37: with no position named, the default one (Risky) decides the Harm.
            let p = position.unwrap_or(cx.s.options.default_position);
            fear(cx, *who, *value, p)
        }
        Own::Ignite { who, intensity } => ignite(cx, *who, *intensity),
        Own::Poison { who, toxicity, mental } => poison(cx, *who, *toxicity, *mental),
        Own::Fall { who, feet, hard } => {
            // EIN-R43, EIN-H5.
            let o = &cx.s.options;
            let dice = if *hard && *feet >= o.fall_min_feet {
                ((*feet / 5) as u32 * u32::from(o.fall_dice_per_5ft)).min(fray_dice::MAX_DICE as u32) as u8
            } else {
                0
            };
            cx.emit(Event::Fell {
                who: *who,
                feet: *feet,
                dice,
            });
            if dice > 0 {
                let d = raw(cx, dice, crate::state::Why::Impact, "the fall")?;
                let v = test(cx, *who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Fall, 0)?;
                // EIN-H29: a fall leaves it down.
                cx.emit(Event::Prone { who: *who, on: true });
                harm(cx, *who, false, d.saturating_sub(v))?;
            }
            Ok(())
        }
        Own::Deprive { who, mental } => {
            let got = test(
                cx,
                *who,
                Action::Endure,
                Kind::Hazard,
                1,
                crate::state::Why::Deprivation,
                0,
            )?;
            // EIN-R44: a failed Endure costs 1 Harm, on the track the Director picked.
            if got == 0 { harm(cx, *who, *mental, 1) } else { Ok(()) }
        }
        Own::Circumstance { name, on, zone } => {
            cx.emit(Event::Circumstance {
                name: name.clone(),
                zone: *zone,
                on: *on,
            });
            Ok(())
        }
        Own::Douse { .. } | Own::Antidote { .. } | Own::Prone { .. } | Own::Release { .. } => Ok(()),
    }
}
