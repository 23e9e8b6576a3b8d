//! Reactions: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- reactions

#[test]
fn mur_r10_a_reaction_is_the_turn_of_the_round() {
    // A reaction uses the turn: bo dodges, then has no turn of its own.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmd("act ash");
    t.cmd("attack bo");
    t.dice(&[5]).cmd("dodge");
    assert_eq!(
        t.log(),
        [
            "bo dodges (its turn this round)",
            "bo rolls 5 on an AGI save of 10 to dodge: passes"
        ]
    );
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "bo's turn"));
    // A character who has had its turn cannot react: no question, the damage is rolled.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act cy", "end", "act bo", "end", "act ash"]);
    t.dice(&[3]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword",
            "ash rolls damage: 3 = 3",
            "bo takes 3 damage: health 7/10"
        ]
    );
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r11_the_reactions_are_counter_dodge_guard_hide_behind_and_opportunity_attack() {
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
    // dee, nearby, may guard bo first.
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    assert_eq!(t.legal(), ["guard", "decline"]);
    t.cmd("decline");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    let legal = t.legal();
    for r in ["take", "dodge", "counter", "hide-behind dee"] {
        assert!(legal.iter().any(|l| l == r), "{r} missing from {legal:?}");
    }
    t.dice(&[1]).cmd("take");
    t.cmd("move b");
    // The opportunity attack: asked of dee, who still has its turn.
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    assert!(t.legal().iter().any(|l| l == "decline"));
    assert!(t.legal().iter().any(|l| l.starts_with("opportunity")));
    t.assert_dice_used();
}

// ---------------------------------------------------------------- MUR-R60: free reactions

#[test]
fn mur_r60_dodge_blows_dodges_once_for_free_and_the_turn_is_still_there() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", "skills = [\"dodge-blows\"]"),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (a free reaction)");
    t.cmd("end");
    t.cmd("act bo"); // the free dodge did not use bo's turn
    assert_eq!(t.log(), ["bo's turn"]);
    // A second dodge in the round uses the turn.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (its turn this round)");
    t.cmd("end");
    t.expect_rejection(FOES, "act bo", Reject::NOT_YOUR_DECISION); // the foes passed by themselves
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "bo's turn"));
    // The free dodge comes back each round.
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (a free reaction)");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_protect_guards_for_free_and_the_guard_may_still_react() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", "skills = [\"protect\"]"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo", "guard"]);
    assert_eq!(t.log(), ["dee guards bo (a free reaction)"]);
    // The free guard leaves dee its reaction: it is asked, and dodges.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.dice(&[15, 4]).cmd("dodge");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (10, 6));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_fleet_footed_dodges_an_opportunity_attack_others_cannot_react_to_it() {
    let chars = |skill: &str| [who("ash", "pcs", "a", skill), who("bo", "foes", "a", "")];
    let mut t = table(PLAIN, &chars("skills = [\"fleet-footed\"]"), &[]);
    t.cmds(&["act ash", "move b", "opportunity"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("ash".to_string())));
    t.dice(&[5]).cmd("dodge");
    assert_eq!(
        t.log(),
        [
            "ash dodges (a free reaction)",
            "ash rolls 5 on an AGI save of 10 to dodge: passes",
            "ash moves to b"
        ]
    );
    // MUR-R25: without the skill the mover cannot react: the damage comes at once.
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash", "move b"]);
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(health(&t, "ash"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_fast_strike_hits_first_in_a_counter_unless_both_have_it() {
    // Without fast strike: ash's 2 against bo's counter 5: ash suffers more and is hit first;
    // 5 is critical for ash (STR 10), so ash's 2 never land.
    let chars = |a: &str, b: &str| {
        [
            who("ash", "pcs", "a", a),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", &format!("str = 4\n{b}")),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars("", ""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "ash"), health(&t, "bo")), (Status::Incapacitated, 4));
    // With fast strike ash hits first: 2 is critical for bo (4 health), whose counter fails.
    let mut t = table(PLAIN, &chars("skills = [\"fast-strike\"]", ""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "bo"), health(&t, "ash")), (Status::Incapacitated, 10));
    // Both have it: the usual order again.
    let fs = "skills = [\"fast-strike\"]";
    let mut t = table(PLAIN, &chars(fs, fs), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "ash"), health(&t, "bo")), (Status::Incapacitated, 4));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_a_power_cannot_be_dodged_but_can_be_countered() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "str = 12\npowers = [\"bolt\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "invoke bolt bo"]);
    assert!(!t.legal().iter().any(|l| l == "dodge"), "{:?}", t.legal());
    t.expect_rejection(FOES, "dodge", codes::NO_REACTION);
    // The counter: bolt 2 against the sword's 5: ash suffers more and is hit first; 5 is not
    // critical for STR 12, so the bolt lands too.
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (7, 8));
    t.assert_dice_used();
    t.assert_replays();
}
