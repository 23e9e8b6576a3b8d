//! Round structure: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- round structure

#[test]
fn mur_r1_r2_r3_r4_factions_alternate_one_turn_each_and_the_round_ends_after_passes_in_a_row() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "h", ""),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    // MUR-R1: the pcs' opportunity: one of theirs takes a turn (or they pass).
    assert_eq!(asked(&t), ("faction".to_string(), None));
    assert_eq!(first_seat(&t), PCS);
    t.expect_rejection(FOES, "act bo", Reject::NOT_YOUR_DECISION);
    t.cmds(&["act ash", "end"]);
    // Then the foes' opportunity.
    assert_eq!(first_seat(&t), FOES);
    t.expect_rejection(PCS, "act cy", Reject::NOT_YOUR_DECISION);
    t.cmd("pass");
    assert_eq!(t.log(), ["foes pass"]);
    // MUR-R2: ash has had its turn this round.
    t.expect_rejection(PCS, "act ash", codes::CANNOT_ACT);
    t.cmds(&["act cy", "end"]);
    // MUR-R3: the foes passed, but the pcs acted since: the foes may act again.
    t.cmd("act bo");
    assert_eq!(t.log(), ["bo's turn"]);
    // MUR-R4: nobody of the pcs can act, so they pass by themselves.
    t.cmd("end");
    assert_eq!(t.log(), ["pcs pass"]);
    assert_eq!((first_seat(&t), t.state().round), (FOES, 1));
    // MUR-R3: the foes pass too: every faction has passed in a row, and dee never acted.
    t.cmd("pass");
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "dee's turn"));
    assert_eq!(asked(&t), ("faction".to_string(), None));
    t.assert_replays();
}

#[test]
fn mur_r5_morale_is_checked_only_at_the_end_of_the_round() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", "str = 4"),
            who("dee", "foes", "h", "wit = 5"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    // 5 damage on STR 4 kills: the foes are down to half, but nobody checks yet.
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Dead);
    assert!(!t.last.iter().any(|e| matches!(e, Event::GroupSave { .. })));
    t.cmd("end");
    assert!(!t.last.iter().any(|e| matches!(e, Event::GroupSave { .. })));
    // MUR-R5: dee passes, the pcs have nobody left to act: the round ends with morale.
    t.dice(&[8]).cmd("pass");
    assert_eq!(
        t.log(),
        [
            "foes pass",
            "pcs pass",
            "Group WIT save for morale: d20 8: dee 5 fails",
            "Morale breaks for dee: surrender or retreat"
        ]
    );
    assert_eq!(asked(&t), ("morale".to_string(), Some("dee".to_string())));
    // dee runs; the pcs are left alone, and the sword that struck makes its durability roll.
    t.dice(&[3]).cmd("retreat");
    assert!(t.state().outcome.is_some());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r6_a_die_picks_the_initiative_faction_which_says_who_opens_each_round() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "h", "")].concat())
        .replace("initiative = \"pcs\"\n", "");
    // Two factions: a d2, and 2 is the second faction.
    let mut t = Table::<Murdham>::load(&toml, &[], &[2]);
    assert_eq!(t.log(), ["Initiative die 2: foes hold the initiative", "Round 1"]);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("open", FOES));
    t.expect_rejection(PCS, "open pcs", Reject::NOT_YOUR_DECISION);
    t.cmd("open pcs");
    assert_eq!(t.log(), ["pcs act first"]);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("faction", PCS));
    t.cmds(&["act ash", "end", "act bo", "end"]);
    // Round 2: the foes choose again.
    assert_eq!(t.state().round, 2);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("open", FOES));
    t.cmd("open foes");
    assert_eq!(first_seat(&t), FOES);
    t.assert_dice_used();
    t.assert_replays();
}
