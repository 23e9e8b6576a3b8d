//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the examples:
//! the engine's defaults (1,000 AI fights and forty random ones an example).

use crate::Einfelst;
use crate::options::Options;
use fray_engine::conformance::Conformance;

impl Conformance for Einfelst {
    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }
}
