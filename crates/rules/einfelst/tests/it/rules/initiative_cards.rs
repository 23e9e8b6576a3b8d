//! Initiative cards: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r1_r3_r45_each_draws_a_different_card_the_lowest_acts_first_and_cards_are_open() {
    let t = duel("", "", "", 7, 3);
    // EIN-R1: two cards out of one deck of 1 to 10, so never the same value.
    assert_eq!(card_of(&t, "ash"), vec![7]);
    assert_eq!(card_of(&t, "bo"), vec![3]);
    assert_eq!(t.state().deck.cards(), &[1, 2, 4, 5, 6, 8, 9, 10]);
    // EIN-R3: bo's 3 goes before ash's 7.
    assert_eq!(turn(&t), "bo");
    // EIN-R45: the players' seat sees the GM's cards.
    let g = fray_engine::text::TextGame::new(fray_engine::Game::replay(t.game.record()).unwrap());
    let v = fray_engine::text::AnyGame::view_json(&g, PCS)["extra"].to_string();
    assert!(v.contains("\"value\":3"), "{v}");
}

#[test]
fn the_shared_view_shows_zones_harm_rows_cards_and_the_same_to_every_seat() {
    use fray_engine::text::TextRuleset;
    use fray_engine::view::Place;
    let mut t = duel("", "", "", 7, 3);
    t.type_as(GM, "gm set ash physical-lesser +1");
    t.type_as(GM, "gm ignite bo 2");
    let s = t.state();
    let v = Einfelst::seat_view(s, GM);
    assert_eq!(v.ruleset, "einfelst");
    assert_eq!((v.round, v.phase.as_deref()), (1, Some("turns")));
    assert_eq!(v.order, ["bo", "ash"]);
    let ids: Vec<&str> = v.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo"]);
    let ash = &v.combatants[0];
    assert_eq!((ash.side.as_str(), ash.seat.as_str()), ("pcs", "players"));
    assert_eq!(ash.place, Some(Place::Zone { zone: "a".into() }));
    let lesser = ash.gauges.iter().find(|g| g.name == "physical-lesser").expect("row");
    assert_eq!((lesser.value, lesser.max), (1, Some(2)));
    assert!(
        ash.statuses
            .iter()
            .any(|x| x.name == "card" && x.value.as_deref() == Some("7"))
    );
    let bo = &v.combatants[1];
    assert!(
        bo.statuses
            .iter()
            .any(|x| x.name == "burning" && x.value.as_deref() == Some("2"))
    );
    assert_eq!(v.deciding.as_ref().and_then(|d| d.actor.as_deref()), Some("bo"));
    // EIN-R45: nothing is hidden, so the players' seat is shown the same table.
    let pv = Einfelst::seat_view(s, PCS);
    assert_eq!(pv.seat, "players");
    assert_eq!(pv.combatants, v.combatants);
}

#[test]
fn ein_r2_a_group_of_identical_foes_draws_one_card_and_acts_in_turn_on_it() {
    // With `group-order = "encounter"` (fray 0.1.0's reading) they act in encounter order.
    let toml = enc(
        "group-order = \"encounter\"",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "d", "group = \"pack\""),
        ]
        .concat(),
    );
    // Two draws: ash, then one card for the pack.
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    assert_eq!(card_of(&t, "w1"), vec![2]);
    assert_eq!(card_of(&t, "w2"), vec![2]);
    assert_eq!(turn(&t), "w1");
    t.cmd("end");
    assert_eq!(turn(&t), "w2"); // EIN-R2: one after another, in encounter order
    t.cmd("end");
    assert_eq!(turn(&t), "ash");
}

#[test]
fn ein_r4_cards_are_kept_and_the_order_repeats_every_round() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("cy", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 3, 7]));
    for round in 1..=2 {
        assert_eq!(t.state().round, round);
        for x in ["bo", "cy", "ash"] {
            assert_eq!(turn(&t), x);
            t.cmd("end");
        }
    }
    assert_eq!(card_of(&t, "ash"), vec![9]); // no redraw
}

#[test]
fn ein_r5_two_player_characters_swap_cards_only_at_the_start_of_a_round() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 2, 5]));
    assert_eq!(t.state().stage, RoundStage::Swaps);
    t.type_as(PCS, "trade ash cy");
    assert_eq!(card_of(&t, "ash"), vec![2]);
    assert_eq!(card_of(&t, "cy"), vec![9]);
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
    // EIN-R5: not once someone has acted.
    t.expect_rejection(PCS, "trade ash cy", codes::NOT_NOW);
}

#[test]
fn ein_r5_only_player_characters_of_one_side_swap() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[9, 2, 5]));
    t.expect_rejection(PCS, "trade ash bo", codes::BAD_TRADE);
    // Typed in either order.
    t.type_as(PCS, "trade cy ash");
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
}

#[test]
fn ein_r6_r23_an_extra_success_forces_a_swap_and_the_attacker_picks_the_card() {
    // bo holds two cards, 2 and 8 (EIN-R46); ash holds 5.
    let toml = enc(
        "",
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "cards = 2")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 2, 8]));
    assert_eq!(turn(&t), "bo");
    t.cmd("end");
    assert_eq!(turn(&t), "ash");
    // Strike with 2 successes, no defence: 1 extra success, spent on the swap.
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend swap=2");
    t.cmd("split 1+1");
    assert_eq!(card_of(&t, "ash"), vec![2]);
    let mut bo = card_of(&t, "bo");
    bo.sort();
    assert_eq!(bo, vec![5, 8]);
    // EIN-R23: the hit still deals the sword's 2 (nothing left for damage).
    assert_eq!(physical(&t, "bo"), [2, 0, 0]);
}

#[test]
fn ein_r7_h18_a_defence_that_beats_the_attack_may_swap_cards() {
    let mut t = duel("", "", "", 3, 8);
    t.cmd("strike bo");
    // Attack 2 successes, dodge is not allowed in melee: parry 3.
    t.dice(&cat(&[hits(2, 3), hits(3, 3)])).cmd("parry");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
    assert_eq!(t.game.pending().unwrap().kind(), "swap");
    t.cmd("swap 3 8");
    assert_eq!(card_of(&t, "bo"), vec![3]);
    assert_eq!(card_of(&t, "ash"), vec![8]);
    // A tie: a miss and no swap.
    let mut t = duel("", "", "", 3, 8);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("parry");
    assert_eq!(t.game.pending().unwrap().kind(), "turn");
}

#[test]
fn ein_r46_several_cards_give_several_turns_each_with_its_own_allowance() {
    let toml = enc(
        "",
        &[who("ash", "pcs", "d", ""), who("bo", "foes", "b", "cards = 2")].concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 2, 8]));
    assert_eq!(turn(&t), "bo");
    t.cmd("move a");
    t.cmd("move d");
    assert_eq!(turn(&t), "ash");
    t.cmd("end");
    assert_eq!(turn(&t), "bo"); // its card 8
    assert_eq!(t.state().turn.unwrap().n, 1);
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
}

#[test]
fn ein_r2_the_group_s_seat_picks_which_member_acts_next_on_the_card() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "d", "group = \"pack\""),
            who("w3", "foes", "d", "group = \"pack\""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    for round in 1..=2 {
        assert_eq!(t.state().round, round);
        // The card comes up: nobody's turn yet; the GM (the pack's seat) picks.
        let p = t.game.pending().unwrap();
        assert_eq!((p.kind(), p.first()), ("group-turn", GM));
        assert_eq!(turn(&t), "");
        assert_eq!(t.legal(), vec!["act w1", "act w2", "act w3"]);
        assert!(prompt(&t).contains("act w1|w2|w3"), "{}", prompt(&t));
        t.expect_rejection(GM, "end", codes::NOT_NOW);
        t.expect_rejection(GM, "act ash", codes::BAD_TARGET);
        t.cmd("act w3");
        assert_eq!(turn(&t), "w3");
        t.cmd("end");
        // Asked again for the two left; the last one is not asked.
        assert_eq!(t.legal(), vec!["act w1", "act w2"]);
        t.cmd("act w2");
        assert_eq!(turn(&t), "w2");
        t.cmd("end");
        assert_eq!(turn(&t), "w1");
        t.cmd("end");
        assert_eq!(turn(&t), "ash");
        t.cmd("end");
    }
    t.assert_replays();
}

#[test]
fn ein_r2_the_ai_sends_first_the_member_that_can_attack() {
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("w1", "foes", "d", "group = \"pack\""),
            who("w2", "foes", "b", "group = \"pack\""),
            who("w3", "foes", "a", "group = \"pack\""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[8, 2]));
    assert_eq!(ai_choice(&t), "act w3");
    t.cmd("act w3");
    t.cmd("end");
    // Neither can strike now: the nearer one (w1 and w2 are both one zone away: the first).
    assert_eq!(ai_choice(&t), "act w1");
}

#[test]
fn every_roll_shows_its_faces_in_the_log_and_in_its_event() {
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&[6, 1, 6, 1, 4, 6]).cmd("parry");
    let faces: Vec<Vec<u16>> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { faces, .. } => Some(faces.as_slice().to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(faces, vec![vec![6, 1, 6], vec![1, 4, 6]]);
    let log = t.log();
    assert!(
        log.contains(&"ash rolls 3 dice (strike) to attack [6, 1, 6]: 2 successes".to_string()),
        "{log:?}"
    );
    // The defence names its reaction: the log as a game's log is written, each line against
    // the state right after its event.
    let full = full_log(&t);
    assert!(
        full.contains(&"bo rolls 3 dice (strike) to parry [1, 4, 6]: 1 success".to_string()),
        "{full:?}"
    );
    let json = serde_json::to_string(&t.last).unwrap();
    assert!(json.contains("\"faces\":[6,1,6]"), "{json}");
    // The Director's own dice, and the dice of a pushed roll.
    t.dice(&[6, 6, 1, 1, 2, 3]).type_as(GM, "gm poison bo 3");
    assert!(
        t.log()
            .contains(&"The Director rolls 3 dice for the poison [6, 6, 1]: 2 successes".to_string()),
        "{:?}",
        t.log()
    );
    let mut t = duel("push-rolls = true", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&[2, 3, 4]).cmd("pass");
    t.dice(&[5, 6, 1]).cmd("push");
    let pushed = t.last.iter().find_map(|e| match e {
        Event::Pushed { faces, .. } => Some(faces.as_slice().to_vec()),
        _ => None,
    });
    assert_eq!(pushed, Some(vec![5, 6, 1]));
    assert!(
        t.log()
            .iter()
            .any(|l| l == "ash pushes the roll: 3 dice again [5, 6, 1], 1 success more"),
        "{:?}",
        t.log()
    );
}
