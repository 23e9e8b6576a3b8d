//! Attacking: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- attacking

#[test]
fn mur_r12_an_attack_is_the_main_action_and_hits_without_a_roll() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(saves(&t), 0);
    t.dice(&[4]).cmd("take");
    assert_eq!(t.log(), ["ash rolls damage: 4 = 4", "bo takes 4 damage: health 6/10"]);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r13_a_wit_save_to_hit_in_the_dark_beyond_half_range_while_moving_and_indirect() {
    // Melee on a nearby target that is not visible (a dark zone): 15 fails WIT 10, a miss.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "dk", ""),
            who("cy", "pcs", "dk", ""),
            who("bo", "foes", "dk", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[15]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword",
            "ash rolls 15 on a WIT save of 10 to hit: fails"
        ]
    );
    assert_eq!(
        (asked(&t), health(&t, "bo")),
        (("turn".to_string(), Some("ash".to_string())), 10)
    );
    t.cmds(&["end", "pass", "act cy"]);
    t.dice(&[10]).cmd("attack bo"); // 10 passes: bo may react
    assert_eq!(asked(&t).0, "reaction");
    // Ranged beyond half range (sling range 8, half 4): range 5 needs the save.
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "f", "")], &[]);
    t.cmd("act ash");
    t.dice(&[11]).cmd("attack bo");
    assert_eq!(t.log()[1], "ash rolls 11 on a WIT save of 10 to hit: fails");
    // Within half range, standing still: no save.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "d", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!((saves(&t), asked(&t).0.as_str()), (0, "reaction"));
    // The same shot after moving (MUR-H5): a save.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "e", "")], &[]);
    t.cmds(&["act ash", "move b"]);
    t.dice(&[12]).cmd("attack bo");
    assert_eq!(t.log()[1], "ash rolls 12 on a WIT save of 10 to hit: fails");
    // Every indirect attack: the mortar at range 5 rolls, passes, and bo may react.
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", mortar),
            who("bo", "foes", "f", ""),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack f with mortar");
    assert_eq!(saves(&t), 1);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r14_ranged_attacks_that_are_not_allowed_at_all() {
    let sling = "wield = [\"missile-hand\"]";
    // Beyond half range while moving: refused; within half range it is allowed (with a save).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", sling),
            who("bo", "foes", "g", ""),
            who("dee", "foes", "e", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "move b"]);
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    t.dice(&[20]).cmd("attack dee");
    // A direct ranged attack at a target that is not visible (in the dark).
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "h", sling), who("bo", "foes", "dk", "")],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    // An indirect attack within half range, and one while moving.
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", mortar), who("bo", "foes", "g", "")],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack e with mortar", codes::NOT_ALLOWED); // range 4
    t.cmd("move b");
    t.expect_rejection(PCS, "attack g with mortar", codes::NOT_ALLOWED); // range 5, moved
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r15_melee_reaches_nearby_ranged_reaches_its_range_indirect_reaches_the_unseen() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\", \"dart\"]"),
            who("bo", "foes", "b", ""),
            who("dee", "foes", "d", ""),
            who("eve", "foes", "a|b", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo", codes::OUT_OF_RANGE); // range 1: not nearby
    t.expect_rejection(PCS, "attack dee with dart", codes::OUT_OF_RANGE); // range 3 of 2
    t.cmd("attack eve"); // on a border of a: nearby
    assert_eq!(t.log(), ["ash attacks eve with sword"]);
    // Indirect: the mortar reaches bo in the dark, and over the barrier where dee hides, whose
    // cover it fires over (MUR-R15).
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", mortar),
            who("cy", "pcs", "a", mortar),
            who("bo", "foes", "dk", ""),
            who("dee", "foes", "wall", "cover = true"),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack dk with mortar");
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.cmds(&["end", "pass", "act cy"]);
    t.dice(&[3]).cmd("attack wall with mortar");
    t.dice(&[4]).cmd("take");
    assert_eq!(health(&t, "dee"), 6); // the barrier's cover gives nothing against it
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r16_bare_hands_deal_d4_impaired_and_an_attacker_may_hold_back() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = []"),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    // MUR impaired: d4 twice, keep the lower (a 4 counts 3 and rolls on).
    t.dice(&[4, 2, 3]).cmd("take");
    assert_eq!(
        t.log(),
        [
            "ash rolls damage impaired: 4+2 / 3 = 3",
            "bo takes 3 damage: health 7/10"
        ]
    );
    t.cmds(&["end", "pass", "act cy", "attack bo hold"]);
    t.dice(&[5, 2]).cmd("take");
    assert_eq!(t.log()[0], "cy rolls damage impaired: 5 / 2 = 2");
    assert_eq!(health(&t, "bo"), 5);
    // Brawling: d6, not impaired.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = []\nskills = [\"brawling\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r17_a_one_handed_weapon_in_the_other_hand_is_impaired() {
    let chars = |skill: &str| {
        [
            who(
                "ash",
                "pcs",
                "a",
                &format!("wield = [\"shield\", \"martial-hand\"]\n{skill}"),
            ),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash", "attack bo with martial-hand"]);
    t.dice(&[3, 5]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage impaired: 3 / 5 = 3");
    let mut t = table(PLAIN, &chars("skills = [\"ambidextrous\"]"), &[]);
    t.cmds(&["act ash", "attack bo with martial-hand"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r18_a_final_blow_kills_a_nearby_incapacitated_target_but_never_undead() {
    let chars = |kind: &str| {
        [
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", kind),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash"]);
    t.expect_rejection(PCS, "final-blow bo", codes::BAD_TARGET); // bo is up
    t.cmd("attack bo");
    // 5 of 10 health is critical damage.
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Incapacitated);
    t.cmds(&["end", "pass", "act cy"]);
    t.cmd("final-blow bo");
    assert_eq!(t.log(), ["cy deals bo a final blow", "bo dies"]);
    assert_eq!(status(&t, "bo"), Status::Dead);
    // Undead are never incapacitated, so there is never a final blow on them.
    let mut t = table(PLAIN, &chars("kind = \"undead\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Up);
    t.cmds(&["end", "pass", "act cy"]);
    t.expect_rejection(PCS, "final-blow bo", codes::BAD_TARGET);
    t.assert_dice_used();
    t.assert_replays();
}
