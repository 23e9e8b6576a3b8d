//! How an attack is rolled (ING-R37 to ING-R39): its test, the luck die, advantage and
//! disadvantage, criticals and misfires.

use super::*;

#[test]
fn ing_r37_attack_adds_one_listed_attribute_the_combat_die_and_at_most_one_proficiency() {
    // Default choice: the better listed attribute (DEX d8) and the best listed proficiency
    // (finesse +2). Martial +1 is not added on top, and fortitude is not a weapon proficiency.
    let mut t = T::turn_of(&two_proficiencies(), "hero");
    t.dice(&[8, 6, 10]);
    t.cmd("attack foe");
    let d = t.last.iter().find_map(|e| match e {
        Event::AttackDeclared { attr, prof, .. } => Some((*attr, prof.clone())),
        _ => None,
    });
    assert_eq!(d, Some((Attr::Dex, Some("finesse".to_string()))));
    let r = roll(&t);
    assert_eq!((r.dice[0].sides, r.dice[1].sides), (8, 6));
    assert_eq!(r.bonus, 2);
    assert_eq!(r.total, 8 + 6 + 2);
    t.assert_dice_used();

    // Choosing STR and martial: d6 + d6 + 1.
    let mut t = T::turn_of(&two_proficiencies(), "hero");
    t.dice(&[6, 6, 10]);
    t.cmd("attack foe using str prof martial");
    let r = roll(&t);
    assert_eq!((r.dice[0].sides, r.bonus, r.total), (6, 1, 13));

    // No proficiency at all.
    let mut t = T::turn_of(&two_proficiencies(), "hero");
    t.dice(&[6, 6, 10]);
    t.cmd("attack foe using str prof none");
    assert_eq!(roll(&t).total, 12);
}

#[test]
fn ing_r37_only_the_weapons_attributes_and_proficiencies_may_be_used() {
    let mut t = T::turn_of(&two_proficiencies(), "hero");
    assert_eq!(t.reject("attack foe using int").code, "bad-command");
    assert_eq!(t.reject("attack foe prof fortitude").code, "bad-command");
    assert_eq!(t.reject("attack foe prof archery").code, "bad-command");
}

#[test]
fn ing_r37_a_proficiency_the_attacker_lacks_is_neither_listed_nor_accepted() {
    // ING-R37: a listed proficiency counts only "if the attacker has one". The spearman has
    // neither martial nor finesse: only `attack foe` (prof none) is listed, and naming one is
    // refused by the rules (not unreadable text).
    let mut t = T::turn_of(&duel(SPEARMAN, &target(30, 0, ""), ""), "hero");
    let attacks: Vec<String> = t.legal().into_iter().filter(|c| c.starts_with("attack foe")).collect();
    assert_eq!(attacks, vec!["attack foe", "attack foe using dex"]);
    let r = t.reject("attack foe prof martial");
    assert_eq!(r.code, "no-proficiency");
    assert!(!r.is_unreadable());
    // With both, every one it has is listed, and none.
    let t = T::turn_of(&two_proficiencies(), "hero");
    let attacks: Vec<String> = t
        .legal()
        .into_iter()
        .filter(|c| c.starts_with("attack foe") && !c.contains("using"))
        .collect();
    assert_eq!(
        attacks,
        vec!["attack foe", "attack foe prof martial", "attack foe prof none"]
    );
}

#[test]
fn the_prompt_note_names_the_proficiency_or_prof_none() {
    use fray_engine::text::TextRuleset;
    use fray_ingenuity::Ingenuity;
    let t = T::turn_of(&two_proficiencies(), "hero");
    let note = |text: &str| {
        let c = Ingenuity::parse_command(t.s(), text).expect("parses");
        Ingenuity::note(t.s(), &c).expect("an attack has a note")
    };
    assert!(
        note("attack foe").starts_with("prof finesse +2: hit "),
        "{}",
        note("attack foe")
    );
    assert!(note("attack foe prof none").starts_with("prof none: hit "));
    let t = T::turn_of(&duel(SPEARMAN, &target(30, 0, ""), ""), "hero");
    let c = Ingenuity::parse_command(t.s(), "attack foe").expect("parses");
    assert!(Ingenuity::note(t.s(), &c).expect("note").starts_with("prof none: hit "));
}

#[test]
fn ing_r37_ing_r38_the_luck_die_is_never_added_to_an_attack_and_20_gives_no_bonus() {
    // A weapon whose critical threshold is out of the d20's reach: a luck die of 20 is neither
    // a critical hit nor +4. 3 + 3 = 6 < evasion 8: a miss (with +4 it would be 10, a hit).
    let items = "[[item]]\nid = \"blunt-stick\"\nattributes = [\"str\"]\ndamage = 1\ntype = \"bludgeoning\"\ncritical-threshold = 21\n";
    let toml = duel(
        "attributes = { str = 6 }\nskills = { combat = 6 }\nitems = [\"blunt-stick\"]",
        &target(8, 0, ""),
        items,
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 20]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!((r.luck, r.luck_bonus, r.total), (20, 0, 6));
    assert_eq!(t.results(), vec![(false, false, 8)]);
    assert!(t.damage().is_empty());
}

/// A lone character (STR d6, Athletics d4) and an enemy far away, for tasks.
fn tasker(extra: &str, options: &str) -> T {
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}{options}",
            who("hero", "pcs", "0,0", &format!("attributes = {{ str = 6 }}\n{extra}")),
            who("foe", "foes", "5,0", "")
        ),
    );
    T::turn_of(&toml, "hero")
}

#[test]
fn core_a_luck_die_of_20_adds_4_to_a_test_that_is_not_an_attack() {
    // Core rule 3: 3 + 2 + 4 = 9 meets difficulty 9.
    let mut t = tasker("", "");
    t.dice(&[3, 2, 20]);
    t.cmd("task str athletics vs 9");
    assert_eq!(tested(&t), vec![(9, 4, true)]);
    // A luck die of 19 adds nothing: 5 < 9.
    let mut t = tasker("", "");
    t.dice(&[3, 2, 19]);
    t.cmd("task str athletics vs 9");
    assert_eq!(tested(&t), vec![(5, 0, false)]);
}

#[test]
fn core_a_luck_die_of_20_is_not_an_automatic_success() {
    // 1 + 1 + 4 = 6 < 10.
    let mut t = tasker("", "");
    t.dice(&[1, 1, 20]);
    t.cmd("task str athletics vs 10");
    assert_eq!(tested(&t), vec![(6, 4, false)]);
}

#[test]
fn core_a_test_succeeds_when_it_meets_or_beats_the_difficulty() {
    let mut t = tasker("", "");
    t.dice(&[3, 4, 5]);
    t.cmd("task str athletics vs 7");
    assert_eq!(tested(&t), vec![(7, 0, true)]);
    let mut t = tasker("", "");
    t.dice(&[3, 3, 5]);
    t.cmd("task str athletics vs 7");
    assert_eq!(tested(&t), vec![(6, 0, false)]);
}

#[test]
fn ing_r37_an_attack_one_short_of_evasion_misses() {
    // The tie hits (Boudica, worked_examples.rs); one less misses.
    let mut t = T::turn_of(&duel(SPEARMAN, &target(6, 0, ""), ""), "hero");
    t.dice(&[2, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(t.attack_totals(), vec![5]);
    assert_eq!(t.results(), vec![(false, false, 6)]);
    assert!(t.damage().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Advantage and disadvantage (core rule 4), prone targets (ING-R47)
// ---------------------------------------------------------------------------------------------

/// `hero` with a spear next to a prone `foe`, and `archer` with a bow 3 m away.
fn prone_target() -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}",
            who("hero", "pcs", "1,0", SPEARMAN),
            who("foe", "foes", "2,0", &target(20, 0, "conditions = [\"prone\"]")),
            who(
                "archer",
                "pcs",
                "5,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            )
        ),
    )
}

#[test]
fn ing_r47_melee_against_a_prone_target_rerolls_one_die_and_keeps_the_better() {
    // Core rule 4: advantage rerolls the die that gains most (here the 1) and keeps the better.
    let mut t = T::turn_of(&prone_target(), "hero");
    t.dice(&[1, 5, 10, 6]);
    t.cmd("attack foe");
    let (adv, why) = advantage(&t);
    assert_eq!((adv, why), (1, vec!["prone target (melee)".to_string()]));
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(0, 1, 6, true)]);
    assert_eq!(r.total, 11);
    t.assert_dice_used();
    // A worse reroll is not kept.
    let mut t = T::turn_of(&prone_target(), "hero");
    t.dice(&[2, 5, 10, 1]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(0, 2, 1, true)]);
    assert_eq!(r.total, 7);
}

#[test]
fn ing_r47_ranged_against_a_prone_target_rerolls_the_highest_die_and_keeps_the_worse() {
    // Core rule 4: disadvantage rerolls the die showing the highest value (the 5).
    let mut t = T::turn_of(&prone_target(), "archer");
    t.dice(&[2, 5, 10, 3]);
    t.cmd("attack foe");
    let (adv, why) = advantage(&t);
    assert_eq!((adv, why), (-1, vec!["prone target (ranged)".to_string()]));
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(1, 5, 3, false)]);
    assert_eq!(r.total, 5);
    t.assert_dice_used();
    // A better reroll is not kept.
    let mut t = T::turn_of(&prone_target(), "archer");
    t.dice(&[2, 5, 10, 6]);
    t.cmd("attack foe");
    assert_eq!(roll(&t).total, 7);
}

#[test]
fn core_one_advantage_cancels_one_disadvantage() {
    // A prone target (ranged: disadvantage) flanked by two of the archer's allies (advantage):
    // no reroll at all.
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}{}",
            who(
                "archer",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            ),
            who("west", "pcs", "2,0", ""),
            who("foe", "foes", "3,0", &target(20, 0, "conditions = [\"prone\"]")),
            who("east", "pcs", "4,0", "")
        ),
    );
    let mut t = T::turn_of(&toml, "archer");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    let (adv, why) = advantage(&t);
    assert_eq!(adv, 0);
    assert!(why.contains(&"flanking".to_string()), "{why:?}");
    assert!(why.contains(&"prone target (ranged)".to_string()), "{why:?}");
    assert!(roll(&t).rerolls.is_empty());
    assert_eq!(t.attack_totals(), vec![6]);
    t.assert_dice_used();
}

#[test]
fn core_the_luck_die_is_never_rerolled() {
    // Disadvantage rerolls the highest die, but never the luck die: with a luck die of 20 the
    // skill die (2) is rerolled instead, and the 20 still makes the bow's critical hit.
    let mut t = T::turn_of(&prone_target(), "archer");
    t.dice(&[1, 2, 20, 1]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(1, 2, 1, false)]);
    assert_eq!((r.luck, r.total), (20, 2));
    assert_eq!(t.results(), vec![(true, true, 20)]);
    t.assert_dice_used();

    // Advantage with both dice at their maximum and a luck die of 1: a die of the test is
    // rerolled (the attribute die, which keeps its 6), never the luck die.
    let mut t = T::turn_of(&prone_target(), "hero");
    t.dice(&[6, 6, 1, 3]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(0, 6, 3, true)]);
    assert_eq!((r.luck, r.total), (1, 12));
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Critical hits (ING-R38), the luck modifier (ING-H18), critical damage (ING-H19)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r38_a_luck_die_below_the_threshold_is_not_critical() {
    // The spear's threshold is 19: 18 is an ordinary roll, and 1 + 1 = 2 misses evasion 6.
    let mut t = T::turn_of(&duel(SPEARMAN, &target(6, 0, ""), ""), "hero");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    assert_eq!(t.results(), vec![(false, false, 6)]);
}

#[test]
fn ing_r38_the_threshold_is_the_weapons_own() {
    // The dirk's threshold is 18: a luck die of 18 is critical, hits below evasion and deals
    // critical damage 6: 2 + 6 = 8.
    let toml = duel(
        "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"dirk\"]",
        &target(10, 0, ""),
        "",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    assert_eq!(t.results(), vec![(true, true, 10)]);
    assert_eq!(t.damage(), vec![("foe".into(), 8, 8, 0)]);
}

#[test]
fn ing_h18_the_luck_modifier_defaults_to_zero() {
    let mut t = T::turn_of(&duel(SPEARMAN, &target(20, 0, ""), ""), "hero");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!((r.luck, r.luck_total), (18, 18));
    assert_eq!(t.results(), vec![(false, false, 20)]);
}

#[test]
fn ing_h18_option_luck_modifier_is_added_to_every_luck_die() {
    // luck-modifier = 1: 18 counts as 19, the spear's threshold: a critical hit.
    let toml = duel(SPEARMAN, &target(20, 0, ""), "[options]\nluck-modifier = 1\n");
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    let r = roll(&t);
    assert_eq!((r.luck, r.luck_total, r.total), (18, 19, 2));
    assert_eq!(t.results(), vec![(true, true, 20)]);
    // On a test, 19 + 1 reaches 20: +4.
    let mut t = tasker("", "[options]\nluck-modifier = 1\n");
    t.dice(&[3, 2, 19]);
    t.cmd("task str athletics vs 9");
    assert_eq!(tested(&t), vec![(9, 4, true)]);
}

#[test]
fn ing_h18_a_characters_own_luck_modifier() {
    // The per-character field: only this character's luck dice are raised.
    let toml = enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}",
            who("hero", "pcs", "1,0", &format!("{SPEARMAN}\nluck-modifier = 1")),
            who("foe", "foes", "2,0", &target(20, 0, "")),
            who("plain", "pcs", "2,1", SPEARMAN)
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    assert_eq!(roll(&t).luck_total, 19);
    assert_eq!(t.results(), vec![(true, true, 20)]);
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick plain");
    t.dice(&[1, 1, 18]);
    t.cmd("attack foe");
    assert_eq!(roll(&t).luck_total, 18);
    assert_eq!(t.results(), vec![(false, false, 20)]);
    // On a test: 19 + 1 gives the +4.
    let mut t = tasker("luck-modifier = 1", "");
    t.dice(&[3, 2, 19]);
    t.cmd("task str athletics vs 9");
    assert_eq!(tested(&t), vec![(9, 4, true)]);
}

#[test]
fn ing_h19_critical_damage_is_an_absolute_number_by_default() {
    // The spear: damage 4, critical damage 8. 2 + 3 = 5, critical: 5 + 8 = 13.
    let mut t = T::turn_of(&duel(SPEARMAN, &target(6, 0, ""), ""), "hero");
    t.dice(&[2, 3, 19]);
    t.cmd("attack foe");
    assert_eq!(t.results(), vec![(true, true, 6)]);
    assert_eq!(t.damage(), vec![("foe".into(), 13, 12, 1)]);
}

#[test]
fn ing_h19_option_critical_damage_bonus_adds_to_the_normal_damage() {
    // critical-damage = "bonus": the spear's 8 is "+8": 5 + 4 + 8 = 17.
    let toml = duel(
        SPEARMAN,
        &target(6, 0, "endurance = 30"),
        "[options]\ncritical-damage = \"bonus\"\n",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[2, 3, 19]);
    t.cmd("attack foe");
    assert_eq!(t.results(), vec![(true, true, 6)]);
    assert_eq!(t.damage(), vec![("foe".into(), 17, 17, 0)]);
}

// ---------------------------------------------------------------------------------------------
// Misfires (ING-R39)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r39_a_misfire_picks_at_random_among_everyone_next_to_the_target() {
    // Two characters within 1 m of the target (not the one 2 m away): a d2 picks. 2: `other`.
    let mut t = T::turn_of(&crowd("bow", ""), "archer");
    t.dice(&[4, 3, 1, 2]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("other".into(), Some(2), 2)]);
    // Resolved normally against the new target: 7 against its evasion 5.
    assert_eq!(t.results(), vec![(true, false, 5)]);
    assert_eq!(t.damage(), vec![("other".into(), 10, 10, 0)]);
    t.assert_dice_used();
}

#[test]
fn ing_r39_a_misfire_can_hit_an_ally() {
    // The d2 shows 1: the archer's own ally is hit (evasion 3).
    let mut t = T::turn_of(&crowd("bow", ""), "archer");
    t.dice(&[4, 3, 1, 1]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("mate".into(), Some(1), 2)]);
    assert_eq!(t.results(), vec![(true, false, 3)]);
    assert_eq!(t.damage(), vec![("mate".into(), 10, 10, 0)]);
}

#[test]
fn ing_r39_thrown_weapons_misfire_too() {
    // The javelin (thrown, damage 4).
    let mut t = T::turn_of(&crowd("javelin", ""), "archer");
    t.dice(&[4, 3, 1, 1]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("mate".into(), Some(1), 2)]);
    assert_eq!(t.damage(), vec![("mate".into(), 11, 11, 0)]);
}

#[test]
fn ing_r39_a_luck_die_of_2_does_not_misfire() {
    let mut t = T::turn_of(&crowd("bow", ""), "archer");
    t.dice(&[4, 3, 2]);
    t.cmd("attack foe");
    assert!(misfires(&t).is_empty());
    assert_eq!(t.results(), vec![(true, false, 4)]);
    assert_eq!(t.damage(), vec![("foe".into(), 10, 10, 0)]);
    t.assert_dice_used();
}

#[test]
fn ing_r39_no_misfire_when_nobody_is_within_1_m_of_the_target() {
    // `far` is 2 m from `lone`: the luck die of 1 changes nothing.
    let toml = enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}",
            who(
                "archer",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            ),
            who("lone", "foes", "4,0", &target(4, 0, "")),
            who("far", "pcs", "2,1", &target(2, 0, ""))
        ),
    );
    let mut t = T::turn_of(&toml, "archer");
    t.dice(&[4, 3, 1]);
    t.cmd("attack lone");
    assert!(misfires(&t).is_empty());
    assert_eq!(t.damage(), vec![("lone".into(), 10, 10, 0)]);
    t.assert_dice_used();
}

#[test]
fn ing_r39_melee_attacks_do_not_misfire() {
    // A spear thrust with a luck die of 1 at a foe next to the attacker's ally.
    let toml = enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}",
            who("hero", "pcs", "1,0", SPEARMAN),
            who("foe", "foes", "2,0", &target(4, 0, "")),
            who("mate", "pcs", "2,1", &target(3, 0, ""))
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert!(misfires(&t).is_empty());
    assert_eq!(t.damage(), vec![("foe".into(), 11, 11, 0)]);
}

#[test]
fn misfire_target_defends_is_off_by_default() {
    // The ally a misfire lands on gets no defence decision even though it could dodge.
    let toml = enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}",
            who(
                "archer",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            ),
            who("mate", "pcs", "4,1", "evasion = 3\ndeflection = 0\nendurance = 30"),
            who("foe", "foes", "4,0", &target(4, 0, ""))
        ),
    );
    let mut t = T::turn_of(&toml, "archer");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("mate".into(), None, 1)]);
    assert_eq!(t.results(), vec![(true, false, 3)]);
    assert_eq!(t.damage(), vec![("mate".into(), 10, 10, 0)]);
    assert_eq!(t.pending(), ("turn", "archer".into()));
}

#[test]
fn misfire_target_defends_option_lets_the_new_target_dodge() {
    let toml = enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}[options]\nmisfire-target-defends = true\n",
            who(
                "archer",
                "pcs",
                "0,0",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            ),
            who(
                "mate",
                "pcs",
                "4,1",
                "attributes = { dex = 6 }\nevasion = 3\ndeflection = 0\nendurance = 30"
            ),
            who("foe", "foes", "4,0", &target(4, 0, ""))
        ),
    );
    let mut t = T::turn_of(&toml, "archer");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("mate".into(), None, 1)]);
    assert_eq!(t.pending(), ("defence", "mate".into()));
    // Dodge: DEX d6 + Agility d4 = 6 + 4 = 10 against the attack's 7: a miss.
    t.dice(&[6, 4, 10]);
    t.cmd("dodge");
    assert_eq!(t.results(), vec![(false, false, 10)]);
    assert!(t.damage().is_empty());
    t.assert_dice_used();
}

#[test]
fn older_properties_risky_melee_weapons_misfire() {
    // The flail is Risky: with the older properties on (default) a luck die of 1 sends the
    // blow to a character next to the target.
    let toml = enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}",
            who(
                "hero",
                "pcs",
                "1,0",
                "attributes = { str = 6 }\nskills = { combat = 6 }\nitems = [\"flail\"]"
            ),
            who("foe", "foes", "2,0", &target(4, 0, "endurance = 30")),
            who("mate", "pcs", "2,1", &target(3, 0, "endurance = 30"))
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert_eq!(misfires(&t), vec![("mate".into(), None, 1)]);
    assert_eq!(t.damage(), vec![("mate".into(), 12, 12, 0)]);

    // With older-properties = false the flail is an ordinary melee weapon.
    let off = toml.clone() + "[options]\nolder-properties = false\n";
    let mut t = T::turn_of(&off, "hero");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert!(misfires(&t).is_empty());
    assert_eq!(t.damage(), vec![("foe".into(), 12, 12, 0)]);
}
