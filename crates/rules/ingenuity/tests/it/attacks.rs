//! Attacks (ING-R37 to ING-R47) and the core test mechanics they use: test composition, the
//! luck die, advantage and disadvantage, meet-or-beat; with the holes ING-H10, ING-H11, ING-H18,
//! ING-H19, ING-H20, ING-H27 and the attack options.

use crate::common;
use common::*;
use fray_ingenuity::data::{Attr, Cond};
use fray_ingenuity::event::{Event, Reroll, TestRoll};

/// A target that cannot take reactions (no stamina), so attacks on it roll at once.
const DEFENCELESS: &str = "stamina = 1\nnow = { stamina = 0 }";

/// An attacker with d6 attributes, Combat d6 and the test spear (no proficiency).
const SPEARMAN: &str = "attributes = { str = 6, dex = 6 }\nskills = { combat = 6 }\nitems = [\"spear\"]";

/// A defenceless target with evasion and deflection.
fn target(evasion: i16, deflection: i16, extra: &str) -> String {
    format!("evasion = {evasion}\ndeflection = {deflection}\n{DEFENCELESS}\n{extra}")
}

/// `hero` (pcs) at 1,0 next to `foe` (foes) at 2,0 on a one-row map, plus `rest`.
fn duel(hero: &str, foe: &str, rest: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{}{}{rest}",
            who("hero", "pcs", "1,0", hero),
            who("foe", "foes", "2,0", foe)
        ),
    )
}

/// The attack test rolls among the last events: (roll, net advantage, reasons).
fn rolled(t: &T) -> Vec<(TestRoll, i8, Vec<String>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled {
                roll,
                advantage,
                reasons,
                ..
            } => Some((roll.clone(), *advantage, reasons.clone())),
            _ => None,
        })
        .collect()
}

/// The one attack roll of the last command.
fn roll(t: &T) -> TestRoll {
    let r = rolled(t);
    assert_eq!(r.len(), 1, "expected one attack roll, got {r:?}");
    r[0].0.clone()
}

/// The net advantage and reasons of the one attack roll of the last command.
fn advantage(t: &T) -> (i8, Vec<String>) {
    let r = rolled(t);
    assert_eq!(r.len(), 1, "expected one attack roll, got {r:?}");
    (r[0].1, r[0].2.clone())
}

/// The declared attacks among the last events: (penalty, property bonus).
fn declared(t: &T) -> Vec<(i16, i16)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackDeclared { penalty, bonus, .. } => Some((*penalty, *bonus)),
            _ => None,
        })
        .collect()
}

/// The misfires among the last events: (new target, pick die, candidates).
fn misfires(t: &T) -> Vec<(String, Option<u16>, u8)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Misfired {
                target,
                pick,
                candidates,
            } => Some((t.s().info(*target).id.clone(), *pick, *candidates)),
            _ => None,
        })
        .collect()
}

/// The tests (tasks) among the last events: (total, luck bonus, success).
fn tested(t: &T) -> Vec<(i16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { roll, success, .. } => Some((roll.total, roll.luck_bonus, *success)),
            _ => None,
        })
        .collect()
}

fn reroll(die: u8, old: u16, new: u16, advantage: bool) -> Reroll {
    Reroll {
        die,
        old,
        new,
        advantage,
    }
}

// ---------------------------------------------------------------------------------------------
// Core mechanics: composition, luck die, meet-or-beat
// ---------------------------------------------------------------------------------------------

/// A fighter with STR d6, DEX d8, Combat d6, martial +1 and finesse +2 (both on the spear), and
/// fortitude +3 (not a weapon proficiency).
fn two_proficiencies() -> String {
    duel(
        "attributes = { str = 6, dex = 8 }\nskills = { combat = 6 }\nproficiencies = { martial = 1, finesse = 2, fortitude = 3 }\nitems = [\"spear\"]",
        &target(30, 0, ""),
        "",
    )
}

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

/// `archer` (bow) at 0,0; `foe` at 4,0 with the archer's ally `mate` north of it (4,1) and
/// another foe `other` east of it (5,0); `far` (pcs) 2 m from the foe.
fn crowd(weapon: &str, options: &str) -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}{}{}{options}",
            who(
                "archer",
                "pcs",
                "0,0",
                &format!("attributes = {{ str = 6, dex = 6 }}\nskills = {{ combat = 6 }}\nitems = [\"{weapon}\"]")
            ),
            who("mate", "pcs", "4,1", &target(3, 0, "endurance = 30")),
            who("foe", "foes", "4,0", &target(4, 0, "endurance = 30")),
            who("other", "foes", "5,0", &target(5, 0, "endurance = 30")),
            who("far", "pcs", "2,1", &target(2, 0, ""))
        ),
    )
}

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

// ---------------------------------------------------------------------------------------------
// The multiple attack penalty (ING-R40, ING-H10)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r40_each_earlier_attack_this_round_costs_2_and_a_new_round_starts_afresh() {
    let mut t = T::turn_of(&duel(SPEARMAN, &target(20, 0, ""), ""), "hero");
    for (k, total) in [(0, 6), (-2, 4), (-4, 2)] {
        t.dice(&[3, 3, 10]);
        t.cmd("attack foe");
        assert_eq!(declared(&t), vec![(k, 0)]);
        assert_eq!(t.attack_totals(), vec![total]);
    }
    t.cmd("end");
    t.cmd("pick foe");
    t.cmd("end");
    t.cmd("pick hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(declared(&t), vec![(0, 0)]);
    assert_eq!(t.attack_totals(), vec![6]);
}

#[test]
fn ing_r40_option_multiple_attack_penalty_sets_the_step() {
    let toml = duel(SPEARMAN, &target(20, 0, ""), "[options]\nmultiple-attack-penalty = 3\n");
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 3, 3, 10, 3, 3, 10]);
    t.cmd("attack foe");
    t.cmd("attack foe");
    assert_eq!(declared(&t), vec![(-3, 0)]);
    assert_eq!(t.attack_totals(), vec![3]);
    t.cmd("attack foe");
    assert_eq!(t.attack_totals(), vec![0]);
}

/// `a` and `b` (pcs) and `f` (foes) next to `a`; `a` readies an attack on `f`'s turn.
fn readier(options: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}{options}",
            who("a", "pcs", "1,0", SPEARMAN),
            who("f", "foes", "2,0", &target(20, 0, "")),
            who("b", "pcs", "5,0", "")
        ),
    )
}

#[test]
fn ing_r40_a_readied_attack_takes_the_penalty_of_the_attacks_before_it() {
    // Two attacks on its turn, then a readied attack fired at the start of f's turn: -4.
    let mut t = T::turn_of(&readier(""), "a");
    t.dice(&[3, 3, 10, 3, 3, 10]);
    t.cmd("attack f");
    t.cmd("attack f");
    t.cmd("ready attack f when turn");
    t.cmd("pick f");
    assert_eq!(t.pending(), ("ready", "a".into()));
    t.dice(&[3, 3, 10]);
    t.cmd("fire");
    assert_eq!(declared(&t), vec![(-4, 0)]);
    assert_eq!(t.attack_totals(), vec![2]);
    t.assert_dice_used();
}

/// Round 2 of `readier`: `a`'s readied attack fires at the start of `f`'s turn, then `a` attacks
/// on its own turn; returns the penalty of that attack.
fn penalty_after_a_readied_attack(options: &str) -> i16 {
    let mut t = T::turn_of(&readier(options), "b");
    t.cmd("end");
    t.cmd("pick f");
    t.cmd("end");
    t.cmd("pick a");
    t.cmd("ready attack f when turn");
    // Round 2.
    t.cmd("pick b");
    t.cmd("end");
    t.cmd("pick f");
    assert_eq!(t.pending(), ("ready", "a".into()));
    t.dice(&[3, 3, 10]);
    t.cmd("fire");
    assert_eq!(declared(&t), vec![(0, 0)]);
    t.cmd("end");
    t.cmd("pick a");
    t.dice(&[3, 3, 10]);
    t.cmd("attack f");
    t.assert_dice_used();
    let d = declared(&t);
    assert_eq!(d.len(), 1);
    d[0].0
}

#[test]
fn ing_h10_a_readied_attack_counts_for_the_penalty_by_default() {
    // ING-H10: every attack since the round started counts, readied ones included.
    assert_eq!(penalty_after_a_readied_attack(""), -2);
}

#[test]
fn ing_h10_option_own_turn_counts_only_attacks_made_on_the_own_turn() {
    assert_eq!(
        penalty_after_a_readied_attack("[options]\nmap-counts = \"own-turn\"\n"),
        0
    );
}

// ---------------------------------------------------------------------------------------------
// Damage (ING-R41, ING-R42, ING-H11)
// ---------------------------------------------------------------------------------------------

/// Two attacks on evasion 5: the first misses, the second rolls 5 + 5 - 2 = 8 and hits.
fn second_attack_damage(options: &str) -> Vec<(String, i16, i16, i16)> {
    let toml = duel(SPEARMAN, &target(5, 0, "endurance = 30"), options);
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[1, 1, 10]);
    t.cmd("attack foe");
    t.dice(&[5, 5, 10]);
    t.cmd("attack foe");
    assert_eq!(t.attack_totals(), vec![8]);
    t.damage()
}

#[test]
fn ing_h11_damage_starts_from_the_total_after_the_penalty() {
    // ING-R41: 8 + spear 4 = 12.
    assert_eq!(second_attack_damage(""), vec![("foe".into(), 12, 12, 0)]);
}

#[test]
fn ing_h11_option_damage_total_unmodified_ignores_the_penalty() {
    // 10 + 4 = 14.
    assert_eq!(
        second_attack_damage("[options]\ndamage-total = \"unmodified\"\n"),
        vec![("foe".into(), 14, 14, 0)]
    );
}

#[test]
fn ing_r41_damage_after_reduction_is_at_least_1() {
    // 3 + 3 + 4 = 10 against deflection 30: 1.
    let mut t = T::turn_of(&duel(SPEARMAN, &target(6, 30, ""), ""), "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(t.damage(), vec![("foe".into(), 1, 1, 0)]);
    assert_eq!(t.ch("foe").endurance, t.s().info(t.id("foe")).stats.endurance - 1);
}

#[test]
fn ing_r42_damage_goes_to_endurance_first_and_the_rest_to_health() {
    // 6 + 4 = 10 against endurance 3: 3 from endurance, 7 from health (12 -> 5). A high
    // constitution keeps the consciousness fortify out of it.
    let toml = duel(
        SPEARMAN,
        "evasion = 6\ndeflection = 0\nhealth = 12\nconstitution = 20\nstamina = 1\nnow = { endurance = 3, stamina = 0 }",
        "",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(t.damage(), vec![("foe".into(), 10, 3, 7)]);
    assert_eq!((t.ch("foe").endurance, t.ch("foe").health), (0, 5));
    assert!(!t.ch("foe").unconscious);
}

// ---------------------------------------------------------------------------------------------
// Sneak attacks (ING-R43), flanking (ING-R44, ING-H20), both (ING-R45)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r43_a_hidden_attacker_makes_a_sneak_attack_and_is_revealed() {
    let toml = duel(
        &format!("{SPEARMAN}\nconditions = [\"hidden\"]"),
        &target(20, 0, ""),
        "",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["sneak attack".to_string()]));
    assert_eq!(roll(&t).total, 8);
    // hidden-ends-on-attack (default): the attack gives the attacker away.
    assert!(!t.ch("hero").has(Cond::Hidden));
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (0, vec![]));
    t.assert_dice_used();
}

#[test]
fn hidden_ends_on_attack_option_off_keeps_the_attacker_hidden() {
    let toml = duel(
        &format!("{SPEARMAN}\nconditions = [\"hidden\"]"),
        &target(20, 0, ""),
        "[options]\nhidden-ends-on-attack = false\n",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 5, 3, 3, 10, 5]);
    t.cmd("attack foe");
    assert!(t.ch("hero").has(Cond::Hidden));
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["sneak attack".to_string()]));
    t.assert_dice_used();
}

#[test]
fn ing_r43_a_blinded_target_suffers_a_sneak_attack() {
    let toml = duel(SPEARMAN, &target(20, 0, "conditions = [\"blinded\"]"), "");
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["sneak attack".to_string()]));
    t.assert_dice_used();
}

/// A 5x3 map with `foe` in the middle (2,1), `hero` (spear) and `mate` (pcs) at the given
/// squares, an `archer` (bow) in a corner, and `options`.
fn around(hero_at: &str, mate_at: &str, hero_extra: &str, options: &str) -> String {
    enc(
        &[". . . . .", ". . . . .", ". . . . ."],
        &format!(
            "{}{}{}{}{options}",
            who("hero", "pcs", hero_at, &format!("{SPEARMAN}\n{hero_extra}")),
            who("foe", "foes", "2,1", &target(20, 0, "")),
            who("mate", "pcs", mate_at, ""),
            who(
                "archer",
                "pcs",
                "4,2",
                "attributes = { dex = 6 }\nskills = { combat = 6 }\nitems = [\"bow\"]"
            )
        ),
    )
}

#[test]
fn ing_r44_two_enemies_on_opposite_sides_flank_the_target() {
    // ING-H20: west and east of the target.
    let mut t = T::turn_of(&around("1,1", "3,1", "", ""), "hero");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["flanking".to_string()]));
    assert_eq!(roll(&t).total, 8);
    t.assert_dice_used();
}

#[test]
fn ing_r44_opposite_diagonal_squares_flank_too() {
    // South-west and north-east of the target.
    let mut t = T::turn_of(&around("1,0", "3,2", "", ""), "hero");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["flanking".to_string()]));
}

#[test]
fn ing_r44_enemies_on_two_sides_that_are_not_opposite_do_not_flank() {
    // West and north.
    let mut t = T::turn_of(&around("1,1", "2,2", "", ""), "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (0, vec![]));
    t.assert_dice_used();
}

#[test]
fn ing_r44_a_ranged_attacker_who_is_not_a_flanker_gets_the_advantage() {
    // The archer stands 2 m off; hero and mate flank the target.
    let mut t = T::turn_of(&around("1,1", "3,1", "", ""), "archer");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["flanking".to_string()]));
    t.assert_dice_used();
}

#[test]
fn ing_r44_the_targets_own_allies_do_not_flank_it() {
    // foe's ally `guard` east of it, the hero west: one enemy only.
    let toml = enc(
        &[". . . . ."],
        &format!(
            "{}{}{}",
            who("hero", "pcs", "1,0", SPEARMAN),
            who("foe", "foes", "2,0", &target(20, 0, "")),
            who("guard", "foes", "3,0", DEFENCELESS)
        ),
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (0, vec![]));
    t.assert_dice_used();
}

#[test]
fn ing_h20_option_flanking_gm_only_ignores_the_grid() {
    let mut t = T::turn_of(&around("1,1", "3,1", "", "[options]\nflanking = \"gm-only\"\n"), "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (0, vec![]));
    // The GM's flag flanks the target.
    t.cmd("gm condition foe flanked on");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["flanking".to_string()]));
    t.assert_dice_used();
}

#[test]
fn ing_h20_the_gms_flag_flanks_by_default_too() {
    // No flanker on the grid at all (mate is north), but the GM says the target is flanked.
    let mut t = T::turn_of(&around("1,1", "2,2", "", ""), "hero");
    t.cmd("gm condition foe flanked on");
    t.dice(&[3, 3, 10, 5]);
    t.cmd("attack foe");
    assert_eq!(advantage(&t), (1, vec!["flanking".to_string()]));
}

#[test]
fn ing_r45_a_sneak_attack_that_flanks_has_double_advantage() {
    // Two rerolls: first the attribute die (1 -> 5), then the die that gains most now, the
    // skill die (1 -> 4): 5 + 4 = 9.
    let mut t = T::turn_of(&around("1,1", "3,1", "conditions = [\"hidden\"]", ""), "hero");
    t.dice(&[1, 1, 10, 5, 4]);
    t.cmd("attack foe");
    let (adv, why) = advantage(&t);
    assert_eq!(adv, 2);
    assert_eq!(why, vec!["sneak attack".to_string(), "flanking".to_string()]);
    let r = roll(&t);
    assert_eq!(r.rerolls, vec![reroll(0, 1, 5, true), reroll(1, 1, 4, true)]);
    assert_eq!(r.total, 9);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Size (ING-R46, ING-H27)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r46_a_smaller_attacker_faces_lower_evasion_and_higher_deflection() {
    // Size 3 against size 5: evasion 6 - 2 = 4, deflection 2 + 2 = 4. The total is not shifted
    // (ING-H11): 2 + 2 = 4 hits; 4 + 4 - 4 = 4 damage.
    let toml = duel(&format!("{SPEARMAN}\nsize = 3"), &target(6, 2, "size = 5"), "");
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[2, 2, 10]);
    t.cmd("attack foe");
    assert_eq!(t.attack_totals(), vec![4]);
    assert_eq!(t.results(), vec![(true, false, 4)]);
    assert_eq!(t.damage(), vec![("foe".into(), 4, 4, 0)]);
}

#[test]
fn ing_r46_a_larger_attacker_by_two() {
    // Size 6 against size 4: evasion 5 + 2 = 7, deflection 4 - 2 = 2. 3 + 3 = 6 misses.
    let toml = duel(&format!("{SPEARMAN}\nsize = 6"), &target(5, 4, ""), "");
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10]);
    t.cmd("attack foe");
    assert_eq!(t.results(), vec![(false, false, 7)]);
    // A critical hit shows the deflection: 6 + 8 - 2 = 12.
    t.dice(&[4, 4, 19]);
    t.cmd("attack foe");
    assert_eq!(t.attack_totals(), vec![6]);
    assert_eq!(t.results(), vec![(true, true, 7)]);
    assert_eq!(t.damage(), vec![("foe".into(), 12, 12, 0)]);
}

/// A size-4 attacker against a size-6 dodger (evasion 6, DEX d6, Agility d4) who dodges 3 + 2 =
/// 5; the attack totals 4.
fn dodge_against_a_smaller_attacker(options: &str) -> (bool, bool, i16) {
    let toml = duel(
        SPEARMAN,
        "size = 6\nattributes = { dex = 6 }\nevasion = 6\ndeflection = 0",
        options,
    );
    let mut t = T::turn_of(&toml, "hero");
    t.cmd("attack foe");
    assert_eq!(t.pending(), ("defence", "foe".into()));
    t.dice(&[3, 2, 10, 2, 2, 10]);
    t.cmd("dodge");
    t.assert_dice_used();
    let r = t.results();
    assert_eq!(r.len(), 1);
    r[0]
}

#[test]
fn ing_h27_the_size_shift_comes_after_the_dodge() {
    // max(5, 6) - 2 = 4: the 4 hits.
    assert_eq!(dodge_against_a_smaller_attacker(""), (true, false, 4));
}

#[test]
fn ing_h27_option_size_shift_first() {
    // max(5, 6 - 2) = 5: the 4 misses.
    assert_eq!(
        dodge_against_a_smaller_attacker("[options]\nsize-shift = \"first\"\n"),
        (false, false, 5)
    );
}

#[test]
fn ing_h27_a_parry_adds_to_deflection_before_the_size_shift() {
    // Deflection 3 + arming sword's parry 2 - 1 (the attacker is larger by 1) = 4.
    // Evasion 2 + 1 = 3; 3 + 3 = 6 hits: 6 + 4 - 4 = 6.
    let toml = duel(
        &format!("{SPEARMAN}\nsize = 4"),
        "size = 3\nevasion = 2\ndeflection = 3\nitems = [\"arming-sword\"]",
        "",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.cmd("attack foe");
    t.dice(&[3, 3, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(t.results(), vec![(true, false, 3)]);
    assert_eq!(t.damage(), vec![("foe".into(), 6, 6, 0)]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// The older weapon properties (older-properties, default on)
// ---------------------------------------------------------------------------------------------

/// `hero` with `weapon` (STR d6, Combat d6) next to `f1` (east) and `f2` (north).
fn two_foes(weapon: &str, f1: &str, options: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}{options}",
            who(
                "hero",
                "pcs",
                "1,0",
                &format!("attributes = {{ str = 6, dex = 6 }}\nskills = {{ combat = 6 }}\nitems = [\"{weapon}\"]")
            ),
            who("f1", "foes", "2,0", f1),
            who("f2", "foes", "1,1", &target(20, 0, ""))
        ),
    )
}

#[test]
fn older_properties_swift_gives_1_on_later_attacks_with_the_weapon() {
    let mut t = T::turn_of(&two_foes("arming-sword", &target(20, 0, ""), ""), "hero");
    t.dice(&[3, 3, 10, 3, 3, 10]);
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(0, 0)]);
    t.cmd("attack f2");
    // On top of the multiple attack penalty: 6 - 2 + 1 = 5.
    assert_eq!(declared(&t), vec![(-2, 1)]);
    assert_eq!(t.attack_totals(), vec![5]);
}

#[test]
fn older_properties_cleave_gives_2_against_a_new_target() {
    let mut t = T::turn_of(&two_foes("felling-axe", &target(20, 0, ""), ""), "hero");
    t.dice(&[3, 3, 10, 3, 3, 10, 3, 3, 10]);
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(0, 0)]);
    t.cmd("attack f2");
    assert_eq!(declared(&t), vec![(-2, 2)]);
    // f1 is not a new target.
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(-4, 0)]);
}

#[test]
fn older_properties_backswing_gives_2_on_the_attack_after_a_miss() {
    // Evasion 8: a miss, then +2 (and -2): 6 + 6 = 12 hits; after the hit no bonus.
    let mut t = T::turn_of(
        &two_foes("war-maul", &target(8, 0, "endurance = 40\nconstitution = 30"), ""),
        "hero",
    );
    t.dice(&[1, 1, 10]);
    t.cmd("attack f1");
    assert_eq!(t.results(), vec![(false, false, 8)]);
    t.dice(&[6, 6, 10]);
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(-2, 2)]);
    assert_eq!(t.results(), vec![(true, false, 8)]);
    t.dice(&[6, 6, 10]);
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(-4, 0)]);
}

#[test]
fn older_properties_momentum_gives_1_against_a_target_already_hit() {
    let mut t = T::turn_of(&two_foes("cudgel", &target(2, 0, "endurance = 40"), ""), "hero");
    t.dice(&[3, 3, 10, 3, 3, 10, 3, 3, 10]);
    t.cmd("attack f1");
    assert_eq!(t.results(), vec![(true, false, 2)]);
    t.cmd("attack f1");
    assert_eq!(declared(&t), vec![(-2, 1)]);
    // f2 has not been hit.
    t.cmd("attack f2");
    assert_eq!(declared(&t), vec![(-4, 0)]);
}

#[test]
fn older_properties_option_off_removes_the_bonuses() {
    let toml = two_foes(
        "arming-sword",
        &target(20, 0, ""),
        "[options]\nolder-properties = false\n",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 3, 3, 10]);
    t.cmd("attack f1");
    t.cmd("attack f2");
    assert_eq!(declared(&t), vec![(-2, 0)]);
    let toml = two_foes(
        "felling-axe",
        &target(20, 0, ""),
        "[options]\nolder-properties = false\n",
    );
    let mut t = T::turn_of(&toml, "hero");
    t.dice(&[3, 3, 10, 3, 3, 10]);
    t.cmd("attack f1");
    t.cmd("attack f2");
    assert_eq!(declared(&t), vec![(-2, 0)]);
}

// ---------------------------------------------------------------------------------------------
// A Thrown weapon next to its target (`thrown-adjacent`, fray's reading of ING-R39)
// ---------------------------------------------------------------------------------------------

/// `crowd`, with the javelin thrower standing next to its target (3,0).
fn close_crowd(options: &str, foe_extra: &str) -> String {
    crowd("javelin", options)
        .replacen("at = \"0,0\"", "at = \"3,0\"", 1)
        .replacen(
            "id = \"foe\"\nteam = \"foes\"\nat = \"4,0\"\n",
            &format!("id = \"foe\"\nteam = \"foes\"\nat = \"4,0\"\n{foe_extra}\n"),
            1,
        )
}

fn thrown_events(t: &T) -> usize {
    t.last.iter().filter(|e| matches!(e, Event::Thrown { .. })).count()
}

#[test]
fn ing_r39_a_thrown_weapon_wielded_next_to_the_target_cannot_misfire() {
    // Luck die 1 with two others next to the target: a javelin stabbed in melee keeps to its
    // target and stays in hand.
    let mut t = T::turn_of(&close_crowd("", ""), "archer");
    t.dice(&[4, 3, 1]);
    t.cmd("attack foe");
    assert!(misfires(&t).is_empty());
    assert_eq!(t.damage(), vec![("foe".into(), 11, 11, 0)]);
    assert_eq!(thrown_events(&t), 0);
    t.assert_dice_used();
}

#[test]
fn ing_r39_option_thrown_adjacent_thrown_misfires_and_leaves_the_hand() {
    let mut t = T::turn_of(&close_crowd("[options]\nthrown-adjacent = \"thrown\"\n", ""), "archer");
    t.dice(&[4, 3, 1, 1]);
    t.cmd("attack foe");
    // The thrower itself is next to the target but is never the one hit: a d2 between the two
    // others.
    assert_eq!(misfires(&t), vec![("mate".into(), Some(1), 2)]);
    assert_eq!(thrown_events(&t), 1);
}

#[test]
fn ing_r47_a_thrown_weapon_wielded_in_melee_has_advantage_on_a_prone_target() {
    let mut t = T::turn_of(&close_crowd("", "conditions = [\"prone\"]"), "archer");
    t.dice(&[1, 3, 10, 5]);
    t.cmd("attack foe");
    assert!(
        t.log().iter().any(|l| l.contains("1 advantage (prone target (melee))")),
        "{:?}",
        t.log()
    );
    let mut t = T::turn_of(
        &close_crowd("[options]\nthrown-adjacent = \"thrown\"\n", "conditions = [\"prone\"]"),
        "archer",
    );
    t.dice(&[4, 3, 10, 1]);
    t.cmd("attack foe");
    assert!(
        t.log()
            .iter()
            .any(|l| l.contains("1 disadvantage (prone target (ranged))")),
        "{:?}",
        t.log()
    );
}
