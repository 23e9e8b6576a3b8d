//! The `fray` command as a user meets it: exit codes, diagnostics, scripted table play,
//! records and replays.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fray() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fray"));
    c.current_dir(root());
    c
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-cli-tests-{}", std::process::id()));
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

#[test]
fn check_accepts_every_example() {
    let mut seen = 0;
    for dir in fray_rulesets::ids() {
        for entry in std::fs::read_dir(root().join("examples").join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let out = fray().arg("check").arg(&path).output().unwrap();
                assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
                assert!(text(&out.stdout).contains(": ok"));
                seen += 1;
            }
        }
    }
    assert!(seen >= 15, "only {seen} examples found");
}

#[test]
fn check_reports_file_line_and_column_and_exits_2() {
    let p = tmp("bad-syntax.toml");
    std::fs::write(&p, "ruleset = \"thrum\"\n[map\nrows = []\n").unwrap();
    let out = fray().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("bad-syntax.toml:2:"), "{err}");

    let p = tmp("bad-ability.toml");
    let src = std::fs::read_to_string(root().join("examples/thrum/duel.toml"))
        .unwrap()
        .replace("\"precision-slash\"", "\"precision-slosh\"");
    std::fs::write(&p, src).unwrap();
    let out = fray().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("unknown ability 'precision-slosh'") && err.contains("bad-ability.toml:"),
        "{err}"
    );

    let p = tmp("bad-ruleset.toml");
    std::fs::write(&p, "ruleset = \"chess\"\n").unwrap();
    let out = fray().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(&format!("unknown ruleset 'chess' (known: {})", known())));

    let out = fray().args(["check", "no/such/file.toml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn garbage_input_never_panics() {
    let p = tmp("garbage.toml");
    for junk in [
        "\u{0}\u{1}\u{2}",
        "ruleset = 3",
        "ruleset = \"thrum\"\n[map]\nrows = [\"\u{1F600}\"]\n",
        "[[[[",
    ] {
        std::fs::write(&p, junk).unwrap();
        let out = fray().arg("check").arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{junk:?}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).contains("panicked"));
    }
}

#[test]
fn run_is_deterministic_for_a_seed_and_writes_a_replayable_record() {
    let rec = tmp("run-record.json");
    let a = fray()
        .args(["run", "examples/thrum/duel.toml", "--seed", "5", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    let b = fray()
        .args(["run", "examples/thrum/duel.toml", "--seed", "5"])
        .output()
        .unwrap();
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let log = text(&a.stdout);
    assert!(log.contains("== Combat ends"), "{log}");
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(r.stdout, a.stdout, "replay prints the same log as run");
}

#[test]
fn run_json_prints_one_event_per_line() {
    let out = fray()
        .args(["run", "examples/thrum/duel.toml", "--seed", "2", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.lines().count() > 10);
    for l in s.lines() {
        serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
}

const OPENING: &str = "\
# Round Zero
place 1,2
stance dodge
end
# Round 1
begin
move 5,2
act precision-slash biffer
defend resilience
end
";

#[test]
fn play_reads_a_script_and_records_every_command() {
    let rec = tmp("play-record.json");
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--seed", "1", "--record"])
        .arg(&rec);
    let out = with_stdin(c, OPENING);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(
        log.contains("[players] Round Zero: Sefa Min picks a starting square"),
        "{log}"
    );
    assert!(log.contains("Sefa Min uses Precision Slash on Biffer"));
    assert!(log.contains("[gm] Biffer is attacked by Sefa Min with Precision Slash: choose a defence"));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(record["entries"].as_array().unwrap().len(), 8);
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("Sefa Min uses Precision Slash on Biffer"));
}

#[test]
fn an_illegal_command_in_a_script_exits_1_with_the_reason_and_keeps_the_record() {
    let rec = tmp("play-illegal.json");
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--seed", "1", "--record"])
        .arg(&rec);
    let out = with_stdin(c, "place 1,2\nstance dodge\nend\nbegin\nmove 7,5\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("line 5") && err.contains("not-enough-movement"), "{err}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(
        record["entries"].as_array().unwrap().len(),
        4,
        "the commands before the bad one are kept"
    );
}

#[test]
fn an_unreadable_command_in_a_script_exits_2() {
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--seed", "1"]);
    let out = with_stdin(c, "place 1,2\nfly to the moon\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("line 2") && text(&out.stderr).contains("unknown command 'fly'"));
}

#[test]
fn typed_dice_are_asked_for_recorded_and_bad_ones_exit_2() {
    // Initiative: Sefa 6+6, the Biffer 1+1.
    let rec = tmp("manual.json");
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--dice", "manual", "--record"])
        .arg(&rec);
    let out = with_stdin(c, "6 6\n1,1\nplace 1,2\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("roll 2d6 for Sefa Min's Initiative"));
    assert!(text(&out.stdout).contains("Sefa Min rolls Initiative: [6, 6] +2 = 14"));
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));

    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--dice", "manual"]);
    let out = with_stdin(c, "6 9\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1: 9 is not on a d6"),
        "{}",
        text(&out.stderr)
    );

    let out = fray()
        .args(["play", "examples/thrum/duel.toml", "--dice", "1,x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn scripted_faces_that_run_out_exit_2_and_keep_what_was_played() {
    let rec = tmp("faces-out.json");
    let mut c = fray();
    // Enough faces for the Initiative rolls only.
    c.args(["play", "examples/thrum/duel.toml", "--dice", "6,6,1,1", "--record"])
        .arg(&rec);
    let out = with_stdin(
        c,
        "place 1,2\nstance dodge\nend\nbegin\nmove 5,2\nact precision-slash biffer\ndefend resilience\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ran out"), "{}", text(&out.stderr));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(record["entries"].as_array().unwrap().len(), 6);
}

#[test]
fn gm_rulings_and_undo_at_the_prompt() {
    let rec = tmp("gm.json");
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--seed", "1", "--record"])
        .arg(&rec);
    let out = with_stdin(
        c,
        "place 1,2\ngm set biffer fatigue =2\ngm status sefa slowed +1\nundo\nshow\ngm end heroes\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains("Biffer's Fatigue Load is now 2"));
    assert!(log.contains("(the last command was taken back)"));
    assert!(log.contains("== Combat ends: The heroes win (gm-ended) =="), "{log}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(record["entries"].as_array().unwrap().len(), 3);
}

#[test]
fn replay_refuses_a_tampered_record() {
    let rec = tmp("tamper.json");
    fray()
        .args(["run", "examples/thrum/duel.toml", "--seed", "3", "--record"])
        .arg(&rec)
        .output()
        .unwrap();
    let s = std::fs::read_to_string(&rec).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
    v["start"]["dice"][0] = serde_json::json!(if v["start"]["dice"][0] == 6 { 5 } else { 6 });
    std::fs::write(&rec, v.to_string()).unwrap();
    let out = fray().arg("replay").arg(&rec).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("replay diverged at start"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn ingenuity_play_asks_the_right_seat_for_intercepts_and_defences_and_replays() {
    let rec = tmp("ing-play.json");
    let mut c = fray();
    c.args(["play", "examples/ingenuity/ambush.toml", "--seed", "1", "--record"])
        .arg(&rec);
    let out = with_stdin(c, "pick archer\nmove 7,6\nattack orrin\npass\npass\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    // The ambush opens with the archer's shot (ING-R69): moving first is refused.
    assert!(err.contains("line 2") && err.contains("started the fight"), "{err}");

    let mut c = fray();
    c.args(["play", "examples/ingenuity/ambush.toml", "--seed", "1", "--record"])
        .arg(&rec);
    let out = with_stdin(c, "pick archer\nattack orrin\npass\npass\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains("[gm] The Mill Road bandits pick who acts next"), "{log}");
    // The allies in reach are asked once, together, whether one intercepts; then the target
    // for its defence.
    assert!(log.contains(
        "[players] Orrin Vey is attacked by Bandit archer: does an ally intercept (1 stamina and the reaction)? \
         Hild Brannock (hild), Marta Kell (marta) may; or pass"
    ));
    assert!(log.contains("intercept <hild|marta> | pass"), "{log}");
    assert_eq!(log.matches("does an ally intercept").count(), 1, "{log}");
    assert!(log.contains("[players] Bandit archer attacks Orrin Vey: defences?"));
    assert!(log.contains("Bandit archer rolls"));
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(record["ruleset"], "ingenuity");
    assert_eq!(record["entries"].as_array().unwrap().len(), 4);
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(text(&r.stdout).contains("Bandit archer rolls"));
}

#[test]
fn play_help_lists_the_rulings_of_the_encounters_ruleset() {
    let mut c = fray();
    c.args(["play", "examples/ingenuity/ambush.toml", "--seed", "1"]);
    let out = with_stdin(c, "help\n");
    let log = text(&out.stdout);
    assert!(log.contains("gm condition <id> <condition> on|off"), "{log}");
    assert!(!log.contains("fatigue"), "{log}");
    let mut c = fray();
    c.args(["play", "examples/thrum/duel.toml", "--seed", "1"]);
    let out = with_stdin(c, "help\n");
    assert!(text(&out.stdout).contains("gm set <id> fatigue"));
}

#[test]
fn ingenuity_bad_options_exit_2_with_the_place() {
    let p = tmp("ing-bad-option.toml");
    let src = std::fs::read_to_string(root().join("examples/ingenuity/ambush.toml")).unwrap();
    std::fs::write(&p, format!("{src}\n[options]\nresuscitate-attribute = \"luck\"\n")).unwrap();
    let out = fray().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("ing-bad-option.toml:") && err.contains("'luck' is not an attribute"),
        "{err}"
    );
    std::fs::write(&p, format!("{src}\n[options]\nmultiple-attack-penalty = \"lots\"\n")).unwrap();
    let out = fray().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("in [options]"), "{}", text(&out.stderr));
}

#[test]
fn odds_ingenuity_prints_exact_numbers_and_refuses_bad_dice() {
    // d8 + d6 + 2 against evasion 10: 58.4375% including luck-die hits.
    let out = fray()
        .args([
            "odds",
            "ingenuity",
            "--attr",
            "d8",
            "--skill",
            "d6",
            "--prof",
            "2",
            "--evasion",
            "10",
            "--damage",
            "4",
            "--deflection",
            "2",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(
        t.contains("hit        58.4375%") && t.contains("critical    5.0000%"),
        "{t}"
    );
    let out = fray()
        .args([
            "odds",
            "ingenuity",
            "--attr",
            "d8",
            "--skill",
            "d6",
            "--evasion",
            "10",
            "--damage",
            "4",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.is_object());
    let out = fray()
        .args([
            "odds",
            "ingenuity",
            "--attr",
            "d7",
            "--skill",
            "d6",
            "--evasion",
            "10",
            "--damage",
            "4",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("'d7'"));
}

// The skeleton ruleset: its one line in the registry is all it takes for check, play, replay,
// run, sim and odds to reach it.

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

/// MUR-R56: under Murdham's chaos of combat a player who has not declared within the time
/// loses the turn; the table submits `timed-out`, and the record keeps it. The script waits
/// past a 1-second limit before its next line.
#[test]
fn murdham_chaos_timer_loses_a_late_turn() {
    let enc = tmp("chaos.toml");
    std::fs::write(
        &enc,
        r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]
[options]
opener = "initiative"
chaos = true
chaos-seconds = 1
[[zone]]
id = "a"
links = ["b"]
[[zone]]
id = "b"
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
[[combatant]]
id = "hero"
side = "pcs"
at = "a"
str = 10
agi = 10
wit = 10
[[combatant]]
id = "brute"
side = "foes"
at = "b"
str = 10
agi = 10
wit = 10
"#,
    )
    .unwrap();
    let rec = tmp("chaos-record.json");
    let mut c = fray();
    c.args(["play"]).arg(&enc).args(["--seed", "1", "--record"]).arg(&rec);
    c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"act hero\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(4000));
    stdin.write_all(b"act brute\nend\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(log.contains("(1 seconds to declare, or the turn is lost)"), "{log}");
    assert!(log.contains("(time is up: timed-out)"), "{log}");
    assert!(log.contains("the turn is lost (timer)"), "{log}");
    let record = std::fs::read_to_string(&rec).unwrap();
    assert!(record.contains("\"command\": \"timed-out\""), "{record}");
    let r = fray().arg("replay").arg(&rec).output().unwrap();
    assert!(r.status.success(), "{}", text(&r.stderr));
}

#[test]
fn the_commands_page_names_every_ruleset_fray_odds_knows() {
    let out = fray().args(["odds", "nothing-of-the-kind"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let known = err
        .split("(known: ")
        .nth(1)
        .and_then(|k| k.split(')').next())
        .unwrap_or_else(|| panic!("{err}"));
    let doc = std::fs::read_to_string(root().join("docs/commands.md")).unwrap();
    let odds = doc.split("## Exact odds").nth(1).unwrap();
    let intro = odds.split("\n\n").nth(1).unwrap();
    for id in known.split(", ").filter(|k| *k != "roll") {
        assert!(
            intro.contains(&format!("`{id}`")),
            "docs/commands.md's Exact odds does not name {id}"
        );
    }
}

#[test]
fn check_reports_every_problem_of_a_file_with_did_you_mean() {
    let path = tmp("typos.toml");
    std::fs::write(
        &path,
        "ruleset = \"thrum\"\ntitle = \"typos\"\nbogus = 3\n\n[options]\ntie-rul = \"defender\"\n\n[map]\nrows = [\". . . .\", \". . . .\"]\n\n[[side]]\nid = \"pcs\"\nkind = \"pc\"\nseat = \"players\"\n\n[[side]]\nid = \"npcs\"\nkind = \"npc\"\nseat = \"gm\"\n\n[[combatant]]\nid = \"korrin\"\nside = \"pcs\"\nat = \"0,0\"\natack = 3\nabilities = [\"shov\"]\n\n[[combatant]]\nid = \"biffer\"\nside = \"npcs\"\nat = \"3,1\"\nresilince = 1\n",
    )
    .unwrap();
    let out = fray().arg("check").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let at = |n: usize| {
        lines
            .iter()
            .position(|l| l.contains(&format!("typos.toml:{n}:")))
            .unwrap_or_else(|| panic!("nothing at line {n}:\n{err}"))
    };
    // Every problem, in the order of the file.
    let order = [at(3), at(6), at(25), at(26), at(32)];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{err}");
    assert!(lines[at(6)].contains("(did you mean `tie-rule`?)"), "{err}");
    assert!(lines[at(25)].contains("(did you mean `attack`?)"), "{err}");
    assert!(
        lines[at(26)].contains("unknown ability 'shov' (did you mean 'shove'?)"),
        "{err}"
    );
    assert!(lines[at(32)].contains("(did you mean `resilience`?)"), "{err}");
}

/// The registry's ruleset ids as the "known: ..." part of a message lists them.
fn known() -> String {
    fray_rulesets::ids().collect::<Vec<_>>().join(", ")
}
