//! The combat tracker and the browser table: who acts, and every combatant's gauges and
//! conditions with when they end.
//!
//! The decision behind this module: the tracker (`show`) and the table (the browser) list the
//! same conditions from one [`condition_list`], each with when it ends, and leave out other
//! seats' gauges and hidden enemies' squares by the rules of `map`.

use crate::calc;
use crate::command::slot_name;
use crate::data::Cond;
use crate::setup::Cid;
use crate::state::{ReadyAction, State};
use fray_engine::Seat;
use fray_engine::view::{CombatantView, Gauge, Place, Status, Table};
use std::fmt::Write;

use super::log::ext_text;
use super::map::{marker, sees, sees_gauges, whose_turn};

/// One condition or standing state of a combatant, as the tracker lists it.
pub(crate) struct Condition {
    /// Its name in kebab-case (`prone`, `readied`).
    pub key: &'static str,
    /// Its value, for one that has one (what is readied, the actions owed).
    pub value: Option<String>,
    /// Its line in the tracker (`readied: attack orrin when approach`).
    pub label: String,
    /// When it ends, or what it lasts for.
    pub until: String,
    /// Whether it ends by itself (at a turn's start or end, when it fires), rather than
    /// lasting for good, while something holds, or until someone removes it.
    pub ends: bool,
}

/// Every condition and standing state of a combatant, with when it ends: (name, until). With
/// `private`, also what only its own seat and the GM know (a readied action, an extended action
/// in progress, Wait's extra reactions, owed actions, a nonlethal zero).
pub fn conditions(s: &State, c: Cid, private: bool) -> Vec<(String, String)> {
    condition_list(s, c, private)
        .into_iter()
        .map(|x| (x.label, x.until))
        .collect()
}

/// What [`conditions`] lists, each with its kebab-case name and value apart.
pub(crate) fn condition_list(s: &State, c: Cid, private: bool) -> Vec<Condition> {
    let ch = s.ch(c);
    let mut v: Vec<Condition> = Vec::new();
    let mut add = |key: &'static str, value: Option<String>, label: &str, until: String, ends: bool| {
        v.push(Condition {
            key,
            value,
            label: label.to_string(),
            until,
            ends,
        })
    };
    if ch.dead {
        add("dead", None, "dead", "for good".into(), false);
    } else if ch.out {
        add("out-of-the-fight", None, "out of the fight", "for good".into(), false);
    } else if ch.unconscious {
        add(
            "unconscious",
            None,
            "unconscious",
            "until resuscitated (ING-R25) or revived by the GM".into(),
            false,
        );
    }
    if private && ch.zero_nonlethal {
        add(
            "nonlethal-zero",
            None,
            "at 0 health (nonlethal)",
            "any more damage makes a death check (ING-R63)".into(),
            false,
        );
    }
    for cond in Cond::ALL {
        if !ch.has(cond) {
            continue;
        }
        let (until, ends) = if ch.conds_until_turn & cond.bit() != 0 {
            ("until the end of their next turn".to_string(), true)
        } else {
            match cond {
                Cond::Prone if ch.unconscious => ("while unconscious".into(), false),
                Cond::Prone => ("until they stand up".into(), false),
                Cond::Cover => ("until they move or their next turn starts (ING-R26)".into(), true),
                Cond::Guarding => ("until their next turn starts (ING-R21)".into(), true),
                _ => ("until the GM removes it".into(), false),
            }
        };
        add(cond.name(), None, cond.name(), until, ends);
    }
    if calc::harmed(s, c) {
        add(
            "harmed",
            None,
            "harmed",
            format!(
                "while endurance is at most half of {} (ING-R58)",
                s.info(c).stats.endurance
            ),
            false,
        );
    }
    if calc::bloodied(s, c) {
        add(
            "bloodied",
            None,
            "bloodied",
            format!("while health is below {} (ING-R59)", s.info(c).stats.health),
            false,
        );
    }
    if !private {
        return v;
    }
    if let Some(r) = &ch.ready {
        let what = match &r.action {
            ReadyAction::Attack { target: Some(t), .. } => format!("attack {}", s.info(*t).id),
            ReadyAction::Attack { target: None, .. } => "attack".into(),
            ReadyAction::Move { to } => format!("move to {to}"),
        };
        let what = format!("{what} when {}", r.trigger.name());
        add(
            "readied",
            Some(what.clone()),
            &format!("readied: {what}"),
            "until it fires or their next turn starts (ING-R24)".into(),
            true,
        );
    }
    if let Some(e) = &ch.econ.extended {
        let what = ext_text(s, &e.action);
        add(
            "extended",
            Some(what.clone()),
            &format!("extended: {what}"),
            format!("{} more action(s) on later turns (ING-R34)", e.owed),
            true,
        );
    }
    if ch.econ.reaction_cap > crate::state::REACTIONS_PER_ROUND {
        add(
            "wait",
            Some(ch.econ.reaction_cap.to_string()),
            &format!("{} reactions (Wait)", ch.econ.reaction_cap),
            "until their next turn starts (ING-R28)".into(),
            true,
        );
    }
    if ch.owed > 0 {
        add(
            "owes-actions",
            Some(ch.owed.to_string()),
            &format!("owes {} action(s) to Command", ch.owed),
            "taken from their next turn (ING-H14)".into(),
            true,
        );
    }
    v
}

/// The combat tracker (the `show` word of `fray play`): the team order with who has acted, who
/// is acting with what is left, and every combatant's gauges and conditions with when they end.
/// Other seats' gauges and hidden enemies' squares are left out for a player's seat.
pub fn tracker(s: &State, seat: Seat) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", whose_turn(s));
    let _ = writeln!(out, "Team order:");
    for (i, &t) in s.order.slots().iter().enumerate() {
        let members: Vec<Cid> = s.ids().filter(|&c| s.team(c) == t).collect();
        let acted: Vec<&str> = members
            .iter()
            .filter(|&&c| s.order.has_acted(c))
            .map(|&c| s.info(c).id.as_str())
            .collect();
        let waiting: Vec<&str> = members
            .iter()
            .filter(|&&c| !s.order.has_acted(c) && s.can_take_turn(c) && s.turn.as_ref().is_none_or(|x| x.who != c))
            .map(|&c| s.info(c).id.as_str())
            .collect();
        let _ = writeln!(
            out,
            "  {}. {}: acted {}; yet to act {}",
            i + 1,
            s.setup.teams.get(t as usize).map_or("?", |x| x.name.as_str()),
            if acted.is_empty() {
                "nobody".to_string()
            } else {
                acted.join(", ")
            },
            if waiting.is_empty() {
                "nobody".to_string()
            } else {
                waiting.join(", ")
            },
        );
    }
    if let Some(t) = &s.turn {
        let c = s.ch(t.who);
        let _ = writeln!(
            out,
            "Acting: {} ({}): {} action(s) left{}{}",
            s.name(t.who),
            s.info(t.who).id,
            c.econ.actions,
            if c.moved { ", has moved" } else { "" },
            if t.opening {
                ", the opening action comes first (ING-R69)"
            } else {
                ""
            }
        );
    }
    for t in 0..s.setup.teams.len() as u8 {
        let _ = writeln!(out, "{}:", s.setup.teams[t as usize].name);
        for c in s.ids().filter(|&c| s.team(c) == t) {
            let ch = s.ch(c);
            let st = &s.info(c).stats;
            let pos = if sees(s, seat, c) {
                ch.pos.map_or("off the map".to_string(), |p| format!("at {p}"))
            } else {
                "position unknown".to_string()
            };
            let _ = write!(out, "  {} {} ({}) {pos}", marker(s, c), s.name(c), s.info(c).id);
            if sees_gauges(s, seat, c) {
                let _ = write!(
                    out,
                    "; endurance {}/{}, health {}/{}, stamina {}/{}, focus {}/{}, reactions left {}, death difficulty {}, attacks this round {}",
                    ch.endurance,
                    st.endurance,
                    ch.health,
                    st.health,
                    ch.stamina,
                    st.stamina,
                    ch.focus,
                    st.focus,
                    ch.econ.reactions_left(),
                    ch.death_difficulty,
                    ch.attacks_round
                );
                let items: Vec<String> = ch
                    .items
                    .iter()
                    .enumerate()
                    .map(|(k, it)| {
                        let mut t = format!("{} {}", slot_name(s, c, k as u8), it.durability);
                        if it.held {
                            t.push_str(" in hand");
                        }
                        if !it.loaded {
                            t.push_str(" unloaded");
                        }
                        t
                    })
                    .collect();
                if !items.is_empty() {
                    let _ = write!(out, "; items (durability): {}", items.join(", "));
                }
            }
            out.push('\n');
            for (name, until) in conditions(s, c, sees_gauges(s, seat, c)) {
                let _ = writeln!(out, "      {name}: {until}");
            }
        }
    }
    out
}

/// What `seat` is shown in the shape every ruleset shares: what its tracker shows
/// ([`tracker`]). Teams take turns, so the order is of team ids; a player's seat sees the
/// gauges and private states of its own characters only, and not the square of a hidden
/// character of another seat.
pub fn table(s: &State, seat: Seat) -> Table {
    let team_id = |t: u8| s.setup.teams.get(t as usize).map_or_else(String::new, |x| x.id.clone());
    let acting = s.turn.as_ref().map(|t| t.who);
    let combatants = s
        .ids()
        .map(|c| {
            let ch = s.ch(c);
            let info = s.info(c);
            let st = &info.stats;
            let place = ch.pos.filter(|_| sees(s, seat, c)).map(|p| Place::Square {
                x: i32::from(p.x),
                y: i32::from(p.y),
                elevation: Some(i32::from(s.setup.map.elevation(p).unwrap_or(0))),
            });
            let private = sees_gauges(s, seat, c);
            let mut gauges = Vec::new();
            let mut statuses = Vec::new();
            if private {
                gauges.extend([
                    Gauge::of("endurance", ch.endurance, st.endurance),
                    Gauge::of("health", ch.health, st.health),
                    Gauge::of("stamina", ch.stamina, st.stamina),
                    Gauge::of("focus", ch.focus, st.focus),
                    Gauge::of("reactions-left", ch.econ.reactions_left(), ch.econ.reaction_cap),
                    Gauge::count("death-difficulty", ch.death_difficulty),
                    Gauge::count("attacks-this-round", ch.attacks_round),
                ]);
                for (k, it) in ch.items.iter().enumerate() {
                    let slot = slot_name(s, c, k as u8);
                    gauges.push(Gauge::of(
                        &format!("{}-durability", view_name(&slot)),
                        it.durability,
                        s.setup.armoury.item(it.item).durability,
                    ));
                    if it.held {
                        statuses.push(Status {
                            name: "in-hand".into(),
                            value: Some(slot.clone()),
                            ends: None,
                        });
                    }
                    if !it.loaded {
                        statuses.push(Status {
                            name: "unloaded".into(),
                            value: Some(slot),
                            ends: None,
                        });
                    }
                }
            }
            for x in condition_list(s, c, private) {
                statuses.push(Status {
                    name: x.key.to_string(),
                    value: x.value,
                    ends: x.ends.then_some(x.until),
                });
            }
            let this_turn = |name: &str, value: Option<String>| Status {
                name: name.to_string(),
                value,
                ends: Some("end of its turn".into()),
            };
            if acting == Some(c)
                && let Some(t) = &s.turn
            {
                statuses.push(this_turn("actions-left", Some(ch.econ.actions.to_string())));
                if ch.moved {
                    statuses.push(this_turn("moved", None));
                }
                if t.opening {
                    statuses.push(this_turn("opening-action", None));
                }
            } else if s.order.has_acted(c) {
                statuses.push(Status {
                    name: "acted".into(),
                    value: None,
                    ends: Some("end of the round".into()),
                });
            }
            CombatantView {
                id: info.id.clone(),
                name: info.name.clone(),
                side: team_id(info.team),
                seat: fray_engine::sides::seat_name(&s.setup.seats, info.seat),
                place,
                gauges,
                statuses,
                out: !ch.present() || ch.unconscious,
            }
        })
        .collect();
    Table {
        round: s.round,
        phase: None,
        order: s.order.slots().iter().map(|&t| team_id(t)).collect(),
        combatants,
        sides: (0..s.setup.teams.len() as u8).map(team_id).collect(),
        unseen: Vec::new(),
    }
}

/// A word as a kebab-case name of the shared view (lower-case letters and digits joined by
/// `-`): a `+` reads `-plus`, anything else not a letter or digit `-`
/// (`spear#2` is `spear-2`).
fn view_name(word: &str) -> String {
    let mut out = String::new();
    for ch in word.chars() {
        match ch {
            c if c.is_ascii_alphanumeric() => out.push(c.to_ascii_lowercase()),
            '+' => out.push_str("-plus-"),
            _ => out.push('-'),
        }
    }
    out.split('-').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}
