//! The action economy's actions: Command, Guard, Resuscitate, Seek Cover, Short Task, extended
//! actions and actions timed in seconds.

use crate::common;
use common::*;
use fray_ingenuity::data::Cond;
use fray_ingenuity::event::{Event, TurnEnd};

/// A character who cannot defend (no stamina left, so no reaction can be paid).
const DEFENCELESS: &str = "stamina = 1\nnow = { stamina = 0 }";

/// The `Tested` events of the last command: (what, dice sides, total, difficulty, success).
fn tests_made(t: &T) -> Vec<(String, [u8; 2], i16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested {
                what,
                roll,
                difficulty,
                success,
                ..
            } => Some((
                what.clone(),
                [roll.dice[0].sides, roll.dice[1].sides],
                roll.total,
                *difficulty,
                *success,
            )),
            _ => None,
        })
        .collect()
}

/// The attack rolls of the last command: (attacker, net advantage, reasons).
fn rolls(t: &T) -> Vec<(String, i8, Vec<String>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled {
                attacker,
                advantage,
                reasons,
                ..
            } => Some((t.s().info(*attacker).id.clone(), *advantage, reasons.clone())),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Command (ING-R20, ING-H14)
// ---------------------------------------------------------------------------------------------

/// A commander, two allies with spears next to a foe who cannot defend.
fn command_scene(boss: &str, options: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{options}\n{}{}{}{}",
            who("boss", "pcs", "0,0", boss),
            who("ally", "pcs", "1,0", "items = [\"spear\"]"),
            who("ally2", "pcs", "1,1", "items = [\"spear\"]"),
            who("foe", "foes", "2,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    )
}

#[test]
fn ing_r20_command_costs_one_action_and_two_focus_and_the_ally_acts_at_once() {
    let mut t = T::turn_of(&command_scene("", ""), "boss");
    t.dice(&[1, 1, 10]);
    t.cmd("command ally attack foe");
    // The ally's attack is resolved during the commander's turn.
    let declared = t.last.iter().find_map(|e| match e {
        Event::AttackDeclared { attacker, target, .. } => Some((*attacker, *target)),
        _ => None,
    });
    assert_eq!(declared, Some((t.id("ally"), t.id("foe"))));
    assert_eq!(t.attack_totals(), vec![2]);
    t.assert_dice_used();
    assert_eq!(t.turn().as_deref(), Some("boss"));
    assert_eq!(t.ch("boss").econ.actions, 2);
    assert_eq!(t.ch("boss").focus, 12 - 2);
    assert_eq!(t.ch("ally").focus, 12);
}

#[test]
fn ing_r20_command_is_once_per_turn_per_ally() {
    let mut t = T::turn_of(&command_scene("", ""), "boss");
    t.dice(&[1, 1, 10]);
    t.cmd("command ally attack foe");
    let r = t.reject("command ally attack foe");
    assert_eq!(r.code, "not-now");
    // Another ally may still be commanded this turn.
    t.dice(&[1, 1, 10]);
    t.cmd("command ally2 attack foe");
    assert_eq!(t.ch("boss").econ.actions, 1);
    assert_eq!(t.ch("boss").focus, 12 - 4);
    // The limit is per turn: on the commander's next turn the same ally can be commanded again.
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    t.cmd("pick ally2");
    t.cmd("end");
    t.cmd("pick boss");
    t.dice(&[1, 1, 10]);
    t.cmd("command ally attack foe");
    assert_eq!(t.ch("boss").focus, 12 - 6);
}

#[test]
fn ing_r20_command_needs_two_focus() {
    let mut t = T::turn_of(&command_scene("focus = 8\nnow = { focus = 1 }", ""), "boss");
    let r = t.reject("command ally attack foe");
    assert_eq!(r.code, "no-focus");
}

#[test]
fn ing_r20_command_gives_one_single_action() {
    // A Short Task takes three actions: Command cannot give it.
    let mut t = T::turn_of(&command_scene("", ""), "boss");
    let r = t.reject("command ally task dex agility vs 8");
    assert_eq!(r.code, "bad-command");
}

#[test]
fn ing_h14_the_commanded_action_does_not_use_the_allys_own_actions() {
    let mut t = T::turn_of(&command_scene("", ""), "boss");
    t.dice(&[1, 1, 10]);
    t.cmd("command ally attack foe");
    assert_eq!(t.ch("ally").owed, 0);
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick ally");
    assert_eq!(t.ch("ally").econ.actions, 3);
}

#[test]
fn ing_h14_option_the_commanded_action_is_taken_from_the_allys_next_turn() {
    let toml = command_scene("", "[options]\ncommand-uses-ally-actions = true");
    let mut t = T::turn_of(&toml, "boss");
    t.dice(&[1, 1, 10]);
    t.cmd("command ally attack foe");
    assert_eq!(t.ch("ally").owed, 1);
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick ally");
    assert_eq!(t.ch("ally").econ.actions, 2);
    assert_eq!(t.ch("ally").owed, 0);
}

// ---------------------------------------------------------------------------------------------
// Guard (ING-R21)
// ---------------------------------------------------------------------------------------------

/// `pc` (evasion 6, deflection 3) next to a foe with a spear; `pc_extra` adds fields.
fn duel(pc_extra: &str, options: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{options}\n{}{}",
            who("pc", "pcs", "1,0", &format!("items = [\"spear\"]\n{pc_extra}")),
            who("foe", "foes", "2,0", "items = [\"spear\"]"),
        ),
    )
}

#[test]
fn ing_r21_guard_ends_the_turn_and_adds_one_to_evasion_and_deflection() {
    let mut t = T::turn_of(&duel(DEFENCELESS, ""), "pc");
    t.cmd("guard");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::TurnEnded {
            how: TurnEnd::Guard,
            ..
        }
    )));
    assert_eq!(t.turn(), None);
    assert!(t.ch("pc").has(Cond::Guarding));
    t.cmd("pick foe");
    // STR d6 4 + Combat d4 3 = 7 against evasion 6 + 1: a hit (a 6 would miss).
    t.dice(&[4, 3, 10]);
    t.cmd("attack pc");
    assert_eq!(t.results(), vec![(true, false, 7)]);
    // 7 + spear 4 = 11, minus deflection 3 + 1 = 7.
    assert_eq!(t.damage(), vec![("pc".into(), 7, 7, 0)]);
}

#[test]
fn ing_r21_option_guard_without_deflection() {
    let toml = duel(DEFENCELESS, "[options]\nguard-covers-deflection = false");
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("guard");
    t.cmd("pick foe");
    t.dice(&[4, 3, 10]);
    t.cmd("attack pc");
    // Evasion still 7, but only deflection 3 against 11.
    assert_eq!(t.results(), vec![(true, false, 7)]);
    assert_eq!(t.damage(), vec![("pc".into(), 8, 8, 0)]);
}

#[test]
fn ing_r21_guard_adds_one_to_constitution_against_an_effect() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "[[item]]\nid = \"maul\"\nattributes = [\"str\"]\ndamage = 3\ntype = \"bludgeoning\"\neffect = {{ condition = \"prone\", defence = \"constitution\" }}\n{}{}",
            who("pc", "pcs", "1,0", DEFENCELESS),
            who("foe", "foes", "2,0", "items = [\"maul\"]"),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("guard");
    t.cmd("pick foe");
    // 4 + 3 = 7 hits evasion 6 + 1; the effect's difficulty is the total, 7, against
    // constitution 3 + 3 + 1: resisted (unguarded, 6 would not be).
    t.dice(&[4, 3, 10]);
    t.cmd("attack pc");
    let effect = t.last.iter().find_map(|e| match e {
        Event::EffectTested {
            difficulty,
            defence,
            resisted,
            ..
        } => Some((*difficulty, *defence, *resisted)),
        _ => None,
    });
    assert_eq!(effect, Some((7, 7, true)));
    assert!(!t.ch("pc").has(Cond::Prone));
}

#[test]
fn ing_r21_guard_adds_one_to_defence_tests_until_the_next_turn() {
    let mut t = T::turn_of(&duel("", ""), "pc");
    t.cmd("guard");
    t.cmd("pick foe");
    t.cmd("attack pc");
    assert_eq!(t.pending(), ("defence", "pc".into()));
    // Dodge: DEX 2 + Agility 2 + Guard 1 = 5; then the attack: 1 + 1 = 2 misses.
    t.dice(&[2, 2, 10, 1, 1, 10]);
    t.cmd("dodge");
    let dodge = t.last.iter().find_map(|e| match e {
        Event::Defended { roll: Some(r), .. } => Some((r.bonus, r.total)),
        _ => None,
    });
    assert_eq!(dodge, Some((1, 5)));
    // The effective evasion is max(5, 6 + 1).
    assert_eq!(t.results(), vec![(false, false, 7)]);
    t.assert_dice_used();
    t.cmd("pass");
    t.cmd("end");
    // The guard lasts until the character's next turn.
    assert!(t.ch("pc").has(Cond::Guarding));
    t.cmd("pick pc");
    assert!(!t.ch("pc").has(Cond::Guarding));
}

// ---------------------------------------------------------------------------------------------
// Resuscitate (ING-R25, ING-H9)
// ---------------------------------------------------------------------------------------------

/// A medic next to an unconscious friend; a foe further away.
fn ward(medic: &str, friend_now: &str, options: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{options}\n{}{}{}",
            who("medic", "pcs", "0,0", medic),
            who(
                "friend",
                "pcs",
                "1,0",
                &format!("unconscious = true\nstamina = 1\nnow = {{ stamina = 0, {friend_now} }}")
            ),
            who("foe", "foes", "2,0", "items = [\"spear\"]"),
        ),
    )
}

#[test]
fn ing_r25_resuscitate_costs_two_actions_goes_prone_and_tests_int_handling_healing_vs_8() {
    // ING-H9: INT d6 + Handling d4 + Healing 1 = 4 + 3 + 1 = 8 against 8: awake, health as it was.
    let toml = ward("proficiencies = { healing = 1 }", "health = 3", "");
    let mut t = T::turn_of(&toml, "medic");
    t.dice(&[4, 3, 10]);
    t.cmd("resuscitate friend");
    assert_eq!(t.ch("medic").econ.actions, 1);
    assert!(t.ch("medic").has(Cond::Prone));
    assert_eq!(tests_made(&t), vec![("resuscitate friend".into(), [6, 4], 8, 8, true)]);
    assert!(!t.ch("friend").unconscious);
    assert_eq!(t.ch("friend").health, 3);
    t.assert_dice_used();
}

#[test]
fn ing_h9_resuscitate_fails_below_8() {
    let toml = ward("proficiencies = { healing = 1 }", "health = 3", "");
    let mut t = T::turn_of(&toml, "medic");
    t.dice(&[4, 2, 10]);
    t.cmd("resuscitate friend");
    assert_eq!(tests_made(&t), vec![("resuscitate friend".into(), [6, 4], 7, 8, false)]);
    assert!(t.ch("friend").unconscious);
    assert!(t.ch("medic").has(Cond::Prone));
}

#[test]
fn ing_h9_option_resuscitate_attribute_skill_proficiency_and_difficulty() {
    let options = "[options]\nresuscitate-attribute = \"res\"\nresuscitate-skill = \"medicine\"\nresuscitate-proficiency = \"first-aid\"\nresuscitate-difficulty = 7";
    let medic = "attributes = { res = 10, int = 4 }\nskills = { medicine = 8, handling = 12 }\nproficiencies = { first-aid = 2, healing = 4 }";
    let mut t = T::turn_of(&ward(medic, "health = 3", options), "medic");
    // RES d10 3 + Medicine d8 2 + first aid 2 = 7 against 7.
    t.dice(&[3, 2, 10]);
    t.cmd("resuscitate friend");
    assert_eq!(tests_made(&t), vec![("resuscitate friend".into(), [10, 8], 7, 7, true)]);
    assert!(!t.ch("friend").unconscious);
}

#[test]
fn ing_h9_revived_at_zero_health_stays_conscious_and_more_damage_means_a_death_check() {
    let toml = ward("", "health = 0, endurance = 0", "");
    let mut t = T::turn_of(&toml, "medic");
    t.dice(&[4, 4, 10]);
    t.cmd("resuscitate friend");
    assert!(!t.ch("friend").unconscious);
    assert_eq!(t.ch("friend").health, 0);
    t.cmd("end");
    t.cmd("pick foe");
    // The friend is still prone (melee advantage: the d6 showing 3 is rerolled, a 1 kept out).
    // 6 hits: 6 + 4 - 3 = 7 damage at zero health: a death check, luck 15 against 10.
    // The medic lies prone after resuscitating, so cannot move in to intercept, and the
    // friend has no stamina to defend: the attack is rolled at once.
    t.dice(&[3, 3, 10, 1, 15]);
    t.cmd("attack friend");
    let check = t.last.iter().find_map(|e| match e {
        Event::DeathCheck {
            luck,
            difficulty,
            survived,
            ..
        } => Some((*luck, *difficulty, *survived)),
        _ => None,
    });
    assert_eq!(check, Some((15, 10, true)));
    assert_eq!(t.ch("friend").death_difficulty, 15);
    assert!(!t.ch("friend").dead);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Seek Cover (ING-R26)
// ---------------------------------------------------------------------------------------------

/// `pc` at 0,0 with a wall east of it at 1,0; an archer at `archer_at`.
fn cover_scene(pc_at: &str, archer_at: &str, options: &str) -> String {
    enc(
        &[". . . . . . .", ". . . . . . .", ". x . . . . ."],
        &format!(
            "{options}\n{}{}",
            who("pc", "pcs", pc_at, DEFENCELESS),
            who("foe", "foes", archer_at, "attributes = { dex = 6 }\nitems = [\"bow\"]"),
        ),
    )
}

#[test]
fn ing_r26_ranged_attacks_against_a_character_behind_cover_have_disadvantage() {
    let mut t = T::turn_of(&cover_scene("0,0", "6,0", ""), "pc");
    t.cmd("seek-cover");
    assert_eq!(t.ch("pc").econ.actions, 2);
    assert!(t.ch("pc").has(Cond::Cover));
    t.cmd("end");
    t.cmd("pick foe");
    // Disadvantage: the highest die (the 5) is rerolled and the worse kept: 1 + 2 = 3.
    t.dice(&[5, 2, 10, 1]);
    t.cmd("attack pc");
    assert_eq!(rolls(&t), vec![("foe".into(), -1, vec!["target behind cover".into()])]);
    assert_eq!(t.attack_totals(), vec![3]);
    t.assert_dice_used();
    // It lasts until the character's next turn.
    t.cmd("end");
    t.cmd("pick pc");
    assert!(!t.ch("pc").has(Cond::Cover));
}

#[test]
fn ing_r26_an_archer_on_the_same_side_of_the_wall_has_no_disadvantage() {
    let mut t = T::turn_of(&cover_scene("0,0", "0,2", ""), "pc");
    t.cmd("seek-cover");
    assert!(t.ch("pc").has(Cond::Cover));
    t.cmd("end");
    t.cmd("pick foe");
    t.dice(&[5, 2, 10]);
    t.cmd("attack pc");
    assert_eq!(rolls(&t), vec![("foe".into(), 0, vec![])]);
    assert_eq!(t.attack_totals(), vec![7]);
}

#[test]
fn ing_r26_cover_ends_when_the_character_moves() {
    let mut t = T::turn_of(&cover_scene("0,0", "6,0", ""), "pc");
    t.cmd("seek-cover");
    assert!(t.ch("pc").has(Cond::Cover));
    t.cmd("move 0,1");
    assert!(!t.ch("pc").has(Cond::Cover));
    t.cmd("end");
    t.cmd("pick foe");
    t.dice(&[5, 2, 10]);
    t.cmd("attack pc");
    assert_eq!(rolls(&t), vec![("foe".into(), 0, vec![])]);
}

#[test]
fn ing_r26_seeking_cover_needs_an_obstacle_by_default() {
    let mut t = T::turn_of(&cover_scene("3,1", "6,0", ""), "pc");
    let r = t.reject("seek-cover");
    assert_eq!(r.code, "invalid-target");
}

#[test]
fn ing_r26_option_cover_without_an_obstacle() {
    let toml = cover_scene("3,1", "6,0", "[options]\nseek-cover-needs-obstacle = false");
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("seek-cover");
    t.cmd("end");
    t.cmd("pick foe");
    t.dice(&[5, 2, 10, 1]);
    t.cmd("attack pc");
    assert_eq!(rolls(&t), vec![("foe".into(), -1, vec!["target behind cover".into()])]);
}

#[test]
fn ing_r26_melee_attacks_ignore_cover() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "[options]\nseek-cover-needs-obstacle = false\n{}{}",
            who("pc", "pcs", "1,0", DEFENCELESS),
            who("foe", "foes", "2,0", "items = [\"spear\"]"),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("seek-cover");
    t.cmd("end");
    t.cmd("pick foe");
    // Still behind cover, but the spear thrust is melee: no disadvantage, no reroll.
    assert!(t.ch("pc").has(Cond::Cover));
    t.dice(&[5, 2, 10]);
    t.cmd("attack pc");
    assert_eq!(rolls(&t), vec![("foe".into(), 0, vec![])]);
    assert_eq!(t.attack_totals(), vec![7]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Short Task (ING-R27), seconds (ING-R68), extended actions (ING-R34, ING-R35, ING-H17)
// ---------------------------------------------------------------------------------------------

/// `pc` and a buddy against a foe far away; `pc` has a spear.
fn worker(options: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{options}\n{}{}{}",
            who("pc", "pcs", "0,0", "items = [\"spear\"]"),
            who("buddy", "pcs", "4,0", ""),
            who("foe", "foes", "1,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    )
}

/// Ends `pc`'s turn and goes round to its next one (buddy and foe pass).
fn round_trip(t: &mut T) {
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick buddy");
    t.cmd("end");
    t.cmd("pick pc");
}

#[test]
fn ing_r27_a_short_task_takes_three_actions_and_makes_its_test() {
    let mut t = T::turn_of(&worker(""), "pc");
    // DEX d6 4 + Agility d4 4 = 8 against 8.
    t.dice(&[4, 4, 10]);
    t.cmd("task dex agility vs 8");
    assert_eq!(t.ch("pc").econ.actions, 0);
    assert!(t.ch("pc").econ.extended.is_none());
    assert_eq!(
        tests_made(&t),
        vec![("task (dex + agility)".into(), [6, 4], 8, 8, true)]
    );
    t.assert_dice_used();
}

#[test]
fn ing_r27_ing_r34_a_short_task_started_with_two_actions_left_finishes_next_turn() {
    let mut t = T::turn_of(&worker(""), "pc");
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    t.cmd("task dex agility vs 8");
    // No test yet: the effect waits until the whole cost is paid.
    assert!(tests_made(&t).is_empty());
    let ext = t.ch("pc").econ.extended.clone().expect("extended");
    assert_eq!((ext.cost, ext.owed), (3, 1));
    assert_eq!(t.ch("pc").econ.actions, 0);
    round_trip(&mut t);
    assert_eq!(t.pending(), ("extended", "pc".into()));
    t.dice(&[2, 2, 10]);
    t.cmd("continue");
    assert_eq!(
        tests_made(&t),
        vec![("task (dex + agility)".into(), [6, 4], 4, 8, false)]
    );
    assert_eq!(t.ch("pc").econ.actions, 2);
    assert!(t.ch("pc").econ.extended.is_none());
    t.assert_dice_used();
}

#[test]
fn ing_r34_ing_r68_a_fourteen_second_task_is_paid_over_three_turns() {
    // 14 s = 7 actions: 3 now, 3 next turn, the last one on the turn after.
    let mut t = T::turn_of(&worker(""), "pc");
    t.cmd("task int lore vs 6 time 14");
    let ext = t.ch("pc").econ.extended.clone().expect("extended");
    assert_eq!((ext.cost, ext.owed), (7, 4));
    round_trip(&mut t);
    // The carried cost comes before anything else.
    assert_eq!(t.reject("attack foe").code, "not-now");
    t.cmd("continue");
    assert!(tests_made(&t).is_empty());
    assert_eq!(t.ch("pc").econ.extended.as_ref().map(|e| e.owed), Some(1));
    assert_eq!(t.ch("pc").econ.actions, 0);
    round_trip(&mut t);
    t.dice(&[3, 3, 10]);
    t.cmd("continue");
    assert_eq!(tests_made(&t), vec![("task (int + lore)".into(), [6, 4], 6, 6, true)]);
    assert_eq!(t.ch("pc").econ.actions, 2);
    // The turn goes on as normal.
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    t.assert_dice_used();
}

#[test]
fn ing_r68_seconds_become_actions_two_seconds_each_rounded_up() {
    // 3 s = 2 actions.
    let mut t = T::turn_of(&worker(""), "pc");
    t.dice(&[3, 3, 10]);
    t.cmd("task int lore vs 6 time 3");
    assert_eq!(t.ch("pc").econ.actions, 1);
    assert_eq!(tests_made(&t).len(), 1);
    // 7 s = 4 actions: more than a turn, an extended action.
    let mut t = T::turn_of(&worker(""), "pc");
    t.cmd("task int lore vs 6 time 7");
    let ext = t.ch("pc").econ.extended.clone().expect("extended");
    assert_eq!((ext.cost, ext.owed), (4, 1));
    assert!(tests_made(&t).is_empty());
}

#[test]
fn ing_r68_option_three_seconds_per_action() {
    // 7 s ÷ 3 = 3 actions (rounded up): done within the turn.
    let mut t = T::turn_of(&worker("[options]\nseconds-per-action = 3"), "pc");
    t.dice(&[3, 3, 10]);
    t.cmd("task int lore vs 6 time 7");
    assert!(t.ch("pc").econ.extended.is_none());
    assert_eq!(t.ch("pc").econ.actions, 0);
    assert_eq!(tests_made(&t).len(), 1);
}

#[test]
fn ing_r25_ing_r34_resuscitate_with_one_action_left_is_finished_next_turn() {
    let toml = ward("", "health = 3", "");
    let mut t = T::turn_of(&toml, "medic");
    t.cmd("interact look around");
    t.cmd("interact look again");
    t.cmd("resuscitate friend");
    assert!(t.ch("medic").has(Cond::Prone));
    assert!(tests_made(&t).is_empty());
    assert!(t.ch("friend").unconscious);
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick medic");
    t.dice(&[4, 4, 10]);
    t.cmd("continue");
    assert_eq!(tests_made(&t), vec![("resuscitate friend".into(), [6, 4], 8, 8, true)]);
    assert!(!t.ch("friend").unconscious);
    assert_eq!(t.ch("medic").econ.actions, 2);
}

#[test]
fn ing_r35_an_extended_action_abandoned_at_the_start_of_the_turn_leaves_a_normal_turn() {
    let mut t = T::turn_of(&worker(""), "pc");
    t.cmd("task int lore vs 6 time 14");
    round_trip(&mut t);
    t.cmd("abandon");
    assert!(t.ch("pc").econ.extended.is_none());
    assert_eq!(t.ch("pc").econ.actions, 3);
    assert_eq!(t.pending(), ("turn", "pc".into()));
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    assert_eq!(t.ch("pc").econ.actions, 2);
}

#[test]
fn ing_r35_abandoning_later_in_the_turn_refunds_nothing() {
    // Attack (1), start a 3-action task with the 2 left, abandon it: the 2 are gone.
    let mut t = T::turn_of(&worker(""), "pc");
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    t.cmd("task dex agility vs 8");
    t.cmd("abandon");
    assert!(t.ch("pc").econ.extended.is_none());
    assert_eq!(t.ch("pc").econ.actions, 0);
    round_trip(&mut t);
    // Nothing is carried into the next turn.
    assert_eq!(t.pending(), ("turn", "pc".into()));
    assert_eq!(t.ch("pc").econ.actions, 3);
}

#[test]
fn ing_r35_option_refund_abandoned() {
    let mut t = T::turn_of(&worker("[options]\nrefund-abandoned = true"), "pc");
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    t.cmd("task dex agility vs 8");
    t.cmd("abandon");
    assert!(t.ch("pc").econ.extended.is_none());
    assert_eq!(t.ch("pc").econ.actions, 2);
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
}

#[test]
fn ing_h17_knocked_out_loses_the_extended_action() {
    let mut t = T::turn_of(&worker(""), "pc");
    t.cmd("task int lore vs 6 time 14");
    t.cmd("end");
    assert_eq!(t.ch("pc").econ.extended.as_ref().map(|e| e.owed), Some(4));
    t.cmd("gm knockout pc");
    assert!(t.ch("pc").econ.extended.is_none());
    // Progress is lost: revived, the next turn is a fresh one with nothing carried.
    t.cmd("gm revive pc");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick buddy");
    t.cmd("end");
    t.cmd("pick pc");
    assert_eq!(t.pending(), ("turn", "pc".into()));
    assert_eq!(t.ch("pc").econ.actions, 3);
}

#[test]
fn ing_h17_stunned_loses_the_extended_action() {
    let mut t = T::turn_of(&worker(""), "pc");
    t.cmd("task int lore vs 6 time 14");
    t.cmd("end");
    assert!(t.ch("pc").econ.extended.is_some());
    t.cmd("gm condition pc stunned on");
    assert!(t.ch("pc").econ.extended.is_none());
}

#[test]
fn ing_h17_option_interrupted_extended_action_is_kept() {
    let mut t = T::turn_of(&worker("[options]\ninterrupted-extended = \"kept\""), "pc");
    t.cmd("task int lore vs 6 time 14");
    t.cmd("end");
    t.cmd("gm knockout pc");
    assert_eq!(t.ch("pc").econ.extended.as_ref().map(|e| e.owed), Some(4));
    t.cmd("gm revive pc");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick buddy");
    t.cmd("end");
    t.cmd("pick pc");
    assert_eq!(t.pending(), ("extended", "pc".into()));
    t.cmd("continue");
    assert_eq!(t.ch("pc").econ.extended.as_ref().map(|e| e.owed), Some(1));
}
