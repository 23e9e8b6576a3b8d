//! The encounter kit's zone maps: `[[zone]]` tables read into a `ZoneMap`, each problem a
//! diagnostic at its place, and zones named by id.

use fray_engine::diag::SourceFile;
use fray_engine::encounter::{Diags, RawZone, Spanned, parse, zone_of, zones};
use fray_space::{ZoneMap, ZoneSet};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    #[serde(default)]
    at: Vec<Spanned<String>>,
    #[serde(default)]
    zone: Vec<Spanned<RawZone>>,
}

fn file(text: &str) -> SourceFile {
    SourceFile {
        name: "enc.toml".into(),
        text: text.into(),
    }
}

/// The map and the diagnostics of reading `text`'s zones and then its `at` names.
fn read(text: &str) -> (Option<ZoneMap>, Vec<String>) {
    let f = file(text);
    let doc: Doc = parse(&f).expect("valid TOML that fits");
    let mut d = Diags::new(&f);
    let map = zones(&mut d, &doc.zone);
    if let Some(m) = &map {
        for name in &doc.at {
            zone_of(&mut d, name, m);
        }
    }
    (map, d.errors.iter().map(|e| e.to_string()).collect())
}

/// Diagnostics only, for files whose zones are refused.
fn refused(text: &str) -> Vec<String> {
    let (map, errors) = read(text);
    assert!(map.is_none(), "no map after a problem");
    errors
}

const SAMPLE: &str = r#"
[[zone]]
id = "road"
name = "Old road"
links = ["ditch", "woods"]
cover = 1
tags = ["dark"]
obstacles = { woods = "brambles" }

[[zone]]
id = "woods"
links = ["Road"]                  # the same link, from the other end
obstacles = { road = "brambles" } # the same label from both ends is fine

[[zone]]
id = "ditch"
exit = true

[[zone]]
id = "mill"
links = ["road"]
obstacles = { ROAD = "rubble" }
"#;

#[test]
fn zones_are_read_with_links_from_either_end() {
    let (map, errors) = read(SAMPLE);
    assert!(errors.is_empty(), "{errors:?}");
    let m = map.expect("a map");
    let id = |n: &str| m.find(n).expect("a zone");
    assert_eq!(m.len(), 4);
    assert_eq!(m.links().len(), 3, "woods' listing of road is the same link");
    let lines: Vec<String> = m.ids().filter_map(|z| m.describe(z)).collect();
    assert_eq!(
        lines,
        [
            "road (Old road)  cover 1, dark  — links: ditch, woods [brambles], mill [rubble]",
            "woods  — links: road [brambles]",
            "ditch  exit  — links: road",
            "mill  — links: road [rubble]",
        ]
    );
    assert_eq!(m.distance(id("woods"), id("mill")), Some(2));
    assert_eq!(m.exits(), ZoneSet::from(id("ditch")));
    // Zone ids follow the file.
    assert_eq!(m.find("mill").map(|z| z.index()), Some(3));
}

#[test]
fn zones_are_named_by_id_ignoring_case() {
    let text = format!("at = [\"MILL\", \"barn\"]\n{SAMPLE}");
    let (map, errors) = read(&text);
    assert!(map.is_some());
    assert_eq!(
        errors,
        ["enc.toml:1:15: error: unknown zone 'barn'; the zones are: road, woods, ditch, mill"]
    );
}

#[test]
fn each_problem_is_pointed_at() {
    let text = r#"[[zone]]
id = "road"
links = ["barn", "road", "ditch", "ditch"]
tags = ["dark", "DARK", "two words"]
obstacles = { woods = "x", ditch = "bad label" }
[[zone]]
id = "Road"
[[zone]]
id = "ditch"
name = ""
links = ["road"]
[[zone]]
id = "old mill"
"#;
    assert_eq!(
        refused(text),
        [
            "enc.toml:5:15: error: zone 'road' has no link to 'woods' to put an obstacle on",
            "enc.toml:4:17: error: zone 'road' has the tag 'DARK' twice",
            "enc.toml:4:25: error: tag 'two words' of zone 'road' must be one word of letters, digits, '-' and '_'",
            "enc.toml:7:6: error: zone id 'Road' differs from 'road' only by case",
            "enc.toml:10:8: error: zone 'ditch' has an empty name or one with control characters",
            "enc.toml:13:6: error: zone id 'old mill' must be one word of letters, digits, '-' and '_'",
            "enc.toml:3:10: error: unknown zone 'barn'; the zones are: road, Road, ditch, old mill",
            "enc.toml:3:18: error: zone 'road' is linked to itself",
            "enc.toml:5:36: error: obstacle 'bad label' must be one word of letters, digits, '-' and '_'",
            "enc.toml:3:35: error: zones 'road' and 'ditch' are linked twice",
        ]
    );
}

#[test]
fn both_ends_must_agree_on_an_obstacle() {
    let text = r#"[[zone]]
id = "a"
links = ["b"]
obstacles = { b = "rubble" }
[[zone]]
id = "b"
obstacles = { a = "brambles" }
"#;
    assert_eq!(
        refused(text),
        ["enc.toml:7:19: error: the link between 'a' and 'b' already has the obstacle 'rubble'"]
    );
}

#[test]
fn a_zone_encounter_without_any_zone_is_reported_at_line_1_column_1() {
    assert_eq!(
        refused("at = []\n"),
        ["enc.toml:1:1: error: a zone encounter needs at least one [[zone]]"]
    );
    assert_eq!(
        refused(""),
        ["enc.toml:1:1: error: a zone encounter needs at least one [[zone]]"]
    );
}

#[test]
fn a_zone_map_has_one_to_64_zones() {
    let many: String = (0..65).map(|i| format!("[[zone]]\nid = \"z{i}\"\n")).collect();
    assert_eq!(
        refused(&many),
        ["enc.toml:129:1: error: at most 64 zones are supported"]
    );
    let (map, errors) = read(&many[..many.find("[[zone]]\nid = \"z64\"").expect("the last")]);
    assert!(errors.is_empty() && map.is_some_and(|m| m.len() == 64));
}

#[test]
fn a_disconnected_map_is_allowed() {
    let (map, errors) = read("[[zone]]\nid = \"a\"\n[[zone]]\nid = \"b\"\n");
    assert!(errors.is_empty());
    let m = map.expect("a map");
    assert_eq!(m.distance(m.find("a").expect("a"), m.find("b").expect("b")), None);
}

#[test]
fn the_documented_example_reads_as_its_picture() {
    let docs = include_str!("../../../../docs/encounters.md");
    let section = &docs[docs.find("## Zone maps").expect("the section")..];
    let start = section.find("```toml\n").expect("the example") + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").expect("its end")];
    let (map, errors) = read(example);
    assert!(errors.is_empty(), "{errors:?}");
    let m = map.expect("a map");
    let id = |n: &str| m.find(n).expect("a zone");
    assert_eq!(m.distance(id("woods"), id("ditch")), Some(2));
    assert_eq!(m.distance(id("woods"), id("mill")), Some(2));
    assert_eq!(m.exits(), ZoneSet::from(id("ditch")));
    let rubble = m.link(id("road"), id("mill")).and_then(|l| l.obstacle.as_deref());
    assert_eq!(rubble, Some("rubble"));
}

#[test]
fn cover_is_a_small_count() {
    let f = file("[[zone]]\nid = \"a\"\ncover = 300\n");
    let e = parse::<Doc>(&f).err().expect("out of range");
    assert_eq!((e.len(), e[0].line), (1, 3));
}
