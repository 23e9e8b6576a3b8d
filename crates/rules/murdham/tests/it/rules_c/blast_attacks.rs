//! Blast attacks: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_h6_gm_hinder_asks_a_save_of_one_attack_only() {
    let sword = "wield = [\"martial-hand\"]";
    // A plain attack: one save, none the next round.
    let mut t = table(&[who("ash", "pcs", "a", sword), who("bo", "foes", "a", "")]);
    t.cmds(&["act ash", "gm hinder ash"]);
    t.dice(&[5]).cmd("attack bo");
    assert_eq!(saves(&t), [("ash".to_string(), 5, true)]);
    t.dice(&[1]).cmd("take");
    t.cmds(&["end", "pass"]);
    t.cmd("act ash");
    t.cmd("attack bo");
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    // A sweep cannot miss (MUR-R30): the ruling is spent on it all the same, and the next
    // attack needs no save.
    let mut t = table(&[
        who("ash", "pcs", "a", sword),
        who("gob", "foes", "a", "size = \"small\""),
    ]);
    t.cmds(&["act ash", "gm hinder ash", "attack a sweep"]);
    assert_eq!(saves(&t), []);
    t.dice(&[2]).cmd("take");
    t.cmds(&["end", "pass"]);
    t.cmds(&["act ash", "attack gob"]);
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    // A counter is an attack back (MUR-R21): the hindered counter makes the save, and the
    // counterer's own attack next round needs none.
    let mut t = table(&[who("ash", "pcs", "a", sword), who("bo", "foes", "a", sword)]);
    t.cmds(&["act ash", "gm hinder bo", "attack bo"]);
    // bo's save to hit (5 passes), then ash's 1 and bo's 2: ash suffers more, is hit first.
    t.dice(&[5, 1, 2]).cmd("counter");
    assert_eq!(saves(&t), [("bo".to_string(), 5, true)]);
    t.cmds(&["end"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act bo", "attack ash"]);
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R29, MUR-R31: a blast is aimed at a zone

#[test]
fn mur_r29_r31_a_blast_aimed_at_a_border_is_refused() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"bomb\"]"),
        who("bo", "foes", "b|c", ""),
    ]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack b|c with bomb", codes::BAD_TARGET);
    t.expect_rejection(PCS, "attack a|b with bomb", codes::BAD_TARGET);
    // The zone itself is a target (and the borders of b are hit with it).
    t.cmd("attack b with bomb");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[2]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}
