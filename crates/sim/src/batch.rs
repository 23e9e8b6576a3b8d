//! Seeded parallel batches of combats.
//!
//! Combat `i` of a batch with seed `S` draws its dice from `Prng::for_stream(S, i)` and its
//! policies' choices from another stream of the same pair, so every combat is the same whatever
//! thread plays it, and the merged statistics (integer counts only) are bit-identical for any
//! number of jobs, and a batch split into ranges of combat indices ([`Batch::first`]) plays
//! exactly the combats of the whole batch at those indices. Nothing per combat is kept: each result goes straight into the worker's tally.

use crate::policy::{PolicyKind, make};
use crate::stats::{CombatantTally, Tally};
use fray_dice::{Prng, SeededDice};
use fray_engine::play::{self, PlayError, Played, Players, Sink};
use fray_engine::{EngineError, Policy, Seat, Summarize};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// What went wrong in a batch (never the rules' fault: a bug or an impossible setup).
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The engine failed.
    #[error("combat {combat}: {error}")]
    Engine {
        /// Which combat.
        combat: u64,
        /// The error.
        error: EngineError,
    },
    /// A policy had no answer to a decision (a bug in that policy: its answers come checked).
    #[error("combat {combat}: the {policy} policy chose an illegal command: {reason}")]
    Illegal {
        /// Which combat.
        combat: u64,
        /// Which policy.
        policy: String,
        /// Why it was refused.
        reason: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start {0} worker threads")]
    Threads(usize),
}

/// A batch to run.
pub struct Batch<'a, R: Summarize> {
    /// The encounter.
    pub setup: &'a R::Setup,
    /// The options.
    pub options: &'a R::Options,
    /// Fork every combat from this state instead of starting fresh ("odds from here").
    pub from: Option<&'a R::State>,
    /// The index of the first combat: the batch plays combats `first..first + combats` (0 for
    /// a whole batch; a shard's start otherwise, see [`crate::shard`]).
    pub first: u64,
    /// How many combats.
    pub combats: u64,
    /// The batch seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Combats still running after this many rounds are cut off.
    pub round_cap: u32,
    /// The policy of each seat; seats not listed use `default_policy`.
    pub policies: Vec<(Seat, PolicyKind)>,
    /// The policy of unlisted seats.
    pub default_policy: PolicyKind,
}

struct Worker<R: Summarize> {
    tally: Tally,
    policies: Vec<(Seat, PolicyKind, Box<dyn Policy<R>>)>,
    default: (PolicyKind, Box<dyn Policy<R>>),
    error: Option<SimError>,
}

impl<R: Summarize> Worker<R> {
    fn new(b: &Batch<'_, R>) -> Self {
        Worker {
            tally: Tally::default(),
            policies: b.policies.iter().map(|(s, k)| (*s, *k, make::<R>(*k))).collect(),
            default: (b.default_policy, make::<R>(b.default_policy)),
            error: None,
        }
    }

    fn play(&mut self, b: &Batch<'_, R>, base: &R::State, i: u64) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.play_one(b, base, i) {
            self.error = Some(e);
        }
    }

    /// Plays combat `i` from `base`: the state to fork (`--from`), or the fresh state of the
    /// encounter, which is then started with this combat's dice.
    fn play_one(&mut self, b: &Batch<'_, R>, base: &R::State, i: u64) -> Result<(), SimError> {
        let engine = |error| SimError::Engine { combat: i, error };
        let mut dice = SeededDice::for_stream(b.seed, i);
        let mut rng = Prng::for_stream(b.seed ^ 0x5EED_0FA1, i);
        let mut state = base.clone();
        if b.from.is_none() {
            play::start::<R>(&mut state, &mut dice, &mut Sink::Discard).map_err(engine)?;
        }
        for (_, _, p) in &mut self.policies {
            p.new_combat();
        }
        self.default.1.new_combat();
        let mut seats = SeatPolicies {
            policies: &mut self.policies,
            default: &mut self.default,
        };
        let cap = b.round_cap;
        let played = play::play::<R>(
            &mut state,
            &mut dice,
            &mut rng,
            &mut seats,
            |s| R::round(s) > cap,
            &mut Sink::Discard,
        );
        let cut = match played {
            Ok(p) => p == Played::Stopped,
            // A combat that cannot progress is cut off as one past the round cap is.
            Err(PlayError::Endless(_)) => true,
            Err(PlayError::Engine(e)) => return Err(engine(e)),
            Err(PlayError::NoAnswer(seat)) => {
                return Err(SimError::Illegal {
                    combat: i,
                    policy: seats.kind(seat).to_string(),
                    reason: "no command".into(),
                });
            }
        };
        self.record(&state, cut);
        Ok(())
    }

    fn record(&mut self, state: &R::State, cut: bool) {
        let t = &mut self.tally;
        t.combats += 1;
        let sides = R::sides(state).len();
        if t.wins.len() < sides {
            t.wins.resize(sides, 0);
        }
        if cut {
            t.cutoffs += 1;
        } else {
            match R::outcome(state).and_then(|o| o.winner) {
                Some(w) => t.wins[w as usize] += 1,
                None => t.draws += 1,
            }
        }
        t.rounds.add(R::round(state) as i64);
        for c in R::combatants(state) {
            let ct = match t.combatants.iter_mut().position(|x| x.id == c.id) {
                Some(i) => &mut t.combatants[i],
                None => {
                    t.combatants.push(CombatantTally {
                        id: c.id.clone(),
                        side: c.side,
                        ..Default::default()
                    });
                    t.combatants.last_mut().expect("just pushed")
                }
            };
            ct.incapacitated += c.incapacitated as u64;
            ct.removed += c.removed as u64;
            ct.killed += c.killed as u64;
            for (k, v) in c.resources {
                ct.resources.entry(k.to_string()).or_default().add(v);
            }
        }
    }
}

/// The policy of each seat of a batch, the default for seats not listed.
struct SeatPolicies<'w, R: Summarize> {
    policies: &'w mut [(Seat, PolicyKind, Box<dyn Policy<R>>)],
    default: &'w mut (PolicyKind, Box<dyn Policy<R>>),
}

impl<R: Summarize> SeatPolicies<'_, R> {
    fn kind(&self, seat: Seat) -> PolicyKind {
        self.policies
            .iter()
            .find(|(s, _, _)| *s == seat)
            .map_or(self.default.0, |(_, k, _)| *k)
    }
}

impl<R: Summarize> Players<R> for SeatPolicies<'_, R> {
    fn policy(&mut self, seat: Seat) -> &mut dyn Policy<R> {
        match self.policies.iter_mut().find(|(s, _, _)| *s == seat) {
            Some((_, _, p)) => &mut **p,
            None => &mut *self.default.1,
        }
    }
}

/// Runs a batch. `progress` is called now and then with the number of combats finished.
pub fn run<R: Summarize>(b: &Batch<'_, R>, progress: &(dyn Fn(u64) + Sync)) -> Result<Tally, SimError> {
    let jobs = if b.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        b.jobs
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|_| SimError::Threads(jobs))?;
    // The fresh state is built (and the setup validated) once; each combat starts from a copy.
    let fresh;
    let base: &R::State = match b.from {
        Some(s) => s,
        None => {
            fresh = R::new_state(b.setup, b.options).map_err(|error| SimError::Engine { combat: 0, error })?;
            &fresh
        }
    };
    let done = AtomicU64::new(0);
    let workers: Vec<Worker<R>> = pool.install(|| {
        (b.first..b.first.saturating_add(b.combats))
            .into_par_iter()
            .fold(
                || Worker::<R>::new(b),
                |mut w, i| {
                    w.play(b, base, i);
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n.is_multiple_of(64) || n == b.combats {
                        progress(n);
                    }
                    w
                },
            )
            .collect()
    });
    let mut tally = Tally::default();
    for mut w in workers {
        if let Some(e) = w.error.take() {
            return Err(e);
        }
        tally = tally.merge(w.tally);
    }
    // Combatants in encounter order, whatever order the workers met them in.
    order_like::<R>(&mut tally, base);
    Ok(tally)
}

fn order_like<R: Summarize>(tally: &mut Tally, state: &R::State) {
    let ids: Vec<String> = R::combatants(state).into_iter().map(|c| c.id).collect();
    tally
        .combatants
        .sort_by_key(|c| ids.iter().position(|i| *i == c.id).unwrap_or(usize::MAX));
}
