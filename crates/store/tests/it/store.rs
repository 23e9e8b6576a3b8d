//! The store on its own: opening and refusing files, leases, steps and the timeline of undos
//! and redos, and the record rebuilt from the steps.

use fray_store::{Header, Holder, NewGame, SCHEMA_VERSION, Step, StepKind, StepRow, Store, StoreError, Timeline};
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fray-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn holder(pid: u32) -> Holder {
    Holder {
        pid,
        token: format!("t{pid}"),
        host: "here".into(),
    }
}

fn new_game(store: &mut Store, h: &Holder) -> i64 {
    store
        .new_game(
            &NewGame {
                ruleset: "toy",
                version: "1",
                title: "A toy",
                encounter: "toy.toml",
                seed: Some(7),
                head: r#"{"format":1,"ruleset":"toy","seed":7,"entries":[]}"#,
                position: "[gm] start",
                over: false,
            },
            h,
        )
        .unwrap()
}

fn command(n: u32) -> String {
    format!("{{\"go\":{n}}}")
}

fn append_command(store: &mut Store, id: i64, h: &Holder, n: u32) -> Result<i64, StoreError> {
    let c = command(n);
    store.append(
        id,
        h,
        &Step::Command {
            seat: 1,
            text: Some("go"),
            command: &c,
            faces: "[3]",
            events: "[]",
        },
        "[p] next",
        false,
    )
}

/// A stored step as the timeline reads it: step `n`, of `kind`, about step `refers`.
fn step_row(n: i64, kind: StepKind, refers: Option<i64>) -> StepRow {
    StepRow {
        n,
        kind,
        refers,
        seat: Some(1),
        text: None,
        command: Some("{}".into()),
        faces: Some("[]".into()),
        events: Some("[]".into()),
        at: String::new(),
    }
}

fn file_bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn a_new_database_is_a_fray_one_at_the_current_schema_in_wal_mode() {
    let d = dir("new");
    let p = d.join("g.db");
    let store = Store::open(&p, true).unwrap();
    assert_eq!(store.schema_version().unwrap(), i64::from(SCHEMA_VERSION));
    drop(store);
    let header = file_bytes(&p);
    assert_eq!(
        fray_store::check_header(&header[..100]).unwrap(),
        Header::Fray {
            schema: SCHEMA_VERSION.into()
        }
    );
    // WAL is remembered by the file itself (bytes 18 and 19 are 2 in WAL mode).
    assert_eq!((header[18], header[19]), (2, 2));
    // Opening again (not creating) works, and a missing file is not made without `create`.
    Store::open(&p, false).unwrap();
    assert!(Store::open(&d.join("missing.db"), false).is_err());
    assert!(!d.join("missing.db").exists());
}

#[test]
fn foreign_newer_and_damaged_files_are_refused_and_left_as_they_are() {
    let d = dir("refuse");
    // Text.
    let text = d.join("notes.db");
    std::fs::write(&text, "these are my notes, not a database\n".repeat(20)).unwrap();
    let before = file_bytes(&text);
    assert!(matches!(
        fray_store::check_header(&before[..100]),
        Err(StoreError::Foreign(_))
    ));
    assert!(matches!(Store::open(&text, true), Err(StoreError::Foreign(_))));
    assert_eq!(file_bytes(&text), before);

    // Another program's SQLite database.
    let other = d.join("other.db");
    {
        let c = rusqlite::Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let before = file_bytes(&other);
    assert!(matches!(
        fray_store::check_header(&before[..100]),
        Err(StoreError::Foreign(_))
    ));
    assert!(matches!(Store::open(&other, true), Err(StoreError::Foreign(_))));
    assert_eq!(file_bytes(&other), before);

    // A newer fray's.
    let newer = d.join("newer.db");
    drop(Store::open(&newer, true).unwrap());
    {
        let c = rusqlite::Connection::open(&newer).unwrap();
        c.pragma_update(None, "user_version", 99).unwrap();
        c.pragma_update(None, "journal_mode", "delete").unwrap();
    }
    let before = file_bytes(&newer);
    assert!(matches!(
        fray_store::check_header(&before[..100]),
        Err(StoreError::Newer { found: 99, .. })
    ));
    assert!(matches!(
        Store::open(&newer, false),
        Err(StoreError::Newer { found: 99, .. })
    ));
    assert_eq!(file_bytes(&newer), before);

    // Damaged: garbage over the pages after the header page.
    let bad = d.join("bad.db");
    {
        let mut s = Store::open(&bad, true).unwrap();
        let h = holder(1);
        let id = new_game(&mut s, &h);
        for n in 0..200 {
            append_command(&mut s, id, &h, n).unwrap();
        }
    }
    let mut bytes = file_bytes(&bad);
    assert!(bytes.len() > 8192, "{}", bytes.len());
    for (i, b) in bytes.iter_mut().enumerate().skip(4096) {
        *b = (i * 7 % 251) as u8;
    }
    std::fs::write(&bad, &bytes).unwrap();
    assert!(fray_store::check_header(&bytes[..100]).is_ok());
    let e = Store::open(&bad, false).err().expect("refused");
    assert!(matches!(e, StoreError::Corrupt(_)), "{e:?}");
    assert_eq!(file_bytes(&bad), bytes);

    // Cut short: a header and nothing after it.
    let short = d.join("short.db");
    std::fs::write(&short, &bytes[..60]).unwrap();
    assert!(matches!(
        fray_store::check_header(&bytes[..60]),
        Err(StoreError::Foreign(_))
    ));

    // An empty file is a new database only when one may be made.
    let empty = d.join("empty.db");
    std::fs::write(&empty, "").unwrap();
    assert!(matches!(Store::open(&empty, false), Err(StoreError::Foreign(_))));
    assert!(file_bytes(&empty).is_empty());
    assert_eq!(fray_store::check_header(&[]).unwrap(), Header::Empty);
    Store::open(&empty, true).unwrap();
}

#[test]
fn a_game_in_play_is_refused_to_a_second_holder_while_the_first_lives() {
    let d = dir("lease");
    let p = d.join("g.db");
    let mut a = Store::open(&p, true).unwrap();
    let mut b = Store::open(&p, false).unwrap();
    let (ha, hb) = (holder(10), holder(20));
    let id = new_game(&mut a, &ha);
    let living = |_: &Holder| true;
    let dead = |_: &Holder| false;
    match b.claim(id, &hb, &living, false) {
        Err(StoreError::InUse { game, holder, .. }) => assert_eq!((game, holder), (id, ha.clone())),
        other => panic!("{other:?}"),
    }
    // The holder may claim again (a resume in the same process).
    a.claim(id, &ha, &living, false).unwrap();
    // A dead holder's lease is taken over; the old holder can then no longer write.
    b.claim(id, &hb, &dead, false).unwrap();
    assert!(matches!(append_command(&mut a, id, &ha, 1), Err(StoreError::LostLease(g)) if g == id));
    assert_eq!(append_command(&mut b, id, &hb, 1).unwrap(), 1);
    // --take-over takes a living holder's lease.
    a.claim(id, &ha, &living, true).unwrap();
    assert!(matches!(
        append_command(&mut b, id, &hb, 2),
        Err(StoreError::LostLease(_))
    ));
    // Released, anyone may claim it.
    a.release(id, &ha).unwrap();
    b.claim(id, &hb, &living, false).unwrap();
    assert!(matches!(b.claim(99, &hb, &living, false), Err(StoreError::NoGame(99))));
    assert!(matches!(
        append_command(&mut b, 99, &hb, 2),
        Err(StoreError::NoGame(99))
    ));
}

#[test]
fn undo_and_redo_are_steps_and_the_record_holds_the_commands_in_effect() {
    let d = dir("steps");
    let p = d.join("g.db");
    let mut s = Store::open(&p, true).unwrap();
    let h = holder(1);
    let id = new_game(&mut s, &h);
    for n in 1..=3 {
        append_command(&mut s, id, &h, n).unwrap();
    }
    s.append(id, &h, &Step::Undo, "[p] x", false).unwrap(); // takes back 3
    s.append(id, &h, &Step::Undo, "[p] x", false).unwrap(); // takes back 2
    s.append(id, &h, &Step::Redo, "[p] x", false).unwrap(); // brings back 2
    let t = s.timeline(id).unwrap();
    let ns = |ix: &[usize]| ix.iter().map(|&i| t.steps[i].n).collect::<Vec<_>>();
    assert_eq!(ns(&t.effective), vec![1, 2]);
    assert_eq!(ns(&t.undone), vec![3]);
    assert_eq!(t.steps[3].refers, Some(3));
    assert_eq!(t.steps[5].refers, Some(2));
    let record: serde_json::Value = serde_json::from_str(&s.record_json(id).unwrap()).unwrap();
    assert_eq!(record["seed"], 7);
    assert_eq!(record["entries"].as_array().unwrap().len(), 2);
    assert_eq!(record["entries"][1]["command"]["go"], 2);
    assert_eq!(record["entries"][1]["dice"][0], 3);
    // A new command ends what could be redone; nothing to redo is refused.
    append_command(&mut s, id, &h, 4).unwrap();
    let t = s.timeline(id).unwrap();
    assert!(t.undone.is_empty());
    assert!(matches!(
        s.append(id, &h, &Step::Redo, "[p] x", false),
        Err(StoreError::Refused(_))
    ));
    // Nothing is ever deleted: 7 steps.
    assert_eq!(s.game(id).unwrap().steps, 7);
    assert_eq!(s.timeline(id).unwrap().steps.len(), 7);
}

#[test]
fn a_timeline_whose_undo_names_the_wrong_step_is_refused() {
    let row = step_row;
    let ok = Timeline::of(vec![row(1, StepKind::Command, None), row(2, StepKind::Undo, Some(1))]).unwrap();
    assert_eq!((ok.effective.len(), ok.undone.len()), (0, 1));
    assert!(Timeline::of(vec![row(1, StepKind::Command, None), row(2, StepKind::Undo, Some(7))]).is_err());
    assert!(Timeline::of(vec![row(1, StepKind::Undo, Some(1))]).is_err());
    assert!(Timeline::of(vec![row(1, StepKind::Command, None), row(2, StepKind::Redo, Some(1))]).is_err());
}

#[test]
fn steps_missing_repeated_or_not_from_1_are_refused_as_tampered_naming_the_step() {
    let row = |n: i64| step_row(n, StepKind::Command, None);
    let refused = |ns: &[i64]| match Timeline::of(ns.iter().map(|&n| row(n)).collect()) {
        Err(StoreError::Invalid(why)) => why,
        other => panic!("{ns:?} was not refused: {:?}", other.map(|t| t.effective)),
    };
    assert!(Timeline::of(vec![row(1), row(2), row(3)]).is_ok());
    assert_eq!(refused(&[1, 2, 4]), "step 3 is missing (the step after 2 is 4)");
    assert_eq!(refused(&[2, 3]), "step 1 is missing (the step after 0 is 2)");
    assert_eq!(refused(&[1, 2, 2]), "step 2 comes again after step 2");

    // The same through a database: a step deleted from the file is found when the game is read.
    let d = dir("gap");
    let path = d.join("g.db");
    let mut store = Store::open(&path, true).unwrap();
    let h = holder(std::process::id());
    let id = new_game(&mut store, &h);
    for n in 1..=4 {
        append_command(&mut store, id, &h, n).unwrap();
    }
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("DELETE FROM steps WHERE game = ?1 AND n = 3", [id])
        .unwrap();
    drop(conn);
    let store = Store::open(&path, false).unwrap();
    let e = store.record_json(id).unwrap_err().to_string();
    assert!(e.contains("step 3 is missing"), "{e}");
}

#[test]
fn a_games_row_that_disagrees_with_its_record_is_refused_naming_the_field() {
    let d = dir("row");
    let path = d.join("g.db");
    let mut store = Store::open(&path, true).unwrap();
    let h = holder(std::process::id());
    let id = new_game(&mut store, &h);
    append_command(&mut store, id, &h, 1).unwrap();
    assert!(store.record_json(id).is_ok());
    drop(store);
    let edits = [
        (
            "UPDATE games SET ruleset = 'thrum'",
            "its row says ruleset 'thrum' but its record says ruleset 'toy'",
        ),
        (
            "UPDATE games SET seed = 8",
            "its row says seed 8 but its record says seed 7",
        ),
        (
            "UPDATE games SET seed = NULL",
            "its row says no seed but its record says seed 7",
        ),
    ];
    for (edit, says) in edits {
        let copy = d.join("edited.db");
        std::fs::copy(&path, &copy).unwrap();
        let conn = rusqlite::Connection::open(&copy).unwrap();
        conn.execute(edit, []).unwrap();
        drop(conn);
        let store = Store::open(&copy, false).unwrap();
        let e = store.record_json(id).unwrap_err().to_string();
        assert!(e.contains(says), "{edit}: {e}");
    }
}

#[test]
fn games_are_listed_the_last_changed_first_and_imports_are_not_held() {
    let d = dir("list");
    let p = d.join("g.db");
    let mut s = Store::open(&p, true).unwrap();
    let h = holder(1);
    let first = new_game(&mut s, &h);
    let second = s
        .import(
            &NewGame {
                ruleset: "toy",
                version: "1",
                title: "Imported",
                encounter: "r.json",
                seed: None,
                head: r#"{"format":1,"ruleset":"toy","version":"1","entries":[]}"#,
                position: "over",
                over: true,
            },
            &[(1, command(1), "[1,2]".into(), "[]".into())],
        )
        .unwrap();
    let games = s.games().unwrap();
    assert_eq!(games.len(), 2);
    let g2 = s.game(second).unwrap();
    assert!(g2.over && g2.lease.is_none() && g2.steps == 1);
    assert_eq!(g2.dice, fray_store::DiceKind::Typed);
    assert!(s.game(first).unwrap().lease.is_some());
    assert_eq!(s.latest_playing().unwrap(), Some(first));
    let r: serde_json::Value = serde_json::from_str(&s.record_json(second).unwrap()).unwrap();
    assert_eq!(r["entries"][0]["dice"], serde_json::json!([1, 2]));
}

#[test]
fn a_campaign_roster_keeps_the_latest_games_lasting_state_until_a_rest() {
    let d = dir("roster");
    let p = d.join("g.db");
    let mut s = Store::open(&p, true).unwrap();
    let h = holder(1);
    let c = s.campaign("road", "toy", true).unwrap();
    assert_eq!(s.campaign("road", "toy", false).unwrap(), c);
    assert!(matches!(s.campaign("road", "other", true), Err(StoreError::Refused(_))));
    assert!(matches!(
        s.campaign("nowhere", "toy", false),
        Err(StoreError::Refused(_))
    ));
    let lasting = |w: &str| {
        vec![(
            "ana".to_string(),
            "Ana".to_string(),
            vec![
                ("wounds".to_string(), w.to_string()),
                ("grit".to_string(), "2".to_string()),
            ],
        )]
    };
    // A game of no campaign leaves the roster alone.
    let loose = new_game(&mut s, &h);
    assert_eq!(s.carry_out(loose, &lasting("9")).unwrap(), 0);
    let (g1, g2) = (new_game(&mut s, &h), new_game(&mut s, &h));
    s.attach(g1, c).unwrap();
    s.attach(g2, c).unwrap();
    assert_eq!(s.campaign_of(g2).unwrap(), Some(c));
    assert_eq!(s.carry_out(g2, &lasting("2")).unwrap(), 1);
    // An earlier game ending later does not overwrite what a later game left.
    assert_eq!(s.carry_out(g1, &lasting("1")).unwrap(), 0);
    let r = s.roster(c).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].game, r[0].lasting[0].1.as_str()), (Some(g2), "2"));
    // A rest removes only what it restores; an unknown character is refused.
    assert!(s.rest(c, "rest `nap`", &["wounds"], &["bob".into()]).is_err());
    assert_eq!(
        s.rest(c, "rest `nap`", &["wounds"], &[]).unwrap(),
        vec!["Ana".to_string()]
    );
    let r = s.roster(c).unwrap();
    assert_eq!(r[0].lasting, vec![("grit".to_string(), "2".to_string())]);
    let log = s.roster_log(c).unwrap();
    assert_eq!(log.len(), 2);
    assert!(log[0].1.contains("game #") && log[1].1.starts_with("rest `nap`: Ana"));
    assert_eq!(s.campaigns().unwrap()[0].name, "road");
    // Taking a character out of the roster: nobody named, or someone not in it, is refused
    // and changes nothing; then Ana is gone, and it is in the log.
    assert!(matches!(s.retire(c, &[]), Err(StoreError::Refused(_))));
    assert!(matches!(
        s.retire(c, &["ana".into(), "bob".into()]),
        Err(StoreError::Refused(_))
    ));
    assert_eq!(s.roster(c).unwrap().len(), 1);
    assert_eq!(
        s.retire(c, &["ANA".into(), "ana".into()]).unwrap(),
        vec!["Ana".to_string()]
    );
    assert!(s.roster(c).unwrap().is_empty());
    let log = s.roster_log(c).unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(log[2].1, "out of the roster: Ana");
    // The next game of the campaign to end puts it back.
    let g3 = new_game(&mut s, &h);
    s.attach(g3, c).unwrap();
    assert_eq!(s.carry_out(g3, &lasting("3")).unwrap(), 1);
    assert_eq!(s.roster(c).unwrap()[0].lasting[0].1, "3");
}

#[test]
fn a_schema_1_database_is_migrated_in_place_and_keeps_its_games() {
    let d = dir("migrate");
    let p = d.join("old.db");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/tests/fixtures/saves/schema-1.db"),
        &p,
    )
    .unwrap();
    assert_eq!(
        fray_store::check_header(&file_bytes(&p)[..100]).unwrap(),
        Header::Fray { schema: 1 }
    );
    let s = Store::open(&p, false).unwrap();
    assert_eq!(s.schema_version().unwrap(), i64::from(SCHEMA_VERSION));
    assert_eq!(s.games().unwrap().len(), 1);
    assert_eq!(s.timeline(1).unwrap().effective.len(), 3);
    assert!(s.campaigns().unwrap().is_empty());
}

#[test]
fn many_processes_making_one_new_database_at_once_all_open_it() {
    // Connections of threads stand in for processes: each opens (and may make) the same new
    // file at the same moment; every one must open it as a fray database, none refuse it as
    // foreign or give up on a lock. Repeated, since the race is a matter of timing.
    for round in 0..20 {
        let d = dir(&format!("together-{round}"));
        let p = d.join("g.db");
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(6));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (p, barrier) = (p.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&p, true).map(|s| s.schema_version().unwrap())
                })
            })
            .collect();
        for t in threads {
            let v = t.join().unwrap();
            assert!(
                matches!(v, Ok(v) if v == i64::from(SCHEMA_VERSION)),
                "round {round}: {v:?}"
            );
        }
    }
}

#[test]
fn a_browser_table_keeps_its_seats_secrets_when_it_closes_and_opens_again() {
    let d = dir("tables");
    let mut store = Store::open(&d.join("t.db"), true).unwrap();
    let h = holder(1);
    let id = new_game(&mut store, &h);
    assert_eq!(store.table(id).unwrap(), None);
    let first = vec![(0, "a".repeat(32)), (1, "b".repeat(32))];
    assert_eq!(store.open_table(id, "server", &[1], &first).unwrap(), first);
    assert_eq!(store.open_tables().unwrap(), vec![id]);
    store.set_table_ai(id, &[0, 1]).unwrap();
    assert_eq!(store.table(id).unwrap().unwrap().ai, vec![0, 1]);
    store.close_table(id).unwrap();
    assert!(!store.table(id).unwrap().unwrap().open);
    assert!(store.open_tables().unwrap().is_empty());
    // Opened again with fresh secrets offered: the old ones stay, so the links still work.
    let fresh = vec![(0, "c".repeat(32)), (1, "d".repeat(32)), (2, "e".repeat(32))];
    let kept = store.open_table(id, "typed", &[], &fresh).unwrap();
    assert_eq!(
        kept,
        vec![(0, "a".repeat(32)), (1, "b".repeat(32)), (2, "e".repeat(32))]
    );
    let t = store.table(id).unwrap().unwrap();
    assert!(t.open && t.dice == "typed" && t.ai.is_empty());
    // Settings are kept in the database too.
    assert_eq!(store.setting("serve-key").unwrap(), None);
    store.set_setting("serve-key", "k").unwrap();
    assert_eq!(store.setting("serve-key").unwrap().as_deref(), Some("k"));
}
