//! Areas, lines and auras (THR-R77 to THR-R87; THR-H13, the `infinite-line` option).
//!
//! The squares an ability covers are read from the ability use the engine pushes (its
//! `shape`), and who it affects from the Marks its test abilities leave (no dice needed).

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::event::{Event, Verdict};
use fray_thrum::state::Frame;

/// Test abilities: non-attack shapes that put a Mark on everyone they affect, and an area attack.
const ABILITIES: &str = r#"
[[ability]]
id = "mark-area"
type = "action"
range = 2
target = "area 2"
effect = [{ mark = 1 }]

[[ability]]
id = "mark-area3"
type = "action"
range = 3
target = "area 3"
effect = [{ mark = 1 }]

[[ability]]
id = "pulse"
type = "action"
range = 0
target = "area 2"
effect = [{ mark = 1 }]

[[ability]]
id = "zap"
type = "action"
range = 2
target = "line 3"
effect = [{ mark = 1 }]

[[ability]]
id = "zap0"
type = "action"
range = 0
target = "line 3"
effect = [{ mark = 1 }]

[[ability]]
id = "beam"
type = "action"
range = 1
target = "line-to-edge"
effect = [{ mark = 1 }]

[[ability]]
id = "halo"
type = "action"
target = "aura 1"
effect = [{ mark = 1 }]

[[ability]]
id = "halo2"
type = "action"
target = "aura 2"
effect = [{ mark = 1 }]

[[ability]]
id = "blast"
type = "action"
attack = "physical"
range = 6
target = "area 3"
success = [{ fatigue = 1 }]
"#;

const ALL: &str = "abilities = [\"mark-area\", \"mark-area3\", \"pulse\", \"zap\", \"zap0\", \"beam\", \"halo\", \"halo2\", \"blast\"]";

/// Initiative faces for `n` combatants with strictly decreasing totals (no ties).
fn init(n: usize) -> Vec<u16> {
    const F: [(u16, u16); 11] = [
        (6, 6),
        (6, 5),
        (5, 5),
        (5, 4),
        (4, 4),
        (4, 3),
        (3, 3),
        (3, 2),
        (2, 2),
        (2, 1),
        (1, 1),
    ];
    F[..n].iter().flat_map(|&(a, b)| [a, b]).collect()
}

/// A flat `w` by `h` map, with some cells replaced: `(x, y, cell)`.
fn map(w: usize, h: usize, cells: &[(usize, usize, &str)]) -> Vec<String> {
    (0..h)
        .map(|r| {
            let y = h - 1 - r;
            (0..w)
                .map(|x| cells.iter().find(|c| c.0 == x && c.1 == y).map_or(".", |c| c.2))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A game whose first combatant (`u`, a PC with every test ability) has begun its turn. Each
/// other combatant is `(id, side, "x,y")`.
fn game(rows: &[String], at: &str, others: &[(&str, &str, &str)], options: &str) -> T {
    let mut rest = who("u", "pcs", at, &format!("{ALL}\nspeed = 4"));
    for (id, side, p) in others {
        rest.push_str(&who(id, side, p, ""));
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let e = with_abilities(&rows, &format!("{options}\n{rest}"), ABILITIES);
    let mut t = t_with(&e, &init(others.len() + 1));
    t.skip_round_zero();
    t.cmd("begin");
    t
}

/// The squares of the last ability use, sorted (x, y).
fn shape(ev: &[Event]) -> Vec<(i16, i16)> {
    let mut v: Vec<(i16, i16)> = ev
        .iter()
        .find_map(|e| match e {
            Event::Push { frame } => match &**frame {
                Frame::Use(u) => Some(u.shape.iter().map(|p| (p.x, p.y)).collect()),
                _ => None,
            },
            _ => None,
        })
        .expect("an ability use");
    v.sort();
    v
}

/// Every square of the block `x0..=x1` by `y0..=y1`, sorted, minus `hole`.
fn block(x0: i16, x1: i16, y0: i16, y1: i16, hole: Option<(i16, i16)>) -> Vec<(i16, i16)> {
    let mut v: Vec<(i16, i16)> = (x0..=x1)
        .flat_map(|x| (y0..=y1).map(move |y| (x, y)))
        .filter(|p| Some(*p) != hole)
        .collect();
    v.sort();
    v
}

fn marks(t: &T, ids: &[&str]) -> Vec<u8> {
    ids.iter().map(|id| t.ch(id).mark).collect()
}

// ---------------------------------------------------------------------------------------------
// THR-R77: how an area of effect is written
// ---------------------------------------------------------------------------------------------

fn load(target: &str) -> Result<(), String> {
    let f = fray_engine::diag::SourceFile {
        name: "x.toml".into(),
        text: format!(
            "[[ability]]\nid = \"shape\"\ntype = \"action\"\nrange = 3\ntarget = \"{target}\"\neffect = [{{ mark = 1 }}]\n"
        ),
    };
    let mut book = fray_thrum::ability::AbilityBook::default();
    fray_thrum::ability::load_abilities(&f, &mut book, &mut Vec::new())
        .map_err(|e| e.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))
}

#[test]
fn thr_r77_an_area_of_effect_is_area_line_or_aura_with_a_positive_integer() {
    for ok in ["area 2", "line 3", "aura 1", "area 1 + T"] {
        assert_eq!(load(ok), Ok(()), "{ok}");
    }
    for bad in ["cone 3", "area two", "area 0", "line -2", "aura 0"] {
        assert!(load(bad).is_err(), "'{bad}' was accepted");
    }
    assert!(load("area 0").unwrap_err().contains("positive"), "{:?}", load("area 0"));
}

// ---------------------------------------------------------------------------------------------
// THR-R78, THR-R79: Area X and Line X
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r78_area_2_is_a_2_by_2_block_from_its_south_west_corner() {
    let m = map(6, 6, &[]);
    let mut t = game(
        &m,
        "0,0",
        &[
            ("in1", "npcs", "2,2"),
            ("in2", "npcs", "3,3"),
            ("out1", "npcs", "4,2"),
            ("out2", "npcs", "2,4"),
        ],
        "",
    );
    t.cmd("act mark-area area 2,2");
    assert_eq!(shape(&t.last), vec![(2, 2), (2, 3), (3, 2), (3, 3)]);
    assert_eq!(marks(&t, &["in1", "in2", "out1", "out2"]), vec![1, 1, 0, 0]);
}

#[test]
fn thr_r78_area_3_is_a_3_by_3_block() {
    let m = map(6, 6, &[]);
    let mut t = game(
        &m,
        "0,0",
        &[
            ("in1", "npcs", "1,1"),
            ("in2", "npcs", "3,3"),
            ("out1", "npcs", "4,3"),
            ("out2", "npcs", "3,4"),
        ],
        "",
    );
    t.cmd("act mark-area3 area 1,1");
    assert_eq!(shape(&t.last), block(1, 3, 1, 3, None));
    assert_eq!(shape(&t.last).len(), 9);
    assert_eq!(marks(&t, &["in1", "in2", "out1", "out2"]), vec![1, 1, 0, 0]);
}

#[test]
fn thr_r79_line_3_is_3_consecutive_squares_in_a_row() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "0,0", &[("in", "npcs", "3,0"), ("out", "npcs", "4,0")], "");
    t.cmd("act zap line 1,0 e");
    assert_eq!(shape(&t.last), vec![(1, 0), (2, 0), (3, 0)]);
    assert_eq!(marks(&t, &["in", "out"]), vec![1, 0]);
}

#[test]
fn thr_r79_line_3_in_a_column_and_in_a_diagonal() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "0,0", &[("in", "npcs", "1,2"), ("out", "npcs", "1,3")], "");
    t.cmd("act zap line 1,0 n");
    assert_eq!(shape(&t.last), vec![(1, 0), (1, 1), (1, 2)]);
    assert_eq!(marks(&t, &["in", "out"]), vec![1, 0]);

    let mut t = game(&m, "0,0", &[("in", "npcs", "3,3"), ("out", "npcs", "4,4")], "");
    t.cmd("act zap line 1,1 ne");
    assert_eq!(shape(&t.last), vec![(1, 1), (2, 2), (3, 3)]);
    assert_eq!(marks(&t, &["in", "out"]), vec![1, 0]);
}

// ---------------------------------------------------------------------------------------------
// THR-R80, THR-R81: range
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r80_an_area_needs_one_square_within_range_and_reaches_beyond_it() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "0,0", &[("far", "npcs", "3,3")], "");
    // Range 2: the block from 3,3 has no square within 2 of 0,0.
    assert_eq!(t.reject("act mark-area area 3,3").code, "out-of-range");
    // The block from 2,2 has 2,2 within range; its far corner 3,3 (distance 3) is still in it.
    t.cmd("act mark-area area 2,2");
    assert_eq!(t.ch("far").mark, 1);
}

#[test]
fn thr_r80_a_line_needs_one_square_within_range() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "0,0", &[("far", "npcs", "3,0")], "");
    // 3,0 4,0 5,0: all farther than 2.
    assert_eq!(t.reject("act zap line 3,0 e").code, "out-of-range");
    // 3,0 2,0 1,0: 2,0 and 1,0 are in range.
    t.cmd("act zap line 3,0 w");
    assert_eq!(shape(&t.last), vec![(1, 0), (2, 0), (3, 0)]);
    assert_eq!(t.ch("far").mark, 1);
}

#[test]
fn thr_r81_a_range_0_area_must_include_the_users_square() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "2,2", &[("e", "npcs", "1,1")], "");
    // 3,3 is adjacent, but the block 3..4 x 3..4 does not hold the user's square.
    let r = t.reject("act pulse area 3,3");
    assert_eq!(r.code, "out-of-range");
    assert!(
        r.reason.contains("must include its user's square (2,2)"),
        "{}",
        r.reason
    );
    assert_eq!(t.reject("act pulse area 0,0").code, "out-of-range");
    t.cmd("act pulse area 1,1");
    assert_eq!(shape(&t.last), vec![(1, 1), (1, 2), (2, 1), (2, 2)]);
    assert_eq!(marks(&t, &["u", "e"]), vec![1, 1]);
}

#[test]
fn thr_r81_a_range_0_line_must_include_the_users_square() {
    let m = map(6, 6, &[]);
    let mut t = game(&m, "2,2", &[("e", "npcs", "4,2")], "");
    assert_eq!(t.reject("act zap0 line 3,2 e").code, "out-of-range");
    t.cmd("act zap0 line 2,2 e");
    assert_eq!(shape(&t.last), vec![(2, 2), (3, 2), (4, 2)]);
    assert_eq!(marks(&t, &["u", "e"]), vec![1, 1]);
}

// ---------------------------------------------------------------------------------------------
// THR-R82 to THR-R84: auras
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r82_an_aura_covers_every_square_within_x_except_its_centre() {
    let m = map(6, 6, &[]);
    let mut t = game(
        &m,
        "2,2",
        &[("ally", "pcs", "3,3"), ("near", "npcs", "1,2"), ("far", "npcs", "4,2")],
        "",
    );
    t.cmd("act halo");
    assert_eq!(shape(&t.last), block(1, 3, 1, 3, Some((2, 2))));
    // Within 1: the ally and the near enemy; 4,2 is 2 away; the user stands in the hole.
    assert_eq!(marks(&t, &["ally", "near", "far", "u"]), vec![1, 1, 0, 0]);
}

#[test]
fn thr_r84_aura_1_is_8_squares_and_aura_2_is_24() {
    // The worked example's user at (0,0), shifted by (5,5) onto the map: every square + (5,5).
    let m = map(11, 11, &[]);
    let mut t = game(&m, "5,5", &[("far", "npcs", "10,10")], "");
    t.cmd("act halo");
    let aura1 = shape(&t.last);
    assert_eq!(aura1.len(), 8);
    assert_eq!(aura1, block(4, 6, 4, 6, Some((5, 5))));

    let mut t = game(&m, "5,5", &[("far", "npcs", "10,10")], "");
    t.cmd("act halo2");
    let aura2 = shape(&t.last);
    assert_eq!(aura2.len(), 24);
    assert_eq!(aura2, block(3, 7, 3, 7, Some((5, 5))));
}

#[test]
fn thr_r83_an_aura_moves_with_its_character() {
    // Whirling Sleet: an Aura 1 Terrain Effect, Difficult Terrain for its creator's enemies.
    let toml = enc(
        &[". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . ."],
        &format!(
            "{}{}",
            who("c", "pcs", "1,1", "abilities = [\"whirling-sleet\"]"),
            who("e", "npcs", "6,1", "")
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1]);
    t.cmd("begin");
    t.cmd("act whirling-sleet");
    let sq = |t: &T| {
        let mut v: Vec<(i16, i16)> = fray_thrum::resolve::terrain_squares(t.s(), &t.s().terrain[0])
            .iter()
            .map(|p| (p.x, p.y))
            .collect();
        v.sort();
        v
    };
    assert_eq!(sq(&t), block(0, 2, 0, 2, Some((1, 1))));
    t.cmd("end");
    // E (last in the order, so its slot begins by itself), far from the sleet, leaves 6,1 for 1.
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 1);
    t.cmd("step w");
    t.cmd("end");
    // C walks to 5,1: the sleet goes with it.
    t.cmd("begin");
    t.cmd("move 5,1");
    assert_eq!(sq(&t), block(4, 6, 0, 2, Some((5, 1))));
    t.cmd("end");
    // Now 6,1 is in the sleet: leaving it costs E 1 + 1.
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
    assert_eq!(t.ch("e").pos, Some(Pos::new(7, 1)));
}

// ---------------------------------------------------------------------------------------------
// THR-R85: everyone inside
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r85_an_area_affects_every_character_inside_allies_and_the_user_included() {
    let m = map(6, 6, &[]);
    let mut t = game(
        &m,
        "1,1",
        &[("ally", "pcs", "1,2"), ("foe", "npcs", "2,2"), ("out", "npcs", "3,3")],
        "",
    );
    t.cmd("act mark-area area 1,1");
    assert_eq!(marks(&t, &["u", "ally", "foe", "out"]), vec![1, 1, 1, 0]);
}

// ---------------------------------------------------------------------------------------------
// THR-R86: Line ∞
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r86_line_to_edge_runs_from_the_adjacent_square_to_the_map_edge() {
    let m = map(6, 3, &[]);
    let mut t = game(&m, "2,1", &[("edge", "npcs", "5,1"), ("off", "npcs", "5,2")], "");
    t.cmd("act beam toward e");
    assert_eq!(shape(&t.last), vec![(3, 1), (4, 1), (5, 1)]);
    assert_eq!(marks(&t, &["u", "edge", "off"]), vec![0, 1, 0]);

    // Diagonally: 1,2 and then the edge.
    let mut t = game(&m, "2,1", &[("nw", "npcs", "1,2")], "");
    t.cmd("act beam toward nw");
    assert_eq!(shape(&t.last), vec![(1, 2)]);
    assert_eq!(marks(&t, &["u", "nw"]), vec![0, 1]);
}

#[test]
fn thr_r86_option_infinite_line_from_the_users_square() {
    let m = map(6, 3, &[]);
    let mut t = game(
        &m,
        "2,1",
        &[("edge", "npcs", "5,1")],
        "[options]\ninfinite-line = \"user-square\"",
    );
    t.cmd("act beam toward e");
    assert_eq!(shape(&t.last), vec![(2, 1), (3, 1), (4, 1), (5, 1)]);
    assert_eq!(marks(&t, &["u", "edge"]), vec![1, 1]);
}

// ---------------------------------------------------------------------------------------------
// THR-R87 / THR-H13: one attack roll per target
// ---------------------------------------------------------------------------------------------

fn attack_nets(ev: &[Event]) -> Vec<(i16, i16, Verdict)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Contest {
                attack: Some(a),
                verdict,
                ..
            } => Some((a.net, a.total, *verdict)),
            _ => None,
        })
        .collect()
}

#[test]
fn thr_r87_an_area_attack_rolls_separately_against_each_target_with_its_own_cover() {
    // High ground (2 levels) at 3,1 gives B Cover from U at 0,1; D, two squares east, has
    // none. THR-H17: each target in an area gets its own Cover check.
    let m = map(8, 4, &[(3, 1, "2")]);
    let mut t = game(&m, "0,1", &[("b", "npcs", "4,1"), ("d", "npcs", "6,1")], "");
    t.cmd("act blast area 4,0");
    t.cmd("defend resilience"); // B
    // Against B: 1 Bane, [6, 6, 1] keeps 6 + 1 = 7 against [1, 1] = 2.
    // Against D: no Bane, [6, 6] = 12 against [4, 4] = 8.
    t.dice(&[6, 6, 1, 1, 1, 6, 6, 4, 4]);
    t.cmd("defend resilience"); // D
    t.assert_dice_used();
    assert_eq!(
        attack_nets(&t.last),
        vec![(-1, 7, Verdict::AttackerCritical), (0, 12, Verdict::AttackerSuccess)]
    );
    assert_eq!((t.ch("b").fatigue, t.ch("d").fatigue), (1, 1));
}

#[test]
fn thr_r87_option_shared_roll_one_attack_roll_for_every_target_in_the_area() {
    // THR-H13 alternative: one attack roll, compared with each defence.
    let m = map(8, 4, &[]);
    let mut t = game(
        &m,
        "0,1",
        &[("b", "npcs", "4,1"), ("d", "npcs", "6,1")],
        "[options]\nmulti-target = \"shared\"",
    );
    t.cmd("act blast area 4,0");
    t.cmd("defend resilience");
    t.dice(&[4, 4, 1, 1, 5, 5]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(
        attack_nets(&t.last),
        vec![(0, 8, Verdict::AttackerCritical), (0, 8, Verdict::DefenderSuccess)]
    );
    assert_eq!((t.ch("b").fatigue, t.ch("d").fatigue), (1, 0));
}
