//! The rulesets this build knows come from the `fray-rulesets` crate; this module only turns
//! its "not found" into the command's bad-input failure (exit 2).

use crate::Fail;
use fray_engine::diag::SourceFile;
use fray_engine::text::RulesetEntry;
use fray_rulesets::NotFound;
use fray_sim::SimEntry;

pub use fray_rulesets::{all, by_id, ids};

fn fail(e: NotFound) -> Fail {
    Fail::input(e.0)
}

/// The ruleset an encounter file names in its `ruleset = "..."` line.
pub fn for_encounter(src: &SourceFile) -> Result<&'static dyn RulesetEntry, Fail> {
    fray_rulesets::for_encounter(src).map_err(fail)
}

/// The ruleset a game record names.
pub fn for_record(src: &SourceFile) -> Result<&'static dyn RulesetEntry, Fail> {
    fray_rulesets::for_record(src).map_err(fail)
}

/// The simulation entry for an encounter.
pub fn sim_for_encounter(src: &SourceFile) -> Result<&'static dyn SimEntry, Fail> {
    fray_rulesets::sim_for_encounter(src).map_err(fail)
}

/// The simulation entry for a record.
pub fn sim_for_record(src: &SourceFile) -> Result<&'static dyn SimEntry, Fail> {
    fray_rulesets::sim_for_record(src).map_err(fail)
}
