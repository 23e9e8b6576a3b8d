//! Commands, typed and as text. The printed form of every command parses back to it, so a
//! person or a script can type what the prompt lists. GM rulings are read and printed by the
//! engine's rulings kit, with the words [`crate::state::State`]'s `GmTable` gives.

use crate::setup::Cid;
use crate::state::State;
use fray_engine::Reject;
use fray_engine::gm::{self, Vocabulary};
use fray_engine::kit::rulings::{self, Words};
use fray_space::Pos;
use serde::{Deserialize, Serialize};

pub use crate::state::{OwnRuling, Ruling};

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
    match c {
        Command::Move(p) => format!("move {p}"),
        Command::Attack(w) => match s.chars.get(usize::from(*w)) {
            Some(c) => format!("attack {}", c.id),
            None => format!("attack #{w}"),
        },
        Command::End => "end".into(),
        Command::Dodge => "dodge".into(),
        Command::Take => "take".into(),
        Command::Gm(r) => format!("gm {}", rulings::format(s, r)),
    }
}
