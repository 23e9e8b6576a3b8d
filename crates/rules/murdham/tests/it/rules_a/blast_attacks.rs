//! Blast attacks: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------- blasts

#[test]
fn mur_r29_a_blast_hits_everyone_in_the_zone_and_on_its_borders() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "carry = [\"alchemists-fire\"]"),
            who("bo", "foes", "c", "armour = \"light\""),
            who("dee", "foes", "c|d", ""),
            who("eve", "foes", "d", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    // Range 2 is beyond half of 2: a save, passed.
    t.dice(&[5]).cmd("attack c with alchemists-fire");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    // Fire is direct: bo's armour does not count.
    t.dice(&[4]).cmd("take");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.cmd("take");
    assert_eq!((health(&t, "bo"), health(&t, "dee"), health(&t, "eve")), (6, 6, 10));
    // The flask is spent.
    assert!(
        t.state()
            .ch(id(&t, "ash"))
            .live_items()
            .all(|(_, i)| i.id != "alchemists-fire")
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r30_a_melee_blast_hits_the_attackers_zone_but_not_the_attacker_and_cannot_miss() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"flail\"]"),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("eve", "foes", "b", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack b with flail", codes::OUT_OF_RANGE);
    // Even a GM's call for a save to hit does not make a melee blast roll one.
    t.cmd("gm hinder ash");
    t.cmd("attack a with flail");
    assert_eq!(saves(&t), 0);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("cy".to_string())));
    t.dice(&[3]).cmd("take");
    t.cmd("take");
    assert_eq!(
        (health(&t, "ash"), health(&t, "cy"), health(&t, "bo"), health(&t, "eve")),
        (10, 7, 7, 10)
    );
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- health and damage

#[test]
fn mur_health_critical_damage_is_half_the_remaining_health_and_str_in_one_hit_kills() {
    // The Health example: STR 9 at full health: 5 is critical, 4 is not.
    let chars = |extra: &str| {
        [
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", &format!("str = 9\n{extra}")),
            who("dee", "foes", "h", ""),
        ]
    };
    let hit = |extra: &str, faces: &[u16]| {
        let mut t = table(PLAIN, &chars(extra), &[]);
        t.cmds(&["act ash", "attack bo"]);
        t.dice(faces).cmd("take");
        t.assert_dice_used();
        (health(&t, "bo"), status(&t, "bo"))
    };
    assert_eq!(hit("", &[4]), (5, Status::Up));
    assert_eq!(hit("", &[5]), (4, Status::Incapacitated));
    // At 4 health: 2 is critical, 1 is not.
    assert_eq!(hit("health = 4", &[1]), (3, Status::Up));
    assert_eq!(hit("health = 4", &[2]), (2, Status::Incapacitated));
    // All the remaining health (but less than 9): critical and dying.
    assert_eq!(hit("health = 4", &[4]), (0, Status::Dying { rounds: 1 }));
    // 9 or more in one hit kills at any health (8 counts 7 and rolls on: 7 + 2 = 9).
    assert_eq!(hit("", &[8, 2]).1, Status::Dead);
    assert_eq!(hit("health = 9", &[7]).1, Status::Incapacitated);
    // A helmet raises the threshold by one: 5 is no longer critical at full health.
    assert_eq!(hit("helmet = true", &[5]), (4, Status::Up));
}

#[test]
fn mur_damage_exploding_dice_impaired_and_armour_examples() {
    // d6 rolling 6, 6, 3 = 5 + 5 + 3 = 13 (bo has STR 19, so it lives).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", "str = 19"),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[6, 6, 3]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage: 6+6+3 = 13");
    assert_eq!(health(&t, "bo"), 6);
    // d8 impaired rolling 3 and 7: 3 (a greataxe held back).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo hold"]);
    t.dice(&[3, 7]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage impaired: 3 / 7 = 3");
    // Light armour (1) against a d6 rolling 2: 1 damage.
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "armour = \"light\"")],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 1 damage (2 less 1 armour): health 9/10");
    t.assert_dice_used();
    t.assert_replays();
}
