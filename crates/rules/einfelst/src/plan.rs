//! The contract between the two dispatchers: the [`Plan`] a check hands to resolution, how a
//! check words a refusal, and the bugs resolution reports when a plan does not fit.
//!
//! `check` returns a [`Plan`] (or a typed rejection) and `resolve` consumes it; every action
//! module under `actions/` holds both halves of its action, so these types live below both
//! dispatchers and below every action: no action's check has to reach into resolution, and no
//! resolution into the check, for them. [`Say`] and [`no`] let one check serve both callers: the
//! sentence of a refusal is formatted only when it is wanted (the legal list asks every
//! candidate in the code-only mode and throws the sentence away).

use crate::codes;
use crate::command::Command;
use crate::data::Obstacle;
use crate::setup::Cid;
use fray_engine::{EngineError, Reject};
use fray_space::ZoneId;

/// Whether a refusal is wanted with its sentence or only for its code: [`crate::check::check`]
/// says why, the legal list only needs the verdict ([`crate::check::plan_in`]) and formats
/// nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Say {
    /// The refusal carries its sentence.
    Sentence,
    /// The refusal carries its code and an empty sentence (nothing formatted or allocated).
    Code,
}

/// A refusal with a stable code; `why` is called for the sentence only when `say` asks for it.
#[inline]
pub(crate) fn no<W: Into<String>>(say: Say, code: &'static str, why: impl FnOnce() -> W) -> Reject {
    match say {
        Say::Sentence => Reject::new(code, why()),
        Say::Code => Reject::new(code, String::new()),
    }
}

/// The refusal of a command that answers nothing asked now.
pub(crate) fn not_now(say: Say) -> Reject {
    no(
        say,
        codes::NOT_NOW,
        || "that is not an answer to the decision asked now",
    )
}

/// The checked plan of a command: what [`crate::check::check`] found out that resolution
/// needs, so the resolver does not work it out again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs (rulings, the swaps at the start of a round,
    /// a group's pick, `end`, `release`, `pass` and the answers that pay nothing).
    Plain,
    /// A manoeuvre of the turn, or a reaction: the allowance that pays it (EIN-R16, EIN-R19).
    Pay(Pay),
    /// A `move` or a `clear`: its pay, and the obstacle it gets over with its manoeuvre and
    /// test, if any (none on a plain link or a cleared one: EIN-R15).
    Obstacle {
        /// The allowance that pays it.
        pay: Pay,
        /// The obstacle crossed or cleared.
        obstacle: Option<Obstacle>,
    },
    /// A flight: its pay, and the next zone of its way out (`None` when it leaves from an exit
    /// zone, EIN-R32).
    Flee {
        /// The allowance that pays it.
        pay: Pay,
        /// The zone it flees toward.
        toward: Option<ZoneId>,
    },
    /// An answer to a flight's chase (EIN-R33): the foe asked, and for `chase` the reaction
    /// that pays it.
    Chaser {
        /// The foe asked.
        who: Cid,
        /// What pays the chase (`None` for `pass`).
        pay: Option<Pay>,
    },
}

/// Which allowance pays a manoeuvre: card `n`, and whether the slow one is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pay {
    /// The card whose allowance pays.
    pub n: u8,
    /// The slow manoeuvre is spent (for a slow manoeuvre, or a fast one taken in its place).
    pub slow: bool,
}

/// The error for a command resolved in a state its check refuses (a bug).
pub(crate) fn not_checked(c: &Command) -> EngineError {
    EngineError::Bug(format!("{c:?} was resolved in a state the check should have refused"))
}

/// What the check found pays `c`, a manoeuvre or a reaction.
pub(crate) fn paid(plan: Plan, c: &Command) -> Result<Pay, EngineError> {
    match plan {
        Plan::Pay(pay) => Ok(pay),
        _ => Err(EngineError::Bug(format!("{c:?} was resolved without what pays it"))),
    }
}
