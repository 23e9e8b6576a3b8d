//! Every option can be set from an encounter's `[options]` table, and the example encounters of
//! docs/einfelst.md and docs/encounters.md load (that the page gives every option with its
//! default is the shared conformance suite's, crates/rulesets/tests/it/suite.rs).

use fray_einfelst::options::Options;
use fray_engine::diag::SourceFile;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The first TOML block after `heading` in `text`.
fn example(text: &str, heading: &str) -> String {
    let at = text.find(heading).unwrap_or_else(|| panic!("no '{heading}'"));
    let rest = &text[at..];
    let start = rest.find("```toml\n").expect("a TOML block") + "```toml\n".len();
    let end = rest[start..].find("```").expect("its end");
    rest[start..start + end].to_string()
}

#[test]
fn every_option_can_be_set_from_an_encounter() {
    let table = toml::to_string(&Options::default()).unwrap();
    let back: Options = toml::from_str(&table).unwrap();
    assert_eq!(back, Options::default());
    // The one option whose default is unset takes a number.
    let limited: Options = toml::from_str("swap-range = 1").unwrap();
    assert_eq!(limited.swap_range, Some(1));
}

#[test]
fn the_documented_encounters_load() {
    for (path, heading) in [
        ("docs/einfelst.md", "\n## Encounters\n"),
        ("docs/encounters.md", "\n## Einfelst Wilds\n"),
    ] {
        let src = SourceFile {
            name: path.into(),
            text: example(&read(path), heading),
        };
        if let Err(d) = fray_einfelst::setup::load(&src) {
            let problems: Vec<String> = d.iter().map(|x| x.to_string()).collect();
            panic!("the example under {heading:?} in {path} does not load: {problems:?}");
        }
    }
}
