//! The GM's rulings: whether one can apply ([`ruling`]: adjusting health or a score, moving,
//! adding or removing a character, ending the fight, and Murdham's own, such as concealing,
//! hindering, penetration, frightening and the long chase), and what a ruling does by itself
//! once recorded ([`ruled`]: healing, the end of the fight with its wear, MUR-R48, and the
//! long chase's group AGI save, MUR-R47). GM rulings are no stage: they are accepted whatever
//! the game waits for.

use crate::Murdham;
use crate::actions::health::heal;
use crate::actions::no;
use crate::actions::wear::end_fight;
use crate::codes;
use crate::command::{OwnRuling, Pace, Ruling};
use crate::data::Ability;
use crate::roll::{Res, die};
use crate::setup::{Cid, MAX_COMBATANTS};
use crate::state::{Event, State, Status, Why};
use fray_engine::encounter::is_word;
use fray_engine::gm::Ruling as R;
use fray_engine::{Cx, Reject};

/// Whether a GM ruling can apply.
pub(crate) fn ruling(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let there = |w: &Cid| match s.chars.get(*w as usize) {
        Some(c) if matches!(c.status, Status::Dead | Status::Fled | Status::Banished) => {
            bad(format!("{} has left the fight", c.name))
        }
        Some(_) => Ok(()),
        None => bad(format!("no character #{w}")),
    };
    match r {
        R::Adjust { who, gauge, by } => {
            there(who)?;
            let c = s.ch(*who);
            match gauge {
                crate::command::Gauge::Health => {
                    let v = i32::from(by.apply(c.health.clamp(-999, 999) as i16));
                    if !(1..=c.stats.max_health()).contains(&v) {
                        return bad(format!(
                            "health would be {v}: set it within 1..={} (damage goes through the rules)",
                            c.stats.max_health()
                        ));
                    }
                    if !c.up() {
                        return bad(format!("{} is out of the fight: heal it instead", c.name));
                    }
                    Ok(())
                }
                crate::command::Gauge::Ability(a) => {
                    let v = by.apply(i16::from(c.ability(*a)));
                    if !(1..=19).contains(&v) {
                        return bad(format!("{} would be {v}: scores are 1 to 19", a.word()));
                    }
                    Ok(())
                }
            }
        }
        R::Move { who, to } => {
            there(who)?;
            if !to.valid(&s.setup.zones) {
                return bad("no such place".into());
            }
            if s.crowd(*to, None) >= to.capacity() {
                return bad(format!("{} is full", to.describe(&s.setup.zones)));
            }
            if !s.frames.is_empty() {
                return bad("finish the attack or step under way first".into());
            }
            Ok(())
        }
        R::Add { id, template, side, at } => {
            if !is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                bad(format!(
                    "no template '{template}'{}",
                    fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str))
                ))
            } else if *side as usize >= s.setup.sides.len()
                || !at.valid(&s.setup.zones)
                || s.crowd(*at, None) >= at.capacity()
                || s.chars.len() >= MAX_COMBATANTS
            {
                bad(format!(
                    "no room for '{id}' there (or no such faction, or {MAX_COMBATANTS} characters already)"
                ))
            } else {
                Ok(())
            }
        }
        R::Remove { who } => {
            there(who)?;
            if !s.frames.is_empty() {
                return bad("finish the attack or step under way first".into());
            }
            Ok(())
        }
        R::End { winner: Some(w) } if *w as usize >= s.setup.sides.len() => bad(format!("no faction #{w}")),
        R::End { .. } => Ok(()),
        R::Other(o) => match *o {
            OwnRuling::Conceal { who, .. }
            | OwnRuling::Hinder { who }
            | OwnRuling::Penetrate { who }
            | OwnRuling::Overwhelm { who }
            | OwnRuling::Calm { who }
            | OwnRuling::Poison { who, .. }
            | OwnRuling::Stun { who } => {
                there(&who)?;
                if !s.ch(who).up() {
                    return bad(format!("{} is not fighting", s.ch(who).name));
                }
                Ok(())
            }
            // Anyone still there may be hit, the defenceless too.
            OwnRuling::Enhance { who } | OwnRuling::Impair { who } => there(&who),
            OwnRuling::Frighten { who, of } => {
                there(&who)?;
                there(&of)?;
                if who == of {
                    return bad("nobody is frightened of itself".into());
                }
                Ok(())
            }
            OwnRuling::Heal { who, amount } => {
                there(&who)?;
                if amount == 0 {
                    return bad("heal at least 1".into());
                }
                Ok(())
            }
            OwnRuling::Chase { side, .. } => {
                if side as usize >= s.setup.sides.len() {
                    return bad("no such faction".into());
                }
                if !s.frames.is_empty() || s.turn.is_some() {
                    return bad("a long chase is ruled between turns".into());
                }
                if !s.chars.iter().any(|c| c.side == side && c.up()) {
                    return bad("nobody of that faction is left to flee".into());
                }
                Ok(())
            }
        },
    }
}

/// The automatic part of a GM ruling, after the `Ruled` event.
pub(crate) fn ruled(cx: &mut Cx<'_, Murdham>, r: &crate::command::Ruling) -> Res<()> {
    match r {
        R::Other(OwnRuling::Heal { who, amount }) => heal(cx, *who, i32::from(*amount))?,
        // MUR-R48: a fight the GM ends still wears the gear.
        R::End { winner } => end_fight(cx, *winner, "gm-ended")?,
        R::Other(OwnRuling::Chase { side, pace }) => {
            let fleeing: Vec<Cid> =
                cx.s.ids()
                    .filter(|&c| cx.s.ch(c).side == *side && cx.s.ch(c).up())
                    .collect();
            match pace {
                Pace::Faster => {
                    for c in fleeing {
                        cx.emit(Event::Gave {
                            who: c,
                            status: Status::Fled,
                        });
                    }
                }
                Pace::Slower => {}
                Pace::Even => {
                    // MUR-R47: one group AGI save; who passes gets away.
                    let roll = die(cx, 20, fleeing[0], "long chase (group AGI save)")?;
                    let members: Vec<(Cid, u8, bool)> = fleeing
                        .iter()
                        .map(|&c| {
                            let agi = cx.s.ch(c).ability(Ability::Agi);
                            (c, agi, roll <= u16::from(agi))
                        })
                        .collect();
                    cx.emit(Event::GroupSave {
                        roll,
                        members: members.clone(),
                        why: Why::Chase,
                    });
                    for (c, _, pass) in members {
                        if pass {
                            cx.emit(Event::Gave {
                                who: c,
                                status: Status::Fled,
                            });
                        }
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}
