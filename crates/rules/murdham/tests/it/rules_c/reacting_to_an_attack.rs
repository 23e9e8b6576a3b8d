//! Reacting to an attack: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------------------------------------
// MUR-R24: a guard's shield

#[test]
fn mur_r24_a_guard_without_protect_holding_a_shield_gets_its_plus_1_against_the_attack_it_guards() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", "wield = [\"shield\"]"),
    ]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    // Not free (no protect): the guard is dee's reaction, and the blow lands on it; its shield
    // takes 1 off the sword's 3.
    t.dice(&[3]).cmd("guard");
    assert_eq!(damage(&t), [("dee".to_string(), 2)]);
    assert_eq!((ch(&t, "bo").health, ch(&t, "dee").health), (10, 8));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn dying_a_dying_character_hit_again_keeps_its_countdown_and_dies_at_the_end_of_the_next_round() {
    let mut t = dying();
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(ch(&t, "bo").status, Status::Dying { rounds: 0 });
    // Round 2: bo is struck again (defenceless: it is not asked how to react); the countdown
    // does not start over.
    t.cmd("act ash");
    t.dice(&[2]).cmd("attack bo");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    assert_eq!(ch(&t, "bo").status, Status::Dying { rounds: 0 });
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(ch(&t, "bo").status, Status::Dead);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn dying_healing_a_dying_character_by_1_saves_it_and_health_never_goes_below_0() {
    let mut t = dying();
    assert_eq!(ch(&t, "bo").health, 0);
    assert!(t.log().iter().any(|l| l.contains("health 0")), "{:?}", t.log());
    // Healed by 1: saved (still incapacitated), with a d6 for the injury: 1 is a scar.
    t.dice(&[1]).cmd("gm heal bo 1");
    assert_eq!(ch(&t, "bo").health, 1);
    assert_eq!(ch(&t, "bo").status, Status::Incapacitated);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(ch(&t, "bo").status, Status::Incapacitated);
    assert!(history(&t).iter().all(|l| !l.contains("health -")), "{:?}", history(&t));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_health_a_defenceless_target_cannot_react_and_its_damage_is_rolled_as_for_anyone() {
    // Round 1 is over; in round 2 bo has a turn to spend, but it is incapacitated: defenceless.
    let mut t = defenceless("");
    assert!(!t.legal().contains(&"act bo".to_string()), "{:?}", t.legal());
    t.cmd("act ash");
    // Guarding is open to dee (protect), not reacting to bo: dee declines and the attack lands
    // with no question to bo, one damage die, no shield (bo does not react).
    t.cmd("attack bo");
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    t.dice(&[1]).cmd("decline");
    assert_eq!(damage(&t), [("bo".to_string(), 1)]);
    assert_eq!(ch(&t, "bo").health, 0);
    assert!(matches!(ch(&t, "bo").status, Status::Dying { .. }));
    t.assert_dice_used();
    t.assert_replays();
    // Dying is defenceless too: not asked, and it cannot stand in for anyone.
    t.cmds(&["end", "act dee", "attack cy with unarmed"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("cy".to_string())));
    t.expect_rejection(PCS, "hide-behind bo", codes::BAD_TARGET);

    // fray 0.1.0's ruling, kept as an option: the damage is enhanced (the better of 1 and 3).
    let mut t = defenceless("defenceless-enhanced = true");
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1, 3]).cmd("decline");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.assert_dice_used();
}
