//! Monster morale: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r19_r20_r21_an_outnumbered_monster_rolls_3d6_plus_insight_hd_and_allies_against_eleven_plus_foes() {
    // Three travellers against two monsters: outnumbered. orc: Insight 12 (+1), 2 HD, 1 ally.
    let monster = "monster = true\ninsight = 12\nhd = 2";
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("c", "pcs", "0,2", ""),
            who("orc", "foes", "9,0", monster),
            who("gob", "foes", "9,1", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3, 4, 5]);
    for (seat, id) in [(PCS, "a"), (PCS, "b"), (PCS, "c"), (FOES, "orc"), (FOES, "gob")] {
        t.type_as(seat, &format!("declare {id} move"));
    }
    t.cmds(&["end", "end", "end", "end"]);
    // orc: 3d6 (2 + 3 + 4 = 9) + 1 + 2 + 1 = 13 against 11 + 3 = 14: breaks.
    // gob: 3d6 (6 + 6 + 2 = 14) + 0 + 1 + 1 = 16 ≥ 14: holds.
    t.dice(&[2, 3, 4, 6, 6, 2]).cmd("end");
    let checks: Vec<(u16, i16, i16, bool)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Checked {
                roll,
                total,
                tn,
                success,
                ..
            } => Some((*roll, *total, *tn, *success)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(9, 13, 14, false), (14, 16, 14, true)]);
    // HAL-H13: the orc flees from the next round: its flight is declared for it.
    assert!(has(&t, "orc", Conditions::FLEEING));
    assert_eq!(t.state().ch(3).declared, Some(Action::Flee));
    t.assert_dice_used();
}

#[test]
fn hal_r19_r21_r22_intimidation_is_opposed_and_an_obvious_outcome_fails() {
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", "intimidation = 4"),
            who("orc", "foes", "9,0", "monster = true\nhd = 3"),
            who("gob", "foes", "9,1", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.type_as(PCS, "declare a intimidate orc");
    t.type_as(FOES, "declare orc move");
    t.type_as(FOES, "declare gob move");
    // HAL-R19, HAL-R21: an Intimidation check of 12 + 4 = 16 sets the orc's morale TN.
    t.dice(&[12]).cmd("act");
    t.cmds(&["end", "end"]);
    t.cmd("gm obvious gob");
    // orc: 3d6 9 + 0 + 3 + 1 = 13 < 16: breaks; gob is not outnumbered and was not
    // intimidated, so it makes no check at all, obvious or not.
    t.dice(&[3, 3, 3]).cmd("end");
    let checks: Vec<(i16, i16)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Checked { total, tn, .. } => Some((*total, *tn)),
            _ => None,
        })
        .collect();
    assert_eq!(checks, [(13, 16)]);
    assert!(has(&t, "orc", Conditions::FLEEING));
    // HAL-R22: next round both are outnumbered-free... make gob face two foes via a newcomer.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("gob", "foes", "9,1", "monster = true\nhd = 9\ninsight = 18"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.cmd("gm obvious gob");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end"]);
    // gob is outnumbered and checks, but the outcome is obvious to it: it fails, and no 3d6
    // is drawn (a table rolling its own dice is asked for none).
    t.cmd("end");
    t.assert_dice_used();
    assert!(t.last.iter().any(|e| matches!(e, Event::MoraleObvious { who: 2 })));
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
    assert!(has(&t, "gob", Conditions::FLEEING));
    assert!(
        t.log()
            .contains(&"gob's morale: the outcome is obvious to it, so it breaks without a roll".to_string()),
        "{:?}",
        t.log()
    );
    t.assert_replays();
    // `morale-roll-when-obvious` (fray 0.1.0): the 3d6 is drawn all the same; 18 + 4 + 9 = 31
    // would pass TN 13, but the check fails.
    let mut t = Table::<HallowedEarth>::load(
        &toml.replace("[options]\n", "[options]\nmorale-roll-when-obvious = true\n"),
        &[],
        &[1, 2, 3],
    );
    t.cmd("gm obvious gob");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end"]);
    t.dice(&[6, 6, 6]).cmd("end");
    t.assert_dice_used();
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Checked {
            success: false,
            total: 31,
            ..
        }
    )));
    assert!(has(&t, "gob", Conditions::FLEEING));
}

#[test]
fn hal_h13_a_fleeing_monster_runs_for_the_edge_and_leaves_or_surrenders_with_the_option() {
    // Two travellers against an orc and a steady goblin (Insight 18, 6 HD: it holds).
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("c", "pcs", "0,2", ""),
            who("orc", "foes", "7,2", "monster = true"),
            who("gob", "foes", "9,0", "monster = true\ninsight = 18\nhd = 6"),
        ]
        .concat(),
    );
    let start = |toml: &str| {
        let mut t = Table::<HallowedEarth>::load(toml, &[], &[1, 2, 3, 4, 5]);
        for (seat, id) in [(PCS, "a"), (PCS, "b"), (PCS, "c"), (FOES, "orc"), (FOES, "gob")] {
            t.type_as(seat, &format!("declare {id} move"));
        }
        t.cmds(&["end", "end", "end", "end"]);
        // Outnumbered 3 to 2: orc 3 + 0 + 1 + 1 = 5 < 14 breaks; gob 3 + 4 + 6 + 1 = 14 holds.
        t.dice(&[1, 1, 1, 1, 1, 1]).cmd("end");
        t
    };
    let mut t = start(&toml);
    assert!(has(&t, "orc", Conditions::FLEEING));
    // It no longer counts as fighting, but the goblin does: the combat goes on.
    assert!(t.game.outcome().is_none());
    for id in ["a", "b", "c"] {
        t.type_as(PCS, &format!("declare {id} move"));
    }
    t.type_as(FOES, "declare gob move");
    t.cmds(&["end", "end", "end"]);
    // On its count (4) it runs 2 squares to the nearest edge (the south one, diagonally)
    // and leaves the battlefield.
    assert!(has(&t, "orc", Conditions::FLED), "{:?}", t.log());
    assert_eq!(t.state().ch(3).at.to_string(), "5,0");
    let toml = toml.replace("[options]\n", "[options]\nmorale-failure = \"surrender\"\n");
    let t = start(&toml);
    assert!(has(&t, "orc", Conditions::SURRENDERED));
}

#[test]
fn hal_h22_player_characters_check_no_morale_unless_the_option_says_so() {
    for (options, checks) in [("", 0), ("pc-morale = true", 1)] {
        let toml = enc(
            options,
            &[
                who("a", "pcs", "0,0", ""),
                who("x", "foes", "9,0", ""),
                who("y", "foes", "9,1", ""),
            ]
            .concat(),
        );
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
        t.type_as(PCS, "declare a move");
        t.type_as(FOES, "declare x move");
        t.type_as(FOES, "declare y move");
        t.cmds(&["end", "end"]);
        t.dice(&vec![6; 3 * checks]).cmd("end");
        let n = t.last.iter().filter(|e| matches!(e, Event::Checked { .. })).count();
        assert_eq!(n, checks, "{options}");
    }
}
