//! Log lines, prompts, views and summaries.

use crate::calc;
use crate::command::slot_name;
use crate::data::Cond;
use crate::event::{DefenceKind, Event, TestRoll, TurnEnd};
use crate::setup::Cid;
use crate::state::{Ext, Frame, Phase, ReadyAction, Stage, State};
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
            use crate::event::AutoStep;
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
        Event::Push { .. } | Event::Update { .. } | Event::Pop => return None,
    })
}

/// A one-line description of the pending decision.
pub fn describe_pending(s: &State, p: &Pending) -> String {
    let n = |c: Cid| s.name(c).to_string();
    match s.stack.last() {
        Some(Frame::Attack(a)) => match a.stage {
            Stage::Intercept => {
                let who: Vec<String> = a
                    .intercept
                    .iter()
                    .filter(|&&c| crate::check::reaction_ok(s, c, false, 1, 0).is_ok())
                    .map(|&c| format!("{} ({})", n(c), s.info(c).id))
                    .collect();
                format!(
                    "{} is attacked by {}: does an ally intercept (1 stamina and the reaction)? {} may; or pass",
                    n(a.target),
                    n(a.attacker),
                    who.join(", ")
                )
            }
            Stage::Defend => format!(
                "{} attacks {}: defences? ({} reaction(s), {} stamina, {} focus)",
                n(a.attacker),
                n(a.target),
                s.ch(a.target).econ.reactions_left() + a.defences.free,
                s.ch(a.target).stamina,
                s.ch(a.target).focus
            ),
            Stage::Block => format!("{} is hit for {} before reduction: block?", n(a.target), a.raw),
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
    });
    if full {
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
    json!({
        "ruleset": "ingenuity",
        "round": s.round,
        "surprise-round": s.phase == Phase::Surprise,
        "turn": s.turn.as_ref().map(|t| s.info(t.who).id.clone()),
        "combatants": chars,
        "outcome": s.outcome,
    })
}

/// A readable summary.
pub fn summary(s: &State) -> String {
    let mut out = String::new();
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
                "  {:<18} health {}/{}, endurance {}/{}, stamina {}/{}, focus {}/{} - {state}",
                s.name(c),
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
