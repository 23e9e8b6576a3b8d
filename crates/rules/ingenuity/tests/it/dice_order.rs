//! The order dice are drawn in, as docs/ingenuity.md ("Dice order") tells a table rolling
//! physical dice with `--dice manual`: each test draws its attribute die, its skill die, the luck
//! d20, then one die per advantage or disadvantage reroll; a dodge declared before the roll
//! draws its test before the attack's; the consciousness fortify comes after the damage.

use crate::common;
use common::*;
use fray_ingenuity::event::{DefenceKind, Event};

#[test]
fn dice_are_drawn_in_the_documented_order() {
    // pc: DEX d10, Agility d6, STR d12, Athletics d4 (untrained); prone, so the foe's melee
    // attack has one advantage (ING-R47). foe: STR d8, Combat d6, the test spear (damage 4).
    let toml = enc(
        &[". . . ."],
        &format!(
            "[options]\nfortify-without = \"allowed\"\n{}{}",
            who(
                "pc",
                "pcs",
                "1,0",
                "attributes = { dex = 10, str = 12 }\nskills = { agility = 6 }\nhealth = 30\nevasion = 0\ndeflection = 0\nconstitution = 0\nconditions = [\"prone\"]\nnow = { endurance = 0 }"
            ),
            who(
                "foe",
                "foes",
                "0,0",
                "attributes = { str = 8 }\nskills = { combat = 6 }\nitems = [\"spear\"]\nstamina = 1\nnow = { stamina = 0 }"
            ),
        ),
    );
    let mut t = T::turn_of(&toml, "pc");
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("attack pc");
    // 1. The dodge (declared before the roll, ING-H12): DEX d10, Agility d6, luck d20.
    // 2. The attack: STR d8, Combat d6, luck d20, then the advantage reroll of the die whose
    //    reroll gains most (the d6 showing 1).
    // 3. The consciousness fortify after the damage: STR d12, Athletics d4, luck d20.
    t.dice(&[1, 1, 10, 8, 1, 10, 6]);
    t.cmd("dodge");
    let dodge = t.last.iter().find_map(|e| match e {
        Event::Defended {
            kind: DefenceKind::Dodge,
            roll: Some(r),
            ..
        } => Some(r.clone()),
        _ => None,
    });
    let dodge = dodge.expect("a dodge");
    assert_eq!(
        (dodge.dice[0].sides, dodge.dice[0].face, dodge.dice[1].sides, dodge.luck),
        (10, 1, 6, 10)
    );
    let attack = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::AttackRolled { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .expect("an attack roll");
    assert_eq!((attack.dice[0].face, attack.dice[1].face, attack.luck), (8, 6, 10));
    assert_eq!(
        (attack.rerolls[0].die, attack.rerolls[0].old, attack.rerolls[0].new),
        (1, 1, 6)
    );
    // 8 + 6 = 14 hits; 14 + 4 = 18 to health (30 -> 12), missing 18 > constitution 0.
    assert_eq!(t.pending(), ("fortify", "pc".into()));
    t.dice(&[12, 4, 10]);
    t.cmd("fortify");
    let f = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::Fortified { roll, .. } => Some(roll.clone()),
            _ => None,
        })
        .expect("a fortify");
    assert_eq!(
        (f.dice[0].sides, f.dice[0].face, f.dice[1].sides, f.dice[1].face),
        (12, 12, 4, 4)
    );
    t.assert_dice_used();
}

#[test]
fn a_misfire_pick_follows_the_attack_roll() {
    // A bow shot (projectile, ING-R39) at a target with two others next to it: luck 1 misfires,
    // then a d2 picks who is hit among them, in their order (pc2 first).
    let toml = enc(
        &[". . . . . . . . . ."],
        &format!(
            "{}{}{}{}",
            who("pc1", "pcs", "5,0", "stamina = 1\nnow = { stamina = 0 }"),
            who("pc2", "pcs", "4,0", "stamina = 1\nnow = { stamina = 0 }"),
            who("pc3", "pcs", "6,0", "stamina = 1\nnow = { stamina = 0 }"),
            who("foe", "foes", "0,0", "attributes = { dex = 6 }\nitems = [\"bow\"]"),
        ),
    );
    let mut t = T::turn_of(&toml, "pc1");
    t.cmd("end");
    t.cmd("pick foe");
    t.dice(&[1, 1, 1, 2]);
    t.cmd("attack pc1");
    let hit = t.last.iter().find_map(|e| match e {
        Event::Misfired { target, pick, .. } => Some((*target, *pick)),
        _ => None,
    });
    assert_eq!(hit, Some((t.id("pc3"), Some(2))));
    t.assert_dice_used();
}
