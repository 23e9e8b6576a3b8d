//! Records as files: `fray play --record` killed at any moment leaves a record that parses and
//! replays (or none yet).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    c
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-record-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Kills `fray play --record` with SIGKILL at many moments while it is fed GM rulings (each one
/// rewrites the record, which grows with every line) and checks the record every time.
#[cfg(unix)]
#[test]
fn a_killed_play_leaves_a_record_that_parses_and_replays() {
    use std::time::{Duration, Instant};
    let dir = tmp_dir("kill");
    let mut kept = 0;
    let mut most_entries = 0;
    for k in 0..60u64 {
        let rec = dir.join(format!("r{k}.json"));
        let mut child = fray()
            .args(["play", "examples/thrum/duel.toml", "--seed", "5", "--record"])
            .arg(&rec)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Kill after a different delay each time (0 to about 300 ms), while lines keep coming.
        let deadline = Instant::now() + Duration::from_micros(k * k * 90);
        let mut i = 0u64;
        while Instant::now() < deadline {
            let sign = if i.is_multiple_of(2) { '+' } else { '-' };
            if writeln!(stdin, "gm set biffer fatigue {sign}1").is_err() {
                break;
            }
            i += 1;
            if i.is_multiple_of(4) {
                std::thread::sleep(Duration::from_micros(300));
            }
        }
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        drop(stdin);
        let Ok(json) = std::fs::read_to_string(&rec) else {
            continue; // killed before the first write
        };
        let v: serde_json::Value = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("kill {k}: the record is not JSON ({e}), {} bytes", json.len()));
        most_entries = most_entries.max(v["entries"].as_array().map_or(0, Vec::len));
        let out = fray().arg("replay").arg(&rec).output().unwrap();
        assert!(out.status.success(), "kill {k}: {}", text(&out.stderr));
        kept += 1;
    }
    assert!(kept >= 40, "only {kept} of 60 kills happened after the first write");
    assert!(most_entries >= 50, "the records stayed short ({most_entries} entries)");
    // Nothing but the records and, where a kill landed mid-write, a temporary file beside one.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".json") || name.ends_with(".tmp"), "{name}");
    }
}

/// `fray replay --seat` prints the log one seat was shown: the GM's is the full log, a
/// player seat's ends with its tracker instead of the GM's summary, and a seat the record
/// does not have is bad input (exit 2) naming it.
#[test]
fn replay_as_a_seat_prints_that_seats_log() {
    let dir = tmp_dir("seat");
    let rec = dir.join("ambush.json");
    let run = fray()
        .args(["run", "examples/ingenuity/ambush.toml", "--seed", "4", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", text(&run.stderr));
    let full = fray().arg("replay").arg(&rec).output().unwrap();
    let gm = fray().arg("replay").arg(&rec).args(["--seat", "gm"]).output().unwrap();
    assert!(full.status.success() && gm.status.success(), "{}", text(&gm.stderr));
    assert_eq!(text(&gm.stdout), text(&full.stdout));
    let players = fray()
        .arg("replay")
        .arg(&rec)
        .args(["--seat", "players"])
        .output()
        .unwrap();
    assert!(players.status.success(), "{}", text(&players.stderr));
    let (p, f) = (text(&players.stdout), text(&full.stdout));
    assert_ne!(
        p, f,
        "the players' replay ends with their tracker, not the GM's summary"
    );
    // The log lines before the closing part are the same here (nothing was hidden in this
    // fight); the players' output has no line the GM's log lacks.
    let full_lines: std::collections::HashSet<&str> = f.lines().collect();
    let header_and_log = p.lines().take_while(|l| full_lines.contains(l)).count();
    assert!(header_and_log > 10, "{p}");
    let bad = fray()
        .arg("replay")
        .arg(&rec)
        .args(["--seat", "nobody"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("no seat 'nobody'"), "{}", text(&bad.stderr));
}
