//! Log lines, prompts, views and summaries.

use crate::calc;
use crate::command::slot_name;
use crate::data::Cond;
use crate::event::{DefenceKind, Event, TestRoll, TurnEnd};
use crate::setup::Cid;
use crate::state::{AttackStage, Ext, Frame, Phase, ReadyAction, State};
use fray_engine::view::{CombatantView, Gauge, Place, Status, Table};
use fray_engine::{Pending, Seat};
use serde_json::json;
use std::fmt::Write;

/// A test, printed: `[d6 4, d6 2] +1 = 7 (luck 12)`.
pub fn test_text(r: &TestRoll) -> String {
    let mut t = format!(
        "[d{} {}, d{} {}]",
        r.dice[0].sides, r.dice[0].face, r.dice[1].sides, r.dice[1].face
    );
    for rr in &r.rerolls {
        let die = if rr.die == 0 { "attribute" } else { "skill" };
        let _ = write!(
            t,
            " ({} reroll of the {die} die: {} -> {})",
            if rr.advantage { "advantage" } else { "disadvantage" },
            rr.old,
            rr.new
        );
    }
    if r.bonus != 0 {
        let _ = write!(t, " {:+}", r.bonus);
    }
    if r.luck_bonus != 0 {
        let _ = write!(t, " +{} (luck)", r.luck_bonus);
    }
    let _ = write!(t, " = {} (luck die {}", r.total, r.luck);
    if r.luck_total != r.luck as i16 {
        let _ = write!(t, " -> {}", r.luck_total);
    }
    t.push(')');
    t
}

fn ext_text(s: &State, e: &Ext) -> String {
    match e {
        Ext::Reload { .. } => "a reload".into(),
        Ext::Resuscitate { target } => format!("resuscitating {}", s.name(*target)),
        Ext::Task { skill, difficulty, .. } => format!("a task ({skill} vs {difficulty})"),
        Ext::Kill { target, .. } => format!("a killing strike on {}", s.name(*target)),
    }
}

/// One log line for an event (read after it was applied); `None` for bookkeeping.
pub fn describe(s: &State, e: &Event) -> Option<String> {
    let n = |c: Cid| s.name(c).to_string();
    let team = |t: u8| {
        s.setup
            .teams
            .get(t as usize)
            .map_or("?".to_string(), |x| x.name.clone())
    };
    Some(match e {
        Event::OrderSet { order } => format!(
            "Team order: {}",
            order.iter().map(|t| team(*t)).collect::<Vec<_>>().join(", ")
        ),
        Event::RoundStarted { round, surprise } => {
            if *surprise {
                "== Surprise round ==".into()
            } else {
                format!("== Round {round} ==")
            }
        }
        Event::TurnStarted { who } => format!("-- {}'s turn ({}) --", n(*who), team(s.team(*who))),
        Event::TurnEnded { who, how } => match how {
            TurnEnd::End => return None,
            TurnEnd::Guard => format!("{} guards until their next turn", n(*who)),
            TurnEnd::Wait => format!("{} waits, keeping an extra reaction", n(*who)),
            TurnEnd::Ready => return None,
            TurnEnd::Lost => format!("{}'s turn ends: they can no longer act", n(*who)),
        },
        Event::Paid { who, cost } => {
            if cost.stamina == 0 && cost.focus == 0 {
                return None;
            }
            let mut parts = Vec::new();
            if cost.stamina != 0 {
                parts.push(format!("{} stamina (now {})", cost.stamina, s.ch(*who).stamina));
            }
            if cost.focus != 0 {
                parts.push(format!("{} focus (now {})", cost.focus, s.ch(*who).focus));
            }
            format!("{} spends {}", n(*who), parts.join(" and "))
        }
        Event::ExtendedStarted { who, action, owed, .. } => format!(
            "{} starts {}: {owed} more action(s) needed on later turns",
            n(*who),
            ext_text(s, action)
        ),
        Event::ExtendedContinued { who, paid, owed } => {
            if *owed == 0 {
                format!("{} spends {paid} action(s) and finishes", n(*who))
            } else {
                format!("{} spends {paid} action(s); {owed} still needed", n(*who))
            }
        }
        Event::ExtendedAbandoned { who, .. } => format!("{} abandons what they had started", n(*who)),
        Event::Moved { who, from, to, metres } => format!("{} moves {from} -> {to} ({metres} m)", n(*who)),
        Event::MoveBegun { who, kind } => match kind.as_str() {
            "sprint" => format!("{} sprints", n(*who)),
            _ => return None,
        },
        Event::Swapped { a, b } => format!("{} and {} swap places", n(*a), n(*b)),
        Event::Condition { who, cond, on, .. } => match (cond, on) {
            (Cond::Prone, true) => format!("{} is prone", n(*who)),
            (Cond::Prone, false) => format!("{} stands up", n(*who)),
            (Cond::Cover, true) => format!("{} takes cover", n(*who)),
            (Cond::Cover, false) => return None,
            (Cond::Guarding, _) => return None,
            (c, true) => format!("{} is {}", n(*who), c.name()),
            (c, false) => format!("{} is no longer {}", n(*who), c.name()),
        },
        Event::Held { who, slots } => {
            if slots.is_empty() {
                format!("{} puts everything away", n(*who))
            } else {
                format!(
                    "{} now holds {}",
                    n(*who),
                    slots
                        .iter()
                        .map(|k| slot_name(s, *who, *k))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            }
        }
        Event::Dropped { who, .. } => format!("{} drops an item", n(*who)),
        Event::PickedUp { who, .. } => format!("{} picks something up", n(*who)),
        Event::Thrown { who, to, .. } => format!("{}'s thrown weapon lands on {to}", n(*who)),
        Event::Loaded { who, slot, loaded } => {
            if *loaded {
                format!("{} reloads {}", n(*who), slot_name(s, *who, *slot))
            } else {
                return None;
            }
        }
        Event::AttackDeclared {
            attacker,
            target,
            slot,
            penalty,
            bonus,
            ..
        } => {
            let mut t = format!(
                "{} attacks {} with {}",
                n(*attacker),
                n(*target),
                slot_name(s, *attacker, *slot)
            );
            if *penalty != 0 {
                let _ = write!(t, " (multiple attack penalty {penalty})");
            }
            if *bonus != 0 {
                let _ = write!(t, " (weapon properties {bonus:+})");
            }
            t
        }
        Event::Intercepted { who, ally } => {
            format!("{} intercepts, taking {}'s place as the target", n(*who), n(*ally))
        }
        Event::Defended {
            who,
            kind,
            roll,
            slot,
            free,
        } => {
            let free = if *free { " (free reaction)" } else { "" };
            match (kind, roll, slot) {
                (DefenceKind::Parry, _, Some(k)) => {
                    format!("{} parries with {}{free}", n(*who), slot_name(s, *who, *k))
                }
                (DefenceKind::Block, _, Some(k)) => format!("{} blocks with {}{free}", n(*who), slot_name(s, *who, *k)),
                (k, Some(r), _) => format!("{} {}s{free}: {}", n(*who), k.name(), test_text(r)),
                (k, _, _) => format!("{} {}s{free}", n(*who), k.name()),
            }
        }
        Event::AttackRolled {
            attacker,
            roll,
            advantage,
            reasons,
        } => {
            let mut t = format!("{} rolls {}", n(*attacker), test_text(roll));
            if *advantage != 0 {
                let _ = write!(
                    t,
                    " with {} {} ({})",
                    advantage.unsigned_abs(),
                    if *advantage > 0 { "advantage" } else { "disadvantage" },
                    reasons.join(", ")
                );
            }
            t
        }
        Event::Misfired { target, candidates, .. } => format!(
            "Misfire! The attack goes astray toward {} ({} near the target)",
            n(*target),
            candidates
        ),
        Event::AttackResult {
            target,
            evasion,
            hit,
            crit,
            ..
        } => match (hit, crit) {
            (true, true) => format!("Critical hit on {} (evasion {evasion})", n(*target)),
            (true, false) => format!("Hit {} (evasion {evasion})", n(*target)),
            _ => format!("Miss (evasion {evasion})"),
        },
        Event::Blocked { to_item, overflow, .. } => {
            if *overflow > 0 {
                format!("The block takes {to_item}; {overflow} goes through")
            } else {
                format!("The block takes {to_item}")
            }
        }
        Event::ItemDamaged { who, slot, amount } => {
            let left = s.carried(*who, *slot).map_or(0, |k| k.durability);
            let broken = if left == 0 { ", broken" } else { "" };
            format!(
                "{}'s {} loses {amount} durability ({left} left{broken})",
                n(*who),
                slot_name(s, *who, *slot)
            )
        }
        Event::Damaged {
            who,
            amount,
            endurance,
            health,
            reduced_by,
            ..
        } => {
            let c = s.ch(*who);
            let st = &s.info(*who).stats;
            let mut t = format!("{} takes {amount} damage", n(*who));
            if *reduced_by > 0 {
                let _ = write!(t, " (after {reduced_by} deflection)");
            }
            let _ = write!(
                t,
                ": endurance -{endurance}, health -{health} (endurance {}/{}, health {}/{})",
                c.endurance, st.endurance, c.health, st.health
            );
            let mut tags = Vec::new();
            if calc::harmed(s, *who) {
                tags.push("harmed");
            }
            if calc::bloodied(s, *who) {
                tags.push("bloodied");
            }
            if !tags.is_empty() {
                let _ = write!(t, " [{}]", tags.join(", "));
            }
            t
        }
        Event::Fortified {
            who,
            difficulty,
            roll,
            result,
            stayed,
        } => format!(
            "{} fortifies to stay conscious against {difficulty}: {} -> {result}: {}",
            n(*who),
            test_text(roll),
            if *stayed { "stays conscious" } else { "fails" }
        ),
        Event::KnockedOut { who } => format!("{} falls unconscious", n(*who)),
        Event::Revived { who } => format!("{} regains consciousness", n(*who)),
        Event::DeathCheck {
            who,
            luck,
            total,
            difficulty,
            survived,
        } => format!(
            "{} risks death: luck die {luck}{} vs {difficulty}: {}",
            n(*who),
            if *total != *luck as i16 {
                format!(" -> {total}")
            } else {
                String::new()
            },
            if *survived {
                format!("cheats death (difficulty now {})", s.ch(*who).death_difficulty)
            } else {
                "fails".into()
            }
        ),
        Event::SparedByNonlethal { who } => format!("{} is down at 0 health; the blow was nonlethal", n(*who)),
        Event::Died { who } => format!("{} dies", n(*who)),
        Event::EffectTested {
            who,
            cond,
            difficulty,
            defence,
            resisted,
        } => format!(
            "{} {} being {} ({defence} vs {difficulty})",
            n(*who),
            if *resisted { "resists" } else { "fails to resist" },
            cond.name()
        ),
        Event::Tested {
            who,
            what,
            roll,
            difficulty,
            success,
        } => format!(
            "{} tests for {what}: {} vs {difficulty}: {}",
            n(*who),
            test_text(roll),
            if *success { "success" } else { "failure" }
        ),
        Event::ReadySet { who, readied } => {
            let what = match &readied.action {
                ReadyAction::Attack { target: Some(t), .. } => format!("an attack on {}", n(*t)),
                ReadyAction::Attack { target: None, .. } => "an attack".into(),
                ReadyAction::Move { to } => format!("a move to {to}"),
            };
            format!("{} readies {what} (trigger: {})", n(*who), readied.trigger.name())
        }
        Event::ReadyUsed { who, fired } => {
            if *fired {
                format!("{} acts on the readied action", n(*who))
            } else {
                format!("{}'s readied action lapses", n(*who))
            }
        }
        Event::Commanded { commander, ally } => format!("{} commands {}", n(*commander), n(*ally)),
        Event::Owed { .. } | Event::OwedPaid { .. } => return None,
        Event::Interacted { who, what } => format!("{}: {what}", n(*who)),
        Event::Set { who, what, value } => format!("GM: {}'s {what} is now {value}", n(*who)),
        Event::Placed { who, to } => format!("GM: {} is placed on {to}", n(*who)),
        Event::Joined { info, .. } => format!("{} joins the fight ({})", info.name, team(info.team)),
        Event::Removed { who } => format!("{} leaves the fight", n(*who)),
        Event::ObjectiveSet { team: t, deferred, .. } => {
            if *deferred {
                format!("GM: {}'s objective changes when the next round starts", team(*t))
            } else {
                format!("GM: {}'s objective changes", team(*t))
            }
        }
        Event::OrderChanged { .. } => "GM: the team order changes from the next round".into(),
        Event::OpeningDone => return None,
        Event::Automatic { who, step, why } => {
            use crate::event::{AutoStep, AutoWhy};
            if (*step, *why) == (AutoStep::NoDefence, AutoWhy::DefencesTaken) {
                return Some(format!("{} has no other defence to take against this attack", n(*who)));
            }
            let why = why.text();
            match step {
                AutoStep::NoDefence => format!("{} cannot defend against this attack: {why}", n(*who)),
                AutoStep::NoBlock => format!("{} cannot block: {why}", n(*who)),
                AutoStep::NoFortify => format!("{} cannot fortify to stay conscious: {why}", n(*who)),
                AutoStep::ReadyNotFired => format!("{}'s readied action cannot be taken: {why}", n(*who)),
                AutoStep::OpeningDropped => format!(
                    "{}'s opening action ({}) can no longer be taken; the turn goes on as usual",
                    n(*who),
                    s.setup.opening.as_ref().map_or("", |o| o.action.as_str())
                ),
            }
        }
        Event::Ended { outcome } => match outcome.winner {
            Some(w) => format!("The combat ends: {} win ({})", team(w), outcome.reason),
            None => format!("The combat ends with no winner ({})", outcome.reason),
        },
        Event::Push { .. } | Event::Update { .. } | Event::SetFrame { .. } | Event::Pop => return None,
    })
}

/// A one-line description of the pending decision.
/// The pending decision in a line as `seat` may know it: without the resources (health,
/// stamina, focus, reactions), readied or extended actions of a character whose gauges the
/// seat does not see, as its tracker leaves them out. Who may intercept depends on their
/// stamina and reactions, so the list is left out unless the seat sees all of them.
pub fn describe_pending_for(s: &State, p: &Pending<crate::stage::Stage>, seat: Seat) -> String {
    let n = |c: Cid| s.name(c).to_string();
    let private = |c: Cid| !sees_gauges(s, seat, c);
    match s.stack.last() {
        Some(Frame::Attack(a)) => match a.stage {
            AttackStage::Intercept if a.intercept.iter().any(|&c| private(c)) => format!(
                "{} is attacked by {}: does an ally intercept (1 stamina and the reaction)? or pass",
                n(a.target),
                n(a.attacker)
            ),
            AttackStage::Defend if private(a.target) => format!("{} attacks {}: defences?", n(a.attacker), n(a.target)),
            _ => describe_pending(s, p),
        },
        Some(Frame::Ready(w)) if w.candidates.get(w.asked as usize).is_none_or(|&c| private(c)) => {
            format!("{} set off a readied action: fire or hold?", n(w.subject))
        }
        Some(Frame::Conscious { who, .. }) if private(*who) => {
            format!("{}: fortify (1 stamina, the reaction) or fall unconscious?", n(*who))
        }
        Some(_) => describe_pending(s, p),
        None => match &s.turn {
            Some(t) if private(t.who) => {
                let mut text = format!("{}'s turn: {} action(s) left", n(t.who), s.ch(t.who).econ.actions);
                if t.opening && crate::check::opening_action(s).is_some() {
                    text.push_str(" (first, the action that started the fight)");
                }
                text
            }
            _ => describe_pending(s, p),
        },
    }
}

pub fn describe_pending(s: &State, p: &Pending<crate::stage::Stage>) -> String {
    let n = |c: Cid| s.name(c).to_string();
    match s.stack.last() {
        Some(Frame::Attack(a)) => match a.stage {
            AttackStage::Intercept => {
                let who: Vec<String> = a
                    .intercept
                    .iter()
                    .filter(|&&c| crate::check::can_react(s, c, false, 1, 0))
                    .map(|&c| format!("{} ({})", n(c), s.info(c).id))
                    .collect();
                format!(
                    "{} is attacked by {}: does an ally intercept (1 stamina and the reaction)? {} may; or pass",
                    n(a.target),
                    n(a.attacker),
                    who.join(", ")
                )
            }
            AttackStage::Defend => format!(
                "{} attacks {}: defences? ({} reaction(s), {} stamina, {} focus)",
                n(a.attacker),
                n(a.target),
                s.ch(a.target).econ.reactions_left() + a.defences.free,
                s.ch(a.target).stamina,
                s.ch(a.target).focus
            ),
            AttackStage::Block => format!("{} is hit for {} before reduction: block?", n(a.target), a.raw),
            _ => "resolving an attack".into(),
        },
        Some(Frame::Ready(w)) => format!(
            "{} set off {}'s readied action ({}): fire or hold?",
            n(w.subject),
            w.candidates.get(w.asked as usize).map_or("?".to_string(), |c| n(*c)),
            w.trigger.name()
        ),
        Some(Frame::Conscious { who, missing }) => format!(
            "{} is missing {missing} health (constitution {}): fortify (1 stamina, the reaction) or fall unconscious?",
            n(*who),
            calc::constitution(s, *who)
        ),
        Some(Frame::AfterDodge { who, .. }) => format!("{} dodged: drop prone, seek cover, step 1 m, or pass", n(*who)),
        _ => match &s.turn {
            Some(t) => {
                let c = s.ch(t.who);
                if c.econ.extended.is_some() && !c.ext_settled {
                    let e = c
                        .econ
                        .extended
                        .as_ref()
                        .map_or(String::new(), |e| ext_text(s, &e.action));
                    format!("{}'s turn: continue {e} or abandon it?", n(t.who))
                } else {
                    let mut text = format!(
                        "{}'s turn: {} action(s) left, {} stamina, {} focus",
                        n(t.who),
                        c.econ.actions,
                        c.stamina,
                        c.focus
                    );
                    if t.opening && crate::check::opening_action(s).is_some() {
                        text.push_str(" (first, the action that started the fight)");
                    }
                    text
                }
            }
            None => {
                let team = s
                    .order
                    .team_to_pick(|w| s.can_take_turn(w))
                    .and_then(|t| s.setup.teams.get(t as usize))
                    .map_or("?".to_string(), |t| t.name.clone());
                let round = if s.phase == Phase::Surprise {
                    "surprise round".to_string()
                } else {
                    format!("round {}", s.round)
                };
                let _ = p;
                format!("{team} pick who acts next ({round})")
            }
        },
    }
}

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

// ---------------------------------------------------------------------------------------------
// The battlefield, the tracker, and the conditions they list
// ---------------------------------------------------------------------------------------------

/// Whether `seat` sees `c`'s square: the GM and its own seat always; others unless it is hidden.
pub(crate) fn sees(s: &State, seat: Seat, c: Cid) -> bool {
    // The Hidden bit first: asked for every character at every decision of a simulation.
    seat.is_gm() || !s.ch(c).has(Cond::Hidden) || s.info(c).seat == seat
}

/// Whether `seat` sees `c`'s gauges (endurance, health, stamina, focus, items...).
fn sees_gauges(s: &State, seat: Seat, c: Cid) -> bool {
    seat.is_gm() || s.info(c).seat == seat
}

/// A combatant's marker on the map: its team's letter (A for the first team) and its number in
/// the team; lower case while unconscious or dead.
pub fn marker(s: &State, c: Cid) -> String {
    let team = s.team(c);
    let n = s.ids().filter(|&o| o <= c && s.team(o) == team).count();
    let letter = char::from(b'A' + team.min(25));
    let m = format!("{letter}{n}");
    if s.ch(c).unconscious { m.to_ascii_lowercase() } else { m }
}

/// A sentence for whose decision it is.
fn whose_turn(s: &State) -> String {
    let round = if s.phase == Phase::Surprise {
        "Surprise round".to_string()
    } else {
        format!("Round {}", s.round)
    };
    if let Some(o) = &s.outcome {
        return match o.winner.and_then(|w| s.setup.teams.get(w as usize)) {
            Some(t) => format!("{round}: the combat is over ({} win)", t.name),
            None => format!("{round}: the combat is over (no winner)"),
        };
    }
    match &s.turn {
        Some(t) => format!(
            "{round}: {}'s turn ({})",
            s.name(t.who),
            s.setup
                .teams
                .get(s.team(t.who) as usize)
                .map_or("?", |x| x.name.as_str())
        ),
        None => match s
            .order
            .team_to_pick(|w| s.can_take_turn(w))
            .and_then(|t| s.setup.teams.get(t as usize))
        {
            Some(t) => format!("{round}: {} pick who acts next", t.name),
            None => format!("{round}: the round is ending"),
        },
    }
}

/// The battlefield as text (the `map` word of `fray play`): terrain, a marker per combatant
/// `seat` can see, axes numbered as commands type squares (`x,y`, 0,0 at the bottom left), a
/// legend, and whose turn it is.
pub fn map(s: &State, seat: Seat) -> String {
    let g = &s.setup.map;
    let (w, h) = (i32::from(g.width()), i32::from(g.height()));
    let shown: Vec<Cid> = s
        .ids()
        .filter(|&c| s.ch(c).present() && s.ch(c).pos.is_some() && sees(s, seat, c))
        .collect();
    let cell = shown
        .iter()
        .map(|&c| marker(s, c).len())
        .chain([(w - 1).max(0).to_string().len()])
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    let ylab = (h - 1).max(0).to_string().len();
    let mut out = String::new();
    let _ = writeln!(out, "{}", whose_turn(s));
    for y in (0..h).rev() {
        let _ = write!(out, "{y:>ylab$} ");
        for x in 0..w {
            let p = fray_space::Pos::new(x as i16, y as i16);
            let text = match shown.iter().find(|&&c| s.ch(c).pos == Some(p)) {
                Some(&c) => marker(s, c),
                None => match g.get(p) {
                    Some(c) if c.blocked => "x".to_string(),
                    Some(c) if c.elevation > 9 => "+".to_string(),
                    Some(c) if c.elevation > 0 => c.elevation.to_string(),
                    Some(c) if c.elevation < 0 => "-".to_string(),
                    _ => ".".to_string(),
                },
            };
            let _ = write!(out, "{text:>cell$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>ylab$} ", "");
    for x in 0..w {
        let _ = write!(out, "{x:>cell$}");
    }
    out.push_str("  (x,y)\n");
    out.push_str(
        "Terrain: . open, x blocked, 1-9 higher ground (+ above 9, - below 0); blocked squares and higher ground next to a character give cover (Seek Cover)\n",
    );
    for &c in &shown {
        let ch = s.ch(c);
        let mut notes: Vec<&str> = Vec::new();
        if s.turn.as_ref().is_some_and(|t| t.who == c) {
            notes.push("acting");
        } else if s.order.has_acted(c) {
            notes.push("has acted");
        }
        if ch.dead {
            notes.push("dead");
        } else if ch.unconscious {
            notes.push("unconscious");
        }
        for cond in Cond::ALL {
            if ch.has(cond) && !(cond == Cond::Prone && ch.unconscious) {
                notes.push(cond.name());
            }
        }
        let _ = writeln!(
            out,
            "{:<w$} {} ({}, {}) at {}{}",
            marker(s, c),
            s.info(c).id,
            s.name(c),
            s.setup.teams.get(s.team(c) as usize).map_or("?", |t| t.name.as_str()),
            ch.pos.map_or("?".to_string(), |p| p.to_string()),
            if notes.is_empty() {
                String::new()
            } else {
                format!(": {}", notes.join(", "))
            },
            w = cell - 1
        );
    }
    for (p, k) in &s.ground {
        let _ = writeln!(out, "On the ground at {p}: {}", s.setup.armoury.item(k.item).name);
    }
    out
}

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
