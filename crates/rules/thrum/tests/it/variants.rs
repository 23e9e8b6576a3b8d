//! Thrum's option variants (`Options::variants()`) are played over every example by the shared
//! conformance suite (crates/rulesets/tests/it/suite), random play taking the variant whose
//! Loads do not clamp at 0 with Loads clamped (see `fray_thrum`'s `conformance.rs`: such random
//! fights need not end). Here that variant is played unclamped by random play on seed 0, which
//! ends on every example but the benchmark.

use fray_engine::conformance::{Config, run_variants};
use fray_engine::{Policy, RandomLegal};
use fray_thrum::Thrum;
use fray_thrum::options::Options;

use crate::examples;
use examples::load;

/// THR-H29: with `clamp-at-zero = false` random legal play still ends on seed 0.
#[test]
fn random_play_with_unclamped_loads_ends_on_seed_0() {
    let unclamped: Vec<(&str, Options)> = Options::variants()
        .into_iter()
        .filter(|(n, _)| *n == "fatigue-and-incapacity")
        .collect();
    assert_eq!(unclamped.len(), 1);
    assert!(!unclamped[0].1.clamp_at_zero);
    let config = Config {
        seeds: 0..1,
        max_commands: 100_000,
        resolve_every: 7,
        ..Config::default()
    };
    for name in ["duel.toml", "skirmish.toml", "last-stand.toml", "ruins.toml"] {
        let (setup, options) = load(name);
        run_variants::<Thrum>(&setup, &options, &unclamped, &config, |_| {
            Box::new(RandomLegal::<Thrum>::new()) as Box<dyn Policy<Thrum>>
        })
        .unwrap_or_else(|f| panic!("{name}, random, Loads unclamped: {f}"));
    }
}
