//! Every option is described in docs/murdham.md with its default.

use fray_murdham::options::Options;

#[test]
fn every_option_is_documented_with_its_default() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/murdham.md")).unwrap();
    let defaults = toml::to_string(&Options::default()).unwrap();
    for line in defaults.lines() {
        let (name, default) = line.split_once(" = ").expect("name = value");
        let row = format!("| `{name}` | `{default}` |");
        assert!(doc.contains(&row), "docs/murdham.md has no row starting {row}");
    }
}
