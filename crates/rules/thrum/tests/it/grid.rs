//! The grid, distance and range (THR-R41 to THR-R50).

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::calc::distance;

/// Test abilities that only put a Mark on a character (no attack roll), one per range.
const TAGS: &str = r#"
[[ability]]
id = "tag0"
type = "action"
range = 0
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag-self"
type = "action"
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag1"
type = "action"
range = 1
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag2"
type = "action"
range = 2
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag3"
type = "action"
range = 3
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag6"
type = "action"
range = 6
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "tag7"
type = "action"
range = 7
target = "character"
effect = [{ mark = 1 }]
"#;

const ALL_TAGS: &str = "abilities = [\"tag0\", \"tag-self\", \"tag1\", \"tag2\", \"tag3\", \"tag6\", \"tag7\"]";

/// `a` (a PC, acting first) at `a_at` with `a_extra`, and `b` (an NPC) at `b_at`; `a`'s turn
/// has begun (Move step).
fn duo(rows: &[&str], a_at: &str, a_extra: &str, b_at: &str, options: &str) -> T {
    let e = with_abilities(
        rows,
        &format!(
            "{options}\n{}{}",
            who("a", "pcs", a_at, &format!("{ALL_TAGS}\n{a_extra}")),
            who("b", "npcs", b_at, "")
        ),
        TAGS,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t
}

fn open(w: usize, h: usize) -> Vec<String> {
    vec![vec!["."; w].join(" "); h]
}

fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn thr_r41_movement_and_range_count_squares() {
    let m = open(6, 1);
    let mut t = duo(&rows(&m), "0,0", "", "5,0", "");
    // Three squares east spend three movement...
    t.cmd("move 3,0");
    assert_eq!(t.ch("a").pos, Some(Pos::new(3, 0)));
    assert_eq!(t.s().turn.spent, 3);
    // ...and the target two squares further is in Range 2.
    t.cmd("act tag2 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r42_each_square_has_eight_neighbours_one_step_each() {
    let m = open(3, 3);
    let mut t = duo(&rows(&m), "1,1", "speed = 16", "2,2", "");
    // b stands on the north-east neighbour; go round the other seven and back each time.
    for (d, back, to) in [
        ("n", "s", (1, 2)),
        ("e", "w", (2, 1)),
        ("se", "nw", (2, 0)),
        ("s", "n", (1, 0)),
        ("sw", "ne", (0, 0)),
        ("w", "e", (0, 1)),
        ("nw", "se", (0, 2)),
    ] {
        let before = t.s().turn.spent;
        t.cmd(&format!("step {d}"));
        assert_eq!(t.ch("a").pos, Some(Pos::new(to.0, to.1)), "step {d}");
        assert_eq!(t.s().turn.spent, before + 1, "step {d} costs 1");
        t.cmd(&format!("step {back}"));
    }
    assert_eq!(t.s().turn.spent, 14);
    // The eighth neighbour (north-east) is reached by a Range 1 ability.
    t.cmd("act tag1 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r43_distance_is_the_larger_axis_difference() {
    let m = open(6, 4);
    let t = duo(&rows(&m), "0,0", "", "5,3", "");
    let s = t.s();
    assert_eq!(distance(s, Pos::new(0, 0), Pos::new(3, 2)), 3);
    assert_eq!(distance(s, Pos::new(0, 0), Pos::new(2, 3)), 3);
    assert_eq!(distance(s, Pos::new(5, 3), Pos::new(0, 0)), 5);
    // The same number of king-steps: moving to 3,2 spends 3.
    let mut t = t;
    t.cmd("move 3,2");
    assert_eq!(t.s().turn.spent, 3);
    // b at 5,3 is now 2 away: in Range 2.
    t.cmd("act tag2 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r44_target_seven_west_four_north_is_at_distance_seven() {
    // The user at 7,0; the target 7 squares west and 4 squares north, at 0,4.
    let m = open(8, 5);
    let mut t = duo(&rows(&m), "7,0", "", "0,4", "");
    assert_eq!(distance(t.s(), Pos::new(7, 0), Pos::new(0, 4)), 7);
    let r = t.reject("act tag6 b");
    assert_eq!(r.code, "out-of-range");
    t.cmd("act tag7 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r45_rings_around_a_square() {
    let m = open(4, 1);
    let t = duo(&rows(&m), "0,0", "", "3,0", "");
    let s = t.s();
    let o = Pos::new(0, 0);
    let ring = |d: i16| {
        let mut n = 0;
        for x in -5..=5 {
            for y in -5..=5 {
                if distance(s, o, Pos::new(x, y)) == d {
                    n += 1;
                }
            }
        }
        n
    };
    assert_eq!(ring(1), 8);
    assert_eq!(ring(2), 16);
    assert_eq!(ring(3), 24);
    assert_eq!(distance(s, o, Pos::new(2, 1)), 2);
    assert_eq!(distance(s, o, Pos::new(-2, -2)), 2);
    assert_eq!(distance(s, o, Pos::new(3, -1)), 3);
}

#[test]
fn thr_r45_rings_on_the_map_match_range() {
    // The same rings around a user at 3,3: (2,1) and (-2,-2) away are in Range 2, (3,-1) is not.
    for (dx, dy, in2) in [
        (1, 1, true),
        (2, 1, true),
        (-2, -2, true),
        (3, -1, false),
        (0, -3, false),
    ] {
        let m = open(7, 7);
        let b = format!("{},{}", 3 + dx, 3 + dy);
        let mut t = duo(&rows(&m), "3,3", "", &b, "");
        if in2 {
            t.cmd("act tag2 b");
            assert_eq!(t.ch("b").mark, 1, "{dx},{dy}");
        } else {
            assert_eq!(t.reject("act tag2 b").code, "out-of-range", "{dx},{dy}");
            t.cmd("act tag3 b");
            assert_eq!(t.ch("b").mark, 1, "{dx},{dy}");
        }
    }
}

#[test]
fn thr_r46_range_includes_exactly_x_but_not_x_plus_one() {
    let m = open(5, 1);
    let mut t = duo(&rows(&m), "0,0", "", "4,0", "");
    assert_eq!(t.reject("act tag3 b").code, "out-of-range");
    t.cmd("step e");
    t.cmd("act tag3 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r46_basic_attack_range_three() {
    // The same with the Basic Attack (Range 3): at 4 it is refused, at 3 it rolls.
    let m = open(5, 1);
    let mut t = duo(&rows(&m), "0,0", "training = { brawling = 1 }", "4,0", "");
    assert_eq!(t.reject("act basic-attack b").code, "out-of-range");
    t.cmd("step e");
    t.cmd("act basic-attack b");
    assert_eq!(t.pending().0, "defence");
}

#[test]
fn thr_r47_distance_ignores_elevation_by_default() {
    // b stands 5 levels up on the neighbouring square: still distance 1.
    let mut t = duo(&[". 5 ."], "0,0", "", "1,0", "");
    assert_eq!(distance(t.s(), Pos::new(0, 0), Pos::new(1, 0)), 1);
    t.cmd("act tag1 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r47_option_elevation_counts_in_distance() {
    let mut t = duo(
        &[". 5 ."],
        "0,0",
        "",
        "1,0",
        "[options]\ndistance-ignores-elevation = false",
    );
    assert_eq!(distance(t.s(), Pos::new(0, 0), Pos::new(1, 0)), 5);
    assert_eq!(t.reject("act tag1 b").code, "out-of-range");
    t.cmd("act tag6 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r48_range_zero_reaches_only_the_users_square() {
    let mut t = duo(&[". . ."], "0,0", "", "1,0", "");
    assert_eq!(t.reject("act tag0 b").code, "out-of-range");
    // Range Self: the user only.
    assert_eq!(t.reject("act tag-self b").code, "out-of-range");
    t.cmd("act tag0 a");
    assert_eq!(t.ch("a").mark, 1);
}

#[test]
fn thr_r48_range_self_is_the_user_only() {
    let mut t = duo(&[". . ."], "0,0", "", "1,0", "[options]\nrange-zero = \"touch\"");
    // Even with Range 0 reaching the neighbours, Range Self does not.
    assert_eq!(t.reject("act tag-self b").code, "out-of-range");
    t.cmd("act tag-self a");
    assert_eq!(t.ch("a").mark, 1);
}

#[test]
fn thr_r48_option_range_zero_touch_reaches_neighbours() {
    let mut t = duo(&[". . ."], "0,0", "", "1,0", "[options]\nrange-zero = \"touch\"");
    t.cmd("act tag0 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r49_range_one_includes_diagonals() {
    let m = open(3, 3);
    let mut t = duo(&rows(&m), "0,0", "", "1,1", "");
    t.cmd("act tag1 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r49_long_reach_turns_range_one_into_two() {
    let m = open(3, 3);
    let mut t = duo(&rows(&m), "0,0", "", "2,1", "");
    assert_eq!(t.reject("act tag1 b").code, "out-of-range");
    let mut t = duo(&rows(&m), "0,0", "traits = [\"long-reach\"]", "2,1", "");
    t.cmd("act tag1 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r49_long_reach_leaves_other_ranges_alone() {
    let m = open(5, 1);
    let mut t = duo(&rows(&m), "0,0", "traits = [\"long-reach\"]", "3,0", "");
    // Range 2 stays 2.
    assert_eq!(t.reject("act tag2 b").code, "out-of-range");
    t.cmd("act tag3 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r50_no_line_of_sight_check_by_default() {
    // A wall between the user and the target does not stop an ability in range.
    let mut t = duo(&[". x ."], "0,0", "", "2,0", "");
    t.cmd("act tag2 b");
    assert_eq!(t.ch("b").mark, 1);
}

#[test]
fn thr_r50_option_blocked_squares_stop_targeting() {
    let mut t = duo(
        &[". x ."],
        "0,0",
        "",
        "2,0",
        "[options]\nline-of-sight = \"blocked-squares\"",
    );
    assert_eq!(t.reject("act tag2 b").code, "obstructed");
}
