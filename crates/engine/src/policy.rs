//! Policies: whatever chooses commands for a seat without a person (AIs, tests).
//!
//! A policy decides for one seat from a [`Decision`]: the position as its seat may know it
//! ([`Seen`], from [`Ruleset::seen`]), the legal answers and a rules check, never the whole
//! state (a seat's AI knows what its player would know). It gets its own random generator, separate from the game's dice, so an AI's choices
//! never shift the dice stream of the combat. It hands back an [`Answer`]: a command with the
//! plan the rules check gave it, so what it chooses is resolved without being checked again.

use crate::{Answer, Pending, Reject, Ruleset, Seat};
use fray_dice::Prng;
use std::borrow::Cow;
use std::ops::Deref;

/// One seat's decision, as a policy sees it.
///
/// The state itself is private: a policy reads [`Decision::view`], lists
/// [`Decision::legal`] answers and asks [`Decision::check`] (the rules' answer, as a GM would
/// give at the table). Search policies that simulate play may take the whole state with
/// [`Decision::full_state`] only while nothing is hidden from the seat.
pub struct Decision<'a, R: Ruleset> {
    state: &'a R::State,
    seat: Seat,
    pending: Pending<R::Stage>,
}

impl<'a, R: Ruleset> Decision<'a, R> {
    /// The decision of `seat` in `state`, or `None` when `seat` is not among the deciders
    /// (or the game is over).
    pub fn new(state: &'a R::State, seat: Seat) -> Option<Decision<'a, R>> {
        let pending = R::pending(state)?;
        pending
            .seats
            .contains(seat)
            .then_some(Decision { state, seat, pending })
    }

    /// Like [`Decision::new`] with the pending decision the caller has already asked
    /// `R::pending` for (the simulation loop does, and asking twice costs time).
    pub fn with_pending(state: &'a R::State, seat: Seat, pending: Pending<R::Stage>) -> Option<Decision<'a, R>> {
        pending
            .seats
            .contains(seat)
            .then_some(Decision { state, seat, pending })
    }

    /// The deciding seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The pending decision (its kind and the combatant it is about).
    pub fn pending(&self) -> &Pending<R::Stage> {
        &self.pending
    }

    /// The position as the seat may know it ([`Ruleset::seen`]): what the policy reads.
    pub fn view(&self) -> Seen<'a, R> {
        Seen {
            seat: self.seat,
            state: R::seen(self.state, self.seat).into(),
        }
    }

    /// Appends the seat's legal answers (each with its plan), in the ruleset's order.
    pub fn legal(&self, out: &mut Vec<Answer<R>>) {
        R::legal(self.state, &self.pending.stage, self.seat, out);
    }

    /// Whether the rules accept `command` from this seat now, and the plan they give it.
    pub fn check(&self, command: &R::Command) -> Result<R::Checked, Reject> {
        R::check(self.state, &self.pending.stage, self.seat, command)
    }

    /// `command` as an answer of this seat, when the rules accept it now.
    pub fn answer(&self, command: R::Command) -> Result<Answer<R>, Reject> {
        let plan = R::check(self.state, &self.pending.stage, self.seat, &command)?;
        Ok(Answer { command, plan })
    }

    /// The whole state, for policies that search by simulating play, when nothing is hidden
    /// from the seat ([`Ruleset::hides_from`]); `None` otherwise.
    pub fn full_state(&self) -> Option<&'a R::State> {
        (!R::hides_from(self.state, self.seat)).then_some(self.state)
    }
}

/// The position as one seat may know it: it dereferences to [`Ruleset::seen`], the state
/// with whatever is hidden from the seat standing as a value that does not depend on it, so
/// a policy reading it cannot act on what its seat may not see.
pub struct Seen<'a, R: Ruleset> {
    seat: Seat,
    state: Known<'a, R::State>,
}

/// The state a [`Seen`] reads: the real one, borrowed, or a masked copy on the heap. Two words
/// either way (a `Cow` of the state would be as large as the state, copied at every decision
/// of the simulator's hot path).
enum Known<'a, S> {
    Real(&'a S),
    Masked(Box<S>),
}

impl<'a, S: Clone> From<Cow<'a, S>> for Known<'a, S> {
    fn from(state: Cow<'a, S>) -> Self {
        match state {
            Cow::Borrowed(s) => Known::Real(s),
            Cow::Owned(s) => Known::Masked(Box::new(s)),
        }
    }
}

impl<R: Ruleset> Seen<'_, R> {
    /// The seat whose knowledge this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether something is masked: the state read here is not the real one, so a plan
    /// worked out on it must be checked by the rules ([`Decision::answer`]) before it is used.
    pub fn masked(&self) -> bool {
        matches!(self.state, Known::Masked(_))
    }
}

impl<R: Ruleset> Deref for Seen<'_, R> {
    type Target = R::State;
    fn deref(&self) -> &R::State {
        match &self.state {
            Known::Real(s) => s,
            Known::Masked(s) => s,
        }
    }
}

/// Chooses commands for pending decisions.
pub trait Policy<R: Ruleset>: Send {
    /// An answer to `decision`: one of [`Decision::legal`], or a command passed through
    /// [`Decision::answer`] (or built by the ruleset's own AI from what it already checked).
    fn choose(&mut self, decision: &Decision<'_, R>, rng: &mut Prng) -> Option<Answer<R>>;

    /// A short name for logs and reports.
    fn name(&self) -> &str;

    /// Forget anything remembered from earlier decisions: called before each new combat (and
    /// each rollout of a search), so a policy's choices depend only on the combat it plays and
    /// simulation results stay the same whatever the number of threads.
    fn new_combat(&mut self) {}
}

/// Picks uniformly among the legal commands.
#[derive(Default)]
pub struct RandomLegal<R: Ruleset> {
    buf: Vec<Answer<R>>,
}

impl<R: Ruleset> RandomLegal<R> {
    /// A new random-legal policy.
    pub fn new() -> Self {
        RandomLegal { buf: Vec::new() }
    }
}

impl<R: Ruleset> Policy<R> for RandomLegal<R> {
    fn choose(&mut self, decision: &Decision<'_, R>, rng: &mut Prng) -> Option<Answer<R>> {
        self.buf.clear();
        decision.legal(&mut self.buf);
        if self.buf.is_empty() {
            return None;
        }
        let i = rng.below(self.buf.len() as u32) as usize;
        Some(self.buf.swap_remove(i))
    }

    fn name(&self) -> &str {
        "random"
    }
}

/// Always picks the first legal command (deterministic; handy in tests).
#[derive(Default)]
pub struct FirstLegal<R: Ruleset> {
    buf: Vec<Answer<R>>,
}

impl<R: Ruleset> FirstLegal<R> {
    /// A new first-legal policy.
    pub fn new() -> Self {
        FirstLegal { buf: Vec::new() }
    }
}

impl<R: Ruleset> Policy<R> for FirstLegal<R> {
    fn choose(&mut self, decision: &Decision<'_, R>, _rng: &mut Prng) -> Option<Answer<R>> {
        self.buf.clear();
        decision.legal(&mut self.buf);
        if self.buf.is_empty() {
            None
        } else {
            Some(self.buf.swap_remove(0))
        }
    }

    fn name(&self) -> &str {
        "first"
    }
}

/// Lets `policy` answer the pending decision of `state` for its first decider (the lowest seat
/// when several decide): that seat and the command, or `None` when the game is over or the
/// policy has nothing. For tests that submit the command to a [`crate::Game`] (which checks it
/// again); [`crate::play::play`] resolves answers as they are.
pub fn choose_first<R: Ruleset>(
    policy: &mut (impl Policy<R> + ?Sized),
    state: &R::State,
    rng: &mut Prng,
) -> Option<(Seat, R::Command)> {
    let seat = R::pending(state)?.first();
    let decision = Decision::new(state, seat)?;
    policy.choose(&decision, rng).map(|a| (seat, a.command))
}
