//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the Ingenuity
//! examples: the engine's defaults, with thirty random fights an example that resolve every
//! legal command on a copy at every 7th decision, and shorter records for the edited-record
//! check.

use crate::Ingenuity;
use crate::options::{EndWhen, Options};
use fray_engine::conformance::{Conformance, Plan};

impl Conformance for Ingenuity {
    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }

    fn plan(_name: &str) -> Plan {
        Plan {
            random_seeds: 30,
            random_resolve_every: 7,
            record_commands: 40,
            record_edits: 2000,
            ..Plan::default()
        }
    }

    /// Under `end-when = "objective-or-gm"` a fight ends only when an objective is met, and
    /// most examples set none: that variant is played on the shrine, with objectives, by the
    /// Ingenuity test `variants_objectives_only_on_shrine`.
    fn plays_variant(_variant: &str, options: &Options) -> bool {
        options.end_when == EndWhen::OneTeamStanding
    }
}
