//! What an action costs, and actions that cost more than the turn has left.
//!
//! A turn has three actions (ING-R18); an extended action may be started with fewer left, its
//! unpaid cost carried into later turns and its effect coming only once the whole cost is paid
//! (ING-R34); a turn that starts with one in progress must continue or abandon it first, and
//! it may be abandoned at any time in the turn (ING-R35). The decision behind this module: the
//! cost of every action is worked out here once, for the check (enough actions left?), the
//! resolution (what is paid) and the AI; paying an extended action says whether it was paid in
//! full, and the action's own module then brings about its effect, so this module needs none
//! of them.

use crate::codes::{self, no};
use crate::command::{Action, Command};
use crate::event::{Cost, Event};
use crate::setup::Cid;
use crate::state::{ACTIONS_PER_TURN, Cx, Ext, State};
use fray_engine::Reject;

use super::{Plan, pay};

/// What an action costs in actions; `extendable` if it may be started with fewer left
/// (ING-R34).
pub fn action_cost(s: &State, who: Cid, a: &Action) -> (u8, bool) {
    match a {
        // ING-R29: Step, Drop Item and Drop Prone are free actions.
        Action::Step(_) | Action::Drop(_) | Action::DropProne | Action::End => (0, false),
        Action::Resuscitate(_) => (2, true),
        // ING-R68: a task may last longer than a turn, so it may be started as an extended action.
        Action::Task { seconds, .. } => (task_cost(s, *seconds), true),
        Action::Reload(slot) => (s.item(who, *slot).map_or(1, |i| i.reload.max(1)), true),
        Action::Kill { .. } => (s.options.killing_strike_actions.max(1), true),
        // ING-R18: any other action costs 1; ING-R19: so do Attack, Brandish, Interact and
        // Stand Up.
        _ => (1, false),
    }
}

/// Actions a task costs: 3 for a Short Task, or its seconds ÷ seconds-per-action rounded up
/// (ING-R27, ING-R68).
pub fn task_cost(s: &State, seconds: Option<u16>) -> u8 {
    match seconds {
        // ING-R27: a Short Task costs 3 actions.
        None => 3,
        Some(t) => {
            // ING-R68: a task timed in seconds costs its seconds over the seconds one action
            // stands for, rounded up.
            let per = u16::from(s.options.seconds_per_action.max(1));
            t.div_ceil(per).clamp(1, 255) as u8
        }
    }
}

/// The actions `who` has left for `a` (ING-R34: an extendable action needs one); `via`, the
/// commander of an action given by Command, pays instead. The action's cost if so.
pub(crate) fn check_cost(s: &State, who: Cid, a: &Action, via: Option<Cid>) -> Result<u8, Reject> {
    let c = s.ch(who);
    let (cost, extendable) = action_cost(s, who, a);
    if via.is_none() && cost > 0 {
        let left = c.econ.actions;
        let enough = if extendable { left >= 1 } else { left >= cost };
        if !enough {
            return Err(no(
                codes::NO_ACTIONS,
                format!("{} has {left} action(s) left; this needs {cost}", s.name(who)),
            ));
        }
    }
    Ok(cost)
}

/// The check of a turn that starts with an extended action in progress (`Stage::Extended`):
/// only `continue` or `abandon`.
pub(crate) fn check_waiting(cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Continue | Command::Abandon => Ok(Plan::Plain),
        _ => Err(no(
            codes::NOT_NOW,
            "an extended action is in progress: continue it or abandon it first (ING-R34)",
        )),
    }
}

/// The check of `continue` and `abandon` later in the turn.
pub(crate) fn check_in_turn(s: &State, who: Cid, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        // ING-R35: an extended action in progress may be abandoned at any time during the turn.
        Command::Abandon if s.ch(who).econ.extended.is_some() => Ok(Plan::Plain),
        _ => Err(no(codes::NOT_NOW, "no extended action is in progress")),
    }
}

/// The answers of `Stage::Extended`, in their order.
pub(crate) fn answers(out: &mut Vec<Command>) {
    // Only these answer an extended action in progress (ING-R34).
    out.push(Command::Continue);
    out.push(Command::Abandon);
}

/// `abandon`: the extended action in progress ends unfinished, what was paid refunded with
/// `refund-abandoned` (up to the actions a turn has).
pub(crate) fn abandon(cx: &mut Cx, who: Cid) {
    let refund = if cx.s.options.refund_abandoned {
        cx.s.ch(who).econ.extended.as_ref().map_or(0, |e| e.cost - e.owed)
    } else {
        0
    };
    let left = cx.s.ch(who).econ.actions;
    cx.emit(Event::ExtendedAbandoned {
        who,
        refund: refund.min(ACTIONS_PER_TURN.saturating_sub(left)),
    });
}

/// `continue`: pays what the turn can of the extended action in progress. The action, when its
/// whole cost is now paid (its module then brings about its effect).
pub(crate) fn continue_extended(cx: &mut Cx, who: Cid) -> Option<Ext> {
    let c = cx.s.ch(who);
    let ext = c.econ.extended.clone()?;
    let paid = ext.owed.min(c.econ.actions);
    let owed = ext.owed - paid;
    cx.emit(Event::ExtendedContinued { who, paid, owed });
    (owed == 0).then_some(ext.action)
}

/// Pays for an action that may run over several turns: the whole cost if the turn has it
/// (`true`: its effect comes now), else what is left, the rest owed (ING-R34).
pub(crate) fn pay_or_extend(cx: &mut Cx, who: Cid, cost: u8, ext: Ext) -> bool {
    let left = cx.s.ch(who).econ.actions;
    if left >= cost {
        pay(
            cx,
            who,
            Cost {
                actions: cost,
                ..Cost::default()
            },
        );
        true
    } else {
        cx.emit(Event::ExtendedStarted {
            who,
            action: ext,
            cost,
            owed: cost - left,
        });
        false
    }
}
