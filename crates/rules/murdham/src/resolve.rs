//! Resolution: each command, with the plan its check gave it, then [`advance`], which runs
//! every automatic step (phases, passes of factions with nobody able, saves, damage, morale,
//! the end) until the next decision. State changes only through `cx.emit`; decisions in the
//! middle of an attack or a step are frames on the kit's stack.
//!
//! This file is the dispatch, the twin of [`crate::check`]'s: the stage and the command pick
//! the action, and each action's resolution is in its own file under [`crate::actions`],
//! beside its check; the start, the rounds, the phases and who decides next are
//! [`crate::flow`]; the dice are [`crate::roll`]. The paths other modules and crates use are
//! kept here as re-exports.

use crate::Murdham;
use crate::actions::reactions::{self, Asked};
use crate::actions::{self, Plan, bug, grapple, influence, items, morale, movement, rulings, talk, unplanned};
use crate::command::Command;
use crate::flow;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::Event;
use fray_engine::Cx;

pub use crate::actions::damage::{Hit, attack_spec};
pub use crate::actions::health::hurt;
pub use crate::flow::{advance, faction_to_pick, openers, seats_asked, side_can_act, start};
pub use crate::roll::save;

use crate::roll::Res;

/// Resolves a command with the plan its check gave it, then runs to the next decision. The
/// stage is worked out once, here, and the command answers it.
pub fn resolve(cx: &mut Cx<'_, Murdham>, command: &Command, plan: Plan) -> Res<()> {
    let st = stage(&cx.s);
    resolve_in(cx, st, command, plan)
}

/// [`resolve`] of a command checked under stage `st` (what the engine hands the ruleset).
pub fn resolve_in(cx: &mut Cx<'_, Murdham>, st: Option<Stage>, command: &Command, plan: Plan) -> Res<()> {
    // GM rulings are no stage: resolved whatever the game waits for.
    if let Command::Gm(r) = command {
        cx.emit(Event::Ruled(r.clone()));
        rulings::ruled(cx, r)?;
        return advance(cx);
    }
    let st = st.ok_or_else(|| bug(format!("{command:?} was resolved with nothing asked")))?;
    match st {
        Stage::StuntApproval { .. }
        | Stage::Stunt { .. }
        | Stage::Reaction { .. }
        | Stage::Guard { .. }
        | Stage::StandIn { .. } => {
            let a = crate::stage::attack(&cx.s)
                .cloned()
                .ok_or_else(|| bug("an attack's decision without the attack"))?;
            let asked = match st {
                Stage::Guard { guard, .. } => Asked::Guard(guard),
                Stage::StandIn { who, .. } => Asked::StandIn(who),
                _ => Asked::Other,
            };
            reactions::answer(cx, asked, a, command)?;
        }
        Stage::Opportunity { foe, mover } => movement::opportunity(cx, foe, mover, command, plan)?,
        Stage::Morale { who: first } => morale::choose(cx, first, command)?,
        Stage::Open { .. } => flow::open(cx, command)?,
        Stage::Faction { .. } => flow::faction(cx, command, plan)?,
        Stage::Turn { turn } => turn_command(cx, turn.who, command, plan)?,
    }
    advance(cx)
}

/// An action of the turn of `who`, or its end: a holder lets go first unless the action keeps
/// the hold, then the action, in the file of its action.
fn turn_command(cx: &mut Cx<'_, Murdham>, who: Cid, c: &Command, plan: Plan) -> Res<()> {
    grapple::lets_go(cx, who, c);
    match c {
        Command::End => cx.emit(Event::TurnEnded { who }),
        Command::TimedOut => {
            // MUR-R56: the turn is lost; the record says the timer ran out.
            cx.emit(Event::TurnLost { who, timed_out: true });
        }
        Command::Surrender => morale::surrender(cx, who),
        Command::BreakFree => {
            let Plan::BreakFree { holder } = plan else {
                return Err(unplanned(c, &plan));
            };
            grapple::break_free(cx, who, holder)?;
        }
        Command::Move { to, sneak } => {
            let Plan::Move { cost } = plan else {
                return Err(unplanned(c, &plan));
            };
            movement::step_to(cx, who, *to, *sneak, cost)?;
        }
        Command::Run => movement::run(cx, who),
        Command::Cover => cx.emit(Event::Covered { who, cover: true }),
        Command::Attack {
            aim,
            with,
            mode,
            sweep,
            stunt,
        } => {
            let Plan::Attack(p) = plan else {
                return Err(unplanned(c, &plan));
            };
            actions::attack::resolve(cx, who, *aim, *with, *mode, *sweep, stunt.clone(), p)?;
        }
        Command::Influence { kind, target } => influence::resolve(cx, who, *kind, *target)?,
        Command::Shove { target, to, .. } => {
            let Plan::Shove { hazard } = plan else {
                return Err(unplanned(c, &plan));
            };
            grapple::shove(cx, who, *target, *to, hazard)?;
        }
        Command::Throw { target, to } => grapple::throw(cx, who, *target, *to)?,
        Command::Free(x) => {
            let Plan::Free { holder } = plan else {
                return Err(unplanned(c, &plan));
            };
            grapple::free(cx, who, *x, holder)?;
        }
        Command::Release => grapple::release(cx, who),
        Command::Equip { item, off } => items::equip(cx, who, *item, *off),
        Command::Stow(i) => items::stow(cx, who, *i),
        Command::Drop(i) => items::drop_item(cx, who, *i),
        Command::PickUp(g) => items::pick_up(cx, who, *g),
        Command::Use { item, on } => {
            let Plan::Use { heal: die, antidote } = plan else {
                return Err(unplanned(c, &plan));
            };
            items::use_item(cx, who, *item, *on, die, antidote)?;
        }
        Command::Reload(i) => items::reload(cx, who, *i),
        Command::Interact { main } => talk::interact(cx, who, *main),
        Command::Say(words) => talk::say(cx, who, words),
        other => return Err(bug(format!("{other:?} is no turn command"))),
    }
    Ok(())
}
