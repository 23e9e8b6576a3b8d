//! Commands, typed and as text. The printed form of every command parses back to it, so a
//! person or a script can type what the prompt lists.

use crate::setup::Cid;
use crate::state::State;
use fray_engine::Reject;
use fray_engine::gm::{self, Vocabulary};
use fray_space::Pos;
use serde::{Deserialize, Serialize};

/// What a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Move to a square (SKL-R3).
    Move(Pos),
    /// Attack an adjacent foe (SKL-R4).
    Attack(Cid),
    /// End the turn.
    End,
    /// Answer an attack with a dodge (SKL-R5).
    Dodge,
    /// Answer an attack without one.
    Take,
    /// A GM ruling.
    Gm(Ruling),
}

/// The gauges a GM may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gauge {
    /// Health (0 takes the combatant out).
    Health,
}

/// The skeleton has no rulings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OwnRuling {}

/// A GM ruling in the shared vocabulary.
pub type Ruling = gm::Ruling<Cid, Gauge, Pos, OwnRuling>;

/// The names rulings use, read against a state.
struct Words<'a>(&'a State);

impl Vocabulary for Words<'_> {
    type Who = Cid;
    type Gauge = Gauge;
    type Pos = Pos;
    type Other = OwnRuling;
    fn who(&self, word: &str) -> Result<Cid, Reject> {
        self.0
            .find(word)
            .ok_or_else(|| Reject::unreadable(format!("no combatant '{word}'")))
    }
    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        match word {
            "health" => Ok(Gauge::Health),
            _ => Err(Reject::unreadable(format!(
                "'{word}' cannot be set: the only gauge is health"
            ))),
        }
    }
    fn pos(&self, word: &str) -> Result<Pos, Reject> {
        word.parse()
            .map_err(|_| Reject::unreadable(format!("'{word}' is not a square: expected x,y")))
    }
    fn side(&self, word: &str) -> Result<u8, Reject> {
        let sides = &self.0.setup.sides;
        let i = sides.iter().position(|s| s.id == word);
        i.map(|i| i as u8)
            .ok_or_else(|| Reject::unreadable(format!("no side '{word}'")))
    }
    fn other(&self, _: &[&str]) -> Option<Result<OwnRuling, Reject>> {
        None
    }
    fn verbs(&self) -> &'static str {
        "set, move, add, remove or end"
    }
}

/// Reads a typed command.
pub fn parse(s: &State, text: &str) -> Result<Command, Reject> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let w = Words(s);
    Ok(match words.as_slice() {
        ["gm", rest @ ..] => Command::Gm(gm::parse(&w, rest)?),
        ["move", p] => Command::Move(w.pos(p)?),
        ["attack", who] => Command::Attack(w.who(who)?),
        ["end"] => Command::End,
        ["dodge"] => Command::Dodge,
        ["take"] => Command::Take,
        _ => {
            return Err(Reject::unreadable(format!(
                "'{text}' is not a command: expected move x,y, attack <id>, end, dodge, take or gm <ruling>"
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
    match c {
        Command::Move(p) => format!("move {p}"),
        Command::Attack(w) => format!("attack {}", id(w)),
        Command::End => "end".into(),
        Command::Dodge => "dodge".into(),
        Command::Take => "take".into(),
        Command::Gm(r) => {
            let side = |i: u8| {
                s.setup
                    .sides
                    .get(i as usize)
                    .map_or_else(|| format!("#{i}"), |x| x.id.clone())
            };
            let ruling = gm::format(r, id, |_| "health".into(), Pos::to_string, side, |x| match *x {});
            format!("gm {ruling}")
        }
    }
}
