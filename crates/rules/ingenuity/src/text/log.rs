//! Log lines: one readable line per event, and a test's dice as text.
//!
//! The decision behind this module: every event is described from the state it was applied to,
//! by name, so that a log reads the same at the table, in a saved game and in a replay.

use crate::calc;
use crate::command::slot_name;
use crate::data::Cond;
use crate::event::{DefenceKind, Event, TestRoll, TurnEnd};
use crate::setup::Cid;
use crate::state::{Ext, ReadyAction, State};
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

pub(super) fn ext_text(s: &State, e: &Ext) -> String {
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
