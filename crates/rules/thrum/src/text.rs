//! What a GM reads: event descriptions, the pending prompt, the state summary, per-seat views.

use crate::ability::{Cond, XStatus};
use crate::command::{Gauge, Target};
use crate::event::{Event, NotOfferedWhy, OnlyDefence, Removal, Rolled, Verdict};
use crate::setup::Cid;
use crate::state::{Frame, Phase, State, Step, UseStage};
use fray_engine::{Pending, Seat};
use serde::Serialize;
use std::fmt::Write;

fn roll_text(r: &Rolled) -> String {
    let mut s = r.roll.describe();
    if let Some(i) = s.find(" = ") {
        s.truncate(i);
    }
    let sign = if r.modifier < 0 { "-" } else { "+" };
    let _ = write!(s, " {sign}{} = {}", r.modifier.abs(), r.total);
    match r.net {
        0 => {}
        1 => s.push_str(" (1 Boon)"),
        n if n > 1 => {
            let _ = write!(s, " ({n} Boons)");
        }
        -1 => s.push_str(" (1 Bane)"),
        n => {
            let _ = write!(s, " ({} Banes)", -n);
        }
    }
    s
}

pub(crate) fn cap(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// One log line for an event (after it was applied), or `None` for bookkeeping.
pub fn describe(s: &State, e: &Event) -> Option<String> {
    let n = |c: &Cid| s.name(*c).to_string();
    let ab = |a: &u16| s.setup.book.get(*a).name.clone();
    Some(match e {
        Event::InitiativeRolled { who, roll } => format!("{} rolls Initiative: {}", n(who), roll_text(roll)),
        Event::RollOff { who, roll } => format!("{} rolls off a tie: {}", n(who), roll.describe()),
        Event::OrderSet { order } => {
            let list: Vec<String> = order
                .slots()
                .iter()
                .map(|sl| format!("{} ({})", s.name(sl.who), sl.key))
                .collect();
            format!("Turn order: {}", list.join(", "))
        }
        Event::RoundStarted { round: 0 } => "== Round Zero: placement and stances ==".into(),
        Event::RoundStarted { round } => format!("== Round {round} =="),
        Event::RoundEnded { .. } | Event::SlotUp { .. } | Event::StepChanged { .. } => return None,
        Event::Push { .. }
        | Event::SetTop { .. }
        | Event::SetFrame { .. }
        | Event::FrameChanged { .. }
        | Event::Pop
        | Event::AutoStepsCleared => {
            return None;
        }
        Event::TurnEnded { .. } | Event::Cleared { .. } | Event::StandingUse { .. } => return None,
        Event::Delayed { who, after: Some(t) } => format!("{} delays until after {}", n(who), n(t)),
        Event::Delayed { who, after: None } => format!("{} delays to the end of the round", n(who)),
        Event::TurnStarted { who } => match s.phase {
            Phase::RoundZero => format!("-- {} (Round Zero) --", n(who)),
            _ => format!("-- {}'s turn --", n(who)),
        },
        Event::TurnStunned => format!("{} is Stunned: Move or Action this turn, not both", s.name(s.turn.who)),
        Event::Placed { who, at } => format!("{} starts at {at}", n(who)),
        Event::Moved {
            who,
            from,
            to,
            cost,
            forced,
        } => {
            if from == to {
                format!("{} stumbles and stays at {from} ({cost} movement lost)", n(who))
            } else if *forced {
                format!("{} is moved {from} -> {to}", n(who))
            } else {
                format!("{} moves {from} -> {to} ({cost} movement)", n(who))
            }
        }
        Event::Teleported { who, from, to, cost } => format!("{} teleports {from} -> {to} ({cost} movement)", n(who)),
        Event::WeaverIgnored { who, slowed: true } => format!("{} (the Weaver) ignores Slowed this turn", n(who)),
        Event::WeaverIgnored { who, slowed: false } => {
            format!("{} (the Weaver) ignores the extra cost of this step", n(who))
        }
        Event::DropRolled {
            who,
            attr,
            roll,
            opposition,
            against,
            passed,
        } => {
            let vs = match opposition {
                Some(o) => format!("the environment {}", roll_text(o)),
                None => format!("{against}"),
            };
            format!(
                "{} rolls {} against the drop: {} vs {vs}: {}",
                n(who),
                attr.name(),
                roll_text(roll),
                if *passed { "lands safely" } else { "fails" }
            )
        }
        Event::Drifted {
            who,
            roll,
            intended,
            actual,
        } => {
            if intended == actual {
                format!(
                    "{} is Disoriented: drift roll {}: steps {actual} as intended",
                    n(who),
                    roll.describe()
                )
            } else {
                format!(
                    "{} is Disoriented: drift roll {}: meant to step {intended}, steps {actual}",
                    n(who),
                    roll.describe()
                )
            }
        }
        Event::MovementStopped { who } => format!("{}'s movement ends for this turn", n(who)),
        Event::Declared {
            user,
            ability,
            target,
            overexert,
        } => {
            let a = s.setup.book.get(*ability);
            let mut t = format!("{} uses {}", n(user), a.name);
            match target {
                Target::Chars(l) if !l.is_empty() => {
                    let names: Vec<String> = l.iter().map(&n).collect();
                    let _ = write!(t, " on {}", names.join(", "));
                }
                Target::Area(p) => {
                    let _ = write!(t, " on the area at {p}");
                }
                Target::Line(p, d) => {
                    let _ = write!(t, " along the line from {p} {d}");
                }
                Target::Toward(d) => {
                    let _ = write!(t, " toward {d}");
                }
                Target::Square(p) => {
                    let _ = write!(t, " at {p}");
                }
                _ => {}
            }
            if let Some(o) = overexert.and_then(|i| a.overexert.get(i as usize)) {
                let _ = write!(t, ", overexerting ({})", o.label);
            }
            t
        }
        Event::DefenceChosen { who, defence, only } => match only {
            Some(why) => format!(
                "{} defends with {} (taken for it: the only choice, {})",
                n(who),
                cap(defence.name()),
                only_defence_why(s, *who, *why)
            ),
            None => format!("{} defends with {}", n(who), cap(defence.name())),
        },
        Event::BeganByItself { who, why } => format!("{}'s turn began by itself (the only choice: {why})", n(who)),
        Event::NotOffered {
            who,
            ability,
            about,
            why,
        } => {
            format!(
                "{}'s {} is not offered (about {}): {}",
                n(who),
                ab(ability),
                n(about),
                not_offered_why(s, *who, *why)
            )
        }
        Event::TriggerUsed { who, ability, about } => format!("{} uses {} (about {})", n(who), ab(ability), n(about)),
        Event::TriggerPassed { who, ability } => format!("{} does not use {}", n(who), ab(ability)),
        Event::Contest {
            user,
            target,
            ability: _,
            attack,
            defence,
            with,
            verdict,
        } => {
            let a = attack.as_deref().map_or("automatic".to_string(), roll_text);
            let d = match defence {
                Some(d) => format!("{} {}", cap(with.name()), roll_text(d)),
                None => "no defence".to_string(),
            };
            let v = match verdict {
                Verdict::AttackerCritical => "critical hit",
                Verdict::AttackerSuccess => "hit",
                Verdict::DefenderSuccess => "defended",
                Verdict::DefenderCritical => "critical defence",
            };
            format!("{} attacks {}: {a} vs {d}: {v}", n(user), n(target))
        }
        Event::Damage {
            who,
            gauge,
            amount,
            vulnerable,
        } => {
            let c = s.ch(*who);
            let (what, load, tol) = match gauge {
                Gauge::Stress => ("Stress", c.stress, c.st),
                _ => ("Fatigue", c.fatigue, c.ft),
            };
            let extra = if *vulnerable > 0 {
                format!(" ({} + {} Vulnerable)", amount - vulnerable, vulnerable)
            } else {
                String::new()
            };
            let mut t = format!("{} takes {amount} {what}{extra}: {what} {load}/{tol}", n(who));
            if load > tol {
                t.push_str(if matches!(gauge, Gauge::Stress) {
                    ", Frayed"
                } else {
                    ", Exhausted"
                });
            }
            t
        }
        Event::Set { who, gauge, value } => format!("{}'s {} is now {value}", n(who), gauge_name(*gauge)),
        Event::Status { who, status, x: 0 } => format!("{}'s {} ends", n(who), cap(status.name())),
        Event::Status { who, status, x } => format!("{} is {} {x}", n(who), cap(status.name())),
        Event::Condition {
            who, cond, on: true, ..
        } => format!("{} is {}", n(who), cap(cond.name())),
        Event::Condition {
            who, cond, on: false, ..
        } => format!("{} is no longer {}", n(who), cap(cond.name())),
        Event::DazedX { .. } => return None,
        Event::StanceEntered { who, ability } => format!("{} takes the {} stance", n(who), ab(ability)),
        Event::StanceEnded { who, ability } => format!("{}'s {} stance ends", n(who), ab(ability)),
        Event::PanicRolled {
            who,
            roll,
            load,
            passed,
        } => format!(
            "{} makes a Panic Roll: {} vs Stress {load}: {}",
            n(who),
            roll_text(roll),
            if *passed { "holds together" } else { "panics" }
        ),
        Event::IncapacityRolled {
            who,
            roll,
            load,
            passed,
        } => format!(
            "{} makes an Incapacity Roll: {} vs Fatigue {load}: {}",
            n(who),
            roll_text(roll),
            if *passed { "stays up" } else { "fails" }
        ),
        Event::Incapacitated { who } => format!("{} is Incapacitated", n(who)),
        Event::Revived { who } => format!("{} is no longer Incapacitated", n(who)),
        Event::Wounded { who, wounds } => format!("{} takes a Wound ({wounds} of 3)", n(who)),
        Event::Removed { who, why } => format!(
            "{} is removed from combat ({})",
            n(who),
            match why {
                Removal::Wounds => "three Wounds",
                Removal::CoupDeGrace => "Coup de Grace",
                Removal::Gm => "GM ruling",
                Removal::Vanished => "a Minion vanishes when hurt",
                Removal::CreatorGone => "its controller is gone",
            }
        ),
        Event::Joined { info } => format!(
            "{} joins the fight at {}",
            info.name,
            info.start.map_or("?".into(), |p| p.to_string())
        ),
        Event::OrderJoined { who, key, this_round } => format!(
            "{} enters the turn order at {key}{}",
            n(who),
            if *this_round { "" } else { " (first turn next round)" }
        ),
        Event::NovaEarned {
            who,
            ability,
            potential,
        } => format!("{}'s {} gains Potential ({potential})", n(who), ab(ability)),
        Event::NovaSpent {
            who,
            ability,
            potential,
        } => {
            format!("{} spends the Potential of {} ({potential} left)", n(who), ab(ability))
        }
        Event::BuffGained { who, buff } => {
            format!("{} benefits from {}'s {}", n(who), n(&buff.creator), ab(&buff.ability))
        }
        Event::BuffUsed { who, uses } => format!("{} uses its Buff ({uses} use(s) left)", n(who)),
        Event::LeftArea { who } => format!("{} is no longer in the area and is not affected", n(who)),
        Event::BuffRenewed { who, uses } => format!("{}'s Buff is kept and renewed ({uses} use(s))", n(who)),
        Event::BuffEnded { who, creator, ability } => {
            format!("{}'s Buff {} (from {}) ends", n(who), ab(ability), n(creator))
        }
        Event::BuffDeclined { who, creator, ability } => format!(
            "{} declines {}'s {} and keeps its current Buff",
            n(who),
            n(creator),
            ab(ability)
        ),
        Event::RevivedAtOnce { who, load } => {
            let id = &s.info(*who).id;
            format!(
                "{} came back at once: becoming Incapacitated lowers the Fatigue Load by 1 (it was {load}), and a Load of 0 ends Incapacity (THR-R172, THR-R177). To keep {} down, set the load first: gm set {id} fatigue =N (N of 2 or more), then gm incapacitate {id}",
                n(who),
                n(who)
            )
        }
        Event::ForcedMoveStopped { who, at, by, left } => {
            let why = match by {
                Some(o) if s.allies(*who, *o) => format!("{} (an ally) is in the way", n(o)),
                Some(o) if s.enemies(*who, *o) => format!("{} (an enemy) is in the way", n(o)),
                Some(o) => format!("{} is in the way", n(o)),
                None => "a wall or the map's edge is in the way".to_string(),
            };
            format!(
                "{}'s forced move stops at {at} with {left} square(s) to go: {why}",
                n(who)
            )
        }
        Event::TerrainPlaced { effect } => {
            let shape = match effect.aura {
                Some(r) => format!("an Aura {r} around {}", n(&effect.creator)),
                None => format!("{} squares", effect.squares.len()),
            };
            format!(
                "{} creates {} ({shape}){}",
                n(&effect.creator),
                ab(&effect.ability),
                if effect.upkeep.is_some() {
                    ", kept up by Overexert"
                } else {
                    ""
                }
            )
        }
        Event::TerrainRemoved { creator, ability, .. } => {
            format!("{}'s Terrain Effect {} ends", n(creator), ab(ability))
        }
        Event::UpkeepEnded { index } => match s.terrain.get(*index as usize) {
            Some(t) => format!(
                "{} does not pay the upkeep Overexert of {} again: the effect it added ends",
                n(&t.creator),
                ab(&t.ability)
            ),
            None => "An upkeep Overexert is not paid again and its effect ends".into(),
        },
        Event::TurnBanes { who, banes } => format!("{} has {banes} Bane(s) on its rolls this turn", n(who)),
        Event::InitiativeChanged { who, delta, .. } => format!("{}'s Initiative changes by {delta:+}", n(who)),
        Event::Relocated { who, to } => format!("{} is placed at {to}", n(who)),
        Event::Barred { who } => format!(
            "{} has no Fatigue Tolerance left and sits out further combat until Downtime",
            n(who)
        ),
        Event::HoldCounted { count, .. } => format!("The objective has been held at the end of {count} round(s)"),
        Event::CombatEnded { outcome } => {
            let who = outcome.winner.map_or("nobody wins".to_string(), |w| {
                format!("{} win", s.setup.sides[w as usize].name)
            });
            format!("== Combat ends: {who} ({}) ==", outcome.reason)
        }
    })
}

/// Why a defence was taken for `who` (read from the ability use on the stack, which is still
/// there when its defence is chosen).
/// Why a defence was the only choice, as a clause.
pub fn only_defence_why(s: &State, who: Cid, why: OnlyDefence) -> String {
    let name = s.name(who);
    match why {
        OnlyDefence::Incapacitated => {
            format!("{name} is Incapacitated and does not defend (incapacitated-may-defend = false)")
        }
        OnlyDefence::Minion => "a Minion defends only with its controller's Resolve".into(),
        OnlyDefence::SlowedSpecial => {
            format!("{name} is Slowed, so no Evasion; against a Special Attack only declining is left")
        }
        OnlyDefence::Slowed => format!("{name} is Slowed, so no Evasion"),
        OnlyDefence::NoOther => "no other defence applies".into(),
    }
}

/// Why a trigger was not offered to its holder `who`, as a clause.
pub fn not_offered_why(s: &State, who: Cid, why: NotOfferedWhy) -> String {
    let name = s.name(who);
    match why {
        NotOfferedWhy::IgnoresEnemyTriggers => "the attack ignores enemy triggers".to_string(),
        NotOfferedWhy::Immobilized => format!("{name} is Immobilized and it only moves"),
        NotOfferedWhy::AlreadyMoved => format!("{name} already moved in answer to this ability (triggered-moves)"),
        NotOfferedWhy::DepthLimit => format!(
            "the chain of triggers is at its limit (trigger-depth-limit = {})",
            s.options.trigger_depth_limit
        ),
    }
}

fn gauge_name(g: Gauge) -> &'static str {
    match g {
        Gauge::Fatigue => "Fatigue Load",
        Gauge::Stress => "Stress Load",
        Gauge::FatigueTolerance => "Fatigue Tolerance",
        Gauge::StressTolerance => "Stress Tolerance",
        Gauge::Wounds => "Wounds",
        Gauge::Initiative => "Initiative",
        Gauge::Mark => "Mark",
        Gauge::Scouted => "Scouted",
    }
}

/// The pending decision in a sentence.
/// The pending decision in a line as `seat` may know it: how far a Hidden combatant of
/// another side still may move would tell where it went (THR-R219, fray's reading), so its
/// turn is described without it, as the tracker does.
pub fn describe_pending_for(s: &State, p: &Pending<crate::stage::Stage>, seat: Seat) -> String {
    let moving = matches!(s.turn.step, Step::Move | Step::ActionMove);
    if !s.stack.is_empty() || !moving || !crate::board::hidden_from(s, seat, s.turn.who) {
        return describe_pending(s, p);
    }
    let who = s.name(s.turn.who);
    match s.turn.step {
        Step::Move => format!("Round {}: {who}'s turn: move, act, take a stance or end", s.round),
        _ => format!("Round {}: {who} moves again, then a stance or end", s.round),
    }
}

pub fn describe_pending(s: &State, p: &Pending<crate::stage::Stage>) -> String {
    if let Some(top) = s.stack.last() {
        return match top {
            Frame::Use(u) if u.stage == UseStage::Defences => {
                let t = u.targets[u.index as usize];
                format!(
                    "{} is attacked by {} with {}: choose a defence",
                    s.name(t),
                    s.name(u.user),
                    s.setup.book.get(u.ability).name
                )
            }
            Frame::Window(w) => {
                let (h, a) = w.candidates[w.asked as usize];
                let about = s
                    .use_at(w.use_frame as usize)
                    .map(|u| (u.user, u.targets[w.target_index as usize]));
                match about {
                    Some((att, t)) => format!(
                        "{} may use {} ({} attacks {})",
                        s.name(h),
                        s.setup.book.get(a).name,
                        s.name(att),
                        s.name(t)
                    ),
                    None => format!("{} may use {}", s.name(h), s.setup.book.get(a).name),
                }
            }
            Frame::Roll(r) => format!(
                "{} failed its {} Roll: reroll with its Buff, or pass",
                s.name(r.who),
                match r.kind {
                    crate::state::FixedKind::Panic => "Panic",
                    crate::state::FixedKind::Incapacity => "Incapacity",
                }
            ),
            Frame::Prompt(crate::state::Prompt::Move {
                who,
                budget,
                toward: Some(t),
            }) => {
                format!(
                    "{} may move up to {budget} squares toward {}, or pass",
                    s.name(*who),
                    s.name(*t)
                )
            }
            Frame::Prompt(crate::state::Prompt::Move {
                who,
                budget,
                toward: None,
            }) => {
                format!("{} may move up to {budget} squares, or pass", s.name(*who))
            }
            Frame::Prompt(crate::state::Prompt::BuffReplace {
                target,
                creator,
                ability,
            }) => format!(
                "{} already has a Buff: accept {}'s {} (ending the old one) or decline it",
                s.name(*target),
                s.name(*creator),
                s.setup.book.get(*ability).name
            ),
            Frame::Prompt(crate::state::Prompt::BuffKeep { creator, target, cost }) => format!(
                "{}'s Buff on {} is used up: keep it (pay {cost} Stress) or release it",
                s.name(*creator),
                s.name(*target)
            ),
            Frame::Prompt(crate::state::Prompt::Upkeep { creator, cost, .. }) => {
                format!(
                    "{}: pay {cost} Stress to keep its Overexert going (keep), or release it",
                    s.name(*creator)
                )
            }
            _ => format!("a decision for {}", p.seats),
        };
    }
    let who = s.name(s.turn.who);
    let left = crate::reach::movement_left(s).max(0);
    let speed = crate::calc::speed(s, s.turn.who);
    match s.turn.step {
        Step::Slot => format!("Round {}: {who}'s slot: begin the turn or delay", s.round),
        Step::Place => format!("Round Zero: {who} picks a starting square in the Starting Area"),
        Step::Move => format!(
            "Round {}: {who}'s turn ({left} of {speed} movement left): move, act, take a stance or end",
            s.round
        ),
        Step::ActionMove => format!(
            "Round {}: {who} moves again ({left} of {speed} movement left), then a stance or end",
            s.round
        ),
        Step::Stance if s.phase == Phase::RoundZero => format!("Round Zero: {who} may take a stance, or end"),
        Step::Stance => format!("Round {}: {who}: take a stance or end the turn", s.round),
        Step::Done => format!("{who}'s turn is over"),
    }
}

/// A readable table of every combatant.
pub fn summary(s: &State) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: round {}{}",
        s.setup.title,
        s.round,
        if s.phase == Phase::Ended { " (ended)" } else { "" }
    );
    // Once the combat is over, each combatant is shown as the fight left it: End of Combat has
    // cleared Loads, Incapacity and statuses since (THR-R183 to THR-R187), which a line says.
    let chars: &[crate::state::Char] = s.fought.as_deref().map_or(&s.chars, |v| v.as_slice());
    let names: Vec<String> = s.ids().map(|c| text_name(s, c)).collect();
    let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(16);
    let side_w = s
        .setup
        .sides
        .iter()
        .map(|d| d.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    for c in s.ids() {
        let ch = chars.get(c as usize).unwrap_or(s.ch(c));
        let now = s.ch(c);
        let info = s.info(c);
        let mut flags = Vec::new();
        if ch.removed {
            flags.push("removed".to_string());
        } else if ch.incapacitated {
            flags.push("Incapacitated".to_string());
        }
        if now.barred {
            flags.push("barred until Downtime".into());
        }
        if let Some(st) = ch.stance {
            flags.push(format!("stance {}", s.setup.book.get(st).name));
        }
        for x in XStatus::ALL {
            if ch.status(x) > 0 {
                flags.push(format!("{} {}", cap(x.name()), ch.status(x)));
            }
        }
        for k in Cond::ALL {
            if ch.has(k) {
                flags.push(cap(k.name()));
            }
        }
        if let Some(b) = ch.buff {
            flags.push(format!("Buff {}", s.setup.book.get(b.ability).name));
        }
        for n in &now.nova {
            flags.push(format!(
                "{} Potential {}",
                s.setup.book.get(n.ability).name,
                n.potential
            ));
        }
        let _ = writeln!(
            out,
            "  {:<name_w$} {:<side_w$} at {:<7} Fatigue {}/{}  Stress {}/{}  Wounds {}{}",
            names[c as usize],
            s.setup.sides[info.side as usize].id,
            ch.pos.map_or("-".into(), |p| p.to_string()),
            ch.fatigue,
            now.ft,
            ch.stress,
            now.st,
            now.wounds,
            if flags.is_empty() {
                String::new()
            } else {
                format!("  [{}]", flags.join(", "))
            }
        );
    }
    if s.fought.is_some() {
        let cleared = if s.options.clear_at_end {
            "Loads and statuses"
        } else {
            "the Loads"
        };
        let _ = writeln!(
            out,
            "  (as the fight left them, before End of Combat cleared {cleared})"
        );
    }
    out
}

/// A combatant's name for tables: with its id where another combatant has the same name (two
/// made from one template), so each line says whom it is about.
pub(crate) fn text_name(s: &State, c: crate::setup::Cid) -> String {
    let info = s.info(c);
    if s.setup.chars.iter().filter(|o| o.name == info.name).count() > 1 {
        format!("{} ({})", info.name, info.id)
    } else {
        info.name.clone()
    }
}

#[derive(Serialize)]
struct ViewChar<'a> {
    id: &'a str,
    name: &'a str,
    side: &'a str,
    pc: bool,
    pos: Option<[i16; 2]>,
    fatigue: i16,
    fatigue_tolerance: i16,
    stress: i16,
    stress_tolerance: i16,
    wounds: i16,
    incapacitated: bool,
    removed: bool,
    barred: bool,
    stance: Option<&'a str>,
    statuses: Vec<(String, u8)>,
    conditions: Vec<&'static str>,
    initiative: i16,
    nova_potential: Vec<(&'a str, u8)>,
    buff: Option<&'a str>,
    /// The Buff's creator and uses left.
    buff_from: Option<&'a str>,
    buff_uses: Option<u8>,
    mark: u8,
    scouted: u8,
    speed: i16,
    /// Delays taken in this combat.
    delays: u8,
    /// Every status and condition with its value (X, when it has one) and when it ends.
    effects: Vec<ViewEffect>,
}

#[derive(Serialize)]
struct ViewEffect {
    name: String,
    value: Option<u8>,
    ends: String,
}

#[derive(Serialize)]
struct ViewSlot<'a> {
    id: &'a str,
    /// The sort key (the Initiative total, or the one inherited by delaying).
    initiative: i32,
    /// `acting`, `done`, `delayed`, `waiting` or `out`.
    state: &'static str,
    acted: bool,
    delayed: bool,
}

#[derive(Serialize)]
struct View<'a> {
    title: &'a str,
    round: u16,
    phase: &'static str,
    turn: Option<&'a str>,
    /// The step of the current turn.
    step: &'static str,
    /// Movement left to the acting character (in its Move steps).
    movement_left: Option<i16>,
    /// The turn order with who has acted and who has delayed this round.
    order: Vec<ViewSlot<'a>>,
    combatants: Vec<ViewChar<'a>>,
    outcome: Option<&'a fray_engine::Outcome>,
}

/// What a seat may see: the GM sees everything; other seats do not see where Hidden enemies
/// are. Besides every combatant's gauges, statuses and conditions (each with its value and when
/// it ends), Mark and Scouted, it gives the turn order with who has acted, who is acting and who
/// has delayed this round.
pub fn view(s: &State, seat: Seat) -> serde_json::Value {
    let combatants = s
        .ids()
        .map(|c| {
            let ch = s.ch(c);
            let info = s.info(c);
            let hidden = crate::board::hidden_from(s, seat, c);
            ViewChar {
                id: &info.id,
                name: &info.name,
                side: &s.setup.sides[info.side as usize].id,
                pc: s.is_pc(c),
                pos: if hidden { None } else { ch.pos.map(|p| [p.x, p.y]) },
                fatigue: ch.fatigue,
                fatigue_tolerance: ch.ft,
                stress: ch.stress,
                stress_tolerance: ch.st,
                wounds: ch.wounds,
                incapacitated: ch.incapacitated,
                removed: ch.removed,
                barred: ch.barred,
                stance: ch.stance.map(|a| s.setup.book.get(a).id.as_str()),
                statuses: XStatus::ALL
                    .iter()
                    .filter(|x| ch.status(**x) > 0)
                    .map(|x| (x.name().to_string(), ch.status(*x)))
                    .collect(),
                conditions: Cond::ALL.iter().filter(|k| ch.has(**k)).map(|k| k.name()).collect(),
                initiative: ch.initiative,
                nova_potential: ch
                    .nova
                    .iter()
                    .map(|n| (s.setup.book.get(n.ability).id.as_str(), n.potential))
                    .collect(),
                buff: ch.buff.map(|b| s.setup.book.get(b.ability).id.as_str()),
                buff_from: ch.buff.map(|b| s.info(b.creator).id.as_str()),
                buff_uses: ch.buff.map(|b| b.uses),
                mark: ch.mark,
                scouted: ch.scouted,
                speed: crate::calc::speed(s, c),
                delays: ch.delays,
                effects: crate::board::effects(s, c)
                    .into_iter()
                    .map(|(name, value, ends)| ViewEffect { name, value, ends })
                    .collect(),
            }
        })
        .collect();
    let order = s
        .order
        .slots()
        .iter()
        .map(|sl| ViewSlot {
            id: &s.info(sl.who).id,
            initiative: sl.key,
            state: crate::board::slot_state(s, sl.who),
            acted: sl.acted,
            delayed: sl.delayed,
        })
        .collect();
    // How far a Hidden enemy has moved would tell where it went, so its movement left is not shown.
    let moving = s.phase == Phase::Rounds
        && matches!(s.turn.step, Step::Move | Step::ActionMove)
        && !crate::board::hidden_from(s, seat, s.turn.who);
    let v = View {
        title: &s.setup.title,
        round: s.round,
        phase: match s.phase {
            Phase::RoundZero => "round-zero",
            Phase::Rounds => "rounds",
            Phase::Ended => "ended",
        },
        turn: (s.phase != Phase::Ended).then(|| s.info(s.turn.who).id.as_str()),
        step: match s.turn.step {
            Step::Slot => "slot",
            Step::Place => "place",
            Step::Move => "move",
            Step::ActionMove => "action-move",
            Step::Stance => "stance",
            Step::Done => "done",
        },
        movement_left: moving.then(|| crate::reach::movement_left(s).max(0)),
        order,
        combatants,
        outcome: s.outcome.as_ref(),
    };
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}
