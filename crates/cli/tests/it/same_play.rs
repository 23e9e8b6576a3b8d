//! The identical-play guard: the simulation report of every shipped example, with the built-in
//! AI and with the random-legal policy (which walks every legal command), is pinned here. An
//! optimisation must leave every report byte for byte as it was; a change to the rules or the AI
//! shows up as a readable diff of win counts, rounds and per-combatant outcomes
//! (`cargo insta review`). `scripts/same-play.sh` runs the larger comparison of two builds
//! (full event logs over many seeds, thousands of combats) before and after a change.

use std::path::Path;
use std::process::Command;

fn sim(example: &str, args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(&root)
        .args(["sim", &format!("examples/{example}.toml"), "--seed", "7", "--jobs", "2"])
        .args(args)
        .output()
        .expect("fray runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every example, by ruleset folder and name.
fn examples() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut all = Vec::new();
    for dir in std::fs::read_dir(&root).expect("examples folder") {
        let dir = dir.expect("entry").path();
        for f in std::fs::read_dir(&dir).expect("ruleset folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "toml") {
                let ruleset = dir.file_name().expect("name").to_string_lossy().into_owned();
                let name = f.file_stem().expect("stem").to_string_lossy().into_owned();
                all.push(format!("{ruleset}/{name}"));
            }
        }
    }
    all.sort();
    all
}

#[test]
fn same_play_heuristic_reports_of_every_example() {
    let all = examples();
    assert!(all.len() >= 18, "every shipped example is pinned: {all:?}");
    for ex in all {
        let name = format!("heuristic-{}", ex.replace('/', "-"));
        insta::assert_snapshot!(name, sim(&ex, &["-n", "200"]));
    }
}

#[test]
fn same_play_random_legal_reports_of_every_example() {
    for ex in examples() {
        let name = format!("random-{}", ex.replace('/', "-"));
        insta::assert_snapshot!(name, sim(&ex, &["-n", "4", "--default-policy", "random"]));
    }
}
