//! What the shared conformance suite (`crates/rulesets/tests/it/suite`) plays of the Thrum
//! examples: the engine's defaults, with random play resolving every legal command on a copy
//! at every 7th decision and the variants at every 4th (Thrum's legal lists are long: every
//! square a move may end on), and shorter records for the edited-record check.

use crate::Thrum;
use crate::options::Options;
use fray_engine::conformance::{Conformance, Plan};

/// The variant whose Loads do not clamp at 0 (see [`Conformance::random_play_options`]).
const UNCLAMPED: &str = "fatigue-and-incapacity";

impl Conformance for Thrum {
    // The Plinkers of the ruins hide: the suite must find something to compare.
    const EXAMPLES_HIDE: bool = true;

    fn option_variants() -> Vec<(&'static str, Options)> {
        Options::variants()
    }

    fn plan(name: &str) -> Plan {
        let plan = Plan {
            random_resolve_every: 7,
            variant_resolve_every: 4,
            record_commands: 40,
            record_edits: 800,
            ..Plan::default()
        };
        match name {
            "duel.toml" | "last-stand.toml" => Plan {
                random_seeds: 20,
                ..plan
            },
            // The benchmark's eight fighters make every fight long: a tenth of the AI seeds
            // (the simulator's own tests play it many more times), and a shorter record.
            "bench-4v4.toml" => Plan {
                ai_seeds: 100,
                random_seeds: 4,
                variant_seeds: 6,
                record_commands: 30,
                record_edits: 600,
                ..plan
            },
            _ => Plan {
                random_seeds: 10,
                ..plan
            },
        }
    }

    /// Random legal play cannot be expected to end while Loads do not clamp at 0
    /// (`clamp-at-zero = false`, THR-H29): Recover then lowers a Load with no floor, and a
    /// random player takes it far more often than it lands a hit, so the Loads drift below 0
    /// without bound and nobody is Exhausted again. Random play therefore takes that variant
    /// with Loads clamped; the built-in AI plays it unclamped, and the Thrum test
    /// `random_play_with_unclamped_loads_ends_on_seed_0` plays one unclamped random fight per
    /// example.
    fn random_play_options(variant: &str, options: Options) -> Options {
        if variant == UNCLAMPED {
            Options {
                clamp_at_zero: true,
                ..options
            }
        } else {
            options
        }
    }
}
