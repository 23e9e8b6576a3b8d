//! Non-lethal attacks: the rule tests of this section of the rules file.

use super::*;

// ---------------------------------------------------------------------------------------------
// Disarm and grapple (MUR-R34, MUR-R35, MUR-R59)

#[test]
fn mur_r34_a_failed_str_save_drops_the_weapon_the_attacker_chose_a_passed_one_keeps_it() {
    let mut t = duel(
        PCS_FIRST,
        "",
        "wield = [\"martial-hand\"]",
        "wield = [\"martial-hand\", \"shield\"]",
    );
    t.cmd("act ash");
    t.cmd("disarm bo shield");
    // A non-lethal attack may be dodged (MUR-R33): bo takes it and saves STR: 15 fails.
    t.dice(&[15]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 15, false)]);
    assert_eq!(damage(&t), []);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    assert_eq!(t.state().ground.len(), 1);
    assert_eq!(t.state().ground[0].1.id, "shield");
    t.assert_replays();

    let mut t = duel(
        PCS_FIRST,
        "",
        "wield = [\"martial-hand\"]",
        "wield = [\"martial-hand\"]",
    );
    t.cmds(&["act ash", "disarm bo martial-hand"]);
    t.dice(&[10]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 10, true)]);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    assert!(t.state().ground.is_empty());
    t.assert_dice_used();
}

#[test]
fn mur_r59_the_disarm_skill_leaves_no_save_unless_the_target_has_it_too() {
    // ash has the skill, bo not: no save, bo drops its sword.
    let mut t = duel(PCS_FIRST, "", "skills = [\"disarm\"]", "wield = [\"martial-hand\"]");
    t.cmds(&["act ash", "disarm bo martial-hand", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    // bo has it and ash not: bo cannot be disarmed.
    let mut t = duel(PCS_FIRST, "", "", "wield = [\"martial-hand\"]\nskills = [\"disarm\"]");
    t.cmds(&["act ash", "disarm bo martial-hand", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, true)]);
    assert_eq!(in_hands(&t, "bo"), ["martial-hand"]);
    // Both have it: an ordinary save.
    let mut t = duel(
        PCS_FIRST,
        "",
        "skills = [\"disarm\"]",
        "wield = [\"martial-hand\"]\nskills = [\"disarm\"]",
    );
    t.cmds(&["act ash", "disarm bo martial-hand"]);
    t.dice(&[11]).cmd("take");
    assert_eq!(saves(&t), [("bo".to_string(), 11, false)]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    t.assert_dice_used();
}

#[test]
fn mur_r35_a_failed_str_save_against_a_grapple_leaves_the_target_grabbed_and_entangled() {
    let mut t = duel(PCS_FIRST, "", "", "");
    t.cmd("act ash");
    // A grapple is an attack: the main action.
    t.dice(&[12]).cmds(&["grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 12, false)]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    assert_eq!(damage(&t), []);
    t.expect_rejection(PCS, "grapple bo", codes::NO_ACTION);
    t.cmd("end");
    // MUR-R39: entangled, bo may only spend its turn trying to break free.
    t.cmd("act bo");
    t.expect_rejection(FOES, "attack ash", codes::ENTANGLED);
    t.expect_rejection(FOES, "move b", codes::ENTANGLED);
    t.assert_replays();

    let mut t = duel(PCS_FIRST, "", "", "");
    t.cmd("act ash");
    t.dice(&[3]).cmds(&["grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 3, true)]);
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();
}

#[test]
fn mur_r59_a_large_ogre_without_wrestling_grabs_a_medium_human_with_no_save_and_cannot_be_grabbed() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("ogre", "foes", "a", "str = 14\nsize = \"large\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // cy could guard ash (MUR-R24) and declines.
    t.cmds(&["act ogre", "grapple ash", "decline", "take"]);
    assert_eq!(saves(&t), [("ash".to_string(), 0, false)], "no die: size decides");
    assert_eq!(holder(&t, "ash").as_deref(), Some("ogre"));
    // A larger grabber may act freely without letting go.
    t.cmd("say");
    assert_eq!(holder(&t, "ash").as_deref(), Some("ogre"));
    t.cmd("end");
    // The human's grapple against the ogre always fails.
    t.cmds(&["act cy", "grapple ogre"]);
    assert_eq!(saves(&t), [("ogre".to_string(), 0, true)]);
    assert_eq!(holder(&t, "ogre"), None);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r59_wrestling_leaves_no_save_against_a_grapple_and_skilled_wrestlers_are_grabbed_only_by_their_like() {
    let mut t = duel(PCS_FIRST, "", "skills = [\"wrestling\"]", "");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    let mut t = duel(PCS_FIRST, "", "", "skills = [\"wrestling\"]");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, true)]);
    assert_eq!(holder(&t, "bo"), None);
    // MUR-R59 [A]: size comes before the skill: a small wrestler still fails against a
    // medium grabber's grapple.
    let mut t = duel(PCS_FIRST, "", "", "skills = [\"wrestling\"]\nsize = \"small\"");
    t.cmds(&["act ash", "grapple bo", "take"]);
    assert_eq!(saves(&t), [("bo".to_string(), 0, false)]);
    t.assert_dice_used();
}

#[test]
fn mur_r59_a_larger_grabber_throws_the_grabbed_up_to_range_2_for_d4_direct_a_medium_one_cannot() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", "armour = \"heavy\""),
            who("ogre", "foes", "a", "str = 14\nsize = \"large\""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ogre", "grapple ash", "take", "end"]);
    // ash cannot break free from a larger holder (size decides the save).
    t.cmds(&["act ash", "break-free"]);
    assert_eq!(saves(&t), [("ash".to_string(), 0, false)]);
    // Round 2: the ogre throws ash two zones away (a -> b -> g): d4 3, direct, so the heavy
    // armour does not count.
    t.cmd("act ogre");
    t.dice(&[3]).cmd("throw ash g");
    assert_eq!(ch(&t, "ash").at, place(&t, "g"));
    assert_eq!(holder(&t, "ash"), None);
    let hit: Vec<(i32, i32)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { amount, armour, .. } => Some((*amount, *armour)),
            _ => None,
        })
        .collect();
    assert_eq!(hit, [(3, 0)]);
    t.assert_dice_used();
    t.assert_replays();

    // A medium grabber holding a medium character cannot throw it.
    let mut t = held("a", "");
    t.expect_rejection(PCS, "throw bo b", codes::NOT_ALLOWED);
}

#[test]
fn mur_r37_a_shove_releases_the_grabbed_and_moves_it_half_a_zone_as_the_main_action() {
    let mut t = held("a", "");
    // Half a zone: onto a border of its zone, not a whole zone.
    t.expect_rejection(PCS, "shove bo b", codes::BAD_MOVE);
    t.cmd("shove bo a|b");
    assert_eq!(ch(&t, "bo").at, place(&t, "a|b"));
    assert_eq!(holder(&t, "bo"), None);
    assert_eq!(ch(&t, "ash").at, place(&t, "a"), "the shover stays");
    // MUR-R37 [A]: the shove was the main action.
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r37_a_shove_into_a_hazard_of_the_zone_deals_its_die_as_direct_damage() {
    let mut t = held("c", "armour = \"heavy\"");
    t.dice(&[2]).cmd("shove bo hazard");
    let hits: Vec<(String, i32, i32)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged {
                who, amount, armour, ..
            } => Some((name(&t, *who), *amount, *armour)),
            _ => None,
        })
        .collect();
    assert_eq!(hits, [("bo".to_string(), 2, 0)]);
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();

    // No hazard where bo stands: refused.
    let mut t = held("a", "");
    t.expect_rejection(PCS, "shove bo hazard", codes::NOT_ALLOWED);
}

#[test]
fn mur_r39_breaking_free_takes_the_whole_turn_on_a_str_save() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.dice(&[20]).cmds(&["grapple bo", "take", "end", "act bo"]);
    // Only on a fresh turn: the whole turn.
    t.dice(&[7]).cmd("break-free");
    assert_eq!(saves(&t), [("bo".to_string(), 7, true)]);
    assert_eq!(holder(&t, "bo"), None);
    assert!(t.last.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
    assert!(t.state().turn.is_none());
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r39_a_nearby_character_frees_the_entangled_with_a_main_action_and_a_str_save() {
    let toml = enc(
        FOES_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act bo");
    // cy declines to guard; ash takes the grapple (it could dodge), fails its save and is
    // held by bo.
    t.dice(&[18]).cmds(&["grapple ash", "decline", "take"]);
    assert_eq!(holder(&t, "ash").as_deref(), Some("bo"));
    t.cmds(&["end", "act cy"]);
    // A failed save: ash stays held, and cy's main action is spent.
    t.dice(&[13]).cmd("free ash");
    assert_eq!(saves(&t), [("cy".to_string(), 13, false)]);
    assert_eq!(holder(&t, "ash").as_deref(), Some("bo"));
    t.expect_rejection(PCS, "free ash", codes::NO_ACTION);
    // ash waits; round 2: the foes first, bo waits; cy tries again and passes.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act cy"]);
    t.dice(&[4]).cmd("free ash");
    assert_eq!(saves(&t), [("cy".to_string(), 4, true)]);
    assert_eq!(holder(&t, "ash"), None);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// Non-lethal counters, holding on, hiding behind the held (MUR-R33, MUR-R36, MUR-R38)

#[test]
fn mur_r33_a_grapple_used_to_counter_is_resolved_after_the_attack_it_answers() {
    let mut t = duel(FOES_FIRST, "", "", "wield = [\"martial-hand\"]");
    t.cmds(&["act bo", "attack ash"]);
    // The sword's d6 rolls 2 first, then bo's STR save against the grapple: 15 fails.
    t.dice(&[2, 15]).cmd("counter grapple");
    let order: Vec<&str> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { .. } => Some("damage"),
            Event::Grab { by: Some(_), .. } => Some("grab"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["damage", "grab"]);
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r36_a_holder_drags_the_held_along_and_any_other_action_lets_go() {
    let mut t = held("a", "");
    t.cmd("move a|b");
    assert_eq!(ch(&t, "bo").at, place(&t, "a|b"));
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    // Talking is neither moving nor attacking the held: a medium holder lets go.
    t.cmd("say");
    assert_eq!(holder(&t, "bo"), None);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r38_a_grabber_hides_behind_the_character_it_holds_who_has_no_say() {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("cy", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    // cy declines to guard bo; bo fails its save (20) and is held.
    t.cmds(&["act ash", "grapple bo", "decline"]);
    t.dice(&[20]).cmd("take");
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    // Round 2: ash waits with its turn unspent; cy strikes at it.
    t.cmds(&["end", "pass", "pass", "act cy", "attack ash"]);
    assert_eq!(t.state().round, 2);
    // bo becomes the target without being asked, and, held, cannot react: d6 3.
    t.dice(&[3]).cmd("hide-behind bo");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    assert_eq!(ch(&t, "ash").health, 10);
    t.assert_dice_used();
    t.assert_replays();
}
