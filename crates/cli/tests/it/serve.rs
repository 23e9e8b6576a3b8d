//! The browser table's server, over HTTP and websockets: every refusal of the API and of the
//! socket changes nothing, a restart loses nothing, and a game moves between the browser and
//! the terminal (`fray resume` of a served game, a `play --save` game opened in the browser).

use crate::served;

use serde_json::{Value, json};
use served::{Client, Served, dir, root, token};
use std::process::{Command, Stdio};
use std::time::Duration;
use tungstenite::Message;

const DUEL: &str = "examples/skeleton/duel.toml";

fn fray(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The view a seat's token gets from `GET /api/view`.
fn view(s: &Served, tok: &str) -> Value {
    let (st, v, raw) = s.http("GET", "/api/view", Some(tok), None);
    assert_eq!(st, 200, "{raw}");
    v
}

/// The state of play in a seat's frame: what must not change on a refusal (who is connected,
/// which does, is left out).
fn play(s: &Served, tok: &str) -> Value {
    let mut v = view(s, tok);
    v.as_object_mut().unwrap().remove("seats");
    v
}

#[test]
fn every_refusal_of_the_api_says_why_and_changes_nothing() {
    let d = dir("api");
    let s = Served::start(&d.join("g.db"));
    let t = s.open(json!({"encounter": DUEL, "seed": 7}));
    let gm = token(&t, "gm");
    let before = view(&s, &gm);
    let key = s.key.clone();
    // Method, path, credential, body, status, code.
    type Case<'a> = (&'a str, &'a str, Option<String>, Option<String>, u16, &'a str);
    let cases: Vec<Case> = vec![
        ("GET", "/api/games", None, None, 401, "no-credentials"),
        (
            "GET",
            "/api/games",
            Some("0123456789abcdef0123456789abcdef".into()),
            None,
            401,
            "bad-key",
        ),
        // A seat's token is not the GM key.
        ("GET", "/api/games", Some(gm.clone()), None, 401, "bad-key"),
        ("GET", "/api/encounters", None, None, 401, "no-credentials"),
        (
            "POST",
            "/api/tables",
            None,
            Some(json!({"encounter": DUEL}).to_string()),
            401,
            "no-credentials",
        ),
        ("GET", "/api/tables/1", None, None, 401, "no-credentials"),
        ("DELETE", "/api/tables/1", None, None, 401, "no-credentials"),
        ("DELETE", "/api/tables/1", Some(gm.clone()), None, 401, "bad-key"),
        ("GET", "/api/view", None, None, 401, "no-credentials"),
        ("GET", "/api/view", Some(key.clone()), None, 401, "bad-token"),
        (
            "GET",
            "/api/view",
            Some("1-0-0123456789abcdef0123456789abcdef".into()),
            None,
            401,
            "bad-token",
        ),
        ("GET", "/api/view", Some(format!("{}x", gm)), None, 401, "bad-token"),
        // Another seat's number with the GM's secret.
        (
            "GET",
            "/api/view",
            Some(gm.replacen("1-0-", "1-1-", 1)),
            None,
            401,
            "bad-token",
        ),
        (
            "GET",
            "/api/view",
            Some(gm.replacen("1-0-", "99-0-", 1)),
            None,
            401,
            "bad-token",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some("not json".into()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": DUEL, "colour": 1}).to_string()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({}).to_string()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": DUEL, "game": 1}).to_string()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": "Cargo.toml"}).to_string()),
            400,
            "bad-encounter",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": "examples/../Cargo.toml"}).to_string()),
            400,
            "bad-encounter",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": "/etc/passwd"}).to_string()),
            400,
            "bad-encounter",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": "examples/none.toml"}).to_string()),
            400,
            "bad-encounter",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter_text": "ruleset = \"skeleton\"\n[oops"}).to_string()),
            400,
            "bad-encounter",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": DUEL, "dice": "loaded"}).to_string()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"encounter": DUEL, "ai": ["nobody"]}).to_string()),
            400,
            "bad-seat",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"game": 1, "seed": 3}).to_string()),
            400,
            "bad-request",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some(json!({"game": 42}).to_string()),
            400,
            "store",
        ),
        (
            "POST",
            "/api/tables",
            Some(key.clone()),
            Some("x".repeat(70_000)),
            413,
            "too-large",
        ),
        ("GET", "/api/tables/42", Some(key.clone()), None, 404, "no-table"),
        ("GET", "/api/tables/x", Some(key.clone()), None, 400, "bad-request"),
        ("DELETE", "/api/tables/42", Some(key.clone()), None, 404, "no-table"),
        ("GET", "/api/nothing", None, None, 404, "not-found"),
    ];
    for (method, path, auth, body, status, code) in cases {
        let (st, v, raw) = s.http(method, path, auth.as_deref(), body.as_deref());
        assert_eq!(
            (st, v["error"].as_str()),
            (status, Some(code)),
            "{method} {path}: {raw}"
        );
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{raw}");
        // No refusal repeats a credential it was given.
        if let Some(a) = &auth {
            assert!(
                !raw.contains(a.as_str()),
                "{method} {path} echoes its credential: {raw}"
            );
        }
    }
    assert_eq!(view(&s, &gm), before, "a refusal changed the table");
    let (_, games, _) = s.http("GET", "/api/games", Some(&key), None);
    assert_eq!(
        games["games"].as_array().unwrap().len(),
        1,
        "a refused opening saved a game: {games}"
    );
    // The server never printed a token or the key after its start.
    let printed = s.out.lock().unwrap().clone();
    assert!(!printed.contains(&gm) && !printed.contains(&key), "{printed}");
}

/// A player's client against the skeleton duel: each refusal gets an error frame naming the
/// message, and the table is as it was.
#[test]
fn every_refusal_of_the_socket_gets_an_error_frame_and_changes_nothing() {
    let d = dir("ws");
    let s = Served::start(&d.join("g.db"));
    let t = s.open(json!({"encounter": DUEL, "seed": 7}));
    let gm_tok = token(&t, "gm");
    let seats = served::seats(&t);
    let before = view(&s, &gm_tok);
    let played = play(&s, &gm_tok);

    // Before hello: anything else is refused and the socket closed.
    let mut c = Client::connect(&s.addr);
    c.send(json!({"type": "command", "id": 1, "text": "end"}));
    assert_eq!(c.next().unwrap()["code"], "not-authenticated");
    let mut c = Client::connect(&s.addr);
    c.send(json!({"type": "hello", "token": "1-1-0123456789abcdef0123456789abcdef"}));
    assert_eq!(c.next().unwrap()["code"], "bad-token");
    let mut c = Client::connect(&s.addr);
    c.send(json!({"type": "hello"}));
    assert_eq!(c.next().unwrap()["code"], "bad-token");
    let mut c = Client::connect(&s.addr);
    c.send_raw(Message::Text("{".into()));
    assert_eq!(c.next().unwrap()["code"], "bad-message");

    // The seat not deciding now.
    let deciding = before["pending"]["deciding"][0].as_str().unwrap().to_string();
    let idle = seats.iter().find(|n| **n != deciding && n.as_str() != "gm").cloned();
    let player = seats.iter().find(|n| n.as_str() != "gm").unwrap().clone();
    let mut p = s.join(&token(&t, &player));
    assert_eq!(p.welcome["gm"], false);
    let first = p.until(|f| f["type"] == "state");
    assert!(first.get("links").is_none(), "a player got the join links: {first}");
    let error = |p: &mut Client, v: Value| -> Value {
        let id = v["id"].clone();
        p.send(v);
        let e = p.until(|f| f["type"] == "error" || f["type"] == "ok");
        assert_eq!(e["type"], "error", "{e}");
        // An oversized message is not read, so its refusal cannot name it.
        if !id.is_null() && e["code"] != "too-large" {
            assert_eq!(e["id"], id, "{e}");
        }
        e
    };
    let e = error(&mut p, json!({"type": "undo", "id": 10}));
    assert_eq!(e["code"], "not-gm");
    let e = error(&mut p, json!({"type": "redo", "id": 11}));
    assert_eq!(e["code"], "not-gm");
    let e = error(&mut p, json!({"type": "ai", "id": 12, "seat": "gm", "on": true}));
    assert_eq!(e["code"], "not-gm");
    let e = error(&mut p, json!({"type": "command", "id": 13, "text": "end", "as": "gm"}));
    assert_eq!(e["code"], "not-gm");
    let e = error(&mut p, json!({"type": "command", "id": 14, "text": "gm end none"}));
    assert_eq!(e["code"], "rejected", "a player's ruling: {e}");
    let e = error(&mut p, json!({"type": "command", "id": 15, "text": "fly away"}));
    assert!(e["code"] == "unreadable" || e["code"] == "not-your-decision", "{e}");
    let e = error(
        &mut p,
        json!({"type": "command", "id": 16, "text": "end", "faces": [3]}),
    );
    assert_eq!(e["code"], "bad-dice", "faces at a server-dice table: {e}");
    // Replayed and out-of-order ids do nothing.
    let e = error(&mut p, json!({"type": "command", "id": 16, "text": "end"}));
    assert_eq!(e["code"], "out-of-order");
    let e = error(&mut p, json!({"type": "command", "id": 2, "text": "end"}));
    assert_eq!(e["code"], "out-of-order");
    let e = error(&mut p, json!({"type": "command", "text": "end"}));
    assert_eq!(e["code"], "bad-message");
    let e = error(&mut p, json!({"type": "teleport", "id": 30}));
    assert_eq!(e["code"], "bad-message");
    let e = error(&mut p, json!({"type": "hello", "id": 31, "token": gm_tok}));
    assert_eq!(e["code"], "bad-message", "a second hello cannot change seats: {e}");
    let e = error(&mut p, json!({"type": "command", "id": 32, "text": ""}));
    assert_eq!(e["code"], "bad-message");
    let e = error(&mut p, json!({"type": "command", "id": 33, "text": 5}));
    assert_eq!(e["code"], "bad-message");
    let e = error(
        &mut p,
        json!({"type": "command", "id": 34, "text": "end", "faces": "six"}),
    );
    assert_eq!(e["code"], "bad-dice");
    let e = error(&mut p, json!({"type": "command", "id": 35, "text": "x".repeat(20_000)}));
    assert_eq!(e["code"], "too-large");
    p.send_raw(Message::Binary(vec![1, 2, 3].into()));
    assert_eq!(p.until(|f| f["type"] == "error")["code"], "bad-message");
    p.send_raw(Message::Text("[1, 2]".into()));
    assert_eq!(p.until(|f| f["type"] == "error")["code"], "bad-message");
    if let Some(idle) = idle {
        let mut q = s.join(&token(&t, &idle));
        let asked = view(&s, &token(&t, &deciding));
        let choice = asked["pending"]["choices"][0]["text"].as_str().unwrap().to_string();
        let e = error(&mut q, json!({"type": "command", "id": 1, "text": choice}));
        assert_eq!(e["code"], "not-your-decision", "{e}");
    }
    // Sending too fast: the burst passes, then refusals, and nothing is played.
    for i in 0..120 {
        p.send(json!({"type": "undo", "id": 1000 + i}));
    }
    let mut limited = 0;
    let mut other = 0;
    p.drain(Duration::from_millis(500));
    for f in &p.frames {
        let v: Value = serde_json::from_str(f).unwrap();
        if v["code"] == "rate-limited" {
            limited += 1;
        } else if v["code"] == "not-gm" {
            other += 1;
        }
    }
    assert!(limited > 0 && other > 0, "limited {limited}, refused {other}");
    assert_eq!(play(&s, &gm_tok), played, "a refusal changed the table");
    // A table takes at most 32 browsers at once.
    let mut many: Vec<Client> = Vec::new();
    let mut full = None;
    for _ in 0..40 {
        let mut c = Client::connect(&s.addr);
        c.send(json!({"type": "hello", "token": gm_tok}));
        let f = c.next().unwrap();
        if f["type"] == "error" {
            full = Some(f);
            break;
        }
        many.push(c);
    }
    let full = full.expect("no table-full refusal");
    assert_eq!(full["code"], "table-full", "{full}");
    // p is one of the 32 already (and q, until the server sees it gone).
    assert!((30..=31).contains(&many.len()), "{} browsers admitted", many.len());
    drop(many);
    // A socket message beyond the socket's own limit closes the connection.
    p.send_raw(Message::Text("y".repeat(100_000).into()));
    p.drain(Duration::from_millis(300));
    assert_eq!(play(&s, &gm_tok), played);
}

/// The GM plays, undoes, redoes, hands seats to the AI; the server is killed and started again
/// and the links still work; the game is resumed at the terminal after the table closes; a
/// game saved at the terminal opens in the browser.
#[test]
fn a_served_game_survives_a_restart_and_moves_to_the_terminal_and_back() {
    let d = dir("restart");
    let db = d.join("g.db");
    let dbs = db.to_str().unwrap().to_string();
    let (t, gm_tok, played) = {
        let s = Served::start(&db);
        let t = s.open(json!({"encounter": DUEL, "seed": 7}));
        let gm_tok = token(&t, "gm");
        let mut gm = s.join(&gm_tok);
        let first = gm.until(|f| f["type"] == "state");
        assert!(first["links"].is_array(), "the GM's frame carries the links");
        // The GM answers for whichever seat is asked, three times.
        let mut played = Vec::new();
        for _ in 0..3 {
            let st = view(&s, &gm_tok);
            let seat = st["pending"]["deciding"][0].as_str().unwrap().to_string();
            let v = view(&s, &token(&t, &seat));
            let c = v["pending"]["choices"][0]["text"].as_str().unwrap().to_string();
            let id = gm.ask(json!({"type": "command", "text": c, "as": seat}));
            assert_eq!(gm.answer(id)["type"], "ok");
            played.push(c);
        }
        let id = gm.ask(json!({"type": "undo"}));
        assert_eq!(gm.answer(id)["type"], "ok");
        let id = gm.ask(json!({"type": "redo"}));
        assert_eq!(gm.answer(id)["type"], "ok");
        let e = gm.ask(json!({"type": "redo"}));
        assert_eq!(gm.answer(e)["code"], "nothing-to-redo");
        gm.drain(Duration::from_millis(200));
        (t, gm_tok, played)
        // The server is killed here (Drop), without closing anything.
    };
    let log = fray(&["log", &dbs, "1"]);
    let log = String::from_utf8_lossy(&log.stdout).to_string();
    for c in &played {
        assert!(log.contains(c.as_str()), "the database lacks {c}: {log}");
    }
    assert!(log.contains("undo") && log.contains("redo"), "{log}");
    let s = Served::start(&db);
    let mut gm = s.join(&gm_tok);
    let st = gm.until(|f| f["type"] == "state");
    assert!(st["log"].as_array().unwrap().len() > 2, "{st}");
    // The terminal cannot take the game while the server holds it.
    {
        let v = view(&s, &gm_tok);
        let seat = v["pending"]["deciding"][0].as_str().unwrap().to_string();
        let v2 = view(&s, &token(&t, &seat));
        let c = v2["pending"]["choices"][0]["text"].as_str().unwrap().to_string();
        let id = gm.ask(json!({"type": "command", "text": c, "as": seat}));
        assert_eq!(gm.answer(id)["type"], "ok");
    }
    let busy = fray(&["resume", &dbs, "1"]);
    assert_eq!(busy.status.code(), Some(2), "{}", String::from_utf8_lossy(&busy.stderr));
    assert!(String::from_utf8_lossy(&busy.stderr).contains("in use"));
    let (st, _, raw) = s.http("DELETE", "/api/tables/1", Some(&s.key), None);
    assert_eq!(st, 200, "{raw}");
    assert_eq!(gm.until(|f| f["type"] == "closed")["type"], "closed");
    let (st, v, _) = s.http("GET", "/api/view", Some(&gm_tok), None);
    assert_eq!((st, v["error"].as_str()), (404, Some("no-table")));
    // At the terminal: the same game goes on, and stays saved.
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(["resume", &dbs, "1", "--ai", "all"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Back in the browser: the table opens again, with the same links, and shows the end.
    let again = s.open(json!({"game": 1}));
    assert_eq!(token(&again, "gm"), gm_tok);
    let v = view(&s, &gm_tok);
    assert!(v["pending"].is_null() && !v["view"]["outcome"].is_null(), "{v}");
    let _ = t;
    // A game saved at the terminal opens in the browser.
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(["play", DUEL, "--seed", "3", "--save", &dbs])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"end\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let t2 = s.open(json!({"game": 2, "ai": ["gm"]}));
    let v = view(&s, &token(&t2, "gm"));
    assert!(
        v["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| !l.as_str().unwrap().is_empty()),
        "{v}"
    );
}

/// At a typed-dice table the start needs its faces, each command says which roll it waits for,
/// and the faces typed are what the record keeps.
#[test]
fn a_typed_dice_table_asks_for_each_roll_and_keeps_the_faces() {
    let d = dir("typed");
    let s = Served::start(&d.join("g.db"));
    let (st, v, raw) = s.http(
        "POST",
        "/api/tables",
        Some(&s.key),
        Some(&json!({"encounter": DUEL, "dice": "typed"}).to_string()),
    );
    // The skeleton's start rolls nothing, or asks for its faces.
    let t = if st == 422 {
        assert_eq!(v["error"], "needs-dice", "{raw}");
        let n = v["dice"]["count"].as_u64().unwrap() as usize;
        let mut faces = vec![1u16; n];
        loop {
            let (st, v, raw) = s.http(
                "POST",
                "/api/tables",
                Some(&s.key),
                Some(&json!({"encounter": DUEL, "dice": "typed", "faces": faces}).to_string()),
            );
            if st == 200 {
                break v;
            }
            assert_eq!(v["error"], "needs-dice", "{raw}");
            faces.extend(std::iter::repeat_n(1, v["dice"]["count"].as_u64().unwrap() as usize));
        }
    } else {
        assert_eq!(st, 200, "{raw}");
        v
    };
    assert_eq!(t["dice"], "typed");
    let gm_tok = token(&t, "gm");
    let mut gm = s.join(&gm_tok);
    gm.until(|f| f["type"] == "state");
    // Play until some command needs dice, then give them one at a time.
    let mut asked = false;
    for _ in 0..40 {
        let st = view(&s, &gm_tok);
        if st["pending"].is_null() {
            break;
        }
        let seat = st["pending"]["deciding"][0].as_str().unwrap().to_string();
        let v = view(&s, &token(&t, &seat));
        let choices: Vec<String> = v["pending"]["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect();
        let c = choices
            .iter()
            .find(|c| c.starts_with("attack"))
            .unwrap_or(&choices[0])
            .clone();
        let mut faces: Vec<u16> = Vec::new();
        loop {
            let id = gm.ask(json!({"type": "command", "text": c, "as": seat, "faces": faces}));
            let a = gm.answer(id);
            if a["type"] == "ok" {
                break;
            }
            assert_eq!(a["code"], "needs-dice", "{a}");
            asked = true;
            let sides = a["dice"]["sides"].as_u64().unwrap() as u16;
            // An impossible face is refused and changes nothing.
            let id = gm.ask(json!({"type": "command", "text": c, "as": seat, "faces": [sides + 1]}));
            assert_eq!(gm.answer(id)["code"], "bad-dice");
            for _ in 0..a["dice"]["count"].as_u64().unwrap() {
                faces.push(sides.min(4));
            }
        }
        if asked {
            break;
        }
    }
    assert!(asked, "no command needed dice");
    let rec = fray(&["export", s.db.to_str().unwrap(), "1"]);
    let rec: Value = serde_json::from_slice(&rec.stdout).unwrap();
    assert!(rec["seed"].is_null(), "{rec}");
    assert!(
        rec["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| !e["dice"].as_array().unwrap().is_empty())
    );
}

/// Murdham's chaos of combat at a browser table: the player's turn is on the clock, the frames
/// say so, and when the time runs out the server loses the turn for them (MUR-R56's timer, as
/// `fray play` keeps it).
#[test]
fn mur_r56_the_chaos_timer_runs_at_a_browser_table_and_loses_the_turn() {
    let d = dir("timer");
    let s = Served::start(&d.join("g.db"));
    let text = std::fs::read_to_string(root().join("examples/murdham/crossroads.toml")).unwrap();
    let text = if text.contains("[options]") {
        text.replacen("[options]", "[options]\nchaos = true\nchaos-seconds = 1", 1)
    } else {
        format!("{text}\n[options]\nchaos = true\nchaos-seconds = 1\n")
    };
    let t = s.open(json!({"encounter_text": text, "name": "chaos.toml", "seed": 4, "ai": ["tollmen"]}));
    let mut p = s.join(&token(&t, "travellers"));
    let st = p.until(|f| f["type"] == "state");
    // The travellers open the round, then a traveller's turn comes and its clock runs.
    let open = st["pending"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["text"] == "open travellers")
        .cloned();
    if let Some(c) = open {
        let id = p.ask(json!({"type": "command", "text": c["text"]}));
        assert_eq!(p.answer(id)["type"], "ok");
    }
    let mut turn = None;
    for _ in 0..10 {
        let v = view(&s, &token(&t, "travellers"));
        if v["pending"]["choices"]
            .as_array()
            .is_some_and(|c| c.iter().any(|x| x["text"].as_str().unwrap_or("").starts_with("act ")))
        {
            let c = v["pending"]["choices"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["text"].as_str().unwrap().starts_with("act "))
                .unwrap()["text"]
                .clone();
            let id = p.ask(json!({"type": "command", "text": c}));
            assert_eq!(p.answer(id)["type"], "ok");
            continue;
        }
        if !v["timer"].is_null() {
            turn = Some(v);
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let turn = turn.expect("no player's turn on the clock");
    assert_eq!(turn["timer"]["seconds"], 1);
    assert!(
        turn["timer"].get("command").is_none(),
        "a player is told the timer's command: {turn}"
    );
    let lost = p.until(|f| {
        f["type"] == "state"
            && f["log"]
                .as_array()
                .unwrap()
                .iter()
                .any(|l| l.as_str().unwrap().contains("timer"))
    });
    assert!(
        lost["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("lost")),
        "{lost}"
    );
}
