//! The option variants of Ingenuity (`Options::variants()`), which the shared conformance suite
//! (crates/rulesets/tests/it/suite) plays over every example: each is a valid set of options,
//! and the one variant the suite leaves out, `end-when = "objective-or-gm"` (a fight then ends
//! only by an objective), is played here on the shrine with objectives.

use fray_engine::conformance::{Config, run_variants};
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::options::{EndWhen, Options};
use fray_ingenuity::setup::{Objective, Setup};

use crate::examples;
use examples::load;

#[test]
fn every_option_variant_is_a_valid_set_of_options() {
    let variants = Options::variants();
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
