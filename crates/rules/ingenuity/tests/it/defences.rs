//! Defensive reactions: dodge, fortify, resist, block, parry, item durability (ING-R48 to
//! ING-R55, ING-H3, ING-H6, ING-H7, ING-H12, ING-H24).

use crate::common;
use common::*;
use fray_ingenuity::data::Cond;
use fray_ingenuity::event::{DefenceKind, Event};

/// Test weapons with on-hit effects: a hook that knocks prone (physical, difficulty 8) and a hex
/// rod that stuns until the victim's next turn (mental, difficulty 9), and a tall shield.
const EFFECT_ITEMS: &str = r#"
[[item]]
id = "hook"
attributes = ["str"]
damage = 1
type = "bludgeoning"
effect = { condition = "prone", defence = "constitution", difficulty = 8 }

[[item]]
id = "hex-rod"
attributes = ["int"]
damage = 1
range = 6
effect = { condition = "stunned", defence = "willpower", difficulty = 9, lasts = "next-turn" }

[[item]]
id = "tower"
block = 8
durability = 6
"#;

/// `foe` (STR d6 + Combat d6, no proficiency) with `foe_items` next to `hero` (a wall west of
/// the hero); the foes start, so `T::turn_of(.., "foe")` gives the foe the first turn.
fn duel(hero: &str, foe_items: &str, options: &str) -> String {
    scene("foes", hero, foe_items, options)
}

fn scene(first: &str, hero: &str, foe_items: &str, options: &str) -> String {
    enc(
        &["x . . .", "x . . ."],
        &format!(
            "[initiative]\nstarted-by = \"{first}\"\n\n{options}\n{EFFECT_ITEMS}\n{}{}",
            who("hero", "pcs", "1,0", hero),
            who(
                "foe",
                "foes",
                "2,0",
                &format!("attributes = {{ str = 6, int = 6 }}\nskills = {{ combat = 6 }}\nitems = [{foe_items}]")
            ),
        ),
    )
}

/// The foe attacks the hero; the hero is asked for a defence before the roll.
fn attacked(hero: &str, foe_items: &str, options: &str) -> T {
    let mut t = T::turn_of(&duel(hero, foe_items, options), "foe");
    t.cmd("attack hero");
    assert_eq!(t.pending(), ("defence", "hero".into()));
    t
}

/// The (kind, test total) of the defences in the last events.
fn defended(t: &T) -> Vec<(DefenceKind, Option<i16>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Defended { kind, roll, .. } => Some((*kind, roll.as_ref().map(|r| r.total))),
            _ => None,
        })
        .collect()
}

/// The effect tests in the last events: (condition, difficulty, defence, resisted).
fn effects(t: &T) -> Vec<(Cond, i16, i16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::EffectTested {
                cond,
                difficulty,
                defence,
                resisted,
                ..
            } => Some((*cond, *difficulty, *defence, *resisted)),
            _ => None,
        })
        .collect()
}

/// Blocks in the last events: (damage to the item, overflow).
fn blocks(t: &T) -> Vec<(i16, i16)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Blocked { to_item, overflow, .. } => Some((*to_item, *overflow)),
            _ => None,
        })
        .collect()
}

/// The durability of the hero's item `id`.
fn durability(t: &T, id: &str) -> i16 {
    let s = t.s();
    t.ch("hero")
        .items
        .iter()
        .find(|k| s.setup.armoury.item(k.item).id == id)
        .unwrap_or_else(|| panic!("hero carries no {id}"))
        .durability
}

// ---------------------------------------------------------------------------------------------
// Dodge (ING-R48)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r48_a_dodge_roll_above_evasion_is_the_evasion_to_beat() {
    let mut t = attacked(
        "evasion = 4\ndeflection = 0\nproficiencies = { dodge = 1 }",
        "\"spear\"",
        "",
    );
    // Dodge: DEX 5 + Agility 3 + Dodge 1 = 9; then the attack: 4 + 4 = 8 misses 9.
    t.dice(&[5, 3, 10, 4, 4, 10]);
    t.cmd("dodge");
    assert_eq!(defended(&t), vec![(DefenceKind::Dodge, Some(9))]);
    assert_eq!(t.attack_totals(), vec![8]);
    assert_eq!(t.results(), vec![(false, false, 9)]);
    // A dodge costs 1 stamina and the reaction.
    assert_eq!(t.ch("hero").stamina, 11);
    assert_eq!(t.ch("hero").econ.reactions_left(), 0);
    t.assert_dice_used();
}

#[test]
fn ing_r48_a_low_dodge_roll_keeps_the_evasion() {
    let mut t = attacked("evasion = 7\ndeflection = 0", "\"spear\"", "");
    // Dodge: 1 + 1 = 2, below evasion 7: max(2, 7) = 7; the attack's 4 + 3 = 7 still hits.
    t.dice(&[1, 1, 10, 4, 3, 10]);
    t.cmd("dodge");
    assert_eq!(defended(&t), vec![(DefenceKind::Dodge, Some(2))]);
    assert_eq!(t.results(), vec![(true, false, 7)]);
    assert_eq!(t.damage(), vec![("hero".into(), 11, 11, 0)]);
    // Hit or miss, the dodger may then drop prone, seek cover or step.
    assert_eq!(t.pending(), ("after-dodge", "hero".into()));
}

#[test]
fn ing_r48_after_a_dodge_the_dodger_may_step_drop_prone_and_seek_cover_once_each() {
    let mut t = attacked("evasion = 7", "\"spear\"", "");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(t.pending(), ("after-dodge", "hero".into()));
    // At most 1 m.
    assert_eq!(t.reject("step 3,1").code, "out-of-range");
    assert_eq!(t.reject("step 0,0").code, "blocked");
    t.cmd("step 1,1");
    assert_eq!(t.ch("hero").pos, Some("1,1".parse().unwrap()));
    assert_eq!(t.pending(), ("after-dodge", "hero".into()));
    assert_eq!(t.reject("step 3,1").code, "not-now");
    t.cmd("prone");
    assert!(t.ch("hero").has(Cond::Prone));
    assert_eq!(t.reject("prone").code, "not-now");
    t.cmd("seek-cover");
    assert!(t.ch("hero").has(Cond::Cover));
    // All three used: the foe's turn goes on.
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_r48_the_dodger_may_pass_on_the_options() {
    let mut t = attacked("evasion = 7", "\"spear\"", "");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    t.cmd("pass");
    assert_eq!(t.pending(), ("turn", "foe".into()));
    assert!(!t.ch("hero").has(Cond::Prone));
    assert_eq!(t.ch("hero").pos, Some("1,0".parse().unwrap()));
}

#[test]
fn ing_r28_ing_r31_a_dodge_after_wait_uses_one_of_the_two_reactions() {
    // Wait leaves two reactions until the next turn; a dodge (1 stamina) uses one of them.
    let mut t = T::turn_of(&scene("pcs", "evasion = 7", "\"spear\"", ""), "hero");
    t.cmd("wait");
    t.cmd("pick foe");
    t.cmd("attack hero");
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(t.ch("hero").stamina, 11);
    assert_eq!(t.ch("hero").econ.reactions_left(), 1);
    t.cmd("pass");
    // The second attack can be dodged too.
    t.cmd("attack hero");
    assert_eq!(t.pending(), ("defence", "hero".into()));
    t.dice(&[1, 1, 10, 1, 1, 10]);
    t.cmd("dodge");
    assert_eq!(t.ch("hero").stamina, 10);
    assert_eq!(t.ch("hero").econ.reactions_left(), 0);
}

// ---------------------------------------------------------------------------------------------
// Fortify (ING-R49) and Resist (ING-R50) against on-hit effects
// ---------------------------------------------------------------------------------------------

const FORTIFIER: &str = "evasion = 0\ndeflection = 0\nconstitution = 5\nproficiencies = { fortitude = 1 }";

#[test]
fn ing_r49_fortify_rolls_str_athletics_fortitude_against_a_physical_effect() {
    let mut t = attacked(FORTIFIER, "\"hook\"", "");
    // Fortify: STR 5 + Athletics 2 + Fortitude 1 = 8; the attack 3 + 3 = 6 hits for 7.
    t.dice(&[5, 2, 10, 3, 3, 10]);
    t.cmd("fortify");
    assert_eq!(defended(&t), vec![(DefenceKind::Fortify, Some(8))]);
    assert_eq!(t.damage(), vec![("hero".into(), 7, 7, 0)]);
    // 8 meets the effect's difficulty 8: not knocked prone.
    assert_eq!(effects(&t), vec![(Cond::Prone, 8, 8, true)]);
    assert!(!t.ch("hero").has(Cond::Prone));
    assert_eq!(t.ch("hero").stamina, 11);
    t.assert_dice_used();
}

#[test]
fn ing_r49_a_low_fortify_roll_falls_back_on_constitution() {
    let hero = FORTIFIER.replace("constitution = 5", "constitution = 8");
    let mut t = attacked(&hero, "\"hook\"", "");
    // Fortify 1 + 1 + 1 = 3, but max(3, constitution 8) = 8 resists.
    t.dice(&[1, 1, 10, 3, 3, 10]);
    t.cmd("fortify");
    assert_eq!(defended(&t), vec![(DefenceKind::Fortify, Some(3))]);
    assert_eq!(effects(&t), vec![(Cond::Prone, 8, 8, true)]);
    assert!(!t.ch("hero").has(Cond::Prone));
}

#[test]
fn ing_r49_a_failed_fortify_lets_the_effect_through() {
    let mut t = attacked(FORTIFIER, "\"hook\"", "");
    // Fortify 3, constitution 5: 5 < 8, prone.
    t.dice(&[1, 1, 10, 3, 3, 10]);
    t.cmd("fortify");
    assert_eq!(effects(&t), vec![(Cond::Prone, 8, 5, false)]);
    assert!(t.ch("hero").has(Cond::Prone));
}

#[test]
fn ing_r49_fortify_only_against_an_attack_with_a_physical_effect() {
    let mut t = attacked(FORTIFIER, "\"spear\"", "");
    assert_eq!(t.reject("fortify").code, "not-now");
    assert_eq!(t.reject("resist").code, "not-now");
    let mut t = attacked(FORTIFIER, "\"hook\"", "");
    assert_eq!(t.reject("resist").code, "not-now");
}

const RESISTER: &str = "evasion = 0\ndeflection = 0\nwillpower = 4\nproficiencies = { resistance = 1 }";

#[test]
fn ing_r50_resist_rolls_int_insight_resistance_and_costs_focus() {
    let mut t = attacked(RESISTER, "\"hex-rod\"", "");
    // Resist: INT 6 + Insight 2 + Resistance 1 = 9 meets 9: not stunned.
    t.dice(&[6, 2, 10, 3, 3, 10]);
    t.cmd("resist");
    assert_eq!(defended(&t), vec![(DefenceKind::Resist, Some(9))]);
    assert_eq!(effects(&t), vec![(Cond::Stunned, 9, 9, true)]);
    assert!(!t.ch("hero").has(Cond::Stunned));
    // 1 focus, no stamina.
    assert_eq!(t.ch("hero").focus, 11);
    assert_eq!(t.ch("hero").stamina, 12);
    assert_eq!(t.ch("hero").econ.reactions_left(), 0);
    t.assert_dice_used();
}

#[test]
fn ing_r50_a_low_resist_roll_falls_back_on_willpower() {
    let mut t = attacked(&RESISTER.replace("willpower = 4", "willpower = 10"), "\"hex-rod\"", "");
    t.dice(&[1, 1, 10, 3, 3, 10]);
    t.cmd("resist");
    assert_eq!(defended(&t), vec![(DefenceKind::Resist, Some(3))]);
    assert_eq!(effects(&t), vec![(Cond::Stunned, 9, 10, true)]);
    assert!(!t.ch("hero").has(Cond::Stunned));
}

#[test]
fn ing_r50_a_failed_resist_stuns_until_the_end_of_the_next_turn() {
    let mut t = attacked(RESISTER, "\"hex-rod\"", "");
    // Resist 3, willpower 4: 4 < 9.
    t.dice(&[1, 1, 10, 3, 3, 10]);
    t.cmd("resist");
    assert_eq!(effects(&t), vec![(Cond::Stunned, 9, 4, false)]);
    assert!(t.ch("hero").has(Cond::Stunned));
    assert_ne!(t.ch("hero").conds_until_turn & Cond::Stunned.bit(), 0);
}

#[test]
fn ing_r50_resist_against_the_dread_lantern_meets_the_attack_total() {
    // The built-in dread lantern's effect has no difficulty: the attack total is the difficulty.
    let mut t = attacked(RESISTER, "\"dread-lantern\"", "");
    // Resist 4 + 2 + 1 = 7; the attack 4 + 3 = 7 (INT d6 + Combat d6): 7 meets 7.
    t.dice(&[4, 2, 10, 4, 3, 10]);
    t.cmd("resist");
    assert_eq!(effects(&t), vec![(Cond::Stunned, 7, 7, true)]);
    assert!(!t.ch("hero").has(Cond::Stunned));
}

// ---------------------------------------------------------------------------------------------
// Block (ING-R51, ING-R52, ING-H3, ING-H7)
// ---------------------------------------------------------------------------------------------

const BLOCKER: &str = "evasion = 0\ndeflection = 10\nitems = [\"spear\", \"shield\"]";

#[test]
fn ing_r51_ing_h3_block_is_declared_after_the_hit_and_the_shield_takes_damage_less_its_block_value() {
    let mut t = attacked(BLOCKER, "\"spear\"", "");
    // Not before the roll.
    assert_eq!(t.reject("block shield").code, "not-now");
    // 1 + 1 = 2 hits evasion 0: 2 + 4 = 6 damage; the hero is asked before any damage.
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    assert_eq!(t.results(), vec![(true, false, 0)]);
    assert_eq!(t.pending(), ("block", "hero".into()));
    assert!(t.damage().is_empty());
    t.cmd("block shield");
    // The shield's block value 3 (not the hero's deflection 10) reduces it: 3 to the shield.
    assert_eq!(blocks(&t), vec![(3, 0)]);
    assert_eq!(durability(&t, "shield"), 2);
    assert!(t.damage().is_empty());
    assert_eq!(t.ch("hero").endurance, 12);
    assert_eq!(t.ch("hero").stamina, 11);
    assert_eq!(t.ch("hero").econ.reactions_left(), 0);
}

#[test]
fn ing_r51_r55_a_campaign_keeps_the_durability_lost_until_a_repair() {
    use fray_engine::text::TextRuleset;
    use fray_ingenuity::Ingenuity;
    let mut t = attacked(BLOCKER, "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    t.cmd("block shield");
    assert_eq!(durability(&t, "shield"), 2);
    t.cmd("gm end pcs");
    // The hero (the players' seat) leaves its worn shield; the untouched spear is not named; the
    // foe (the GM's) leaves nothing.
    let lasting = Ingenuity::lasting(t.s());
    assert_eq!(lasting.len(), 1);
    assert_eq!(
        lasting[0].values.last(),
        Some(&("durability".to_string(), "{ shield = 2 }".to_string()))
    );
    // The next encounter starts with it worn.
    let next = duel(
        &format!("{BLOCKER}\ndurability = {}", lasting[0].values[2].1),
        "\"spear\"",
        "",
    );
    let t = T::turn_of(&next, "foe");
    assert_eq!(durability(&t, "shield"), 2);
    // Only a repair gives it back.
    let repair = Ingenuity::RESTS.iter().find(|r| r.word == "repair").expect("a repair");
    assert_eq!(repair.restores, ["durability"]);
    assert!(!Ingenuity::RESTS.iter().any(|r| r.restores.contains(&"dead")));
}

#[test]
fn ing_r51_no_block_after_a_miss() {
    let mut t = attacked("evasion = 9\nitems = [\"spear\", \"shield\"]", "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    assert_eq!(t.results(), vec![(false, false, 9)]);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_r51_a_block_deals_at_least_1_to_the_item() {
    let mut t = attacked("evasion = 0\nitems = [\"spear\", \"tower\"]", "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    // 6 damage against block value 8: still 1 to the tower shield.
    t.cmd("block tower");
    assert_eq!(blocks(&t), vec![(1, 0)]);
    assert_eq!(durability(&t, "tower"), 5);
    assert!(t.damage().is_empty());
}

#[test]
fn ing_r51_a_blocked_hit_has_no_effect() {
    let hero = "evasion = 0\nconstitution = 0\nitems = [\"spear\", \"shield\"]";
    let mut t = attacked(hero, "\"hook\"", "");
    // 3 + 3 = 6 + hook 1 = 7: 4 to the shield; the prone effect cannot apply to it: void.
    t.dice(&[3, 3, 10]);
    t.cmd("pass");
    t.cmd("block shield");
    assert_eq!(blocks(&t), vec![(4, 0)]);
    assert!(effects(&t).is_empty());
    assert!(!t.ch("hero").has(Cond::Prone));
}

#[test]
fn ing_r51_blocking_needs_a_wielded_item_with_the_block_property() {
    let hero = "evasion = 0\nitems = [\"spear\", \"shield\", \"buckler\"]\nheld = [\"spear\", \"buckler\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    assert_eq!(t.pending(), ("block", "hero".into()));
    assert_eq!(t.reject("block shield").code, "hands");
    assert_eq!(t.reject("block spear").code, "bad-command");
    t.cmd("block buckler");
    assert_eq!(blocks(&t), vec![(4, 0)]);
}

#[test]
fn ing_r52_ing_h7_block_overflow_goes_to_the_blocker_unreduced() {
    let hero = "evasion = 0\ndeflection = 2\nitems = [\"spear\", \"shield\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    // 4 + 4 = 8 + 4 = 12; 12 - 3 = 9 for a shield with 5 durability: 4 goes through.
    t.dice(&[4, 4, 10]);
    t.cmd("pass");
    t.cmd("block shield");
    assert_eq!(blocks(&t), vec![(9, 4)]);
    // ING-H7: not reduced by the hero's deflection 2.
    assert_eq!(t.damage(), vec![("hero".into(), 4, 4, 0)]);
    // All 5 of the shield's durability went: it is at 0 now.
    assert_eq!(durability(&t, "shield"), 0);
}

#[test]
fn ing_h7_option_block_overflow_reduced_by_deflection() {
    let hero = "evasion = 0\ndeflection = 2\nitems = [\"spear\", \"shield\"]";
    let mut t = attacked(hero, "\"spear\"", "[options]\nblock-overflow-reduced = true");
    t.dice(&[4, 4, 10]);
    t.cmd("pass");
    t.cmd("block shield");
    assert_eq!(blocks(&t), vec![(9, 4)]);
    assert_eq!(t.damage(), vec![("hero".into(), 2, 2, 0)]);
}

#[test]
fn ing_r52_effects_apply_to_the_blocker_on_overflow() {
    let hero = "evasion = 0\nconstitution = 0\nitems = [\"spear\", \"shield\"]";
    let mut t = attacked(hero, "\"hook\"", "");
    // 4 + 4 = 8 + 1 = 9; 6 to the shield, 5 held: 1 overflows, and the hook's effect lands.
    t.dice(&[4, 4, 10]);
    t.cmd("pass");
    t.cmd("block shield");
    assert_eq!(blocks(&t), vec![(6, 1)]);
    assert_eq!(t.damage(), vec![("hero".into(), 1, 1, 0)]);
    assert_eq!(effects(&t), vec![(Cond::Prone, 8, 0, false)]);
    assert!(t.ch("hero").has(Cond::Prone));
}

// ---------------------------------------------------------------------------------------------
// Parry (ING-R53, ING-H6)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r53_ing_h6_parry_adds_the_parry_value_to_deflection_and_costs_the_item_1() {
    let hero = "evasion = 0\ndeflection = 2\nitems = [\"arming-sword\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    // 4 + 4 = 8 + 4 = 12 against deflection 2 + parry 2.
    t.dice(&[4, 4, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(defended(&t), vec![(DefenceKind::Parry, None)]);
    assert_eq!(t.results(), vec![(true, false, 0)]);
    assert_eq!(t.damage(), vec![("hero".into(), 8, 8, 0)]);
    // The sword loses 1 durability; the parry cost 1 stamina.
    assert_eq!(durability(&t, "arming-sword"), 9);
    assert_eq!(t.ch("hero").stamina, 11);
    // Declared before the roll (ING-H12): the item takes its damage before the attack is rolled.
    let order: Vec<&str> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::ItemDamaged { .. } => Some("item"),
            Event::AttackRolled { .. } => Some("attack"),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["item", "attack"]);
}

#[test]
fn ing_r53_parry_with_an_item_without_a_parry_value_adds_1() {
    let hero = "evasion = 0\ndeflection = 2\nitems = [\"spear\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    t.dice(&[4, 4, 10]);
    t.cmd("parry spear");
    assert_eq!(t.damage(), vec![("hero".into(), 9, 9, 0)]);
    assert_eq!(durability(&t, "spear"), 9);
}

#[test]
fn ing_r53_parry_needs_a_wielded_item() {
    // The arming sword is carried but not in hand: only the held spear can parry.
    let hero = "evasion = 0\ndeflection = 2\nitems = [\"arming-sword\", \"spear\"]\nheld = [\"spear\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    assert_eq!(t.reject("parry arming-sword").code, "hands");
    t.dice(&[4, 4, 10]);
    t.cmd("parry spear");
    // 12 against deflection 2 + 1.
    assert_eq!(t.damage(), vec![("hero".into(), 9, 9, 0)]);
    assert_eq!(durability(&t, "arming-sword"), 10);
    assert_eq!(durability(&t, "spear"), 9);
    t.assert_dice_used();
}

#[test]
fn ing_h6_option_parry_adds_to_evasion() {
    let hero = "evasion = 6\ndeflection = 2\nitems = [\"arming-sword\"]";
    let opt = "[options]\nparry-adds-to = \"evasion\"";
    let mut t = attacked(hero, "\"spear\"", opt);
    // 4 + 3 = 7 against evasion 6 + parry 2 = 8: a miss.
    t.dice(&[4, 3, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(t.results(), vec![(false, false, 8)]);
    // And a hit is reduced by the deflection alone: 8 + 4 - 2.
    let mut t = attacked(hero, "\"spear\"", opt);
    t.dice(&[4, 4, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(t.results(), vec![(true, false, 8)]);
    assert_eq!(t.damage(), vec![("hero".into(), 10, 10, 0)]);
}

#[test]
fn ing_h6_a_parried_hit_still_deals_at_least_1() {
    let hero = "evasion = 0\ndeflection = 5\nitems = [\"arming-sword\"]";
    let mut t = attacked(hero, "\"spear\"", "");
    // 1 + 1 + 4 = 6 against 5 + 2 = 7.
    t.dice(&[1, 1, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(t.damage(), vec![("hero".into(), 1, 1, 0)]);
}

#[test]
fn ing_h6_option_min_damage_zero_lets_a_parry_stop_a_hit() {
    let hero = "evasion = 0\ndeflection = 5\nitems = [\"arming-sword\"]";
    let mut t = attacked(hero, "\"spear\"", "[options]\nmin-damage = 0");
    t.dice(&[1, 1, 10]);
    t.cmd("parry arming-sword");
    assert_eq!(t.results(), vec![(true, false, 0)]);
    assert_eq!(t.damage(), vec![("hero".into(), 0, 0, 0)]);
    assert_eq!(t.ch("hero").endurance, 12);
}

// ---------------------------------------------------------------------------------------------
// Durability (ING-R54, ING-R55)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_r54_unlisted_durability_is_10_for_metal_and_4_otherwise() {
    let extra = "[[item]]\nid = \"iron-bar\"\nmetal = true\nblock = 1\n\n[[item]]\nid = \"plank\"\nblock = 1\n";
    let toml = duel(
        "items = [\"spear\", \"club\", \"shield\", \"iron-bar\", \"plank\"]",
        "\"spear\"",
        extra,
    );
    let t = T::turn_of(&toml, "foe");
    // The spear is metal, the club is not; the shield lists 5.
    assert_eq!(durability(&t, "spear"), 10);
    assert_eq!(durability(&t, "club"), 4);
    assert_eq!(durability(&t, "shield"), 5);
    assert_eq!(durability(&t, "iron-bar"), 10);
    assert_eq!(durability(&t, "plank"), 4);
}

#[test]
fn ing_r55_a_broken_item_cannot_parry_or_block() {
    let hero = "evasion = 0\nitems = [\"spear\", \"shield\", \"buckler\"]\nheld = [\"shield\", \"buckler\"]\ndurability = { shield = 0 }";
    let mut t = attacked(hero, "\"spear\"", "");
    assert_eq!(t.reject("parry shield").code, "broken");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    // The buckler can still block, the broken shield cannot.
    assert_eq!(t.pending(), ("block", "hero".into()));
    assert_eq!(t.reject("block shield").code, "broken");
    t.cmd("block buckler");
    assert_eq!(blocks(&t), vec![(4, 0)]);
}

#[test]
fn ing_r55_with_only_broken_blocking_items_no_block_is_offered() {
    let hero = "evasion = 0\ndeflection = 0\nitems = [\"spear\", \"shield\"]\ndurability = { shield = 0 }";
    let mut t = attacked(hero, "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("pass");
    // Straight to the damage: 2 + 4 = 6.
    assert_eq!(t.damage(), vec![("hero".into(), 6, 6, 0)]);
    assert_eq!(t.pending(), ("turn", "foe".into()));
}

#[test]
fn ing_r53_ing_r55_a_parry_can_break_the_item() {
    let hero = "evasion = 0\ndeflection = 0\nitems = [\"arming-sword\"]\ndurability = { arming-sword = 1 }";
    let mut t = attacked(hero, "\"spear\"", "");
    t.dice(&[1, 1, 10]);
    t.cmd("parry arming-sword");
    // The parry still counts for this attack: 6 - 2.
    assert_eq!(t.damage(), vec![("hero".into(), 4, 4, 0)]);
    assert_eq!(durability(&t, "arming-sword"), 0);
    // Next round, with the reaction back, the broken sword cannot parry any more.
    t.cmds(&["end", "pick hero", "end", "pick foe", "attack hero"]);
    assert_eq!(t.pending(), ("defence", "hero".into()));
    assert_eq!(t.ch("hero").econ.reactions_left(), 1);
    assert_eq!(t.reject("parry arming-sword").code, "broken");
}

// ---------------------------------------------------------------------------------------------
// When defences are declared (ING-H12)
// ---------------------------------------------------------------------------------------------

#[test]
fn ing_h12_defences_are_declared_before_the_attack_roll() {
    let mut t = T::turn_of(&duel("evasion = 4", "\"spear\"", ""), "foe");
    t.cmd("attack hero");
    // No die was rolled yet: the hero does not know the total.
    assert_eq!(t.pending(), ("defence", "hero".into()));
    assert!(t.attack_totals().is_empty());
    t.assert_dice_used();
    // The dodge rolls first, then the attack.
    t.dice(&[6, 4, 10, 4, 4, 10]);
    t.cmd("dodge");
    let order: Vec<&str> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Defended { .. } => Some("dodge"),
            Event::AttackRolled { .. } => Some("attack"),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["dodge", "attack"]);
    // Dodge 10 against the attack's 8.
    assert_eq!(t.results(), vec![(false, false, 10)]);
}

#[test]
fn ing_h12_option_defences_after_the_roll() {
    let toml = duel("evasion = 4", "\"spear\"", "[options]\ndefence-timing = \"after-roll\"");
    let mut t = T::turn_of(&toml, "foe");
    t.dice(&[4, 4, 10]);
    t.cmd("attack hero");
    // The roll is known (8) before the hero chooses.
    assert_eq!(t.attack_totals(), vec![8]);
    assert_eq!(t.pending(), ("defence", "hero".into()));
    assert!(t.results().is_empty());
    t.dice(&[6, 4, 10]);
    t.cmd("dodge");
    assert_eq!(t.results(), vec![(false, false, 10)]);
    t.assert_dice_used();
}

#[test]
fn ing_h12_option_after_roll_a_parry_sees_the_total() {
    let toml = duel(
        "evasion = 0\ndeflection = 2\nitems = [\"arming-sword\"]",
        "\"spear\"",
        "[options]\ndefence-timing = \"after-roll\"",
    );
    let mut t = T::turn_of(&toml, "foe");
    t.dice(&[4, 4, 10]);
    t.cmd("attack hero");
    t.cmd("parry arming-sword");
    assert_eq!(t.damage(), vec![("hero".into(), 8, 8, 0)]);
}

// ---------------------------------------------------------------------------------------------
// Derived defences (ING-H24)
// ---------------------------------------------------------------------------------------------

const SHEET: &str =
    "attributes = { str = 6, dex = 8, int = 4, res = 8 }\nproficiencies = { fortitude = 1, dodge = 2, resistance = 1 }";

fn defences(t: &T) -> (i16, i16, i16) {
    let st = &t.s().info(t.id("hero")).stats;
    (st.constitution, st.evasion, st.willpower)
}

#[test]
fn ing_h24_defences_are_derived_from_two_passive_attributes_and_the_proficiency() {
    // Constitution RES 4 + STR 3 + 1, evasion RES 4 + DEX 4 + 2, willpower RES 4 + INT 2 + 1.
    let mut t = T::turn_of(&duel(SHEET, "\"spear\"", ""), "foe");
    assert_eq!(defences(&t), (8, 10, 7));
    // The attack must meet the derived evasion.
    t.cmd("attack hero");
    t.dice(&[6, 4, 10]);
    t.cmd("pass");
    assert_eq!(t.results(), vec![(true, false, 10)]);
}

#[test]
fn ing_h24_option_older_formula_one_passive_attribute_and_the_proficiency() {
    let toml = duel(SHEET, "\"spear\"", "[options]\ndefence-formula = \"older\"");
    let t = T::turn_of(&toml, "foe");
    // STR 3 + 1, DEX 4 + 2, INT 2 + 1.
    assert_eq!(defences(&t), (4, 6, 3));
}

#[test]
fn ing_h24_per_character_overrides_win_over_either_formula() {
    let sheet = format!("{SHEET}\nconstitution = 4\nevasion = 5\nwillpower = 6");
    for opt in ["", "[options]\ndefence-formula = \"older\""] {
        let t = T::turn_of(&duel(&sheet, "\"spear\"", opt), "foe");
        assert_eq!(defences(&t), (4, 5, 6), "{opt}");
    }
}
