//! Sneaking: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r40_r8_a_character_distracted_in_the_ambush_loses_its_round_1_turn() {
    let mut t = ambush("");
    t.cmd("act cut");
    t.dice(&[15]).cmd("distract ash");
    assert_eq!(
        t.log().last().map(String::as_str),
        Some("ash will lose its turn in round 1")
    );
    ash_lost_round_1(&mut t);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_a_character_stunned_in_the_ambush_loses_its_round_1_turn() {
    // By a stunning blast: flash powder on b (range 1, within half range: no save to hit);
    // ash, surprised, makes its STR save against the stun and fails (15); cy passes (5).
    let mut t = ambush("carry = [\"flash-powder\"]");
    t.cmd("act cut");
    t.dice(&[15, 5]).cmd("attack a with flash-powder");
    assert_eq!(saves(&t), [("ash".to_string(), 15, false), ("cy".to_string(), 5, true)]);
    ash_lost_round_1(&mut t);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_a_character_the_gm_stuns_in_the_ambush_loses_its_round_1_turn() {
    let mut t = ambush("");
    t.cmds(&["act cut", "gm stun ash"]);
    ash_lost_round_1(&mut t);
    t.assert_replays();
}

#[test]
fn mur_r57_an_opportunity_attack_a_concealed_foe_may_make_is_kept_from_the_movers_seat() {
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "d", ""),
        who("cut", "foes", "a", "concealed = true\nwield = [\"martial-hand\"]"),
    ]);
    let cut = id(&t, "cut");
    // cut lets the ambush go by; in round 1 ash steps away from it.
    t.cmd("pass");
    assert_eq!(t.state().round, 1);
    t.cmds(&["act ash", "move b"]);
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("cut".to_string())));
    let frames = |seat: Seat| -> usize {
        let v = serde_json::to_value(fray_murdham::view::view(t.state(), seat)).expect("a view");
        v["frames"].as_array().map_or(0, Vec::len)
    };
    assert_eq!((frames(PCS), frames(GM)), (0, 1));
    t.cmd("decline");
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert!(ch(&t, "cut").concealed);
    let pcs = seat_log(&t, PCS);
    assert!(
        pcs.iter().all(|l| !names(l, cut, "cut")),
        "{:?}",
        pcs.iter().filter(|l| names(l, cut, "cut")).collect::<Vec<_>>()
    );
    // The GM's log does show it (so the check above can fail).
    assert!(seat_log(&t, GM).iter().any(|l| names(l, cut, "cut")));
    // Nor is there a trace of a question: the pcs' log of the step (events included) is the
    // same as with nobody in `a`.
    let mut alone = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "d", "")]);
    alone.cmds(&["act ash", "move b"]);
    let step = |log: Vec<LogLine>| -> Vec<(Option<String>, serde_json::Value)> {
        let from = log
            .iter()
            .position(|l| l.text.as_deref() == Some("ash's turn"))
            .expect("ash's turn");
        log[from..].iter().map(|l| (l.text.clone(), l.json.clone())).collect()
    };
    assert_eq!(step(seat_log(&t, PCS)), step(seat_log(&alone, PCS)));
    t.assert_replays();
}

#[test]
fn mur_r57_a_morale_save_shows_the_other_seat_only_the_members_it_sees() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", "str = 4"),
        who("dee", "foes", "a", "str = 4"),
        who("kit", "foes", "d", ""),
        who("cut", "foes", "d", "concealed = true"),
    ]);
    let cut = id(&t, "cut");
    t.cmd("pass");
    // ash kills bo (4 on STR 4), and dee in round 2: two of four lost.
    t.cmds(&["act ash", "attack bo", "decline"]);
    t.dice(&[4]).cmd("take");
    assert_eq!(ch(&t, "bo").status, Status::Dead);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "attack dee"]);
    t.dice(&[4]).cmd("take");
    assert_eq!(ch(&t, "dee").status, Status::Dead);
    t.cmd("end");
    // The foes pass: the round ends with their group save (5 passes for kit and cut).
    t.dice(&[5]).cmd("pass");
    let group = |log: &[LogLine]| -> Vec<String> {
        texts(log)
            .into_iter()
            .filter(|l| l.starts_with("Group WIT save"))
            .collect()
    };
    assert_eq!(
        group(&seat_log(&t, GM)),
        ["Group WIT save for morale: d20 5: kit 10 passes, cut 10 passes"]
    );
    assert_eq!(group(&seat_log(&t, FOES)), group(&seat_log(&t, GM)));
    assert_eq!(
        group(&seat_log(&t, PCS)),
        ["Group WIT save for morale: d20 5: kit 10 passes"]
    );
    let pcs = seat_log(&t, PCS);
    assert!(
        pcs.iter().all(|l| !names(l, cut, "cut")),
        "{:?}",
        pcs.iter().filter(|l| names(l, cut, "cut")).collect::<Vec<_>>()
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r57_a_draught_cannot_be_used_on_an_enemy_the_seat_cannot_see() {
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"healing-draught\", \"healing-draught\"]"),
        who("bo", "foes", "d", ""),
        who("cut", "foes", "a", "concealed = true\nhealth = 5"),
    ]);
    t.cmds(&["pass", "act ash"]);
    t.expect_rejection(PCS, "use healing-draught cut", codes::BAD_TARGET);
    // Once the GM reveals cut, the same command is accepted.
    t.cmd("gm conceal cut off");
    t.dice(&[2]).cmd("use healing-draught cut");
    assert_eq!(ch(&t, "cut").health, 7);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-H7, MUR-H6: GM rulings for one attack

#[test]
fn mur_h7_gm_penetrate_lets_one_attack_through_cover_not_the_next() {
    let mut t = table(&[
        who("ash", "pcs", "b", "wield = [\"missile-hand\"]"),
        who("bo", "foes", "a", "cover = true"),
    ]);
    t.cmds(&["act ash", "gm penetrate ash", "attack bo"]);
    // Range 1, within half range: no save. Through the cover: all 3.
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    // The next shot meets the cover: 3 - 1.
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_h7_gm_penetrate_spent_on_a_counter_does_not_carry_over_to_the_next_attack() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(&[
        who("ash", "pcs", "a", &format!("{sling}\ncover = true")),
        who("bo", "foes", "b", sling),
    ]);
    t.cmds(&["act ash", "gm penetrate bo", "attack bo"]);
    // ash's 1 and bo's 3 through ash's cover: ash suffers more and is hit first.
    t.dice(&[1, 3]).cmd("counter");
    assert_eq!(damage(&t), [("ash".to_string(), 3), ("bo".to_string(), 1)]);
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    // bo's next shot meets the cover: 3 - 1.
    t.cmds(&["pass", "act bo", "attack ash"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R42: a surprise attack resolves before the attacker is revealed

#[test]
fn mur_r42_a_surprise_attack_resolves_first_then_the_attacker_is_revealed() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cut", "foes", "b", "concealed = true\nwield = [\"martial-hand\"]"),
    ];
    let mut t = table(&chars);
    // The ambush bonus turn: cut steps onto the border unseen (its AGI save of 10 passes with
    // a 4) and strikes ash.
    t.cmd("act cut");
    t.dice(&[4]).cmd("move a|b sneak");
    t.dice(&[3]).cmd("attack ash");
    let attack = [
        "cut attacks ash with sword (unseen: no reaction)",
        "cut rolls damage: 3 = 3",
        "ash takes 3 damage: health 7/10",
        "cut is revealed (the border of a and b)",
    ];
    assert_eq!(t.log(), attack);
    // The pcs' seat is shown the attack as it happens, and where cut is only once it is
    // revealed: nothing of its turn or its sneaking step before.
    let pcs = texts(&seat_log(&t, PCS));
    let at = pcs.iter().position(|l| l == attack[0]).expect("the attack is shown");
    assert_eq!(pcs[at..], attack);
    assert!(pcs[..at].iter().all(|l| !l.contains("cut")), "{pcs:?}");
    t.assert_dice_used();
    t.assert_replays();

    // fray 0.1.0's order: revealed as it declares.
    let mut t = Table::<Murdham>::load(
        &enc(&chars.concat()).replace(
            "opener = \"initiative\"",
            "opener = \"initiative\"\nreveal-after-surprise = false",
        ),
        &[],
        &[],
    );
    t.cmd("act cut");
    t.dice(&[4]).cmd("move a|b sneak");
    t.dice(&[3]).cmd("attack ash");
    assert_eq!(t.log()[0], "cut is revealed (the border of a and b)");
    assert_eq!(t.log()[1], attack[0]);
    t.assert_dice_used();
}

#[test]
fn mur_health_injury_4_lowers_agi_and_leaves_the_character_hobbled_until_a_full_rest() {
    let mut t = dying_bo("");
    // Healed by 1: saved; the injury d6 4 lowers AGI by the d4 (2) and leaves bo hobbled.
    t.dice(&[4, 2]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 4): AGI 2 lower, and hobbled (half movement) until a full rest"
    );
    let bo = ch(&t, "bo");
    assert!(bo.injuries.hobbled);
    assert_eq!(bo.stats.abilities[1], 8);
    // The tracker, the seats' views and what lasts into the next fight show it.
    assert!(
        Murdham::tracker(t.state(), PCS)
            .lines()
            .any(|l| l.contains("bo (foes)") && l.contains(" hobbled"))
    );
    let view = serde_json::to_value(<Murdham as fray_engine::Ruleset>::view(t.state(), PCS)).expect("a view");
    let bo_view = view["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .find(|c| c["id"] == "bo");
    assert_eq!(
        bo_view.expect("bo is seen")["injuries"]["hobbled"],
        serde_json::json!(true)
    );
    let lasting = Murdham::lasting(t.state());
    let bo = lasting.iter().find(|l| l.id == "bo").expect("bo lasts");
    assert!(
        bo.values.contains(&("injuries".into(), "[\"hobbled\"]".into())),
        "{:?}",
        bo.values
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_health_a_hobbled_character_moves_half_a_zone_a_turn_and_a_zone_when_it_runs() {
    let mut t = table(&[
        who("ash", "pcs", "a", "injuries = [\"hobbled\"]"),
        who("bo", "foes", "d", ""),
    ]);
    t.cmd("act ash");
    assert!(
        Murdham::describe_pending(t.state(), &t.game.pending().expect("a turn")).contains("1 half zone of movement")
    );
    // A whole turn's move is half a zone: onto the border, not across into b.
    t.expect_rejection(PCS, "move b", codes::BAD_MOVE);
    t.cmd("move a|b");
    t.expect_rejection(PCS, "move b", codes::BAD_MOVE);
    // Full movement adds half of what it adds to anyone: half a zone more.
    t.cmd("run");
    t.cmd("move b");
    assert_eq!(ch(&t, "ash").at.word(&t.state().setup.zones), "b");
    t.expect_rejection(PCS, "move b|c", codes::BAD_MOVE);
    t.cmds(&["end", "pass"]);
    // A turn where nothing has happened yet is whole, for what takes the whole turn.
    t.cmd("act ash");
    t.cmd("surrender");
    assert_eq!(ch(&t, "ash").status, Status::Surrendered);
    t.assert_dice_used();
}

#[test]
fn mur_health_injury_5_leaves_an_arm_of_no_use_a_d2_picks_it_then_the_other() {
    let mut t = dying_bo("");
    // d6 5, d2 2: the main arm. The sword it held stays carried, out of its hand.
    t.dice(&[5, 2]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 5, d2 2): its main arm is of no use until a full rest"
    );
    assert_eq!(ch(&t, "bo").injuries.arms, [true, false]);
    assert_eq!(in_hands(&t, "bo"), ["shield"]);
    assert!(has(&t, "bo", "martial-hand"));
    // The second arm injury takes the other arm, with no d2; a third adds nothing.
    let log = hurt_and_save_bo(&mut t, "cy", &[5]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved but injured (d6 5): its other arm is of no use until a full rest")
    );
    assert_eq!(ch(&t, "bo").injuries.arms, [true, true]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    let log = hurt_and_save_bo(&mut t, "fay", &[5]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved; the injury (d6 5) adds nothing to what it has")
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn the_shared_view_shows_places_health_and_flags_but_not_where_a_concealed_enemy_is_or_that_it_decides() {
    use fray_engine::Ruleset;
    use fray_engine::view::Place;
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "b", "concealed = true"),
        who("cy", "foes", "c", ""),
    ]);
    t.cmd("gm set cy health -2");
    t.cmd("gm poison cy on");
    let s = t.state();
    let gm = Murdham::seat_view(s, GM);
    assert_eq!(gm.ruleset, "murdham");
    let ids: Vec<&str> = gm.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo", "cy"]);
    assert_eq!(gm.order, ["pcs", "foes"]);
    let cy = &gm.combatants[2];
    assert_eq!((cy.side.as_str(), cy.seat.as_str()), ("foes", "foes"));
    assert_eq!(cy.place, Some(Place::Zone { zone: "c".into() }));
    let health = cy.gauges.iter().find(|g| g.name == "health").expect("health");
    assert_eq!(health.max.map(|m| m - health.value), Some(2));
    assert!(cy.statuses.iter().any(|x| x.name == "poisoned"));
    let bo = &gm.combatants[1];
    assert_eq!(bo.place, Some(Place::Zone { zone: "b".into() }));
    assert!(bo.statuses.iter().any(|x| x.name == "concealed"));
    // MUR-R57: the pcs' seat is not shown that bo is in the fight at all.
    let pv = Murdham::seat_view(s, PCS);
    let ids: Vec<&str> = pv.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "cy"]);
    let mut others = Vec::new();
    Murdham::indistinguishable(s, PCS, &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(Murdham::seat_view(other, PCS), pv);
    }
    // Nor, on bo's own turn, who is deciding or where it stands.
    t.cmd("act bo");
    let s = t.state();
    let pv = Murdham::seat_view(s, PCS);
    let d = pv.deciding.as_ref().expect("a decision");
    assert_eq!(d.actor, None);
    assert!(!d.text.contains("bo"), "{}", d.text);
    let gm = Murdham::seat_view(s, GM);
    assert!(
        gm.deciding
            .is_some_and(|d| d.actor.as_deref() == Some("bo") && d.text.contains("bo's turn"))
    );
    let mut others = Vec::new();
    Murdham::indistinguishable(s, PCS, &mut others);
    for other in &others {
        assert_eq!(Murdham::seat_view(other, PCS), pv);
    }
    // A character on a border stands on both zones'.
    t.type_as(GM, "gm move cy b|c");
    let cy = &Murdham::seat_view(t.state(), PCS).combatants[1];
    assert_eq!(
        cy.place,
        Some(Place::Border {
            zones: ["b".into(), "c".into()]
        })
    );
}
