//! Tasks: a Short Task (3 actions and a test) and longer tasks counted in seconds.
//!
//! A Short Task costs 3 actions and includes a test (ING-R27); a task that says how many
//! seconds it takes costs its seconds over the seconds an action stands for, rounded up
//! (ING-R68, `seconds-per-action`), and may run over several turns (ING-R34). The decision
//! behind this module: the check, the resolution and the test of the task sit together; its
//! cost is counted with every other action's in `extended`.

use crate::codes::{self, no};
use crate::data::Attr;
use crate::event::Event;
use crate::setup::Cid;
use crate::state::{Cx, Ext, R};
use fray_engine::Reject;

use super::Plan;
use super::extended::{pay_or_extend, task_cost};
use crate::roll::named_test;

/// The check of a task of difficulty `difficulty`.
pub(crate) fn check(difficulty: i16) -> Result<Plan, Reject> {
    if difficulty < 0 {
        return Err(no(codes::BAD_COMMAND, "a difficulty is 0 or more"));
    }
    Ok(Plan::Plain)
}

/// Resolves a task by `who`: its cost, then its test once it is paid.
pub(crate) fn resolve(
    cx: &mut Cx,
    who: Cid,
    attr: Attr,
    skill: &str,
    prof: &Option<String>,
    difficulty: i16,
    seconds: Option<u16>,
) -> R {
    let cost = task_cost(&cx.s, seconds);
    let ext = Ext::Task {
        attr,
        skill: skill.to_string(),
        prof: prof.clone(),
        difficulty,
    };
    if pay_or_extend(cx, who, cost, ext) {
        // ING-R27: once its actions are paid, the task makes its test.
        test(cx, who, attr, skill, prof, difficulty)?;
    }
    Ok(())
}

/// The test of a task whose cost is paid.
pub(crate) fn test(cx: &mut Cx, who: Cid, attr: Attr, skill: &str, prof: &Option<String>, difficulty: i16) -> R {
    let p = prof.clone().unwrap_or_default();
    let roll = named_test(cx, who, attr, skill, &p, 0, "task")?;
    let success = roll.total >= difficulty;
    cx.emit(Event::Tested {
        who,
        what: format!("task ({} + {skill})", attr.name()),
        roll,
        difficulty,
        success,
    });
    Ok(())
}
