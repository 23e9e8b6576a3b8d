//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the examples:
//! the engine's defaults, with a hundred random fights an example.

use crate::Murdham;
use crate::options::Options;
use fray_engine::conformance::{Conformance, Plan};

impl Conformance for Murdham {
    // The outlaws of the mill ambush conceal themselves: the suite must find something to
    // compare.
    const EXAMPLES_HIDE: bool = true;

    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }

    fn plan(_name: &str) -> Plan {
        Plan {
            random_seeds: 100,
            hidden_seeds: 8,
            ..Plan::default()
        }
    }
}
