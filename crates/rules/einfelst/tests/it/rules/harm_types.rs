//! Harm types: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r34_r37_h7_a_failed_fear_test_deals_mental_harm_split_as_chosen() {
    let mut t = duel("", "", "", 1, 5);
    // Fear 2, Risky, 1 success: 3 Mental Harm (EIN-H7: the table's values are final).
    t.dice(&hits(1, 3)).type_as(GM, "gm fear ash 2");
    assert_eq!(t.game.pending().unwrap().kind(), "harm");
    let mut ways = t.legal();
    ways.sort();
    assert_eq!(ways, vec!["split 1+1+1", "split 2+1", "split 3"]);
    t.cmd("split 2+1");
    assert_eq!(mental(&t, "ash"), [1, 1, 0]);
    assert_eq!(physical(&t, "ash"), [0, 0, 0]); // EIN-R34: the Mental track only
}

#[test]
fn ein_r34_three_lesser_on_an_empty_track_move_the_third_up() {
    let mut t = duel("", "", "", 1, 5);
    t.dice(&hits(1, 3)).type_as(GM, "gm fear ash 2");
    t.cmd("split 1+1+1");
    assert_eq!(mental(&t, "ash"), [2, 1, 0]);
}

#[test]
fn ein_r34_the_split_prompt_offers_splits_that_add_up_to_the_harm() {
    // A sword's 2 Harm on an empty track.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(1, 3)).cmd("pass");
    assert_eq!(prompt(&t), "bo marks 2 Physical Harm: split 2 or split 1+1");
    assert_eq!(t.legal(), vec!["split 2", "split 1+1"]);
    // A split mistyped: the example given adds up to the 2 Harm too.
    let r = t.expect_rejection(GM, "split 2x", fray_engine::Reject::UNKNOWN_COMMAND);
    assert!(r.reason.ends_with("such as 1+1"), "{}", r.reason);
    let r = t.expect_rejection(GM, "split 2+1", codes::BAD_SPLIT);
    assert!(r.reason.contains("must add up to 2"), "{}", r.reason);
    t.cmd("split 2");
    // A failed Fear test's 3 Mental Harm.
    t.dice(&hits(0, 3)).type_as(GM, "gm fear ash 1");
    assert_eq!(prompt(&t), "ash marks 3 Mental Harm: split 3, split 2+1 or split 1+1+1");
    // Many ways: the hint's examples add up too.
    let mut t = duel("fear-harm = [2, 3, 5]", "", "", 1, 5);
    t.dice(&hits(0, 3)).type_as(GM, "gm fear ash 1 desperate");
    assert_eq!(
        prompt(&t),
        "ash marks 5 Mental Harm: split <levels that add up to 5>, such as split 3+2 or split 3+1+1"
    );
}
