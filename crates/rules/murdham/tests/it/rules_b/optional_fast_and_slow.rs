//! Optional: fast and slow activations: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r52_r53_r54_the_seeds_walk_through_fat_9_fast_then_slow_phase() {
    let toml = enc(
        PCS_FIRST,
        "fast-slow = true\nopener = \"choose\"",
        &[
            who("balthasar", "pcs", "a", "wit = 12"),
            who("sybilla", "pcs", "a", "wit = 6"),
            who("theobald", "pcs", "a", "wit = 9\nwield = [\"martial-hand\"]"),
            who("bandit-1", "foes", "a", "wit = 8"),
            who("bandit-2", "foes", "b", "wit = 8"),
            who("leader", "foes", "b", "wit = 10"),
        ]
        .concat(),
    );
    // MUR-R52: the round opens with the d20 for the fast action threshold: 9.
    let mut t = Table::<Murdham>::load(&toml, &[], &[9]);
    assert_eq!((t.state().phase, t.state().fat), (Phase::Fast, Some(9)));
    t.cmd("open pcs");
    // MUR-R53: only WIT 9 or more acts now (MUR-H15: Theobald's 9 equals the threshold).
    t.expect_rejection(PCS, "act sybilla", codes::CANNOT_ACT);
    t.cmd("act theobald");
    t.cmd("attack bandit-1");
    // MUR-R54: bandit-1 (WIT 8) may react in the fast phase: its AGI save 3 passes.
    t.dice(&[3]).cmd("dodge");
    assert_eq!(damage(&t), []);
    t.cmd("end");
    t.expect_rejection(FOES, "act bandit-2", codes::CANNOT_ACT);
    t.expect_rejection(FOES, "act bandit-1", codes::CANNOT_ACT);
    t.cmds(&["act leader", "end"]);
    // Balthasar could act but waits: the players pass, the bandits have nobody and pass.
    t.cmd("pass");
    assert_eq!(t.state().phase, Phase::Slow);
    t.cmd("open pcs");
    t.cmds(&["act sybilla", "end"]);
    // The dodging bandit used its turn.
    t.expect_rejection(FOES, "act bandit-1", codes::CANNOT_ACT);
    t.cmds(&["act bandit-2", "end", "act balthasar"]);
    // The next round's threshold (15) is rolled once both factions have passed.
    t.dice(&[15]).cmd("end");
    assert_eq!(
        trace(&t),
        [
            "round 1",
            "Fast phase, FAT 9",
            "pcs open",
            "theobald's turn",
            "bandit-1 dodges",
            "leader's turn",
            "pcs pass",
            "foes pass",
            "Slow phase",
            "pcs open",
            "sybilla's turn",
            "bandit-2's turn",
            "balthasar's turn",
            "foes pass",
            "pcs pass",
            "Morale phase",
            "round 2",
            "Fast phase, FAT 15",
        ]
    );
    // bandit-1 had no turn in either phase.
    assert!(
        t.all_events()
            .iter()
            .all(|e| !matches!(e, Event::TurnStarted { who } if *who == id(&t, "bandit-1")))
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r53_h15_with_fast_on_tie_off_a_wit_equal_to_the_threshold_waits_for_the_slow_phase() {
    let toml = enc(
        PCS_FIRST,
        "fast-slow = true\nfast-on-tie = false",
        &[who("ash", "pcs", "a", "wit = 9"), who("bo", "foes", "b", "wit = 9")].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[9]);
    // Nobody is fast: both factions pass by themselves and the slow phase begins.
    assert_eq!(t.state().phase, Phase::Slow);
    t.cmds(&["act ash", "end", "act bo"]);
    t.dice(&[20]).cmd("end");
    assert_eq!((t.state().round, t.state().fat), (2, Some(20)));
    t.assert_dice_used();
}
