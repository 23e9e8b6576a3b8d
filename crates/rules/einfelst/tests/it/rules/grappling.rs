//! Grappling: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r27_r28_grapple_against_break_free() {
    // 2 against 2: not restrained.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("break-free");
    assert_eq!(t.state().ch(id(&t, "bo")).held_by, None);
    // 3 against 1: 2 left: restrained, and the extra success may silence.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&cat(&[hits(3, 3), hits(1, 3)])).cmd("break-free");
    t.cmd("spend silence");
    let bo = t.state().ch(id(&t, "bo"));
    assert_eq!((bo.held_by, bo.silenced), (Some(0), true));
    // 1 with no reaction: restrained, not silenced.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&hits(1, 3)).cmd("pass");
    let bo = t.state().ch(id(&t, "bo"));
    assert_eq!((bo.held_by, bo.silenced), (Some(0), false));
}

#[test]
fn ein_r28_r31_h10_the_restrained_may_only_break_free_shout_or_parry() {
    let mut t = duel("", "", "", 1, 5);
    t.cmd("grapple bo");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("end");
    // bo's turn: held.
    t.expect_rejection(GM, "strike ash", codes::RESTRAINED);
    t.expect_rejection(GM, "flee finesse", codes::RESTRAINED);
    t.expect_rejection(GM, "move b", codes::RESTRAINED);
    t.cmd("shout");
    t.cmd("end");
    // ash strikes the held bo: it may parry (EIN-H10), not dodge.
    t.cmd("strike bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
}

#[test]
fn ein_r29_r30_h30_breaking_free() {
    // bo holds ash (grapple, no reaction), and holds on with Hold.
    let setup = |t: &mut Table<Einfelst>| {
        t.cmd("grapple ash");
        t.dice(&hits(1, 3)).cmd("pass");
        t.cmd("end");
        assert_eq!(t.state().ch(0).held_by, Some(1));
    };
    // 2 against a Hold of 2: still held.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&cat(&[hits(2, 3), hits(2, 3)])).cmd("hold");
    assert_eq!(t.state().ch(0).held_by, Some(1));
    // Once a turn.
    t.expect_rejection(PCS, "break-free", codes::NOT_NOW);
    // 3 against 2: free.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&cat(&[hits(3, 3), hits(2, 3)])).cmd("hold");
    assert_eq!(t.state().ch(0).held_by, None);
    // Without a Hold, 1 success frees.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("break-free");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(t.state().ch(0).held_by, None);
    // EIN-R29, EIN-H30: the hold ends when the holder leaves the zone or lets go.
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("end");
    t.cmd("move b");
    assert_eq!(t.state().ch(0).held_by, None);
    let mut t = duel("", "", "", 5, 1);
    setup(&mut t);
    t.cmd("end");
    t.cmd("release");
    assert_eq!(t.state().ch(0).held_by, None);
}

#[test]
fn ein_r30_h30_a_holder_with_nothing_left_cannot_hold() {
    let mut t = duel("", "", "", 5, 1);
    t.cmd("grapple ash");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("interact"); // bo's last manoeuvre
    t.cmd("end");
    // ash breaks free: bo is not asked; 1 success frees.
    t.dice(&hits(1, 3)).cmd("break-free");
    assert_eq!(t.state().ch(0).held_by, None);
}
