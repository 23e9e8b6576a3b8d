//! Every option is documented in docs/thrum.md with its default (the rules file's proposal).

use fray_thrum::options::Options;

#[test]
fn every_option_is_documented_with_its_default() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/thrum.md")).unwrap();
    let table = toml::to_string(&Options::default()).unwrap();
    for line in table.lines().filter(|l| l.contains(" = ")) {
        let (name, default) = line.split_once(" = ").unwrap();
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("option {name} is not in docs/thrum.md"));
        assert!(
            row.contains(&format!("`{default}`")),
            "docs/thrum.md gives {name} a different default than {default}: {row}"
        );
    }
}

#[test]
fn every_option_can_be_set_from_an_encounter() {
    // Round-tripping the defaults through TOML proves every option has a name an encounter can use.
    let table = toml::to_string(&Options::default()).unwrap();
    let back: Options = toml::from_str(&table).unwrap();
    assert_eq!(back, Options::default());
}
