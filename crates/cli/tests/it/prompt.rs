//! The `fray play` prompt as a script writer meets it: readable choice lists, the prompt
//! words that show the battlefield and the state, and the same exit code for unreadable text in
//! every ruleset. (The line editor itself needs a terminal; its completion is unit-tested in
//! src/choices.rs.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `fray play FILE --seed SEED` fed `input` on stdin.
fn play(file: &str, seed: u64, input: &[u8]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root())
        .args(["play", file, "--seed", &seed.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The JSON array printed after `> choices json`.
fn choices_json(out: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0].ends_with("> choices json"))
        .map(|w| serde_json::from_str(w[1]).unwrap())
        .collect()
}

/// Plays `file` at the prompt, answering every decision with its first legal command (its last
/// when the first would end a turn or pass) until `stop` accepts the legal list, then types
/// `then` and ends the input. Returns everything printed.
fn drive(file: &str, seed: u64, stop: impl Fn(&[String]) -> bool, then: &str) -> (Output, String) {
    use std::io::BufRead;
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root())
        .args(["play", file, "--seed", &seed.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    for _ in 0..500 {
        writeln!(stdin, "choices json").unwrap();
        let list: Vec<String> = loop {
            let mut l = String::new();
            assert!(stdout.read_line(&mut l).unwrap() > 0, "the fight ended first:\n{seen}");
            seen.push_str(&l);
            if l.trim_end().ends_with("> choices json") {
                let mut j = String::new();
                stdout.read_line(&mut j).unwrap();
                seen.push_str(&j);
                break serde_json::from_str(&j).unwrap();
            }
        };
        if stop(&list) {
            break;
        }
        let pick = if ["end", "pass"].contains(&list[0].as_str()) {
            list.last()
        } else {
            list.first()
        };
        writeln!(stdin, "{}", pick.unwrap()).unwrap();
    }
    stdin.write_all(then.as_bytes()).unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    seen.push_str(&rest);
    let out = child.wait_with_output().unwrap();
    (out, seen)
}

/// A decision where a character may move to more squares than are shown in full.
fn can_move(list: &[String]) -> bool {
    list.iter().filter(|c| c.starts_with("move ")).count() > 6
}

#[test]
fn long_square_families_are_shown_once_and_choices_all_prints_every_one() {
    let (out, so) = drive(
        "examples/thrum/ruins.toml",
        4,
        can_move,
        "choices json\nchoices all\nchoices\n",
    );
    assert!(out.status.success(), "{so}\n{}", text(&out.stderr));
    let lists = choices_json(&so);
    let full = lists.last().expect("a choices json answer");
    let moves: Vec<&String> = full.iter().filter(|c| c.starts_with("move ")).collect();
    // The grouped list names the family once with its count...
    let family = format!("move <x,y>  ({} squares)", moves.len());
    let after_all = so.rsplit("> choices all").next().unwrap();
    let (all_part, grouped_part) = after_all.split_once("> choices").unwrap();
    assert!(grouped_part.contains(&family), "{grouped_part}");
    assert!(!grouped_part.contains(&format!("{} ", moves[0])), "{grouped_part}");
    // ... and `choices all` prints each command in full.
    for m in &moves {
        assert!(all_part.contains(m.as_str()), "{m} missing from {all_part}");
    }
}

#[test]
fn show_map_and_state_answer_at_any_point_without_a_new_prompt() {
    let (out, so) = drive(
        "examples/thrum/ruins.toml",
        4,
        can_move,
        "show\nmap\nstate\nstate gm\nshow nobody\n",
    );
    assert!(out.status.success(), "{so}\n{}", text(&out.stderr));
    let tail = so.rsplit("> choices json").next().unwrap();
    // `state` prints the seat's view as JSON: one pretty document after the word.
    let after = tail.split("> state\n").nth(1).unwrap();
    let doc: String = after.split("> state gm").next().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(doc.trim()).unwrap();
    assert!(
        v.get("combatants")
            .and_then(|c| c.as_array())
            .is_some_and(|c| !c.is_empty())
    );
    assert!(tail.contains("no seat 'nobody'"), "{tail}");
    // The decision is not announced again after a prompt word.
    assert!(!tail.contains("[players] "), "{tail}");
}

#[test]
fn unreadable_text_exits_2_in_every_ruleset_and_a_refused_command_exits_1() {
    for (file, seed) in [("examples/thrum/duel.toml", 1), ("examples/ingenuity/ambush.toml", 1)] {
        for line in ["blah", "gm frobnicate", "move", "act"] {
            let out = play(file, seed, format!("{line}\n").as_bytes());
            assert_eq!(out.status.code(), Some(2), "{file}: '{line}': {}", text(&out.stderr));
            assert!(
                text(&out.stderr).contains("line 1: not a command"),
                "{}",
                text(&out.stderr)
            );
        }
    }
    // A readable command the rules refuse is exit 1: a Thrum `end` typed at a placement prompt.
    let out = play("examples/thrum/ruins.toml", 4, b"end\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("line 1: rejected"), "{}", text(&out.stderr));
}

#[test]
fn a_script_line_that_is_not_utf8_exits_2_naming_the_line_and_keeps_the_record() {
    let dir = std::env::temp_dir().join(format!("fray-prompt-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("utf8.json");
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root())
        .args(["play", "examples/thrum/ruins.toml", "--seed", "4", "--record"])
        .arg(&rec)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"place 0,3\nend \xff\xfe\nend\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 2, column 5: the line is not UTF-8 text"), "{err}");
    // The first command is in the record.
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["entries"].as_array().map(Vec::len), Some(1));
}

/// The lines printed for the first decision of `out` at which `pick` is typed, up to the `>`
/// prompt before it.
fn prompt_before<'a>(out: &'a str, typed: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == format!("> {typed}"))
        .unwrap_or_else(|| panic!("'{typed}' never typed:\n{out}"));
    let start = lines[..at]
        .iter()
        .rposition(|l| l.starts_with("> ") || l.starts_with("--"))
        .map_or(0, |i| i + 1);
    lines[start..at].to_vec()
}

#[test]
fn the_prompt_folds_variants_hides_attacks_on_allies_and_asks_last() {
    // The Scarred bandit's first turn in the Ingenuity ambush: its only ally in reach is the
    // archer, whom it may legally attack.
    let out = play(
        "examples/ingenuity/ambush.toml",
        1,
        b"pick bandit-1\nchoices json\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let so = text(&out.stdout);
    let shown = prompt_before(&so, "choices json");
    // The question comes last, just above the `>`.
    assert!(
        shown.last().unwrap().starts_with("[gm] Scarred bandit's turn"),
        "{shown:#?}"
    );
    let list = shown.join("\n");
    // One line for the commanded attacks with their optional phrase; no attack on the ally.
    assert!(
        list.contains("command archer attack <hild|orrin|marta> [prof none]"),
        "{list}"
    );
    assert!(!list.contains("attack archer"), "{list}");
    // The count says what the ruleset left out.
    assert!(
        list.contains("more rarely meant, such as attacks on allies or waking a downed enemy"),
        "{list}"
    );
    // The legal list still holds every command.
    let all = choices_json(&so).pop().unwrap();
    assert!(all.contains(&"attack archer".to_string()), "{all:?}");
    assert!(
        all.contains(&"command archer attack hild prof none".to_string()),
        "{all:?}"
    );
    // Each line fits an 80-column terminal.
    for l in &shown {
        assert!(l.chars().count() <= 80 || !l.contains(" | "), "{l}");
    }
}

#[test]
fn play_with_ai_seats_plays_them_and_stops_honestly() {
    let dir = std::env::temp_dir().join(format!("fray-prompt-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("ai.json");
    // Every seat to the AI: the fight plays out with no input, and the record replays.
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args([
            "play",
            "examples/ingenuity/ambush.toml",
            "--seed",
            "3",
            "--ai",
            "all",
            "--record",
        ])
        .arg(&rec)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let so = text(&out.stdout);
    assert!(so.contains("[gm] (AI) pick "), "{so}");
    assert!(so.contains("Result: "), "{so}");
    let replay = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("replay")
        .arg(&rec)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    // `all-but SEAT` (the encounter file after it), and `ai` at the prompt for one decision;
    // a session that keeps nothing says so when it stops.
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root())
        .args([
            "play",
            "--ai",
            "all-but",
            "players",
            "examples/ingenuity/ambush.toml",
            "--seed",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"ai\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let so = text(&out.stdout);
    assert!(so.contains("[gm] (AI) pick "), "{so}");
    assert!(
        so.contains("[players] (AI) "),
        "the `ai` word answers once for the players: {so}"
    );
    assert!(so.contains("nothing was kept"), "{so}");
    assert!(!so.contains("the record holds"), "{so}");
    // A seat the encounter does not have is bad input naming the seats it has.
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(["play", "examples/ingenuity/ambush.toml", "--ai", "goblins"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no seat 'goblins' (its seats: gm, players"),
        "{}",
        text(&out.stderr)
    );
}
