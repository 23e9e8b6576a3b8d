//! The text layer (`TextRuleset`): encounters in, commands as text, log lines, the pending
//! decision, the summary, the map, the tracker, odds. Nothing is hidden in the skeleton, so
//! every seat sees the same.

use crate::command::{self, Command};
use crate::state::{Event, State};
use crate::{Skeleton, ai, codes, odds, setup};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::gm::Ruling;
use fray_engine::kit::text::{self as kit, Names, roster_grid};
use fray_engine::resolve::FrameOp;
use fray_engine::text::{Loaded, ReadFile, TextRuleset};
use fray_engine::view::{Board, CombatantView, Gauge, Place, Status, Table};
use fray_engine::{Pending, Policy, Reject, Seat};
use std::fmt::Write;

impl TextRuleset for Skeleton {
    const EVENT_COMBATANTS: &'static [&'static str] = &["who", "by", "target"];

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    fn load(source: &SourceFile, _: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        let (setup, options) = setup::load(source)?;
        let title = setup.title.clone();
        Ok(Loaded { setup, options, title })
    }

    fn parse_command(s: &State, text: &str) -> Result<Command, Reject> {
        command::parse(s, text)
    }

    fn format_command(s: &State, c: &Command) -> String {
        command::format(s, c)
    }

    fn describe_event(s: &State, e: &Event) -> Option<String> {
        let name = |w: &u16| s.ch(*w).name.as_str();
        Some(match e {
            Event::Initiative { who, roll, total } => format!("{}: initiative {total} (d6 {roll})", name(who)),
            Event::RoundStarted { round } => {
                let order: Vec<&str> = s
                    .order
                    .slots()
                    .iter()
                    .filter(|x| x.active)
                    .map(|x| name(&x.who))
                    .collect();
                format!("Round {round} (order: {})", order.join(", "))
            }
            Event::TurnStarted { who } => format!("{}'s turn", name(who)),
            Event::Moved { who, to, .. } => format!("{} moves to {to}", name(who)),
            Event::Frame(FrameOp::Push(a)) => format!("{} attacks {}", name(&a.by), name(&a.target)),
            Event::Frame(_) | Event::TurnEnded { .. } => return None,
            Event::Attacked {
                by,
                roll,
                total,
                defence,
                dodged,
                hit,
                ..
            } => format!(
                "d20 {roll} + {} = {total} against defence {defence}{}: {}",
                s.ch(*by).stats.attack,
                if *dodged { " (dodging)" } else { "" },
                if *hit { "hit" } else { "miss" }
            ),
            Event::Damaged { who, amount } => {
                let out = if s.ch(*who).out() { ", out of the fight" } else { "" };
                format!("{} takes {amount} damage: health {}{out}", name(who), s.ch(*who).health)
            }
            Event::Ruled(r) => {
                let ruling = command::format(s, &Command::Gm(r.clone()));
                match (r, result(s)) {
                    (Ruling::End { .. }, Some(res)) => format!("Ruling: {ruling}: the combat ends, {res}"),
                    _ => format!("Ruling: {ruling}"),
                }
            }
            Event::Ended { .. } => format!("The combat ends: {}", result(s)?),
        })
    }

    fn describe_pending(s: &State, _: &Pending<crate::stage::Stage>) -> String {
        now(s)
    }

    // The title and the seat names come from here.
    fn names(s: &State) -> Option<Names<'_>> {
        let (title, seats) = (&s.setup.title, &s.setup.seats);
        Some(Names { title, seats })
    }

    fn summary(s: &State) -> String {
        let mut out = result(s).map_or_else(|| format!("Round {}, under way", s.round), |r| format!("Result: {r}"));
        for c in &s.chars {
            let side = &s.setup.sides[c.side as usize].name;
            let gone = if c.out() { ", out" } else { "" };
            let _ = write!(
                out,
                "\n  {} ({side}): health {}/{}{gone}",
                c.name, c.health, c.stats.health
            );
        }
        out + "\n"
    }

    /// The battlefield: `#` blocked, `.` open, a letter per combatant in the fight, and a legend.
    fn map(s: &State, _: Seat) -> Option<String> {
        Some(format!("{}\n{}", now(s), roster_grid(&s.setup.map, &s.chars, |c| c.at)))
    }

    /// The order with who is acting and who has acted, and every combatant's gauges.
    fn tracker(s: &State, _: Seat) -> String {
        let mut out = format!("{}\n", now(s));
        for slot in s.order.slots() {
            let c = s.ch(slot.who);
            let acting = if s.turn.as_ref().is_some_and(|t| t.who == slot.who) {
                "> "
            } else {
                "  "
            };
            let side = &s.setup.sides[c.side as usize].id;
            let gauges = match c.out() {
                true => "out".to_string(),
                false => format!("health {}/{} at {}", c.health, c.stats.health, c.at),
            };
            let acted = if slot.acted { ", acted" } else { "" };
            let _ = writeln!(out, "{acting}{} ({side}): {gauges}{acted}", c.name);
        }
        out
    }

    // Nothing is hidden: every seat sees every square and every number.
    fn table(s: &State, _: Seat) -> Table {
        let turn = s.turn.as_ref().map(|t| t.who);
        Table {
            round: s.round,
            phase: None,
            order: s.order.slots().iter().map(|slot| s.ch(slot.who).id.clone()).collect(),
            combatants: s
                .ids()
                .map(|who| {
                    let c = s.ch(who);
                    let side = &s.setup.sides[c.side as usize];
                    let mut statuses = Vec::new();
                    if c.dodged {
                        statuses.push(Status {
                            name: "dodged".into(),
                            value: None,
                            ends: Some("end of the round".into()),
                        });
                    }
                    if turn == Some(who)
                        && let Some(t) = &s.turn
                    {
                        statuses.push(Status {
                            name: "moves-left".into(),
                            value: Some(t.moves_left.to_string()),
                            ends: Some("end of its turn".into()),
                        });
                    }
                    CombatantView {
                        id: c.id.clone(),
                        name: c.name.clone(),
                        side: side.id.clone(),
                        seat: Self::seat_name(s, s.seat_of(who)),
                        place: (!c.removed).then(|| Place::square(c.at.x, c.at.y)),
                        gauges: vec![Gauge::of("health", c.health, c.stats.health)],
                        statuses,
                        out: c.out(),
                    }
                })
                .collect(),
            sides: s.setup.sides.iter().map(|x| x.id.clone()).collect(),
            unseen: Vec::new(),
        }
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::default())
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        let (attack, defence) = odds::parse(args)?;
        let o = odds::attack(attack, defence);
        Ok((odds::text(&o), serde_json::to_value(&o).map_err(|e| e.to_string())?))
    }

    fn gm_help() -> &'static str {
        "gm set <id> health +N|-N|=N     (0 takes the combatant out)
gm move <id> <x,y>              gm remove <id>
gm add <new-id> <template> <side> <x,y>   (acts last, from the next round)
gm end <side>|none"
    }

    /// The odds of each attack at the prompt, with and without the defender's dodge.
    fn note(s: &State, c: &Command) -> Option<String> {
        let (Command::Attack(x), Some(t)) = (c, &s.turn) else {
            return None;
        };
        let (me, foe) = (s.ch(t.who), s.chars.get(*x as usize)?);
        let p = |dodge: i16| 100.0 * odds::attack(me.stats.attack, foe.stats.defence + dodge).p_hit;
        Some(format!(
            "hit {:.0}% ({:.0}% if it dodges)",
            p(0),
            p(s.options.dodge_bonus)
        ))
    }

    /// The yard as every seat sees it: each square, `blocked` where it is (the one fact of a
    /// square the skeleton reads: other marks of the map are ignored), no elevations, nothing
    /// laid on it.
    fn board(s: &State, _: Seat) -> Option<Board> {
        Some(Board::grid(&s.setup.map, false, |c| {
            if c.blocked {
                vec!["blocked".to_string()]
            } else {
                Vec::new()
            }
        }))
    }
}

/// "X win (reason)" or "no winner (reason)", once the combat has ended.
fn result(s: &State) -> Option<String> {
    kit::result(&s.setup.sides, s.outcome.as_ref())
}

/// The pending decision (or the end) in a sentence.
fn now(s: &State) -> String {
    if let Some(a) = s.frames.last() {
        let (by, target, bonus) = (&s.ch(a.by).name, &s.ch(a.target).name, s.options.dodge_bonus);
        return format!("{by} attacks {target}: dodge (+{bonus} defence, once a round) or take");
    }
    match (&s.turn, result(s)) {
        (Some(t), _) => {
            let (c, attacked) = (s.ch(t.who), if t.attacked { ", attacked" } else { "" });
            let left = format!("{} of {} movement left{attacked}", t.moves_left, c.stats.speed);
            format!("Round {}: {}'s turn ({left}): move, attack or end", s.round, c.name)
        }
        (None, r) => r.map(|r| format!("The combat is over: {r}")).unwrap_or_default(),
    }
}
