//! A start (initiative) that runs out of dice still saves what was typed: `fray play --record`
//! writes the unfinished record, and `fray replay` and `fray sim --from` refuse it clearly.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-start-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn with_stdin(mut c: Command, input: &str) -> Output {
    c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_start_that_runs_out_of_listed_dice_keeps_them_in_a_record_that_replay_refuses() {
    let dir = tmp_dir("start-dice");
    let rec = dir.join("r.json");
    // The duel's initiative needs 2d6 for each of two combatants: three faces are not enough.
    let out = with_stdin(
        {
            let mut c = fray();
            c.args(["play", "examples/thrum/duel.toml", "--dice", "3,4,5", "--record"])
                .arg(&rec);
            c
        },
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("during the start"), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(v["ruleset"], "thrum");
    assert_eq!(v["start"]["unfinished"], true);
    assert_eq!(v["start"]["dice"], serde_json::json!([3, 4]));
    assert!(v["setup"].is_object(), "the encounter is kept");
    let out = fray().arg("replay").arg(&rec).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the record stops during the start: 2 faces typed, more needed"),
        "{}",
        text(&out.stderr)
    );
    let out = fray().args(["sim", "-n", "2", "--from"]).arg(&rec).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("stops during the start"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn manual_dice_that_stop_during_the_start_keep_the_faces_typed() {
    let dir = tmp_dir("start-manual");
    let rec = dir.join("r.json");
    let out = with_stdin(
        {
            let mut c = fray();
            c.args(["play", "examples/thrum/duel.toml", "--dice", "manual", "--record"])
                .arg(&rec);
            c
        },
        "6 2\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(v["start"]["unfinished"], true);
    assert_eq!(v["start"]["dice"], serde_json::json!([6, 2]));
    let out = fray().arg("replay").arg(&rec).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("2 faces typed, more needed"),
        "{}",
        text(&out.stderr)
    );
}
