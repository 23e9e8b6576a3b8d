//! The engine's conformance suite over every shipped Thrum example: 1,000 seeded combats each
//! with the built-in AI (every playout ends, every listed command is accepted, unlisted ones
//! are refused without a trace, records replay identically, state survives JSON), plus random
//! legal play on a sample of seeds.

use fray_engine::conformance::{Config, hidden_information, run};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Seat};
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

/// Nothing hidden from a seat reaches its view, map, tracker or log (fray's reading of Hidden,
/// THR-R219: a foe's seat is not shown where a Hidden combatant stands, nor its steps). The
/// Plinkers of the ruins slip away into hiding; the check compares every seat's screen and log
/// with the Plinker standing elsewhere, and after moves it is shown alike.
#[test]
fn thr_r219_hidden_squares_reach_no_other_seat() {
    let (setup, options) = load("ruins.toml");
    let seats: Vec<Seat> = (0..setup.seats.len() as u8).map(Seat).collect();
    let report = hidden_information::<Thrum>(&setup, &options, 0..12, &seats, 20_000, |_| Thrum::heuristic())
        .unwrap_or_else(|f| panic!("ruins: {f}"));
    assert!(
        report.variants_compared > 0 && report.commands_compared > 0,
        "no Plinker hid, so nothing was checked: {report:?}"
    );
}
