//! Command: an ally takes one action in the commander's turn.
//!
//! Command costs 1 action and 2 focus, may be given to each ally once a turn, and the ally then
//! takes one single action (ING-R20); with `command-uses-ally-actions` the ally owes that action
//! from its own next turn (ING-H14). The decision behind this module: the commanded action is
//! checked, resolved and listed as the ally's own action (the dispatchers call themselves again
//! for it), so this module holds only what Command adds: which actions it cannot give, its own
//! preconditions and cost, and the usual commanded actions to list.

use crate::codes::{self, no};
use crate::command::Action;
use crate::event::{Cost, Event};
use crate::setup::Cid;
use crate::state::{Cx, State};
use fray_engine::Reject;

use super::attack::attacks;
use super::extended::action_cost;
use super::{known, pay};

/// Whether Command can give the action `a` (costing `cost` actions) to an ally.
pub(crate) fn check_given(a: &Action, cost: u8) -> Result<(), Reject> {
    match a {
        Action::Command { .. }
        | Action::Guard
        | Action::Wait
        | Action::Ready(_)
        | Action::End
        | Action::Resuscitate(_)
        | Action::Task { .. }
        | Action::Kill { .. }
        | Action::Sprint(_) => {
            return Err(no(
                codes::BAD_COMMAND,
                "Command gives an ally one single action (ING-R20)",
            ));
        }
        Action::Reload(_) if cost > 1 => {
            return Err(no(
                codes::BAD_COMMAND,
                "Command gives one action; this reload takes more",
            ));
        }
        _ => {}
    }
    Ok(())
}

/// The check of `who` commanding `ally` to take `action` (the action itself is checked as the
/// ally's); `via`, set when `who` was commanded itself.
pub(crate) fn check(s: &State, who: Cid, ally: Cid, action: &Action, via: Option<Cid>) -> Result<(), Reject> {
    let c = s.ch(who);
    if via.is_some() {
        return Err(no(codes::BAD_COMMAND, "a commanded ally cannot command"));
    }
    if !known(s, ally) || ally == who || !s.allies(who, ally) {
        return Err(no(codes::INVALID_TARGET, "Command gives an action to an ally"));
    }
    // ING-R20: each ally may be commanded once in the commander's turn.
    if c.commanded & (1u64 << (ally as u64 % 64)) != 0 {
        return Err(no(
            codes::NOT_NOW,
            format!("{} was already commanded this turn", s.name(ally)),
        ));
    }
    if c.focus < 2 {
        return Err(no(codes::NO_FOCUS, "Command costs 2 focus"));
    }
    let (inner, _) = action_cost(s, ally, action);
    if inner > 1 {
        return Err(no(codes::BAD_COMMAND, "Command gives one single action (ING-R20)"));
    }
    Ok(())
}

/// The commanded actions of `me`'s turn, in their order: for each ally, its attacks on its
/// enemies, standing up and seeking cover.
pub(crate) fn list(s: &State, me: Cid, out: &mut Vec<Action>) {
    // Command: an ally's attacks, standing up, seeking cover.
    for ally in s.ids().filter(|&a| s.allies(me, a)) {
        let mut inner = Vec::new();
        attacks(s, ally, &mut inner);
        inner.retain(|a| matches!(a, Action::Attack { target, .. } if s.enemies(ally, *target)));
        inner.push(Action::StandUp);
        inner.push(Action::SeekCover);
        for a in inner {
            out.push(Action::Command {
                ally,
                action: Box::new(a),
            });
        }
    }
}

/// Resolves what Command itself does: its cost, the ally commanded, and what the ally owes
/// (the ally's action is resolved next, as its own).
pub(crate) fn resolve(cx: &mut Cx, who: Cid, ally: Cid, action: &Action) {
    // ING-R20: Command costs the commander 1 action and 2 focus.
    pay(
        cx,
        who,
        Cost {
            actions: 1,
            focus: 2,
            ..Cost::default()
        },
    );
    cx.emit(Event::Commanded { commander: who, ally });
    if cx.s.options.command_uses_ally_actions && action_cost(&cx.s, ally, action).0 > 0 {
        cx.emit(Event::Owed { who: ally });
    }
}
