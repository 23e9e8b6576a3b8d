//! The rulesets this build knows, by id. Adding a game means adding one line to the
//! `rulesets!` list below (and the crate to this crate's `Cargo.toml`).

use crate::Fail;
use fray_engine::diag::{Diagnostic, SourceFile};
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

fn by_id(id: &str) -> Option<&'static dyn RulesetEntry> {
    all().iter().copied().find(|e| e.id() == id)
}

fn known() -> String {
    all().iter().map(|e| e.id()).collect::<Vec<_>>().join(", ")
}

/// The ruleset an encounter file names in its `ruleset = "..."` line.
pub fn for_encounter(src: &SourceFile) -> Result<&'static dyn RulesetEntry, Fail> {
    #[derive(serde::Deserialize)]
    struct Peek {
        ruleset: Option<toml::Spanned<String>>,
    }
    let peek: Peek = match toml::from_str(&src.text) {
        Ok(p) => p,
        Err(e) => {
            let d = Diagnostic::at(src, e.span().map_or(0, |s| s.start), e.message().trim());
            return Err(Fail::input(d.to_string()));
        }
    };
    let Some(id) = peek.ruleset else {
        return Err(Fail::input(
            Diagnostic::at(
                src,
                0,
                format!(
                    "expected a line naming the ruleset, such as ruleset = \"thrum\" (known: {})",
                    known()
                ),
            )
            .to_string(),
        ));
    };
    by_id(id.get_ref()).ok_or_else(|| {
        Fail::input(
            Diagnostic::at(
                src,
                id.span().start,
                format!("unknown ruleset '{}' (known: {})", id.get_ref(), known()),
            )
            .to_string(),
        )
    })
}

/// The ruleset a game record names.
pub fn for_record(src: &SourceFile) -> Result<&'static dyn RulesetEntry, Fail> {
    #[derive(serde::Deserialize)]
    struct Peek {
        ruleset: String,
    }
    let peek: Peek = serde_json::from_str(&src.text).map_err(|e| {
        Fail::input(format!(
            "{}:{}:{}: error: not a fray record: {e}",
            src.name,
            e.line(),
            e.column()
        ))
    })?;
    by_id(&peek.ruleset).ok_or_else(|| {
        Fail::input(format!(
            "{}: error: unknown ruleset '{}' (known: {})",
            src.name,
            peek.ruleset,
            known()
        ))
    })
}

/// The simulation entry for an encounter.
pub fn sim_for_encounter(src: &SourceFile) -> Result<&'static dyn SimEntry, Fail> {
    let id = for_encounter(src)?.id();
    sims()
        .iter()
        .copied()
        .find(|e| e.id() == id)
        .ok_or_else(|| Fail::input(format!("{}: error: ruleset '{id}' cannot be simulated yet", src.name)))
}

/// The simulation entry for a record.
pub fn sim_for_record(src: &SourceFile) -> Result<&'static dyn SimEntry, Fail> {
    let id = for_record(src)?.id();
    sims()
        .iter()
        .copied()
        .find(|e| e.id() == id)
        .ok_or_else(|| Fail::input(format!("{}: error: ruleset '{id}' cannot be simulated yet", src.name)))
}
