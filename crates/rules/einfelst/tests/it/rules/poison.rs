//! Poison: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r41_r42_poison() {
    let pts = "harm = \"points\"\nharm-capacity = 20";
    // Toxicity 3: the Director 2, the victim 1: 2 Harm, then 1, then nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 2);
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
    // A tie, 1 and 1: 1 Harm, then nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(1, 3), hits(1, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 1);
    assert!(t.state().ch(1).poison.is_none());
    // The victim ahead: nothing, now or later.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(1, 3), hits(2, 3)])).type_as(GM, "gm poison bo 3");
    assert_eq!(t.state().ch(1).harm.points, 0);
    // EIN-R42: an antidote stops it but heals nothing.
    let mut t = duel("", "", pts, 5, 1);
    t.dice(&cat(&[hits(3, 3), hits(0, 3)])).type_as(GM, "gm poison bo 3");
    t.type_as(GM, "gm antidote bo");
    t.cmd("end");
    t.cmd("end");
    assert_eq!(t.state().ch(1).harm.points, 3);
}
