//! The battlefield (`map`), the combat tracker (`show`) and the JSON view per seat (issue 9):
//! what they show, and that Hidden enemies stay hidden from seats that may not see them.

use crate::common;
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

#[test]
fn the_shared_view_shows_ids_gauges_statuses_and_squares_but_not_a_hidden_enemy_s_square() {
    let mut t = hidden_game();
    t.cmd("gm status o slowed =2");
    t.cmd("gm set o mark =1");
    t.cmd("gm set o fatigue =2");
    let v = Thrum::seat_view(t.s(), Seat::GM);
    assert_eq!(v.ruleset, "thrum");
    assert_eq!(v.round, 1);
    assert_eq!(v.phase, None);
    let ids: Vec<&str> = v.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["a", "h", "o"]);
    assert_eq!(v.order, ["a", "h", "o"]);
    let o = &v.combatants[2];
    assert_eq!((o.side.as_str(), o.seat.as_str()), ("npcs", "gm"));
    assert_eq!(v.combatants[0].seat, "players");
    let fatigue = o.gauges.iter().find(|g| g.name == "fatigue").expect("fatigue");
    assert_eq!((fatigue.value, fatigue.max), (2, Some(i64::from(t.ch("o").ft))));
    let wounds = o.gauges.iter().find(|g| g.name == "wounds").expect("wounds");
    assert_eq!(wounds.max, Some(3));
    let slowed = o.statuses.iter().find(|x| x.name == "slowed").expect("slowed");
    assert_eq!(slowed.value.as_deref(), Some("2"));
    assert!(
        slowed
            .ends
            .as_deref()
            .is_some_and(|e| e.contains("2 more of its turn ends"))
    );
    assert!(
        o.statuses
            .iter()
            .any(|x| x.name == "mark" && x.value.as_deref() == Some("1"))
    );
    assert_eq!(
        o.place,
        Some(fray_engine::view::Place::Square {
            x: 4,
            y: 0,
            elevation: Some(0)
        })
    );
    assert_eq!(v.deciding.as_ref().and_then(|d| d.actor.as_deref()), Some("a"));
    // The Hidden h: the GM sees its square, the players do not, nor in any position they
    // cannot tell from this one.
    assert_eq!(
        v.combatants[1].place,
        Some(fray_engine::view::Place::Square {
            x: 3,
            y: 1,
            elevation: Some(0)
        })
    );
    assert!(v.combatants[1].statuses.iter().any(|x| x.name == "hidden"));
    let players = t.s().setup.seats.iter().position(|s| s == "players").unwrap() as u8;
    let pv = Thrum::seat_view(t.s(), Seat(players));
    assert_eq!(pv.seat, "players");
    assert_eq!(pv.combatants[1].place, None);
    let mut others = Vec::new();
    Thrum::indistinguishable(t.s(), Seat(players), &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(Thrum::seat_view(other, Seat(players)), pv);
    }
    // On h's own turn the players are not told how far it may still move.
    t.cmd("delay after h");
    t.cmd("begin");
    let gm = Thrum::seat_view(t.s(), Seat::GM);
    assert!(gm.deciding.is_some_and(|d| d.text.contains("movement left")));
    let pv = Thrum::seat_view(t.s(), Seat(players));
    let d = pv.deciding.as_ref().expect("a decision");
    assert_eq!(d.actor.as_deref(), Some("h"));
    assert!(!d.text.contains("movement"), "{}", d.text);
    assert!(!pv.combatants[1].statuses.iter().any(|x| x.name == "movement-left"));
}

/// Every square of the players' board, by (x, y): its elevation and terrain.
fn cells(b: &fray_engine::view::Board) -> std::collections::BTreeMap<(i32, i32), (Option<i32>, Vec<String>)> {
    let fray_engine::view::Board::Grid { cells, .. } = b else {
        panic!("Thrum's board is a grid: {b:?}");
    };
    cells
        .iter()
        .map(|c| ((c.x, c.y), (c.elevation, c.terrain.clone())))
        .collect()
}

fn areas(b: &fray_engine::view::Board) -> Vec<fray_engine::view::AreaView> {
    match b {
        fray_engine::view::Board::Grid { areas, .. } => areas.clone(),
        _ => panic!("Thrum's board is a grid: {b:?}"),
    }
}

#[test]
fn the_board_of_the_ruined_chapel_has_its_elevations_walls_rubble_and_starting_area() {
    let g = example("ruins.toml");
    let b = Thrum::board(g.state(), Seat::GM).expect("Thrum has a board");
    let cells = cells(&b);
    assert_eq!(cells.len(), 12 * 9, "every square of the 12 by 9 chapel");
    let terrain = |x, y| cells[&(x, y)].1.iter().map(String::as_str).collect::<Vec<_>>();
    // The top row of the map is y = 8: the collapsed gallery at level 3.
    assert_eq!(cells[&(6, 8)], (Some(3), vec![]));
    assert_eq!(cells[&(0, 8)].0, Some(0));
    // A broken wall two levels high, rubble, the raised altar and the Starting Area.
    assert_eq!(cells[&(1, 7)].0, Some(2));
    assert_eq!(terrain(1, 7), ["blocked"]);
    assert_eq!(terrain(4, 6), ["difficult"]);
    assert_eq!(cells[&(8, 5)], (Some(2), vec![]));
    assert_eq!(terrain(0, 5), ["start"]);
    assert!(areas(&b).is_empty(), "no Terrain Effect yet");
    // Every square a combatant stands on is a square of the board, with the same elevation.
    for c in Thrum::seat_view(g.state(), Seat::GM).combatants {
        if let Some(fray_engine::view::Place::Square { x, y, elevation }) = c.place {
            assert_eq!(cells[&(x, y)].0, elevation, "{}", c.id);
        }
    }
}

#[test]
fn a_terrain_effect_is_an_area_of_the_board_with_its_squares_creator_and_what_it_does() {
    let field = [
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    ];
    let grunt = "attack = 3\nresilience = 0\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 6";
    let mut t = T::in_round_one(
        &enc(
            &field,
            &format!(
                "{}{}{}",
                who("c", "pcs", "0,0", "abilities = [\"briar-patch\"]"),
                who("a", "pcs", "2,0", ""),
                who("e", "npcs", "3,0", grunt)
            ),
        ),
        &[6, 6, 5, 5, 1, 1],
    );
    t.cmd("begin");
    t.cmd("act briar-patch area 2,0");
    for seat in [Seat::GM, Seat(1), Seat(2)] {
        let b = Thrum::board(t.s(), seat).expect("a board");
        let a = areas(&b);
        assert_eq!(a.len(), 1, "{seat}");
        assert_eq!(a[0].name, "Briar Patch");
        assert_eq!(a[0].squares, [[2, 0], [3, 0], [2, 1], [3, 1]]);
        assert_eq!(a[0].by.as_deref(), Some("c"));
        assert_eq!(
            a[0].tags,
            [
                "terrain-effect",
                "difficult-for-enemies",
                "on-end-of-turn",
                "affects-enemies"
            ]
        );
    }
}

#[test]
fn the_aura_of_a_hidden_creator_has_no_squares_on_the_board_of_a_seat_that_may_not_see_it() {
    let abilities = r#"
[[ability]]
id = "frost-ring"
type = "action"
tags = ["terrain-effect"]
range = 0
target = "aura 1"
terrain = { difficult = "all", affects = "all" }
"#;
    let e = with_abilities(
        &[". . . . .", ". . . . .", ". . . . ."],
        &format!(
            "{}{}",
            who("h", "npcs", "2,1", "abilities = [\"frost-ring\"]"),
            who("a", "pcs", "0,0", "")
        ),
        abilities,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    assert_eq!(t.turn().0, "h");
    t.cmd("begin");
    t.cmd("act frost-ring");
    t.cmd("gm status h hidden on");
    let players = t.s().setup.seats.iter().position(|s| s == "players").unwrap() as u8;
    let gm = areas(&Thrum::board(t.s(), Seat::GM).expect("a board"));
    assert_eq!(gm.len(), 1);
    assert_eq!(gm[0].squares.len(), 8, "the GM sees the ring around h");
    assert_eq!(gm[0].tags, ["terrain-effect", "aura", "difficult"]);
    let pb = Thrum::board(t.s(), Seat(players)).expect("a board");
    let pa = areas(&pb);
    assert_eq!(pa.len(), 1, "the players know the ring is there");
    assert!(pa[0].squares.is_empty(), "but not where: it would show where h is");
    let mut others = Vec::new();
    Thrum::indistinguishable(t.s(), Seat(players), &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(Thrum::board(other, Seat(players)).as_ref(), Some(&pb));
    }
    // THR-H3: the seat's text map leaves the ring out too (drawn, it would circle h's square),
    // while the GM's map shows it.
    let map = Thrum::map(t.s(), Seat(players)).expect("a map");
    let grid = |m: &str| -> String { m.lines().take_while(|l| !l.starts_with("Key:")).collect() };
    assert!(!grid(&map).contains('*'), "the players' map draws the ring:\n{map}");
    for other in &others {
        assert_eq!(Thrum::map(other, Seat(players)).as_deref(), Some(map.as_str()));
    }
    assert!(grid(&Thrum::map(t.s(), Seat::GM).expect("a map")).contains('*'));
}
