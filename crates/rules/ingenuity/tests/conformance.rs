//! The engine's conformance suite over every shipped Ingenuity example: 1,000 seeded combats each
//! with the built-in AI (every playout ends, every listed command is accepted, unlisted ones
//! are refused without a trace, records replay identically, state survives JSON), plus random
//! legal play on a sample of seeds.

use fray_engine::conformance::{Config, run};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_ingenuity::Ingenuity;

mod examples;
use examples::load;

fn suite(name: &str, seeds: u64, random_seeds: u64) {
    let (setup, options) = load(name);
    let config = Config {
        seeds: 0..seeds,
        ..Config::default()
    };
    let report = run::<Ingenuity>(&setup, &options, &config, |_| Ingenuity::heuristic())
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
    run::<Ingenuity>(&setup, &options, &config, |_| {
        Box::new(RandomLegal::<Ingenuity>::new()) as Box<dyn Policy<Ingenuity>>
    })
    .unwrap_or_else(|f| panic!("{name}, random: {f}"));
}

#[test]
fn conformance_ambush() {
    suite("ambush.toml", 1000, 30);
}

#[test]
fn conformance_night_raid() {
    suite("night-raid.toml", 1000, 30);
}

#[test]
fn conformance_shrine() {
    suite("shrine.toml", 1000, 30);
}
