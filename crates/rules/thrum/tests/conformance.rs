//! The engine's conformance suite over every shipped Thrum example: 1,000 seeded combats each
//! with the built-in AI (every playout ends, every listed command is accepted, unlisted ones
//! are refused without a trace, records replay identically, state survives JSON), plus random
//! legal play on a sample of seeds.

use fray_engine::conformance::{Config, run};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_thrum::Thrum;

mod examples;
use examples::load;

fn suite(name: &str, seeds: u64, random_seeds: u64) {
    let (setup, options) = load(name);
    let config = Config {
        seeds: 0..seeds,
        ..Config::default()
    };
    let report = run::<Thrum>(&setup, &options, &config, |_| Thrum::heuristic())
        .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
    assert_eq!(report.playouts as u64, seeds);
    // Random legal play explores odd corners; it must stay legal, but it need not finish
    // quickly, so it gets a cap and fewer seeds.
    let config = Config {
        seeds: 0..random_seeds,
        max_commands: 100_000,
        resolve_every: 7,
        ..Config::default()
    };
    run::<Thrum>(&setup, &options, &config, |_| {
        Box::new(RandomLegal::<Thrum>::new()) as Box<dyn Policy<Thrum>>
    })
    .unwrap_or_else(|f| panic!("{name}, random: {f}"));
}

#[test]
fn conformance_duel() {
    suite("duel.toml", 1000, 20);
}

#[test]
fn conformance_skirmish() {
    suite("skirmish.toml", 1000, 10);
}

#[test]
fn conformance_last_stand() {
    suite("last-stand.toml", 1000, 20);
}

#[test]
fn conformance_ruins() {
    suite("ruins.toml", 1000, 10);
}
