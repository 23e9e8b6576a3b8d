//! The dice of resolution: one die with a label saying what it is rolled for, and a save.
//!
//! Every roll of the game goes through [`die`], so the dice come only from the record's seed
//! (or a scripted source) and a person asked for a face (`--dice manual`) is told what it is
//! for. A save is the core mechanic the chapter assumes (a d20 at or under the score); the
//! contests and group saves built on it stay with the rules that use them. This module is
//! apart from the actions and from the turn flow because both roll, and neither should import
//! the other to do it.

use crate::Murdham;
use crate::data::Ability;
use crate::setup::Cid;
use crate::state::{Event, State, Why};
use fray_engine::{Cx, EngineError};
use std::fmt;

/// A step of resolution: an event-emitting function that fails only on a bug or a dice error.
pub(crate) type Res<T> = Result<T, EngineError>;

/// What a die is rolled for (what `--dice manual` asks), formatted only when shown.
struct For<'a>(&'a State, Cid, &'static str);

/// The "who" of a roll that is nobody's (the initiative die, the fast action threshold).
pub(crate) const NOBODY: Cid = Cid::MAX;

impl fmt::Display for For<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 == NOBODY {
            return write!(f, "the {}", self.2);
        }
        let name = self.0.chars.get(self.1 as usize).map_or("someone", |c| c.name.as_str());
        write!(f, "{name}'s {}", self.2)
    }
}

/// One die of `sides` faces.
pub(crate) fn die(cx: &mut Cx<'_, Murdham>, sides: u16, who: Cid, why: &'static str) -> Res<u16> {
    // The state and the dice are separate fields of the context: the label borrows the one
    // while the roll uses the other, and is formatted only if a person is asked for the face.
    let label = For(&cx.s, who, why);
    Ok(fray_dice::roll(cx.dice, 1, sides, fray_dice::Keep::All, &label)?.total as u16)
}

/// A save: d20 at or under the score (the core mechanic the chapter assumes).
pub fn save(cx: &mut Cx<'_, Murdham>, who: Cid, ability: Ability, why: Why) -> Res<bool> {
    let score = cx.s.ch(who).ability(ability);
    let roll = die(cx, 20, who, save_label(ability))?;
    let pass = roll <= u16::from(score);
    cx.emit(Event::Save {
        who,
        ability,
        score,
        roll,
        pass,
        why,
    });
    Ok(pass)
}

fn save_label(a: Ability) -> &'static str {
    match a {
        Ability::Str => "STR save (d20)",
        Ability::Agi => "AGI save (d20)",
        Ability::Wit => "WIT save (d20)",
    }
}

/// Rolls damage: one exploding die, or two keeping the lower (impaired) or the higher
/// (enhanced); impaired twice deals nothing. Returns the total, the natural face of the kept
/// roll's first die, and every face.
pub(crate) fn roll_damage(
    cx: &mut Cx<'_, Murdham>,
    by: Cid,
    die_faces: u8,
    level: i8,
) -> Res<(i32, Option<u16>, Vec<Vec<u16>>)> {
    if level <= -2 || die_faces == 0 {
        return Ok((0, None, Vec::new()));
    }
    let n = if level == 0 { 1 } else { 2 };
    let mut rolls: Vec<Vec<u16>> = Vec::with_capacity(n);
    let mut totals: Vec<i32> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut faces = Vec::new();
        let mut total = 0i32;
        // Each maximum counts one less and rolls again (a guard stops a stuck manual source).
        for _ in 0..64 {
            let f = die(cx, u16::from(die_faces), by, "damage die")?;
            faces.push(f);
            if f == u16::from(die_faces) && die_faces > 1 {
                total += i32::from(die_faces) - 1;
            } else {
                total += i32::from(f);
                break;
            }
        }
        totals.push(total);
        rolls.push(faces);
    }
    let kept = match level {
        0 => 0,
        l if l < 0 => usize::from(totals.len() > 1 && totals[1] < totals[0]),
        _ => usize::from(totals.len() > 1 && totals[1] > totals[0]),
    };
    let face = rolls[kept].first().copied();
    Ok((totals[kept], face, rolls))
}
