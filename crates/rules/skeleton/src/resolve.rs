//! Resolution: the start (initiative), each command, and [`advance`], which runs every
//! automatic step (attack rolls, turns and rounds beginning, the end) until the next decision.
//! State changes only through `cx.emit`; the defender's decision is a frame on the kit's stack.

use crate::Skeleton;
use crate::check::Plan;
use crate::command::Command;
use crate::stage::Stage;
use crate::state::{Attack, Event};
use fray_engine::resolve::settle;
use fray_engine::{Cx, EngineError, Flow};

/// One die: `sides` faces, drawn for the reason `why` (what `--dice manual` asks for).
fn die(cx: &mut Cx<'_, Skeleton>, sides: u16, why: &str) -> Result<u16, EngineError> {
    Ok(fray_dice::roll(cx.dice, 1, sides, fray_dice::Keep::All, &why)?.total as u16)
}

/// Rolls initiative for everyone (SKL-R1), then runs to the first decision.
pub fn start(cx: &mut Cx<'_, Skeleton>) -> Result<(), EngineError> {
    for who in cx.s.ids() {
        let (name, speed) = (cx.s.ch(who).name.clone(), cx.s.ch(who).stats.speed);
        let roll = die(cx, 6, &format!("{name}'s initiative"))?;
        cx.emit(Event::Initiative {
            who,
            roll,
            total: roll as i16 + speed,
        });
    }
    advance(cx)
}

/// Resolves a command with the plan its check gave, under the stage `st` it was checked
/// under (the decision it answers), then runs to the next decision.
pub fn resolve(cx: &mut Cx<'_, Skeleton>, st: Option<Stage>, command: &Command, plan: Plan) -> Result<(), EngineError> {
    let not_checked = || EngineError::Bug(format!("{command:?} does not answer {st:?} with the plan {plan:?}"));
    match (st, command) {
        // GM rulings are no stage: resolved whatever the game waits for.
        (_, Command::Gm(r)) => cx.emit(Event::Ruled(r.clone())),
        (Some(Stage::Defence { .. }), Command::Dodge | Command::Take) => {
            let a = cx.top().cloned().ok_or_else(not_checked)?;
            cx.update(Attack {
                dodge: Some(*command == Command::Dodge),
                ..a
            });
        }
        (Some(Stage::Turn { who, .. }), Command::Move(to)) => {
            let Plan::Move { cost } = plan else {
                return Err(not_checked());
            };
            cx.emit(Event::Moved { who, to: *to, cost });
        }
        (Some(Stage::Turn { who, .. }), Command::Attack(target)) => cx.push(Attack {
            by: who,
            target: *target,
            dodge: None,
        })?,
        (Some(Stage::Turn { who, .. }), Command::End) => cx.emit(Event::TurnEnded { who }),
        _ => return Err(not_checked()),
    }
    advance(cx)
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: &mut Cx<'_, Skeleton>) -> Result<(), EngineError> {
    settle(cx, |cx| {
        let s = &*cx.s;
        if s.outcome.is_some() {
            return Ok(Flow::Wait);
        }
        if let Some(a) = s.frames.last().cloned() {
            return attack(cx, a);
        }
        // SKL-R8: the fight ends once at most one side has anyone in it.
        let next = if let Some(winner) = s.last_side_standing() {
            Event::Ended { winner }
        } else {
            match &s.turn {
                Some(t) if !s.ch(t.who).out() => return Ok(Flow::Wait),
                Some(t) => Event::TurnEnded { who: t.who },
                None => match s.order.current() {
                    Some(who) => Event::TurnStarted { who },
                    None => Event::RoundStarted { round: s.round + 1 },
                },
            }
        };
        cx.emit(next);
        Ok(Flow::Go)
    })
}

/// The top attack: wait for the defender (SKL-R5), or roll it (SKL-R6) and pop it.
fn attack(cx: &mut Cx<'_, Skeleton>, a: Attack) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    let (by, target) = (s.ch(a.by), s.ch(a.target));
    if by.out() || target.out() {
        // A GM ruling took one of them out while the defender was deciding.
        cx.pop();
        return Ok(Flow::Go);
    }
    let dodged = match a.dodge {
        Some(d) => d,
        None if !target.dodged => return Ok(Flow::Wait),
        None => false,
    };
    let defence = target.stats.defence + if dodged { s.options.dodge_bonus } else { 0 };
    let bonus = by.stats.attack;
    let (why, damage) = (
        format!("{}'s attack on {}", by.name, target.name),
        format!("{}'s damage", by.name),
    );
    let roll = die(cx, 20, &why)?;
    let total = roll as i16 + bonus;
    let hit = total >= defence;
    cx.emit(Event::Attacked {
        by: a.by,
        target: a.target,
        roll,
        total,
        defence,
        dodged,
        hit,
    });
    if hit {
        let amount = die(cx, 6, &damage)? as i16;
        cx.emit(Event::Damaged { who: a.target, amount });
    }
    cx.pop();
    Ok(Flow::Go)
}
