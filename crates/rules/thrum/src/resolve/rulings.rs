//! GM rulings: the GM's corrections outside the rules (set or adjust a gauge, move, add, remove,
//! end the combat).

use super::effects::remove;
use super::end::{end_combat, stop_check};
use super::lines::incapacitate;
use super::roll2d6;
use super::{Cx, R};
use crate::ability::Cond;
use crate::command::{Gauge, Ruling, ThrumRuling};
use crate::event::{Event, Removal, gauge};
use crate::options::{DazedMode, InitiativeChange, JoinerTurn};
use crate::setup::{CharInfo, Cid};
use crate::state::{Phase, StatusRef};

pub(super) fn ruling(cx: &mut Cx, r: &Ruling) -> R {
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
