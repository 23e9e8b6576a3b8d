//! Resolution: each command, with the plan its check gave it, becomes events, and the combat
//! runs on to the next decision. State changes only through `cx.emit`; decisions of other seats
//! in the middle of something (a Reposte, an injury table) are frames on the kit's stack.
//!
//! This file is the dispatch only, matching on the stage the command answered and the command,
//! and the files follow the rules' topics: the start (Stress and Base Initiative, HAL-R24,
//! HAL-R4, HAL-R5) and [`advance`], which runs every automatic step (reveals, counts, turns,
//! the end-of-round Dying loss and morale, the end), are in [`crate::flow`]; under `actions/`,
//! `declare` a declaration and a newcomer's schedule (HAL-R12, HAL-R13, HAL-R42), `act` the
//! declared action on its count, `attack` weapon attacks and the Reposte (HAL-R35, HAL-R14),
//! `damage` damage and injuries (HAL-R25, HAL-R36..R41), `cast` spells (HAL-R26), `heal` items
//! and the Heal check (HAL-R32), `morale` intimidation and morale (HAL-R19..R22), `moves` the
//! move and short move (HAL-R18, HAL-R17), `flee` a flight (HAL-H13), `free` the Free action
//! (HAL-R17), `hurt` the costs of acting hurt and the bleeding of the Dying (HAL-R29, HAL-R30,
//! HAL-R33), and `ruling` the GM's rulings.

use crate::actions::{Cx1, act, attack, bug, damage, declare, free, moves, ruling};
use crate::command::Command;
use crate::plan::Plan;
use crate::stage::Stage;
use crate::state::Event;
use fray_engine::EngineError;

pub use crate::flow::{advance, end_check, start};

/// Resolves a command with the plan its check gave under the stage `st` (the decision it
/// answers, [`crate::stage::stage`] of the state before it), then runs to the next decision.
/// GM rulings are no stage.
pub fn resolve(cx: Cx1<'_, '_>, st: Option<&Stage>, command: &Command, plan: Plan) -> Result<(), EngineError> {
    let unplanned = || bug(format!("{command:?} was resolved without its plan"));
    if let Command::Gm(r) = command {
        ruling::ruled(cx, r);
        return advance(cx);
    }
    let Some(st) = st else {
        return Err(bug(format!("{command:?} was resolved with nothing asked")));
    };
    match (*st, command) {
        (Stage::Declare { newcomer, .. }, Command::Declare { who, action }) => {
            declare::declared(cx, *who, *action, newcomer)?;
        }
        (Stage::Declare { .. }, Command::DeclareFree { who, free }) => declare::free_declared(cx, *who, *free),
        (Stage::Turn(_), Command::Move(to) | Command::Step(to)) => {
            let Plan::Walk(path) = plan else {
                return Err(unplanned());
            };
            moves::walk(cx, *to, matches!(command, Command::Step(_)), path)?
        }
        (Stage::Turn(t), Command::Free) => {
            let Plan::Free(free) = plan else {
                return Err(unplanned());
            };
            free::take_free(cx, t.who, free, None)?;
        }
        (Stage::Turn(t), Command::Act(_)) => {
            let Plan::Act { action, spell } = plan else {
                return Err(unplanned());
            };
            act::act(cx, t.who, action, spell)?;
        }
        (Stage::Turn(t), Command::End) => {
            cx.emit(Event::TurnEnded { act: t.act });
        }
        (Stage::Reposte { by, against }, Command::Reposte(_)) => {
            let Plan::Reposte(weapon) = plan else {
                return Err(unplanned());
            };
            attack::reposte(cx, by, against, weapon)?;
        }
        (Stage::Reposte { .. }, Command::Pass) => {
            cx.pop();
        }
        (Stage::Injury { target, .. }, Command::Injury(kind)) => {
            damage::picked(cx, target, kind)?;
        }
        _ => return Err(bug(format!("{command:?} does not answer {st:?}"))),
    }
    advance(cx)
}
