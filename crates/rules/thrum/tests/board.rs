//! The battlefield (`map`), the combat tracker (`show`) and the JSON view per seat (issue 9):
//! what they show, and that Hidden enemies stay hidden from seats that may not see them.

mod common;
use common::*;
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Ruleset, Seat};
use fray_thrum::Thrum;
use std::path::Path;

fn example(name: &str) -> Game<Thrum> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/thrum")
        .join(name);
    let src = SourceFile {
        name: name.into(),
        text: std::fs::read_to_string(&path).expect("example exists"),
    };
    let mut read = |p: &str| Err(format!("no file {p}"));
    let l = Thrum::load(&src, &mut read).unwrap_or_else(|d| panic!("{d:?}"));
    Game::<Thrum>::new_seeded(l.setup, l.options, 1).expect("starts")
}

#[test]
fn the_skirmish_map_in_round_zero() {
    let g = example("skirmish.toml");
    let map = Thrum::map(g.state(), Seat::GM).expect("Thrum has a map");
    for line in map.lines() {
        assert!(line.chars().count() <= 120, "too wide: {line}");
    }
    insta::assert_snapshot!(map);
}

/// `a` (PC, players) at 0,0 and a Hidden NPC `h` at 3,1 on a small map with a wall and mud.
fn hidden_game() -> T {
    let rows = [". . d d .", ". . 2x . ."];
    let toml = enc(
        &rows,
        &format!(
            "{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("h", "npcs", "3,1", ""),
            who("o", "npcs", "4,0", "")
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 3, 3, 1, 1]);
    t.cmd("gm status h hidden on");
    t
}

#[test]
fn the_map_has_axes_terrain_a_legend_and_whose_turn_it_is() {
    let t = hidden_game();
    let gm = Thrum::map(t.s(), Seat::GM).unwrap();
    let lines: Vec<&str> = gm.lines().collect();
    assert!(lines[0].contains("Round 1, a's turn"), "{gm}");
    // x along the top, y down the side, north (y = 1) first.
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["0", "1", "2", "3", "4"]
    );
    assert!(lines[2].starts_with("1  "), "{gm}");
    assert!(lines[3].starts_with("0  "), "{gm}");
    // Row y = 1 (north): open, open, mud, the Hidden h on mud, open.
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["1", ".", ".", "~", "a", "."]
    );
    // Row y = 0: A, open, a blocked square at level 2, open, o.
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["0", "A", ".", "#2", ".", "b"]
    );
    assert!(gm.contains("A  a"), "{gm}");
    assert!(gm.contains("<- its turn"), "{gm}");
    assert!(
        gm.lines()
            .any(|l| l.trim_start().starts_with("a  h") && l.contains("Hidden")),
        "{gm}"
    );
    // The players' seat does not see the Hidden enemy: not on the grid, not in the legend.
    let players = t.s().setup.seats.iter().position(|s| s == "players").unwrap() as u8;
    let pv = Thrum::map(t.s(), Seat(players)).unwrap();
    let lines: Vec<&str> = pv.lines().collect();
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["1", ".", ".", "~", "~", "."]
    );
    assert!(!pv.lines().any(|l| l.trim_start().starts_with("a  h")), "{pv}");
}

#[test]
fn the_tracker_shows_the_order_gauges_and_statuses_with_when_they_end() {
    let mut t = hidden_game();
    t.cmd("delay after h");
    t.cmd("gm status o slowed =2");
    t.cmd("gm set o mark =1");
    t.cmd("gm status o dazed on");
    let tr = Thrum::tracker(t.s(), Seat::GM);
    let line = |who: &str| {
        tr.lines()
            .find(|l| {
                l.contains(&format!("({who})"))
                    && (l.contains("waiting") || l.contains("acting") || l.contains("delayed") || l.contains("done"))
            })
            .unwrap_or_else(|| panic!("no order line for {who}:\n{tr}"))
            .to_string()
    };
    assert!(line("h").starts_with(" >"), "{tr}");
    assert!(line("h").contains("acting"), "{tr}");
    assert!(line("a").contains("delayed"), "{tr}");
    assert!(line("o").contains("waiting"), "{tr}");
    assert!(tr.contains("Slowed 2: ends after 2 more of its turn ends"), "{tr}");
    assert!(
        tr.contains("Dazed: ends when it takes Fatigue or Stress from a later enemy ability use"),
        "{tr}"
    );
    assert!(tr.contains("Mark 1"), "{tr}");
    assert!(tr.contains("Fatigue 0/"), "{tr}");
    // h acts, then o: a has delayed after h, so it comes next and h is done.
    t.cmd("begin");
    t.cmd("end");
    let tr = Thrum::tracker(t.s(), Seat::GM);
    assert!(tr.lines().any(|l| l.contains("(h)") && l.contains("done")), "{tr}");
    assert!(
        tr.lines()
            .any(|l| l.contains("(a)") && l.contains("acting") && l.contains("delayed this round")),
        "{tr}"
    );
}

#[test]
fn the_view_gives_the_order_delays_mark_scouted_and_every_status_for_the_seat() {
    let mut t = hidden_game();
    t.cmd("delay after h");
    t.cmd("gm status o slowed =2");
    t.cmd("gm set o mark =2");
    t.cmd("gm set o scouted =1");
    let v = serde_json::to_value(Thrum::view(t.s(), Seat::GM)).expect("the view serialises");
    let order = v["order"].as_array().expect("order");
    let ids: Vec<&str> = order.iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["h", "a", "o"]);
    assert_eq!(order[0]["state"], "acting");
    assert_eq!(order[1]["delayed"], true);
    assert_eq!(order[1]["state"], "delayed");
    assert_eq!(order[2]["state"], "waiting");
    let o = &v["combatants"][2];
    assert_eq!(o["id"], "o");
    assert_eq!(o["mark"], 2);
    assert_eq!(o["scouted"], 1);
    assert_eq!(o["effects"][0]["name"], "Slowed");
    assert_eq!(o["effects"][0]["value"], 2);
    assert!(
        o["effects"][0]["ends"]
            .as_str()
            .unwrap()
            .contains("2 more of its turn ends")
    );
    assert_eq!(v["combatants"][0]["delays"], 1);
    assert_eq!(v["step"], "slot");
    assert!(v["movement_left"].is_null());
    // Hidden h: the GM sees its square, the players do not.
    assert_eq!(v["combatants"][1]["pos"], serde_json::json!([3, 1]));
    let players = t.s().setup.seats.iter().position(|s| s == "players").unwrap() as u8;
    let pv = serde_json::to_value(Thrum::view(t.s(), Seat(players))).expect("the view serialises");
    assert!(pv["combatants"][1]["pos"].is_null());
}
