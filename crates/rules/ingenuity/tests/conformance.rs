//! The engine's conformance suite over every shipped Ingenuity example: 1,000 seeded combats each
//! with the built-in AI (every playout ends, every listed command is accepted, unlisted ones
//! are refused without a trace, records replay identically, state survives JSON), plus random
//! legal play on a sample of seeds.

use fray_engine::conformance::{Config, hidden_information, run};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Seat};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::data::Cond;

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

/// Nothing hidden from a seat reaches its view, map, tracker or log: a `hidden` character's
/// square and steps are not shown to other seats. The ambush's bandits start hidden; the check
/// compares every seat's screen and log with them standing elsewhere, and after
/// moves they are shown alike.
#[test]
fn hidden_squares_reach_no_other_seat() {
    let (mut setup, options) = load("ambush.toml");
    // The GM's characters start hidden: the players' seat may not see where they are.
    for c in setup.chars.iter_mut().filter(|c| c.seat == Seat::GM) {
        c.start.conditions |= Cond::Hidden.bit();
    }
    let seats: Vec<Seat> = (0..setup.seats.len() as u8).map(Seat).collect();
    let ai = hidden_information::<Ingenuity>(&setup, &options, 0..8, &seats, 20_000, |_| Ingenuity::heuristic())
        .unwrap_or_else(|f| panic!("ambush, heuristic: {f}"));
    // The built-in AI's hidden characters strike from hiding rather than walk; random play
    // moves them, so the comparison of moves shown alike gets exercised.
    let random = hidden_information::<Ingenuity>(&setup, &options, 0..4, &seats, 100_000, |_| {
        Box::new(RandomLegal::<Ingenuity>::new()) as Box<dyn Policy<Ingenuity>>
    })
    .unwrap_or_else(|f| panic!("ambush, random: {f}"));
    assert!(
        ai.variants_compared + random.variants_compared > 0 && random.commands_compared > 0,
        "nothing hidden was checked: {ai:?} {random:?}"
    );
}
