//! Hallowed Earth's secret declarations (HAL-R11) on the two examples that declare in secret:
//! besides the shared conformance suite's check of every seat of every example
//! (crates/rulesets/tests/it/suite), these insist that something secret was compared.

use fray_engine::conformance::hidden_information;
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Seat};
use fray_hallowed_earth::HallowedEarth;
use fray_testkit::example;

fn random(_: u64) -> Box<dyn Policy<HallowedEarth>> {
    Box::new(RandomLegal::<HallowedEarth>::new())
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
