//! Gear degradation: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r48_after_the_fight_used_weapons_and_hit_armour_roll_1_in_4_and_a_1_damages_them() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who(
                "ash",
                "pcs",
                "a",
                "wield = [\"martial-hand\"]\ncarry = [\"simple-hand\"]\narmour = \"light\"",
            ),
            who("bo", "foes", "a", "armour = \"light\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    // bo leaves: the fight is over. ash's sword attacked (the club it carries did not, and its
    // armour was never hit); bo's armour was hit.
    t.dice(&[1, 1]).cmd("gm remove bo");
    assert_eq!(
        durability(&t),
        [("ash".to_string(), Some(0), 1, 4), ("bo".to_string(), None, 1, 4)]
    );
    assert_eq!(
        worn(&t),
        [
            ("ash".to_string(), "sword".to_string(), false),
            ("bo".to_string(), "armour".to_string(), false)
        ]
    );
    assert!(ch(&t, "ash").items[0].damaged && ch(&t, "bo").armour_damaged);
    assert!(t.state().outcome.is_some());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r48_a_damaged_item_that_fails_again_is_destroyed_and_robust_items_roll_1_in_8() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"rusty\"]"),
            who("cy", "pcs", "a", "wield = [\"maul\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // Fragile: it starts damaged.
    assert!(ch(&t, "ash").items[0].damaged);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2]).cmd("take");
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(ch(&t, "bo").health, 6);
    t.dice(&[1, 1]).cmd("gm remove bo");
    assert_eq!(
        durability(&t),
        [("ash".to_string(), Some(0), 1, 4), ("cy".to_string(), Some(0), 1, 8)]
    );
    assert_eq!(
        worn(&t),
        [
            ("ash".to_string(), "rusty sword".to_string(), true),
            ("cy".to_string(), "iron maul".to_string(), false)
        ]
    );
    assert_eq!(ch(&t, "ash").live_items().count(), 0, "the item is gone");
    assert!(ch(&t, "cy").items[0].damaged);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_h25_a_shield_that_gave_its_plus_1_makes_its_durability_roll_after_the_fight() {
    // bo holds a sword and a shield (items 0 and 1), or two shields.
    let fight = |bo: &str, options: &str| {
        let toml = enc(
            PCS_FIRST,
            options,
            &[
                who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
                who("bo", "foes", "a", bo),
            ]
            .concat(),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        t.cmds(&["act ash", "attack bo"]);
        t
    };
    let sword_and_shield = "wield = [\"martial-hand\", \"shield\"]";
    let rolls = |t: &Table<Murdham>| -> Vec<(String, Option<u8>)> {
        durability(t).into_iter().map(|(w, i, _, _)| (w, i)).collect()
    };
    let ash_sword = || ("ash".to_string(), Some(0));
    // bo dodges and fails: its shield gives its +1 against the hit, and is used.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[15, 3]).cmd("dodge");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.dice(&[2, 3]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword(), ("bo".to_string(), Some(1))]);
    t.assert_dice_used();
    t.assert_replays();
    // bo takes the hit without reacting: the shield gives nothing, and makes no roll.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.dice(&[2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword()]);
    t.assert_dice_used();
    // bo dodges and passes: no hit, nothing used.
    let mut t = fight(sword_and_shield, "");
    t.dice(&[5]).cmd("dodge");
    t.dice(&[2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword()]);
    t.assert_dice_used();
    // Two shields give +1 against every attack: both gave it, and both roll (a 1 damages the
    // second).
    let two = "wield = [\"shield\", \"shield\"]";
    let mut t = fight(two, "");
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.dice(&[2, 2, 1]).cmd("gm remove bo");
    assert_eq!(
        rolls(&t),
        [ash_sword(), ("bo".to_string(), Some(0)), ("bo".to_string(), Some(1))]
    );
    assert_eq!(worn(&t), [("bo".to_string(), "shield".to_string(), false)]);
    assert!(ch(&t, "bo").items[1].damaged && !ch(&t, "bo").items[0].damaged);
    t.assert_dice_used();
    t.assert_replays();
    // fray 0.1.0 counted only the first of two.
    let mut t = fight(two, "both-shields-used = false");
    t.dice(&[3]).cmd("take");
    t.dice(&[2, 2]).cmd("gm remove bo");
    assert_eq!(rolls(&t), [ash_sword(), ("bo".to_string(), Some(0))]);
    t.assert_dice_used();
}

#[test]
fn mur_r49_r51_an_improvised_weapon_is_already_damaged_and_breaks_when_its_die_shows_1() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"stool\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    assert!(
        ch(&t, "ash").items[0].damaged,
        "MUR-R51: improvised means already damaged"
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 1)]);
    assert_eq!(worn(&t), [("ash".to_string(), "stool".to_string(), true)]);
    assert_eq!(ch(&t, "ash").live_items().count(), 0, "the item is gone");
    t.assert_replays();

    // MUR-H25: a 1 rolled after a maximum does not count (4, then 1: 3 + 1 = 4).
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 1]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 4)]);
    assert_eq!(worn(&t), []);
    assert_eq!(in_hands(&t, "ash"), ["stool"]);
    t.assert_dice_used();

    // An undamaged club rolling 1 is not hurt.
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"simple-hand\"]"),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    assert_eq!(worn(&t), []);
    assert_eq!(in_hands(&t, "ash"), ["simple-hand"]);
    t.assert_dice_used();
}

#[test]
fn mur_r50_a_hit_of_8_before_armour_destroys_a_damaged_shield_which_still_protects_against_it() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("bo", "foes", "a", "str = 19\nwield = [\"buckler\"]"),
        ]
        .concat(),
    );
    let hit = |t: &Table<Murdham>| -> Vec<(i32, i32, i32)> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged {
                    raw, armour, amount, ..
                } => Some((*raw, *armour, *amount)),
                _ => None,
            })
            .collect()
    };
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    // bo dodges (so its shield counts) and fails (15); the greataxe's d8 rolls 8, then 1:
    // 7 + 1 = 8 before armour.
    t.dice(&[15, 8, 1]).cmd("dodge");
    assert_eq!(worn(&t), [("bo".to_string(), "old buckler".to_string(), true)]);
    assert_eq!(hit(&t), [(8, 1, 7)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    t.assert_replays();

    // 7 before armour leaves it.
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[15, 7]).cmd("dodge");
    assert_eq!(worn(&t), []);
    assert_eq!(hit(&t), [(7, 1, 6)]);
    assert_eq!(in_hands(&t, "bo"), ["buckler"]);
    t.assert_dice_used();
}
