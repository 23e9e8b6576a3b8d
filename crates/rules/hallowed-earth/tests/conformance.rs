//! The engine's conformance suite over every hallowed-earth example: 1,000 seeded combats with the
//! built-in AI and a hundred with random legal play (every playout ends, every listed command
//! is accepted, unlisted ones are refused without a trace, records replay, state survives
//! JSON), and the same once per option variant.

use fray_engine::conformance::{Config, check_option_variants, hidden_information, run, run_variants};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Seat};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::options::Options;
use fray_testkit::example;

const EXAMPLES: &[&str] = &["roadside.toml", "crypt.toml", "duel.toml", "ferry.toml"];

fn random(_: u64) -> Box<dyn Policy<HallowedEarth>> {
    Box::new(RandomLegal::<HallowedEarth>::new())
}

#[test]
fn conformance_of_every_example() {
    for name in EXAMPLES {
        let e = example::<HallowedEarth>(name);
        let report = run::<HallowedEarth>(&e.setup, &e.options, &Config::default(), |_| HallowedEarth::heuristic())
            .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
        assert_eq!(report.playouts, 1000);
        // Random play wanders (random moves, rare attacks): fewer seeds, each capped.
        let config = Config {
            seeds: 0..40,
            max_commands: 100_000,
            ..Config::default()
        };
        run::<HallowedEarth>(&e.setup, &e.options, &config, random).unwrap_or_else(|f| panic!("{name}, random: {f}"));
    }
}

#[test]
fn every_option_is_changed_by_some_variant() {
    check_option_variants(&Options::variants()).unwrap();
}

#[test]
fn conformance_of_every_option_variant() {
    let variants = Options::variants();
    for name in EXAMPLES {
        let e = example::<HallowedEarth>(name);
        let config = Config {
            seeds: 0..24,
            ..Config::default()
        };
        let report =
            run_variants::<HallowedEarth>(&e.setup, &e.options, &variants, &config, |_| HallowedEarth::heuristic())
                .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
        assert_eq!(report.playouts, 24 * variants.len());
        let config = Config {
            seeds: 0..2,
            max_commands: 100_000,
            ..Config::default()
        };
        run_variants::<HallowedEarth>(&e.setup, &e.options, &variants, &config, random)
            .unwrap_or_else(|f| panic!("{name}, random: {f}"));
    }
}

#[test]
fn secret_declarations_leak_into_no_other_seats_view_log_or_commands() {
    // The roadside ambush (a seat per side) and the ferry landing (a seat per pilgrim, so the
    // pilgrims' declarations are secret from each other too).
    for name in ["roadside.toml", "ferry.toml"] {
        secret_declarations_leak_nowhere(name);
    }
}

fn secret_declarations_leak_nowhere(name: &str) {
    let e = example::<HallowedEarth>(name);
    let seats: Vec<Seat> = (0..e.setup.seats.len() as u8).map(Seat).collect();
    // HAL-R11: both examples declare in secret.
    assert_eq!(e.options.declaration, fray_hallowed_earth::options::Declaration::Secret);
    let ai = hidden_information::<HallowedEarth>(&e.setup, &e.options, 0..6, &seats, 20_000, |_| {
        HallowedEarth::heuristic()
    })
    .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
    let random = hidden_information::<HallowedEarth>(&e.setup, &e.options, 0..3, &seats, 50_000, random)
        .unwrap_or_else(|f| panic!("{name}, random: {f}"));
    assert!(
        ai.variants_compared > 0 && random.variants_compared > 0 && random.commands_compared > 0,
        "{name}: nothing hidden was checked: {ai:?} {random:?}"
    );
}
