//! The GM's rulings: setting numbers, conditions and positions, adding and removing
//! combatants, changing objectives, the team order, or ending the combat.
//!
//! Rulings are no stage: they are checked and resolved whatever the game waits for. A changed
//! objective waits for the next round by default (ING-R67), and so does a new team order given
//! during a round (ING-R5 with `team-order = "gm-between-rounds"`). The decision behind this
//! module: a ruling's check and its resolution sit together, and what both read (the current
//! value of a number a ruling sets, whether a round is under way) is worked out once.

use crate::codes::{self, no};
use crate::command::Ruling;
use crate::event::Event;
use crate::options::{JoiningTeams, ObjectiveChanges, TeamOrderRule};
use crate::setup::Cid;
use crate::state::{Cx, R, State};
use fray_engine::{EngineError, Outcome, Reject};

use super::conscious::knock_out;
use super::known;

/// The current value of the number `what` of `c` that `gm set` changes, and its maximum.
fn gauge(s: &State, c: Cid, what: &str) -> (i16, i16) {
    let st = &s.info(c).stats;
    let ch = s.ch(c);
    match what {
        "health" => (ch.health, st.health),
        "endurance" => (ch.endurance, st.endurance),
        "stamina" => (ch.stamina, st.stamina),
        "focus" => (ch.focus, st.focus),
        _ => (ch.death_difficulty, 99),
    }
}

/// Whether a round is under way: a turn in progress, or someone has acted this round.
fn mid_round(s: &State) -> bool {
    s.turn.is_some() || s.ids().any(|c| s.order.has_acted(c))
}

/// The check of a ruling.
pub(crate) fn check(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let known = |c: Cid| known(s, c);
    let team_known = |t: u8| (t as usize) < s.setup.teams.len();
    match r {
        Ruling::Set(c, _, _)
        | Ruling::KnockOut(c)
        | Ruling::Revive(c)
        | Ruling::Kill(c)
        | Ruling::Remove(c)
        | Ruling::Durability(c, _, _)
            if !known(*c) =>
        {
            bad("no such combatant".into())
        }
        Ruling::Set(_, what, _)
            if !matches!(
                what.as_str(),
                "health" | "endurance" | "stamina" | "focus" | "death-difficulty"
            ) =>
        {
            bad(format!("cannot set '{what}'"))
        }
        Ruling::Add { team, .. } | Ruling::Objective(team, _) | Ruling::End(Some(team)) if !team_known(*team) => {
            bad("no such team".into())
        }
        Ruling::Objective(_, Some(crate::setup::Objective::Down { who }))
        | Ruling::Objective(_, Some(crate::setup::Objective::Reach { who: Some(who), .. }))
            if !known(*who) =>
        {
            bad("no such combatant".into())
        }
        Ruling::Objective(_, Some(crate::setup::Objective::Reach { squares, .. }))
            if squares.is_empty() || squares.iter().any(|p| !s.setup.map.contains(*p)) =>
        {
            bad("an objective's squares must be on the map".into())
        }
        Ruling::Set(c, what, adj) => {
            let (old, max) = gauge(s, *c, what);
            let v = adj.apply(old);
            if !(0..=max).contains(&v) {
                return bad(format!("{what} must stay between 0 and {max}"));
            }
            Ok(())
        }
        Ruling::Durability(c, slot, adj) => match s.carried(*c, *slot) {
            Some(k) => {
                let max = s.setup.armoury.item(k.item).durability;
                let v = adj.apply(k.durability);
                if (0..=max).contains(&v) {
                    Ok(())
                } else {
                    bad(format!("durability must stay between 0 and {max}"))
                }
            }
            None => bad("no such item".into()),
        },
        Ruling::Condition(c, _, _) if !known(*c) => bad("no such combatant".into()),
        Ruling::Condition(..) => Ok(()),
        Ruling::KnockOut(c) => {
            if s.ch(*c).unconscious || !s.ch(*c).present() {
                bad(format!("{} is not conscious and in the fight", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Revive(c) => {
            if !s.ch(*c).unconscious || !s.ch(*c).present() {
                bad(format!("{} is not unconscious", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Kill(c) | Ruling::Remove(c) => {
            if !s.ch(*c).present() {
                bad(format!("{} is already out of the fight", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Move(c, p) => {
            if !known(*c) {
                return bad("no such combatant".into());
            }
            if !s.setup.map.contains(*p) || s.setup.map.get(*p).is_some_and(|x| x.blocked) {
                return bad(format!("{p} is not an open square"));
            }
            if s.occupant(*p).is_some_and(|o| o != *c) {
                return bad(format!("someone stands on {p}"));
            }
            Ok(())
        }
        Ruling::Add { id, template, at, .. } => {
            if !crate::setup::is_word(id) {
                return bad(format!("'{id}' is not an id: one word of letters, digits and '-'"));
            }
            if s.find(id).is_some() {
                return bad(format!("a combatant '{id}' already exists"));
            }
            if !s.setup.templates.contains_key(template) {
                return bad(format!(
                    "no template '{template}' (known: {})",
                    s.setup.templates.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
            if s.chars.len() >= crate::setup::MAX_COMBATANTS {
                return bad("too many combatants".into());
            }
            if !s.setup.map.contains(*at)
                || s.setup.map.get(*at).is_some_and(|x| x.blocked)
                || s.occupant(*at).is_some()
            {
                return bad(format!("{at} is not an empty square"));
            }
            Ok(())
        }
        Ruling::End(_) | Ruling::Objective(..) => Ok(()),
        Ruling::Order(v) => {
            if s.options.team_order == TeamOrderRule::Fixed {
                return bad("the team order is fixed (team-order = \"fixed\", ING-R5)".into());
            }
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let mut have = s.order.slots().to_vec();
            have.sort_unstable();
            if sorted != have {
                return bad("list every team with a slot exactly once".into());
            }
            Ok(())
        }
    }
}

/// Resolves a ruling.
pub(crate) fn resolve(cx: &mut Cx, r: &Ruling) -> R {
    match r {
        Ruling::Set(who, what, adj) => {
            let (old, _) = gauge(&cx.s, *who, what);
            let value = adj.apply(old);
            cx.emit(Event::Set {
                who: *who,
                what: what.clone(),
                value,
            });
            if what == "health" && value <= 0 && !cx.s.ch(*who).unconscious {
                knock_out(cx, *who);
            }
        }
        Ruling::Durability(who, slot, adj) => {
            let old = cx.s.carried(*who, *slot).map_or(0, |k| k.durability);
            cx.emit(Event::Set {
                who: *who,
                what: format!("durability:{slot}"),
                value: adj.apply(old),
            });
        }
        Ruling::Condition(who, cond, on) => cx.emit(Event::Condition {
            who: *who,
            cond: *cond,
            on: *on,
            until_turn_end: false,
        }),
        Ruling::KnockOut(who) => knock_out(cx, *who),
        Ruling::Revive(who) => cx.emit(Event::Revived { who: *who }),
        Ruling::Kill(who) => cx.emit(Event::Died { who: *who }),
        Ruling::Move(who, p) => cx.emit(Event::Placed { who: *who, to: *p }),
        Ruling::Add { id, template, team, at } => {
            let Some(t) = cx.s.setup.templates.get(template) else {
                return Err(EngineError::Bug("checked template missing".into()));
            };
            let mut info = t.clone();
            info.id = id.clone();
            if info.name.is_empty() || info.name == template.as_str() {
                info.name = id.clone();
            }
            info.team = *team;
            info.seat = cx.s.setup.teams.get(*team as usize).map_or(info.seat, |x| x.seat);
            info.at = *at;
            let slot = if cx.s.order.has_team(*team) {
                None
            } else {
                Some(match cx.s.options.joining_teams {
                    JoiningTeams::Last => u8::MAX,
                    JoiningTeams::Next => {
                        let slots = cx.s.order.slots();
                        let idx = match &cx.s.turn {
                            Some(t) => slots.iter().position(|x| *x == cx.s.team(t.who)).map(|i| i + 1),
                            // Between turns: right after the team that last took a turn, i.e.
                            // just before the team whose pick it is (which keeps its pick).
                            None if cx.s.ids().any(|c| cx.s.order.has_acted(c)) => {
                                cx.s.order
                                    .team_to_pick(|w| cx.s.can_take_turn(w))
                                    .and_then(|p| slots.iter().position(|x| *x == p))
                                    .filter(|i| *i > 0)
                            }
                            None => None,
                        };
                        idx.unwrap_or(slots.len()) as u8
                    }
                })
            };
            cx.emit(Event::Joined {
                info: Box::new(info),
                slot,
            });
        }
        Ruling::Remove(who) => cx.emit(Event::Removed { who: *who }),
        Ruling::End(winner) => cx.emit(Event::Ended {
            outcome: Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            },
        }),
        Ruling::Objective(team, o) => {
            // ING-R67: by default a change made while a round is under way waits for the next.
            let deferred = cx.s.options.objective_changes == ObjectiveChanges::BetweenRounds && mid_round(&cx.s);
            cx.emit(Event::ObjectiveSet {
                team: *team,
                objective: o.clone(),
                deferred,
            });
        }
        Ruling::Order(v) => {
            // ING-R5 (gm-between-rounds): before anyone has acted in a round the new order
            // applies to it; during a round it waits for the next.
            if mid_round(&cx.s) {
                cx.emit(Event::OrderChanged { order: v.clone() });
            } else {
                cx.emit(Event::OrderSet { order: v.clone() });
            }
        }
    }
    Ok(())
}
