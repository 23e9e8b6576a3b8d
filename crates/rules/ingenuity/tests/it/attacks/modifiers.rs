//! What changes an attack after it is rolled (ING-R40 to ING-R46): the multiple attack penalty,
//! damage, sneak attacks, flanking, size and the older weapon properties.

use super::*;

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
