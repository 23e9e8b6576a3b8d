//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the examples:
//! the engine's defaults, with three random fights an example for the hidden-information check.

use crate::HallowedEarth;
use crate::options::Options;
use fray_engine::conformance::{Conformance, Plan};

impl Conformance for HallowedEarth {
    // The roadside ambush and the ferry landing declare in secret: the suite must find
    // something to compare.
    const EXAMPLES_HIDE: bool = true;

    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }

    fn plan(_name: &str) -> Plan {
        Plan {
            hidden_random_seeds: 3,
            ..Plan::default()
        }
    }
}
