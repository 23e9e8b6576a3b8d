//! The engine's conformance suite over every shipped Ingenuity example once per option variant
//! (`Options::variants()`: every option at a non-default value in at least one variant), so a
//! reading of the rules that no example uses is still played through: a few dozen seeded combats
//! with the built-in AI and a couple with random legal play per variant and example. The
//! examples' own settings get 1,000 combats each in `conformance.rs`.

use fray_engine::conformance::{Config, check_option_variants, run_variants};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::options::{EndWhen, Options};
use fray_ingenuity::setup::{Objective, Setup};

mod examples;
use examples::load;

#[test]
fn every_option_is_changed_by_some_variant() {
    let variants = Options::variants();
    check_option_variants(&variants).unwrap();
    for (name, v) in &variants {
        v.check().unwrap_or_else(|e| panic!("variant {name}: {e}"));
    }
}

fn suite(name: &str, setup: &Setup, options: &Options, variants: &[(&str, Options)]) {
    let config = Config {
        seeds: 0..24,
        ..Config::default()
    };
    let report = run_variants::<Ingenuity>(setup, options, variants, &config, |_| Ingenuity::heuristic())
        .unwrap_or_else(|f| panic!("{name}, heuristic: {f}"));
    assert_eq!(report.playouts, 24 * variants.len());
    let config = Config {
        seeds: 0..2,
        max_commands: 100_000,
        resolve_every: 7,
        ..Config::default()
    };
    run_variants::<Ingenuity>(setup, options, variants, &config, |_| {
        Box::new(RandomLegal::<Ingenuity>::new()) as Box<dyn Policy<Ingenuity>>
    })
    .unwrap_or_else(|f| panic!("{name}, random: {f}"));
}

/// The variants that end a fight without a GM on any example: all but `end-when =
/// "objective-or-gm"`, under which a fight ends only when an objective is met.
fn general() -> Vec<(&'static str, Options)> {
    Options::variants()
        .into_iter()
        .filter(|(_, v)| v.end_when == EndWhen::OneTeamStanding)
        .collect()
}

fn example(name: &str) {
    let (setup, options) = load(name);
    suite(name, &setup, &options, &general());
}

#[test]
fn variants_ambush() {
    example("ambush.toml");
}

#[test]
fn variants_night_raid() {
    example("night-raid.toml");
}

#[test]
fn variants_shrine() {
    example("shrine.toml");
}

/// `end-when = "objective-or-gm"` on `shrine`, whose wardens must survive four rounds, with the
/// cult given an objective too (down Mara): every fight then ends by an objective, within four
/// rounds (Mara down, or the rounds pass with her standing).
#[test]
fn variants_objectives_only_on_shrine() {
    let (mut setup, options) = load("shrine.toml");
    let mara = setup.chars.iter().position(|c| c.id == "mara").expect("mara") as fray_ingenuity::setup::Cid;
    let cult = setup.teams.iter().position(|t| t.id == "cult").expect("cult");
    setup.teams[cult].objective = Some(Objective::Down { who: mara });
    let variants: Vec<_> = Options::variants()
        .into_iter()
        .filter(|(_, v)| v.end_when == EndWhen::ObjectiveOrGm)
        .collect();
    assert_eq!(variants.len(), 1);
    suite("shrine.toml with a cult objective", &setup, &options, &variants);
}
