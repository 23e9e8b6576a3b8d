//! Non-lethal attacks: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r36_a_grabber_who_runs_or_takes_cover_keeps_hold() {
    let mut t = holding();
    t.cmd("cover");
    assert!(ch(&t, "ash").cover);
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    let mut t = holding();
    t.cmd("run");
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    // It drags bo along.
    t.cmds(&["move b", "move c"]);
    assert_eq!(ch(&t, "bo").at, ch(&t, "ash").at);
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    t.assert_dice_used();
    t.assert_replays();
}
