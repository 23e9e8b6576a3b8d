//! Defensive actions and economy: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r14_hal_h23_full_defence_adds_four_from_its_count_halves_speed_and_allows_a_reposte() {
    // bo (foes) declares full defence at 5 − 1 = 4; ash attacks at 2 and at 7 (two creatures).
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("bo", "foes", "1,0", "speed = 6"),
            who("cy", "pcs", "1,1", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[2, 5, 7]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare cy attack bo");
    t.type_as(FOES, "declare bo full-defense");
    // Count 2: no bonus yet (Defense 10): a 10 hits.
    t.dice(&[10, 1]).cmd("act");
    t.cmd("end");
    // Count 4: bo's turn: +4 now, and only 3 squares of movement (half of 6).
    assert_eq!(t.state().defense(1), 14);
    t.expect_rejection(FOES, "move 5,0", codes::TOO_FAR);
    t.cmd("end");
    // Count 7: cy's 12 + 1 (Strength 12) = 13 misses Defense 14, and bo may Reposte (HAL-R14).
    t.dice(&[12]).cmd("act");
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("reposte", FOES)));
    assert_eq!(t.legal(), ["reposte with sword", "pass"]);
    t.dice(&[15, 4]).cmd("reposte with sword");
    assert_eq!(stress(&t, "cy"), 6);
    t.assert_dice_used();
    // HAL-H23's other reading: the bonus holds for the whole round.
    let toml2 = toml.replace("[options]\n", "[options]\nfull-defense-timing = \"whole-round\"\n");
    let mut t = Table::<HallowedEarth>::load(&toml2, &[], &[2, 5, 7]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare cy attack bo");
    t.type_as(FOES, "declare bo full-defense");
    assert_eq!(t.state().defense(1), 14);
}

#[test]
fn hal_r15_r16_entering_a_threat_range_provokes_a_reposte_unless_the_mover_attacks_defensively() {
    for (declared, provokes) in [("attack bo", true), ("defensive bo", false)] {
        let toml = enc(
            "",
            &[who("ash", "pcs", "0,0", ""), who("bo", "foes", "6,0", "")].concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 9]);
        t.type_as(PCS, &format!("declare ash {declared}"));
        t.type_as(FOES, "declare bo move");
        // ash walks towards bo: 4,0 is 2 yards from bo, inside its 2-yard threat range (HAL-H10).
        t.cmd("move 5,0");
        let at = t.state().ch(0).at;
        if provokes {
            // The move stops on the first square inside the range, and bo's seat is asked.
            assert_eq!(at.to_string(), "4,0");
            assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("reposte", FOES)));
            t.cmd("pass");
            // Moving on within the range provokes nothing more.
            t.cmd("move 5,0");
            assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
        } else {
            assert_eq!(at.to_string(), "5,0");
            assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
        }
    }
    // With the option off, nothing provokes.
    let toml = enc(
        "reposte-on-entry = false",
        &[who("ash", "pcs", "0,0", ""), who("bo", "foes", "6,0", "")].concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[5, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.cmd("move 5,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
}

#[test]
fn hal_r17_one_action_and_one_reaction_a_round() {
    // Two foes walk past ash in one round: ash may Reposte against the first only.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "4,2", ""),
            who("bo", "foes", "0,0", ""),
            who("cy", "foes", "0,4", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[9, 2, 3]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo attack ash");
    t.type_as(FOES, "declare cy attack ash");
    t.cmd("move 3,1"); // bo enters ash's range at 2,1 (2 yards from 4,2)
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    t.dice(&[2]).cmd("reposte"); // a miss
    t.dice(&[3]).cmd("act");
    t.cmd("end");
    t.cmd("move 3,3"); // cy enters the range: ash has no Reaction left
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
    t.dice(&[3]).cmd("act");
    // One standard action: a second `act` is refused.
    t.expect_rejection(FOES, "act", codes::CANNOT_ACT);
    t.cmd("end");
    t.dice(&[4]).cmd("act");
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.assert_dice_used();
}

#[test]
fn hal_r17_a_free_action_is_declared_before_the_action_and_taken_on_the_creatures_turn() {
    let mut t = free_trio("", "", "");
    // The stowed dagger cannot be used without a draw...
    let r = t.expect_rejection(PCS, "declare ash attack bo with dagger", codes::NO_WEAPON);
    assert!(r.reason.contains("free draw dagger"), "{}", r.reason);
    // ...which is the Free action, declared before the action; the attack may then use it.
    assert!(
        t.legal().contains(&"declare ash free draw dagger".to_string()),
        "{:?}",
        t.legal()
    );
    t.type_as(PCS, "declare ash free draw dagger");
    t.expect_rejection(PCS, "declare ash free speak", codes::ALREADY_DECLARED);
    t.type_as(PCS, "declare ash attack bo with dagger");
    // The action declared, a Free action comes too late.
    t.expect_rejection(PCS, "declare ash free speak", codes::ALREADY_DECLARED);
    t.type_as(PCS, "declare cy free speak");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    assert!(
        t.log()
            .iter()
            .any(|l| l.ends_with("3 bo: move; 5 cy: move, free speak; 7 ash: attack bo with dagger, free draw dagger")),
        "{:?}",
        t.log()
    );
    t.cmd("end"); // bo at 3
    // cy at 5: speaking is its Free action, logged on its turn.
    t.cmd("free");
    assert_eq!(t.log(), ["cy speaks (its free action)"]);
    t.expect_rejection(PCS, "free", codes::CANNOT_ACT); // one a turn
    t.cmd("end");
    // ash at 7: the dagger is drawn first, then used.
    let r = t.expect_rejection(PCS, "act", codes::NO_WEAPON);
    assert_eq!(r.reason, "ash's dagger is not in hand: draw it first (free)");
    use fray_engine::text::AnyGame;
    let prompt = text_game(&t).pending().expect("a turn").prompt;
    assert_eq!(
        prompt,
        "Round 1, count 7: ash's turn (attack bo with dagger; free draw dagger): move <x,y> (6 squares left), act, free or end"
    );
    t.cmd("free");
    assert_eq!(t.log(), ["ash draws its dagger"]);
    t.dice(&[15, 3]).cmd("act");
    assert_eq!(stress(&t, "bo"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r17_a_short_move_takes_nothing_from_speed_and_provokes_like_a_move() {
    // ash: Speed 6 yards; a short move of `free-move` 2 yards on top.
    let mut t = free_trio("", "", "");
    t.type_as(PCS, "declare ash free step");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]); // bo, cy
    t.cmd("move 0,4");
    t.cmd("move 2,4"); // 6 squares: the round's Speed is spent
    t.expect_rejection(PCS, "move 3,4", codes::CANNOT_MOVE);
    let r = t.expect_rejection(PCS, "step 5,4", codes::TOO_FAR);
    assert_eq!(r.reason, "5,4 is 3 squares away and a short move goes 2 squares");
    t.cmd("step 4,4");
    assert_eq!(t.log(), ["ash steps to 4,4 (a short move, its free action)"]);
    assert_eq!(t.state().ch(0).moved, 6, "the short move takes nothing from Speed");
    t.expect_rejection(PCS, "step 5,4", codes::CANNOT_ACT);
    // Entering a threat range on a short move provokes a Reposte, as any move does (HAL-R16).
    let mut t = free_trio("", "", "");
    t.cmd("gm move bo 4,0");
    t.type_as(PCS, "declare ash free step");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("step 2,0");
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("reposte"));
    // `free-move = 0`: there is no short move.
    let mut t = free_trio("free-move = 0", "", "");
    t.expect_rejection(PCS, "declare ash free step", codes::CANNOT_ACT);
}

#[test]
fn hal_r17_weapons_in_hand_drawing_dropping_and_two_hands() {
    // A weapon out of hand neither attacks nor threatens: bo walks up to ash unanswered.
    let mut t = free_trio("", "", "");
    t.cmd("gm move bo 4,0");
    t.type_as(PCS, "declare ash free drop sword");
    t.type_as(PCS, "declare ash attack bo with sword");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo attack ash");
    t.cmd("move 2,0"); // bo at 3: into ash's sword range (and cy's), ash may Reposte
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.actor())),
        Some(("reposte", Some(0)))
    );
    t.cmds(&["pass", "pass"]);
    t.cmd("end");
    t.cmd("end"); // cy
    t.cmd("free"); // ash drops the sword...
    assert_eq!(t.log(), ["ash drops its sword"]);
    let r = t.expect_rejection(PCS, "act", codes::NO_WEAPON); // ...and has nothing to attack with
    assert_eq!(r.reason, "ash's sword is not in hand");
    assert_eq!(fray_hallowed_earth::check::threat_range(t.state(), 0), 0);
    t.cmd("end");
    // Round 2: only a draw brings it back.
    t.expect_rejection(PCS, "declare ash attack bo with sword", codes::NO_WEAPON);
    t.expect_rejection(PCS, "declare ash free drop sword", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash free draw sword");
    t.expect_rejection(PCS, "declare ash attack bo with dagger", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash attack bo with sword");
    t.assert_replays();
    // `hands = "two"`: a two-handed maul takes both hands; drawing it puts the sword away.
    let weapons = r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "maul", damage = "2d6", hand = "both" }, { name = "claws", damage = "1d2", hand = "natural" }]"#;
    let toml = enc(
        "hands = \"two\"",
        &[who("ash", "pcs", "0,0", weapons), who("bo", "foes", "1,0", "")].concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[7, 3]);
    // At the start the sword fills the main hand: the maul starts out of hand.
    t.expect_rejection(PCS, "declare ash attack bo with maul", codes::NO_WEAPON);
    t.expect_rejection(PCS, "declare ash free draw claws", codes::NO_WEAPON);
    t.type_as(PCS, "declare ash free draw maul");
    t.type_as(PCS, "declare ash attack bo with maul");
    t.type_as(FOES, "declare bo move");
    t.cmd("end");
    t.cmd("free");
    let s = t.state();
    assert!(fray_hallowed_earth::check::weapon_ready(s, 0, 1).is_ok());
    assert!(
        fray_hallowed_earth::check::weapon_ready(s, 0, 0).is_err(),
        "the sword is put away"
    );
    assert!(
        fray_hallowed_earth::check::weapon_ready(s, 0, 2).is_ok(),
        "claws take no hand"
    );
    t.dice(&[15, 3, 3]).cmd("act");
    t.assert_dice_used();
}

#[test]
fn hal_r17_hal_r29_r30_r33_free_actions_cost_the_hurt_as_actions_but_speech_costs_nothing() {
    // Incapacitated (HAL-R29): no short move; speech costs nothing, a draw a Wound Point.
    for (free, cost) in [("speak", 0), ("draw dagger", 1)] {
        let mut t = free_trio("", "", "");
        t.cmd("gm set ash wp =0");
        t.expect_rejection(PCS, "declare ash free step", codes::CANNOT_MOVE);
        t.type_as(PCS, &format!("declare ash free {free}"));
        t.type_as(PCS, "declare ash move");
        t.type_as(PCS, "declare cy move");
        t.type_as(FOES, "declare bo move");
        t.cmds(&["end", "end"]);
        t.cmd("free");
        assert_eq!(wp(&t, "ash"), -cost, "{free}");
        let paid = t
            .log()
            .iter()
            .any(|l| l.starts_with("ash pays 1 Wound Point for acting hurt"));
        assert_eq!(paid, cost == 1, "{free}: {:?}", t.log());
    }
    // Dying (HAL-R30): the Free action is its one action: no attack and no move after it.
    let mut t = free_trio("", "", "");
    t.cmd("gm set ash wp =-2");
    t.type_as(PCS, "declare ash free draw dagger");
    t.type_as(PCS, "declare ash attack bo with dagger");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("free");
    assert_eq!(wp(&t, "ash"), -3);
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.expect_rejection(PCS, "move 0,1", codes::CANNOT_MOVE);
    // Stabilized (HAL-R33): the first action of the round is free, the next costs 1.
    let mut t = free_trio("", "", "");
    t.cmd("gm set ash wp =-2");
    let ash = t.state().find("ash").unwrap();
    assert_eq!(t.state().ch(ash).cap(), Cap::Dying);
    let toml_stable = enc(
        "",
        &[
            who(
                "ash",
                "pcs",
                "0,0",
                "wp = -2\nstabilized = true\nweapons = [{ name = \"sword\", damage = \"1d6\" }, { name = \"dagger\", damage = \"1d4\", drawn = false }]",
            ),
            who("bo", "foes", "1,0", ""),
            who("cy", "pcs", "0,2", ""),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml_stable, &[], &[7, 3, 5]);
    assert_eq!(t.state().ch(0).cap(), Cap::Stable);
    t.type_as(PCS, "declare ash free draw dagger");
    t.type_as(PCS, "declare ash attack bo with dagger");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    t.cmds(&["end", "end"]);
    t.cmd("free");
    assert_eq!(wp(&t, "ash"), -2, "the first action of the round costs nothing");
    t.dice(&[2]).cmd("act");
    assert_eq!(wp(&t, "ash"), -3, "the second costs a Wound Point");
    t.assert_dice_used();
}

#[test]
fn hal_r17_speech_and_timing_are_options_and_free_actions_can_be_turned_off() {
    // A mute creature cannot speak; with `speech = "not-an-action"` speaking is no command.
    let mut m = free_trio("", "", "conditions = [\"mute\"]");
    m.expect_rejection(PCS, "declare cy free speak", codes::CANNOT_SPEAK);
    let mut n = free_trio("speech = \"not-an-action\"", "", "");
    n.expect_rejection(PCS, "declare cy free speak", codes::CANNOT_ACT);
    assert!(!n.legal().iter().any(|c| c.ends_with("free speak")));
    // `free-action-timing = "own-count"`: the Free action takes a turn of its own at Base
    // Initiative + `free-speed` (here 7 + 2 = 9), after ash's dagger attack at 7 − 1 = 6.
    let mut t = free_trio("free-action-timing = \"own-count\"\nfree-speed = 2", "", "");
    t.type_as(PCS, "declare ash free speak");
    t.type_as(PCS, "declare ash attack bo with sword");
    t.type_as(PCS, "declare cy move");
    t.type_as(FOES, "declare bo move");
    assert!(
        t.log()
            .iter()
            .any(|l| l.ends_with("7 ash: attack bo with sword; 9 ash: free speak")),
        "{:?}",
        t.log()
    );
    t.cmds(&["end", "end"]); // bo at 3, cy at 5
    t.expect_rejection(PCS, "free", codes::CANNOT_ACT); // not on the attack's turn
    t.dice(&[2]).cmd("act");
    t.cmd("end");
    // ash's own turn for the Free action: only the Free action.
    t.expect_rejection(PCS, "act", codes::CANNOT_ACT);
    t.expect_rejection(PCS, "move 0,1", codes::CANNOT_MOVE);
    t.cmd("free");
    assert_eq!(t.log(), ["ash speaks (its free action)"]);
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    // `free-actions = false`: no Free action at all (fray 0.1.0).
    let mut t = free_trio("free-actions = false", "", "");
    t.expect_rejection(PCS, "declare ash free speak", codes::NOT_NOW);
    assert!(!t.legal().iter().any(|c| c.contains(" free ")), "{:?}", t.legal());
}

#[test]
fn hal_r18_hal_h17_movement_comes_in_legs_on_the_creatures_count_up_to_its_speed() {
    let mut t = duel("", "", "", [7, 3]);
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo
    // ash: Speed 6 yards = 6 squares, in three legs.
    t.expect_rejection(PCS, "move 1,0", codes::BLOCKED); // bo stands there
    t.cmds(&["move 0,2", "move 2,2"]);
    t.expect_rejection(PCS, "move 5,2", codes::TOO_FAR);
    t.cmd("move 4,2");
    t.expect_rejection(PCS, "move 5,2", codes::CANNOT_MOVE);
}

#[test]
fn hal_r18_with_alternating_diagonals_every_second_diagonal_step_costs_two() {
    // Speed 6: diagonal steps cost 1, 2, 1, 2 ... counted afresh in each leg of a move.
    let mut t = duel("metric = \"alternating_diagonal\"", "", "", [7, 3]);
    t.type_as(PCS, "declare ash move");
    t.type_as(FOES, "declare bo move");
    t.cmd("end"); // bo
    // Four diagonals and a straight step: 1 + 2 + 1 + 2 + 1 = 7 > 6.
    t.expect_rejection(PCS, "move 5,4", codes::TOO_FAR);
    t.cmd("move 3,3"); // three diagonals: 4
    assert_eq!(t.state().ch(0).moved, 4);
    t.cmd("move 4,4"); // a new leg: its first diagonal costs 1
    assert_eq!(t.state().ch(0).moved, 5);
}

#[test]
fn unknown_ids_in_commands_are_answered_with_did_you_mean() {
    let t = free_trio("", "", "");
    let r = t.parse("declare ahs attack bo").unwrap_err();
    assert!(
        r.reason.contains("no combatant 'ahs' (did you mean 'ash'?)"),
        "{}",
        r.reason
    );
    let r = t.parse("declare ash attack bo with swrod").unwrap_err();
    assert!(
        r.reason.contains("ash has no weapon 'swrod' (did you mean 'sword'?)"),
        "{}",
        r.reason
    );
    let r = t.parse("declare ash free draw dager").unwrap_err();
    assert!(r.reason.contains("(did you mean 'dagger'?)"), "{}", r.reason);
    // Nothing close: no guess.
    let r = t.parse("declare zzzzzz move").unwrap_err();
    assert!(!r.reason.contains("did you mean"), "{}", r.reason);
}
