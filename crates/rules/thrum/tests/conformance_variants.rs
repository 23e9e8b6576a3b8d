//! The engine's conformance suite over every shipped Thrum example once per option variant
//! (`Options::variants()`: every option at a non-default value in at least one variant), so a
//! reading of the rules that no example uses is still played through: a few dozen seeded combats
//! with the built-in AI and a couple with random legal play per variant and example. The
//! examples' own settings get 1,000 combats each in `conformance.rs`.

use fray_engine::conformance::{Config, check_option_variants, run_variants};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_thrum::Thrum;
use fray_thrum::options::Options;

mod examples;
use examples::load;

#[test]
fn every_option_is_changed_by_some_variant() {
    check_option_variants(&Options::variants()).unwrap();
}

fn suite(name: &str) {
    let (setup, options) = load(name);
    let variants = Options::variants();
    let config = Config {
        seeds: 0..24,
        ..Config::default()
    };
    let report = run_variants::<Thrum>(&setup, &options, &variants, &config, |_| Thrum::heuristic())
        .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
    assert_eq!(report.playouts, 24 * variants.len());
    let config = Config {
        seeds: 0..2,
        max_commands: 100_000,
        resolve_every: 7,
        ..Config::default()
    };
    run_variants::<Thrum>(&setup, &options, &variants, &config, |_| {
        Box::new(RandomLegal::<Thrum>::new()) as Box<dyn Policy<Thrum>>
    })
    .unwrap_or_else(|f| panic!("{name}, random: {f}"));
}

// Ignored until the bugs they found are fixed (found when these tests were added; each line is
// the first failure of its example, so later variants on it are untested so far):
// - skirmish, variant `order`, random legal play, seed 0 after 946 commands: no legal command
//   for the pending `turn` decision of combatant 6 (a stuck game; `allow-no-action = false` is
//   the likely cause: a character with no usable Action has nothing legal to do).
// - last-stand seed 1 and ruins seed 13, variant `order`, the heuristic: the combat does not
//   end within 20,000 commands.
// - duel, variant `fatigue-and-incapacity`, random legal play, seed 1: no end within 100,000
//   commands (may be random play that never finishes rather than a bug; not yet examined).
// Run them with `cargo test -p fray-thrum --test conformance_variants -- --ignored`.

#[test]
#[ignore = "finds bugs listed above"]
fn variants_duel() {
    suite("duel.toml");
}

#[test]
#[ignore = "finds bugs listed above"]
fn variants_skirmish() {
    suite("skirmish.toml");
}

#[test]
#[ignore = "finds bugs listed above"]
fn variants_last_stand() {
    suite("last-stand.toml");
}

#[test]
#[ignore = "finds bugs listed above"]
fn variants_ruins() {
    suite("ruins.toml");
}
