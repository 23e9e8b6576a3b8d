//! Crash safety, proven by killing: `fray play --save` and `fray resume` are killed with SIGKILL
//! at random moments while a script plays, and after every kill the database must hold every
//! command the program had acknowledged (printed anything after it: its log is printed only
//! once the command is on disk), exactly the script's commands in order, and resume must
//! continue the game. Each finished game must export as exactly the record of the same game
//! played without interruption.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root());
    c
}

const ENCOUNTER: &str = "examples/skeleton/duel.toml";
const SEED: u64 = 11;

/// A small deterministic generator (the test must not depend on the clock for what it plays).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Plays the encounter once without interruption, choosing among the legal commands (attacks
/// first, else at random), and returns the commands typed and the record written.
fn reference_game(dir: &Path) -> (Vec<String>, String) {
    let record = dir.join("reference.json");
    let mut child = fray()
        .args(["play", ENCOUNTER, "--seed", &SEED.to_string(), "--record"])
        .arg(&record)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut rng = Lcg(SEED);
    let mut script = Vec::new();
    'game: for _ in 0..2000 {
        if writeln!(stdin, "choices json").is_err() {
            break;
        }
        let list: Vec<String> = loop {
            let mut l = String::new();
            if stdout.read_line(&mut l).unwrap() == 0 {
                break 'game;
            }
            if l.trim_end().ends_with("> choices json") {
                let mut j = String::new();
                stdout.read_line(&mut j).unwrap();
                break serde_json::from_str(&j).unwrap();
            }
        };
        let attacks: Vec<&String> = list.iter().filter(|c| c.starts_with("attack")).collect();
        let pick = if !attacks.is_empty() {
            attacks[rng.below(attacks.len() as u64) as usize].clone()
        } else {
            list[rng.below(list.len() as u64) as usize].clone()
        };
        writeln!(stdin, "{pick}").unwrap();
        script.push(pick);
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rec = std::fs::read_to_string(&record).unwrap();
    (script, rec)
}

/// Plays the whole script with `--save` once without a kill (its export must be the reference
/// record) and returns how long it took, in microseconds.
fn uninterrupted_micros(dir: &Path, script: &[String], reference: &str) -> u64 {
    let db = dir.join("whole.db");
    let input: String = script.iter().map(|c| format!("{c}\n")).collect();
    let t = Instant::now();
    let mut child = fray()
        .args(["play", ENCOUNTER, "--seed", &SEED.to_string(), "--save"])
        .arg(&db)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let micros = t.elapsed().as_micros() as u64;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let export = fray().arg("export").arg(&db).arg("1").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&export.stdout).trim_end(), reference.trim_end());
    micros
}

/// The typed commands of game `id` in effect, in order, read straight from the database.
fn stored(db: &Path, id: i64) -> Option<Vec<String>> {
    if !db.exists() {
        return None;
    }
    let store = fray_store::Store::open(db, false).ok()?;
    let t = store.timeline(id).ok()?;
    Some(
        t.effective
            .iter()
            .map(|&i| t.steps[i].text.clone().unwrap_or_default())
            .collect(),
    )
}

/// How many commands a run's output acknowledged: every echoed command followed by any later
/// line (with seeded dice nothing is printed between reading a command and saving it; its log
/// and the next prompt come after the commit).
fn acknowledged(out: &str) -> usize {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(i, l)| l.starts_with("> ") && *i + 1 < lines.len())
        .count()
}

#[test]
fn sigkill_at_random_moments_loses_no_acknowledged_command() {
    let dir = std::env::temp_dir().join(format!("fray-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (script, reference) = reference_game(&dir);
    assert!(script.len() >= 10, "a game of {} commands", script.len());
    let db = dir.join("games.db");
    // Kills wanted; the test's seed for the moments of the kills.
    let kills_wanted: usize = std::env::var("FRAY_CRASH_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(500);
    // Of them, at least this many after the game had acknowledged a command (kills also land in
    // start-up and in a resume's replay; a fast machine puts more of them there).
    let after_ack_wanted: usize = std::env::var("FRAY_CRASH_KILLS_AFTER_ACK")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(200);
    let mut rng = Lcg(0x5eed);
    let (mut kills, mut lost, mut games_done, mut runs) = (0usize, 0usize, 0usize, 0usize);
    let mut game_id: i64 = 1;
    // Commands of the current game acknowledged so far.
    let mut acked_total = 0usize;
    let mut killed_after_ack = 0usize;
    let mut first_loss = String::new();
    let started = Instant::now();
    // Kills are spread evenly over the time a whole game takes when nothing kills it.
    let window_us = uninterrupted_micros(&dir, &script, &reference);
    let startup_us = {
        let t = Instant::now();
        assert!(fray().arg("--version").output().unwrap().status.success());
        t.elapsed().as_micros() as u64 * 3
    };
    while kills < kills_wanted || killed_after_ack < after_ack_wanted {
        runs += 1;
        assert!(runs < (kills_wanted + after_ack_wanted) * 20, "too many runs");
        let done = stored(&db, game_id);
        let mut cmd = fray();
        let from = match &done {
            None => {
                cmd.args(["play", ENCOUNTER, "--seed", &SEED.to_string(), "--save"])
                    .arg(&db);
                0
            }
            Some(d) => {
                cmd.arg("resume").arg(&db).arg(game_id.to_string());
                d.len()
            }
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input: String = script[from..].iter().map(|c| format!("{c}\n")).collect();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let mut stderr = child.stderr.take().unwrap();
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        // A kill somewhere in the start-up, the replay of what is stored (a resume) or the rest
        // of the game: together about a whole game's time after the start-up.
        let span = startup_us + window_us;
        let delay = Duration::from_micros(rng.below(span.max(1)));
        std::thread::sleep(delay);
        let killed = child.try_wait().unwrap().is_none();
        if killed {
            child.kill().unwrap();
        }
        let status = child.wait().unwrap();
        writer.join().unwrap();
        let out = reader.join().unwrap();
        let err = err_reader.join().unwrap();
        if !killed || status.code().is_some() {
            // It ended by itself: the game must have finished cleanly.
            assert!(status.success(), "run {runs} failed: {status:?}\n{err}\n{out}");
        } else {
            kills += 1;
        }
        let acked = if out
            .lines()
            .any(|l| l.starts_with("(saved in ") || l.starts_with("(resumed game"))
        {
            acknowledged(&out)
        } else {
            0
        };
        acked_total = acked_total.max(from + acked);
        if killed && acked > 0 {
            killed_after_ack += 1;
        }
        let now = stored(&db, game_id).unwrap_or_default();
        if now.len() < acked_total || now[..] != script[..now.len()] {
            // A loss ends the test: what follows would build on a broken game.
            lost += 1;
            first_loss = format!(
                "run {runs} (kill {kills}): {} commands stored, {acked_total} acknowledged, stored {:?}\nstdout:\n{out}\nstderr:\n{err}",
                now.len(),
                &now
            );
            break;
        }
        if now.len() == script.len() {
            // The whole game is in: it must export as the uninterrupted game's record.
            let export = fray()
                .args(["export"])
                .arg(&db)
                .arg(game_id.to_string())
                .output()
                .unwrap();
            assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
            assert_eq!(
                String::from_utf8_lossy(&export.stdout).trim_end(),
                reference.trim_end(),
                "game {game_id} differs from the uninterrupted game"
            );
            games_done += 1;
            game_id += 1;
            acked_total = 0;
        }
    }
    eprintln!(
        "{kills} kills over {runs} runs in {:.1} s ({killed_after_ack} after at least one acknowledged command), {lost} lost anything; {games_done} games of {} commands finished; a whole game takes {} us",
        started.elapsed().as_secs_f64(),
        script.len(),
        window_us
    );
    assert_eq!(lost, 0, "{first_loss}");
    assert!(games_done >= 1, "no game finished in {runs} runs");
}
