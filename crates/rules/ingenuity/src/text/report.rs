//! The state as JSON (the per-seat view's payload) and the end-of-combat summary.
//!
//! The decision behind this module: the JSON view lists every combatant a seat sees with what
//! it may know of it (all of it for the GM and its own seat), so a view never carries a secret;
//! the summary is the GM's and shows everything.

use crate::calc;
use crate::command::slot_name;
use crate::data::Cond;
use crate::setup::Cid;
use crate::state::{Phase, State};
use fray_engine::Seat;
use serde_json::json;
use std::fmt::Write;

use super::map::marker;
use super::tracker::conditions;

fn char_json(s: &State, c: Cid, full: bool) -> serde_json::Value {
    let ch = s.ch(c);
    let info = s.info(c);
    let conds: Vec<&str> = Cond::ALL.iter().filter(|x| ch.has(**x)).map(|x| x.name()).collect();
    let mut v = json!({
        "id": info.id,
        "name": info.name,
        "team": s.setup.teams.get(info.team as usize).map(|t| t.id.clone()),
        "pos": ch.pos.map(|p| p.to_string()),
        "unconscious": ch.unconscious,
        "dead": ch.dead,
        "out": ch.out,
        "conditions": conds,
        "harmed": calc::harmed(s, c),
        "bloodied": calc::bloodied(s, c),
        "marker": marker(s, c),
        "acted": s.order.has_acted(c),
        "acting": s.turn.as_ref().is_some_and(|t| t.who == c),
    });
    if full {
        let st = &info.stats;
        // Every status with when it ends (readied action, extended action, Wait... are the
        // combatant's own business: only its seat and the GM see them).
        v["statuses"] = json!(
            conditions(s, c, true)
                .into_iter()
                .map(|(name, until)| json!({ "name": name, "until": until }))
                .collect::<Vec<_>>()
        );
        v["max"] = json!({
            "health": st.health,
            "endurance": st.endurance,
            "stamina": st.stamina,
            "focus": st.focus,
        });
        v["attacks-this-round"] = json!(ch.attacks_round);
        v["moved"] = json!(ch.moved);
        v["health"] = json!(ch.health);
        v["endurance"] = json!(ch.endurance);
        v["stamina"] = json!(ch.stamina);
        v["focus"] = json!(ch.focus);
        v["death-difficulty"] = json!(ch.death_difficulty);
        v["actions"] = json!(ch.econ.actions);
        v["reactions"] = json!(ch.econ.reactions_left());
        v["items"] = json!(
            ch.items
                .iter()
                .enumerate()
                .map(|(k, it)| json!({
                    "item": slot_name(s, c, k as u8),
                    "durability": it.durability,
                    "held": it.held,
                    "loaded": it.loaded,
                }))
                .collect::<Vec<_>>()
        );
    }
    v
}

/// What a seat may see: the GM everything; a team's seat its own members in full and the others'
/// visible state (no resources), and no hidden enemies' squares.
pub fn view(s: &State, seat: Seat) -> serde_json::Value {
    let gm = seat.is_gm();
    let chars: Vec<serde_json::Value> = s
        .ids()
        .map(|c| {
            let own = s.info(c).seat == seat;
            let mut v = char_json(s, c, gm || own);
            if !gm && !own && s.ch(c).has(Cond::Hidden) {
                v["pos"] = serde_json::Value::Null;
            }
            v
        })
        .collect();
    let team_id = |t: u8| s.setup.teams.get(t as usize).map(|x| x.id.clone());
    let order: Vec<serde_json::Value> = s
        .order
        .slots()
        .iter()
        .map(|&t| {
            let members: Vec<Cid> = s.ids().filter(|&c| s.team(c) == t).collect();
            json!({
                "team": team_id(t),
                "name": s.setup.teams.get(t as usize).map(|x| x.name.clone()),
                "acted": members.iter().filter(|&&c| s.order.has_acted(c)).map(|&c| s.info(c).id.clone()).collect::<Vec<_>>(),
                "to-act": members
                    .iter()
                    .filter(|&&c| !s.order.has_acted(c) && s.can_take_turn(c) && s.turn.as_ref().is_none_or(|x| x.who != c))
                    .map(|&c| s.info(c).id.clone())
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "ruleset": "ingenuity",
        "round": s.round,
        "surprise-round": s.phase == Phase::Surprise,
        "turn": s.turn.as_ref().map(|t| s.info(t.who).id.clone()),
        "actions-left": s.turn.as_ref().map(|t| s.ch(t.who).econ.actions),
        "picking": if s.turn.is_none() && s.outcome.is_none() {
            s.order.team_to_pick(|w| s.can_take_turn(w)).and_then(team_id)
        } else {
            None
        },
        "order": order,
        "acted": s.ids().filter(|&c| s.order.has_acted(c)).map(|c| s.info(c).id.clone()).collect::<Vec<_>>(),
        "combatants": chars,
        "outcome": s.outcome,
    })
}

/// A readable summary.
pub fn summary(s: &State) -> String {
    let mut out = String::new();
    // A name two combatants share (made from one template) is told apart by the id.
    let names: Vec<String> = s
        .ids()
        .map(|c| {
            let name = s.name(c);
            if s.ids().filter(|&o| s.name(o) == name).count() > 1 {
                format!("{name} ({})", s.info(c).id)
            } else {
                name.to_string()
            }
        })
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(18);
    for t in 0..s.setup.teams.len() as u8 {
        let _ = writeln!(out, "{}:", s.setup.teams[t as usize].name);
        for c in s.ids().filter(|&c| s.team(c) == t) {
            let ch = s.ch(c);
            let st = &s.info(c).stats;
            let state = if ch.dead {
                "dead".to_string()
            } else if ch.out {
                "out of the fight".to_string()
            } else if ch.unconscious {
                "unconscious".to_string()
            } else {
                let conds: Vec<&str> = Cond::ALL.iter().filter(|x| ch.has(**x)).map(|x| x.name()).collect();
                if conds.is_empty() {
                    "standing".to_string()
                } else {
                    conds.join(", ")
                }
            };
            let _ = writeln!(
                out,
                "  {:<width$} health {}/{}, endurance {}/{}, stamina {}/{}, focus {}/{} - {state}",
                names[c as usize],
                ch.health,
                st.health,
                ch.endurance,
                st.endurance,
                ch.stamina,
                st.stamina,
                ch.focus,
                st.focus
            );
        }
    }
    if let Some(o) = &s.outcome {
        let _ = writeln!(
            out,
            "Result: {}",
            match o.winner {
                Some(w) => format!("{} win ({})", s.setup.teams[w as usize].name, o.reason),
                None => format!("no winner ({})", o.reason),
            }
        );
    }
    out
}
