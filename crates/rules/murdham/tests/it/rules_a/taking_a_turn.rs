//! Taking a turn: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- taking a turn

#[test]
fn mur_r7_a_turn_has_a_bonus_action_a_main_action_and_one_zone_of_movement_in_any_order() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")], &[]);
    t.cmd("act ash");
    // Half the move, a bonus action, the other half, then the main action.
    t.cmds(&["move a|b", "say", "move b", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(health(&t, "bo"), 8);
    t.expect_rejection(PCS, "move a|b", codes::BAD_MOVE); // the zone of movement is spent
    t.expect_rejection(PCS, "say", codes::NO_ACTION); // both action slots are spent
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    // A second bonus action instead of the main action.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "say", "say"]);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    // At most one main action.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    t.expect_rejection(PCS, "run", codes::NO_ACTION);
    t.cmd("say"); // the bonus action is still there
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r8_full_movement_is_a_main_action_for_two_zones_in_all() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "h", "")], &[]);
    t.cmds(&["act ash", "run", "move b", "move c"]);
    assert_eq!(t.log(), ["ash moves to c"]);
    t.expect_rejection(PCS, "move c|d", codes::BAD_MOVE);
    t.expect_rejection(PCS, "attack bo with unarmed", codes::NO_ACTION);
    t.assert_replays();
}

#[test]
fn mur_r8_distract_intimidate_and_taunt_work_on_a_failed_wit_save() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
    ];
    // Distract: bo rolls 15 against WIT 10 and loses its next turn.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("distract bo");
    assert_eq!(
        t.log(),
        [
            "ash tries to distract bo",
            "bo rolls 15 on a WIT save of 10 to keep its head: fails",
            "bo loses its turn this round"
        ]
    );
    t.cmd("end");
    // The foes have nobody able to act: they pass by themselves, and the pcs decide again.
    assert_eq!(t.log(), ["foes pass"]);
    assert_eq!(first_seat(&t), PCS);
    // A passed save: nothing happens.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[10]).cmd("distract bo");
    assert_eq!(
        t.log(),
        [
            "ash tries to distract bo",
            "bo rolls 10 on a WIT save of 10 to keep its head: passes"
        ]
    );
    t.cmd("end");
    t.cmd("act bo");
    // Intimidate: bo is frightened of ash and will not attack it.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("intimidate bo");
    assert_eq!(t.state().ch(id(&t, "bo")).frightened_of, Some(id(&t, "ash")));
    t.cmds(&["end", "act bo"]);
    t.expect_rejection(FOES, "attack ash", codes::CONDITION);
    t.cmd("attack cy");
    // Taunt: bo may spend its next turn only on trying to harm ash.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("taunt bo");
    t.cmds(&["end", "act bo"]);
    t.expect_rejection(FOES, "attack cy", codes::CONDITION);
    t.expect_rejection(FOES, "distract cy", codes::CONDITION);
    t.cmd("attack ash");
    // The GM waives the save when the attempt is overwhelming: no die.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "gm overwhelm ash", "intimidate bo"]);
    assert_eq!(t.log(), ["ash tries to intimidate bo", "bo is frightened of ash"]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r9_bonus_actions_use_a_consumable_equip_stow_drop_pick_up_interact_and_say() {
    let mut t = table(
        PLAIN,
        &[
            who(
                "ash",
                "pcs",
                "a",
                "health = 5\ncarry = [\"shield\", \"healing-draught\", \"acid\"]",
            ),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[4]).cmd("use healing-draught");
    assert_eq!(t.log(), ["ash's healing draught is used up", "ash heals 4: health 9"]);
    t.cmd("equip shield off");
    // Two bonus actions: nothing is left, not even the main action.
    t.expect_rejection(PCS, "interact", codes::NO_ACTION);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.cmd("end");
    t.cmd("pass");
    // A swap costs two bonus actions; dropping and picking up are bonus actions.
    t.cmds(&["act cy", "drop martial-hand", "pickup martial-hand"]);
    t.expect_rejection(PCS, "say", codes::NO_ACTION);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    // MUR-H24: throwing a consumable weapon is an attack (the main action); a bonus action is
    // left, not a second main action.
    t.cmds(&["act ash", "attack bo with acid"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(health(&t, "bo"), 7);
    t.expect_rejection(PCS, "interact main", codes::NO_ACTION);
    t.cmd("interact");
    t.assert_dice_used();
    t.assert_replays();
}
