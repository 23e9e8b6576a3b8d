//! Gear degradation: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------------------------------------
// MUR-R49: a weapon that breaks mid-sweep

#[test]
fn mur_r49_a_stool_breaking_in_a_sweep_at_two_goblins_finishes_the_sweep_and_spares_the_flask() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"stool\"]\ncarry = [\"acid\"]"),
        who("gob", "foes", "a", "size = \"small\""),
        who("nib", "foes", "a", "size = \"small\""),
    ]);
    t.cmds(&["act ash", "attack a sweep"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("gob".to_string())));
    // The stool's d4 shows 1: half of it (rounded up) is 1 for each goblin, and the stool
    // breaks, but only once the sweep is over.
    t.dice(&[1]).cmd("take");
    assert_eq!(damage(&t), [("gob".to_string(), 1)]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("nib".to_string())));
    t.cmd("take");
    assert_eq!(damage(&t), [("nib".to_string(), 1)]);
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert!(!has(&t, "ash", "stool"), "the stool broke");
    assert!(has(&t, "ash", "acid"), "the flask is untouched");
    assert!(
        !history(&t).iter().any(|l| l.contains("is used up")),
        "{:?}",
        history(&t)
    );
    // The flask still works: the turn goes on and the next round it is thrown.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "attack gob with acid", "decline"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("gob".to_string(), 3)]);
    assert!(!has(&t, "ash", "acid"));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-H24: a thrown flask that misses

#[test]
fn mur_h24_a_thrown_flask_that_fails_its_wit_save_to_hit_is_used_up_all_the_same() {
    let mut t = table(&[who("ash", "pcs", "a", "carry = [\"acid\"]"), who("bo", "foes", "c", "")]);
    t.cmd("act ash");
    // Range 2 is beyond half range (1): a WIT save, and 15 misses.
    t.dice(&[15]).cmd("attack bo with acid");
    assert_eq!(saves(&t), [("ash".to_string(), 15, false)]);
    assert_eq!(ch(&t, "bo").health, 10);
    assert!(!has(&t, "ash", "acid"), "the flask is spent");
    assert!(
        t.log().iter().any(|l| l == "ash's acid flask is used up"),
        "{:?}",
        t.log()
    );
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    t.reject("attack bo with acid");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R48: ended by the GM

#[test]
fn mur_r48_a_fight_the_gm_ends_still_makes_the_durability_rolls() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
    ]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    // The sword attacked: its d4 shows 1, damaging it.
    t.dice(&[1]).cmd("gm end pcs");
    let rolls: Vec<(String, Option<u8>, u16, u16)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Durability { who, item, roll, sides } => Some((name(&t, *who), *item, *roll, *sides)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [("ash".to_string(), Some(0), 1, 4)]);
    assert!(ch(&t, "ash").items[0].damaged);
    let outcome = t.state().outcome.as_ref().expect("the fight is over");
    assert_eq!((outcome.winner, outcome.reason.as_str()), (Some(0), "gm-ended"));
    t.assert_dice_used();
    t.assert_replays();
}
