//! Policies: whatever chooses commands for a seat without a person (AIs, tests).
//!
//! A policy sees the full state and returns one command for the pending decision. It gets its
//! own random generator, separate from the game's dice, so an AI's choices never shift the
//! dice stream of the combat.

use crate::Ruleset;
use fray_dice::Prng;

/// Chooses commands for pending decisions.
pub trait Policy<R: Ruleset>: Send {
    /// A command for the decision `R::pending(state)`. It should be legal; the caller checks it.
    fn choose(&mut self, state: &R::State, rng: &mut Prng) -> Option<R::Command>;

    /// A short name for logs and reports.
    fn name(&self) -> &str;

    /// Forget anything remembered from earlier decisions: called before each new combat (and
    /// each rollout of a search), so a policy's choices depend only on the combat it plays and
    /// simulation results stay the same whatever the number of threads.
    fn new_combat(&mut self) {}

    /// Whether every command this policy returns has already passed `R::check` on the state
    /// it was chosen for. Simulations then skip checking it a second time (the check of a move
    /// is a path search); policies that may return unchecked commands keep the default, false.
    fn checks_own_commands(&self) -> bool {
        false
    }
}

/// Picks uniformly among the legal commands.
#[derive(Default)]
pub struct RandomLegal<R: Ruleset> {
    buf: Vec<R::Command>,
}

impl<R: Ruleset> RandomLegal<R> {
    /// A new random-legal policy.
    pub fn new() -> Self {
        RandomLegal { buf: Vec::new() }
    }
}

impl<R: Ruleset> Policy<R> for RandomLegal<R> {
    fn choose(&mut self, state: &R::State, rng: &mut Prng) -> Option<R::Command> {
        self.buf.clear();
        R::legal_commands(state, &mut self.buf);
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
    buf: Vec<R::Command>,
}

impl<R: Ruleset> FirstLegal<R> {
    /// A new first-legal policy.
    pub fn new() -> Self {
        FirstLegal { buf: Vec::new() }
    }
}

impl<R: Ruleset> Policy<R> for FirstLegal<R> {
    fn choose(&mut self, state: &R::State, _rng: &mut Prng) -> Option<R::Command> {
        self.buf.clear();
        R::legal_commands(state, &mut self.buf);
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
