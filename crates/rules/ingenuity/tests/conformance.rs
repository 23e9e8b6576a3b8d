//! The engine's conformance suite over every shipped Ingenuity example: 1,000 seeded combats each
//! with the built-in AI (every playout ends, every listed command is accepted, unlisted ones
//! are refused without a trace, records replay identically, state survives JSON), plus random
//! legal play on a sample of seeds.

use fray_engine::conformance::{Config, run};
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_ingenuity::Ingenuity;
use std::path::Path;

fn load(name: &str) -> (fray_ingenuity::setup::Setup, fray_ingenuity::options::Options) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/ingenuity")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("example exists");
    let src = SourceFile {
        name: name.into(),
        text,
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut read = |p: &str| {
        let f = dir.join(p);
        std::fs::read_to_string(&f)
            .map(|text| SourceFile { name: p.into(), text })
            .map_err(|e| e.to_string())
    };
    let l = Ingenuity::load(&src, &mut read).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (l.setup, l.options)
}

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
