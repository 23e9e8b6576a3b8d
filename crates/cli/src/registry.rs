//! The rulesets this build knows, by id. Adding a game means adding one line here.

use crate::Fail;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{Entry, RulesetEntry};
use fray_sim::{SimEntry, SimOf};

static THRUM: Entry<fray_thrum::Thrum> = Entry::new();
static THRUM_SIM: SimOf<fray_thrum::Thrum> = SimOf::new();
static INGENUITY: Entry<fray_ingenuity::Ingenuity> = Entry::new();
static INGENUITY_SIM: SimOf<fray_ingenuity::Ingenuity> = SimOf::new();

/// Every ruleset's simulation entry.
pub fn sims() -> [&'static dyn SimEntry; 2] {
    [&THRUM_SIM, &INGENUITY_SIM]
}

/// Every ruleset, by id.
pub fn all() -> [&'static dyn RulesetEntry; 2] {
    [&THRUM, &INGENUITY]
}

fn by_id(id: &str) -> Option<&'static dyn RulesetEntry> {
    all().into_iter().find(|e| e.id() == id)
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
        .into_iter()
        .find(|e| e.id() == id)
        .ok_or_else(|| Fail::input(format!("{}: error: ruleset '{id}' cannot be simulated yet", src.name)))
}

/// The simulation entry for a record.
pub fn sim_for_record(src: &SourceFile) -> Result<&'static dyn SimEntry, Fail> {
    let id = for_record(src)?.id();
    sims()
        .into_iter()
        .find(|e| e.id() == id)
        .ok_or_else(|| Fail::input(format!("{}: error: ruleset '{id}' cannot be simulated yet", src.name)))
}
