//! Movement, elevation, terrain, forced moves, teleports, the Loomer and the Weaver (THR-R51 to
//! THR-R76, THR-H12, THR-H16).

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::ability::{Attr, Cond, XStatus};
use fray_thrum::event::Event;

/// Test-only abilities: a teleport that uses movement, a pull, and a shift of the user itself
/// (the simplest forced move a character can undergo during its own turn).
const MOVERS: &str = r#"
[[ability]]
id = "blink"
type = "action"
range = 3
target = "square"
effect = [{ teleport = "movement", to = "self" }]

[[ability]]
id = "yank"
type = "action"
range = 3
target = "character"
effect = [{ pull = 2 }]

[[ability]]
id = "lurch"
type = "action"
target = "self"
effect = [{ shift = 1 }]
"#;

const BIFFER: &str = "attack = 3\nresilience = 1\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 3\nmax-stress-tolerance = 1\nabilities = [\"shove\"]";

fn p(x: i16, y: i16) -> Option<Pos> {
    Some(Pos::new(x, y))
}

/// A game where the PC `a` (at `a_at`, with `a_extra`) acts first and its turn has begun.
/// `others` are more combatants (use [`who`]); they act later, in file order. `options` is an
/// `[options]` table or "".
fn walk(rows: &[&str], a_at: &str, a_extra: &str, others: &str, options: &str) -> T {
    let e = with_abilities(
        rows,
        &format!(
            "{options}\n{}{others}",
            who(
                "a",
                "pcs",
                a_at,
                &format!("abilities = [\"blink\", \"yank\", \"lurch\"]\n{a_extra}")
            )
        ),
        MOVERS,
    );
    let n = e.0.matches("[[combatant]]").count();
    // a rolls 12; the others 5, 4, 3... (no ties).
    let mut init = vec![6, 6];
    for i in 1..n {
        let total = 6 - i as u16;
        init.extend([total.div_ceil(2), total / 2]);
    }
    let mut t = t_with(&e, &init);
    t.skip_round_zero();
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    assert_eq!(t.turn().0, "a");
    t
}

/// A far-away NPC so that the combat goes on.
fn far(at: &str) -> String {
    who("z", "npcs", at, "")
}

fn drop_rolls(ev: &[Event]) -> Vec<(Attr, i16, i16, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::DropRolled {
                attr,
                roll,
                against,
                passed,
                ..
            } => Some((*attr, roll.total, *against, *passed)),
            _ => None,
        })
        .collect()
}

fn moves(ev: &[Event]) -> Vec<(Pos, Pos, i16, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Moved {
                from, to, cost, forced, ..
            } => Some((*from, *to, *cost, *forced)),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Speed and steps (THR-R51 to THR-R57)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r51_a_plain_step_costs_one_and_terrain_raises_it() {
    let mut t = walk(&[". . d . ."], "0,0", "", &far("4,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 1);
    t.cmd("step e"); // into the Difficult square: still 1
    assert_eq!(t.s().turn.spent, 2);
    t.cmd("step e"); // out of it: 2
    assert_eq!(t.s().turn.spent, 4);
    assert_eq!(t.ch("a").pos, p(3, 0));
}

#[test]
fn thr_r52_movement_spent_may_not_exceed_speed() {
    let mut t = walk(&[". . . . . . ."], "0,0", "", &far("6,0"), "");
    assert_eq!(t.reject("move 5,0").code, "not-enough-movement");
    t.cmd("move 4,0");
    assert_eq!(t.s().turn.spent, 4);
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    assert_eq!(t.ch("a").pos, p(4, 0));
}

#[test]
fn thr_r52_speed_is_the_characters_own() {
    let mut t = walk(&[". . . . . . ."], "0,0", "speed = 5", &far("6,0"), "");
    t.cmd("move 5,0");
    assert_eq!(t.s().turn.spent, 5);
}

#[test]
fn thr_r53_a_step_costing_more_than_is_left_is_refused() {
    // Speed 3, 2 spent; leaving the Difficult square costs 2.
    let mut t = walk(&[". . d . ."], "0,0", "speed = 3", &far("4,0"), "");
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 2);
    let r = t.reject("step e");
    assert_eq!(r.code, "not-enough-movement");
    assert!(r.reason.contains("costs 2"), "{}", r.reason);
}

#[test]
fn thr_r53_option_partial_steps_allows_the_last_step() {
    let mut t = walk(
        &[". . d . ."],
        "0,0",
        "speed = 3",
        &far("4,0"),
        "[options]\npartial-steps = true",
    );
    t.cmd("move 2,0");
    t.cmd("step e");
    assert_eq!(t.ch("a").pos, p(3, 0));
    assert_eq!(t.s().turn.spent, 4);
    assert_eq!(t.reject("step w").code, "not-enough-movement");
}

#[test]
fn thr_r54_a_character_moves_through_an_ally() {
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("c", "pcs", "1,0", ""), far("3,0")),
        "",
    );
    t.cmd("move 2,0");
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(t.s().turn.spent, 2);
    let m = moves(&t.last);
    assert_eq!(m[0].1, Pos::new(1, 0), "the path crosses the ally's square");
    assert_eq!(t.ch("c").pos, p(1, 0));
}

#[test]
fn thr_r55_a_character_may_not_end_its_move_on_an_ally() {
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("c", "pcs", "1,0", ""), far("3,0")),
        "",
    );
    assert_eq!(t.reject("move 1,0").code, "cannot-stop-here");
    assert_eq!(t.reject("step e").code, "cannot-stop-here");
}

#[test]
fn thr_r57_a_character_may_not_enter_an_enemys_square() {
    // A corridor with an enemy in the way: no way round, and no stepping in.
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("b", "npcs", "1,0", ""), far("3,0")),
        "",
    );
    assert_eq!(t.reject("step e").code, "blocked");
    assert_eq!(t.reject("move 2,0").code, "not-enough-movement");
    // With room to go round, the path avoids the enemy's square (2 diagonal steps).
    let mut t = walk(
        &[". . . .", ". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("b", "npcs", "1,0", ""), far("3,1")),
        "",
    );
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 2);
    assert!(moves(&t.last).iter().all(|m| m.1 != Pos::new(1, 0)));
}

// ---------------------------------------------------------------------------------------------
// Teleports (THR-R58 to THR-R60, THR-H12)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r58_a_teleport_ignores_walls_and_characters_in_between() {
    // A wall at 1,0 and an enemy at 2,0 close the corridor.
    let mut t = walk(
        &[". x . . ."],
        "0,0",
        "",
        &format!("{}{}", who("b", "npcs", "2,0", ""), far("4,0")),
        "",
    );
    assert_eq!(t.reject("move 3,0").code, "not-enough-movement");
    t.cmd("act blink at 3,0");
    assert_eq!(t.ch("a").pos, p(3, 0));
    assert!(moves(&t.last).is_empty(), "no square in between is crossed");
    assert!(t.last.iter().any(|e| matches!(e, Event::Teleported { cost: 3, .. })));
    assert_eq!(t.s().turn.spent, 3);
}

#[test]
fn thr_r59_a_teleport_ignores_difficult_origin_and_elevation_of_destination() {
    // Walking: leave Difficult (1 + 1) then climb 3 levels (1 + 2) = 5 > Speed 4.
    let mut t = walk(&["d . 3 ."], "0,0", "", &far("3,0"), "");
    assert_eq!(t.reject("move 2,0").code, "not-enough-movement");
    t.cmd("act blink at 2,0");
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(t.s().turn.spent, 2);
}

#[test]
fn thr_r60_teleport_spends_its_distance_and_needs_movement_left() {
    // THR-H12: the Chebyshev distance (3 for 3,2 from 0,0).
    let mut t = walk(&[". . . .", ". . . .", ". . . ."], "0,0", "", &far("3,0"), "");
    t.cmd("act blink at 3,2");
    assert_eq!(t.s().turn.spent, 3);
    let mut t = walk(&[". . . . . .", ". . . . . ."], "0,0", "", &far("5,1"), "");
    t.cmd("move 2,0");
    let r = t.reject("act blink at 5,0");
    assert_eq!(r.code, "not-enough-movement");
    t.cmd("act blink at 4,0");
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r60_option_teleport_cost_free() {
    // THR-H12 alternative.
    let mut t = walk(
        &[". . . . . .", ". . . . . ."],
        "0,0",
        "",
        &far("5,1"),
        "[options]\nteleport-cost = \"free\"",
    );
    t.cmd("move 2,0");
    t.cmd("act blink at 5,0");
    assert_eq!(t.ch("a").pos, p(5, 0));
    assert_eq!(t.s().turn.spent, 2);
}

#[test]
fn thr_r60_teleport_destination_must_be_empty() {
    // THR-H12: an ally's or an enemy's square is refused.
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("c", "pcs", "2,0", ""), who("b", "npcs", "3,0", "")),
        "",
    );
    assert_eq!(t.reject("act blink at 2,0").code, "occupied");
    assert_eq!(t.reject("act blink at 3,0").code, "occupied");
}

#[test]
fn thr_r60_option_teleport_onto_an_ally_swaps() {
    // THR-H12 alternative: an ally's square is allowed, and the ally takes the user's square.
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &format!("{}{}", who("c", "pcs", "2,0", ""), who("b", "npcs", "3,0", "")),
        "[options]\nteleport-needs-empty = false",
    );
    assert_eq!(t.reject("act blink at 3,0").code, "occupied");
    t.cmd("act blink at 2,0");
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(t.ch("c").pos, p(0, 0));
}

// ---------------------------------------------------------------------------------------------
// Elevation (THR-R61 to THR-R69, THR-R72, THR-R73, THR-H16)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r61_squares_have_integer_elevations_default_zero() {
    let t = walk(&["+2 -1 . 3 -12"], "2,0", "", &far("4,0"), "");
    let map = &t.s().setup.map;
    let e: Vec<i8> = (0..5).map(|x| map.elevation(Pos::new(x, 0)).unwrap()).collect();
    assert_eq!(e, vec![2, -1, 0, 3, -12]);
}

#[test]
fn thr_r62_a_change_of_one_level_costs_nothing_extra() {
    let mut t = walk(&[". 1 2 1 ."], "0,0", "", &far("4,0"), "");
    for (dir, spent) in [("e", 1), ("e", 2), ("e", 3)] {
        t.cmd(&format!("step {dir}"));
        assert_eq!(t.s().turn.spent, spent);
    }
    assert_eq!(t.ch("a").pos, p(3, 0));
    t.cmd("step w"); // 1 -> 2: up one
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r63_each_level_beyond_the_first_costs_one_up_or_down() {
    // Up 3 levels: 1 + 2 = 3.
    let mut t = walk(&[". 3 ."], "0,0", "", &far("2,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 3);
    // Down 2 levels (no roll): 1 + 1 = 2.
    let mut t = walk(&["2 . ."], "0,0", "", &far("2,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
    // Up 2 levels: 2.
    let mut t = walk(&[". 2 ."], "0,0", "", &far("2,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
}

/// A PC with END 2 and REF 0 on a 0 square west of two −3 squares.
fn ledge(options: &str) -> T {
    walk(
        &[". -3 -3 ."],
        "0,0",
        "attributes = { end = 2, ref = 0 }",
        &far("3,0"),
        options,
    )
}

#[test]
fn thr_r64_the_drop_roll_uses_end_or_ref_against_2d6_plus_the_drop() {
    // END: 4 + 4 + 2 = 10 against the environment's 3 + 3 + 3 = 9.
    let mut t = ledge("");
    t.dice(&[4, 4, 3, 3]);
    t.cmd("step e roll end");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 10, 9, true)]);
    let opposition = t.last.iter().find_map(|e| match e {
        Event::DropRolled { opposition, .. } => opposition.as_deref().copied(),
        _ => None,
    });
    assert_eq!(opposition.map(|o| (o.modifier, o.total)), Some((3, 9)));
    t.assert_dice_used();
    // REF (0) with the same dice: 8 against 9.
    let mut t = ledge("");
    t.dice(&[4, 4, 3, 3]);
    t.cmd("step e roll ref");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::Ref, 8, 9, false)]);
}

#[test]
fn thr_r64_no_roll_on_a_drop_of_one_level() {
    let mut t = walk(&[". -1 ."], "0,0", "", &far("2,0"), "");
    assert_eq!(t.reject("step e roll end").code, "bad-pick");
}

#[test]
fn thr_r65_a_successful_drop_roll_pays_only_the_normal_step() {
    let mut t = ledge("");
    t.dice(&[6, 5, 1, 2]);
    t.cmd("step e roll end");
    assert_eq!(t.ch("a").pos, p(1, 0));
    assert_eq!(t.s().turn.spent, 1);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 0);
    assert!(!t.ch("a").has(Cond::Dazed));
}

#[test]
fn thr_r66_a_failed_drop_roll_gives_slowed_and_still_lands() {
    let mut t = ledge("");
    t.dice(&[1, 1, 6, 6]);
    t.cmd("step e roll end");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 4, 15, false)]);
    assert_eq!(t.ch("a").pos, p(1, 0));
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert_eq!(t.s().turn.spent, 1);
    // Speed is now 2 and 1 is spent: not out of movement, so no Dazed and one more step.
    assert!(!t.ch("a").has(Cond::Dazed));
    t.cmd("step e");
    assert_eq!(t.reject("step w").code, "not-enough-movement");
}

#[test]
fn thr_h16_a_tie_with_the_environment_fails() {
    // 3 + 3 + 2 = 8 against 2 + 3 + 3 = 8.
    let mut t = ledge("");
    t.dice(&[3, 3, 2, 3]);
    t.cmd("step e roll end");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 8, 8, false)]);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
}

#[test]
fn thr_h16_option_fixed_target_seven_plus_the_drop() {
    // No dice for the environment: the target is 7 + 3 = 10, to be beaten.
    let mut t = ledge("[options]\nenvironment-roll = \"fixed-target\"");
    t.dice(&[4, 4]);
    t.cmd("step e roll end");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 10, 10, false)]);
    t.assert_dice_used();
    let mut t = ledge("[options]\nenvironment-roll = \"fixed-target\"");
    t.dice(&[5, 4]);
    t.cmd("step e roll end");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 11, 10, true)]);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 0);
}

#[test]
fn thr_r72_step_down_three_levels_pays_three_or_rolls_for_one() {
    // Speed 4 on a 0-level square next to a −3 square. Without rolling: 1 + 2 = 3.
    let mut t = ledge("");
    assert_eq!(t.s().setup.chars[0].stats.speed, 4);
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 3);
    assert!(drop_rolls(&t.last).is_empty());
    // Rolling instead, and succeeding: 1.
    let mut t = ledge("");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("step e roll end");
    assert!(drop_rolls(&t.last)[0].3);
    assert_eq!(t.s().turn.spent, 1);
}

#[test]
fn thr_r67_thr_r73_failed_drop_with_no_speed_left_ends_movement_and_dazes() {
    // Speed 4, 2 already spent; the drop roll fails: Slowed (Speed 2), spent 3 >= 2.
    let mut t = walk(
        &[". . . -3 ."],
        "0,0",
        "attributes = { end = 2, ref = 0 }",
        &far("4,0"),
        "",
    );
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 2);
    t.dice(&[1, 1, 6, 6]);
    t.cmd("step e roll end");
    assert!(!drop_rolls(&t.last)[0].3);
    assert_eq!(t.ch("a").pos, p(3, 0));
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert_eq!(fray_thrum::calc::speed(t.s(), t.id("a")), 2);
    assert_eq!(t.s().turn.spent, 3);
    assert!(t.last.iter().any(|e| matches!(e, Event::MovementStopped { .. })));
    assert!(t.ch("a").has(Cond::Dazed));
    // Its movement has ended for the turn: no movement is left to step with.
    let r = t.reject("step w");
    assert_eq!(r.code, "not-enough-movement");
    assert!(r.reason.contains("failed drop roll"), "{}", r.reason);
    assert_eq!(t.reject("move 1,0").code, "not-enough-movement");
}

#[test]
fn thr_r67_speed_left_after_a_failed_roll_means_no_dazed() {
    // Speed 6, 2 spent: Slowed makes Speed 4, and 3 spent is less.
    let mut t = walk(
        &[". . . -3 -3 ."],
        "0,0",
        "attributes = { end = 2, ref = 0 }\nspeed = 6",
        &far("5,0"),
        "",
    );
    t.cmd("move 2,0");
    t.dice(&[1, 1, 6, 6]);
    t.cmd("step e roll end");
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert!(!t.ch("a").has(Cond::Dazed));
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r69_no_roll_when_climbing() {
    let mut t = walk(&[". 2 ."], "0,0", "", &far("2,0"), "");
    let r = t.reject("step e roll end");
    assert_eq!(r.code, "bad-pick");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
}

/// The Biffer `b` (Tier `tier`) acts first and shoves the PC `a`; `a` defends with Resilience.
fn shove(rows: &[&str], b_at: &str, tier: i16, a_at: &str, a_extra: &str, others: &str, options: &str) -> T {
    let toml = enc(
        rows,
        &format!(
            "{options}\n{}{}{others}",
            who("b", "npcs", b_at, &format!("{BIFFER}\ntier = {tier}")),
            who("a", "pcs", a_at, a_extra),
        ),
    );
    let n = toml.matches("[[combatant]]").count();
    let mut init = vec![6, 6, 1, 1];
    for i in 2..n {
        init.extend([2, i as u16]);
    }
    let mut t = T::in_round_one(&toml, &init);
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    assert_eq!(t.turn().0, "b");
    t
}

/// Faces for a Shove that hits: the Biffer's 6 + 6 + 3 against 1 + 1 + Resilience.
const HIT: [u16; 4] = [6, 6, 1, 1];

#[test]
fn thr_r68_thr_r69_a_push_off_a_ledge_forces_a_roll_without_spending_movement() {
    let mut t = shove(
        &[". . -2 ."],
        "0,0",
        0,
        "1,0",
        "attributes = { end = 2, ref = 0 }",
        "",
        "",
    );
    t.dice(&HIT);
    // The drop roll: 1 + 1 + 2 = 4 against 6 + 6 + 2 = 14.
    t.dice(&[1, 1, 6, 6]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 4, 14, false)]);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    // Not its turn: nothing spent, so no Dazed either.
    assert!(!t.ch("a").has(Cond::Dazed));
    assert!(moves(&t.last).iter().all(|m| m.2 == 0 && m.3));
}

#[test]
fn thr_r68_an_involuntary_drop_roll_that_succeeds_has_no_effect() {
    let mut t = shove(
        &[". . -3 ."],
        "0,0",
        0,
        "1,0",
        "attributes = { end = 2, ref = 0 }",
        "",
        "",
    );
    t.dice(&HIT);
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 14, 5, true)]);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 0);
}

#[test]
fn thr_r69_the_involuntary_roll_takes_the_better_attribute() {
    // REF 3, END 0: the engine rolls REF for the character.
    let mut t = shove(
        &[". . -2 ."],
        "0,0",
        0,
        "1,0",
        "attributes = { end = 0, ref = 3 }",
        "",
        "",
    );
    t.dice(&HIT);
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert_eq!(drop_rolls(&t.last), vec![(Attr::Ref, 9, 8, true)]);
}

#[test]
fn thr_r68_thr_r69_an_involuntary_drop_in_its_own_turn_spends_nothing_but_can_daze() {
    // a walks 2, then shifts itself off the ledge: the roll is mandatory (END, the better
    // chance) and fails. No movement is spent by the drop (still 2), but 2 >= Speed 2 after
    // Slowed, so a is Dazed as after a voluntary drop (THR-R67).
    let mut t = walk(
        &[". . . -3 ."],
        "0,0",
        "attributes = { end = 2, ref = 0 }",
        &far("4,0"),
        "",
    );
    t.cmd("move 2,0");
    t.dice(&[1, 1, 6, 6]);
    t.cmd("act lurch dir e");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(3, 0));
    assert_eq!(drop_rolls(&t.last), vec![(Attr::End, 4, 15, false)]);
    assert_eq!(t.s().turn.spent, 2);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert!(t.ch("a").has(Cond::Dazed));
}

#[test]
fn thr_r69_option_involuntary_drop_no_roll() {
    let mut t = shove(
        &[". . -2 ."],
        "0,0",
        0,
        "1,0",
        "attributes = { end = 2, ref = 0 }",
        "",
        "[options]\ninvoluntary-drop = \"no-roll\"",
    );
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert!(drop_rolls(&t.last).is_empty());
    assert_eq!(t.ch("a").status(XStatus::Slowed), 0);
}

// ---------------------------------------------------------------------------------------------
// Difficult Terrain (THR-R70, THR-R71)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r70_leaving_difficult_terrain_costs_one_more() {
    let mut t = walk(&["d . ."], "0,0", "", &far("2,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
    t.cmd("step w"); // entering it: 1
    assert_eq!(t.s().turn.spent, 3);
}

#[test]
fn thr_r71_extra_costs_add_up() {
    // Leaving Difficult Terrain while climbing 3 levels: 1 + 1 + 2 = 4.
    let mut t = walk(&["d 3 ."], "0,0", "", &far("2,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 4);
    assert_eq!(t.ch("a").pos, p(1, 0));
    let mut t = walk(&["d 3 ."], "0,0", "speed = 3", &far("2,0"), "");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

// ---------------------------------------------------------------------------------------------
// Pushes and pulls (THR-R56, THR-R74)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r74_a_push_moves_the_target_away_one_square_at_a_time() {
    // Tier 1 Biffer: push 1 + T = 2, diagonally away from the Biffer.
    let mut t = shove(
        &[". . . .", ". . . .", ". . . .", ". . . ."],
        "0,0",
        1,
        "1,1",
        "",
        "",
        "",
    );
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    let m = moves(&t.last);
    assert_eq!(
        m,
        vec![
            (Pos::new(1, 1), Pos::new(2, 2), 0, true),
            (Pos::new(2, 2), Pos::new(3, 3), 0, true)
        ]
    );
    // Shove then offers the Biffer a follow-up move; it stays.
    assert_eq!(t.pending().0, "move");
    t.cmd("pass");
    // The push spent none of a's movement: on its turn a still walks its full Speed.
    t.cmd("end");
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    assert_eq!(t.turn().0, "a");
    t.cmd("move 3,0"); // 3 squares south
    assert_eq!(t.s().turn.spent, 3);
    t.cmd("step w");
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r74_a_pull_moves_the_target_closer_and_stops_next_to_the_user() {
    let mut t = walk(&[". . . . ."], "0,0", "", &who("b", "npcs", "3,0", ""), "");
    t.cmd("act yank b");
    assert_eq!(
        moves(&t.last),
        vec![
            (Pos::new(3, 0), Pos::new(2, 0), 0, true),
            (Pos::new(2, 0), Pos::new(1, 0), 0, true)
        ]
    );
    assert_eq!(t.ch("b").pos, p(1, 0));
    // Pulled again from next door: it cannot enter the user's square.
    let mut t = walk(&[". . . . ."], "0,0", "", &who("b", "npcs", "1,0", ""), "");
    t.cmd("act yank b");
    assert!(moves(&t.last).is_empty());
    assert_eq!(t.ch("b").pos, p(1, 0));
}

#[test]
fn thr_r74_forced_moves_spend_none_of_the_movers_movement() {
    // The user shifts itself (a forced move during its own turn): nothing is spent.
    let mut t = walk(&[". . . ."], "0,0", "", &far("3,0"), "");
    t.cmd("step e");
    t.cmd("act lurch dir e");
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(t.s().turn.spent, 1);
}

#[test]
fn thr_r74_option_forced_moves_spend_movement() {
    let mut t = walk(
        &[". . . ."],
        "0,0",
        "",
        &far("3,0"),
        "[options]\nforced-moves-spend-movement = true",
    );
    t.cmd("step e");
    t.cmd("act lurch dir e");
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_eq!(t.s().turn.spent, 2);
}

#[test]
fn thr_r56_no_push_into_an_allys_square() {
    // a is shoved east towards its ally c: the push stops at once.
    let mut t = shove(&[". . . . ."], "0,0", 1, "1,0", "", &who("c", "pcs", "2,0", ""), "");
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert!(moves(&t.last).is_empty());
    assert_eq!(t.ch("a").pos, p(1, 0));
    assert_eq!(t.ch("c").pos, p(2, 0));
    // The log names who stopped it (the critical hit pushes 2 squares).
    assert!(
        t.log()
            .iter()
            .any(|l| l == "a's forced move stops at 1,0 with 2 square(s) to go: c (an ally) is in the way"),
        "{:?}",
        t.log()
    );
}

#[test]
fn thr_r56_no_pull_into_an_allys_square() {
    // [A] pulls too: b is pulled towards a, but its ally y stands in the way.
    let mut t = walk(
        &[". . . . ."],
        "0,0",
        "",
        &format!("{}{}", who("y", "npcs", "2,0", ""), who("b", "npcs", "3,0", "")),
        "",
    );
    t.cmd("act yank b");
    assert!(moves(&t.last).is_empty());
    assert_eq!(t.ch("b").pos, p(3, 0));
}

#[test]
fn thr_r56_option_forced_moves_cross_allies_but_never_end_on_them() {
    let opt = "[options]\nforced-into-allies = true";
    // Pull 2: b crosses its ally y and ends next to a.
    let mut t = walk(
        &[". . . . ."],
        "0,0",
        "",
        &format!("{}{}", who("y", "npcs", "2,0", ""), who("b", "npcs", "3,0", "")),
        opt,
    );
    t.cmd("act yank b");
    assert_eq!(t.ch("b").pos, p(1, 0));
    assert_eq!(moves(&t.last).len(), 2);
    // Push 2 (Tier 1): a crosses its ally c to 3,0 — two squares, no more.
    let mut t = shove(&[". . . . ."], "0,0", 1, "1,0", "", &who("c", "pcs", "2,0", ""), opt);
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert_eq!(t.ch("a").pos, p(3, 0));
    assert_eq!(moves(&t.last).len(), 2);
    // Push 1 (Tier 0): it would end on c, so it does not move.
    let mut t = shove(&[". . . . ."], "0,0", 0, "1,0", "", &who("c", "pcs", "2,0", ""), opt);
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert_eq!(t.ch("a").pos, p(1, 0));
}

#[test]
fn thr_r57_a_push_stops_at_an_enemys_square() {
    // a is shoved towards another Biffer: it does not move.
    let mut t = shove(&[". . . . ."], "0,0", 1, "1,0", "", &who("y", "npcs", "2,0", ""), "");
    t.dice(&HIT);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    assert_eq!(t.ch("a").pos, p(1, 0));
}

// ---------------------------------------------------------------------------------------------
// The Loomer and the Weaver (THR-R75, THR-R76)
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r75_loomer_makes_orthogonal_neighbours_difficult_for_enemies() {
    // The enemy Loomer k stands at 0,1; a is east of it.
    let k = who("k", "npcs", "0,1", "traits = [\"loomer\"]");
    let mut t = walk(&[". . . .", ". . . .", ". . . ."], "1,1", "", &k, "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
    // Entering it costs nothing extra.
    t.cmd("step w");
    assert_eq!(t.s().turn.spent, 3);
    // A diagonal neighbour is not affected.
    let mut t = walk(&[". . . .", ". . . .", ". . . ."], "1,2", "", &k, "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 1);
}

#[test]
fn thr_r75_upgraded_loomer_covers_diagonals() {
    let k = who("k", "npcs", "0,1", "traits = [\"loomer+\"]");
    let mut t = walk(&[". . . .", ". . . .", ". . . ."], "1,2", "", &k, "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
}

#[test]
fn thr_r75_loomer_does_not_hamper_allies() {
    let k = format!("{}{}", who("k", "pcs", "0,1", "traits = [\"loomer+\"]"), far("3,0"));
    let mut t = walk(&[". . . .", ". . . .", ". . . ."], "1,1", "", &k, "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 1);
}

#[test]
fn thr_r76_weaver_ignores_the_first_extra_cost_each_turn() {
    let mut t = walk(&[". 3 6 ."], "0,0", "traits = [\"weaver\"]\nspeed = 6", &far("3,0"), "");
    t.cmd("step e"); // up 3: 3, ignored: 1
    assert_eq!(t.s().turn.spent, 1);
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::WeaverIgnored { slowed: false, .. }))
    );
    t.cmd("step e"); // up 3 again: paid in full
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r76_weaver_ignores_slowed_as_its_first_effect() {
    let mut t = walk(&[". 3 . . ."], "0,0", "traits = [\"weaver\"]", &far("4,0"), "");
    t.cmd("gm status a slowed +2");
    // Next turn: Slowed is ignored (Speed 4), and then the climb is paid in full.
    t.cmd("end");
    assert_eq!(t.turn().0, "z");
    t.cmd("end");
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    assert_eq!(t.turn().0, "a");
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::WeaverIgnored { slowed: true, .. }))
    );
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert_eq!(fray_thrum::calc::speed(t.s(), t.id("a")), 4);
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 3);
}

#[test]
fn thr_r76_upgraded_weaver_ignores_them_all_during_its_turn() {
    let mut t = walk(&[". 3 6 ."], "0,0", "traits = [\"weaver+\"]", &far("3,0"), "");
    t.cmd("gm status a slowed +2");
    assert_eq!(fray_thrum::calc::speed(t.s(), t.id("a")), 4);
    t.cmd("step e");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 2);
    // Outside its turn, Slowed counts.
    t.cmd("end");
    assert_eq!(t.turn().0, "z");
    assert_eq!(fray_thrum::calc::speed(t.s(), t.id("a")), 2);
}

#[test]
fn thr_r76_weaver_ignores_slowed_from_a_failed_drop_if_first() {
    // Speed 4, 2 spent, the drop roll fails: the Weaver ignores that Slowed for this turn, so
    // its movement goes on and it is not Dazed.
    let mut t = walk(
        &[". . . -3 -3 ."],
        "0,0",
        "attributes = { end = 2, ref = 0 }\ntraits = [\"weaver\"]",
        &far("5,0"),
        "",
    );
    t.cmd("move 2,0");
    t.dice(&[1, 1, 6, 6]);
    t.cmd("step e roll end");
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert_eq!(fray_thrum::calc::speed(t.s(), t.id("a")), 4);
    assert!(!t.ch("a").has(Cond::Dazed));
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 4);
}

#[test]
fn thr_r76_thr_r53_weaver_on_difficult_terrain_steps_with_1_movement_left() {
    // THR-R76, THR-R53: leaving Difficult Terrain costs 2, but it is the Weaver's first raised
    // step this turn, so it costs 1 and fits in the 1 movement left.
    let mut t = walk(&[". . . d . ."], "0,0", "traits = [\"weaver\"]", &far("5,0"), "");
    t.cmd("move 3,0");
    assert_eq!(t.s().turn.spent, 3);
    assert!(t.legal().contains(&"step e".to_string()));
    t.cmd("step e");
    assert_eq!((t.ch("a").pos, t.s().turn.spent), (p(4, 0), 4));
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::WeaverIgnored { slowed: false, .. }))
    );
    // Without the trait the same step is refused.
    let mut t = walk(&[". . . d . ."], "0,0", "", &far("5,0"), "");
    t.cmd("move 3,0");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    assert!(!t.legal().contains(&"step e".to_string()));
}

#[test]
fn thr_r76_move_and_the_legal_list_use_the_weaver_exemption_once() {
    // THR-R76: Speed 3, standing on Difficult Terrain next to more of it. To 2,0: leave 0,0
    // (2, the exemption: 1) then leave 1,0 (2, paid in full) = 3. To 3,0 it would be 4.
    let mut t = walk(
        &["d d . . ."],
        "0,0",
        "traits = [\"weaver\"]\nspeed = 3",
        &far("4,0"),
        "",
    );
    let legal = t.legal();
    assert!(legal.contains(&"move 2,0".to_string()), "{legal:?}");
    assert!(legal.contains(&"move 1,0".to_string()));
    assert_eq!(t.reject("move 3,0").code, "not-enough-movement");
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 3);
    let ignored = t
        .last
        .iter()
        .filter(|e| matches!(e, Event::WeaverIgnored { .. }))
        .count();
    assert_eq!(ignored, 1);
    // Without the trait, 2,0 costs 4: out of reach.
    let mut t = walk(&["d d . . ."], "0,0", "speed = 3", &far("4,0"), "");
    assert_eq!(t.reject("move 2,0").code, "not-enough-movement");
}

#[test]
fn thr_r76_the_exemption_used_by_a_step_is_gone_for_the_following_move() {
    // THR-R76: the first step (off Difficult Terrain) used the exemption, so a later move
    // pays full costs: from 1,0 (Difficult) to 2,0 costs 2, to 3,0 would cost 3 > 2 left.
    let mut t = walk(&["d d . ."], "0,0", "traits = [\"weaver\"]\nspeed = 3", &far("3,0"), "");
    t.cmd("step e");
    assert_eq!(t.s().turn.spent, 1);
    assert!(!t.legal().contains(&"move 3,0".to_string()));
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 3);
}

#[test]
fn a_move_or_a_square_off_the_map_is_refused_as_off_the_map() {
    let mut t = walk(&[". . . .", ". . . ."], "0,0", "", &far("3,1"), "");
    for text in ["move 9,9", "move 4,0", "act blink at 2,2"] {
        let r = t.reject(text);
        assert_eq!(r.code, "invalid-target", "{text}");
        assert!(
            r.reason.contains("is off the map (it is 4 by 2 squares, 0,0 to 3,1)"),
            "{text}: {}",
            r.reason
        );
    }
}
