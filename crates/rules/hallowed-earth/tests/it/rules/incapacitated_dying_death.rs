//! Incapacitated, Dying, death: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r29_hal_r43_the_incapacitated_crawl_a_yard_and_pay_a_wound_point_to_act() {
    let mut t = duel_z("", "", "", [5, 9]);
    t.cmd("gm set ash wp =0");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    // A crawl of 1 yard a turn.
    let r = t.expect_rejection(PCS, "move 0,2", codes::TOO_FAR);
    // One square, one Wound Point: counts of one read in the singular.
    assert_eq!(r.reason, "0,2 is 2 squares away and 1 is left this round");
    t.cmd("move 0,1");
    assert_eq!(t.log(), ["ash moves to 0,1 (1 square)"]);
    t.expect_rejection(PCS, "move 0,2", codes::CANNOT_MOVE);
    // Acting costs 1 Wound Point even with Stress left (HAL-R43), as an untyped wound.
    t.dice(&[2]).cmd("act");
    assert_eq!((wp(&t, "ash"), stress(&t, "ash")), (-1, 10));
    assert!(
        t.log()
            .contains(&"ash pays 1 Wound Point for acting hurt: Stress 10/10, Wound Points -1/12 [Dying]".to_string()),
        "{:?}",
        t.log()
    );
    let w = &t.state().ch(0).wounds;
    assert_eq!((w[0].kind.as_str(), w[0].amount), ("untyped", 1));
    t.assert_dice_used();
}

#[test]
fn hal_r30_the_dying_take_one_action_not_after_moving_and_bleed_at_the_end_of_the_round() {
    let mut t = duel_z("", "", "", [5, 9]);
    t.cmd("gm set ash wp =-2");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.cmd("move 0,1");
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT); // moved: no action
    t.cmd("end");
    t.cmd("end"); // bo
    // End of round: 1 Wound Point lost (HAL-R43: untyped).
    assert_eq!(wp(&t, "ash"), -3);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Damaged {
            wp: 1,
            cause: fray_hallowed_earth::state::Cause::Bleeding,
            ..
        }
    )));
    // Round 2: acting first (1 more Wound Point), it may not move after.
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo move");
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "ash"), -4);
    t.expect_rejection(PCS, "move 0,0", codes::CANNOT_MOVE);
    t.assert_dice_used();
}

#[test]
fn hal_r31_a_creature_dies_at_minus_its_strength() {
    let mut t = duel_z("", "strength = 10", "", [5, 9]);
    t.cmd("gm set ash wp =-9");
    assert!(!has(&t, "ash", Conditions::DEAD));
    t.cmd("gm set ash wp -1");
    assert!(has(&t, "ash", Conditions::DEAD));
}

#[test]
fn hal_r32_r33_r34_a_heal_check_against_ten_plus_the_worst_wound_stabilizes() {
    let crit = "weapons = [{ name = \"sword\", damage = \"1d6+4\", crit = 2 }]";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", crit),
            who("bo", "foes", "1,0", "stress = 0\nstrength = 10"),
            who("cy", "foes", "2,0", "heal = 2"),
        ]
        .concat(),
    );
    // Counts: ash 1, bo 9, cy 10.
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9, 10]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy move");
    // A natural 20: (2 + 4) × 2 = 12 Wound Points (HAL-R37); the d100 of 50 is no injury.
    t.dice(&[20, 2, 50]).cmd("act");
    assert_eq!(wp(&t, "bo"), -2);
    t.cmd("end");
    // HAL-H16: bo, dropped to Dying since it declared, loses its action; cy's turn comes.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(2));
    t.cmd("end");
    assert_eq!(wp(&t, "bo"), -3, "bled at the end of the round (HAL-R30)");
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy heal bo");
    t.cmd("end"); // ash
    t.cmd("end"); // bo, Dying since before it declared: its turn comes, and it ends it
    // HAL-R32: TN 10 + 12 (the worst wound) = 22; cy's 20 + 2 = 22 succeeds.
    t.dice(&[20]).cmd("act");
    assert!(has(&t, "bo", Conditions::STABILIZED));
    t.cmd("end");
    // HAL-R34: no bleeding while Stabilized.
    assert_eq!(wp(&t, "bo"), -3);
    assert_eq!(t.state().ch(1).cap(), Cap::Stable);
    // HAL-R33: half speed (3 of 6), one action a round free, 1 Wound Point for each beyond.
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo attack ash");
    t.type_as(FOES, "declare cy move");
    t.cmd("move 0,3"); // ash walks away and back: bo's Reposte chance is a second action
    t.cmd("move 0,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    t.dice(&[2]).cmd("reposte"); // its first action this round: free
    assert_eq!(wp(&t, "bo"), -3);
    t.cmd("pass"); // cy's chance too
    t.cmd("end");
    t.expect_rejection(FOES, "move 5,0", codes::TOO_FAR);
    t.dice(&[2]).cmd("act"); // the second: 1 Wound Point
    assert_eq!(wp(&t, "bo"), -4);
    assert!(
        has(&t, "bo", Conditions::STABILIZED),
        "its own strain does not end Stabilized"
    );
    t.cmd("end");
    t.cmd("end"); // cy
    // HAL-R34: new damage from an attack ends Stabilized.
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.type_as(FOES, "declare cy move");
    t.dice(&[15, 1]).cmd("act");
    assert!(!has(&t, "bo", Conditions::STABILIZED));
    t.assert_dice_used();
}
