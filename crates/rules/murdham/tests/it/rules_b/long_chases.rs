//! Long chases: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r47_a_long_chase_at_even_pace_is_one_group_agi_save_who_fails_is_caught() {
    let mut t = chase();
    t.dice(&[9]).cmd("gm chase foes even");
    assert_eq!(
        group_saves(&t),
        [(9, vec![("bo".to_string(), true), ("cy".to_string(), false)], Why::Chase)]
    );
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Fled, Status::Up));
    assert!(t.state().outcome.is_none());
    // Not in the middle of a turn.
    t.cmd("act ash");
    t.expect_rejection(GM, "gm chase foes even", codes::BAD_RULING);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r47_a_faster_side_escapes_without_a_save_and_a_slower_one_cannot() {
    let mut t = chase();
    t.cmd("gm chase foes faster");
    assert_eq!(group_saves(&t), []);
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Fled, Status::Fled));
    assert_eq!(t.state().outcome.as_ref().and_then(|o| o.winner), Some(0));
    let mut t = chase();
    t.cmd("gm chase foes slower");
    assert_eq!(group_saves(&t), []);
    assert_eq!((status(&t, "bo"), status(&t, "cy")), (Status::Up, Status::Up));
    t.assert_dice_used();
}
