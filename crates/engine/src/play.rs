//! The combat loop, written once.
//!
//! Every driver of a game goes through these functions: the [`crate::Game`] of table play and
//! `fray run` (with a record and a rollback around each step), the simulator's batches and the
//! search policy's rollouts (events discarded), the conformance suite and the test kit. So the
//! order of things is the same everywhere and reads here:
//!
//! 1. [`authorize`]: a finished game takes nothing, rulings come only from the GM, every other
//!    command only from one of the seats the pending decision names;
//! 2. [`check`]: the ruleset's rules check, which hands back its checked plan
//!    ([`Ruleset::Checked`]): what it found out about the command (a path, the targets, an
//!    attack's profile), so nothing is worked out twice;
//! 3. [`resolve`]: the one place [`Ruleset::resolve`] is called; it consumes the plan, draws
//!    dice and emits events into a [`Sink`] that keeps, discards or observes them;
//! 4. [`play`]: policies answer until the game ends or the caller stops it.
//!
//! A policy hands back an [`Answer`]: a command together with its plan, which it got from
//! [`crate::Decision::legal`] or [`crate::Decision::answer`], so what a policy chooses is
//! resolved without being checked again.

use crate::resolve::{Cx, Observer};
use crate::{Decision, EngineError, PendingOf, Policy, Reject, Ruleset, Seat};
use fray_dice::{Dice, Prng};

/// A command the rules accept for the seat deciding in one position, with the plan checking
/// it produced. It is made by [`crate::Decision::answer`] (the rules check), listed by
/// [`Ruleset::legal`], or built by a ruleset's own AI from what its search already checked;
/// it is resolved only in the position it was made for.
pub struct Answer<R: Ruleset> {
    /// The command (what is recorded and shown).
    pub command: R::Command,
    /// What checking it learned, for [`Ruleset::resolve`].
    pub plan: R::Checked,
}

impl<R: Ruleset> Answer<R> {
    /// A command with its plan.
    pub fn new(command: R::Command, plan: R::Checked) -> Answer<R> {
        Answer { command, plan }
    }
}

impl<R: Ruleset> Clone for Answer<R> {
    fn clone(&self) -> Self {
        Answer {
            command: self.command.clone(),
            plan: self.plan.clone(),
        }
    }
}

impl<R: Ruleset> std::fmt::Debug for Answer<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("command", &self.command)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<R: Ruleset> PartialEq for Answer<R> {
    fn eq(&self, other: &Self) -> bool {
        self.command == other.command && self.plan == other.plan
    }
}

/// Where the events of a step go.
pub enum Sink<'a, R: Ruleset> {
    /// Nowhere: they are applied and dropped (the simulator, rollouts).
    Discard,
    /// Appended to this list (records, logs).
    Keep(&'a mut Vec<R::Event>),
    /// Appended to this list and shown to the observer as they happen (the text layer).
    Observe(&'a mut Vec<R::Event>, &'a mut dyn Observer<R>),
}

impl<R: Ruleset> Sink<'_, R> {
    /// The resolution context that sends events here.
    fn cx<'b>(&'b mut self, state: &'b mut R::State, dice: &'b mut dyn Dice) -> Cx<'b, R> {
        match self {
            Sink::Discard => Cx::discarding(state, dice),
            Sink::Keep(out) => Cx::new(state, dice, out),
            Sink::Observe(out, observer) => Cx::observed(state, dice, out, *observer),
        }
    }
}

/// Why a submitted command was not applied.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The rules refused it; nothing changed.
    #[error("{0}")]
    Rejected(Reject),
    /// The dice source failed or a bug was hit; nothing changed.
    #[error("{0}")]
    Engine(#[from] EngineError),
}

impl From<Reject> for SubmitError {
    fn from(r: Reject) -> Self {
        SubmitError::Rejected(r)
    }
}

/// Authority: a finished game takes nothing, rulings come only from the GM, and every other
/// command only from one of the seats the pending decision names. Gives the pending decision.
pub fn authorize<R: Ruleset>(state: &R::State, seat: Seat, command: &R::Command) -> Result<PendingOf<R>, Reject> {
    let pending = match R::pending(state) {
        Some(p) if R::outcome(state).is_none() => p,
        _ => return Err(Reject::new(Reject::GAME_OVER, "the combat is over")),
    };
    if R::is_ruling(command) {
        if !seat.is_gm() {
            return Err(Reject::new(Reject::GM_ONLY, "only the GM may make rulings"));
        }
        return Ok(pending);
    }
    if pending.seats.contains(seat) {
        Ok(pending)
    } else {
        Err(Reject::new(
            Reject::NOT_YOUR_DECISION,
            format!(
                "the game is waiting for {} to decide ({})",
                pending.seats,
                pending.kind()
            ),
        ))
    }
}

/// A command [`check`] accepted: the decision it answers and the plan the rules gave it,
/// what [`resolve`] takes.
pub struct Accepted<R: Ruleset> {
    /// The decision the command answers.
    pub stage: R::Stage,
    /// The plan the check gave it.
    pub plan: R::Checked,
}

/// Authority, then the rules under the pending decision: the command's plan, or why it is
/// refused. Nothing changes either way.
pub fn check<R: Ruleset>(state: &R::State, seat: Seat, command: &R::Command) -> Result<Accepted<R>, Reject> {
    let pending = authorize::<R>(state, seat, command)?;
    let plan = R::check(state, &pending.stage, seat, command)?;
    Ok(Accepted {
        stage: pending.stage,
        plan,
    })
}

/// Runs the game's automatic start (initiative and the like) up to the first decision.
pub fn start<R: Ruleset>(state: &mut R::State, dice: &mut dyn Dice, sink: &mut Sink<'_, R>) -> Result<(), EngineError> {
    R::start(&mut sink.cx(state, dice))
}

/// Resolves `command` of `seat`, which answers `stage`, with the plan [`check`] gave for it
/// in this state: the only call of [`Ruleset::resolve`]. On an error the state may be
/// half-changed: a caller that goes on (the [`crate::Game`]) restores what it had.
pub fn resolve<R: Ruleset>(
    state: &mut R::State,
    dice: &mut dyn Dice,
    stage: &R::Stage,
    seat: Seat,
    command: &R::Command,
    plan: R::Checked,
    sink: &mut Sink<'_, R>,
) -> Result<(), EngineError> {
    R::resolve(&mut sink.cx(state, dice), stage, seat, command, plan)
}

/// Who plays each seat in [`play`].
pub trait Players<R: Ruleset> {
    /// The policy that answers for `seat`.
    fn policy(&mut self, seat: Seat) -> &mut dyn Policy<R>;
}

/// One policy for every seat.
pub struct Everyone<'a, R: Ruleset>(pub &'a mut dyn Policy<R>);

impl<R: Ruleset> Players<R> for Everyone<'_, R> {
    fn policy(&mut self, _: Seat) -> &mut dyn Policy<R> {
        &mut *self.0
    }
}

/// How [`play`] finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// Nothing is pending: the game is over.
    Over,
    /// The caller's `stop` said so before a decision.
    Stopped,
}

/// The most decisions one combat may take, in [`play`] and in every driver of `fray` (`run`,
/// `play` with AI seats): a fight that has not ended by then cannot progress (say, sides that
/// never meet), and is stopped with [`PlayError::Endless`] instead of running forever. The
/// longest shipped fights take a few thousand.
pub const DECISION_LIMIT: u64 = 200_000;

/// Why [`play`] could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The policy of this seat had no answer.
    #[error("the policy of {0} had no answer")]
    NoAnswer(Seat),
    /// The combat took [`DECISION_LIMIT`] decisions without ending.
    #[error("the combat did not end within {0} decisions")]
    Endless(u64),
    /// The engine failed (dice, or a bug).
    #[error("{0}")]
    Engine(#[from] EngineError),
}

/// Lets `players` answer every decision until the game is over, or until `stop` says so
/// (asked with the state before each decision). Several deciders answer in turn, the lowest
/// seat first, each from its own [`Decision`]; an answer is resolved as its policy handed it
/// over (it was checked when it was made). The policies draw from `rng`, the game from `dice`.
/// A combat that takes more than [`DECISION_LIMIT`] decisions is stopped.
pub fn play<R: Ruleset>(
    state: &mut R::State,
    dice: &mut dyn Dice,
    rng: &mut Prng,
    players: &mut dyn Players<R>,
    mut stop: impl FnMut(&R::State) -> bool,
    sink: &mut Sink<'_, R>,
) -> Result<Played, PlayError> {
    let mut decisions = 0u64;
    while let Some(pending) = R::pending(state) {
        if stop(state) {
            return Ok(Played::Stopped);
        }
        decisions += 1;
        if decisions > DECISION_LIMIT {
            return Err(PlayError::Endless(DECISION_LIMIT));
        }
        let seat = pending.first();
        let stage = pending.stage.clone();
        let decision = Decision::with_pending(state, seat, pending)
            .ok_or_else(|| EngineError::Bug(format!("{seat} is a decider without a decision")))?;
        let answer = players
            .policy(seat)
            .choose(&decision, rng)
            .ok_or(PlayError::NoAnswer(seat))?;
        resolve::<R>(state, dice, &stage, seat, &answer.command, answer.plan, sink)?;
    }
    Ok(Played::Over)
}
