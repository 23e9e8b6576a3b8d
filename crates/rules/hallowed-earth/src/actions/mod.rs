//! The actions and topics of a turn and a round, one file each, every file holding the rule's
//! check (what [`crate::check`] refuses or plans), its resolution (what the resolver rolls and
//! emits) and its part of the legal list side by side, so a rule reads in one place.
//!
//! - [`declare`]: declaring an action and a Free action (HAL-R11, HAL-R12, HAL-R17), what each
//!   action needs to be declared, and a newcomer's declaration in the middle of a round
//!   (HAL-R13, HAL-R42).
//! - [`act`]: taking the declared action on its count (HAL-R10, HAL-H16, HAL-R30): aim, reach,
//!   and the dispatch to the action's own file.
//! - [`weapons`]: a weapon in hand (HAL-R40, HAL-R17) and how far it strikes (HAL-H10).
//! - [`attack`]: weapon attacks, thrown or not, and the Reposte (HAL-R35, HAL-H1, HAL-H3,
//!   HAL-R14, HAL-H9).
//! - [`damage`]: damage, critical hits and injuries (HAL-R25, HAL-R36..R41, HAL-H4, HAL-H5,
//!   HAL-H8, HAL-H25), and the injury table the attacker's seat picks (HAL-R39).
//! - [`cast`]: spells and their cost in Mana and Stress (HAL-R26).
//! - [`heal`]: items and the Heal check (HAL-R32).
//! - [`morale`]: intimidation and the end-of-round morale checks (HAL-R19..R22, HAL-H13..H15).
//! - [`moves`]: the move and the short move on a turn (HAL-R18, HAL-R17, HAL-H17), and the
//!   Repostes a move provokes (HAL-R15, HAL-R16); [`flee`]: a flight (HAL-H13).
//! - [`free`]: the Free action (HAL-R17).
//! - [`hurt`]: what acting costs the hurt, and the bleeding of the Dying (HAL-R29, HAL-R30,
//!   HAL-R33, HAL-R43).
//! - [`ruling`]: the GM's rulings.
//!
//! The split follows the rules rather than the pipeline: a file per action keeps an action's
//! legality, its dice and its legal answers together, where one `check.rs` and one `resolve.rs`
//! kept each rule in two places and had both work some things out twice. The two dispatchers,
//! `check` and `resolve`, match on the stage and the command and call in here;
//! nothing in here calls either of them, and the round and turn flow is in [`crate::flow`]. This
//! file holds the helpers the actions share: refusals, dice, targets, speech.

use crate::HallowedEarth;
use crate::codes;
use crate::data::Dice;
use crate::setup::Cid;
use crate::state::{CheckKind, Conditions, Event, State};
use fray_engine::{Cx, EngineError, Reject};

pub mod act;
pub mod attack;
pub mod cast;
pub mod damage;
pub mod declare;
pub mod flee;
pub mod free;
pub mod heal;
pub mod hurt;
pub mod morale;
pub mod moves;
pub mod ruling;
pub mod weapons;

pub(crate) fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// The refusal of a command that answers no part of the decision asked now.
pub(crate) fn not_now() -> Reject {
    no(codes::NOT_NOW, "that is not an answer to the decision asked now")
}

/// `n` and the noun, singular for one (`1 square`, `3 squares`, `-1 Wound Points`).
pub(crate) fn counted(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether `who` may aim at `t`: a creature in the combat, a foe of `who` (`foe`) or one of its
/// side.
pub(crate) fn target_ok(s: &State, who: Cid, t: Cid, foe: bool) -> Result<(), Reject> {
    let me = s.ch(who);
    match s.chars.get(usize::from(t)) {
        None => Err(no(codes::BAD_TARGET, format!("no combatant #{t}"))),
        Some(c) if c.gone() => Err(no(codes::BAD_TARGET, format!("{} is out of the combat", c.name))),
        Some(c) if foe && c.side == me.side => {
            Err(no(codes::BAD_TARGET, format!("{} is on {}'s side", c.name, me.name)))
        }
        Some(c) if !foe && c.side != me.side => {
            Err(no(codes::BAD_TARGET, format!("{} is a foe of {}", c.name, me.name)))
        }
        Some(_) => Ok(()),
    }
}

/// Whether `who` may take an action that needs speech (a spell, intimidation): not if it cannot
/// speak and `silence-blocks-speech-actions` is on.
pub(crate) fn speech_ok(s: &State, who: Cid) -> Result<(), Reject> {
    let me = s.ch(who);
    if me.has(Conditions::MUTE) && s.options.silence_blocks_speech_actions {
        Err(no(codes::CANNOT_SPEAK, format!("{} cannot speak", me.name)))
    } else {
        Ok(())
    }
}

/// The resolution context: the state (read-only), the dice, and the events emitted so far.
pub(crate) type Cx1<'a, 'b> = &'a mut Cx<'b, HallowedEarth>;

/// `n` dice of `sides` faces, summed, drawn for the reason `why` (what `--dice manual` asks).
pub(crate) fn dice(cx: Cx1<'_, '_>, n: u8, sides: u16, why: &dyn std::fmt::Display) -> Result<i32, EngineError> {
    if n == 0 {
        return Ok(0);
    }
    Ok(fray_dice::roll(cx.dice, usize::from(n), sides, fray_dice::Keep::All, why)?.total)
}

/// A dice expression's total.
pub(crate) fn roll(cx: Cx1<'_, '_>, d: Dice, why: &dyn std::fmt::Display) -> Result<i16, EngineError> {
    let sum = dice(cx, d.n, d.sides, why)?;
    Ok((sum + i32::from(d.plus)).clamp(-9999, 9999) as i16)
}

pub(crate) fn bug(what: impl Into<String>) -> EngineError {
    EngineError::Bug(what.into())
}

/// A check of a skill against a TN (casting, HAL-R26; Heal, HAL-R32): the `check-die` plus
/// `bonus`, logged with its face, succeeding at the TN or above; `why` names the draw.
pub(crate) fn skill_check(
    cx: Cx1<'_, '_>,
    who: Cid,
    kind: CheckKind,
    bonus: i16,
    tn: i16,
    why: &dyn std::fmt::Display,
) -> Result<bool, EngineError> {
    let r = dice(cx, 1, cx.s.options.check_die, why)? as u16;
    let total = r as i16 + bonus;
    let success = total >= tn;
    cx.emit(Event::Checked {
        who,
        kind,
        roll: r,
        total,
        tn,
        success,
    });
    Ok(success)
}

/// What a concussion takes off a creature's checks (HAL-H6): `concussed-penalty`, or 0.
pub(crate) fn concussed_penalty(s: &State, who: Cid) -> i16 {
    if s.ch(who).has(Conditions::CONCUSSED) {
        s.options.concussed_penalty
    } else {
        0
    }
}
