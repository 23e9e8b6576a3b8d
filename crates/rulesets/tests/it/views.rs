//! Every view, every event and every board fray sends a seat has the one JSON shape documented
//! in `docs/view.schema.json`, whatever the ruleset: each shipped example is played by the
//! built-in AI, and at every decision each seat's view and board, and at the end each seat's
//! log, is checked against the schema. The combatants of every view are the encounter's, by id,
//! in the same order for every seat, less those the seat may not know are there (what Tab
//! completion and a browser read), and each one stands on the seat's board: on one of its
//! squares, in one of its zones or on one of its links.

use fray_dice::Prng;
use fray_engine::Seat;
use fray_engine::diag::SourceFile;
use fray_engine::text::{AnyGame, NewDice};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The schema with its root narrowed to one of its definitions.
fn validator(def: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/view.schema.json")).expect("the schema is in docs/");
    let mut schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    let map = schema.as_object_mut().expect("the schema is an object");
    map.remove("oneOf");
    map.insert("$ref".into(), json!(format!("#/$defs/{def}")));
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn examples() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in std::fs::read_dir(root().join("examples")).expect("examples") {
        for f in std::fs::read_dir(dir.expect("entry").path()).expect("ruleset folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "toml") {
                all.push(f);
            }
        }
    }
    all.sort();
    all
}

fn start(path: &Path, seed: u64) -> Box<dyn AnyGame> {
    let src = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(path).expect("readable"),
    };
    let dir = path.parent().expect("a folder").to_path_buf();
    let mut read = |name: &str| -> Result<SourceFile, String> {
        let p = dir.join(name);
        std::fs::read_to_string(&p)
            .map(|text| SourceFile {
                name: p.display().to_string(),
                text,
            })
            .map_err(|e| format!("cannot read {name}: {e}"))
    };
    let entry = fray_rulesets::for_encounter(&src).expect("a known ruleset");
    match entry.new_game(&src, &mut read, NewDice::Seeded(seed)) {
        Ok(g) => g,
        Err(e) => panic!("{}: {e}", src.name),
    }
}

fn problems(v: &jsonschema::Validator, value: &Value) -> Vec<String> {
    v.iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

/// Checks a seat's board against its view: a grid has squares, and every square a combatant
/// stands on is one of them (at the same elevation); a zone map's links join its zones, and
/// every zone or border a combatant stands in is one of them. `at` says where, for messages.
fn board_holds_every_place(board: &Value, view: &Value, at: &str) {
    let places = view["combatants"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["id"].as_str().unwrap_or(""), &c["place"]));
    match board["kind"].as_str() {
        Some("grid") => {
            let cells = board["cells"].as_array().expect("a grid has cells");
            assert!(!cells.is_empty(), "{at}: a grid board has squares");
            for (id, p) in places {
                if p.is_null() {
                    continue;
                }
                assert_eq!(p["kind"], "square", "{at}: {id} stands on a square of a grid");
                let cell = cells.iter().find(|c| c["x"] == p["x"] && c["y"] == p["y"]);
                let cell = cell.unwrap_or_else(|| panic!("{at}: {id}'s square {p} is not on the board"));
                assert_eq!(cell["elevation"], p["elevation"], "{at}: {id}'s elevation");
            }
        }
        Some("zones") => {
            let zones: Vec<&str> = board["zones"]
                .as_array()
                .expect("a zone map has zones")
                .iter()
                .map(|z| z["id"].as_str().unwrap_or(""))
                .collect();
            assert!(!zones.is_empty(), "{at}: a zone board has zones");
            let mut links = Vec::new();
            for l in board["links"].as_array().expect("a zone map has links") {
                let pair = [
                    l["zones"][0].as_str().unwrap_or(""),
                    l["zones"][1].as_str().unwrap_or(""),
                ];
                assert!(
                    pair.iter().all(|z| zones.contains(z)) && pair[0] != pair[1],
                    "{at}: the link {pair:?} joins two zones of the board"
                );
                links.push(pair);
            }
            for (id, p) in places {
                match p["kind"].as_str() {
                    None => {}
                    Some("zone") => {
                        let z = p["zone"].as_str().unwrap_or("");
                        assert!(zones.contains(&z), "{at}: {id}'s zone {z} is not on the board");
                    }
                    Some("border") => {
                        let (a, b) = (
                            p["zones"][0].as_str().unwrap_or(""),
                            p["zones"][1].as_str().unwrap_or(""),
                        );
                        assert!(
                            links.iter().any(|l| *l == [a, b] || *l == [b, a]),
                            "{at}: {id}'s border {a}|{b} is no link of the board"
                        );
                    }
                    Some(other) => panic!("{at}: {id} stands on a {other} of a zone map"),
                }
            }
        }
        other => panic!("{at}: a board of kind {other:?}"),
    }
}

fn ids(v: &Value) -> Vec<String> {
    v["combatants"]
        .as_array()
        .map(|cs| cs.iter().map(|c| c["id"].as_str().unwrap_or("").to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn every_view_and_event_of_every_example_has_the_documented_shape() {
    let views = validator("seat-view");
    let events = validator("event");
    let boards = validator("board");
    let mut checked = (0usize, 0usize, 0usize);
    // Per ruleset: the gauge and status names its views used, which its page must list.
    let mut names: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
    for path in examples() {
        let name = path.display().to_string();
        for seed in 1..=3 {
            let mut game = start(&path, seed);
            let seats: Vec<Seat> = (0..game.seat_names().len() as u8).map(Seat).collect();
            let mut rng = Prng::from_seed(seed);
            for step in 0..400 {
                let gm_ids = ids(&game.view_json(Seat::GM));
                assert!(!gm_ids.is_empty(), "{name}: the view lists the combatants");
                for &seat in &seats {
                    let v = game.view_json(seat);
                    let bad = problems(&views, &v);
                    assert!(
                        bad.is_empty(),
                        "{name} seed {seed} step {step}, {seat}'s view: {bad:?}\n{v:#}"
                    );
                    // Every ruleset draws its battlefield, for every seat.
                    let board = serde_json::to_value(game.board(seat)).expect("a board serialises");
                    let bad = problems(&boards, &board);
                    assert!(
                        bad.is_empty(),
                        "{name} seed {seed} step {step}, {seat}'s board: {bad:?}\n{board:#}"
                    );
                    board_holds_every_place(&board, &v, &format!("{name} seed {seed} step {step}, {seat}"));
                    checked.2 += 1;
                    let mut rest = gm_ids.iter();
                    assert!(
                        ids(&v).iter().all(|id| rest.any(|g| g == id)),
                        "{name}: a seat's view lists the GM's combatants, in order, less those it may not know of"
                    );
                    let ruleset = v["ruleset"].as_str().unwrap_or("").to_string();
                    for c in v["combatants"].as_array().into_iter().flatten() {
                        for kind in ["gauges", "statuses"] {
                            for g in c[kind].as_array().into_iter().flatten() {
                                let n = g["name"].as_str().unwrap_or("").to_string();
                                names.entry(ruleset.clone()).or_default().insert(n);
                            }
                        }
                    }
                    checked.0 += 1;
                }
                if game.outcome().is_some() || game.ai_step(&mut rng).is_err() {
                    break;
                }
            }
            for &seat in &seats {
                for line in game.log_for(seat) {
                    let bad = problems(&events, &line.json);
                    assert!(
                        bad.is_empty(),
                        "{name} seed {seed}, {seat}'s log: {bad:?}\n{:#}",
                        line.json
                    );
                    checked.1 += 1;
                }
            }
        }
    }
    assert!(
        checked.0 > 1000 && checked.1 > 1000 && checked.2 == checked.0,
        "checked {checked:?}"
    );
    assert_eq!(names.len(), 6, "every ruleset was seen: {:?}", names.keys());
    for (ruleset, used) in &names {
        let page = std::fs::read_to_string(root().join(format!("docs/{ruleset}.md"))).expect("the ruleset's page");
        let section = page
            .split("\n## ")
            .find(|s| s.starts_with("In the shared view"))
            .unwrap_or_else(|| panic!("docs/{ruleset}.md has no section 'In the shared view'"));
        // A name made from the encounter's data (an item's `<item>-durability`) is listed by
        // its pattern.
        let listed = |n: &String| {
            section.contains(&format!("`{n}`"))
                || n.rsplit_once('-')
                    .is_some_and(|(_, last)| section.contains(&format!(">-{last}`")))
        };
        let missing: Vec<&String> = used.iter().filter(|n| !listed(n)).collect();
        assert!(
            missing.is_empty(),
            "docs/{ruleset}.md does not list {missing:?} under 'In the shared view'"
        );
    }
}

#[test]
fn the_schema_refuses_what_is_not_a_view_an_event_or_a_board() {
    let views = validator("seat-view");
    let events = validator("event");
    let boards = validator("board");
    let grid = json!({ "kind": "grid", "cells": [{ "x": 0, "y": 0, "elevation": null, "terrain": ["blocked"] }], "areas": [] });
    assert!(problems(&boards, &grid).is_empty());
    assert!(
        !problems(&boards, &json!({ "kind": "grid", "cells": [], "areas": [] })).is_empty(),
        "no squares"
    );
    assert!(
        !problems(
            &boards,
            &json!({ "kind": "grid", "cells": [{ "x": 0, "y": 0 }], "areas": [] })
        )
        .is_empty()
    );
    assert!(!problems(&boards, &json!({ "kind": "hexes", "cells": [] })).is_empty());
    let zones = json!({
        "kind": "zones",
        "zones": [{ "id": "ford", "name": "The ford", "cover": 1, "tags": ["cover"], "items": [] }],
        "links": [{ "zones": ["ford", "bank"], "label": "rubble", "tags": ["obstacle"], "items": [] }],
    });
    assert!(problems(&boards, &zones).is_empty());
    assert!(
        !problems(
            &boards,
            &json!({ "kind": "zones", "zones": [{ "id": "ford" }], "links": [] })
        )
        .is_empty()
    );
    assert!(!problems(&views, &grid).is_empty() && !problems(&events, &grid).is_empty());
    assert!(!problems(&views, &json!({ "ruleset": "thrum" })).is_empty());
    assert!(!problems(&events, &json!({ "InitiativeRolled": { "who": 0 } })).is_empty());
    assert!(!problems(&events, &json!({ "event": "InitiativeRolled" })).is_empty());
    assert!(problems(&events, &json!({ "event": "initiative-rolled", "who": "korrin" })).is_empty());
}
