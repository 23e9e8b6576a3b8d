//! Staying conscious, falling unconscious, and the death check.
//!
//! Health lost while health stays above 0, with more missing than constitution, asks for a
//! fortify to stay conscious (a reaction costing 1 stamina) or a fall (ING-R60, ING-H8 for one
//! who cannot pay); health reduced to 0 knocks out at once (ING-R61), and damage beyond the
//! health left, or any later damage at 0 health, asks for a death check (ING-R62, ING-R63). The
//! decision behind this module: the consciousness fortify is a frame of its own, so that the
//! character's seat can be asked; its check, its step and its resolution are here together.

use crate::calc;
use crate::codes::{self, no};
use crate::command::Command;
use crate::data::Attr;
use crate::event::{AutoStep, Cost, Event};
use crate::options::FortifyWithout;
use crate::setup::Cid;
use crate::state::{Cx, R, State};
use fray_engine::{EngineError, Flow, Reject};

use super::reaction::{can_react, why_no_reaction};
use super::{Plan, pay};
use crate::roll::{luck_test, named_test};

/// Whether the consciousness fortify can be made (ING-R60, ING-H8).
pub fn fortify_to_stay_ok(s: &State, who: Cid) -> bool {
    match s.options.fortify_without {
        FortifyWithout::Unconscious => can_react(s, who, false, 1, 0),
        FortifyWithout::Allowed => s.ch(who).present() && !s.ch(who).unconscious,
    }
}

/// The check of the consciousness fortify's decision (`Stage::Fortify`): fortify or fall.
pub(crate) fn check(s: &State, who: Cid, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Fall => Ok(Plan::Plain),
        Command::Fortify if fortify_to_stay_ok(s, who) => Ok(Plan::Plain),
        Command::Fortify => Err(no(codes::NO_REACTION, "no reaction or stamina left to fortify")),
        _ => Err(no(codes::NOT_NOW, "fortify or fall")),
    }
}

/// The answers of `Stage::Fortify`, in their order.
pub(crate) fn answers(out: &mut Vec<Command>) {
    out.push(Command::Fortify);
    out.push(Command::Fall);
}

/// Steps the consciousness fortify's frame (`Frame::Conscious`) of `who`: gone when `who` is
/// out or already unconscious; asked when the fortify can be made; else unconscious at once.
pub(crate) fn step(cx: &mut Cx, who: Cid) -> Result<Flow, EngineError> {
    if !cx.s.ch(who).present() || cx.s.ch(who).unconscious {
        cx.pop();
        return Ok(Flow::Go);
    }
    if fortify_to_stay_ok(&cx.s, who) {
        return Ok(Flow::Wait);
    }
    // No reaction or stamina left: unconscious (ING-R60, ING-H8); the log says why.
    let why = why_no_reaction(&cx.s, who, false);
    cx.pop();
    cx.emit(Event::Automatic {
        who,
        step: AutoStep::NoFortify,
        why,
    });
    knock_out(cx, who);
    Ok(Flow::Go)
}

/// The answer to the consciousness fortify's decision: its frame is done, then the fortify or
/// the fall.
pub(crate) fn answer(cx: &mut Cx, who: Cid, missing: i16, fortify: bool) -> R {
    cx.pop();
    stay_conscious(cx, who, missing, fortify)
}

/// The consciousness fortify (`fortify`) or falling unconscious (ING-R60).
fn stay_conscious(cx: &mut Cx, who: Cid, missing: i16, fortify: bool) -> R {
    if !fortify {
        knock_out(cx, who);
        return Ok(());
    }
    let can_pay = can_react(&cx.s, who, false, 1, 0);
    if can_pay {
        pay(
            cx,
            who,
            Cost {
                stamina: 1,
                reaction: true,
                ..Cost::default()
            },
        );
    }
    let g = calc::guard(&cx.s, who);
    // ING-R49: the fortify rolls STR + Athletics + Fortitude and counts as at least
    // constitution.
    let roll = named_test(cx, who, Attr::Str, "athletics", "fortitude", g, "fortify")?;
    let result = roll.total.max(calc::constitution(&cx.s, who));
    let stayed = result >= missing;
    cx.emit(Event::Fortified {
        who,
        difficulty: missing,
        roll,
        result,
        stayed,
    });
    if !stayed {
        knock_out(cx, who);
    }
    Ok(())
}

/// Knocks `who` out.
pub(crate) fn knock_out(cx: &mut Cx, who: Cid) {
    cx.emit(Event::KnockedOut { who });
}

pub(crate) fn death_check(cx: &mut Cx, who: Cid) -> R {
    if cx.s.ch(who).dead {
        return Ok(());
    }
    let (luck, total) = luck_test(cx, who, "death check (luck d20)")?;
    let difficulty = cx.s.ch(who).death_difficulty;
    let survived = total >= difficulty;
    cx.emit(Event::DeathCheck {
        who,
        luck,
        total,
        difficulty,
        survived,
    });
    if !survived {
        cx.emit(Event::Died { who });
    }
    Ok(())
}
