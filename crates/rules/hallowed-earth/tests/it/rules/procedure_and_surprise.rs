//! Procedure and surprise: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r1_r6_r7_r9_a_round_declares_then_resolves_from_the_lowest_count_and_ends() {
    // HAL-R4: bases 7 and 3 (Agility 10: no modifier).
    let mut t = duel("", "", "", [7, 3]);
    assert_eq!(t.state().phase, Phase::Declaring);
    // HAL-R6: nothing resolves before every creature has declared.
    t.type_as(PCS, "declare ash attack bo");
    assert_eq!(t.state().phase, Phase::Declaring);
    t.type_as(FOES, "declare bo full-defense");
    // HAL-R7, HAL-R8, HAL-R9: ash 7 + 0, bo 3 − 1 = 2: bo first.
    assert!(
        t.log()
            .contains(&"Round 1 order, lowest first: 2 bo: full-defense; 7 ash: attack bo with sword".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.actor())), Some(("turn", Some(1))));
    t.cmd("end");
    // ash attacks bo, in full defence now: Defense 10 + 4 = 14; a d20 of 14 hits, d6 3.
    t.dice(&[14, 3]).cmd("act");
    t.cmd("pass"); // bo's Reposte chance (HAL-R14)
    assert_eq!(stress(&t, "bo"), 7);
    t.cmd("end");
    // HAL-R1: the round ends (morale, nothing to check) and round 2 opens with declarations.
    assert_eq!(t.state().round, 2);
    assert_eq!(t.state().phase, Phase::Declaring);
    let kinds: Vec<&str> = events(&t)
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { .. } => Some("round"),
            Event::Declared { .. } => Some("declared"),
            Event::Revealed { .. } => Some("revealed"),
            Event::CountStarted { .. } => Some("count"),
            Event::RoundEnded { .. } => Some("end"),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "round", "declared", "declared", "revealed", "count", "count", "end", "round"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn hal_r2_r3_surprised_creatures_roll_initiative_but_neither_declare_nor_act_in_round_one() {
    let mut t = duel("", "", "surprised = true", [7, 3]);
    // HAL-R3: bo rolled its Base Initiative all the same.
    assert_eq!(t.state().ch(1).base, Some(3));
    // HAL-R2: only ash declares in round 1.
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS]);
    t.expect_rejection(FOES, "declare bo attack ash", Reject::NOT_YOUR_DECISION);
    t.type_as(PCS, "declare ash move");
    t.cmd("end");
    // HAL-R17: bo cannot Reposte either while surprised; in round 2 it declares.
    assert_eq!(t.state().round, 2);
    assert!(!has(&t, "bo", Conditions::SURPRISED));
    let p = t.game.pending().unwrap();
    assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![PCS, FOES]);
    t.assert_replays();
}
