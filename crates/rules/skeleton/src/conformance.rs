//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the examples:
//! the engine's defaults, with a hundred random fights an example.

use crate::Skeleton;
use crate::options::Options;
use fray_engine::conformance::{Conformance, Plan};

impl Conformance for Skeleton {
    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }

    fn plan(_name: &str) -> Plan {
        Plan {
            random_seeds: 100,
            ..Plan::default()
        }
    }
}
