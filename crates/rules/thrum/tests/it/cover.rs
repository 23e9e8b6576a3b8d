//! Ranged, Finisher, Cover and Obstruction (THR-R115 to THR-R131; THR-H15, THR-H17).
//!
//! The worked examples use coordinates with negative values; the map here starts at 0,0, so
//! every square of those examples is shifted by (5,5): (0,0) becomes 5,5, (1,0) becomes 6,5,
//! (1,−1) becomes 6,4, (−4,0) becomes 1,5. A shift by the same amount on both axes keeps the
//! conditions "x < 0" (now x < 5) and "y > x" (still y > x) readable.

use crate::common;
use common::*;
use fray_thrum::event::{Event, Rolled, Verdict};

/// Test attacks without the Ranged tag, so only Cover changes their dice.
const ABILITIES: &str = r#"
[[ability]]
id = "shot"
type = "action"
attack = "physical"
range = 12
target = "enemy"
success = [{ fatigue = 1 }]

[[ability]]
id = "jeer"
type = "action"
attack = "mental"
range = 12
target = "enemy"
success = [{ stress = 1 }]

[[ability]]
id = "long-burst"
type = "action"
attack = "physical"
range = 6
target = "area 2"
success = [{ fatigue = 1 }]

[[ability]]
id = "spike"
type = "action"
attack = "physical"
range = 6
target = "line 2"
success = [{ fatigue = 1 }]

[[ability]]
id = "jab"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = 2 }]
"#;

const ALL: &str =
    "abilities = [\"shot\", \"jeer\", \"long-burst\", \"spike\", \"jab\", \"piercing-shot\", \"sock-em\"]";

/// Initiative faces for `n` combatants with strictly decreasing totals (no ties).
fn init(n: usize) -> Vec<u16> {
    const F: [(u16, u16); 8] = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4), (4, 3), (3, 3), (3, 2)];
    F[..n].iter().flat_map(|&(a, b)| [a, b]).collect()
}

/// A `w` by `h` map of level ground, with some cells replaced: `(x, y, cell)`.
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

/// The attacker `a` (a PC with the test abilities and `a_extra`) at `a_at`, the target `b` (an
/// NPC) at `b_at`, and other combatants `(id, side, "x,y")`; `a`'s turn has begun.
fn game(rows: &[String], a_at: &str, a_extra: &str, b_at: &str, others: &[(&str, &str, &str)], options: &str) -> T {
    let mut rest = who("a", "pcs", a_at, &format!("{ALL}\n{a_extra}"));
    rest.push_str(&who("b", "npcs", b_at, ""));
    for (id, side, p) in others {
        rest.push_str(&who(id, side, p, ""));
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let e = with_abilities(&rows, &format!("{options}\n{rest}"), ABILITIES);
    let mut t = t_with(&e, &init(others.len() + 2));
    t.skip_round_zero();
    t.cmd("begin");
    t
}

/// The first attack roll among events.
fn attack(ev: &[Event]) -> Rolled {
    ev.iter()
        .find_map(|e| match e {
            Event::Contest { attack: Some(a), .. } => Some(**a),
            _ => None,
        })
        .expect("an attack roll")
}

/// `a` uses `act` against B, which defends with `defence`. The attack is scripted with
/// `2 + banes` dice of 4 (so its total is 8 whatever it keeps) and the defence with [1, 1].
/// Returns the attack roll; the test then checks it had exactly `banes` net Banes.
fn roll_with_banes(t: &mut T, act: &str, defence: &str, banes: u16) -> Rolled {
    t.cmd(act);
    let mut faces = vec![4; 2 + banes as usize];
    faces.extend([1, 1]);
    t.dice(&faces);
    t.cmd(&format!("defend {defence}"));
    t.assert_dice_used();
    attack(&t.last)
}

/// Net Banes of a `shot` from `a_at` against B at `b_at` on `rows`, expecting `banes`.
fn shot_banes(rows: &[String], a_at: &str, b_at: &str, others: &[(&str, &str, &str)], options: &str, banes: u16) {
    let mut t = game(rows, a_at, "", b_at, others, options);
    let r = roll_with_banes(&mut t, "act shot b", "resilience", banes);
    assert_eq!(r.net, -(banes as i16), "attacker at {a_at}, target at {b_at}");
}

// ---------------------------------------------------------------------------------------------
// THR-R115, THR-R116: Ranged
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r115_a_ranged_attack_takes_a_bane_per_adjacent_enemy() {
    // A at 1,1 with enemies C (2,1) and D (1,2) next to it and an ally P at 0,1; B far east.
    let m = map(9, 3, &[]);
    let others = [("c", "npcs", "2,1"), ("d", "npcs", "1,2"), ("p", "pcs", "0,1")];
    let mut t = game(&m, "1,1", "", "7,1", &others, "");
    // Piercing Shot is Ranged: 2 adjacent enemies = 2 Banes (the ally does not count).
    let r = roll_with_banes(&mut t, "act piercing-shot b", "resilience", 2);
    assert_eq!(r.net, -2);
    assert_eq!(r.roll.faces.len(), 4);
    // The same attack without the Ranged tag takes none.
    let mut t = game(&m, "1,1", "", "7,1", &others, "");
    assert_eq!(roll_with_banes(&mut t, "act shot b", "resilience", 0).net, 0);
}

#[test]
fn thr_r115_an_incapacitated_adjacent_enemy_still_counts() {
    // THR-R115 with `incapacitated-foes = "count"`: an Incapacitated enemy is still an enemy
    // next to the attacker.
    let m = map(9, 3, &[]);
    let mut t = game(&m, "1,1", "", "7,1", &[("c", "npcs", "2,1")], "");
    t.set("c", "fatigue", 3);
    t.cmd("gm incapacitate c");
    assert!(t.ch("c").incapacitated);
    assert_eq!(roll_with_banes(&mut t, "act piercing-shot b", "resilience", 1).net, -1);
}

#[test]
fn thr_r115_option_incapacitated_foes_ignored() {
    let m = map(9, 3, &[]);
    let options = "[options]\nincapacitated-foes = \"ignored\"";
    let mut t = game(&m, "1,1", "", "7,1", &[("c", "npcs", "2,1")], options);
    t.set("c", "fatigue", 3);
    t.cmd("gm incapacitate c");
    assert!(t.ch("c").incapacitated);
    assert_eq!(roll_with_banes(&mut t, "act piercing-shot b", "resilience", 0).net, 0);
}

#[test]
fn thr_r116_basic_attack_is_ranged_so_an_adjacent_enemy_gives_a_bane() {
    let m = map(9, 3, &[]);
    // C next to A: Basic Attack against B (3 squares away) takes 1 Bane.
    let mut t = game(&m, "1,1", "", "4,1", &[("c", "npcs", "1,2")], "");
    assert_eq!(roll_with_banes(&mut t, "act basic-attack b", "resilience", 1).net, -1);
    // With C two squares away, no Bane.
    let mut t = game(&m, "1,1", "", "4,1", &[("c", "npcs", "8,2")], "");
    assert_eq!(roll_with_banes(&mut t, "act basic-attack b", "resilience", 0).net, 0);
}

// ---------------------------------------------------------------------------------------------
// THR-R117, THR-R118: Finisher
// ---------------------------------------------------------------------------------------------

/// Incapacity Rolls among events: (who, load, passed).
fn incapacity_rolls(t: &T, ev: &[Event]) -> Vec<(String, i16, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::IncapacityRolled { who, load, passed, .. } => Some((t.s().info(*who).id.clone(), *load, *passed)),
            _ => None,
        })
        .collect()
}

/// A (attack +3, Sock 'Em and the plain Jab) next to B, whose Fatigue is `fatigue` (Fatigue
/// Tolerance 3).
fn finisher(fatigue: i16, options: &str) -> T {
    let m = map(4, 1, &[]);
    let mut t = game(&m, "0,0", "attack = 3", "1,0", &[], options);
    t.set("b", "fatigue", fatigue);
    t
}

#[test]
fn thr_r117_a_finisher_that_leaves_its_target_exhausted_calls_an_incapacity_roll_at_once() {
    // B at 2 of 3: Sock 'Em hits, 3 + 3 + 3 = 9 against 3 + 3 = 6, 2 Fatigue: Load 4 > 3.
    let mut t = finisher(2, "");
    t.cmd("act sock-em b option slow");
    t.dice(&[3, 3, 3, 3, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(incapacity_rolls(&t, &t.last), vec![("b".to_string(), 4, true)]);
    // The roll comes right after the attack, before A's turn goes on.
    let contest = t.last.iter().position(|e| matches!(e, Event::Contest { .. })).unwrap();
    let roll = t
        .last
        .iter()
        .position(|e| matches!(e, Event::IncapacityRolled { .. }))
        .unwrap();
    assert!(contest < roll);
    assert_eq!(t.pending(), ("stance", "a".to_string()));
}

#[test]
fn thr_r117_an_attack_without_the_finisher_tag_calls_no_roll() {
    let mut t = finisher(2, "");
    t.cmd("act jab b");
    t.dice(&[3, 3, 3, 3]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 4);
    assert!(t.ch("b").exhausted());
    assert!(incapacity_rolls(&t, &t.last).is_empty());
}

#[test]
fn thr_r118_the_finisher_check_counts_the_attacks_own_fatigue() {
    // B was not Exhausted before the attack; the roll must beat the new Load, 2 + 2 = 4.
    let mut t = finisher(2, "");
    assert!(!t.ch("b").exhausted());
    t.cmd("act sock-em b option slow");
    // Incapacity Roll 2 + 2 = 4, not above 4: B is Incapacitated.
    t.dice(&[3, 3, 3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(incapacity_rolls(&t, &t.last), vec![("b".to_string(), 4, false)]);
    assert!(t.ch("b").incapacitated);
}

#[test]
fn thr_r118_a_finisher_that_misses_an_exhausted_target_still_calls_the_roll() {
    // THR-H15 default: hit or miss. B at 4 of 3; 1 + 1 + 3 = 5 against 3 + 3 = 6 misses.
    let mut t = finisher(4, "");
    t.cmd("act sock-em b option slow");
    t.dice(&[1, 1, 3, 3, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last)[0].2, Verdict::DefenderSuccess);
    assert_eq!(incapacity_rolls(&t, &t.last), vec![("b".to_string(), 4, true)]);
    // A miss against a target that is not Exhausted calls nothing.
    let mut t = finisher(3, "");
    t.cmd("act sock-em b option slow");
    t.dice(&[1, 1, 3, 3]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(incapacity_rolls(&t, &t.last).is_empty());
}

#[test]
fn thr_r118_option_finisher_only_on_a_hit() {
    // THR-H15 alternative: `finisher-on-miss = false`.
    let mut t = finisher(4, "[options]\nfinisher-on-miss = false");
    t.cmd("act sock-em b option slow");
    t.dice(&[1, 1, 3, 3]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(incapacity_rolls(&t, &t.last).is_empty());
    // A hit still calls it: 3 + 3 + 3 = 9 against 6, Load 6.
    let mut t = finisher(4, "[options]\nfinisher-on-miss = false");
    t.cmd("act sock-em b option slow");
    t.dice(&[3, 3, 3, 3, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(incapacity_rolls(&t, &t.last), vec![("b".to_string(), 6, true)]);
}

// ---------------------------------------------------------------------------------------------
// THR-R119 to THR-R127: Cover
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r119_terrain_2_levels_above_the_targets_square_is_a_cover_source() {
    // Target 6,5, attacker 2,5, the candidate source at 5,5.
    for (cell, banes) in [("1", 0), ("2", 1), ("3", 1)] {
        let m = map(11, 11, &[(5, 5, cell)]);
        shot_banes(&m, "2,5", "6,5", &[], "", banes);
    }
    // Relative to the target's square: on a 1-level square, a 2-level source is 1 above.
    let m = map(11, 11, &[(5, 5, "2"), (6, 5, "1")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 0);
    let m = map(11, 11, &[(5, 5, "3"), (6, 5, "1")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 1);
    // A blocked wall has an elevation too.
    let m = map(11, 11, &[(5, 5, "2x")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 1);
    // High ground that is not adjacent to the target gives nothing.
    let m = map(11, 11, &[(4, 5, "3")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 0);
}

#[test]
fn thr_r119_a_character_next_to_the_target_is_a_cover_source_ally_or_enemy() {
    let m = map(11, 11, &[]);
    // C, on the target's side, at 5,5.
    shot_banes(&m, "2,5", "6,5", &[("c", "npcs", "5,5")], "", 1);
    // P, on the attacker's side, at 5,5.
    shot_banes(&m, "2,5", "6,5", &[("p", "pcs", "5,5")], "", 1);
    // Nobody there: no Cover.
    shot_banes(&m, "2,5", "6,5", &[("p", "pcs", "9,9")], "", 0);
}

#[test]
fn thr_r120_cover_works_only_against_physical_attacks() {
    let m = map(11, 11, &[(5, 5, "3")]);
    let mut t = game(&m, "2,5", "", "6,5", &[], "");
    assert_eq!(roll_with_banes(&mut t, "act shot b", "resilience", 1).net, -1);
    let mut t = game(&m, "2,5", "", "6,5", &[], "");
    assert_eq!(roll_with_banes(&mut t, "act jeer b", "resolve", 0).net, 0);
}

#[test]
fn thr_r121_cover_needs_the_attacker_lower_than_the_terrain_source() {
    // Source at level 2. Attacker on level 1: Cover. Attacker on level 2: none.
    let m = map(11, 11, &[(5, 5, "2"), (2, 5, "1")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 1);
    let m = map(11, 11, &[(5, 5, "2"), (2, 5, "2")]);
    shot_banes(&m, "2,5", "6,5", &[], "", 0);
}

#[test]
fn thr_r121_a_character_counts_as_its_square_plus_2() {
    // THR-H17 default (character-cover-height = 2). C stands on level ground at 5,5: height 2.
    let c = [("c", "npcs", "5,5")];
    let m = map(11, 11, &[(2, 5, "1")]);
    shot_banes(&m, "2,5", "6,5", &c, "", 1);
    let m = map(11, 11, &[(2, 5, "2")]);
    shot_banes(&m, "2,5", "6,5", &c, "", 0);
    // C on a 1-level square: height 3, still above an attacker on level 2.
    let m = map(11, 11, &[(2, 5, "2"), (5, 5, "1")]);
    shot_banes(&m, "2,5", "6,5", &c, "", 1);
}

#[test]
fn thr_r121_option_character_cover_height() {
    // THR-H17 alternative: a character counts as its square + 3, so it covers against an
    // attacker on level 2 (which + 2 did not).
    let m = map(11, 11, &[(2, 5, "2")]);
    let opt = "[options]\ncharacter-cover-height = 3";
    shot_banes(&m, "2,5", "6,5", &[("c", "npcs", "5,5")], opt, 1);
    let m = map(11, 11, &[(2, 5, "3")]);
    shot_banes(&m, "2,5", "6,5", &[("c", "npcs", "5,5")], opt, 0);
}

#[test]
fn thr_r122_cover_applies_when_the_attacker_is_beyond_the_dividing_line() {
    // Source C at 5,6, directly north of the target at 5,5: the dividing line is the row
    // y = 6, and (A − S) · (T − S) < 0 means A is north of it.
    let m = map(11, 11, &[]);
    let c = [("c", "npcs", "5,6")];
    for (a, banes) in [("8,9", 1), ("1,7", 1), ("8,6", 0), ("2,6", 0), ("2,4", 0), ("9,1", 0)] {
        shot_banes(&m, a, "5,5", &c, "", banes);
    }
}

#[test]
fn thr_r123_an_attacker_on_the_dividing_line_gets_no_cover_penalty() {
    // THR-H17 default. High ground 5,5, target 6,5: the line is the column x = 5.
    let m = map(11, 11, &[(5, 5, "2")]);
    shot_banes(&m, "5,8", "6,5", &[], "", 0);
    shot_banes(&m, "5,1", "6,5", &[], "", 0);
}

#[test]
fn thr_r123_option_cover_on_the_line() {
    // THR-H17 alternative: `cover-on-line = true` gives the Bane on the line too.
    let m = map(11, 11, &[(5, 5, "2")]);
    let opt = "[options]\ncover-on-line = true";
    shot_banes(&m, "5,8", "6,5", &[], opt, 1);
    shot_banes(&m, "7,8", "6,5", &[], opt, 0);
}

#[test]
fn thr_r124_target_east_of_high_ground_has_cover_only_from_the_west() {
    // Worked example, shifted by (5,5): high ground (0,0) → 5,5; target (1,0) → 6,5.
    // "x < 0" becomes x < 5.
    let m = map(11, 11, &[(5, 5, "2")]);
    for a in ["2,5", "4,8", "3,1", "4,5", "0,10"] {
        shot_banes(&m, a, "6,5", &[], "", 1);
    }
    // x = 0 (the column through the high ground) and x ≥ 1: no Cover.
    for a in ["5,8", "5,1", "6,9", "9,5", "8,2", "7,5"] {
        shot_banes(&m, a, "6,5", &[], "", 0);
    }
}

#[test]
fn thr_r125_target_south_east_of_high_ground_has_cover_only_from_the_north_west() {
    // Worked example, shifted by (5,5): high ground (0,0) → 5,5; target (1,−1) → 6,4. The
    // dividing diagonal runs through 5,5 from south-west to north-east; "y > x" is unchanged.
    let m = map(11, 11, &[(5, 5, "2")]);
    // North-west of the diagonal, including 7,9 (originally (2,4)) east of the high ground.
    for a in ["2,8", "1,3", "7,9", "4,5", "5,8"] {
        shot_banes(&m, a, "6,4", &[], "", 1);
    }
    // On the diagonal (3,3 and 9,9) or south-east of it, including 2,1 (originally (−3,−4)).
    for a in ["3,3", "9,9", "8,2", "5,1", "2,1"] {
        shot_banes(&m, a, "6,4", &[], "", 0);
    }
}

#[test]
fn thr_r126_cover_gives_the_attack_one_bane() {
    let m = map(11, 11, &[(5, 5, "2")]);
    // With Cover: [6, 6, 1] keeps the worst two, 6 + 1 = 7.
    let mut t = game(&m, "2,5", "", "6,5", &[], "");
    t.cmd("act shot b");
    t.dice(&[6, 6, 1, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let r = attack(&t.last);
    assert_eq!((r.net, r.total), (-1, 7));
    assert_eq!(contests(&t.last)[0].2, Verdict::AttackerSuccess);
    // Without (attacker east of the line): [6, 6] = 12.
    let mut t = game(&m, "9,5", "", "6,5", &[], "");
    t.cmd("act shot b");
    t.dice(&[6, 6, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!((attack(&t.last).net, attack(&t.last).total), (0, 12));
}

#[test]
fn thr_r127_cover_gives_at_most_one_bane() {
    // THR-H17 default. Two sources for the target at 6,5 against 2,8: high ground 5,5 (west)
    // and C at 6,6 (north). Neither is flanked, so nothing is Obstructed.
    let m = map(11, 11, &[(5, 5, "2")]);
    shot_banes(&m, "2,8", "6,5", &[("c", "npcs", "6,6")], "", 1);
}

#[test]
fn thr_r127_option_max_cover_banes() {
    // THR-H17 alternative: `max-cover-banes = 2` lets both sources count.
    let m = map(11, 11, &[(5, 5, "2")]);
    let opt = "[options]\nmax-cover-banes = 2";
    shot_banes(&m, "2,8", "6,5", &[("c", "npcs", "6,6")], opt, 2);
    shot_banes(&m, "2,8", "6,5", &[], opt, 1);
}

// ---------------------------------------------------------------------------------------------
// THR-R128 to THR-R131: Obstruction
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r128_a_flanked_cover_source_obstructs_the_attacker() {
    // Target 6,4, source 5,5 (the THR-R125 layout); its flanks along the dividing diagonal are
    // 6,6 and 4,4, originally (1,1) and (−1,−1): neither is adjacent to the target.
    let walls = map(11, 11, &[(5, 5, "2"), (6, 6, "2"), (4, 4, "2")]);
    let mut t = game(&walls, "2,8", "", "6,4", &[], "");
    assert_eq!(t.reject("act shot b").code, "obstructed");
    // One flank missing: only Cover.
    let one = map(11, 11, &[(5, 5, "2"), (6, 6, "2")]);
    shot_banes(&one, "2,8", "6,4", &[], "", 1);
    // A character counts as a flank as well.
    let mut t = game(&one, "2,8", "", "6,4", &[("c", "npcs", "4,4")], "");
    assert_eq!(t.reject("act shot b").code, "obstructed");
}

#[test]
fn thr_r128_obstruction_needs_cover_against_this_attacker() {
    // From the south-east side of the diagonal there is no Cover, so no Obstruction.
    let m = map(11, 11, &[(5, 5, "2"), (6, 6, "2"), (4, 4, "2")]);
    shot_banes(&m, "9,1", "6,4", &[], "", 0);
    // From a square as high as the source (level 2), no Cover either, so no Obstruction.
    let m = map(11, 11, &[(5, 5, "2"), (6, 6, "2"), (4, 4, "2"), (2, 8, "2")]);
    shot_banes(&m, "2,8", "6,4", &[], "", 0);
}

#[test]
fn thr_r128_obstruction_applies_only_to_physical_attacks() {
    // THR-H17 default: a Mental Attack passes (and takes no Cover Bane).
    let walls = map(11, 11, &[(5, 5, "2"), (6, 6, "2"), (4, 4, "2")]);
    let mut t = game(&walls, "2,8", "", "6,4", &[], "");
    assert_eq!(roll_with_banes(&mut t, "act jeer b", "resolve", 0).net, 0);
    assert_eq!(t.ch("b").stress, 1);
}

#[test]
fn thr_r128_option_obstruction_for_mental_attacks() {
    // THR-H17 alternative: `obstruction-for-mental = true`.
    let walls = map(11, 11, &[(5, 5, "2"), (6, 6, "2"), (4, 4, "2")]);
    let mut t = game(
        &walls,
        "2,8",
        "",
        "6,4",
        &[],
        "[options]\nobstruction-for-mental = true",
    );
    assert_eq!(t.reject("act jeer b").code, "obstructed");
    assert!(!t.legal().iter().any(|c| c == "act jeer b"));
}

#[test]
fn thr_r129_an_obstructed_character_cannot_be_targeted() {
    // Walls 5,4 5,5 5,6 shield B at 6,5 from A at 1,5; C at 6,8 is in the open.
    let m = map(11, 11, &[(5, 4, "2x"), (5, 5, "2x"), (5, 6, "2x")]);
    let mut t = game(&m, "1,5", "", "6,5", &[("c", "npcs", "6,8")], "");
    let r = t.reject("act shot b");
    assert_eq!(r.code, "obstructed");
    let legal = t.legal();
    assert!(!legal.iter().any(|c| c == "act shot b"), "{legal:?}");
    assert!(legal.iter().any(|c| c == "act shot c"), "{legal:?}");
    t.cmd("act shot c");
}

#[test]
fn thr_r130_an_area_may_hit_an_obstructed_character_if_another_square_is_not_obstructed() {
    // Walls 5,3 to 5,7 obstruct 6,4, 6,5 and 6,6 from A at 1,5.
    let cells: Vec<(usize, usize, &str)> = (3..=7).map(|y| (5, y, "2x")).collect();
    let m = map(11, 11, &cells);
    let mut t = game(&m, "1,5", "", "6,5", &[], "");
    // A Line 2 on 6,4 and 6,5: every square Obstructed, so it cannot be placed.
    assert_eq!(t.reject("act spike line 6,4 n").code, "obstructed");
    // A Line 2 on 6,5 and 7,5: 7,5 is not Obstructed, so the line is legal and hits B.
    t.cmd("act spike line 6,5 e");
    t.dice(&[6, 6, 6, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 1);
}

#[test]
fn thr_r131_worked_example_walls_and_an_area_2() {
    // Shifted by (5,5): target (1,0) → 6,5; walls (0,1) (0,0) (0,−1) → 5,6 5,5 5,4;
    // attacker (−4,0) → 1,5; the Area 2 covers (1,0) and (2,0) → 6,5 and 7,5 (and 6,6, 7,6).
    let m = map(11, 11, &[(5, 6, "2x"), (5, 5, "2x"), (5, 4, "2x")]);
    let mut t = game(&m, "1,5", "", "6,5", &[], "");
    assert_eq!(t.reject("act shot b").code, "obstructed");
    t.cmd("act long-burst area 6,5");
    // B is affected, and has Cover from the wall at 5,5 (THR-H17: per target): 1 Bane.
    t.dice(&[5, 5, 5, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let r = attack(&t.last);
    assert_eq!((r.net, r.total), (-1, 10));
    assert_eq!(t.ch("b").fatigue, 1);
}
