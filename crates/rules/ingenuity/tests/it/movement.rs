//! Moving and the action economy around it: Move, Sprint, Step, the free actions, the
//! one-action actions and the diagonal rule (ING-R18, ING-R19, ING-R22, ING-R23, ING-R29,
//! ING-R36, ING-H2, ING-H13).

use crate::common;
use common::*;
use fray_ingenuity::data::Cond;
use fray_ingenuity::event::Event;

/// An open field 14 m wide and 5 m deep.
const FIELD: &[&str] = &[
    ". . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . .",
];

/// A runner at 0,0 (with `extra`) and a far-away foe, with `options`; the runner's turn.
fn runner(extra: &str, options: &str) -> T {
    let toml = enc(
        FIELD,
        &format!(
            "{options}\n{}{}",
            who("runner", "pcs", "0,0", extra),
            who("foe", "foes", "13,4", "")
        ),
    );
    T::turn_of(&toml, "runner")
}

/// The metres of each Moved event among the last events.
fn metres(t: &T) -> Vec<u8> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Moved { metres, .. } => Some(*metres),
            _ => None,
        })
        .collect()
}

fn at(t: &T, id: &str) -> String {
    t.ch(id).pos.expect("on the map").to_string()
}

// ---------------------------------------------------------------------------------------------
// Distances (ING-R36, ING-H2)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r36_the_second_diagonal_counts_two_metres_in_the_moved_events() {
    let mut t = runner("speed = 9", "");
    t.cmd("move 3,3");
    // Three diagonal steps: 1 m, 2 m, 1 m.
    assert_eq!(metres(&t), vec![1, 2, 1]);
    assert_eq!(at(&t, "runner"), "3,3");
}

#[test]
fn ing_r36_two_diagonals_cost_three_metres_of_speed() {
    // Speed 2: one diagonal and one straight step fit (1 + 1), two diagonals do not (1 + 2).
    let mut t = runner("speed = 2", "");
    assert_eq!(t.reject("move 2,2").code, "out-of-range");
    t.cmd("move 2,1");
    assert_eq!(metres(&t), vec![1, 1]);
    // Speed 3: two diagonals fit exactly.
    let mut t = runner("speed = 3", "");
    t.cmd("move 2,2");
    assert_eq!(metres(&t), vec![1, 2]);
}

#[test]
fn ing_h2_option_diagonals_chebyshev_counts_every_step_one_metre() {
    let mut t = runner("speed = 3", "[options]\ndiagonals = \"chebyshev\"");
    t.cmd("move 3,3");
    assert_eq!(metres(&t), vec![1, 1, 1]);
}

#[test]
fn ing_h2_one_square_is_one_metre_and_speed_comes_from_the_stats() {
    // Speed = size 4 + passive DEX d8 (4) + passive Agility d6 (3) + Running 1 = 12 m.
    let extra = "attributes = { dex = 8 }\nskills = { agility = 6 }\nproficiencies = { running = 1 }";
    let mut t = runner(extra, "");
    assert_eq!(t.s().info(t.id("runner")).stats.speed, 12);
    assert_eq!(t.reject("move 13,0").code, "out-of-range");
    t.cmd("move 12,0");
    assert_eq!(metres(&t), vec![1; 12]);
}

// ---------------------------------------------------------------------------------------------
// Move and Sprint (ING-R22, ING-R23)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r22_move_costs_one_action_and_is_allowed_once_per_turn() {
    let mut t = runner("speed = 4", "");
    assert_eq!(t.reject("move 5,0").code, "out-of-range");
    t.cmd("move 4,0");
    assert_eq!(t.ch("runner").econ.actions, 2);
    assert_eq!(t.reject("move 5,0").code, "already-moved");
    // Next round it may move again.
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick runner");
    t.cmd("move 8,0");
    assert_eq!(at(&t, "runner"), "8,0");
}

#[test]
fn ing_r23_sprint_needs_a_move_first_and_costs_an_action_and_a_stamina() {
    let mut t = runner("speed = 4", "");
    let stamina = t.ch("runner").stamina;
    assert_eq!(t.reject("sprint 4,0").code, "not-now");
    t.cmd("move 4,0");
    t.cmd("sprint 8,0");
    // Another full move (up to speed), for 1 action and 1 stamina.
    assert_eq!(at(&t, "runner"), "8,0");
    assert_eq!(t.ch("runner").econ.actions, 1);
    assert_eq!(t.ch("runner").stamina, stamina - 1);
    assert_eq!(t.reject("sprint 13,0").code, "out-of-range");
}

#[test]
fn ing_r23_sprint_may_be_repeated_by_default() {
    // sprint-limit unset: a third move in one turn while actions and stamina last.
    let mut t = runner("speed = 4", "");
    let stamina = t.ch("runner").stamina;
    t.cmds(&["move 4,0", "sprint 8,0", "sprint 12,0"]);
    assert_eq!(at(&t, "runner"), "12,0");
    assert_eq!(t.ch("runner").econ.actions, 0);
    assert_eq!(t.ch("runner").stamina, stamina - 2);
}

#[test]
fn ing_r23_option_sprint_limit_one() {
    let mut t = runner("speed = 4", "[options]\nsprint-limit = 1");
    t.cmds(&["move 4,0", "sprint 8,0"]);
    assert_eq!(t.reject("sprint 12,0").code, "not-now");
}

#[test]
fn ing_r23_sprint_needs_stamina() {
    let mut t = runner("speed = 4\nstamina = 1\nnow = { stamina = 0 }", "");
    t.cmd("move 4,0");
    assert_eq!(t.reject("sprint 8,0").code, "no-stamina");
}

// ---------------------------------------------------------------------------------------------
// Step and the other free actions (ING-R29, ING-H13)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r29_step_is_a_free_one_metre_move_once_per_turn() {
    let mut t = runner("", "");
    assert_eq!(t.reject("step 2,0").code, "out-of-range");
    // A diagonal step is 1 m (the first diagonal).
    t.cmd("step 1,1");
    assert_eq!(metres(&t), vec![1]);
    assert_eq!(at(&t, "runner"), "1,1");
    assert_eq!(t.ch("runner").econ.actions, 3);
    assert_eq!(t.reject("step 2,1").code, "already-moved");
}

#[test]
fn ing_h13_a_step_uses_up_the_move_by_default() {
    let mut t = runner("", "");
    t.cmd("step 1,0");
    assert_eq!(t.reject("move 3,0").code, "already-moved");
    let mut t = runner("", "");
    t.cmd("move 3,0");
    assert_eq!(t.reject("step 4,0").code, "already-moved");
    // Except via Sprint: after a Step the character has moved, so Sprint grants another move.
    let mut t = runner("speed = 4", "");
    t.cmd("step 1,0");
    t.cmd("sprint 5,0");
    assert_eq!(at(&t, "runner"), "5,0");
    assert_eq!(t.ch("runner").econ.actions, 2);
}

#[test]
fn ing_h13_option_step_uses_move_false_allows_both() {
    let mut t = runner("speed = 4", "[options]\nstep-uses-move = false");
    t.cmd("step 1,0");
    t.cmd("move 5,0");
    assert_eq!(at(&t, "runner"), "5,0");
    let mut t = runner("speed = 4", "[options]\nstep-uses-move = false");
    t.cmd("move 4,0");
    t.cmd("step 5,0");
    assert_eq!(at(&t, "runner"), "5,0");
    // Still once per turn.
    assert_eq!(t.reject("step 6,0").code, "already-moved");
    assert_eq!(t.ch("runner").econ.actions, 2);
}

#[test]
fn ing_r29_drop_prone_and_drop_item_cost_nothing() {
    let mut t = runner("items = [\"spear\"]", "");
    t.cmd("drop spear");
    assert!(t.ch("runner").items.is_empty());
    assert_eq!(t.s().ground.len(), 1);
    t.cmd("prone");
    assert!(t.ch("runner").has(Cond::Prone));
    assert_eq!(t.ch("runner").econ.actions, 3);
}

// ---------------------------------------------------------------------------------------------
// Actions in a turn (ING-R18, ING-R19)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r19_attack_brandish_interact_and_stand_up_cost_one_action_each() {
    let mut t = runner("items = [\"spear\"]\nconditions = [\"prone\"]", "");
    t.cmd("stand");
    assert!(!t.ch("runner").has(Cond::Prone));
    assert_eq!(t.ch("runner").econ.actions, 2);
    t.cmd("brandish nothing");
    assert!(!t.ch("runner").items[0].held);
    assert_eq!(t.ch("runner").econ.actions, 1);
    t.cmd("interact open the gate");
    assert_eq!(t.ch("runner").econ.actions, 0);
    // Attack: one action too.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("hero", "pcs", "1,0", "items = [\"spear\"]"),
            who("foe", "foes", "2,0", "stamina = 1\nnow = { stamina = 0 }")
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    assert_eq!(t.ch("hero").econ.actions, 2);
    t.assert_dice_used();
}

#[test]
fn ing_r18_a_turn_has_three_actions() {
    let mut t = runner("speed = 4", "");
    assert_eq!(t.ch("runner").econ.actions, 3);
    t.cmds(&["interact pull a lever", "interact push a cart", "move 4,0"]);
    assert_eq!(t.ch("runner").econ.actions, 0);
    assert_eq!(t.reject("interact kick the door").code, "no-actions");
    assert_eq!(t.reject("sprint 8,0").code, "no-actions");
    // Free actions are still allowed.
    t.cmd("prone");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    // A new turn: three actions again.
    t.cmd("pick runner");
    assert_eq!(t.ch("runner").econ.actions, 3);
}

// ---------------------------------------------------------------------------------------------
// Prone and moving through others (fray's own options)
// ---------------------------------------------------------------------------------------------

#[test]
fn prone_characters_must_stand_up_before_moving_by_default() {
    let mut t = runner("conditions = [\"prone\"]", "");
    assert_eq!(t.reject("move 3,0").code, "prone");
    assert_eq!(t.reject("step 1,0").code, "prone");
    t.cmd("stand");
    t.cmd("move 3,0");
    assert_eq!(at(&t, "runner"), "3,0");
}

#[test]
fn prone_blocks_movement_option_off_lets_them_crawl() {
    let mut t = runner("conditions = [\"prone\"]", "[options]\nprone-blocks-movement = false");
    t.cmd("move 3,0");
    assert_eq!(at(&t, "runner"), "3,0");
    assert!(t.ch("runner").has(Cond::Prone));
}

/// A corridor 1 m wide: the runner at 0,1, someone of `team` at 1,1 in the way (and a foe
/// at the far end).
fn corridor(team: &str, blocker: &str, options: &str) -> T {
    let toml = enc(
        &["x x x x x x", ". . . . . .", "x x x x x x"],
        &format!(
            "{options}\n{}{}{}",
            who("runner", "pcs", "0,1", ""),
            who("other", team, "1,1", blocker),
            who("foe", "foes", "5,1", ""),
        ),
    );
    T::turn_of(&toml, "runner")
}

#[test]
fn by_default_allies_can_be_passed_through_and_enemies_cannot() {
    let mut t = corridor("pcs", "", "");
    // Never ending on the ally's square.
    assert_eq!(t.reject("move 1,1").code, "blocked");
    t.cmd("move 3,1");
    assert_eq!(at(&t, "runner"), "3,1");
    let mut t = corridor("foes", "", "");
    assert_eq!(t.reject("move 3,1").code, "out-of-range");
    // An unconscious enemy does not block.
    let mut t = corridor("foes", "unconscious = true", "");
    t.cmd("move 3,1");
    assert_eq!(at(&t, "runner"), "3,1");
}

#[test]
fn pass_through_option_nobody_blocks_on_allies_too() {
    let mut t = corridor("pcs", "", "[options]\npass-through = \"nobody\"");
    assert_eq!(t.reject("move 3,1").code, "out-of-range");
}

#[test]
fn pass_through_option_anyone_passes_enemies_too() {
    let mut t = corridor("foes", "", "[options]\npass-through = \"anyone\"");
    assert_eq!(t.reject("move 1,1").code, "blocked");
    t.cmd("move 3,1");
    assert_eq!(at(&t, "runner"), "3,1");
}
