//! Findings of the second review of the Ingenuity rules: each test pins a behaviour the review
//! corrected.

use crate::common;
use common::*;
use fray_ingenuity::data::Cond;
use fray_ingenuity::event::Event;

/// A character who cannot defend (no stamina left, so no reaction can be paid).
const DEFENCELESS: &str = "stamina = 1\nnow = { stamina = 0 }";

// ---------------------------------------------------------------------------------------------
// Prone characters and movement
// ---------------------------------------------------------------------------------------------

/// `foe` (spear) at 0,0 attacks `pc1` at 1,0; `pc2` stands at `pc2_at` with `pc2_extra`.
fn bodyguard(pc2_at: &str, pc2_extra: &str, options: &str) -> T {
    let toml = enc(
        &[". . . . . . . ."],
        &format!(
            "{options}\n{}{}{}",
            who("pc1", "pcs", "1,0", ""),
            who("pc2", "pcs", pc2_at, pc2_extra),
            who("foe", "foes", "0,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc1");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("attack pc1");
    t
}

#[test]
fn ing_r33_a_prone_ally_cannot_intercept() {
    // Intercept moves the interceptor onto the ally's square; lying prone, pc2 would have to
    // stand up first, which a reaction cannot do.
    let t = bodyguard("3,0", "conditions = [\"prone\"]", "");
    assert_eq!(t.pending(), ("defence", "pc1".into()));
    assert_eq!(t.ch("pc2").pos, Some("3,0".parse().unwrap()));
    assert_eq!(t.ch("pc2").stamina, 12);
}

#[test]
fn ing_r33_a_standing_ally_at_the_same_distance_can_intercept() {
    let t = bodyguard("3,0", "", "");
    assert_eq!(t.pending(), ("intercept", "pc1".into()));
    assert!(t.legal().contains(&"intercept pc2".to_string()));
}

#[test]
fn ing_r33_with_prone_blocks_movement_off_a_prone_ally_can_intercept() {
    let t = bodyguard(
        "3,0",
        "conditions = [\"prone\"]",
        "[options]\nprone-blocks-movement = false",
    );
    assert_eq!(t.pending(), ("intercept", "pc1".into()));
    assert!(t.legal().contains(&"intercept pc2".to_string()));
}

#[test]
fn prone_blocks_movement_a_prone_character_is_not_asked_to_fire_a_readied_move() {
    let toml = enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who("pc", "pcs", "0,0", "items = [\"spear\"]"),
            who("foe", "foes", "5,0", &format!("items = [\"spear\"]\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("prone");
    t.cmd("ready move 0,1 when approach");
    t.cmd("pick foe");
    t.cmd("move 1,0");
    // The foe's move runs on uninterrupted: the readied move would need pc to stand up.
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.ch("pc").pos, Some("0,0".parse().unwrap()));
}

#[test]
fn prone_blocks_movement_a_mover_knocked_prone_by_a_readied_attack_stops_where_it_fell() {
    // The war maul knocks prone on a hit unless constitution meets the attack total.
    let toml = enc(
        &[". . . . . . .", ". . . . . . ."],
        &format!(
            "{}{}",
            who("pc", "pcs", "2,1", "items = [\"war-maul\"]"),
            who("foe", "foes", "0,0", &format!("endurance = 30\n{DEFENCELESS}")),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("ready attack when approach");
    t.cmd("pick foe");
    t.cmd("move 5,0");
    // Stepping onto 1,0 brings the foe within the maul's reach.
    assert_eq!(t.pending(), ("ready", "pc".into()));
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    // STR d6 6 + Combat d4 4 = 10 hits evasion 6 and beats constitution 6: prone.
    t.dice(&[6, 4, 10]);
    t.cmd("fire");
    t.assert_dice_used();
    assert!(t.ch("foe").has(Cond::Prone));
    // The rest of the move is lost.
    assert_eq!(t.ch("foe").pos, Some("1,0".parse().unwrap()));
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert!(t.ch("foe").moved);
}

// ---------------------------------------------------------------------------------------------
// Killing strikes at range
// ---------------------------------------------------------------------------------------------

/// The killing strike tests among the last events: (total, rerolls, difficulty, success).
fn strikes(t: &T) -> Vec<(i16, usize, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested {
                what,
                roll,
                difficulty,
                success,
                ..
            } if what.starts_with("killing strike") => Some((roll.total, roll.rerolls.len(), *difficulty, *success)),
            _ => None,
        })
        .collect()
}

#[test]
fn ing_r47_ing_h26_a_ranged_killing_strike_takes_the_prone_targets_disadvantage() {
    // The victim is unconscious, so prone: a bow shot at it has disadvantage, which cancels the
    // killing strike's own advantage. No reroll: DEX 4 + Combat 3 = 7 against constitution 7.
    let toml = enc(
        &[". . . . . . ."],
        &format!(
            "{}{}{}",
            who("archer", "pcs", "0,0", "skills = { combat = 6 }\nitems = [\"bow\"]"),
            who("victim", "foes", "5,0", "unconscious = true\nconstitution = 7"),
            who("other", "foes", "6,0", DEFENCELESS),
        ),
    );
    let mut t = T::turn_of(&toml, "archer");
    t.dice(&[4, 3, 10]);
    t.cmd("kill victim");
    assert_eq!(strikes(&t), vec![(7, 0, 7, true)]);
    assert!(t.ch("victim").dead);
    t.assert_dice_used();
}
