//! Reacting to an attack: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- reacting to an attack

#[test]
fn mur_r19_the_reaction_comes_after_the_save_to_hit_and_before_damage_and_not_when_unaware() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "f", "")], &[]);
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack bo");
    assert_eq!((saves(&t), damage_rolls(&t)), (1, 0));
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[15, 2]).cmd("dodge");
    assert_eq!(health(&t, "bo"), 8);
    // A concealed attacker: bo is unaware, is not asked, and the damage comes at once.
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", "concealed = true"), who("bo", "foes", "a", "")],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[4]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword (unseen: no reaction)",
            "ash rolls damage: 4 = 4",
            "bo takes 4 damage: health 6/10",
            "ash is revealed (a)"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r20_a_dodge_is_an_agi_save_that_makes_the_attack_miss() {
    let chars = [who("ash", "pcs", "a", ""), who("bo", "foes", "a", "agi = 7")];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[7]).cmd("dodge");
    assert_eq!(t.log()[1], "bo rolls 7 on an AGI save of 7 to dodge: passes");
    assert_eq!((damage_rolls(&t), health(&t, "bo")), (0, 10));
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[8, 4]).cmd("dodge");
    assert_eq!(health(&t, "bo"), 6);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r21_in_a_counter_who_suffers_more_is_hit_first_and_a_tie_lands_together() {
    let four = |a: &str, b: &str| {
        [
            who("ash", "pcs", "a", a),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", b),
            who("dee", "foes", "h", ""),
        ]
    };
    // The rule's test: the attack would deal 3 (4 less light armour), the counter 5: the counter
    // lands first, 5 is critical damage for ash (STR 9: 5 or more), and the 3 never land.
    let mut t = table(PLAIN, &four("str = 9", "armour = \"light\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 5]).cmd("counter");
    assert_eq!(
        t.log(),
        [
            "bo counters (its turn this round)",
            "ash rolls damage: 4 = 4",
            "bo rolls damage: 5 = 5",
            "ash takes 5 damage: health 4/9",
            "ash is incapacitated (critical damage)",
            "ash falls before its own blow lands: it deals nothing"
        ]
    );
    assert_eq!(health(&t, "bo"), 10);
    // 3 against 5 when 5 is not critical (STR 12): the counter first, then the attack.
    let mut t = table(PLAIN, &four("str = 12", "armour = \"light\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 5]).cmd("counter");
    assert_eq!(
        t.log()[3..],
        [
            "ash takes 5 damage: health 7/12",
            "bo takes 3 damage (4 less 1 armour): health 7/10"
        ]
    );
    // 4 against 4: both land together, even though 4 is critical for both (STR 8).
    let mut t = table(PLAIN, &four("str = 8", "str = 8"), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 4]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (4, 4));
    assert_eq!(
        (status(&t, "ash"), status(&t, "bo")),
        (Status::Incapacitated, Status::Incapacitated)
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r22_an_attack_on_several_targets_is_countered_by_one_of_them_only() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"flail\"]"),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.cmd("attack a with flail");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[2, 1]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (9, 8));
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    assert!(!t.legal().iter().any(|l| l.starts_with("counter")), "{:?}", t.legal());
    t.expect_rejection(FOES, "counter", codes::NO_REACTION);
    // MUR-H8: the blast's one roll (2) reaches dee too.
    t.cmd("take");
    assert_eq!(health(&t, "dee"), 8);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r23_hide_behind_a_nearby_character_who_agrees_and_may_react_itself() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline"]); // dee does not guard
    t.expect_rejection(FOES, "hide-behind ash", codes::BAD_TARGET); // the attacker
    t.cmd("hide-behind dee");
    assert_eq!(asked(&t), ("stand-in".to_string(), Some("dee".to_string())));
    t.cmd("agree");
    // dee is the target now, and reacts on its own.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.dice(&[15, 3]).cmd("dodge");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (10, 7));
    // Hiding was bo's reaction, and dee's dodge its own: neither has a turn left, and once ash
    // is done the round is over.
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r23_a_hider_whose_stand_in_declines_keeps_its_reaction() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline", "hide-behind dee"]);
    t.cmd("decline");
    assert_eq!(t.log(), ["dee will not stand in for bo, who may still react"]);
    // bo is asked again, and may dodge, counter or take it, but not hide a second time.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.expect_rejection(FOES, "hide-behind dee", codes::NO_REACTION);
    t.dice(&[3, 2]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (8, 7));
    assert_eq!(
        t.log(),
        [
            "bo counters (its turn this round)",
            "ash rolls damage: 3 = 3",
            "bo rolls damage: 2 = 2",
            "bo takes 3 damage: health 7/10",
            "ash takes 2 damage: health 8/10"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();

    // fray 0.1.0's reading: asking spent bo's reaction, and a refusal leaves it the hit.
    let mut t = table(&format!("{PLAIN}\ndeclined-hide-keeps-reaction = false"), &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline", "hide-behind dee"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (7, 10));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r24_a_guard_becomes_the_target_and_cannot_also_react() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    t.dice(&[3]).cmd("guard");
    assert_eq!(
        t.log(),
        [
            "dee guards bo (its turn this round)",
            "ash rolls damage: 3 = 3",
            "dee takes 3 damage: health 7/10"
        ]
    );
    assert_eq!(health(&t, "bo"), 10);
    t.cmd("end");
    t.expect_rejection(FOES, "act dee", codes::CANNOT_ACT);
    t.cmd("act bo");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r25_an_opportunity_attack_interrupts_a_step_away_and_the_turn_resumes() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmd("act ash");
    // MUR-H26: onto a border of the zone is not moving away.
    t.cmd("move a|b");
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.cmd("move b");
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(
        t.log(),
        [
            "bo makes an opportunity attack (its turn this round)",
            "bo makes an opportunity attack on ash with sword",
            "bo rolls damage: 3 = 3",
            "ash takes 3 damage: health 7/10",
            "ash moves to b"
        ]
    );
    // The turn resumes: the main action is still there.
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.cmd("say");
    t.cmd("end");
    assert_eq!(t.state().round, 2); // bo spent its turn on the opportunity attack
    // A mover taken out of the fight never makes the step.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "str = 4"),
            who("bo", "foes", "a", ""),
            who("cy", "pcs", "h", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "move b"]);
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(status(&t, "ash"), Status::Incapacitated);
    assert!(!t.log().iter().any(|l| l == "ash moves to b"));
    assert_eq!(asked(&t).0, "faction");
    t.assert_dice_used();
    t.assert_replays();
}
