//! The rulesets this build knows, by id: the one list every front end (the `fray` command, a
//! server, the test suites) opens a ruleset from. Adding a game means adding one line to the
//! `rulesets!` list below and the crate to this crate's `Cargo.toml`; the shared conformance
//! suite (`tests/it/suite`) then plays it over its examples.
//!
//! A ruleset is found by its id ([`by_id`]), by the `ruleset = "..."` line of an encounter
//! file ([`for_encounter`]) or by the `ruleset` field of a game record ([`for_record`]); each
//! gives its text entry ([`RulesetEntry`]: load, play, replay, show) and, through
//! [`sim_for_encounter`] and [`sim_for_record`], its simulation entry ([`SimEntry`]).

use fray_engine::diag::{Diagnostic, SourceFile, suggestion};
use fray_engine::text::{Entry, RulesetEntry};
use fray_sim::{SimEntry, SimOf};

/// Builds [`all`] and [`sims`] from one list of ruleset types (each a `TextRuleset` and a
/// `Summarize`; its id is its `Ruleset::ID`).
macro_rules! rulesets {
    ($($ruleset:ty),+ $(,)?) => {
        /// Every ruleset, in the order listed.
        pub fn all() -> &'static [&'static dyn RulesetEntry] {
            static ALL: &[&dyn RulesetEntry] = &[$(&Entry::<$ruleset>::new()),+];
            ALL
        }

        /// Every ruleset's side of the shared conformance suite, in the same order (only with
        /// the `conformance` feature, which the registry's own tests turn on: the suite's code
        /// is not built into the `fray` command).
        #[cfg(feature = "conformance")]
        pub fn conformance() -> &'static [&'static dyn fray_engine::conformance::Suite] {
            static SUITES: &[&dyn fray_engine::conformance::Suite] =
                &[$(&fray_engine::conformance::ConformanceOf::<$ruleset>::new()),+];
            SUITES
        }

        /// Every ruleset's simulation entry, in the same order.
        pub fn sims() -> &'static [&'static dyn SimEntry] {
            static SIMS: &[&dyn SimEntry] = &[$(&SimOf::<$ruleset>::new()),+];
            SIMS
        }
    };
}

rulesets! {
    fray_thrum::Thrum,
    fray_ingenuity::Ingenuity,
    fray_skeleton::Skeleton,
    fray_einfelst::Einfelst,
    fray_murdham::Murdham,
    fray_hallowed_earth::HallowedEarth,
}

/// Why no ruleset could be found for a file: the message says where and why, ready to print.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotFound(pub String);

/// The ruleset with this id.
pub fn by_id(id: &str) -> Option<&'static dyn RulesetEntry> {
    all().iter().copied().find(|e| e.id() == id)
}

/// The ids of every ruleset, in the order listed.
pub fn ids() -> impl Iterator<Item = &'static str> {
    all().iter().map(|e| e.id())
}

fn known() -> String {
    ids().collect::<Vec<_>>().join(", ")
}

/// The ruleset an encounter file names in its `ruleset = "..."` line.
pub fn for_encounter(src: &SourceFile) -> Result<&'static dyn RulesetEntry, NotFound> {
    #[derive(serde::Deserialize)]
    struct Peek {
        ruleset: Option<toml::Spanned<String>>,
    }
    let peek: Peek = match toml::from_str(&src.text) {
        Ok(p) => p,
        Err(e) => {
            let d = Diagnostic::at(src, e.span().map_or(0, |s| s.start), e.message().trim());
            return Err(NotFound(d.to_string()));
        }
    };
    let Some(id) = peek.ruleset else {
        let why = format!(
            "expected a line naming the ruleset, such as ruleset = \"thrum\" (known: {})",
            known()
        );
        return Err(NotFound(Diagnostic::at(src, 0, why).to_string()));
    };
    by_id(id.get_ref()).ok_or_else(|| {
        let why = format!(
            "unknown ruleset '{}'{} (known: {})",
            id.get_ref(),
            suggestion(id.get_ref(), ids()),
            known()
        );
        NotFound(Diagnostic::at(src, id.span().start, why).to_string())
    })
}

/// The ruleset a game record names.
pub fn for_record(src: &SourceFile) -> Result<&'static dyn RulesetEntry, NotFound> {
    #[derive(serde::Deserialize)]
    struct Peek {
        ruleset: String,
    }
    let peek: Peek = serde_json::from_str(&src.text).map_err(|e| {
        NotFound(format!(
            "{}:{}:{}: error: not a fray record: {e}",
            src.name,
            e.line(),
            e.column()
        ))
    })?;
    by_id(&peek.ruleset).ok_or_else(|| {
        NotFound(format!(
            "{}: error: unknown ruleset '{}' (known: {})",
            src.name,
            peek.ruleset,
            known()
        ))
    })
}

fn sim_of(src: &SourceFile, id: &str) -> Result<&'static dyn SimEntry, NotFound> {
    sims()
        .iter()
        .copied()
        .find(|e| e.id() == id)
        .ok_or_else(|| NotFound(format!("{}: error: ruleset '{id}' cannot be simulated yet", src.name)))
}

/// The simulation entry for an encounter.
pub fn sim_for_encounter(src: &SourceFile) -> Result<&'static dyn SimEntry, NotFound> {
    sim_of(src, for_encounter(src)?.id())
}

/// The simulation entry for a record.
pub fn sim_for_record(src: &SourceFile) -> Result<&'static dyn SimEntry, NotFound> {
    sim_of(src, for_record(src)?.id())
}
