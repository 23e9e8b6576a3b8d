//! Stored records must keep replaying.
//!
//! `tests/fixtures/records/` holds one whole recorded fight per ruleset, written by `fray run
//! --record`. Every later change to the engine, the record layout or a ruleset must leave them
//! replaying bit for bit (every face and every event). A change that is meant to alter play
//! changes the ruleset's `VERSION` — old records are then refused by design — and the fixture of
//! that ruleset is written again in the same commit. A change of bookkeeping events only (the
//! play the same) also changes `VERSION`, lists the old one in the ruleset's `REPLAYS_VERSIONS`
//! and keeps the old fixture beside the new one, named with its version
//! (`thrum-duel-seed-7-v0.2.0.json`): both must replay.
//!
//! ```sh
//! cargo run -- run examples/thrum/duel.toml --seed 7 --record crates/cli/tests/fixtures/records/thrum-duel-seed-7.json
//! cargo run -- run examples/ingenuity/ambush.toml --seed 5 --record crates/cli/tests/fixtures/records/ingenuity-ambush-seed-5.json
//! cargo run -- run examples/skeleton/duel.toml --seed 7 --record crates/cli/tests/fixtures/records/skeleton-duel-seed-7.json
//! cargo run -- run examples/hallowed-earth/roadside.toml --seed 5 --record crates/cli/tests/fixtures/records/hallowed-earth-roadside-seed-5.json
//! cargo run -- run examples/einfelst/tollwood.toml --seed 7 --record crates/cli/tests/fixtures/records/einfelst-tollwood-seed-7.json
//! cargo run -- run examples/murdham/mill-ambush.toml --seed 7 --record crates/cli/tests/fixtures/records/murdham-mill-ambush-seed-7.json
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_ruleset_has_a_stored_record() {
    let rulesets: Vec<String> = fixtures()
        .iter()
        .map(|p| {
            let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            v["ruleset"].as_str().unwrap().to_string()
        })
        .collect();
    for id in fray_rulesets::ids() {
        assert!(rulesets.iter().any(|r| r == id), "no stored record of {id}");
    }
}

#[test]
fn stored_records_still_replay_to_the_end_of_their_fight() {
    for p in fixtures() {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(
            v["format"],
            serde_json::json!(1),
            "{}: record layout format",
            p.display()
        );
        let out = Command::new(env!("CARGO_BIN_EXE_fray"))
            .current_dir(root())
            .arg("replay")
            .arg(&p)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} no longer replays: {}\n(if play was meant to change, bump the ruleset's VERSION and write the fixture again: see this file's header)",
            p.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let log = String::from_utf8_lossy(&out.stdout);
        // A whole fight: the replay reaches the end of the combat and its winner.
        assert!(
            log.contains(" win ("),
            "{}: the replay does not reach the end:\n{log}",
            p.display()
        );
    }
}
