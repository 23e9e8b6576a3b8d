//! What reaches a player's browser: for a fight of every ruleset played through `fray serve`
//! (the players' seats by websocket, the GM's by the AI), every frame a player's client got must
//! be that seat's own position at some step of the fight, rebuilt independently from the saved
//! record: its view, its board, its whole log and its legal answers, in order. No frame carries the join
//! links, another seat's token, the dice seed or the GM's dice requests; in the rulesets with
//! hidden information some frame shows the player less than the GM (so the check is not
//! vacuous), and a change the player may not see sends that player no frame at all.

use crate::served;

use fray_engine::Seat;
use fray_engine::diag::SourceFile;
use serde_json::{Value, json};
use served::{Client, Served, dir, root, token};
use std::time::Duration;

/// A distinctive seed, to look for in what players get.
const SEED: u64 = 918_273_645;

/// What a seat's frame must equal: its view, its whole log and its answers.
#[derive(Clone, Debug, PartialEq)]
struct Position {
    view: Value,
    board: Value,
    log: Vec<String>,
    choices: Vec<String>,
}

/// Every position of `seat` in the fight `record` holds, from its start to each command.
fn positions(record: &str, seat: Seat, ai: &[Seat]) -> Vec<Position> {
    let src = SourceFile {
        name: "record".into(),
        text: record.to_string(),
    };
    let entry = fray_rulesets::for_record(&src).unwrap();
    let mut whole: Value = serde_json::from_str(record).unwrap();
    let entries = whole["entries"].as_array().unwrap().clone();
    let mut out = Vec::new();
    for k in 0..=entries.len() {
        whole["entries"] = Value::Array(entries[..k].to_vec());
        let game = entry.replay(&whole.to_string()).unwrap();
        let choices = match game.pending_for(seat) {
            Some(p) if p.deciders.contains(&seat) && !ai.contains(&seat) => p.choices,
            _ => Vec::new(),
        };
        out.push(Position {
            view: game.view_json(seat),
            board: serde_json::to_value(game.board(seat)).unwrap(),
            log: game.log_for(seat).into_iter().filter_map(|l| l.text).collect(),
            choices,
        });
    }
    out
}

/// A small seeded generator for the players' picks.
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// Plays `example` through the server with the GM's seat played by the AI and every other
/// seat by a websocket client picking among its usual answers, for at most `max` commands;
/// then checks every frame each player got. Returns how many frames showed a player less than
/// the GM at the same step.
fn check(example: &str, max: usize) -> usize {
    let d = dir(&example.replace('/', "-"));
    let s = Served::start(&d.join("g.db"));
    let t = s.open(json!({"encounter": example, "seed": SEED, "ai": ["gm"]}));
    let game = t["game"].as_i64().unwrap();
    let seats = served::seats(&t);
    let secrets: Vec<String> = seats.iter().map(|n| token(&t, n)).collect();
    let mut gm = s.join(&secrets[0]);
    let mut players: Vec<(usize, Client)> = (1..seats.len()).map(|i| (i, s.join(&secrets[i]))).collect();
    for (_, c) in &mut players {
        c.until(|f| f["type"] == "state");
    }
    let mut pick = Pick(SEED);
    let mut sent = 0;
    'play: while sent < max {
        let mut moved = false;
        for (_, c) in &mut players {
            c.drain(Duration::from_millis(20));
            let st = c.state.clone();
            if st["pending"].is_null() {
                break 'play;
            }
            if st["pending"]["mine"] != true {
                continue;
            }
            let choices: Vec<&Value> = st["pending"]["choices"].as_array().unwrap().iter().collect();
            let usual: Vec<&&Value> = choices.iter().filter(|c| c["rare"] != true).collect();
            let all = if usual.is_empty() {
                choices.iter().collect()
            } else {
                usual
            };
            let choice = all[pick.below(all.len())]["text"].as_str().unwrap().to_string();
            let id = c.ask(json!({"type": "command", "text": choice}));
            let a = c.answer(id);
            assert_eq!(a["type"], "ok", "{example}: {choice}: {a}");
            sent += 1;
            moved = true;
        }
        if !moved {
            // Nobody's turn among the players: the AI is still to answer, or the fight ended.
            std::thread::sleep(Duration::from_millis(20));
            gm.drain(Duration::from_millis(20));
            if gm.state["pending"].is_null() {
                break;
            }
            let deciding: Vec<String> = gm.state["pending"]["deciding"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            assert!(
                !deciding.iter().all(|x| x == "gm"),
                "{example}: the AI does not answer: {}",
                gm.state
            );
        }
    }
    for (_, c) in &mut players {
        c.drain(Duration::from_millis(100));
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fray"))
        .current_dir(root())
        .args(["export", s.db.to_str().unwrap(), &game.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record = String::from_utf8(out.stdout).unwrap();
    let gm_positions = positions(&record, Seat::GM, &[Seat::GM]);
    let mut less = 0;
    for (i, c) in &players {
        let seat = Seat(*i as u8);
        let want = positions(&record, seat, &[Seat::GM]);
        let mut log: Vec<String> = Vec::new();
        let mut board = Value::Null;
        let mut k = 0;
        let mut last: Option<Value> = None;
        for text in &c.frames {
            for (j, secret) in secrets.iter().enumerate() {
                if j != *i {
                    assert!(
                        !text.contains(secret.split('-').nth(2).unwrap()),
                        "{example}: {} got {}'s token",
                        seats[*i],
                        seats[j]
                    );
                }
            }
            assert!(
                !text.contains(&SEED.to_string()),
                "{example}: {} got the seed: {text}",
                seats[*i]
            );
            let f: Value = serde_json::from_str(text).unwrap();
            if f["type"] != "state" {
                continue;
            }
            for key in ["links", "ai_trouble"] {
                assert!(f.get(key).is_none(), "{example}: {} got {key}", seats[*i]);
            }
            assert!(f["dice_wanted"].is_null(), "{example}: {} got the GM's dice", seats[*i]);
            let from = f["log_from"].as_u64().unwrap() as usize;
            log.truncate(from);
            log.extend(
                f["log"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|l| l.as_str().unwrap().to_string()),
            );
            if let Some(b) = f.get("board") {
                board = b.clone();
            }
            let got = Position {
                view: f["view"].clone(),
                board: board.clone(),
                log: log.clone(),
                choices: f["pending"]["choices"]
                    .as_array()
                    .map(|a| a.iter().map(|c| c["text"].as_str().unwrap().to_string()).collect())
                    .unwrap_or_default(),
            };
            let at = (k..want.len()).find(|&j| want[j] == got).unwrap_or_else(|| {
                panic!(
                    "{example}: a frame {} got is no position of its seat from step {k} on:\n{}",
                    seats[*i],
                    serde_json::to_string_pretty(&f).unwrap()
                )
            });
            k = at;
            if gm_positions[at].view["combatants"] != got.view["combatants"]
                || gm_positions[at].log != got.log
                || gm_positions[at].board != got.board
            {
                less += 1;
            }
            // A frame comes only when something the seat may see changed: a frame that came
            // anyway would tell it that something it may not see happened.
            let mut rest = f.clone();
            for key in ["step", "log_from", "log", "board"] {
                rest.as_object_mut().unwrap().remove(key);
            }
            let news = !f["log"].as_array().unwrap().is_empty() || f.get("board").is_some();
            if let Some(l) = &last {
                assert!(
                    news || *l != rest,
                    "{example}: {} got a frame that shows it nothing new",
                    seats[*i]
                );
            }
            last = Some(rest);
        }
        assert!(!log.is_empty(), "{example}: {} got no log", seats[*i]);
    }
    less
}

#[test]
fn thrum_a_player_never_gets_what_its_seat_may_not_see() {
    let less = check("examples/thrum/skirmish.toml", 400);
    assert!(less > 0, "no Hidden foe was kept from the players in this fight");
}

#[test]
fn ingenuity_a_player_never_gets_what_its_seat_may_not_see() {
    let less = check("examples/ingenuity/night-raid.toml", 120);
    assert!(less > 0, "nothing hidden was kept from the players in this fight");
}

#[test]
fn hallowed_earth_a_player_never_gets_another_seats_secret_declaration() {
    let less = check("examples/hallowed-earth/ferry.toml", 120);
    assert!(
        less > 0,
        "no secret declaration was kept from the players in this fight"
    );
}

#[test]
fn einfelst_a_player_gets_only_its_own_view_and_answers() {
    check("examples/einfelst/ford.toml", 120);
}

#[test]
fn murdham_a_player_never_learns_of_a_concealed_foe() {
    let less = check("examples/murdham/mill-ambush.toml", 120);
    assert!(less > 0, "no concealed foe was kept from the players in this fight");
}
