//! Morale and surrender: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r44_a_group_wit_12_6_and_9_rolling_9_keeps_12_and_9_for_the_stretch_and_6_gives_up() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"simple-hand\"]"),
            who("m12", "foes", "a", "wit = 12"),
            who("m6", "foes", "a", "wit = 6"),
            who("m9", "foes", "a", "wit = 9"),
            who("x1", "foes", "b", ""),
            who("x2", "foes", "b", ""),
            who("x3", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // Half the group leaves: 3 of 6 (MUR-R43).
    t.cmds(&["gm remove x1", "gm remove x2", "gm remove x3", "pass"]);
    // MUR-R5, MUR-R44: at the end of the round, one d20 for the whole group.
    t.dice(&[9]).cmd("pass");
    assert_eq!(
        group_saves(&t),
        [(
            9,
            vec![
                ("m12".to_string(), true),
                ("m6".to_string(), false),
                ("m9".to_string(), true)
            ],
            Why::Morale
        )]
    );
    assert!(ch(&t, "m12").morale_proof && ch(&t, "m9").morale_proof && !ch(&t, "m6").morale_proof);
    // The WIT 6 member must surrender or retreat.
    assert_eq!(t.game.pending().map(|p| (p.first(), p.kind())), Some((FOES, "morale")));
    assert_eq!(t.legal(), ["surrender", "retreat"]);
    t.cmd("surrender");
    assert_eq!(status(&t, "m6"), Status::Surrendered);
    assert_eq!(t.state().round, 2);
    // MUR-R46: harmed by the enemy, the surrendered m6 fights again (and, MUR-H11, is not
    // checked again). m12 and m9 could guard it and decline.
    // m6 cannot react: the blow lands as soon as the guards have declined.
    t.cmds(&["act ash", "attack m6", "decline"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!(damage(&t), [("m6".to_string(), 3)]);
    assert_eq!(status(&t, "m6"), Status::Up);
    assert!(t.last.iter().any(|e| matches!(e, Event::Resumed { .. })));
    // Round 2 ends with the group still at half: nobody is left to check, no die is rolled.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(group_saves(&t), []);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r43_a_group_checks_only_once_down_to_half_its_original_number() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("f1", "foes", "b", ""),
            who("f2", "foes", "b", ""),
            who("f3", "foes", "b", ""),
            who("f4", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // 3 of 4 left: no check (a die asked here would make the command fail).
    t.cmds(&["gm remove f4", "pass", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(group_saves(&t), []);
    // 2 of 4: the group checks; 15 fails both.
    t.cmd("gm remove f3");
    t.cmd("pass");
    t.dice(&[15]).cmd("pass");
    assert_eq!(
        group_saves(&t),
        [(
            15,
            vec![("f1".to_string(), false), ("f2".to_string(), false)],
            Why::Morale
        )]
    );
    t.cmds(&["retreat", "surrender"]);
    assert_eq!(
        (status(&t, "f1"), status(&t, "f2")),
        (Status::Fled, Status::Surrendered)
    );
    assert!(t.state().outcome.is_some(), "nobody of the foes fights on");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r43_a_lone_fighter_checks_once_damage_leaves_it_at_half_health() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "helmet = true"),
            who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // 5 of 10: not critical (the helmet puts that at 6), but half health.
    t.cmds(&["act bo", "attack ash"]);
    t.dice(&[5]).cmd("take");
    assert_eq!((ch(&t, "ash").health, status(&t, "ash")), (5, Status::Up));
    t.cmds(&["end", "act ash"]);
    // WIT save 4 against 10 passes: ash fights on and never checks again.
    t.dice(&[4]).cmd("end");
    assert_eq!(group_saves(&t), [(4, vec![("ash".to_string(), true)], Why::Morale)]);
    t.cmds(&["pass", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(group_saves(&t), []);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r45_the_fearless_never_check_morale() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("brave", "foes", "b", "skills = [\"bravery\"]"),
            who("mindless", "foes", "b", "mind = \"mindless\""),
            who("bones", "foes", "b", "kind = \"undead\""),
            who("rager", "foes", "b", "skills = [\"frenzied\"]"),
            who("plain", "foes", "b", ""),
            who("x1", "foes", "d", ""),
            who("x2", "foes", "d", ""),
            who("x3", "foes", "d", ""),
            who("x4", "foes", "d", ""),
            who("x5", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&[
        "gm remove x1",
        "gm remove x2",
        "gm remove x3",
        "gm remove x4",
        "gm remove x5",
        "pass",
    ]);
    t.dice(&[3]).cmd("pass");
    assert_eq!(group_saves(&t), [(3, vec![("plain".to_string(), true)], Why::Morale)]);
    t.assert_dice_used();
}

#[test]
fn mur_r46_surrender_takes_the_whole_turn_and_harm_from_the_enemy_ends_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "b", ""),
            who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "say"]);
    t.expect_rejection(PCS, "surrender", codes::NO_ACTION);
    t.cmd("end");
    t.cmds(&["pass", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "surrender"]);
    assert_eq!(status(&t, "ash"), Status::Surrendered);
    assert!(t.state().turn.is_none(), "the turn is over");
    // bo strikes the surrendered ash, who cannot react: ash fights again.
    t.cmd("act bo");
    t.dice(&[2]).cmd("attack ash");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    assert_eq!(status(&t, "ash"), Status::Up);
    assert!(ch(&t, "ash").morale_proof);
    t.assert_dice_used();
    t.assert_replays();
}
