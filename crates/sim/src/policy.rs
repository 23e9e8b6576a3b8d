//! Policies that play seats in simulations.
//!
//! - `random`: uniform among the legal commands.
//! - `heuristic`: the ruleset's own heuristic (the same AI `fray run` uses).
//! - `search`: a generic one-step lookahead that works for any ruleset through the trait alone:
//!   each candidate command is tried on cloned states and followed by rollouts (played by the
//!   ruleset's heuristic, or randomly) up to a horizon; the command with the best average reward
//!   for the deciding combatant's side wins. Rewards: 1 for a win, 0.5 for a draw, 0 for a loss;
//!   at the horizon, 0.5 plus half the difference between the fractions of enemies and allies
//!   that are down.

use fray_dice::{Prng, SeededDice};
use fray_engine::play::{self, Everyone, Sink};
use fray_engine::{Answer, Decision, Policy, RandomLegal, Summarize};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which policy plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PolicyKind {
    /// Uniform among legal commands.
    Random,
    /// The ruleset's heuristic.
    Heuristic,
    /// Rollout search.
    Search(SearchConfig),
}

/// Settings of the search policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchConfig {
    /// Rollouts per candidate command.
    pub rollouts: u32,
    /// At most this many candidate commands are tried (a random sample of the legal ones).
    pub candidates: u32,
    /// Rollouts stop after this many rounds past the decision.
    pub horizon: u32,
    /// Rollouts are played by the heuristic (true) or randomly (false).
    pub heuristic_rollouts: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            rollouts: 4,
            candidates: 12,
            horizon: 2,
            heuristic_rollouts: true,
        }
    }
}

impl fmt::Display for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyKind::Random => write!(f, "random"),
            PolicyKind::Heuristic => write!(f, "heuristic"),
            PolicyKind::Search(c) => write!(f, "search:{}:{}:{}", c.rollouts, c.candidates, c.horizon),
        }
    }
}

impl FromStr for PolicyKind {
    type Err = String;

    /// `random`, `heuristic`, `search`, or `search:ROLLOUTS[:CANDIDATES[:HORIZON]]`.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut parts = s.split(':');
        match parts.next() {
            Some("random") if parts.clone().next().is_none() => Ok(PolicyKind::Random),
            Some("heuristic") if parts.clone().next().is_none() => Ok(PolicyKind::Heuristic),
            Some("search") => {
                let mut c = SearchConfig::default();
                let mut num = |name: &str, dst: &mut u32| -> Result<(), String> {
                    if let Some(p) = parts.next() {
                        *dst = p
                            .parse()
                            .ok()
                            .filter(|v| *v > 0)
                            .ok_or_else(|| format!("search {name} must be a positive number, found '{p}'"))?;
                    }
                    Ok(())
                };
                num("rollouts", &mut c.rollouts)?;
                num("candidates", &mut c.candidates)?;
                num("horizon", &mut c.horizon)?;
                Ok(PolicyKind::Search(c))
            }
            _ => Err(format!(
                "unknown policy '{s}': expected random, heuristic or search[:ROLLOUTS[:CANDIDATES[:HORIZON]]]"
            )),
        }
    }
}

/// Makes a policy of the given kind.
pub fn make<R: Summarize>(kind: PolicyKind) -> Box<dyn Policy<R>> {
    match kind {
        PolicyKind::Random => Box::new(RandomLegal::<R>::new()),
        PolicyKind::Heuristic => R::heuristic_policy(),
        PolicyKind::Search(c) => Box::new(Search::<R>::new(c)),
    }
}

/// The generic rollout search.
pub struct Search<R: Summarize> {
    config: SearchConfig,
    rollout: Box<dyn Policy<R>>,
    buf: Vec<Answer<R>>,
}

impl<R: Summarize> Search<R> {
    /// A search policy.
    pub fn new(config: SearchConfig) -> Self {
        let rollout: Box<dyn Policy<R>> = if config.heuristic_rollouts {
            R::heuristic_policy()
        } else {
            Box::new(RandomLegal::<R>::new())
        };
        Search {
            config,
            rollout,
            buf: Vec::new(),
        }
    }
}

/// The reward of a state for a side: 1 win, 0 loss, 0.5 draw; unfinished: 0.5 plus half the
/// difference between the fractions of enemies and allies that are down.
pub fn reward<R: Summarize>(state: &R::State, side: Option<u8>) -> f64 {
    let Some(side) = side else { return 0.5 };
    if let Some(o) = R::outcome(state) {
        return match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let (mut mine, mut mine_down, mut theirs, mut theirs_down) = (0u32, 0u32, 0u32, 0u32);
    for c in R::combatants(state) {
        let down = c.incapacitated || c.removed || c.killed;
        if c.side == side {
            mine += 1;
            mine_down += down as u32;
        } else {
            theirs += 1;
            theirs_down += down as u32;
        }
    }
    let frac = |d: u32, n: u32| if n == 0 { 0.0 } else { d as f64 / n as f64 };
    0.5 + 0.5 * (frac(theirs_down, theirs) - frac(mine_down, mine))
}

impl<R: Summarize> Policy<R> for Search<R> {
    fn choose(&mut self, decision: &Decision<'_, R>, rng: &mut Prng) -> Option<Answer<R>> {
        // Searching simulates play from the whole state, so it is only done while nothing is
        // hidden from the seat; otherwise the rollout policy decides from the seat's view.
        let Some(state) = decision.full_state() else {
            return self.rollout.choose(decision, rng);
        };
        let pending = decision.pending().clone();
        let seat = decision.seat();
        self.buf.clear();
        decision.legal(&mut self.buf);
        if self.buf.len() <= 1 {
            return self.buf.pop();
        }
        let side = pending.actor().and_then(|a| R::side_of(state, a));
        // A deterministic sample of the candidates (from the policy's own generator).
        let mut candidates = std::mem::take(&mut self.buf);
        while candidates.len() > self.config.candidates as usize {
            let i = rng.below(candidates.len() as u32) as usize;
            candidates.swap_remove(i);
        }
        let start_round = R::round(state);
        let mut best: Option<(f64, usize)> = None;
        for (i, c) in candidates.iter().enumerate() {
            let mut total = 0.0;
            for _ in 0..self.config.rollouts {
                let mut s = state.clone();
                let mut dice = SeededDice::from_prng(Prng::from_seed(rng.next_u64()));
                let mut prng = Prng::from_seed(rng.next_u64());
                self.rollout.new_combat();
                let (command, plan) = (&c.command, c.plan.clone());
                if play::resolve::<R>(
                    &mut s,
                    &mut dice,
                    &pending.stage,
                    seat,
                    command,
                    plan,
                    &mut Sink::Discard,
                )
                .is_err()
                {
                    continue;
                }
                let mut steps = 0u32;
                let stop = |s: &R::State| {
                    if R::round(s) >= start_round + self.config.horizon || steps >= 10_000 {
                        return true;
                    }
                    steps += 1;
                    false
                };
                // A rollout that cannot go on (no answer, a failed step) is scored where it stands.
                let _ = play::play::<R>(
                    &mut s,
                    &mut dice,
                    &mut prng,
                    &mut Everyone(&mut *self.rollout),
                    stop,
                    &mut Sink::Discard,
                );
                total += reward::<R>(&s, side);
            }
            let avg = total / self.config.rollouts.max(1) as f64;
            if best.is_none_or(|(b, _)| avg > b + 1e-12) {
                best = Some((avg, i));
            }
        }
        let pick = best.map_or(0, |(_, i)| i);
        Some(candidates.swap_remove(pick))
    }

    fn name(&self) -> &str {
        "search"
    }

    fn new_combat(&mut self) {
        self.rollout.new_combat();
    }
}
