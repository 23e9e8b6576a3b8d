//! Defense, armour, crits: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r35_defense_is_ten_plus_the_agility_modifier_plus_the_bonus_and_a_hit_meets_it() {
    // ash: Agility 14 (+2), Defense bonus 3: 15. bo attacks with +1 (Strength 12).
    for (d20, hit) in [(14u16, true), (13, false)] {
        let mut t = duel("", "agility = 14\ndefense-bonus = 3", "", [9, 1]);
        assert_eq!(t.state().defense(0), 15);
        t.type_as(PCS, "declare ash move");
        t.type_as(FOES, "declare bo attack ash");
        let faces: Vec<u16> = if hit { vec![d20, 3] } else { vec![d20] };
        t.dice(&faces).cmd("act");
        assert!(
            t.last
                .iter()
                .any(|e| matches!(e, Event::Attacked { hit: h, .. } if *h == hit))
        );
        t.assert_dice_used();
    }
}

#[test]
fn hal_r37_hal_h3_criticals_multiply_into_wound_points_a_twenty_always_hits_a_one_always_misses() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 3 }"#;
    // A natural 20 hits Defense 40 and crits: 5 × 3 = 15 to Wound Points, none to Stress.
    let t = strike("", axe, "defense-bonus = 30", &[20, 5, 99]);
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (10, 12 - 15));
    // A natural 1 misses even a Defense of 10 with +30.
    let t = strike("", &axe.replace("1d8\"", "1d8\", ability = \"strength\""), "", &[1]);
    assert_eq!(wp(&t, "bo"), 12);
    let big = "attack = 30";
    let mut t = duel_z("", &format!("{big}\nweapons = [{axe}]"), "", [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[1]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            natural: 1,
            hit: false,
            ..
        }
    )));
    // With the option off, 1 + 31 hits.
    let mut t = duel_z(
        "natural-1-misses = false",
        &format!("{big}\nweapons = [{axe}]"),
        "",
        [1, 9],
    );
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[1, 2]).cmd("act");
    assert_eq!(stress(&t, "bo"), 8);
    // A crit range of 19: a 19 that hits crits; a 19 that misses does not (crit-needs-hit).
    let keen = r#"{ name = "rapier", damage = "1d6", crit-range = 19 }"#;
    let t = strike("", keen, "", &[19, 4, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 8);
    let t = strike("", keen, "defense-bonus = 15", &[19]);
    assert_eq!(wp(&t, "bo"), 12);
    let t = strike("crit-needs-hit = false", keen, "defense-bonus = 15", &[19, 4, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 8);
    // Without `natural-top-hits`, a 20 that falls short misses.
    let t = strike(
        "natural-top-hits = false\ncrit-needs-hit = true",
        axe,
        "defense-bonus = 30",
        &[20],
    );
    assert_eq!(wp(&t, "bo"), 12);
}

#[test]
fn hal_h4_armour_comes_off_after_the_multiplier_unless_the_option_says_before() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 3 }"#;
    // (5 × 3) − 2 = 13; (5 − 2) × 3 = 9.
    let t = strike("", axe, "armour = 2", &[20, 5, 99]);
    assert_eq!(wp(&t, "bo"), 12 - 13);
    let t = strike(
        "crit-armour-order = \"reduce-then-multiply\"",
        axe,
        "armour = 2",
        &[20, 5, 99],
    );
    assert_eq!(wp(&t, "bo"), 12 - 9);
}

#[test]
fn hal_r38_hal_h5_a_d100_at_or_under_the_wound_damage_of_a_crit_injures() {
    let axe = r#"{ name = "axe", damage = "1d8", crit = 2 }"#;
    // 5 × 2 − 1 (Armour) = 9 Wound Points: a d100 of 9 injures (then the table's d20 1:
    // crushed foot), a 10 does not.
    let t = strike("", axe, "armour = 1", &[20, 5, 9, 1]);
    assert_eq!(t.state().ch(1).injuries, ["crushed foot"]);
    assert_eq!(t.state().ch(1).balance, -5);
    let t = strike("", axe, "armour = 1", &[20, 5, 10]);
    assert!(t.state().ch(1).injuries.is_empty());
    // HAL-H5's other reading: the damage before Armour (10).
    let t = strike("injury-chance = \"rolled-damage\"", axe, "armour = 1", &[20, 5, 10, 1]);
    assert_eq!(t.state().ch(1).injuries.len(), 1);
}

#[test]
fn hal_r39_hal_h8_with_several_damage_types_the_attackers_seat_picks_the_table() {
    let blade = r#"{ name = "glaive", damage = "1d8", types = ["piercing", "slashing"] }"#;
    let mut t = duel_z("", &format!("weapons = [{blade}]"), "", [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[20, 8, 1]).cmd("act");
    assert_eq!(t.game.pending().map(|p| (p.kind(), p.first())), Some(("injury", PCS)));
    assert_eq!(t.legal(), ["injury piercing", "injury slashing"]);
    t.expect_rejection(PCS, "injury fire", codes::BAD_INJURY_TYPE);
    // HAL-H8: slashing has no table of its own: the blunt table's 13th entry.
    t.dice(&[13, 3]).cmd("injury slashing");
    assert_eq!(t.state().ch(1).injuries, ["broken finger"]);
    assert_eq!(t.state().ch(1).loss[2], 3, "1d8 Dexterity damage");
    // The wound keeps the weapon's damage types (HAL-R28).
    assert_eq!(t.state().ch(1).wounds[0].kind, "piercing/slashing");
    // A table of its own, from the encounter file, is used for its type.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", &format!("weapons = [{}]", r#"{ name = "torch", damage = "1d4", types = ["fire"] }"#)),
            who("bo", "foes", "1,0", ""),
            who("zed", "pcs", "9,4", "surprised = true"),
            "[injuries]\nfire = [{ name = \"scorched\", effects = [\"one-eye\"] }, { name = \"burnt hand\", side = true, effects = [\"hand-useless\"] }]\n".into(),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[1, 9, 12]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    // A 2-entry table rolls a d2.
    t.dice(&[20, 4, 1, 2, 3]).cmd("act");
    assert_eq!(t.state().ch(1).injuries, ["burnt hand"]);
    assert!(has(&t, "bo", Conditions::OFF_ARM), "a d4 of 3: the off hand");
}

#[test]
fn hal_r40_r41_hal_h25_the_blunt_table_its_arms_and_its_effects() {
    let maul = r#"{ name = "maul", damage = "1d6", crit = 2 }"#;
    // Entry 8, crushed shoulder: a d4 of 2 picks the main arm; 2d8 (4 + 3 = 7) to Strength and
    // Dexterity from one roll (HAL-H25); the main arm's weapons are out of use.
    let t = strike("", maul, "", &[20, 1, 1, 8, 2, 4, 3]);
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[0], bo.loss[2]), (7, 7));
    assert!(bo.has(Conditions::MAIN_ARM));
    // HAL-H18: Strength 12 − 7 = 5: maximum Wound Points 5.
    assert_eq!(t.state().wp_max(1), 5);
    let mut t = t;
    t.cmd("end");
    t.expect_rejection(FOES, "act", codes::CANNOT_ACT); // a declared move: nothing to do
    t.cmd("end");
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.expect_rejection(FOES, "declare bo attack ash with sword", codes::NO_WEAPON);
    // HAL-H25's other reading: a roll for each ability.
    let t = strike(
        "dual-ability-damage = \"separate-rolls\"",
        maul,
        "",
        &[20, 1, 1, 8, 4, 4, 3, 1, 1],
    );
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[0], bo.loss[2], bo.has(Conditions::OFF_ARM)), (7, 2, true));
    // Entry 2, broken shin: 1d8 Agility damage and half speed.
    let t = strike("", maul, "", &[20, 1, 1, 2, 5]);
    assert_eq!(t.state().ch(1).loss[1], 5);
    assert!(has(&t, "bo", Conditions::LAME));
    // Entry 14, broken neck: paralysed: no declaration, no action (HAL-H6).
    let mut t = strike("", maul, "", &[20, 1, 1, 14]);
    assert!(has(&t, "bo", Conditions::PARALYZED));
    t.cmd("end");
    // bo's turn is lost, and the round ends with its count.
    assert!(t.last.iter().any(|e| matches!(e, Event::ActLost { .. })));
    assert_eq!(t.state().round, 2);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    assert_eq!(t.state().phase, Phase::Resolving, "bo declares nothing");
    // Attacks against it: +4; a d20 of 5 + 1 + 4 = 10 hits Defense 10.
    t.dice(&[5, 1]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            hit: true,
            total: 10,
            ..
        }
    )));
    // Entry 20, cracked skull: Memory and Perception, concussed (−2 to checks and attacks).
    let t = strike("", maul, "", &[20, 1, 1, 20, 4]);
    let bo = t.state().ch(1);
    assert_eq!((bo.loss[5], bo.loss[4]), (4, 4));
    assert!(bo.has(Conditions::CONCUSSED));
    // Entry 6, broken rib: after a round in which it took an action, it rests a round.
    let mut t = strike("", maul, "", &[20, 1, 1, 6, 1, 1]);
    t.cmds(&["end", "end"]); // ash; bo only moved: no action taken
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo attack ash");
    t.cmd("end"); // ash
    t.dice(&[2]).cmd("act");
    t.cmds(&["end", "end"]); // bo, zed
    assert_eq!(t.state().round, 3);
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    assert_eq!(t.state().phase, Phase::Resolving, "bo rests: it declares nothing");
    // Entry 3, shattered kneecap: prone until healed: melee attacks on it +2.
    let t = strike("", maul, "", &[20, 1, 1, 3, 2]);
    assert!(has(&t, "bo", Conditions::PRONE));
}

#[test]
fn hal_h18_agility_loss_keeps_base_initiative_unless_the_option_recomputes_it() {
    let maul = r#"{ name = "maul", damage = "1d6", crit = 2 }"#;
    // Entry 4, broken thighbone: 1d10 Agility: 6 → Agility 10 − 6 = 4 (−3).
    let t = strike("", maul, "", &[20, 1, 1, 4, 6]);
    assert_eq!(t.state().ch(1).base, Some(9));
    assert_eq!(t.state().defense(1), 7);
    let t = strike("agility-loss-rerolls-initiative = true", maul, "", &[20, 1, 1, 4, 6]);
    assert_eq!(t.state().ch(1).base, Some(12));
    // A Strength drop below the current Wound Points lowers them, and the death threshold:
    // entry 7, 3d4 Strength: 4 + 4 + 4 = 12 → Strength 0: dead at 0 Wound Points.
    let t = strike("", maul, "", &[20, 1, 1, 7, 4, 4, 4]);
    assert!(has(&t, "bo", Conditions::DEAD));
}

#[test]
fn hal_h6_prone_paralysed_blinded_and_concussed_change_attack_rolls() {
    let total = |t: &Table<HallowedEarth>| {
        t.last.iter().find_map(|e| match e {
            Event::Attacked { total, .. } => Some(*total),
            _ => None,
        })
    };
    // A prone target (entry 3): melee attacks on it +2. ash: Strength 12 (+1).
    let mut t = strike(
        "",
        r#"{ name = "maul", damage = "1d6", crit = 2 }"#,
        "",
        &[20, 1, 1, 3, 2],
    );
    t.cmd("end");
    t.cmd("end");
    t.type_as(PCS, "declare ash attack bo with maul");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare bo move");
    t.dice(&[5]).cmd("act");
    assert_eq!(total(&t), Some(5 + 1 + 2));
    // A blinded attacker: −4 (option blinded-attack-penalty).
    let mut t = duel_z("", "", "", [1, 9]);
    t.cmd("gm blind ash");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[5]).cmd("act");
    assert_eq!(total(&t), Some(5 + 1 - 4));
    // Paralysed targets take a crit from every hit with `paralyzed-auto-crit`.
    let mut t = strike(
        "paralyzed-auto-crit = true",
        r#"{ name = "maul", damage = "1d6", crit = 2 }"#,
        "",
        &[20, 1, 1, 14],
    );
    t.cmd("end");
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(PCS, "declare zed move");
    t.dice(&[10, 3, 99]).cmd("act");
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Attacked {
            crit: true,
            natural: 10,
            ..
        }
    )));
}

#[test]
fn hal_h10_threat_range_is_two_yards_three_with_a_reach_weapon_and_ranges_are_in_yards() {
    let spear = r#"{ name = "spear", damage = "1d8", long = true }"#;
    let bow = r#"{ name = "bow", damage = "1d6", range = 5 }"#;
    let toml = |options: &str| {
        enc(
            options,
            &[
                who(
                    "ash",
                    "pcs",
                    "0,0",
                    &format!("weapons = [{{ name = \"sword\", damage = \"1d6\" }}, {spear}, {bow}]"),
                ),
                who("bo", "foes", "3,0", ""),
            ]
            .concat(),
        )
    };
    for (weapon, ok) in [("sword", false), ("spear", true), ("bow", true)] {
        let mut t = Table::<HallowedEarth>::load(&toml(""), &[], &[1, 9]);
        t.type_as(PCS, &format!("declare ash attack bo with {weapon}"));
        t.type_as(FOES, "declare bo move");
        if ok {
            t.dice(&[2]).cmd("act");
        } else {
            t.expect_rejection(PCS, "act", codes::OUT_OF_REACH);
        }
    }
    // Two yards a square: bo is 6 yards away, beyond the bow's 5.
    let mut t = Table::<HallowedEarth>::load(&toml("yards-per-square = 2"), &[], &[1, 9]);
    t.type_as(PCS, "declare ash attack bo with bow");
    t.type_as(FOES, "declare bo move");
    t.expect_rejection(PCS, "act", codes::OUT_OF_REACH);
}

#[test]
fn hal_r39_the_referee_picks_the_injury_table_for_a_monster() {
    let blade = r#"{ name = "glaive", damage = "1d8", types = ["piercing", "slashing"] }"#;
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "0,0", ""),
            who("zed", "pcs", "9,4", ""),
            who("orc", "foes", "1,0", &format!("monster = true\nweapons = [{blade}]")),
        ]
        .concat(),
    );
    let mut t = Table::<HallowedEarth>::load(&toml, &[], &[9, 12, 1]);
    t.type_as(PCS, "declare ash move");
    t.type_as(PCS, "declare zed move");
    t.type_as(FOES, "declare orc attack ash");
    t.dice(&[20, 8, 1]).cmd("act");
    assert_eq!(
        t.game.pending().map(|p| (p.kind(), p.first())),
        Some(("injury", Seat::GM))
    );
}
