//! Every option is documented in docs/ingenuity.md with its default.

use fray_ingenuity::options::Options;

#[test]
fn every_option_is_documented_with_its_default() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../docs/ingenuity.md")).unwrap();
    for name in fray_ingenuity::options::names() {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("option {name} is not in docs/ingenuity.md"));
        let table = toml::to_string(&Options::default()).unwrap();
        match table.lines().find_map(|l| l.strip_prefix(&format!("{name} = "))) {
            Some(default) => assert!(
                row.contains(&format!("`{default}`")),
                "docs/ingenuity.md gives {name} a different default than {default}: {row}"
            ),
            // Options whose default is "none" are left out of the TOML form.
            None => assert!(row.contains("| none |"), "{name}: default should read none: {row}"),
        }
    }
}

#[test]
fn every_option_can_be_set_from_an_encounter() {
    let table = toml::to_string(&Options::default()).unwrap();
    let back: Options = toml::from_str(&table).unwrap();
    assert_eq!(back, Options::default());
}
