//! The engine's conformance suite over every einfelst example: 1,000 seeded combats with the
//! built-in AI and forty with random legal play (every playout ends, every listed command is
//! accepted, unlisted ones are refused without a trace, records replay, state survives JSON),
//! and the same once per option variant. Nothing is hidden in Einfelst Wilds (initiative cards
//! are open, EIN-R45), so there is no hidden-information check.

use fray_einfelst::Einfelst;
use fray_einfelst::options::Options;
use fray_engine::conformance::{Config, check_option_variants, run, run_variants};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Ruleset};
use fray_testkit::{example, example_path};

/// Every file in `examples/einfelst/`, so a new example is checked without editing this list.
fn examples() -> Vec<String> {
    let dir = example_path::<Einfelst>("");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    names
}

// Nothing to hide, so no hidden-information check: this stops compiling if that changes.
const _: () = assert!(!Einfelst::HIDDEN_INFORMATION, "add the hidden-information check");

fn random(_: u64) -> Box<dyn Policy<Einfelst>> {
    Box::new(RandomLegal::<Einfelst>::new())
}

#[test]
fn the_examples_are_found() {
    let names = examples();
    for name in ["barrow.toml", "ford.toml", "mill.toml", "tollwood.toml"] {
        assert!(names.iter().any(|n| n == name), "{name} not in {names:?}");
    }
}

#[test]
fn conformance_of_every_example() {
    for name in examples() {
        let e = example::<Einfelst>(&name);
        let report = run::<Einfelst>(&e.setup, &e.options, &Config::default(), |_| Einfelst::heuristic())
            .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
        assert_eq!(report.playouts, 1000);
        // Random play wanders (random moves, card trades, rare attacks): fewer seeds, each capped.
        let config = Config {
            seeds: 0..40,
            max_commands: 100_000,
            ..Config::default()
        };
        run::<Einfelst>(&e.setup, &e.options, &config, random).unwrap_or_else(|f| panic!("{name}, random: {f}"));
    }
}

#[test]
fn every_option_is_changed_by_some_variant() {
    check_option_variants(&Options::variants()).unwrap();
}

#[test]
fn conformance_of_every_option_variant() {
    let variants = Options::variants();
    for name in examples() {
        let e = example::<Einfelst>(&name);
        let config = Config {
            seeds: 0..24,
            ..Config::default()
        };
        let report = run_variants::<Einfelst>(&e.setup, &e.options, &variants, &config, |_| Einfelst::heuristic())
            .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
        assert_eq!(report.playouts, 24 * variants.len());
        let config = Config {
            seeds: 0..2,
            max_commands: 100_000,
            ..Config::default()
        };
        run_variants::<Einfelst>(&e.setup, &e.options, &variants, &config, random)
            .unwrap_or_else(|f| panic!("{name}, random: {f}"));
    }
}
