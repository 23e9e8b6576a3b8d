//! Saved games at the command line: `play --save`, `resume`, `games`, `log`, `export`,
//! `import`, `sim --from DB:GAME`, undo and redo kept as steps, the "in use" lease, files that
//! are not fray databases (exit 2, left untouched), and the stored database of every schema
//! version, which every later fray must open.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-saves-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `fray ARGS...` started with its output captured and its input `stdin`.
fn spawn(args: &[&str], stdin: Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `fray ARGS...` fed `input`.
fn fray(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args, Stdio::piped());
    // A process that refuses its arguments may end before reading its input.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const DUEL: &str = "examples/skeleton/duel.toml";
/// The first commands of the duel with seed 7.
const OPENING: &str = "move 4,0\nend\nmove 2,3\nend\n";

#[test]
fn a_saved_game_resumes_with_the_same_dice_and_exports_the_uninterrupted_record() {
    let d = dir("resume");
    let db = d.join("g.db");
    let whole = d.join("whole.json");
    // The reference: the opening and the rest in one sitting.
    let rest = "end\nend\nend\nend\n";
    let o = fray(
        &["play", DUEL, "--seed", "7", "--record", s(&whole)],
        &format!("{OPENING}{rest}"),
    );
    assert!(o.status.success(), "{}", err(&o));
    // The same in two sittings: the opening saved, then resumed.
    let o = fray(&["play", DUEL, "--seed", "7", "--save", s(&db)], OPENING);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("as game #1"), "{}", out(&o));
    let o = fray(&["resume", s(&db)], rest);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("(resumed game #1 of"), "{}", out(&o));
    let e = fray(&["export", s(&db), "1"], "");
    assert!(e.status.success(), "{}", err(&e));
    assert_eq!(out(&e).trim_end(), std::fs::read_to_string(&whole).unwrap().trim_end());
    // The export replays.
    let exported = d.join("exported.json");
    std::fs::write(&exported, out(&e)).unwrap();
    assert!(fray(&["replay", s(&exported)], "").status.success());
    // games lists it with its position; log shows each step as typed.
    let g = fray(&["games", s(&db)], "");
    assert!(g.status.success());
    assert!(
        out(&g).starts_with("#1 skeleton \"Duel in the well yard\""),
        "{}",
        out(&g)
    );
    assert!(out(&g).contains("8 steps"), "{}", out(&g));
    let l = fray(&["log", s(&db), "1"], "");
    assert!(l.status.success(), "{}", err(&l));
    assert!(
        out(&l).contains("· [east] move 4,0\nMaren Holt moves to 4,0\n"),
        "{}",
        out(&l)
    );
    assert!(out(&l).contains("-- now: [east] Round 4"), "{}", out(&l));
}

#[test]
fn games_names_the_winning_side_of_a_finished_game_by_its_id() {
    let d = dir("finished");
    let db = d.join("g.db");
    let o = fray(&["play", DUEL, "--seed", "7", "--ai", "all", "--save", s(&db)], "");
    assert!(o.status.success(), "{}", err(&o));
    let g = out(&fray(&["games", s(&db)], ""));
    assert!(g.contains("east won)") || g.contains("west won)"), "{g}");
}

#[test]
fn undo_and_redo_are_kept_as_steps_and_survive_a_resume() {
    let d = dir("undo");
    let db = d.join("g.db");
    let o = fray(
        &["play", DUEL, "--seed", "7", "--save", s(&db)],
        "move 4,0\nend\nundo\nundo\nredo\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("(the command undone last was brought back)"));
    // After a resume, the second undone command can still be brought back.
    let o = fray(&["resume", s(&db), "1"], "redo\nredo\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("(the command undone last was brought back)\nTobin Reed's turn"),
        "{text}"
    );
    assert!(text.contains("(nothing to redo)"), "{text}");
    let l = out(&fray(&["log", s(&db), "1"], ""));
    assert!(l.contains("undo: takes back step 2 (end)"), "{l}");
    assert!(l.contains("undo: takes back step 1 (move 4,0)"), "{l}");
    assert!(l.contains("redo: brings back step 1 (move 4,0)"), "{l}");
    assert!(l.contains("redo: brings back step 2 (end)"), "{l}");
    // A new command after an undo ends what could be redone.
    let o = fray(&["resume", s(&db), "1"], "undo\nend\nredo\n");
    assert!(out(&o).contains("(nothing to redo)"), "{}", out(&o));
    // Nothing was deleted: 5 steps, 1 more (the second redo had nothing to bring back), then
    // the undo and the command (the last redo again had nothing).
    assert!(out(&fray(&["games", s(&db)], "")).contains("8 steps"));
}

#[test]
fn typed_dice_resume_with_dice_given_again() {
    let d = dir("typed");
    let db = d.join("g.db");
    let o = fray(&["play", DUEL, "--dice", "5,2", "--save", s(&db)], "move 4,0\n");
    assert!(o.status.success(), "{}", err(&o));
    let o = fray(&["resume", s(&db)], "end\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("give --dice manual or --dice FACES"), "{}", err(&o));
    let o = fray(&["resume", s(&db), "--dice", "3"], "end\n");
    assert!(o.status.success(), "{}", err(&o));
    let seeded = d.join("s.db");
    fray(&["play", DUEL, "--seed", "3", "--save", s(&seeded)], "");
    let o = fray(&["resume", s(&seeded), "--dice", "3"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("seeded"), "{}", err(&o));
}

#[test]
fn a_start_of_typed_dice_is_saved_before_the_first_command_and_an_unfinished_one_says_what_was_typed() {
    let d = dir("typed-start");
    let db = d.join("g.db");
    // The Thrum duel's start asks 2d6 of Initiative for each of two combatants; the input ends
    // once they are typed, before any command.
    let o = fray(
        &["play", THRUM_DUEL, "--dice", "manual", "--save", s(&db)],
        "3 4\n2 5\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    // The game is saved with its start, the faces typed for it included: nothing is lost.
    let g = out(&fray(&["games", s(&db)], ""));
    assert!(g.contains("#1 thrum") && g.contains("0 steps"), "{g}");
    let e = out(&fray(&["export", s(&db), "1"], ""));
    let record: serde_json::Value = serde_json::from_str(&e).unwrap();
    assert_eq!(record["start"]["dice"], serde_json::json!([3, 4, 2, 5]));
    // It resumes where it stopped, with the dice given again.
    let o = fray(&["resume", s(&db), "1", "--dice", "manual"], "place 0,2\n");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&fray(&["games", s(&db)], "")).contains("1 steps"));
    // The "(saved ...)" note comes after the start's log, which is printed once the start is
    // on disk.
    let text = out(&o);
    assert!(text.contains("(resumed game #1"), "{text}");
    // A start the input ends in the middle of is no game: nothing is saved, and the error says
    // the faces typed so far, so the table can give them again.
    let db2 = d.join("h.db");
    let o = fray(&["play", THRUM_DUEL, "--dice", "manual", "--save", s(&db2)], "3 4\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("the start did not finish, so no game was saved (a --record file keeps what was typed); the faces drawn for it so far, in order: 3 4"),
        "{}",
        err(&o)
    );
    assert!(out(&fray(&["games", s(&db2)], "")).contains("(no games)"));
}

#[test]
fn import_export_and_sim_from_a_saved_game() {
    let d = dir("import");
    let db = d.join("g.db");
    let rec = d.join("r.json");
    let o = fray(&["play", DUEL, "--seed", "7", "--record", s(&rec)], OPENING);
    assert!(o.status.success());
    let o = fray(&["import", s(&db), s(&rec)], "");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("imported as game #1 (4 commands"), "{}", out(&o));
    let e = fray(&["export", s(&db), "1"], "");
    assert_eq!(out(&e).trim_end(), std::fs::read_to_string(&rec).unwrap().trim_end());
    // An imported game is held by nobody and can be resumed.
    assert!(fray(&["resume", s(&db), "1"], "end\n").status.success());
    // sim --from DB:GAME is sim --from the record.
    let e = fray(&["export", s(&db), "1"], "");
    std::fs::write(&rec, out(&e)).unwrap();
    let a = fray(&["sim", "--from", s(&rec), "-n", "40", "--jobs", "1"], "");
    let from = format!("{}:1", s(&db));
    let b = fray(&["sim", "--from", &from, "-n", "40", "--jobs", "1"], "");
    assert!(a.status.success() && b.status.success(), "{}", err(&b));
    assert_eq!(out(&a), out(&b));
    // Bad game numbers and records are input errors.
    for args in [
        vec!["export", s(&db), "7"],
        vec!["log", s(&db), "x"],
        vec!["resume", s(&db), "#9"],
        vec!["sim", "--from", "nowhere.db:1"],
    ] {
        let o = fray(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(!err(&o).contains("panicked"), "{}", err(&o));
    }
    let bad = d.join("bad.json");
    std::fs::write(&bad, "{\"ruleset\": \"skeleton\"}").unwrap();
    let o = fray(&["import", s(&db), s(&bad)], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("bad.json"), "{}", err(&o));
}

#[test]
fn a_game_in_play_is_in_use_for_a_second_process_until_its_holder_dies() {
    let d = dir("lease");
    let db = d.join("g.db");
    let mut first = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(["play", DUEL, "--seed", "7", "--save", s(&db)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = first.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(first.stdout.take().unwrap());
    writeln!(stdin, "move 4,0").unwrap();
    // Wait until the command is saved (its log line comes after the commit).
    loop {
        let mut l = String::new();
        assert!(stdout.read_line(&mut l).unwrap() > 0);
        if l.starts_with("Maren Holt moves") {
            break;
        }
    }
    let o = fray(&["resume", s(&db), "1"], "end\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("game 1 is in use: process"), "{}", err(&o));
    assert!(out(&fray(&["games", s(&db)], "")).contains("in use by process"));
    // Reading is never refused.
    assert!(fray(&["log", s(&db), "1"], "").status.success());
    // Killed, its lease is taken over at once.
    first.kill().unwrap();
    first.wait().unwrap();
    let o = fray(&["resume", s(&db), "1"], "end\n");
    assert!(o.status.success(), "{}", err(&o));
    assert!(!out(&fray(&["games", s(&db)], "")).contains("in use"));
}

/// Every command that takes a database, given `db`.
fn db_commands(db: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        v(&["games", db]),
        v(&["log", db, "1"]),
        v(&["export", db, "1"]),
        v(&["resume", db]),
        v(&["play", DUEL, "--seed", "7", "--save", db]),
        v(&[
            "import",
            db,
            "crates/cli/tests/fixtures/records/skeleton-duel-seed-7.json",
        ]),
        v(&["sim", "--from", &format!("{db}:1"), "-n", "5"]),
    ]
}

fn refused_untouched(db: &Path, why: &str) {
    let before = std::fs::read(db).unwrap();
    for args in db_commands(s(db)) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = fray(&args, "end\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}\n{}", err(&o));
        assert!(err(&o).contains(why), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("left as it is"), "{args:?}: {}", err(&o));
        assert!(!err(&o).contains("panicked"));
        assert_eq!(std::fs::read(db).unwrap(), before, "{args:?} changed the file");
    }
}

#[test]
fn foreign_newer_and_damaged_files_are_refused_with_exit_2_and_never_touched() {
    let d = dir("refuse");
    let text = d.join("notes.db");
    std::fs::write(&text, "# my campaign notes\n".repeat(50)).unwrap();
    refused_untouched(&text, "not a fray saved-games database");

    // A real game database, then made newer and then damaged.
    let db = d.join("g.db");
    assert!(
        fray(&["play", DUEL, "--seed", "7", "--save", s(&db)], OPENING)
            .status
            .success()
    );
    let newer = d.join("newer.db");
    std::fs::copy(&db, &newer).unwrap();
    let mut bytes = std::fs::read(&newer).unwrap();
    bytes[60..64].copy_from_slice(&99i32.to_be_bytes());
    std::fs::write(&newer, &bytes).unwrap();
    refused_untouched(&newer, "schema version 99");

    let damaged = d.join("damaged.db");
    let mut bytes = std::fs::read(&db).unwrap();
    let n = bytes.len();
    for (i, b) in bytes[4096..n].iter_mut().enumerate() {
        *b = (i % 253) as u8 ^ 0x5a;
    }
    std::fs::write(&damaged, &bytes).unwrap();
    refused_untouched(&damaged, "damaged");

    // Another program's SQLite database: its header has another application id.
    let other = d.join("other.db");
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[68..72].copy_from_slice(&0x1234_5678i32.to_be_bytes());
    std::fs::write(&other, &bytes).unwrap();
    refused_untouched(&other, "another program");
}

/// The stored database of each schema version (with the record of its game): this fray opens
/// it, migrates a copy to its own schema, exports the same record and plays on.
#[test]
fn the_stored_database_of_every_schema_version_opens_and_resumes() {
    let fixtures = root().join("crates/cli/tests/fixtures/saves");
    let mut versions = 0;
    for v in 1..=fray_store::SCHEMA_VERSION {
        let stored = fixtures.join(format!("schema-{v}.db"));
        let record = fixtures.join(format!("schema-{v}.record.json"));
        assert!(
            stored.is_file(),
            "no fixture for schema version {v}: {}",
            stored.display()
        );
        let d = dir(&format!("fixture-{v}"));
        let db = d.join("copy.db");
        std::fs::copy(&stored, &db).unwrap();
        let e = fray(&["export", s(&db), "1"], "");
        assert!(e.status.success(), "schema {v}: {}", err(&e));
        let stored = std::fs::read_to_string(&record).unwrap();
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(&out(&e)).unwrap(),
            serde_json::from_str(&stored).unwrap(),
        );
        if a["version"] == b["version"] {
            assert_eq!(out(&e).trim_end(), stored.trim_end(), "schema {v}");
        } else {
            // A game saved under an earlier version of its rules that this one still replays
            // (Thrum 0.2.0, schema 2) is exported as this version's record: the same game,
            // commands and faces, with the events the current rules produce. The engine's
            // tests check those events; here, that nothing else changed and that it replays.
            let strip = |mut r: serde_json::Value| {
                r["version"] = serde_json::Value::Null;
                r["start"]["events"] = serde_json::Value::Null;
                for x in r["entries"].as_array_mut().unwrap() {
                    x["events"] = serde_json::Value::Null;
                }
                r
            };
            assert_eq!(strip(a), strip(b), "schema {v}");
            let copy = d.join("export.json");
            std::fs::write(&copy, out(&e)).unwrap();
            let o = fray(&["replay", s(&copy)], "");
            assert!(o.status.success(), "schema {v}: {}", err(&o));
        }
        let store = fray_store::Store::open(&db, false).unwrap();
        assert_eq!(store.schema_version().unwrap(), i64::from(fray_store::SCHEMA_VERSION));
        drop(store);
        let o = fray(&["resume", s(&db), "1"], "end\n");
        assert!(o.status.success(), "schema {v}: {}", err(&o));
        versions += 1;
    }
    assert_eq!(versions, fray_store::SCHEMA_VERSION);
}

/// `fray play FILE --seed SEED --save DB --campaign CAMPAIGN` fed `input`.
fn campaign_game(file: &str, seed: &str, db: &Path, campaign: &str, input: &str) -> Output {
    let args = ["play", file, "--seed", seed, "--save", s(db), "--campaign", campaign];
    fray(&args, input)
}

const THRUM_DUEL: &str = "examples/thrum/duel.toml";

/// A new game of `campaign` of the Thrum duel that shows the tracker and ends.
fn sefa_in_new_game(db: &Path, campaign: &str) -> Output {
    campaign_game(THRUM_DUEL, "7", db, campaign, "show gm\ngm end heroes\n")
}

/// Sefa's line of the tracker.
fn sefa_line(text: &str) -> &str {
    text.lines()
        .find(|l| l.trim_start().starts_with("Sefa Min ") && l.contains("Fatigue "))
        .unwrap()
}

#[test]
fn a_campaign_carries_lasting_state_into_the_next_encounter_until_a_rest() {
    let d = dir("campaign");
    let db = d.join("c.db");
    // Thrum: lost Tolerance and Wounds last (THR-R180, THR-R185).
    let input = "gm set sefa fatigue-tolerance -1\ngm set sefa wounds +1\ngm end heroes\n";
    let o = campaign_game(THRUM_DUEL, "7", &db, "road", input);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("(the campaign roster keeps what lasts of 1 character)"),
        "{}",
        out(&o)
    );
    let r = out(&fray(&["roster", s(&db)], ""));
    assert!(
        r.contains("Sefa Min (sefa): fatigue-tolerance = 2, stress-tolerance = 2, wounds = 1, after game #1"),
        "{r}"
    );
    assert!(r.contains("rest `downtime`"), "{r}");
    let o = sefa_in_new_game(&db, "road");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("(campaign road: Sefa Min: fatigue-tolerance = 2, stress-tolerance = 2, wounds = 1)"),
        "{text}"
    );
    let line = sefa_line(&text);
    assert!(line.contains("Fatigue 0/2") && line.contains("Wounds 1"), "{line}");
    // Only a rest the ruleset defines restores it.
    let o = fray(&["rest", s(&db), "road", "nap"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("its rests: downtime"), "{}", err(&o));
    let o = fray(&["rest", s(&db), "road", "downtime"], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&sefa_in_new_game(&db, "road"));
    let line = sefa_line(&text);
    assert!(line.contains("Fatigue 0/3") && line.contains("Wounds 0"), "{line}");
    assert!(out(&fray(&["roster", s(&db), "road"], "")).contains("rest `downtime`: Sefa Min"));

    // A PC at Fatigue Tolerance 0 is barred until Downtime: the encounter is refused at the
    // line of the character, saying where the state came from.
    let input = "gm set sefa fatigue-tolerance =0\ngm end heroes\n";
    let o = campaign_game(THRUM_DUEL, "7", &db, "road", input);
    assert!(o.status.success(), "{}", err(&o));
    let o = sefa_in_new_game(&db, "road");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("barred from combat until Downtime"), "{}", err(&o));
    assert!(
        err(&o).contains("[with the lasting state of campaign road"),
        "{}",
        err(&o)
    );

    // Ingenuity: current health and the death difficulty last.
    let input = "gm set hild health -3\ngm end caravan\n";
    let o = campaign_game("examples/ingenuity/ambush.toml", "3", &db, "caravan", input);
    assert!(o.status.success(), "{}", err(&o));
    let r = out(&fray(&["roster", s(&db), "caravan"], ""));
    assert!(r.contains("Hild Brannock (hild): now = { health = 11,"), "{r}");
    // A campaign is of one ruleset.
    let o = sefa_in_new_game(&db, "caravan");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("'caravan' is an ingenuity campaign, not a thrum one"),
        "{}",
        err(&o)
    );
    // --campaign needs --save.
    let o = fray(&["play", DUEL, "--campaign", "x"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn processes_playing_games_of_one_database_at_once_leave_every_game_whole() {
    let d = dir("together");
    let db = d.join("g.db");
    let whole = d.join("whole.json");
    let script = format!("{OPENING}end\nend\nend\nend\nmove 5,0\nend\nend\n");
    let o = fray(&["play", DUEL, "--seed", "7", "--record", s(&whole)], &script);
    assert!(o.status.success(), "{}", err(&o));
    let children: Vec<_> = (0..4)
        .map(|_| {
            let mut c = Command::new(env!("CARGO_BIN_EXE_fray"))
                .current_dir(root())
                .args(["play", DUEL, "--seed", "7", "--save", s(&db)])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            c.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
            c
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", err(&o));
    }
    let reference = std::fs::read_to_string(&whole).unwrap();
    for g in 1..=4 {
        let e = fray(&["export", s(&db), &g.to_string()], "");
        assert!(e.status.success(), "game {g}: {}", err(&e));
        assert_eq!(out(&e).trim_end(), reference.trim_end(), "game {g}");
    }
}

/// The line of `show gm`'s tracker that starts with `name`.
fn tracker_line<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| {
            l.trim_start()
                .trim_start_matches("> ")
                .starts_with(&format!("{name} ("))
        })
        .unwrap_or_else(|| panic!("no line for {name} in\n{text}"))
}

/// The two numbers of "`what` A/B" in `line`.
fn gauge(line: &str, what: &str) -> (i32, i32) {
    let at = line.find(what).unwrap_or_else(|| panic!("no {what} in {line}")) + what.len();
    let rest = line[at..].trim_start();
    let nums: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '/' || *c == '-')
        .collect();
    let (a, b) = nums.split_once('/').unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

const HE_DUEL: &str = "examples/hallowed-earth/duel.toml";

#[test]
fn hal_h19_a_hallowed_earth_campaign_carries_stress_lost_wound_points_and_mana_until_the_rests() {
    let d = dir("campaign-he");
    let db = d.join("c.db");
    let show = "show gm\ngm end edric\n";
    let fresh = campaign_game(HE_DUEL, "7", &db, "carrow", show);
    assert!(fresh.status.success(), "{}", err(&fresh));
    let (_, stress_max) = gauge(tracker_line(&out(&fresh), "Sir Edric"), "Stress");
    // A fight of the campaign to its end: Sir Edric loses 5 Stress and 4 Wound Points.
    let o = campaign_game(
        HE_DUEL,
        "7",
        &db,
        "carrow",
        "gm set edric stress -5\ngm set edric wp -4\ngm end edric\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("(the campaign roster keeps what lasts of 2 characters)"),
        "{}",
        out(&o)
    );
    let r = out(&fray(&["roster", s(&db), "carrow"], ""));
    assert!(
        r.contains("Sir Edric (edric): stress-lost = 5, wp = 10, mana = 0, wounds = [], after game #2"),
        "{r}"
    );
    for rest in ["rest", "recovery", "mending"] {
        assert!(r.contains(&format!("rest `{rest}`")), "{r}");
    }
    // The next fight starts where that one left: the same Stress rolled (the same seed), 5 of
    // it lost; 10 of 14 Wound Points.
    let o = campaign_game(HE_DUEL, "7", &db, "carrow", show);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.contains("(campaign carrow: Sir Edric: stress-lost = 5, wp = 10, mana = 0, wounds = []"),
        "{text}"
    );
    assert!(text.contains("Sir Edric: Stress "), "{text}");
    let line = tracker_line(&text, "Sir Edric");
    assert_eq!(gauge(line, "Stress"), (stress_max - 5, stress_max), "{line}");
    assert_eq!(gauge(line, "Wound Points"), (10, 14), "{line}");
    // A short rest gives the Stress back, not the Wound Points.
    assert!(fray(&["rest", s(&db), "carrow", "rest", "edric"], "").status.success());
    let line = tracker_line(&out(&campaign_game(HE_DUEL, "7", &db, "carrow", show)), "Sir Edric").to_string();
    assert_eq!(gauge(&line, "Stress"), (stress_max, stress_max), "{line}");
    assert_eq!(gauge(&line, "Wound Points"), (10, 14), "{line}");
    // Recovery does.
    assert!(fray(&["rest", s(&db), "carrow", "recovery"], "").status.success());
    let line = tracker_line(&out(&campaign_game(HE_DUEL, "7", &db, "carrow", show)), "Sir Edric").to_string();
    assert_eq!(gauge(&line, "Wound Points"), (14, 14), "{line}");
    // A creature that dies stays dead (HAL-R31): the next encounter refuses it, whatever rest.
    let o = campaign_game(HE_DUEL, "7", &db, "carrow", "gm set edric wp =-14\ngm end ysolt\n");
    assert!(o.status.success(), "{}", err(&o));
    assert!(fray(&["rest", s(&db), "carrow", "recovery"], "").status.success());
    let o = campaign_game(HE_DUEL, "7", &db, "carrow", show);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("combatant 'edric' is dead (HAL-R31)"), "{}", err(&o));
    assert!(
        err(&o).contains("[with the lasting state of campaign carrow"),
        "{}",
        err(&o)
    );
    // Taken out of the roster, the fallen knight's id is free again: the next encounter starts
    // it from the file (a new character of that id). An unknown id or no id is refused, exit 2.
    let o = fray(&["retire", s(&db), "carrow", "nobody"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("no character 'nobody' in the campaign's roster"),
        "{}",
        err(&o)
    );
    assert_eq!(fray(&["retire", s(&db), "carrow"], "").status.code(), Some(2));
    let o = fray(&["retire", s(&db), "carrow", "edric"], "");
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("(carrow: out of the roster: Sir Edric;"),
        "{}",
        out(&o)
    );
    let r = out(&fray(&["roster", s(&db), "carrow"], ""));
    assert!(
        !r.contains("Sir Edric (edric):") && r.contains("out of the roster: Sir Edric"),
        "{r}"
    );
    let o = campaign_game(HE_DUEL, "7", &db, "carrow", show);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(gauge(tracker_line(&out(&o), "Sir Edric"), "Wound Points"), (14, 14));
}

#[test]
fn ein_r34_an_einfelst_campaign_carries_harm_until_a_rest_or_treatment() {
    let d = dir("campaign-ein");
    let db = d.join("c.db");
    let ford = "examples/einfelst/ford.toml";
    let input = "gm set brenna physical-lesser =1\ngm set brenna mental-moderate =1\ngm end travellers\n";
    let o = campaign_game(ford, "3", &db, "ford", input);
    assert!(o.status.success(), "{}", err(&o));
    let r = out(&fray(&["roster", s(&db), "ford"], ""));
    assert!(
        r.contains("physical-lesser = 1, physical-moderate = 0, physical-severe = 0, mental-lesser = 0, mental-moderate = 1, mental-severe = 0"),
        "{r}"
    );
    // Only the player characters: the wolves leave nothing.
    assert!(!r.contains("wolf"), "{r}");
    let show = "show gm\ngm end travellers\n";
    let line = |o: &Output| {
        out(o)
            .lines()
            .find(|l| l.contains("Brenna") && l.contains(" card ") && l.contains("Physical"))
            .unwrap_or_default()
            .to_string()
    };
    let o = campaign_game(ford, "3", &db, "ford", show);
    assert!(o.status.success(), "{}", err(&o));
    assert!(line(&o).contains("Physical 1/0/0 Mental 0/1/0"), "{}", line(&o));
    // A night's rest clears lesser Harm; the moderate mark stays until treatment.
    assert!(fray(&["rest", s(&db), "ford", "rest"], "").status.success());
    let o = campaign_game(ford, "3", &db, "ford", show);
    assert!(line(&o).contains("Physical 0/0/0 Mental 0/1/0"), "{}", line(&o));
    assert!(fray(&["rest", s(&db), "ford", "treatment"], "").status.success());
    let o = campaign_game(ford, "3", &db, "ford", show);
    assert!(line(&o).contains("Physical 0/0/0 Mental 0/0/0"), "{}", line(&o));
    // A severe mark keeps the character out of the next fight (EIN-H2) until treatment.
    let o = campaign_game(
        ford,
        "3",
        &db,
        "ford",
        "gm set brenna physical-severe =1\ngm end travellers\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let o = campaign_game(ford, "3", &db, "ford", show);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("physical-severe: a severe mark incapacitates (EIN-H2"),
        "{}",
        err(&o)
    );
}

#[test]
fn mur_r48_a_murdham_campaign_carries_health_and_lowered_abilities_until_the_rests() {
    let d = dir("campaign-mur");
    let db = d.join("c.db");
    let cross = "examples/murdham/crossroads.toml";
    let o = campaign_game(
        cross,
        "2",
        &db,
        "road",
        "gm set agnes str -2\ngm set agnes health -3\ngm end travellers\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let r = out(&fray(&["roster", s(&db), "road"], ""));
    assert!(r.contains("lowered = { str = 2 }"), "{r}");
    for rest in ["rest", "full-rest", "refit"] {
        assert!(r.contains(&format!("rest `{rest}`")), "{r}");
    }
    let agnes = |db: &Path| {
        let o = campaign_game(cross, "2", db, "road", "show gm\ngm end travellers\n");
        assert!(o.status.success(), "{}", err(&o));
        let text = out(&o);
        text.lines()
            .find(|l| l.contains("Agnes") && l.contains(" STR ") && l.contains("health"))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    let before = agnes(&db);
    // A day rest heals; the lowered STR (and so the maximum health) stays until a full rest.
    assert!(fray(&["rest", s(&db), "road", "rest"], "").status.success());
    let rested = agnes(&db);
    assert!(fray(&["rest", s(&db), "road", "full-rest"], "").status.success());
    let full = agnes(&db);
    let health = |l: &str| gauge(l, "health");
    assert_eq!(health(&rested).0, health(&rested).1, "{rested}");
    assert_eq!(health(&rested).1, health(&full).1 - 2, "{rested} / {full}");
    assert!(health(&before).0 < health(&before).1, "{before}");
}

#[test]
fn a_thrum_game_saved_under_rules_0_2_0_resumes_and_goes_on_as_0_3_0() {
    // The first six commands of the stored Thrum 0.2.0 fight (whole-frame bookkeeping events):
    // Biffer has just attacked and Sefa Min's defence is asked.
    let d = dir("thrum-0.2.0");
    let (db, rec) = (d.join("g.db"), d.join("r.json"));
    let fixture = root().join("crates/cli/tests/fixtures/records/thrum-duel-seed-7-v0.2.0.json");
    let mut old: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    assert_eq!(old["version"], "0.2.0");
    old["entries"].as_array_mut().unwrap().truncate(6);
    std::fs::write(&rec, old.to_string()).unwrap();
    let o = fray(&["import", s(&db), s(&rec)], "");
    assert!(o.status.success(), "{}", err(&o));
    // Resumed twice, as the same fight goes on.
    let o = fray(&["resume", s(&db), "1"], "defend evasion\nend\n");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Sefa Min defends with Evasion"), "{}", out(&o));
    let o = fray(&["resume", s(&db), "1"], "move 3,0\n");
    assert!(o.status.success(), "{}", err(&o));
    // The exported record is the current version's, and replays.
    let e = fray(&["export", s(&db), "1"], "");
    let now: serde_json::Value = serde_json::from_str(&out(&e)).unwrap();
    assert_eq!(now["version"], "0.3.0");
    assert_eq!(now["entries"].as_array().unwrap().len(), 9);
    std::fs::write(&rec, out(&e)).unwrap();
    let o = fray(&["replay", s(&rec)], "");
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn a_command_undone_under_thrum_rules_0_2_0_is_redone_after_a_resume() {
    // Saved by the fray of Thrum rules 0.2.0: the duel at seed 3, Biffer's attack defended
    // with Evasion and that defence undone. The undone command keeps 0.2.0's events in the
    // database; the resumed game is 0.3.0's, and redo must still bring the command back.
    let d = dir("undone-0.2.0");
    let db = d.join("g.db");
    std::fs::copy(
        root().join("crates/cli/tests/fixtures/saves/thrum-0.2.0-undone.db"),
        &db,
    )
    .unwrap();
    let o = fray(&["resume", s(&db), "1"], "redo\n");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Sefa Min defends with Evasion"), "{}", out(&o));
    let o = fray(&["resume", s(&db), "1"], "end\n");
    assert!(o.status.success(), "{}", err(&o));
}

/// `fray ARGS...` with no input, killed (and the test failed) if it has not ended in 30 s.
fn fray_within_30s(args: &[&str]) -> Output {
    let mut child = spawn(args, Stdio::null());
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            panic!("fray {args:?} did not end within 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_named_pipe_folder_socket_or_device_given_as_the_database_is_refused_without_opening_it() {
    let d = dir("special");
    let fifo = d.join("f.db");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let folder = d.join("folder.db");
    std::fs::create_dir(&folder).unwrap();
    let socket = d.join("s.db");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let special = |what: &str| format!("is {what}, not a regular file");
    let cases = [
        (fifo.as_path(), special("a named pipe")),
        (folder.as_path(), "a folder, not a saved-games database".to_string()),
        (socket.as_path(), special("a socket")),
        (Path::new("/dev/null"), special("a device")),
    ];
    for (path, what) in cases {
        for args in db_commands(s(path)) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = fray_within_30s(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}\n{}", err(&o));
            let e = err(&o);
            assert!(e.contains(what.as_str()), "{args:?}: {e}");
            assert!(!e.contains("panicked"), "{args:?}: {e}");
        }
    }
    // Nothing was made in place of the special files.
    assert!(folder.is_dir() && std::fs::read_dir(&folder).unwrap().next().is_none());
}

/// A folder `name` holding `g.db`, the duel's opening saved with seed 7.
fn saved_duel(name: &str) -> (PathBuf, PathBuf) {
    let d = dir(name);
    let db = d.join("g.db");
    assert!(
        fray(&["play", DUEL, "--seed", "7", "--save", s(&db)], OPENING)
            .status
            .success()
    );
    (d, db)
}

/// A copy of `db` in `d` with the SQL `edit` made to it, as someone outside fray would.
fn edited_copy(d: &Path, db: &Path, edit: &str) -> PathBuf {
    let copy = d.join("edited.db");
    std::fs::copy(db, &copy).unwrap();
    let conn = rusqlite::Connection::open(&copy).unwrap();
    conn.execute(edit, []).unwrap();
    copy
}

#[test]
fn a_games_row_edited_to_disagree_with_its_record_is_refused_and_resume_leaves_the_file_as_it_was() {
    let (d, db) = saved_duel("row");
    let edits = [
        (
            "UPDATE games SET seed = 8",
            "its row says seed 8 but its record says seed 7",
        ),
        (
            "UPDATE games SET seed = NULL",
            "its row says no seed but its record says seed 7",
        ),
        (
            "UPDATE games SET version = '9.9.9'",
            "its row says version '9.9.9' but its record says version",
        ),
        (
            "UPDATE games SET ruleset = 'nonsense'",
            "its row says ruleset 'nonsense'",
        ),
    ];
    for (edit, says) in edits {
        let copy = edited_copy(&d, &db, edit);
        let before = std::fs::read(&copy).unwrap();
        let game = format!("{}:1", s(&copy));
        for args in [
            vec!["resume", s(&copy), "1"],
            vec!["export", s(&copy), "1"],
            vec!["sim", "--from", game.as_str(), "-n", "5"],
        ] {
            let o = fray(&args, "end\n");
            assert_eq!(o.status.code(), Some(2), "{edit}: {args:?}\n{}", err(&o));
            assert!(err(&o).contains(says), "{edit}: {args:?}: {}", err(&o));
            assert!(!err(&o).contains("panicked"));
        }
        let after = std::fs::read(&copy).unwrap();
        assert!(after == before, "{edit}: a refused game's file changed");
    }
}

#[test]
fn a_saved_game_whose_record_no_longer_replays_is_refused_by_resume_before_it_writes() {
    let (d, db) = saved_duel("replay");
    for edit in [
        "UPDATE steps SET command = '\"nonsense\"' WHERE n = 2",
        "UPDATE steps SET events = '[]' WHERE n = 2",
    ] {
        let copy = edited_copy(&d, &db, edit);
        let before = std::fs::read(&copy).unwrap();
        let o = fray(&["resume", s(&copy), "1"], "end\n");
        assert_eq!(o.status.code(), Some(2), "{edit}\n{}", err(&o));
        assert!(!err(&o).contains("panicked"), "{edit}: {}", err(&o));
        let after = std::fs::read(&copy).unwrap();
        assert!(after == before, "{edit}: resume wrote to a refused game's file");
    }
}
