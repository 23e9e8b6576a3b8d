//! Blast attacks: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------------------------------------
// Blasts (MUR-R31, MUR-R58)

#[test]
fn mur_r31_h22_a_missed_ranged_blast_deviates_by_a_d6_rerolled_above_five_neighbours() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "g", "wield = [\"bomb\"]"),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "d", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // MUR-R31: any zone within range: `c` is 3 zones away, the bomb reaches 2.
    t.expect_rejection(PCS, "attack c with bomb", codes::OUT_OF_RANGE);
    // Range 2 is beyond half range (1): a WIT save, 15 against 10 misses. `a` has five
    // neighbours (b, c, d, e, f): MUR-H22 rolls a d6 and rolls a 6 again; 3 is `d`.
    t.dice(&[15, 6, 3]).cmd("attack a with bomb");
    let deviated: Vec<(u16, u16, Option<Place>)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Deviated { roll, sides, to } => Some((*roll, *sides, *to)),
            _ => None,
        })
        .collect();
    // The 6 is more than the five zones around: rolled again, landing nowhere yet.
    assert_eq!(deviated, [(6, 6, None), (3, 6, Some(place(&t, "d")))]);
    assert_eq!(saves(&t), [("ash".to_string(), 15, false)]);
    // Everyone in `d` (cy) is hit; nobody in `a`.
    assert_eq!(
        (asked(&t), t.game.pending().and_then(|p| p.actor())),
        (Some("reaction"), Some(id(&t, "cy")))
    );
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("cy".to_string(), 4)]);
    assert_eq!((ch(&t, "bo").health, ch(&t, "cy").health), (10, 6));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r31_a_ranged_blast_on_the_attackers_own_zone_hits_the_attacker_too() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"bomb\"]"),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // Range 0: no save. ash has had its turn, so it cannot dodge its own bomb: it takes the
    // roll (3) at once; bo then chooses its reaction and takes the same roll (MUR-H8).
    t.dice(&[3]).cmd("attack a with bomb");
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "bo")));
    t.cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    assert_eq!(ch(&t, "cy").health, 10);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r58_a_medium_d6_sweep_rolling_5_deals_3_to_small_and_tiny_and_nothing_to_medium() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
            who("sm", "foes", "a", "str = 12\nsize = \"small\""),
            who("md", "foes", "a", ""),
            who("ti", "foes", "a", "str = 16\nsize = \"tiny\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.cmd("attack a sweep");
    // Only the smaller characters are asked, in order; one roll for the whole sweep.
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "sm")));
    t.dice(&[5]).cmd("take");
    assert_eq!(damage(&t), [("sm".to_string(), 3)]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "ti")));
    t.cmd("take");
    assert_eq!(damage(&t), [("ti".to_string(), 3)]);
    assert_eq!(ch(&t, "md").health, 10);
    assert_eq!(asked(&t), Some("turn"), "the sweep is over: md is never asked");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r58_a_blast_aimed_at_one_large_character_loses_blast_and_deals_double() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "b", "wield = [\"bomb\"]"),
            who("ogre", "foes", "a", "size = \"large\""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    // Only a large or massive character can be a blast's single target.
    t.expect_rejection(PCS, "attack bo with bomb", codes::BAD_TARGET);
    // bo could guard the ogre and declines.
    t.cmds(&["attack ogre with bomb", "decline"]);
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(id(&t, "ogre")));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("ogre".to_string(), 8)]);
    assert_eq!((ch(&t, "ogre").health, ch(&t, "bo").health), (12, 10));
    t.assert_dice_used();
    t.assert_replays();
}
