//! GM rulings: the GM's corrections outside the rules (set or adjust a gauge, move, add, remove,
//! end the combat), from check to resolution. The rules cited at the code here: THR-R19,
//! THR-R172, THR-R177.
//!
//! A ruling is no stage: it is accepted whatever the game waits for, once its check (a known
//! combatant, side, square or value) passes, and resolved here; the turn flow then runs on. The
//! check and the resolution sit together because each ruling's check is about what its
//! resolution will touch.

use crate::ability::Cond;
use crate::actions::effects::remove;
use crate::actions::lines::incapacitate;
use crate::codes::{self, Say, no};
use crate::command::{Gauge, Ruling, ThrumRuling};
use crate::dice::roll2d6;
use crate::event::{Event, Removal, gauge};
use crate::flow::end::{end_combat, stop_check};
use crate::options::{DazedMode, InitiativeChange, JoinerTurn};
use crate::reach::can_stop;
use crate::setup::{CharInfo, Cid};
use crate::state::Cx;
use crate::state::status_on;
use crate::state::{Phase, State, StatusRef};
use fray_engine::{EngineError, Reject};

type R<T = ()> = Result<T, EngineError>;

pub(crate) fn check_ruling(s: &State, r: &Ruling, say: Say) -> Result<(), Reject> {
    let known = |c: Cid| (c as usize) < s.chars.len();
    match r {
        Ruling::Adjust { who, gauge, by } => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let v = by.apply(crate::event::gauge(s.ch(*who), *gauge));
            let min = match gauge {
                Gauge::FatigueTolerance | Gauge::StressTolerance => s.options.tolerance_floor,
                Gauge::Initiative => i16::MIN,
                _ => 0,
            };
            if v < min {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} cannot go below {min}", gauge.name())
                }));
            }
            if *gauge == Gauge::Wounds && v > 3 {
                return Err(no(say, codes::BAD_RULING, || "wounds go from 0 to 3"));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Status { who, status, by }) => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let old = if status_on(s, *who, *status) {
                match status {
                    StatusRef::X(x) => s.ch(*who).status(*x) as i16,
                    StatusRef::Cond(_) => 1,
                }
            } else {
                0
            };
            let v = by.apply(old);
            let max = if matches!(status, StatusRef::Cond(_)) { 1 } else { 255 };
            if !(0..=max).contains(&v) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} must end between 0 and {max}", status.name())
                }));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Incapacitate { who, on }) => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if s.ch(*who).incapacitated == *on {
                return Err(no(say, codes::BAD_RULING, || {
                    if *on {
                        "already Incapacitated"
                    } else {
                        "not Incapacitated"
                    }
                }));
            }
            Ok(())
        }
        Ruling::Move { who, to } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if !can_stop(s, *who, *to) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{to} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Add { id, template, side, at } => {
            if s.find(id).is_some()
                || id.is_empty()
                || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("'{id}' is taken or not a valid id")
                }));
            }
            if !s.setup.templates.contains_key(template) {
                let names: Vec<&str> = s.setup.templates.keys().map(String::as_str).collect();
                return Err(no(say, codes::BAD_RULING, || {
                    format!("no template '{template}' (templates: {})", names.join(", "))
                }));
            }
            if *side as usize >= s.setup.sides.len() {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            if s.chars.len() >= 64 {
                return Err(no(say, codes::BAD_RULING, || "at most 64 combatants"));
            }
            if s.setup.map.get(*at).is_none_or(|c| c.blocked) || s.occupant(*at).is_some() {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{at} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Remove { who } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            Ok(())
        }
        Ruling::End { winner } => {
            if winner.is_some_and(|w| w as usize >= s.setup.sides.len()) {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            Ok(())
        }
    }
}

pub(crate) fn ruling(cx: &mut Cx, r: &Ruling) -> R {
    match r {
        Ruling::Adjust { who, gauge: g, by } => {
            let old = gauge(cx.s.ch(*who), *g);
            let v = by.apply(old);
            if *g == Gauge::Initiative {
                let resort = cx.s.options.initiative_change == InitiativeChange::ResortNextRound;
                cx.emit(Event::InitiativeChanged {
                    who: *who,
                    delta: v - old,
                    resort,
                });
            } else {
                cx.emit(Event::Set {
                    who: *who,
                    gauge: *g,
                    value: v,
                });
            }
            if *g == Gauge::Fatigue && v == 0 && cx.s.ch(*who).incapacitated {
                cx.emit(Event::Revived { who: *who });
            }
            if *g == Gauge::Wounds && v >= 3 && !cx.s.ch(*who).removed {
                remove(cx, *who, Removal::Wounds);
            }
        }
        Ruling::Other(ThrumRuling::Status { who, status, by }) => match status {
            StatusRef::X(x) => {
                let v = by.apply(cx.s.ch(*who).status(*x) as i16).clamp(0, 255) as u8;
                cx.emit(Event::Status {
                    who: *who,
                    status: *x,
                    x: v,
                });
            }
            StatusRef::Cond(c) => {
                let on = by.apply(cx.s.ch(*who).has(*c) as i16) > 0;
                if *c == Cond::Dazed && on && cx.s.options.dazed == DazedMode::Status && cx.s.ch(*who).dazed_x == 0 {
                    cx.emit(Event::DazedX { who: *who, x: 1 });
                }
                cx.emit(Event::Condition {
                    who: *who,
                    cond: *c,
                    on,
                    by_use: 0,
                });
            }
        },
        Ruling::Other(ThrumRuling::Incapacitate { who, on: true }) => {
            let load = cx.s.ch(*who).fatigue;
            incapacitate(cx, *who);
            // THR-R172, THR-R177: the drop on becoming Incapacitated took a Load of 0 or 1 to 0,
            // which ends Incapacity at once; tell the GM why and how to keep it down.
            if !cx.s.ch(*who).incapacitated && cx.s.ch(*who).present() {
                cx.emit(Event::RevivedAtOnce { who: *who, load });
            }
        }
        Ruling::Other(ThrumRuling::Incapacitate { who, on: false }) => cx.emit(Event::Revived { who: *who }),
        Ruling::Move { who, to } => cx.emit(Event::Relocated { who: *who, to: *to }),
        Ruling::Add { id, template, side, at } => {
            let Some(t) = cx.s.setup.templates.get(template) else {
                return Ok(());
            };
            let sd = &cx.s.setup.sides[*side as usize];
            let info = CharInfo {
                id: id.clone(),
                name: if t.name.is_empty() {
                    id.clone()
                } else {
                    format!("{} ({id})", t.name)
                },
                side: *side,
                seat: sd.seat,
                start: Some(*at),
                ..t.clone()
            };
            let modifier = info.stats.initiative;
            let who = cx.s.chars.len() as Cid;
            cx.emit(Event::Joined {
                info: std::sync::Arc::new(info),
            });
            let name = cx.s.name(who).to_string();
            // THR-R19: a joiner rolls 2d6 + Initiative on arrival (`joiner-turn` says when it
            // first acts).
            let roll = roll2d6(cx, 0, modifier, &format_args!("{name}'s Initiative"))?;
            cx.emit(Event::InitiativeRolled { who, roll });
            let this_round = cx.s.options.joiner_turn == JoinerTurn::ThisRoundIfAhead && cx.s.phase == Phase::Rounds;
            cx.emit(Event::OrderJoined {
                who,
                key: roll.total,
                this_round,
            });
        }
        Ruling::Remove { who } => remove(cx, *who, Removal::Gm),
        Ruling::End { winner } => end_combat(cx, *winner, "gm-ended"),
    }
    stop_check(cx);
    Ok(())
}
