//! End of combat: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_h14_hal_r23_a_side_with_nobody_still_fighting_has_lost() {
    // Incapacitated, Dying, and Stabilized below 0 are not fighting.
    let mut t = duel("", "", "", [1, 9]);
    t.cmd("gm set bo wp =0");
    assert_eq!(
        t.game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(0), "last-side-fighting".into()))
    );
    // Outnumbering counts only those still fighting: two pcs, one of them down, against one
    // monster: not outnumbered, no morale check.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", ""),
            who("b", "pcs", "0,1", ""),
            who("orc", "foes", "9,0", "monster = true"),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3]);
    t.cmd("gm set b wp =0");
    t.type_as(PCS, "declare a move");
    t.type_as(PCS, "declare b move");
    t.type_as(FOES, "declare orc move");
    t.cmds(&["end", "end", "end"]);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
    // The GM may end it too.
    t.cmd("gm end none");
    assert_eq!(t.game.outcome().map(|o| o.winner), Some(None));
}

#[test]
fn hal_h15_a_single_hit_of_over_half_the_wound_points_triggers_morale() {
    // orc: 12 Wound Points, no Stress; a 7-point hit is over half (6). Not outnumbered.
    let toml = enc(
        "",
        &[
            who("a", "pcs", "0,0", "weapons = [{ name = \"axe\", damage = \"1d8\" }]"),
            who("orc", "foes", "1,0", "monster = true\nstress = 0"),
        ]
        .concat(),
    );
    for (damage, checks) in [(7u16, 1), (6, 0)] {
        let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
        t.type_as(PCS, "declare a attack orc");
        t.type_as(FOES, "declare orc move");
        t.dice(&[15, damage]).cmd("act");
        t.cmd("end");
        let faces = vec![6; 3 * checks];
        t.dice(&faces).cmd("end");
        let n = t.last.iter().filter(|e| matches!(e, Event::Checked { .. })).count();
        assert_eq!(n, checks, "a hit of {damage}");
    }
    // Stress damage does not count: with 10 Stress the 7 goes to Stress.
    let toml = toml.replace("monster = true\nstress = 0", "monster = true");
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9]);
    t.type_as(PCS, "declare a attack orc");
    t.type_as(FOES, "declare orc move");
    t.dice(&[15, 7]).cmd("act");
    t.cmds(&["end", "end"]);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Checked { .. })));
}
