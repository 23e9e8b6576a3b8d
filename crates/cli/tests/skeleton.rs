//! The skeleton ruleset through the `fray` command: its one line in the registry is all it takes
//! for check, play, replay, run, sim and odds to reach it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-skeleton-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn with_stdin(mut c: Command, input: &str) -> Output {
    c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const DUEL: &str = "examples/skeleton/duel.toml";

#[test]
fn check_play_and_replay_reach_the_skeleton() {
    let out = fray().args(["check", DUEL]).output().unwrap();
    assert!(
        text(&out.stdout).contains("ok (skeleton encounter \"Duel in the well yard\")"),
        "{}",
        text(&out.stderr)
    );

    // Initiative: Maren 5 + 3, Tobin 2 + 4. Tobin's attack: d20 17 + 4 against 13 + 2 (dodging), d6 6.
    let rec = tmp("duel.json");
    let mut c = fray();
    c.args(["play", DUEL, "--dice", "5,2,17,6", "--record"]).arg(&rec);
    let out = with_stdin(c, "move 3,0\nend\nmove 2,0\nattack maren\ndodge\nend\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(
        log.contains("[west] Round 1: Tobin Reed's turn (4 of 4 movement left)"),
        "{log}"
    );
    assert!(
        log.contains("[east] Tobin Reed attacks Maren Holt: dodge (+2 defence, once a round) or take"),
        "{log}"
    );
    assert!(
        log.contains("d20 17 + 4 = 21 against defence 15 (dodging): hit"),
        "{log}"
    );
    assert!(log.contains("Maren Holt takes 6 damage: health 3"), "{log}");
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("Maren Holt takes 6 damage: health 3"));

    // A refused command ends a script with exit 1 and its code.
    let mut c = fray();
    c.args(["play", DUEL, "--seed", "1"]);
    let out = with_stdin(c, "attack tobin\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("rejected (not-adjacent)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn run_sim_and_odds_reach_the_skeleton() {
    let out = fray().args(["run", DUEL, "--seed", "7"]).output().unwrap();
    assert!(
        text(&out.stdout).contains(" win (last-side-standing)"),
        "{}",
        text(&out.stderr)
    );

    let out = fray().args(["sim", DUEL, "-n", "60", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(
        (v["ruleset"].as_str(), v["combats"].as_u64()),
        (Some("skeleton"), Some(60))
    );

    let out = fray()
        .args(["odds", "skeleton", "--attack", "3", "--defence", "12", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!((v["hit_faces"].as_u64(), v["p_hit"].as_f64()), (Some(12), Some(0.6)));
}
