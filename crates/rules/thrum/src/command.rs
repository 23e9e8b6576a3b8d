//! Commands: what seats can submit, with their typed form.
//!
//! The text form is documented in docs/commands.md and is stable: the prompt of `fray play`
//! prints every legal command in exactly the form [`parse`] reads back.

use crate::ability::{AbilityId, Attr, Defence};
use crate::setup::Cid;
use crate::state::{Pick, State, StatusRef};
use fray_engine::Reject;
use fray_space::{Dir, Pos};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What an action is aimed at.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Nothing to aim (self-only abilities, auras).
    None,
    /// Named characters.
    Chars(Vec<Cid>),
    /// An Area with its south-west corner on this square.
    Area(Pos),
    /// A Line starting on this square and running this way.
    Line(Pos, Dir),
    /// A line from next to the user to the map edge, this way.
    Toward(Dir),
    /// A square.
    Square(Pos),
}

/// An Action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    /// Which ability.
    pub ability: AbilityId,
    /// Aimed at what.
    pub target: Target,
    /// Picks for its choices.
    pub pick: Pick,
    /// The Overexert option declared.
    pub overexert: Option<u8>,
}

/// A number a ruling changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gauge {
    /// Fatigue Load.
    Fatigue,
    /// Stress Load.
    Stress,
    /// Current Fatigue Tolerance.
    FatigueTolerance,
    /// Current Stress Tolerance.
    StressTolerance,
    /// Wounds.
    Wounds,
    /// Initiative total.
    Initiative,
    /// Mark X.
    Mark,
    /// Scouted X.
    Scouted,
}

impl Gauge {
    /// The word used in commands and logs.
    pub fn name(self) -> &'static str {
        match self {
            Gauge::Fatigue => "fatigue",
            Gauge::Stress => "stress",
            Gauge::FatigueTolerance => "fatigue-tolerance",
            Gauge::StressTolerance => "stress-tolerance",
            Gauge::Wounds => "wounds",
            Gauge::Initiative => "initiative",
            Gauge::Mark => "mark",
            Gauge::Scouted => "scouted",
        }
    }

    fn parse(s: &str) -> Option<Gauge> {
        Some(match s {
            "fatigue" => Gauge::Fatigue,
            "stress" => Gauge::Stress,
            "fatigue-tolerance" | "ft" => Gauge::FatigueTolerance,
            "stress-tolerance" | "st" => Gauge::StressTolerance,
            "wounds" => Gauge::Wounds,
            "initiative" => Gauge::Initiative,
            "mark" => Gauge::Mark,
            "scouted" => Gauge::Scouted,
            _ => return None,
        })
    }
}

/// A change: add (possibly negative) or set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Adjust {
    /// Add this amount.
    Add(i16),
    /// Set to this value.
    Set(i16),
}

impl Adjust {
    /// The new value from the old.
    pub fn apply(self, old: i16) -> i16 {
        match self {
            Adjust::Add(d) => old.saturating_add(d),
            Adjust::Set(v) => v,
        }
    }

    fn parse(s: &str) -> Option<Adjust> {
        if let Some(v) = s.strip_prefix('=') {
            return v.parse().ok().map(Adjust::Set);
        }
        if let Some(v) = s.strip_prefix('+') {
            return v.parse().ok().map(Adjust::Add);
        }
        if s.starts_with('-') {
            return s.parse().ok().map(Adjust::Add);
        }
        None
    }

    fn text(self) -> String {
        match self {
            Adjust::Add(d) if d >= 0 => format!("+{d}"),
            Adjust::Add(d) => format!("{d}"),
            Adjust::Set(v) => format!("={v}"),
        }
    }
}

/// A GM ruling: recorded like any other command.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruling {
    /// Change a load, tolerance, wound count, initiative or mark.
    Adjust {
        /// Who.
        who: Cid,
        /// What.
        gauge: Gauge,
        /// How.
        by: Adjust,
    },
    /// Add or remove a status or condition (`by` = X for statuses; conditions use 0/1).
    Status {
        /// Who.
        who: Cid,
        /// Which.
        status: StatusRef,
        /// How.
        by: Adjust,
    },
    /// Incapacitate (true) or revive (false).
    Incapacitate {
        /// Who.
        who: Cid,
        /// On or off.
        on: bool,
    },
    /// Put a combatant on a square (no movement rules).
    Move {
        /// Who.
        who: Cid,
        /// Where.
        to: Pos,
    },
    /// A new combatant from a template joins (rolls Initiative on arrival, THR-R19).
    Add {
        /// Its id.
        id: String,
        /// The template name.
        template: String,
        /// Its side.
        side: u8,
        /// Its square.
        at: Pos,
    },
    /// Remove a combatant from combat (fled, surrendered...).
    Remove {
        /// Who.
        who: Cid,
    },
    /// End the combat now, with the given winning side (or none).
    End {
        /// The winner.
        winner: Option<u8>,
    },
}

/// Everything a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Begin the turn at this slot.
    Begin,
    /// Delay to just after a character (`None`: to the end of the round).
    Delay(Option<Cid>),
    /// Round Zero: start on this square.
    Place(Pos),
    /// Move to a square along the cheapest path, paying every cost.
    Move(Pos),
    /// Step once; on a drop of 2+ levels, `roll` replaces the extra cost with a roll.
    Step {
        /// Which way.
        dir: Dir,
        /// END or REF for the drop roll.
        roll: Option<Attr>,
    },
    /// Take an Action.
    Act(Action),
    /// Enter this Stance and end the turn.
    Stance(AbilityId),
    /// Keep the current Stance and end the turn.
    EndTurn,
    /// Pick a defence.
    Defend(Defence),
    /// Pick a defence and use the defender's Buff on it.
    DefendWith(Defence, AbilityId),
    /// Take a new Buff, ending the old one.
    Accept,
    /// Refuse a new Buff, keeping the old one.
    Decline,
    /// Reroll a failed Panic or Incapacity Roll with a Buff.
    Reroll,
    /// Pay to keep a Buff or an upkeep Overexert.
    Keep,
    /// Let a Buff or an upkeep Overexert end.
    Release,
    /// Use a triggered ability in the open window.
    Trigger(AbilityId),
    /// Decline to use a trigger.
    Pass,
    /// A GM ruling.
    Gm(Ruling),
}

fn reject(msg: impl Into<String>) -> Reject {
    Reject::new(Reject::UNKNOWN_COMMAND, msg)
}

fn who(state: &State, s: Option<&str>) -> Result<Cid, Reject> {
    let s = s.ok_or_else(|| reject("expected a combatant id"))?;
    state.find(s).ok_or_else(|| {
        let ids: Vec<&str> = state.setup.chars.iter().map(|c| c.id.as_str()).collect();
        reject(format!("no combatant '{s}' (known: {})", ids.join(", ")))
    })
}

fn pos(s: Option<&str>) -> Result<Pos, Reject> {
    let s = s.ok_or_else(|| reject("expected a square as x,y"))?;
    s.parse::<Pos>()
        .map_err(|_| reject(format!("'{s}' is not a square: expected x,y such as 3,4")))
}

fn dir(s: Option<&str>) -> Result<Dir, Reject> {
    let s = s.ok_or_else(|| reject("expected a direction (n, ne, e, se, s, sw, w, nw)"))?;
    s.parse::<Dir>().map_err(|_| {
        reject(format!(
            "'{s}' is not a direction: expected n, ne, e, se, s, sw, w or nw"
        ))
    })
}

fn ability(state: &State, s: Option<&str>) -> Result<AbilityId, Reject> {
    let s = s.ok_or_else(|| reject("expected an ability id"))?;
    state
        .setup
        .book
        .find(s)
        .ok_or_else(|| reject(format!("no ability '{s}'")))
}

fn attr(s: Option<&str>) -> Result<Attr, Reject> {
    match s {
        Some("end") => Ok(Attr::End),
        Some("ref") => Ok(Attr::Ref),
        _ => Err(reject("expected 'end' or 'ref'")),
    }
}

fn end(words: &mut std::slice::Iter<'_, &str>) -> Result<(), Reject> {
    match words.next() {
        None => Ok(()),
        Some(w) => Err(reject(format!("unexpected '{w}' at the end of the command"))),
    }
}

/// Parses a typed command.
pub fn parse(state: &State, text: &str) -> Result<Command, Reject> {
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let mut w = words.iter();
    let cmd = match w.next().copied() {
        None => return Err(reject("empty command")),
        Some("begin") => Command::Begin,
        Some("delay") => match w.next().copied() {
            Some("end") => Command::Delay(None),
            Some("after") => Command::Delay(Some(who(state, w.next().copied())?)),
            _ => return Err(reject("expected 'delay after <id>' or 'delay end'")),
        },
        Some("place") => Command::Place(pos(w.next().copied())?),
        Some("move") => Command::Move(pos(w.next().copied())?),
        Some("step") => {
            let d = dir(w.next().copied())?;
            let roll = match w.next().copied() {
                None => None,
                Some("roll") => Some(attr(w.next().copied())?),
                Some(x) => return Err(reject(format!("unexpected '{x}': expected 'roll end' or 'roll ref'"))),
            };
            Command::Step { dir: d, roll }
        }
        Some("stance") => Command::Stance(ability(state, w.next().copied())?),
        Some("end") => Command::EndTurn,
        Some("defend") => {
            let d = w
                .next()
                .copied()
                .ok_or_else(|| reject("expected resilience, evasion, resolve or decline"))?;
            let d = Defence::parse(d).ok_or_else(|| {
                reject(format!(
                    "'{d}' is not a defence: expected resilience, evasion, resolve or decline"
                ))
            })?;
            match w.next().copied() {
                None => Command::Defend(d),
                Some("with") => Command::DefendWith(d, ability(state, w.next().copied())?),
                Some(x) => return Err(reject(format!("unexpected '{x}': expected 'with <buff>'"))),
            }
        }
        Some("accept") => Command::Accept,
        Some("decline") => Command::Decline,
        Some("reroll") => Command::Reroll,
        Some("keep") => Command::Keep,
        Some("release") => Command::Release,
        Some("trigger") => Command::Trigger(ability(state, w.next().copied())?),
        Some("pass") => Command::Pass,
        Some("act") => return parse_act(state, &words[1..]),
        Some("gm") => return parse_gm(state, &words[1..]),
        Some(other) => {
            return Err(reject(format!(
                "unknown command '{other}': expected begin, delay, place, move, step, act, stance, end, defend, trigger, pass, accept, decline, reroll, keep, release or gm"
            )));
        }
    };
    end(&mut w)?;
    Ok(cmd)
}

fn parse_act(state: &State, words: &[&str]) -> Result<Command, Reject> {
    let mut w = words.iter().copied().peekable();
    let id = ability(state, w.next())?;
    let a = state.setup.book.get(id);
    let mut target = Target::None;
    let mut pick = Pick::default();
    let mut overexert = None;
    while let Some(word) = w.next() {
        match word {
            "area" => target = Target::Area(pos(w.next())?),
            "line" => {
                let p = pos(w.next())?;
                target = Target::Line(p, dir(w.next())?);
            }
            "toward" => target = Target::Toward(dir(w.next())?),
            "at" => target = Target::Square(pos(w.next())?),
            "option" => {
                let label = w
                    .next()
                    .ok_or_else(|| reject("expected an option label after 'option'"))?;
                let labels = choice_labels(state, id);
                let i = labels.iter().position(|l| l == label).ok_or_else(|| {
                    reject(format!(
                        "'{label}' is not an option of {} (options: {})",
                        a.id,
                        labels.join(", ")
                    ))
                })?;
                pick.option = Some(i as u8);
            }
            "dir" => pick.dir = Some(dir(w.next())?),
            "status" => {
                let s = w
                    .next()
                    .ok_or_else(|| reject("expected a status name after 'status'"))?;
                pick.status = Some(StatusRef::parse(s).ok_or_else(|| reject(format!("'{s}' is not a status")))?);
            }
            "overexert" => {
                let label = w.next().ok_or_else(|| reject("expected an Overexert label"))?;
                let i = a
                    .overexert
                    .iter()
                    .position(|o| o.label == label)
                    .ok_or_else(|| reject(format!("'{label}' is not an Overexert option of {}", a.id)))?;
                overexert = Some(i as u8);
            }
            ids => {
                let mut list = Vec::new();
                for part in ids.split(',').filter(|s| !s.is_empty()) {
                    list.push(who(state, Some(part))?);
                }
                target = Target::Chars(list);
            }
        }
    }
    Ok(Command::Act(Action {
        ability: id,
        target,
        pick,
        overexert,
    }))
}

/// The labels of an ability's first `choose` line, in order.
pub fn choice_labels(state: &State, id: AbilityId) -> Vec<String> {
    let a = state.setup.book.get(id);
    a.effect
        .iter()
        .chain(&a.success)
        .find_map(|l| match &l.op {
            crate::ability::Op::Choose(c) => Some(c.iter().map(|c| c.label.clone()).collect()),
            _ => None,
        })
        .unwrap_or_default()
}

fn parse_gm(state: &State, words: &[&str]) -> Result<Command, Reject> {
    let mut w = words.iter().copied();
    let verb = w
        .next()
        .ok_or_else(|| reject("expected a ruling: set, status, incapacitate, revive, move, add, remove or end"))?;
    let r = match verb {
        "set" => {
            let c = who(state, w.next())?;
            let g = w.next().ok_or_else(|| reject("expected what to change"))?;
            let gauge = Gauge::parse(g).ok_or_else(|| {
                reject(format!(
                    "'{g}' cannot be set: expected fatigue, stress, fatigue-tolerance, stress-tolerance, wounds, initiative, mark or scouted"
                ))
            })?;
            let v = w.next().ok_or_else(|| reject("expected +N, -N or =N"))?;
            let by = Adjust::parse(v).ok_or_else(|| reject(format!("'{v}' is not a change: expected +N, -N or =N")))?;
            Ruling::Adjust { who: c, gauge, by }
        }
        "status" => {
            let c = who(state, w.next())?;
            let s = w.next().ok_or_else(|| reject("expected a status or condition"))?;
            let status = StatusRef::parse(s).ok_or_else(|| reject(format!("'{s}' is not a status or condition")))?;
            let v = w.next().ok_or_else(|| reject("expected +N, -N, =N, on or off"))?;
            let by = match v {
                "on" => Adjust::Set(1),
                "off" => Adjust::Set(0),
                _ => Adjust::parse(v)
                    .ok_or_else(|| reject(format!("'{v}' is not a change: expected +N, -N, =N, on or off")))?,
            };
            Ruling::Status { who: c, status, by }
        }
        "incapacitate" => Ruling::Incapacitate {
            who: who(state, w.next())?,
            on: true,
        },
        "revive" => Ruling::Incapacitate {
            who: who(state, w.next())?,
            on: false,
        },
        "move" => Ruling::Move {
            who: who(state, w.next())?,
            to: pos(w.next())?,
        },
        "add" => {
            let id = w
                .next()
                .ok_or_else(|| reject("expected 'gm add <new-id> <template> <side> <x,y>'"))?
                .to_string();
            let template = w.next().ok_or_else(|| reject("expected a template name"))?.to_string();
            let s = w.next().ok_or_else(|| reject("expected a side id"))?;
            let side = state
                .setup
                .sides
                .iter()
                .position(|x| x.id.eq_ignore_ascii_case(s))
                .ok_or_else(|| reject(format!("no side '{s}'")))? as u8;
            Ruling::Add {
                id,
                template,
                side,
                at: pos(w.next())?,
            }
        }
        "remove" => Ruling::Remove {
            who: who(state, w.next())?,
        },
        "end" => {
            let winner = match w.next() {
                None | Some("none") | Some("draw") => None,
                Some(s) => Some(
                    state
                        .setup
                        .sides
                        .iter()
                        .position(|x| x.id.eq_ignore_ascii_case(s))
                        .ok_or_else(|| reject(format!("no side '{s}'")))? as u8,
                ),
            };
            Ruling::End { winner }
        }
        other => {
            return Err(reject(format!(
                "unknown ruling '{other}': expected set, status, incapacitate, revive, move, add, remove or end"
            )));
        }
    };
    if let Some(x) = w.next() {
        return Err(reject(format!("unexpected '{x}' at the end of the ruling")));
    }
    Ok(Command::Gm(r))
}

/// Prints a command in the form [`parse`] reads.
pub fn format(state: &State, cmd: &Command) -> String {
    let id = |c: Cid| state.info(c).id.clone();
    let ab = |a: AbilityId| state.setup.book.get(a).id.clone();
    match cmd {
        Command::Begin => "begin".into(),
        Command::Delay(None) => "delay end".into(),
        Command::Delay(Some(c)) => format!("delay after {}", id(*c)),
        Command::Place(p) => format!("place {p}"),
        Command::Move(p) => format!("move {p}"),
        Command::Step { dir, roll: None } => format!("step {dir}"),
        Command::Step { dir, roll: Some(a) } => format!("step {dir} roll {}", a.name().to_ascii_lowercase()),
        Command::Stance(a) => format!("stance {}", ab(*a)),
        Command::EndTurn => "end".into(),
        Command::Defend(d) => format!("defend {}", d.name()),
        Command::DefendWith(d, a) => format!("defend {} with {}", d.name(), ab(*a)),
        Command::Accept => "accept".into(),
        Command::Decline => "decline".into(),
        Command::Reroll => "reroll".into(),
        Command::Keep => "keep".into(),
        Command::Release => "release".into(),
        Command::Trigger(a) => format!("trigger {}", ab(*a)),
        Command::Pass => "pass".into(),
        Command::Act(a) => {
            let mut s = format!("act {}", ab(a.ability));
            match &a.target {
                Target::None => {}
                Target::Chars(list) => {
                    let ids: Vec<String> = list.iter().map(|c| id(*c)).collect();
                    let _ = write!(s, " {}", ids.join(","));
                }
                Target::Area(p) => {
                    let _ = write!(s, " area {p}");
                }
                Target::Line(p, d) => {
                    let _ = write!(s, " line {p} {d}");
                }
                Target::Toward(d) => {
                    let _ = write!(s, " toward {d}");
                }
                Target::Square(p) => {
                    let _ = write!(s, " at {p}");
                }
            }
            if let Some(o) = a.pick.option {
                let labels = choice_labels(state, a.ability);
                if let Some(l) = labels.get(o as usize) {
                    let _ = write!(s, " option {l}");
                }
            }
            if let Some(d) = a.pick.dir {
                let _ = write!(s, " dir {d}");
            }
            if let Some(st) = a.pick.status {
                let _ = write!(s, " status {}", st.name());
            }
            if let Some(o) = a.overexert
                && let Some(ov) = state.setup.book.get(a.ability).overexert.get(o as usize)
            {
                let _ = write!(s, " overexert {}", ov.label);
            }
            s
        }
        Command::Gm(r) => match r {
            Ruling::Adjust { who, gauge, by } => format!("gm set {} {} {}", id(*who), gauge.name(), by.text()),
            Ruling::Status { who, status, by } => format!("gm status {} {} {}", id(*who), status.name(), by.text()),
            Ruling::Incapacitate { who, on: true } => format!("gm incapacitate {}", id(*who)),
            Ruling::Incapacitate { who, on: false } => format!("gm revive {}", id(*who)),
            Ruling::Move { who, to } => format!("gm move {} {to}", id(*who)),
            Ruling::Add {
                id: new,
                template,
                side,
                at,
            } => {
                format!("gm add {new} {template} {} {at}", state.setup.sides[*side as usize].id)
            }
            Ruling::Remove { who } => format!("gm remove {}", id(*who)),
            Ruling::End { winner: None } => "gm end none".into(),
            Ruling::End { winner: Some(s) } => format!("gm end {}", state.setup.sides[*s as usize].id),
        },
    }
}
