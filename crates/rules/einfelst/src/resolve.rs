//! Resolution: each command becomes events, then [`advance`] runs every automatic step until
//! the next decision. State changes only through `cx.emit`; decisions in the middle of a
//! command (reactions, extra successes, Harm splits, card choices) are frames on the kit's
//! stack.
//!
//! This file is the dispatch: it consumes the [`Plan`] the check gave, under the stage the
//! check accepted the command under, and sends each command to the action or topic that owns
//! it in `actions/` (the same module that holds its check): `attack`, `defence`, `hit`, `flee`,
//! `restraint`, `movement`, `items`, `quick`, `hazards`, `roll`, `harm`, `push`, `cards`,
//! `swaps` and `rulings`. The start, the rounds, the turns and the stepping of frames are
//! `flow`; the dice of a test are `actions::roll`. The names resolution used to define are
//! re-exported from their new homes, so `resolve::...` paths keep working.

use crate::Einfelst;
use crate::actions::{
    attack, cards, defence, flee, harm, hazards, hit, items, movement, push, quick, restraint, roll, rulings, swaps,
};
use crate::command::Command;
use crate::flow;
use crate::plan::{Plan, not_checked};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{AttackKind, Event, Frame, TurnEnd};
use fray_engine::{Cx, EngineError, Seat};

pub use crate::actions::flee::next_chaser;
pub use crate::actions::harm::harm;
pub use crate::actions::hazards::{fear, poison};
pub use crate::actions::restraint::asks_holder;
pub use crate::actions::roll::{Kind, attribute, penalty, pool, test};
pub use crate::flow::{advance, start};

/// Resolves a command with the plan its check gave, then runs to the next decision.
pub fn resolve(cx: &mut Cx<'_, Einfelst>, seat: Seat, command: &Command, plan: Plan) -> Result<(), EngineError> {
    let st = stage(&cx.s);
    resolve_in(cx, st, seat, command, plan)
}

/// [`resolve`] of a command checked under stage `st` (what the engine hands the ruleset).
pub fn resolve_in(
    cx: &mut Cx<'_, Einfelst>,
    st: Option<Stage>,
    seat: Seat,
    command: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    if let Command::Gm(r) = command {
        rulings::resolve(cx, r)?;
        return advance(cx);
    }
    // What the command answers, worked out once (GM rulings, above, are no stage).
    let Some(st) = st else {
        return Err(not_checked(command));
    };
    match st {
        Stage::Reaction { .. }
        | Stage::Swap { .. }
        | Stage::ExtraSuccesses { .. }
        | Stage::Chase { .. }
        | Stage::Hold { .. }
        | Stage::Harm { .. }
        | Stage::Card { .. }
        | Stage::Push { .. } => answer(cx, &st, command, plan)?,
        Stage::CardSwaps => swaps::resolve(cx, seat, command)?,
        Stage::GroupTurn { .. } => flow::resolve_group(cx, command)?,
        Stage::Turn { who, .. } => turn(cx, who, command, plan)?,
    }
    advance(cx)
}

/// A manoeuvre (or `release`, `end`) on the turn of `who`, with the plan its check gave.
fn turn(cx: &mut Cx<'_, Einfelst>, who: Cid, c: &Command, plan: Plan) -> Result<(), EngineError> {
    let wield = cx.s.ch(who).wield;
    let attack = |cx: &mut Cx<'_, Einfelst>, x: Cid, kind: AttackKind, weapon: Option<u8>| {
        attack::declare(cx, who, x, kind, weapon, c, plan)
    };
    match c {
        Command::Strike(x) => attack(cx, *x, AttackKind::Strike, wield),
        Command::Shoot(x) => attack(cx, *x, AttackKind::Shoot, wield),
        Command::Punch(x) => attack(cx, *x, AttackKind::Unarmed, None),
        Command::Grapple(x) => attack(cx, *x, AttackKind::Grapple, None),
        Command::Shove(x, to) => attack(cx, *x, AttackKind::Shove(*to), None),
        Command::Cast(sp, x) => attack(cx, *x, AttackKind::Cast(*sp), None),
        Command::Flee(action) | Command::FleeTo(action, _) => flee::declare(cx, who, *action, c, plan),
        Command::Extinguish => hazards::resolve_extinguish(cx, who, c, plan),
        Command::Test(action) => roll::resolve_test(cx, who, *action, c, plan),
        Command::Move(z) => movement::resolve_move(cx, who, *z, c, plan),
        Command::Clear(z) => movement::resolve_clear(cx, who, *z, c, plan),
        Command::Close(x) => movement::resolve_close(cx, who, *x, c, plan),
        Command::Withdraw | Command::Cover => movement::resolve_place(cx, who, c, plan),
        Command::Draw(w) => items::resolve_draw(cx, who, *w, c, plan),
        Command::PickUp(w) => items::resolve_pick_up(cx, who, *w, c, plan),
        Command::Stand => quick::resolve_stand(cx, who, c, plan),
        Command::Shout | Command::Interact => quick::resolve_quick(cx, who, c, plan),
        Command::BreakFree => restraint::resolve_break_free(cx, who, c, plan),
        Command::Release => {
            restraint::resolve_release(cx, who);
            Ok(())
        }
        Command::End => {
            cx.emit(Event::TurnEnded {
                who,
                how: TurnEnd::Ended,
            });
            Ok(())
        }
        _ => Err(not_checked(c)),
    }
}

/// An answer to the decision `st` the frame on top of the stack asks, with its plan; the frame
/// gives what the stage does not hold.
fn answer(cx: &mut Cx<'_, Einfelst>, st: &Stage, c: &Command, plan: Plan) -> Result<(), EngineError> {
    let f = cx.s.frames.last().copied().ok_or_else(|| not_checked(c))?;
    match (*st, f) {
        (Stage::Reaction { .. }, Frame::Attack(a)) => defence::resolve_reaction(cx, a, c, plan),
        (Stage::Swap { .. }, Frame::Attack(a)) => {
            defence::resolve_swap(cx, a, c);
            Ok(())
        }
        (Stage::ExtraSuccesses { .. }, Frame::Attack(a)) => hit::resolve_spend(cx, a, c),
        (Stage::Chase { .. }, Frame::Flee(fl)) => flee::resolve_chase(cx, fl, c, plan),
        (Stage::Hold { .. }, Frame::Break(b)) => restraint::resolve_hold(cx, b, c, plan),
        (Stage::Harm { who, mental, .. }, Frame::Split(_)) => harm::resolve_split(cx, who, mental, c),
        (Stage::Push { .. }, Frame::Push(p)) => {
            let Command::Push(yes) = c else {
                return Err(not_checked(c));
            };
            push::pushed_or_not(cx, p, *yes)
        }
        (Stage::Card { who, drawn }, Frame::Keep(_)) => cards::resolve_keep(cx, who, drawn, c),
        _ => Err(not_checked(c)),
    }
}
