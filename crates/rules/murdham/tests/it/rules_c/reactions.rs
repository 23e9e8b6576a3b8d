//! Reactions: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------------------------------------
// MUR-R60, MUR-R25: dodge blows against opportunity attacks

#[test]
fn mur_r60_r25_dodge_blows_dodges_one_opportunity_attack_for_free_not_a_second_one_that_round() {
    let mut t = table(&[
        who("ash", "pcs", "a", "skills = [\"dodge-blows\"]"),
        who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        who("dee", "foes", "a", "wield = [\"martial-hand\"]"),
    ]);
    t.cmds(&["act ash", "move b"]);
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    t.cmd("opportunity");
    // MUR-R60: the round's free dodge covers an opportunity attack too.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("ash".to_string())));
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "ash dodges (a free reaction)");
    // dee strikes too: the free dodge is spent, and a mover cannot otherwise react (MUR-R25):
    // no question, the sword lands.
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("dee".to_string())));
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    assert_eq!(
        ch(&t, "ash").at,
        fray_murdham::place::Place::parse("b", &t.state().setup.zones).expect("a place")
    );
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.assert_dice_used();
    t.assert_replays();
}
