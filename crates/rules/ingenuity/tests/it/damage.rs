//! Damage types, Harmed and Bloodied, staying conscious, death and killing strikes (ING-R56 to
//! ING-R66, ING-H4, ING-H5, ING-H8, ING-H23, ING-H24, ING-H26).

use crate::common;
use common::*;
use fray_ingenuity::calc;
use fray_ingenuity::data::{Cond, DamageClass, DamageType};
use fray_ingenuity::event::Event;

/// Test weapons: a typeless rock, a psychic spike, and two stunning rods (until the victim's
/// next turn; for the scene, as no duration is given).
const DAMAGE_ITEMS: &str = r#"
[[item]]
id = "rock"
attributes = ["str"]
damage = 2

[[item]]
id = "mind-spike"
attributes = ["int"]
damage = 2
type = "psychic"
range = 3

[[item]]
id = "daze-rod"
attributes = ["int"]
damage = 1
range = 3
effect = { condition = "stunned", defence = "willpower", difficulty = 9, lasts = "next-turn" }

[[item]]
id = "mind-lock"
attributes = ["int"]
damage = 1
range = 3
effect = { condition = "stunned", defence = "willpower", difficulty = 9 }
"#;

/// `fields` with no stamina and no focus left (plus `now`, e.g. ", endurance = 0"): no reaction
/// can be paid, so no defence is asked.
fn helpless(fields: &str, now: &str) -> String {
    format!("{fields}\nstamina = 1\nfocus = 1\nnow = {{ stamina = 0, focus = 0{now} }}")
}

/// `foe` (STR d6, INT d6, Combat d6, no proficiency, holding `foe_items`) next to `hero`; an
/// `ally` of the hero stands away (so the fight goes on when the hero drops) and cannot react.
/// The foes start.
fn fight(hero: &str, foe_items: &str, options: &str) -> String {
    enc(
        &[". . . . .", ". . . . ."],
        &format!(
            "[initiative]\nstarted-by = \"foes\"\n\n{options}\n{DAMAGE_ITEMS}\n{}{}{}",
            who("hero", "pcs", "1,0", hero),
            who(
                "foe",
                "foes",
                "2,0",
                &format!(
                    "attributes = {{ str = 6, int = 6 }}\nskills = {{ combat = 6 }}\nitems = [{foe_items}]\nheld = [{foe_items}]"
                )
            ),
            who("ally", "pcs", "4,1", "stamina = 1\nnow = { stamina = 0 }"),
        ),
    )
}

/// The foe's turn.
fn foe_turn(hero: &str, foe_items: &str, options: &str) -> T {
    T::turn_of(&fight(hero, foe_items, options), "foe")
}

/// The damage reductions among the last events.
fn reduced_by(t: &T) -> Vec<i16> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { reduced_by, .. } => Some(*reduced_by),
            _ => None,
        })
        .collect()
}

/// The death checks among the last events: (luck, difficulty, survived).
fn death_checks(t: &T) -> Vec<(u16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::DeathCheck {
                luck,
                difficulty,
                survived,
                ..
            } => Some((*luck, *difficulty, *survived)),
            _ => None,
        })
        .collect()
}

fn has_event(t: &T, f: impl Fn(&Event) -> bool) -> bool {
    t.last.iter().any(f)
}

// ---------------------------------------------------------------------------------------------
// Damage types (ING-R56, ING-R57)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r56_damage_types_and_their_families() {
    use DamageType::*;
    for d in [Bludgeoning, Piercing, Slashing] {
        assert_eq!(d.class(), DamageClass::Physical, "{d:?}");
    }
    for d in [Arcane, Cold, Fire, Radiant, Shock, Void] {
        assert_eq!(d.class(), DamageClass::Elemental, "{d:?}");
    }
    for d in [Psychic, Typeless] {
        assert_eq!(d.class(), DamageClass::Typeless, "{d:?}");
    }
    // An item without a stated type deals typeless damage.
    let t = foe_turn(&helpless("", ""), "\"rock\"", "");
    let rock = t.s().setup.armoury.find("rock").unwrap();
    assert_eq!(t.s().setup.armoury.item(rock).damage_type, Typeless);
}

const ARMOURED: &str =
    "evasion = 0\ndeflection = 5\nelemental-deflection = 2\nstamina = 1\nfocus = 1\nnow = { stamina = 0, focus = 0 }";

#[test]
fn ing_r57_physical_damage_is_reduced_by_physical_deflection() {
    let mut t = foe_turn(ARMOURED, "\"spear\"", "");
    // 3 + 3 = 6 + spear 4 = 10 piercing, minus 5.
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert_eq!(t.damage(), vec![("hero".into(), 5, 5, 0)]);
    assert_eq!(reduced_by(&t), vec![5]);
}

#[test]
fn ing_r57_elemental_damage_is_reduced_by_elemental_deflection() {
    let mut t = foe_turn(ARMOURED, "\"ember-rod\"", "");
    // 3 + 3 = 6 + ember rod 3 = 9 fire, minus 2.
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert_eq!(t.damage(), vec![("hero".into(), 7, 7, 0)]);
    assert_eq!(reduced_by(&t), vec![2]);
}

#[test]
fn ing_r57_typeless_and_psychic_damage_is_not_reduced() {
    for weapon in ["\"rock\"", "\"mind-spike\""] {
        let mut t = foe_turn(ARMOURED, weapon, "");
        // 3 + 3 = 6 + 2 = 8, no deflection applies.
        t.dice(&[3, 3, 10]);
        t.cmd("attack hero");
        assert_eq!(t.damage(), vec![("hero".into(), 8, 8, 0)], "{weapon}");
        assert_eq!(reduced_by(&t), vec![0], "{weapon}");
    }
}

/// The hero guards, then the foe (in round 2) hits it with the ember rod (9 fire damage).
fn guarded_then_burned(options: &str) -> T {
    let hero = helpless("evasion = 0\ndeflection = 5\nelemental-deflection = 2", "");
    let mut t = foe_turn(&hero, "\"ember-rod\"", options);
    t.cmds(&["end", "pick hero", "guard", "pick ally", "end", "pick foe"]);
    assert!(t.ch("hero").has(Cond::Guarding));
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    t
}

#[test]
fn ing_r21_ing_r57_guard_adds_1_to_elemental_deflection_too() {
    // 9 fire minus elemental deflection 2 + Guard 1.
    let t = guarded_then_burned("");
    assert_eq!(reduced_by(&t), vec![3]);
    assert_eq!(t.damage(), vec![("hero".into(), 6, 6, 0)]);
}

#[test]
fn ing_r21_option_guard_does_not_cover_elemental_deflection() {
    let t = guarded_then_burned("[options]\nguard-covers-deflection = false");
    assert_eq!(reduced_by(&t), vec![2]);
    assert_eq!(t.damage(), vec![("hero".into(), 7, 7, 0)]);
}

// ---------------------------------------------------------------------------------------------
// Harmed (ING-R58) and Bloodied (ING-R59)
// ---------------------------------------------------------------------------------------------

fn harmed(t: &T) -> bool {
    calc::harmed(t.s(), t.id("hero"))
}

fn bloodied(t: &T) -> bool {
    calc::bloodied(t.s(), t.id("hero"))
}

#[test]
fn ing_r58_harmed_at_half_endurance_rounded_up() {
    // Maximum 13: half rounds up to 7.
    let hero = helpless("evasion = 0\ndeflection = 0\nendurance = 13", "");
    let mut t = foe_turn(&hero, "\"rock\"", "");
    assert!(!harmed(&t));
    // 2 + 2 = 4 + rock 2 = 6: 7 left.
    t.dice(&[2, 2, 10]);
    t.cmd("attack hero");
    assert_eq!(t.ch("hero").endurance, 7);
    assert!(harmed(&t));
    let t = foe_turn(&helpless("endurance = 13", ", endurance = 8"), "\"rock\"", "");
    assert!(!harmed(&t));
}

#[test]
fn ing_r58_option_harmed_rounding_down() {
    let opt = "[options]\nharmed-rounding = \"down\"";
    let hero = helpless("evasion = 0\ndeflection = 0\nendurance = 13", "");
    let mut t = foe_turn(&hero, "\"rock\"", opt);
    t.dice(&[2, 2, 10]);
    t.cmd("attack hero");
    // 7 of 13 is not at most 6.
    assert_eq!(t.ch("hero").endurance, 7);
    assert!(!harmed(&t));
    let t = foe_turn(&helpless("endurance = 13", ", endurance = 6"), "\"rock\"", opt);
    assert!(harmed(&t));
}

#[test]
fn ing_r59_bloodied_once_health_is_below_its_maximum() {
    let hero = helpless("evasion = 0\ndeflection = 0\nhealth = 10", ", endurance = 2");
    let mut t = foe_turn(&hero, "\"rock\"", "");
    // Harmed (2 of 12 endurance) but not bloodied yet.
    assert!(harmed(&t));
    assert!(!bloodied(&t));
    // 1 + 1 + 2 = 4: 2 from endurance, 2 from health.
    t.dice(&[1, 1, 10]);
    t.cmd("attack hero");
    assert_eq!(t.damage(), vec![("hero".into(), 4, 2, 2)]);
    assert_eq!(t.ch("hero").health, 8);
    assert!(bloodied(&t));
    assert!(t.log().iter().any(|l| l.contains("bloodied")), "{:?}", t.log());
}

// ---------------------------------------------------------------------------------------------
// Staying conscious (ING-R60, ING-H8, ING-H24)
// ---------------------------------------------------------------------------------------------

/// Constitution 4, full health 12, no endurance left, can react.
const WEARY: &str = "evasion = 0\ndeflection = 0\nhealth = 12\nconstitution = 4\nnow = { endurance = 0 }";

/// The foe hits the hero (who passes on defences) for 2 + `total` with the rock.
fn rocked(hero: &str, options: &str, dice: &[u16]) -> T {
    let mut t = foe_turn(hero, "\"rock\"", options);
    t.cmd("attack hero");
    assert_eq!(t.pending(), ("defence", "hero".into()));
    t.dice(dice);
    t.cmd("pass");
    t
}

#[test]
fn ing_r60_missing_health_equal_to_constitution_needs_no_fortify() {
    // 1 + 1 + 2 = 4 health lost, not more than constitution 4.
    let t = rocked(WEARY, "", &[1, 1, 10]);
    assert_eq!(t.ch("hero").health, 8);
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert!(!t.ch("hero").unconscious);
}

#[test]
fn ing_r60_ing_r65_a_failed_fortify_knocks_out() {
    // 3 + 3 + 2 = 8 health lost: missing 8 > 4.
    let mut t = rocked(WEARY, "", &[3, 3, 10]);
    assert_eq!(t.ch("hero").health, 4);
    assert_eq!(t.pending(), ("fortify", "hero".into()));
    // STR 1 + Athletics 1 = 2; max(2, constitution 4) = 4 < 8.
    t.dice(&[1, 1, 10]);
    t.cmd("fortify");
    let f = t.last.iter().find_map(|e| match e {
        Event::Fortified {
            difficulty,
            result,
            stayed,
            ..
        } => Some((*difficulty, *result, *stayed)),
        _ => None,
    });
    assert_eq!(f, Some((8, 4, false)));
    assert!(t.ch("hero").unconscious);
    assert!(!t.ch("hero").dead);
    assert_eq!(t.ch("hero").stamina, 11);
    // ING-R65: unconscious means prone too.
    assert!(t.ch("hero").has(Cond::Prone));
    t.assert_dice_used();
}

#[test]
fn ing_r60_the_character_may_fall_unconscious_instead() {
    let mut t = rocked(WEARY, "", &[3, 3, 10]);
    t.cmd("fall");
    assert!(t.ch("hero").unconscious);
    assert_eq!(t.ch("hero").stamina, 12);
    t.assert_dice_used();
}

#[test]
fn ing_h8_no_reaction_left_means_unconscious() {
    let mut t = foe_turn(WEARY, "\"rock\"", "");
    t.cmd("attack hero");
    // The hero dodges (the round's reaction): 2, then the attack's 6 hits for 8.
    t.dice(&[1, 1, 10, 3, 3, 10]);
    t.cmd("dodge");
    assert_eq!(t.ch("hero").health, 4);
    assert!(t.ch("hero").unconscious);
    assert!(has_event(&t, |e| matches!(e, Event::KnockedOut { .. })));
    assert!(!has_event(&t, |e| matches!(e, Event::Fortified { .. })));
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_h8_no_stamina_left_means_unconscious() {
    let hero = "evasion = 0\ndeflection = 0\nhealth = 12\nconstitution = 4\nstamina = 1\nfocus = 1\nnow = { endurance = 0, stamina = 0 }";
    let mut t = foe_turn(hero, "\"rock\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert_eq!(t.ch("hero").health, 4);
    assert!(t.ch("hero").unconscious);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_h8_option_fortify_without_stamina_is_allowed() {
    let hero = "evasion = 0\ndeflection = 0\nhealth = 12\nconstitution = 4\nstamina = 1\nfocus = 1\nnow = { endurance = 0, stamina = 0 }";
    let mut t = foe_turn(hero, "\"rock\"", "[options]\nfortify-without = \"allowed\"");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert_eq!(t.pending(), ("fortify", "hero".into()));
    // 6 + 4 = 10 >= 8: conscious, and nothing was paid.
    t.dice(&[6, 4, 10]);
    t.cmd("fortify");
    assert!(!t.ch("hero").unconscious);
    assert_eq!(t.ch("hero").stamina, 0);
    assert_eq!(t.ch("hero").econ.reactions_left(), 1);
}

/// Boudica as the chapter gives her, without the printed constitution override.
const BOUDICA: &str = "attributes = { str = 6, res = 6 }\nskills = { athletics = 4 }\nproficiencies = { fortitude = 1 }\nhealth = 12\nendurance = 12\nevasion = 0\ndeflection = 0\nnow = { endurance = 5 }";

#[test]
fn ing_h24_with_the_derived_constitution_boudica_needs_no_fortify() {
    // Constitution RES 3 + STR 3 + 1 = 7. She takes 4 + 4 + 2 = 10: endurance 0, health 7;
    // missing 5 is not more than 7.
    let t = rocked(BOUDICA, "", &[4, 4, 10]);
    assert_eq!(t.s().info(t.id("hero")).stats.constitution, 7);
    assert_eq!(t.ch("hero").health, 7);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_h24_option_older_formula_gives_boudica_her_printed_constitution_4() {
    let t = rocked(BOUDICA, "[options]\ndefence-formula = \"older\"", &[4, 4, 10]);
    assert_eq!(t.s().info(t.id("hero")).stats.constitution, 4);
    assert_eq!(t.pending(), ("fortify", "hero".into()));
}

// ---------------------------------------------------------------------------------------------
// Zero health and death (ING-R61, ING-R62, ING-R63, ING-H23)
// ---------------------------------------------------------------------------------------------

/// Health 5, no endurance, cannot react.
const FRAIL: &str =
    "evasion = 0\ndeflection = 0\nhealth = 5\nstamina = 1\nfocus = 1\nnow = { endurance = 0, stamina = 0, focus = 0 }";

#[test]
fn ing_r61_ing_h23_reduced_to_exactly_zero_is_unconscious_without_a_death_check() {
    let mut t = foe_turn(FRAIL, "\"rock\"", "");
    // 2 + 1 + 2 = 5: health 0, not more than the 5 it had.
    t.dice(&[2, 1, 10]);
    t.cmd("attack hero");
    assert_eq!(t.ch("hero").health, 0);
    assert!(t.ch("hero").unconscious);
    assert!(t.ch("hero").has(Cond::Prone));
    assert!(death_checks(&t).is_empty());
    assert!(!has_event(&t, |e| matches!(e, Event::Fortified { .. })));
    assert_eq!(t.pending(), ("turn", "foe".into()));
    t.assert_dice_used();
}

#[test]
fn ing_h23_only_the_damage_that_reaches_health_counts() {
    // Endurance 3, health 5; 3 + 3 + 2 = 8 damage: 3 to endurance, 5 to health. The hit is
    // larger than the health left, but what reached health is not: no death check.
    let hero = FRAIL.replace("endurance = 0", "endurance = 3");
    let mut t = foe_turn(&hero, "\"rock\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert_eq!(t.damage(), vec![("hero".into(), 8, 3, 5)]);
    assert!(t.ch("hero").unconscious);
    assert!(death_checks(&t).is_empty());
    t.assert_dice_used();
}

#[test]
fn ing_h23_option_any_zero_makes_a_death_check_whenever_health_reaches_zero() {
    let hero = FRAIL.replace("endurance = 0", "endurance = 3");
    let mut t = foe_turn(&hero, "\"rock\"", "[options]\ndeath-check = \"any-zero\"");
    t.dice(&[3, 3, 10, 12]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(12, 10, true)]);
    t.assert_dice_used();
}

#[test]
fn ing_r62_cheating_death_raises_the_difficulty_by_5_for_good() {
    let mut t = foe_turn(FRAIL, "\"rock\"", "");
    // 2 + 2 + 2 = 6 > 5: a luck test against 10; 12 survives.
    t.dice(&[2, 2, 10, 12]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(12, 10, true)]);
    assert!(t.ch("hero").unconscious);
    assert!(!t.ch("hero").dead);
    assert_eq!(t.ch("hero").death_difficulty, 15);
    // A round later it is still 15.
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    t.cmd("pick foe");
    assert_eq!(t.ch("hero").death_difficulty, 15);
    // More damage at zero health: another check, now against 15, which 14 fails. (The attack on
    // the unconscious, prone hero has two advantages: two rerolls.)
    t.dice(&[1, 1, 10, 1, 1, 14]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(14, 15, false)]);
    assert!(t.ch("hero").dead);
    t.assert_dice_used();
}

#[test]
fn ing_r62_the_death_difficulty_is_kept_per_character() {
    // A character who already cheated death once (in an earlier fight) starts at 15.
    let hero = format!("{FRAIL}\ndeath-difficulty = 15");
    let mut t = foe_turn(&hero, "\"rock\"", "");
    t.dice(&[2, 2, 10, 14]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(14, 15, false)]);
    assert!(t.ch("hero").dead);
}

#[test]
fn ing_r62_a_campaign_keeps_a_dead_character_dead() {
    use fray_engine::text::TextRuleset;
    let hero = format!("{FRAIL}\ndeath-difficulty = 15");
    let mut t = foe_turn(&hero, "\"rock\"", "");
    t.dice(&[2, 2, 10, 14]);
    t.cmd("attack hero");
    assert!(t.ch("hero").dead);
    let lasting = fray_ingenuity::Ingenuity::lasting(t.s());
    let hero = lasting
        .iter()
        .find(|l| l.id == "hero")
        .expect("the hero is the players'");
    assert_eq!(hero.values.last(), Some(&("dead".to_string(), "true".to_string())));
}

#[test]
fn ing_r62_option_death_difficulty() {
    let mut t = foe_turn(FRAIL, "\"rock\"", "[options]\ndeath-difficulty = 12");
    t.dice(&[2, 2, 10, 11]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(11, 12, false)]);
    assert!(t.ch("hero").dead);
}

#[test]
fn ing_r62_option_death_difficulty_step() {
    let mut t = foe_turn(FRAIL, "\"rock\"", "[options]\ndeath-difficulty-step = 3");
    t.dice(&[2, 2, 10, 10]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(10, 10, true)]);
    assert_eq!(t.ch("hero").death_difficulty, 13);
}

#[test]
fn ing_r63_nonlethal_damage_makes_no_death_check_until_more_damage_at_zero() {
    let hero = FRAIL.replace("health = 5", "health = 3");
    let mut t = foe_turn(&hero, "\"club\"", "");
    // 2 + 2 + club 2 = 6 > 3 from a nonlethal weapon: unconscious, no death check.
    t.dice(&[2, 2, 10]);
    t.cmd("attack hero");
    assert_eq!(t.ch("hero").health, 0);
    assert!(t.ch("hero").unconscious);
    assert!(death_checks(&t).is_empty());
    assert!(has_event(&t, |e| matches!(e, Event::SparedByNonlethal { .. })));
    // More damage at zero health, nonlethal included: a death check (luck 1 fails).
    t.dice(&[1, 1, 10, 1, 1, 1]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(1, 10, false)]);
    assert!(t.ch("hero").dead);
    t.assert_dice_used();
}

#[test]
fn ing_r63_lethal_damage_to_a_character_at_zero_health_risks_death() {
    let hero = "evasion = 0\ndeflection = 0\nunconscious = true\nnow = { health = 0, endurance = 0 }";
    let mut t = foe_turn(hero, "\"spear\"", "");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("attack hero");
    assert_eq!(death_checks(&t), vec![(10, 10, true)]);
    assert!(!t.ch("hero").dead);
    assert_eq!(t.ch("hero").death_difficulty, 15);
}

// ---------------------------------------------------------------------------------------------
// Unconscious and conditions (ING-R65, ING-R66)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r65_an_unconscious_character_is_prone_and_cannot_act_or_react() {
    // Starting at zero health is starting unconscious: prone too.
    let hero = "evasion = 0\ndeflection = 0\nnow = { health = 0 }";
    let mut t = T::new(&fight(hero, "\"spear\"", ""));
    assert!(t.ch("hero").unconscious);
    assert!(t.ch("hero").has(Cond::Prone));
    t.cmd("pick foe");
    // No defence is asked of an unconscious target: the attack rolls at once.
    t.dice(&[1, 1, 10, 1, 1]);
    t.cmd("attack hero");
    assert_eq!(t.results().len(), 1);
    t.cmd("end");
    // And it cannot be given a turn.
    assert_eq!(t.reject("pick hero").code, "not-now");
    // A GM knockout makes a character prone as well.
    t.cmd("gm knockout ally");
    assert!(t.ch("ally").has(Cond::Prone));
}

#[test]
fn ing_r66_a_condition_without_a_duration_lasts_the_scene() {
    let hero = helpless("evasion = 0\ndeflection = 0\nwillpower = 0", "");
    let mut t = foe_turn(&hero, "\"mind-lock\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert!(t.ch("hero").has(Cond::Stunned));
    assert_eq!(t.ch("hero").conds_until_turn, 0);
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    // Round 2: still stunned.
    assert_eq!(t.s().round, 2);
    assert!(t.ch("hero").has(Cond::Stunned));
}

#[test]
fn ing_r66_the_stronger_instance_of_a_condition_applies() {
    let hero = helpless("evasion = 0\ndeflection = 0\nwillpower = 0", "");
    // Stunned until its next turn, then stunned for the scene: one instance, for the scene.
    let mut t = foe_turn(&hero, "\"daze-rod\", \"mind-lock\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero with daze-rod");
    assert_ne!(t.ch("hero").conds_until_turn & Cond::Stunned.bit(), 0);
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero with mind-lock");
    assert!(t.ch("hero").has(Cond::Stunned));
    assert_eq!(t.ch("hero").conds_until_turn & Cond::Stunned.bit(), 0);
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    assert_eq!(t.s().round, 2);
    assert!(t.ch("hero").has(Cond::Stunned));
}

#[test]
fn ing_r66_a_shorter_instance_does_not_cut_a_longer_one_short() {
    let hero = helpless("evasion = 0\ndeflection = 0\nwillpower = 0", "");
    let mut t = foe_turn(&hero, "\"mind-lock\", \"daze-rod\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero with mind-lock");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero with daze-rod");
    assert_eq!(t.ch("hero").conds_until_turn & Cond::Stunned.bit(), 0);
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    assert!(t.ch("hero").has(Cond::Stunned));
}

#[test]
fn a_stun_until_the_next_turn_ends_with_the_round_when_no_turn_could_be_taken() {
    // fray's handling of a stated duration (the daze rod's "next-turn"), not a rule of the
    // chapter: the scene-long default only applies to conditions without a duration.
    let hero = helpless("evasion = 0\ndeflection = 0\nwillpower = 0", "");
    let mut t = foe_turn(&hero, "\"daze-rod\"", "");
    t.dice(&[3, 3, 10]);
    t.cmd("attack hero");
    assert!(t.ch("hero").has(Cond::Stunned));
    t.cmd("end");
    t.cmd("pick ally");
    t.cmd("end");
    assert_eq!(t.s().round, 2);
    assert!(!t.ch("hero").has(Cond::Stunned));
}

// ---------------------------------------------------------------------------------------------
// Killing strike (ING-R64, ING-H4, ING-H5, ING-H26)
// ---------------------------------------------------------------------------------------------

/// `hero` (STR d6, Combat d6, Martial +1, spear and club in hand) next to an unconscious
/// `victim` (constitution 7, evasion 3); a conscious foe stands away. The heroes start.
fn execution(options: &str) -> T {
    let toml = enc(
        &[". . . . .", ". . . . ."],
        &format!(
            "{options}\n{}{}{}",
            who(
                "hero",
                "pcs",
                "1,0",
                "skills = { combat = 6 }\nproficiencies = { martial = 1 }\nitems = [\"spear\", \"club\"]\nheld = [\"spear\", \"club\"]"
            ),
            who(
                "victim",
                "foes",
                "2,0",
                "unconscious = true\nconstitution = 7\nevasion = 3\ndeflection = 0"
            ),
            who("other", "foes", "4,1", "stamina = 1\nnow = { stamina = 0 }"),
        ),
    );
    T::turn_of(&toml, "hero")
}

/// The killing strike tests among the last events: (total, bonus, rerolls, difficulty, success).
fn strikes(t: &T) -> Vec<(i16, i16, usize, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested {
                what,
                roll,
                difficulty,
                success,
                ..
            } if what.starts_with("killing strike") => {
                Some((roll.total, roll.bonus, roll.rerolls.len(), *difficulty, *success))
            }
            _ => None,
        })
        .collect()
}

/// The attack rolls among the last events: (advantage, reasons).
fn attack_rolls(t: &T) -> Vec<(i8, Vec<String>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::AttackRolled { advantage, reasons, .. } => Some((*advantage, reasons.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn ing_r64_ing_h4_a_killing_strike_takes_three_actions_and_kills_on_success() {
    let mut t = execution("");
    // Advantage, plus the prone target's (ING-H26): two rerolls. STR 4 + Combat 3 (rerolled:
    // 2 kept out, then 5) + Martial 1 = 10 against constitution 7.
    t.dice(&[4, 3, 10, 2, 5]);
    t.cmd("kill victim");
    assert_eq!(strikes(&t), vec![(10, 1, 2, 7, true)]);
    assert!(t.ch("victim").dead);
    assert_eq!(t.ch("hero").econ.actions, 0);
    // It counts as one attack (ING-H26).
    assert_eq!(t.ch("hero").attacks_round, 1);
    t.assert_dice_used();
}

#[test]
fn ing_r64_ing_h26_a_failed_killing_strike_becomes_a_sneak_attack() {
    let mut t = execution("");
    // 1 + 1 + 1 = 3 < 7; then a fresh attack roll with the sneak attack's advantage and the
    // prone target's: 3 + 3 + 1 = 7 against evasion 3, 7 + 4 = 11 damage.
    t.dice(&[1, 1, 10, 1, 1, 3, 3, 10, 1, 1]);
    t.cmd("kill victim");
    assert_eq!(strikes(&t), vec![(3, 1, 2, 7, false)]);
    assert!(!t.ch("victim").dead);
    let rolls = attack_rolls(&t);
    assert_eq!(rolls.len(), 1);
    assert_eq!(rolls[0].0, 2);
    assert!(rolls[0].1.iter().any(|r| r == "sneak attack"), "{:?}", rolls[0].1);
    assert_eq!(t.results(), vec![(true, false, 3)]);
    assert_eq!(t.damage(), vec![("victim".into(), 11, 11, 0)]);
    // Part of the same action: still one attack.
    assert_eq!(t.ch("hero").attacks_round, 1);
    t.assert_dice_used();
}

#[test]
fn ing_h26_option_killing_strike_reuse_roll() {
    let mut t = execution("[options]\nkilling-strike-reuse-roll = true");
    // The failed test's 3 is the sneak attack's total: 3 meets evasion 3, 3 + 4 = 7 damage.
    t.dice(&[1, 1, 10, 1, 1]);
    t.cmd("kill victim");
    assert_eq!(strikes(&t), vec![(3, 1, 2, 7, false)]);
    assert!(t.attack_totals().is_empty());
    assert_eq!(t.damage(), vec![("victim".into(), 7, 7, 0)]);
    t.assert_dice_used();
}

#[test]
fn ing_h26_option_killing_strike_without_stacked_advantage() {
    let mut t = execution("[options]\nkilling-strike-stack-advantage = false");
    // Only the killing strike's own advantage: one reroll.
    t.dice(&[4, 3, 10, 5]);
    t.cmd("kill victim");
    assert_eq!(strikes(&t), vec![(10, 1, 1, 7, true)]);
    t.assert_dice_used();
}

#[test]
fn ing_h26_the_killing_strike_takes_the_multiple_attack_penalty() {
    let mut t = execution("[options]\nkilling-strike-actions = 1");
    // A first attack (1 + 1 + 1 = 3 hits evasion 3), then the strike at -2.
    t.dice(&[1, 1, 10, 1, 1]);
    t.cmd("attack victim");
    t.dice(&[6, 6, 10, 1, 1]);
    t.cmd("kill victim");
    // 6 + 6 + 1 - 2 = 11.
    assert_eq!(strikes(&t), vec![(11, -1, 2, 7, true)]);
    assert_eq!(t.ch("hero").attacks_round, 2);
}

#[test]
fn ing_h4_with_fewer_than_three_actions_the_killing_strike_carries_over() {
    let mut t = execution("");
    t.cmd("interact look around");
    t.cmd("kill victim");
    let ext = t.last.iter().find_map(|e| match e {
        Event::ExtendedStarted { cost, owed, .. } => Some((*cost, *owed)),
        _ => None,
    });
    assert_eq!(ext, Some((3, 1)));
    assert!(strikes(&t).is_empty());
    assert!(!t.ch("victim").dead);
}

#[test]
fn ing_h4_option_killing_strike_actions() {
    let mut t = execution("[options]\nkilling-strike-actions = 1");
    t.dice(&[4, 3, 10, 2, 5]);
    t.cmd("kill victim");
    assert!(t.ch("victim").dead);
    assert_eq!(t.ch("hero").econ.actions, 2);
}

#[test]
fn ing_r64_only_an_unconscious_character_can_be_struck() {
    let mut t = execution("");
    assert_eq!(t.reject("kill other").code, "invalid-target");
}

#[test]
fn ing_h5_any_weapon_may_make_a_killing_strike() {
    let mut t = execution("");
    t.dice(&[4, 3, 10, 2, 5]);
    t.cmd("kill victim with club");
    assert!(t.ch("victim").dead);
}

#[test]
fn ing_h5_option_lethal_only() {
    let mut t = execution("[options]\nkilling-strike-weapons = \"lethal-only\"");
    assert_eq!(t.reject("kill victim with club").code, "no-weapon");
    t.dice(&[4, 3, 10, 2, 5]);
    t.cmd("kill victim with spear");
    assert!(t.ch("victim").dead);
}

#[test]
fn ing_h5_option_nonlethal_only() {
    let mut t = execution("[options]\nkilling-strike-weapons = \"nonlethal-only\"");
    assert_eq!(t.reject("kill victim with spear").code, "no-weapon");
    t.dice(&[4, 3, 10, 2, 5]);
    t.cmd("kill victim with club");
    assert!(t.ch("victim").dead);
}
