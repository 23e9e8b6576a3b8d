//! The quick manoeuvres: standing up, shouting and interacting with something, each a fast
//! manoeuvre with nothing to roll.
//!
//! They share one module because each is a few lines and none is a topic of its own in the
//! rules; their checks, resolution and candidates sit side by side.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::plan::{Plan, Say, no, paid};
use crate::setup::Cid;
use crate::state::{Event, State};
use fray_engine::{Cx, EngineError, Reject};

use super::manoeuvres::{fast, spend};

/// `stand`: up from the ground.
pub(crate) fn check_stand(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R18: standing up is a fast manoeuvre.
    let pay = fast(s, who, n, say)?;
    if me.prone {
        Ok(Plan::Pay(pay))
    } else {
        Err(no(say, codes::NOT_NOW, || format!("{} is not down", me.name)))
    }
}

/// `shout`: not while silenced.
pub(crate) fn check_shout(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R18: shouting is a fast manoeuvre.
    let pay = fast(s, who, n, say)?;
    if me.silenced {
        return Err(no(say, codes::RESTRAINED, || format!("{} is silenced", me.name)));
    }
    Ok(Plan::Pay(pay))
}

/// `interact`: always, with a fast manoeuvre.
pub(crate) fn check_interact(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    fast(s, who, n, say).map(Plan::Pay)
}

/// The turn's quick manoeuvres.
pub(crate) fn list(push: &mut impl FnMut(Command) -> bool) {
    for c in [Command::Stand, Command::Shout, Command::Interact] {
        push(c);
    }
}

/// Resolves `stand`.
pub(crate) fn resolve_stand(cx: &mut Cx<'_, Einfelst>, who: Cid, c: &Command, plan: Plan) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, false);
    cx.emit(Event::Prone { who, on: false });
    Ok(())
}

/// Resolves `shout` and `interact`.
pub(crate) fn resolve_quick(cx: &mut Cx<'_, Einfelst>, who: Cid, c: &Command, plan: Plan) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, false);
    cx.emit(Event::Quick {
        who,
        shout: *c == Command::Shout,
    });
    Ok(())
}
