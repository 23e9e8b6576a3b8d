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

/// The variant whose Loads do not clamp at 0 (see `suite`).
const UNCLAMPED: &str = "fatigue-and-incapacity";

fn suite(name: &str) {
    let (setup, options) = load(name);
    let variants = Options::variants();
    // Every legal command is resolved on a copy at every 4th decision (the examples' own
    // settings resolve them all in `conformance.rs`), to keep these runs short.
    let config = Config {
        seeds: 0..24,
        resolve_every: 4,
        ..Config::default()
    };
    let report = run_variants::<Thrum>(&setup, &options, &variants, &config, |_| Thrum::heuristic())
        .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
    assert_eq!(report.playouts, 24 * variants.len());
    // Random legal play cannot be expected to end while Loads do not clamp at 0
    // (`clamp-at-zero = false`, in `fatigue-and-incapacity`; THR-H29): Recover then lowers a Load
    // by 1 with no floor, and a random player takes it (in several legal forms, every turn it
    // likes) far more often than it lands a hit, which needs the foe in range; so the Loads drift
    // below 0 without bound and nobody is Exhausted (THR-R164), let alone Incapacitated, again
    // (duel and last-stand seed 1 and ruins seeds 2 to 4 ran past 100,000 commands, Loads in
    // the minus hundreds). Random play therefore takes that variant with Loads clamped on both
    // seeds, and unclamped only on seed 0, which ends on every example. The heuristic plays it
    // unclamped on all its seeds above: it Recovers only when Exhausted or Frayed.
    let clamped: Vec<(&str, Options)> = variants
        .iter()
        .map(|(n, o)| {
            let o = if *n == UNCLAMPED {
                Options {
                    clamp_at_zero: true,
                    ..o.clone()
                }
            } else {
                o.clone()
            };
            (*n, o)
        })
        .collect();
    let random = || Box::new(RandomLegal::<Thrum>::new()) as Box<dyn Policy<Thrum>>;
    let config = Config {
        seeds: 0..2,
        max_commands: 100_000,
        resolve_every: 7,
        ..Config::default()
    };
    run_variants::<Thrum>(&setup, &options, &clamped, &config, |_| random())
        .unwrap_or_else(|f| panic!("{name}, random: {f}"));
    let unclamped: Vec<(&str, Options)> = variants.into_iter().filter(|(n, _)| *n == UNCLAMPED).collect();
    assert!(!unclamped[0].1.clamp_at_zero);
    let config = Config { seeds: 0..1, ..config };
    run_variants::<Thrum>(&setup, &options, &unclamped, &config, |_| random())
        .unwrap_or_else(|f| panic!("{name}, random, Loads unclamped: {f}"));
}

#[test]
fn variants_duel() {
    suite("duel.toml");
}

#[test]
fn variants_skirmish() {
    suite("skirmish.toml");
}

#[test]
fn variants_last_stand() {
    suite("last-stand.toml");
}

#[test]
fn variants_ruins() {
    suite("ruins.toml");
}
