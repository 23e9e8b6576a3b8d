//! The object-safe face of simulation, so the command-line tool drives every ruleset's
//! simulations through one registry.

use crate::batch::{Batch, SimError, run};
use crate::policy::PolicyKind;
use crate::report::Report;
use crate::shard::{self, Shard, ShardInfo};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{ReadFile, TextRuleset};
use fray_engine::{Game, Record, Summarize};
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimOptions {
    /// Combats.
    pub combats: u64,
    /// Batch seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// Round cap.
    pub round_cap: u32,
    /// Policies by seat name, overriding the encounter's.
    pub policies: Vec<(String, PolicyKind)>,
    /// The policy of every seat the encounter and `policies` leave open.
    pub default_policy: PolicyKind,
    /// Play only this shard of the `combats` (its report then carries a [`ShardInfo`]).
    pub shard: Option<Shard>,
}

/// Why a simulation could not run.
#[derive(Debug, thiserror::Error)]
pub enum SimFail {
    /// The encounter has problems.
    #[error("the encounter has problems")]
    Diagnostics(Vec<Diagnostic>),
    /// The record cannot be used.
    #[error("{0}")]
    Record(String),
    /// A policy name is wrong (in the encounter or on the command line).
    #[error("{0}")]
    Policy(String),
    /// The batch failed.
    #[error("{0}")]
    Sim(#[from] SimError),
}

/// A ruleset's simulation entry.
pub trait SimEntry: Sync {
    /// The ruleset id.
    fn id(&self) -> &'static str;
    /// Simulates an encounter (or, with `from`, forks from the last state of a record given as
    /// JSON).
    fn simulate(
        &self,
        source: &SourceFile,
        read: &mut ReadFile<'_>,
        from: Option<&str>,
        options: &SimOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Report, SimFail>;
}

/// The simulation entry of a ruleset.
pub struct SimOf<R>(PhantomData<fn() -> R>);

impl<R> SimOf<R> {
    /// The entry (zero-sized, usable in a `static`).
    pub const fn new() -> Self {
        SimOf(PhantomData)
    }
}

impl<R> Default for SimOf<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: TextRuleset + Summarize> SimEntry for SimOf<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn simulate(
        &self,
        source: &SourceFile,
        read: &mut ReadFile<'_>,
        from: Option<&str>,
        o: &SimOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Report, SimFail> {
        let (setup, options, forked) = match from {
            None => {
                let l = R::load(source, read).map_err(SimFail::Diagnostics)?;
                (l.setup, l.options, None)
            }
            Some(json) => {
                let record: Record<R> =
                    Record::from_json(json).map_err(|e| SimFail::Record(format!("not a {} record: {e}", R::ID)))?;
                let game = Game::<R>::replay(&record).map_err(|e| SimFail::Record(e.to_string()))?;
                if game.pending().is_none() {
                    return Err(SimFail::Record("the recorded combat is already over".into()));
                }
                (record.setup.clone(), record.options.clone(), Some(game.state().clone()))
            }
        };
        let probe = match &forked {
            Some(s) => s.clone(),
            None => R::new_state(&setup, &options).map_err(|e| SimFail::Record(e.to_string()))?,
        };
        // Seat policies: the command line first, then the encounter, then the default.
        let mut policies = Vec::new();
        let mut names = BTreeMap::new();
        let seats = R::seats(&probe);
        for (name, _) in &o.policies {
            if !seats.iter().any(|s| &s.name == name) {
                let known: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
                return Err(SimFail::Policy(format!(
                    "no seat '{name}' (seats: {})",
                    known.join(", ")
                )));
            }
        }
        for s in &seats {
            let kind = match o.policies.iter().find(|(n, _)| n == &s.name) {
                Some((_, k)) => *k,
                None => match &s.policy {
                    Some(p) => p
                        .parse()
                        .map_err(|e| SimFail::Policy(format!("seat {}: {e}", s.name)))?,
                    None => o.default_policy,
                },
            };
            names.insert(s.name.clone(), kind.to_string());
            policies.push((s.seat, kind));
        }
        let range = o.shard.map_or(0..o.combats, |s| s.range(o.combats));
        let batch = Batch::<R> {
            setup: &setup,
            options: &options,
            from: forked.as_ref(),
            first: range.start,
            combats: range.end - range.start,
            seed: o.seed,
            jobs: o.jobs,
            round_cap: o.round_cap,
            policies,
            default_policy: o.default_policy,
        };
        let tally = run(&batch, progress)?;
        let mut report = Report::new(
            R::title(&probe),
            R::ID.to_string(),
            &R::sides(&probe),
            &tally,
            o.seed,
            o.round_cap,
            names,
        );
        if let Some(s) = o.shard {
            let json = |v: Result<String, serde_json::Error>| v.unwrap_or_default().into_bytes();
            let forked = forked.as_ref().map(|f| json(serde_json::to_string(f)));
            let default = o.default_policy.to_string();
            report.shard = Some(ShardInfo {
                index: s.index,
                of: s.of,
                start: range.start,
                end: range.end,
                total: o.combats,
                input: shard::fingerprint(&[
                    R::ID.as_bytes(),
                    R::VERSION.as_bytes(),
                    &json(serde_json::to_string(&setup)),
                    &json(serde_json::to_string(&options)),
                    forked.as_deref().unwrap_or(b"fresh"),
                    default.as_bytes(),
                ]),
                version: shard::VERSION.to_string(),
            });
        }
        Ok(report)
    }
}
