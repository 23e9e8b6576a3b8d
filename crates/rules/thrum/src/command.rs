//! Commands: what seats can submit, with their typed form.
//!
//! The text form is documented in docs/commands.md and is stable: the prompt of `fray play`
//! prints every legal command in exactly the form [`parse`] reads back.

use crate::ability::{AbilityId, Attr, Defence};
use crate::setup::Cid;
use crate::state::{Pick, State, StatusRef};
use fray_engine::Reject;
use fray_engine::gm::{self, Adjust};
use fray_space::{Dir, Pos};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The characters an action names, held inline up to four; serialised as a plain list.
pub type CharList = crate::inline::Inline<Cid, 4>;

/// What an action is aimed at.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    /// Nothing to aim (self-only abilities, auras).
    None,
    /// Named characters (held inline: most actions name one or two).
    Chars(CharList),
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

/// Thrum's own GM rulings, beside the shared ones of [`gm::Ruling`] (their JSON keeps its own
/// tags: `{"Status":{..}}`, `{"Incapacitate":{..}}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ThrumRuling {
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
}

/// A GM ruling, recorded like any other command: the engine's shared rulings (change a
/// [`Gauge`], move, add a combatant from a template, which rolls Initiative on arrival
/// (THR-R19), remove, end) and Thrum's own ([`ThrumRuling`]).
pub type Ruling = gm::Ruling<Cid, Gauge, Pos, ThrumRuling>;

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
                target = Target::Chars(list.into());
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

/// The words of Thrum's GM rulings in a position: its combatants, gauges, squares and sides,
/// and its own rulings (`status`, `incapacitate`, `revive`).
struct GmWords<'a>(&'a State);

/// Every ruling verb, for the message when one is missing or unknown.
const GM_VERBS: &str = "set, status, incapacitate, revive, move, add, remove or end";

impl gm::Vocabulary for GmWords<'_> {
    type Who = Cid;
    type Gauge = Gauge;
    type Pos = Pos;
    type Other = ThrumRuling;

    fn who(&self, word: &str) -> Result<Cid, Reject> {
        who(self.0, Some(word))
    }

    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        Gauge::parse(word).ok_or_else(|| {
            reject(format!(
                "'{word}' cannot be set: expected fatigue, stress, fatigue-tolerance, stress-tolerance, wounds, initiative, mark or scouted"
            ))
        })
    }

    fn pos(&self, word: &str) -> Result<Pos, Reject> {
        pos(Some(word))
    }

    fn side(&self, word: &str) -> Result<u8, Reject> {
        self.0
            .setup
            .sides
            .iter()
            .position(|x| x.id.eq_ignore_ascii_case(word))
            .map(|i| i as u8)
            .ok_or_else(|| reject(format!("no side '{word}'")))
    }

    fn other(&self, words: &[&str]) -> Option<Result<ThrumRuling, Reject>> {
        let (&verb, rest) = words.split_first()?;
        let mut w = rest.iter().copied();
        let ruling = match verb {
            "status" => self.status(&mut w),
            "incapacitate" | "revive" => who(self.0, w.next()).map(|who| ThrumRuling::Incapacitate {
                who,
                on: verb == "incapacitate",
            }),
            _ => return None,
        };
        Some(ruling.and_then(|r| match w.next() {
            Some(x) => Err(reject(format!("unexpected '{x}' at the end of the ruling"))),
            None => Ok(r),
        }))
    }

    fn verbs(&self) -> &'static str {
        GM_VERBS
    }
}

impl GmWords<'_> {
    /// `gm status <id> <status-or-condition> +N|-N|=N|on|off`.
    fn status<'w>(&self, w: &mut impl Iterator<Item = &'w str>) -> Result<ThrumRuling, Reject> {
        let who = who(self.0, w.next())?;
        let s = w.next().ok_or_else(|| reject("expected a status or condition"))?;
        let status = StatusRef::parse(s).ok_or_else(|| reject(format!("'{s}' is not a status or condition")))?;
        let v = w.next().ok_or_else(|| reject("expected +N, -N, =N, on or off"))?;
        let by = match v {
            "on" => Adjust::Set(1),
            "off" => Adjust::Set(0),
            _ => Adjust::parse(v)
                .ok_or_else(|| reject(format!("'{v}' is not a change: expected +N, -N, =N, on or off")))?,
        };
        Ok(ThrumRuling::Status { who, status, by })
    }
}

fn parse_gm(state: &State, words: &[&str]) -> Result<Command, Reject> {
    gm::parse(&GmWords(state), words).map(Command::Gm)
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
        Command::Gm(r) => {
            let r = gm::format(
                r,
                |c| id(*c),
                |g| g.name().to_string(),
                Pos::to_string,
                |s| state.setup.sides[s as usize].id.clone(),
                |x| match x {
                    ThrumRuling::Status { who, status, by } => format!("status {} {} {by}", id(*who), status.name()),
                    ThrumRuling::Incapacitate { who, on: true } => format!("incapacitate {}", id(*who)),
                    ThrumRuling::Incapacitate { who, on: false } => format!("revive {}", id(*who)),
                },
            );
            format!("gm {r}")
        }
    }
}
