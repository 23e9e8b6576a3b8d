//! Every option is described in docs/einfelst.md with its default, every option can be set
//! from an encounter's `[options]` table under the name the page gives it, and the example
//! encounters of docs/einfelst.md and docs/encounters.md load.

use fray_einfelst::options::Options;
use fray_engine::diag::SourceFile;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn doc() -> String {
    read("docs/einfelst.md")
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
fn every_option_is_documented_with_its_default() {
    let doc = doc();
    // The TOML form leaves out options whose default is unset; the JSON form names every one.
    let names = match serde_json::to_value(Options::default()) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect::<Vec<_>>(),
        other => panic!("the options do not serialise to an object: {other:?}"),
    };
    assert!(names.len() >= 30, "too few options read: {names:?}");
    let table = toml::to_string(&Options::default()).unwrap();
    for name in names {
        let row = match table.lines().find_map(|l| l.strip_prefix(&format!("{name} = "))) {
            Some(default) => format!("| `{name}` | `{default}` |"),
            // An unset default (no limit, nothing chosen) reads "none" in the table.
            None => format!("| `{name}` | none |"),
        };
        assert!(doc.contains(&row), "docs/einfelst.md has no row starting {row}");
    }
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
