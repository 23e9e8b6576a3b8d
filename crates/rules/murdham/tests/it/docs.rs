//! Every option can be set from an encounter's `[options]` table, and the example encounters of
//! docs/murdham.md and docs/encounters.md load (that the page gives every option with its
//! default is the shared conformance suite's, crates/rulesets/tests/it/suite.rs).

use fray_engine::diag::SourceFile;
use fray_murdham::options::Options;

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
    // Each variant the conformance suite plays reads back from its TOML form too.
    for (name, o) in Options::variants() {
        let text = toml::to_string(&o).unwrap();
        assert_eq!(toml::from_str::<Options>(&text).unwrap(), o, "{name}");
    }
    assert!(toml::from_str::<Options>("no-such-option = true").is_err());
}

#[test]
fn the_documented_encounters_load() {
    for (path, heading) in [
        ("docs/murdham.md", "\n## Encounters\n"),
        ("docs/encounters.md", "\n## Murdham\n"),
    ] {
        let src = SourceFile {
            name: path.into(),
            text: example(&read(path), heading),
        };
        if let Err(d) = fray_murdham::setup::load(&src) {
            let problems: Vec<String> = d.iter().map(|x| x.to_string()).collect();
            panic!("the example under {heading:?} in {path} does not load: {problems:?}");
        }
    }
}
