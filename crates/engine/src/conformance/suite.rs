//! The ruleset's side of the shared conformance suite (`crates/rulesets/tests/it/suite`), which
//! plays every ruleset of the registry over every example file in `examples/<id>/`.
//!
//! A ruleset implements [`Conformance`]: its option variants and, where an example needs it, a
//! [`Plan`] with other seed counts. [`ConformanceOf`] turns that into a [`Suite`], a trait
//! object the registry lists, so the suite needs nothing but the registry to cover a new
//! ruleset. Each [`Suite`] method checks one thing of one example (or of the ruleset) and
//! returns a line saying what it covered, or the first failure with its seed.
//!
//! The engine reads no files: the suite's test hands each example over as text, with a
//! function that reads the files the example refers to.

use super::{Config, Report, check_option_variants, check_rejection_codes, edited_records_never_panic};
use super::{HiddenReport, hidden_information, run, run_variants};
use crate::RandomLegal;
use crate::diag::SourceFile;
use crate::text::{Loaded, ReadFile, TextRuleset};
use crate::{Game, Policy, Ruleset, Seat, choose_first};
use fray_dice::Prng;
use std::marker::PhantomData;

/// How much of one example the shared suite plays. The default is what every ruleset's own
/// conformance tests played before the suite was shared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Seeded combats with the built-in AI, every legal command resolved on a copy.
    pub ai_seeds: u64,
    /// Seeded combats with random legal play (capped at 100,000 commands each).
    pub random_seeds: u64,
    /// Random play resolves every legal command on a copy at every n-th decision.
    pub random_resolve_every: usize,
    /// Seeded combats with the built-in AI per option variant.
    pub variant_seeds: u64,
    /// Variant playouts resolve every legal command on a copy at every n-th decision.
    pub variant_resolve_every: usize,
    /// Seeded combats with random legal play per option variant.
    pub variant_random_seeds: u64,
    /// The edited-record check takes the record of at most this many commands of the AI.
    pub record_commands: usize,
    /// How many edited records to try.
    pub record_edits: usize,
    /// Seeded combats of the hidden-information check with the built-in AI (rulesets that
    /// hide anything), and with random legal play.
    pub hidden_seeds: u64,
    /// See [`Plan::hidden_seeds`].
    pub hidden_random_seeds: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            ai_seeds: 1000,
            random_seeds: 40,
            random_resolve_every: 1,
            variant_seeds: 24,
            variant_resolve_every: 1,
            variant_random_seeds: 2,
            record_commands: usize::MAX,
            record_edits: 3000,
            hidden_seeds: 4,
            hidden_random_seeds: 2,
        }
    }
}

impl Plan {
    /// The plan with every seed and edit count divided by `by` (at least 1 each): the quick
    /// loop a developer may run (`FRAY_SUITE_QUICK`), never what CI runs.
    pub fn scaled_down(&self, by: u64) -> Plan {
        let by = by.max(1);
        let cut = |n: u64| (n / by).max(1);
        Plan {
            ai_seeds: cut(self.ai_seeds),
            random_seeds: cut(self.random_seeds),
            variant_seeds: cut(self.variant_seeds),
            variant_random_seeds: cut(self.variant_random_seeds),
            record_edits: (self.record_edits / by as usize).max(1),
            hidden_seeds: cut(self.hidden_seeds),
            hidden_random_seeds: cut(self.hidden_random_seeds),
            ..self.clone()
        }
    }
}

/// One share of an example's playouts, so the suite can spread one example's seeds over
/// several cores: share `index` (from 0) of `of`, each a contiguous run of the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// Which share, from 0.
    pub index: u64,
    /// How many shares the seeds are cut into.
    pub of: u64,
}

impl Share {
    /// The whole: every seed.
    pub const ALL: Share = Share { index: 0, of: 1 };

    /// This share's seeds of `0..n`: the shares together hold each seed once, in order.
    pub fn of_seeds(&self, n: u64) -> std::ops::Range<u64> {
        let of = self.of.max(1);
        let cut = |i: u64| (n as u128 * i as u128 / of as u128) as u64;
        cut(self.index.min(of))..cut((self.index + 1).min(of))
    }
}

/// What a ruleset tells the shared conformance suite beyond its [`TextRuleset`].
pub trait Conformance: TextRuleset {
    /// Named option sets that together give every option a non-default value at least once
    /// (checked by [`check_option_variants`]); each is laid over each example's own options.
    fn option_variants() -> Vec<(&'static str, Self::Options)>;

    /// How much of the example `name` (a file name in `examples/<id>/`) to play.
    fn plan(_name: &str) -> Plan {
        Plan::default()
    }

    /// Whether the shipped examples hide something from some seat: the suite then fails unless
    /// its hidden-information check compared positions a seat cannot tell apart, and asked a
    /// seat's AI again in them.
    const EXAMPLES_HIDE: bool = false;

    /// Whether the suite plays the option variant `variant` on every example: yes, unless a
    /// variant cannot end a fight on its own (the ruleset then plays it in a test of its own).
    fn plays_variant(_variant: &str, _options: &Self::Options) -> bool {
        true
    }

    /// The options random play takes for the option variant `variant`: as given, unless a
    /// variant lets a game run on without end under random play (say so where it is done).
    fn random_play_options(_variant: &str, options: Self::Options) -> Self::Options {
        options
    }
}

/// One example encounter as the suite's test hands it over: its text and a reader of the files
/// it refers to.
pub struct Example<'a> {
    /// The file name in `examples/<id>/`, and its text.
    pub src: SourceFile,
    /// Reads a file the example refers to, by the name it gives.
    pub read: &'a (dyn Fn(&str) -> Result<SourceFile, String> + Sync),
}

/// One ruleset's checks, as a trait object (see [`ConformanceOf`]). Every method returns a
/// line saying what it covered, or what failed.
pub trait Suite: Sync {
    /// The ruleset's id.
    fn id(&self) -> &'static str;
    /// The plan for the example `name`.
    fn plan(&self, name: &str) -> Plan;
    /// The variants change every option, each at least one; the rejection codes are well
    /// formed.
    fn lists(&self) -> Result<String, String>;
    /// Every option by its name in `[options]`, with its default as written in TOML (`None`:
    /// no value by default, which the docs write as "none"); and the defaults read back from
    /// TOML to the same options.
    fn option_defaults(&self) -> Result<Vec<(String, Option<String>)>, String>;
    /// AI and random playouts of the example (see [`run`]): the seeds of the plan that fall in
    /// `share`.
    fn playouts(&self, example: &Example<'_>, plan: &Plan, share: Share) -> Result<String, String>;
    /// AI and random playouts of the example once per option variant (see [`run_variants`]).
    fn variants(&self, example: &Example<'_>, plan: &Plan) -> Result<String, String>;
    /// The record of an AI fight on the example replays, and edited copies of it never panic
    /// (see [`edited_records_never_panic`]).
    fn records(&self, example: &Example<'_>, plan: &Plan) -> Result<String, String>;
    /// Nothing hidden from a seat reaches it, for every seat of the example (see
    /// [`hidden_information`]): what was compared, or `None` if the ruleset hides nothing.
    fn hidden(&self, example: &Example<'_>, plan: &Plan) -> Result<Option<HiddenReport>, String>;
    /// [`Conformance::EXAMPLES_HIDE`].
    fn examples_hide(&self) -> bool;
}

/// The [`Suite`] of a ruleset `R`.
pub struct ConformanceOf<R>(PhantomData<fn() -> R>);

impl<R> ConformanceOf<R> {
    /// The suite of `R`.
    pub const fn new() -> Self {
        ConformanceOf(PhantomData)
    }
}

impl<R> Default for ConformanceOf<R> {
    fn default() -> Self {
        Self::new()
    }
}

fn load<R: TextRuleset>(example: &Example<'_>) -> Result<Loaded<R>, String> {
    let mut read = |name: &str| (example.read)(name);
    let read: &mut ReadFile<'_> = &mut read;
    R::load(&example.src, read).map_err(|d| {
        let lines: Vec<String> = d.iter().map(|x| x.to_string()).collect();
        format!("{} does not load: {}", example.src.name, lines.join("; "))
    })
}

fn random<R: Ruleset>(_: u64) -> Box<dyn Policy<R>> {
    Box::new(RandomLegal::<R>::new())
}

fn covered(report: &Report) -> String {
    format!(
        "{} playouts, {} commands, {} legal checked ({} resolved), {} illegal checked",
        report.playouts, report.commands, report.legal_checked, report.legal_resolved, report.illegal_checked
    )
}

impl<R: Conformance> Suite for ConformanceOf<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn plan(&self, name: &str) -> Plan {
        R::plan(name)
    }

    fn lists(&self) -> Result<String, String> {
        let variants = R::option_variants();
        check_option_variants(&variants)?;
        check_rejection_codes(R::REJECTION_CODES)?;
        Ok(format!(
            "{} option variants, {} rejection codes",
            variants.len(),
            R::REJECTION_CODES.len()
        ))
    }

    fn option_defaults(&self) -> Result<Vec<(String, Option<String>)>, String> {
        let default = R::Options::default();
        // The JSON form names every option; the TOML form leaves out those unset by default.
        let names: Vec<String> = match serde_json::to_value(&default) {
            Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
            other => return Err(format!("the options do not serialise to a table: {other:?}")),
        };
        let table = toml::to_string(&default).map_err(|e| format!("the options do not serialise to TOML: {e}"))?;
        let back: R::Options =
            toml::from_str(&table).map_err(|e| format!("the default options do not read back from TOML: {e}"))?;
        if back != default {
            return Err(format!("the default options read back from TOML differently:\n{table}"));
        }
        Ok(names
            .into_iter()
            .map(|name| {
                let value = table
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("{name} = ")))
                    .map(str::to_string);
                (name, value)
            })
            .collect())
    }

    fn playouts(&self, example: &Example<'_>, plan: &Plan, share: Share) -> Result<String, String> {
        let e = load::<R>(example)?;
        let seeds = share.of_seeds(plan.ai_seeds);
        let config = Config {
            seeds: seeds.clone(),
            ..Config::default()
        };
        let ai = run::<R>(&e.setup, &e.options, &config, |_| R::heuristic()).map_err(|f| format!("heuristic: {f}"))?;
        if ai.playouts as u64 != seeds.end - seeds.start {
            return Err(format!("played {} of the seeds {seeds:?}", ai.playouts));
        }
        // Random legal play explores odd corners; it must stay legal, but it need not finish
        // quickly, so it gets a cap and fewer seeds.
        let config = Config {
            seeds: share.of_seeds(plan.random_seeds),
            max_commands: 100_000,
            resolve_every: plan.random_resolve_every,
            ..Config::default()
        };
        let random = run::<R>(&e.setup, &e.options, &config, random::<R>).map_err(|f| format!("random: {f}"))?;
        Ok(format!("AI: {}; random: {}", covered(&ai), covered(&random)))
    }

    fn variants(&self, example: &Example<'_>, plan: &Plan) -> Result<String, String> {
        let e = load::<R>(example)?;
        let variants: Vec<(&str, R::Options)> = R::option_variants()
            .into_iter()
            .filter(|(n, o)| R::plays_variant(n, o))
            .collect();
        let config = Config {
            seeds: 0..plan.variant_seeds,
            resolve_every: plan.variant_resolve_every,
            ..Config::default()
        };
        let ai = run_variants::<R>(&e.setup, &e.options, &variants, &config, |_| R::heuristic())
            .map_err(|f| format!("heuristic: {f}"))?;
        if ai.playouts as u64 != plan.variant_seeds * variants.len() as u64 {
            return Err(format!("played {} variant playouts", ai.playouts));
        }
        let for_random: Vec<(&str, R::Options)> = variants
            .into_iter()
            .map(|(n, o)| (n, R::random_play_options(n, o)))
            .collect();
        let config = Config {
            seeds: 0..plan.variant_random_seeds,
            max_commands: 100_000,
            resolve_every: plan.random_resolve_every.max(plan.variant_resolve_every),
            ..Config::default()
        };
        let random = run_variants::<R>(&e.setup, &e.options, &for_random, &config, random::<R>)
            .map_err(|f| format!("random: {f}"))?;
        Ok(format!(
            "{} variants; AI: {}; random: {}",
            for_random.len(),
            covered(&ai),
            covered(&random)
        ))
    }

    fn records(&self, example: &Example<'_>, plan: &Plan) -> Result<String, String> {
        let e = load::<R>(example)?;
        let seed = 7;
        let mut game = Game::<R>::new_seeded(e.setup, e.options, seed).map_err(|e| e.to_string())?;
        let (mut ai, mut rng) = (R::heuristic(), Prng::for_stream(seed, 1));
        let mut commands = 0;
        while commands < plan.record_commands {
            let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) else {
                break;
            };
            game.submit(seat, c)
                .map_err(|e| format!("the AI's command was refused: {e:?}"))?;
            commands += 1;
        }
        let json = game.record().to_json();
        let back = crate::Record::<R>::from_json(&json).map_err(|e| format!("the record does not read back: {e}"))?;
        let replayed = Game::<R>::replay(&back).map_err(|e| format!("the record does not replay: {e}"))?;
        if replayed.state() != game.state() {
            return Err("the record replays to another state".into());
        }
        if replayed.record().to_json() != json {
            return Err("the replay records something else".into());
        }
        let tried = edited_records_never_panic::<R>(&json, plan.record_edits)?;
        // Edits are spread over the record's numbers with an even stride, so fewer are tried
        // than asked when the stride does not divide evenly; a third of them is the least any
        // example's record gives (the skeleton's duel: about 1,030 of 3,000).
        if tried * 3 < plan.record_edits {
            return Err(format!("only {tried} edited records tried"));
        }
        Ok(format!(
            "a record of {commands} commands replays; {tried} edited copies did not panic"
        ))
    }

    fn hidden(&self, example: &Example<'_>, plan: &Plan) -> Result<Option<HiddenReport>, String> {
        if !R::HIDDEN_INFORMATION {
            return Ok(None);
        }
        let e = load::<R>(example)?;
        let start = Game::<R>::new_seeded(e.setup.clone(), e.options.clone(), 0).map_err(|e| e.to_string())?;
        let seats: Vec<Seat> = (0..R::seat_names(start.state()).len() as u8).map(Seat).collect();
        let ai = hidden_information::<R>(&e.setup, &e.options, 0..plan.hidden_seeds, &seats, 20_000, |_| {
            R::heuristic()
        })
        .map_err(|f| format!("heuristic: {f}"))?;
        let random = hidden_information::<R>(
            &e.setup,
            &e.options,
            0..plan.hidden_random_seeds,
            &seats,
            100_000,
            random::<R>,
        )
        .map_err(|f| format!("random: {f}"))?;
        let mut total = ai;
        total += &random;
        Ok(Some(total))
    }

    fn examples_hide(&self) -> bool {
        R::EXAMPLES_HIDE
    }
}
