//! Commands, typed and as text. The printed form of every command parses back to it, so a
//! person or a script can type what the prompt lists. `docs/commands.md` describes the words.

use crate::data::Action;
use crate::setup::Cid;
use crate::state::{Card, Defence, State};
use crate::zones::MapExt;
use fray_engine::Reject;
use fray_engine::diag::suggestion;
use fray_engine::gm::{self, Vocabulary};
use fray_space::ZoneId;
use serde::{Deserialize, Serialize};

/// Where a push sends its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PushTo {
    /// Into a neighbouring zone.
    Zone(ZoneId),
    /// To a far part of its own zone.
    Far,
    /// Down (EIN-H29).
    Down,
}

/// How an attacker spends its extra successes (EIN-R23, EIN-R6, EIN-R28): each option named
/// costs one; every extra success left adds 1 Harm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Spend {
    /// Swap initiative cards, taking this card of the target's (EIN-R6).
    pub swap: Option<Card>,
    /// Mental instead of Physical Harm.
    pub mental: bool,
    /// Push the target.
    pub push: Option<PushTo>,
    /// Make the target drop the weapon in its hand.
    pub disarm: bool,
    /// Pin the target: its next zone entry costs 1 Harm (Shoot only).
    pub pin: bool,
    /// Cover its mouth as well (a grapple, EIN-R28).
    pub silence: bool,
}

impl Spend {
    /// The extra successes the named options cost.
    pub fn cost(&self) -> u8 {
        u8::from(self.swap.is_some())
            + u8::from(self.mental)
            + u8::from(self.push.is_some())
            + u8::from(self.disarm)
            + u8::from(self.pin)
            + u8::from(self.silence)
    }
}

/// What a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Command {
    /// Slow: attack with the weapon in hand in close combat (EIN-R21).
    Strike(Cid),
    /// Slow: shoot or throw the weapon in hand (EIN-R11, EIN-R21).
    Shoot(Cid),
    /// Slow: an unarmed attack (Force, EIN-R21).
    Punch(Cid),
    /// Slow: grapple (Force, EIN-R27).
    Grapple(Cid),
    /// Slow: push a foe into a neighbouring zone, far off, or down (Force).
    Shove(Cid, PushTo),
    /// Slow: cast a spell (its index in the setup's spells) at a creature (EIN-H16).
    Cast(u8, Cid),
    /// Slow: flee with Finesse or Sneak (EIN-R32), by the shortest way out.
    Flee(Action),
    /// Slow: flee with Finesse or Sneak by way of this neighbouring zone (EIN-R32, EIN-R33).
    FleeTo(Action, ZoneId),
    /// Slow: try to put out the fire on oneself (EIN-R40).
    Extinguish,
    /// Slow: any other manoeuvre's test (EIN-R17): survey, persuade, lure, climb...
    Test(Action),
    /// Fast: into a neighbouring zone (EIN-R13).
    Move(ZoneId),
    /// Clear the obstacle that blocks the way to this neighbouring zone, with its manoeuvre
    /// and test (EIN-R15).
    Clear(ZoneId),
    /// Fast: close in beside a creature in the zone (EIN-R12).
    Close(Cid),
    /// Fast: to a far part of the zone.
    Withdraw,
    /// Fast: take cover (EIN-H15).
    Cover,
    /// Fast: draw or swap weapon (index into the state's weapon ids), or put it away.
    Draw(Option<u8>),
    /// Fast: pick up a weapon lying in the zone.
    PickUp(u8),
    /// Fast: stand up (EIN-H29).
    Stand,
    /// Fast: shout more than a couple of words (EIN-H28).
    Shout,
    /// Fast: interact with an object, turn around, or any other quick manoeuvre.
    Interact,
    /// Fast: try to break free (EIN-R30); also the reaction to a grapple (EIN-R27).
    BreakFree,
    /// Free: let go of a held creature (EIN-H30).
    Release,
    /// End the turn.
    End,
    /// Reaction to an attack: dodge (EIN-R25).
    Dodge,
    /// Reaction to an attack: parry (EIN-R25).
    Parry,
    /// Reaction to a spell: resist (EIN-H16).
    Resist,
    /// Reaction: chase a fleer with Finesse or Track (EIN-R33).
    Chase(Action),
    /// Reaction: hold on to someone breaking free (EIN-R30).
    Hold,
    /// Decline the reaction or the swap offered.
    Pass,
    /// After beating an attack: take the first card, one of the attacker's, for the second, one
    /// of the defender's own (EIN-R7).
    Swap(Card, Card),
    /// Spend extra successes (EIN-R23).
    Spend(Spend),
    /// Split Harm into levels (EIN-R34): the levels, largest first.
    Split(Vec<u8>),
    /// Keep this one of two cards drawn (EIN-R8).
    Keep(Card),
    /// Push the test just rolled (`push`), or accept it (`accept`) (EIN-H20).
    Push(bool),
    /// At the start of a round: swap cards between two player characters (EIN-R5).
    Trade(Cid, Cid),
    /// Done swapping this round.
    Ready,
    /// The member of a group sharing a card that acts next on it (EIN-R2).
    Act(Cid),
    /// A GM ruling.
    Gm(Ruling),
}

impl Command {
    /// The reaction this command is, if it answers an attack.
    pub fn defence(&self) -> Option<Defence> {
        match self {
            Command::Dodge => Some(Defence::Dodge),
            Command::Parry => Some(Defence::Parry),
            Command::Resist => Some(Defence::Resist),
            Command::BreakFree => Some(Defence::BreakFree),
            Command::Pass => Some(Defence::None),
            _ => None,
        }
    }
}

/// The gauges a GM may set (`gm set <who> <gauge> ±N|=N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gauge {
    /// Lesser marks (true: mental).
    Lesser(bool),
    /// Moderate marks.
    Moderate(bool),
    /// Severe marks.
    Severe(bool),
    /// Harm points (EIN-R24).
    Points,
    /// Bonus dice on the next test.
    Bonus,
}

const GAUGES: [(&str, Gauge); 8] = [
    ("physical-lesser", Gauge::Lesser(false)),
    ("physical-moderate", Gauge::Moderate(false)),
    ("physical-severe", Gauge::Severe(false)),
    ("mental-lesser", Gauge::Lesser(true)),
    ("mental-moderate", Gauge::Moderate(true)),
    ("mental-severe", Gauge::Severe(true)),
    ("points", Gauge::Points),
    ("bonus", Gauge::Bonus),
];

/// Einfelst's own rulings: the hazards and tests the Director calls for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Own {
    /// A Fear test of this value, in this position (EIN-R35 to EIN-R37).
    Fear {
        who: Cid,
        value: u8,
        position: Option<crate::options::Position>,
    },
    /// Catches fire (EIN-R38).
    Ignite { who: Cid, intensity: u8 },
    /// The fire is put out from outside.
    Douse { who: Cid },
    /// Poisoned (EIN-R41).
    Poison { who: Cid, toxicity: u8, mental: bool },
    /// An antidote (EIN-R42).
    Antidote { who: Cid },
    /// A fall (EIN-R43).
    Fall { who: Cid, feet: u16, hard: bool },
    /// Hunger, thirst or lack of rest (EIN-R44).
    Deprive { who: Cid, mental: bool },
    /// Down or up (EIN-H29).
    Prone { who: Cid, on: bool },
    /// Freed from a hold.
    Release { who: Cid },
    /// A circumstance in force or not, in a zone or everywhere (EIN-R14).
    Circumstance {
        name: String,
        on: bool,
        zone: Option<ZoneId>,
    },
}

/// A GM ruling in the shared vocabulary.
pub type Ruling = gm::Ruling<Cid, Gauge, ZoneId, Own>;

/// The names rulings use, read against a state.
struct Words<'a>(&'a State);

fn num<T: std::str::FromStr>(w: &str, what: &str) -> Result<T, Reject> {
    w.parse()
        .map_err(|_| Reject::unreadable(format!("'{w}' is not {what}")))
}

impl Vocabulary for Words<'_> {
    type Who = Cid;
    type Gauge = Gauge;
    type Pos = ZoneId;
    type Other = Own;
    fn who(&self, word: &str) -> Result<Cid, Reject> {
        self.0.find(word).ok_or_else(|| {
            let hint = suggestion(word, self.0.chars.iter().map(|c| c.id.as_str()));
            Reject::unreadable(format!("no creature '{word}'{hint}"))
        })
    }
    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        GAUGES.iter().find(|(n, _)| *n == word).map(|&(_, g)| g).ok_or_else(|| {
            let names: Vec<&str> = GAUGES.iter().map(|(n, _)| *n).collect();
            let hint = suggestion(word, names.iter().copied());
            Reject::unreadable(format!(
                "'{word}' cannot be set{hint}: the gauges are {}",
                names.join(", ")
            ))
        })
    }
    fn pos(&self, word: &str) -> Result<ZoneId, Reject> {
        zone(self.0, word)
    }
    fn side(&self, word: &str) -> Result<u8, Reject> {
        let sides = &self.0.setup.sides;
        let i = sides.iter().position(|s| s.id == word);
        i.map(|i| i as u8).ok_or_else(|| {
            let hint = suggestion(word, sides.iter().map(|s| s.id.as_str()));
            Reject::unreadable(format!("no side '{word}'{hint}"))
        })
    }
    fn other(&self, words: &[&str]) -> Option<Result<Own, Reject>> {
        let verb = *words.first()?;
        let usage = |u: &str| Err(Reject::unreadable(format!("expected 'gm {u}'")));
        let r = match (verb, &words[1..]) {
            ("fear", [who, value, rest @ ..]) if rest.len() <= 1 => (|| {
                let position = match rest.first() {
                    None => None,
                    Some(p) => Some(position(p)?),
                };
                Ok(Own::Fear {
                    who: self.who(who)?,
                    value: num(value, "a Fear value")?,
                    position,
                })
            })(),
            ("fear", _) => usage("fear <who> <value> [controlled|risky|desperate]"),
            ("ignite", [who, n]) => (|| {
                Ok(Own::Ignite {
                    who: self.who(who)?,
                    intensity: num(n, "an intensity (1 to 3)")?,
                })
            })(),
            ("ignite", _) => usage("ignite <who> <intensity 1-3>"),
            ("douse", [who]) => self.who(who).map(|who| Own::Douse { who }),
            ("antidote", [who]) => self.who(who).map(|who| Own::Antidote { who }),
            ("release", [who]) => self.who(who).map(|who| Own::Release { who }),
            ("douse" | "antidote" | "release", _) => usage(&format!("{verb} <who>")),
            ("poison", [who, t, rest @ ..]) if rest.is_empty() || rest == ["mental"] => (|| {
                Ok(Own::Poison {
                    who: self.who(who)?,
                    toxicity: num(t, "a toxicity")?,
                    mental: !rest.is_empty(),
                })
            })(),
            ("poison", _) => usage("poison <who> <toxicity> [mental]"),
            ("fall", [who, feet, rest @ ..]) if rest.is_empty() || rest == ["soft"] => (|| {
                Ok(Own::Fall {
                    who: self.who(who)?,
                    feet: num(feet, "a height in feet")?,
                    hard: rest.is_empty(),
                })
            })(),
            ("fall", _) => usage("fall <who> <feet> [soft]"),
            ("deprive", [who, kind @ ("physical" | "mental")]) => self.who(who).map(|who| Own::Deprive {
                who,
                mental: *kind == "mental",
            }),
            ("deprive", _) => usage("deprive <who> physical|mental"),
            ("prone", [who, on @ ("on" | "off")]) => self.who(who).map(|who| Own::Prone { who, on: *on == "on" }),
            ("prone", _) => usage("prone <who> on|off"),
            ("circumstance", [name, on @ ("on" | "off"), rest @ ..]) if rest.len() <= 1 => (|| {
                if !self.0.setup.circumstances.contains_key(*name) {
                    let hint = suggestion(name, self.0.setup.circumstances.keys().map(String::as_str));
                    return Err(Reject::unreadable(format!("no circumstance '{name}'{hint}")));
                }
                let zone = match rest.first() {
                    None => None,
                    Some(z) => Some(self.pos(z)?),
                };
                Ok(Own::Circumstance {
                    name: name.to_string(),
                    on: *on == "on",
                    zone,
                })
            })(),
            ("circumstance", _) => usage("circumstance <name> on|off [zone]"),
            _ => return None,
        };
        Some(r)
    }
    fn verbs(&self) -> &'static str {
        "set, move, add, remove, end, fear, ignite, douse, poison, antidote, fall, deprive, prone, release or circumstance"
    }
}

fn position(w: &str) -> Result<crate::options::Position, Reject> {
    use crate::options::Position as P;
    match w {
        "controlled" => Ok(P::Controlled),
        "risky" => Ok(P::Risky),
        "desperate" => Ok(P::Desperate),
        _ => Err(Reject::unreadable(format!(
            "'{w}' is not a position: controlled, risky or desperate"
        ))),
    }
}

fn zone(s: &State, word: &str) -> Result<ZoneId, Reject> {
    s.setup.zones.find(word).ok_or_else(|| {
        let names = s.setup.zones.words();
        let hint = suggestion(word, names.iter().copied());
        Reject::unreadable(format!("no zone '{word}'{hint}; the zones are {}", names.join(", ")))
    })
}

fn action(w: &str, allowed: &[Action]) -> Result<Action, Reject> {
    match Action::from_word(w) {
        Some(a) if allowed.is_empty() || allowed.contains(&a) => Ok(a),
        _ => {
            let names: Vec<&str> = if allowed.is_empty() {
                Action::ALL.iter().map(|a| a.word()).collect()
            } else {
                allowed.iter().map(|a| a.word()).collect()
            };
            let hint = suggestion(w, names.iter().copied());
            Err(Reject::unreadable(format!(
                "'{w}' is not one of {}{hint}",
                names.join(", ")
            )))
        }
    }
}

fn weapon(s: &State, w: &str) -> Result<u8, Reject> {
    s.weapon_ids
        .iter()
        .position(|x| x.eq_ignore_ascii_case(w))
        .map(|i| i as u8)
        .ok_or_else(|| {
            let hint = suggestion(w, s.weapon_ids.iter().map(String::as_str));
            Reject::unreadable(format!("no weapon '{w}'{hint}"))
        })
}

fn card(w: &str) -> Result<Card, Reject> {
    let (v, deck) = match w.strip_suffix('\'') {
        Some(v) => (v, 1),
        None => (w, 0),
    };
    match v.parse::<u8>() {
        // Values past 10 are a joiner's cards beyond both decks (EIN-H12).
        Ok(value @ 11..=60) if deck == 0 => Ok(Card { value, deck: 2 }),
        Ok(value @ 1..=10) => Ok(Card { value, deck }),
        _ => Err(Reject::unreadable(format!(
            "'{w}' is not a card: a number such as 3 (or 3' from a second deck)"
        ))),
    }
}

fn push_to(s: &State, w: &str) -> Result<PushTo, Reject> {
    match w {
        "far" => Ok(PushTo::Far),
        "down" => Ok(PushTo::Down),
        z => zone(s, z).map(PushTo::Zone),
    }
}

const COMMANDS: &str = "strike, shoot, punch, grapple, shove, cast, flee, extinguish, test, move, clear, close, withdraw, cover, draw, pickup, stand, shout, interact, break-free, release, end, dodge, parry, resist, chase, hold, pass, swap, spend, split, keep, push, accept, trade, ready, act or gm";

/// Reads a typed command.
pub fn parse(s: &State, text: &str) -> Result<Command, Reject> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let w = Words(s);
    let who = |x: &str| w.who(x);
    Ok(match words.as_slice() {
        ["gm", rest @ ..] => Command::Gm(gm::parse(&w, rest)?),
        ["strike", t] => Command::Strike(who(t)?),
        ["shoot", t] => Command::Shoot(who(t)?),
        ["punch", t] => Command::Punch(who(t)?),
        ["grapple", t] => Command::Grapple(who(t)?),
        ["shove", t, to] => Command::Shove(who(t)?, push_to(s, to)?),
        ["cast", spell, t] => {
            let i = s
                .setup
                .spells
                .keys()
                .position(|k| k.eq_ignore_ascii_case(spell))
                .ok_or_else(|| {
                    let hint = suggestion(spell, s.setup.spells.keys().map(String::as_str));
                    Reject::unreadable(format!("no spell '{spell}'{hint}"))
                })?;
            Command::Cast(i as u8, who(t)?)
        }
        ["flee", a] => Command::Flee(action(a, &[Action::Finesse, Action::Sneak])?),
        ["flee", a, z] => Command::FleeTo(action(a, &[Action::Finesse, Action::Sneak])?, zone(s, z)?),
        ["extinguish"] => Command::Extinguish,
        ["test", a] => Command::Test(action(a, &[])?),
        ["move", z] => Command::Move(zone(s, z)?),
        ["clear", z] => Command::Clear(zone(s, z)?),
        ["close", t] => Command::Close(who(t)?),
        ["withdraw"] => Command::Withdraw,
        ["cover"] => Command::Cover,
        ["draw", "unarmed"] => Command::Draw(None),
        ["draw", x] => Command::Draw(Some(weapon(s, x)?)),
        ["pickup", x] => Command::PickUp(weapon(s, x)?),
        ["stand"] => Command::Stand,
        ["shout"] => Command::Shout,
        ["interact"] => Command::Interact,
        ["break-free"] => Command::BreakFree,
        ["release"] => Command::Release,
        ["end"] => Command::End,
        ["dodge"] => Command::Dodge,
        ["parry"] => Command::Parry,
        ["resist"] => Command::Resist,
        ["chase", a] => Command::Chase(action(a, &[Action::Finesse, Action::Track])?),
        ["hold"] => Command::Hold,
        ["pass"] => Command::Pass,
        ["swap", c, d] => Command::Swap(card(c)?, card(d)?),
        ["spend", opts @ ..] => {
            let mut sp = Spend::default();
            for o in opts {
                let twice = || Reject::unreadable(format!("'{o}' is named twice"));
                match o.split_once('=') {
                    Some(("swap", c)) if sp.swap.is_none() => sp.swap = Some(card(c)?),
                    Some(("push", to)) if sp.push.is_none() => sp.push = Some(push_to(s, to)?),
                    Some(("swap" | "push", _)) => return Err(twice()),
                    None if *o == "mental" && !sp.mental => sp.mental = true,
                    None if *o == "disarm" && !sp.disarm => sp.disarm = true,
                    None if *o == "pin" && !sp.pin => sp.pin = true,
                    None if *o == "silence" && !sp.silence => sp.silence = true,
                    None if matches!(*o, "mental" | "disarm" | "pin" | "silence") => return Err(twice()),
                    _ => {
                        return Err(Reject::unreadable(format!(
                            "'{o}' is not a way to spend a success: swap=<card>, mental, push=<zone>|far|down, disarm, pin or silence (the rest adds damage)"
                        )));
                    }
                }
            }
            Command::Spend(sp)
        }
        ["split", parts] => {
            let mut v = Vec::new();
            for p in parts.split('+') {
                match p.parse::<u8>() {
                    Ok(n @ 1..=3) => v.push(n),
                    _ => {
                        // The example adds up to the Harm being split, when one is (EIN-R34).
                        let example = match s.frames.last() {
                            Some(crate::state::Frame::Split(sp)) => crate::state::splits(sp.amount)
                                .last()
                                .map(|p| p.iter().map(u8::to_string).collect::<Vec<_>>().join("+")),
                            _ => None,
                        }
                        .unwrap_or_else(|| "2+1".into());
                        return Err(Reject::unreadable(format!(
                            "'{parts}' is not a split: levels 1 to 3 joined by '+', such as {example}"
                        )));
                    }
                }
            }
            v.sort_unstable_by(|a, b| b.cmp(a));
            Command::Split(v)
        }
        ["keep", c] => Command::Keep(card(c)?),
        ["push"] => Command::Push(true),
        ["accept"] => Command::Push(false),
        ["trade", a, b] => {
            let (a, b) = (who(a)?, who(b)?);
            Command::Trade(a.min(b), a.max(b))
        }
        ["ready"] => Command::Ready,
        ["act", t] => Command::Act(who(t)?),
        _ => {
            return Err(Reject::unreadable(format!(
                "'{text}' is not a command: expected {COMMANDS} (docs/commands.md)"
            )));
        }
    })
}

/// Prints a command as [`parse`] reads it (an index that names nobody, from an edited record,
/// prints as `#N`).
pub fn format(s: &State, c: &Command) -> String {
    let id = |w: &Cid| {
        s.chars
            .get(*w as usize)
            .map_or_else(|| format!("#{w}"), |c| c.id.clone())
    };
    let zone = |z: &ZoneId| {
        s.setup
            .zones
            .get_id(*z)
            .map_or_else(|| format!("#{}", z.get()), str::to_string)
    };
    let weapon = |w: &u8| {
        s.weapon_ids
            .get(*w as usize)
            .cloned()
            .unwrap_or_else(|| format!("#{w}"))
    };
    let push = |p: &PushTo| match p {
        PushTo::Zone(z) => zone(z),
        PushTo::Far => "far".into(),
        PushTo::Down => "down".into(),
    };
    match c {
        Command::Strike(t) => format!("strike {}", id(t)),
        Command::Shoot(t) => format!("shoot {}", id(t)),
        Command::Punch(t) => format!("punch {}", id(t)),
        Command::Grapple(t) => format!("grapple {}", id(t)),
        Command::Shove(t, to) => format!("shove {} {}", id(t), push(to)),
        Command::Cast(sp, t) => format!(
            "cast {} {}",
            s.setup
                .spells
                .keys()
                .nth(*sp as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{sp}")),
            id(t)
        ),
        Command::Flee(a) => format!("flee {}", a.word()),
        Command::FleeTo(a, z) => format!("flee {} {}", a.word(), zone(z)),
        Command::Extinguish => "extinguish".into(),
        Command::Test(a) => format!("test {}", a.word()),
        Command::Move(z) => format!("move {}", zone(z)),
        Command::Clear(z) => format!("clear {}", zone(z)),
        Command::Close(t) => format!("close {}", id(t)),
        Command::Withdraw => "withdraw".into(),
        Command::Cover => "cover".into(),
        Command::Draw(None) => "draw unarmed".into(),
        Command::Draw(Some(w)) => format!("draw {}", weapon(w)),
        Command::PickUp(w) => format!("pickup {}", weapon(w)),
        Command::Stand => "stand".into(),
        Command::Shout => "shout".into(),
        Command::Interact => "interact".into(),
        Command::BreakFree => "break-free".into(),
        Command::Release => "release".into(),
        Command::End => "end".into(),
        Command::Dodge => "dodge".into(),
        Command::Parry => "parry".into(),
        Command::Resist => "resist".into(),
        Command::Chase(a) => format!("chase {}", a.word()),
        Command::Hold => "hold".into(),
        Command::Pass => "pass".into(),
        Command::Swap(take, give) => format!("swap {take} {give}"),
        Command::Spend(sp) => {
            let mut out = String::from("spend");
            if let Some(card) = sp.swap {
                out += &format!(" swap={card}");
            }
            if sp.mental {
                out += " mental";
            }
            if let Some(p) = &sp.push {
                out += &format!(" push={}", push(p));
            }
            for (on, w) in [(sp.disarm, "disarm"), (sp.pin, "pin"), (sp.silence, "silence")] {
                if on {
                    out += " ";
                    out += w;
                }
            }
            out
        }
        Command::Split(parts) => {
            let p: Vec<String> = parts.iter().map(u8::to_string).collect();
            format!("split {}", p.join("+"))
        }
        Command::Keep(card) => format!("keep {card}"),
        Command::Push(true) => "push".into(),
        Command::Push(false) => "accept".into(),
        Command::Trade(a, b) => format!("trade {} {}", id(a), id(b)),
        Command::Ready => "ready".into(),
        Command::Act(t) => format!("act {}", id(t)),
        Command::Gm(r) => {
            let side = |i: u8| {
                s.setup
                    .sides
                    .get(i as usize)
                    .map_or_else(|| format!("#{i}"), |x| x.id.clone())
            };
            let gauge = |g: &Gauge| {
                GAUGES
                    .iter()
                    .find(|(_, x)| x == g)
                    .map_or("points", |(n, _)| n)
                    .to_string()
            };
            let other = |o: &Own| match o {
                Own::Fear { who, value, position } => {
                    let p = match position {
                        None => String::new(),
                        Some(p) => format!(" {}", position_word(*p)),
                    };
                    format!("fear {} {value}{p}", id(who))
                }
                Own::Ignite { who, intensity } => format!("ignite {} {intensity}", id(who)),
                Own::Douse { who } => format!("douse {}", id(who)),
                Own::Poison { who, toxicity, mental } => {
                    format!("poison {} {toxicity}{}", id(who), if *mental { " mental" } else { "" })
                }
                Own::Antidote { who } => format!("antidote {}", id(who)),
                Own::Fall { who, feet, hard } => format!("fall {} {feet}{}", id(who), if *hard { "" } else { " soft" }),
                Own::Deprive { who, mental } => {
                    format!("deprive {} {}", id(who), if *mental { "mental" } else { "physical" })
                }
                Own::Prone { who, on } => format!("prone {} {}", id(who), if *on { "on" } else { "off" }),
                Own::Release { who } => format!("release {}", id(who)),
                Own::Circumstance { name, on, zone: z } => format!(
                    "circumstance {name} {}{}",
                    if *on { "on" } else { "off" },
                    z.map(|z| format!(" {}", zone(&z))).unwrap_or_default()
                ),
            };
            let ruling = gm::format(r, id, gauge, zone, side, other);
            format!("gm {ruling}")
        }
    }
}

/// The word for a position.
pub fn position_word(p: crate::options::Position) -> &'static str {
    use crate::options::Position as P;
    match p {
        P::Controlled => "controlled",
        P::Risky => "risky",
        P::Desperate => "desperate",
    }
}
