//! Overexert, Terrain Effects and Buffs (THR-R132 to THR-R143, THR-H19), with the options
//! `overexert-stress`, `overexert-may-fray`, `upkeep-at-start-of-turn`, `terrain-effect-attacks`
//! and `creator-gone`.

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::ability::XStatus;
use fray_thrum::command::Gauge;
use fray_thrum::event::{Event, Verdict};

/// An open 8 by 4 field.
const FIELD: [&str; 4] = [
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
];

/// An NPC with every defence at 0 and the default tolerances.
const GRUNT: &str = "attack = 3\nresilience = 0\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 6";

/// Starts a game in round 1 with the given combatants (Initiative faces in file order).
fn game(rest: &str, init: &[u16]) -> T {
    T::in_round_one(&enc(&FIELD, rest), init)
}

fn stress_paid_by(ev: &[Event], who: u16) -> i16 {
    ev.iter()
        .filter_map(|e| match e {
            Event::Damage {
                who: w,
                gauge: Gauge::Stress,
                amount,
                ..
            } if *w == who => Some(*amount),
            _ => None,
        })
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Overexert (Fire Burst: wide, fierce, searing)
// ---------------------------------------------------------------------------------------------

/// Caster C (attack +3) on a 2-level rock at 0,0 (so the enemies give each other no Cover);
/// enemies E1 at 3,0, E2 at 4,1 (both in an Area 2 at 3,0) and E3 at 6,2 (only in an Area 4 at
/// 3,0). C acts first.
fn burst(options: &str) -> T {
    let rows = [
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "2 . . . . . . .",
    ];
    let mut t = T::in_round_one(
        &enc(
            &rows,
            &format!(
                "{options}{}{}{}{}",
                who("c", "pcs", "0,0", "attack = 3\nabilities = [\"fire-burst\"]"),
                who("e1", "npcs", "3,0", GRUNT),
                who("e2", "npcs", "4,1", GRUNT),
                who("e3", "npcs", "6,2", GRUNT)
            ),
        ),
        &[6, 6, 1, 2, 1, 3, 1, 4],
    );
    assert_eq!(t.order(), vec!["c", "e3", "e2", "e1"]);
    t.cmd("begin");
    t
}

#[test]
fn thr_r132_fire_burst_without_overexert_costs_nothing_and_hits_its_area_2() {
    let mut t = burst("");
    t.cmd("act fire-burst area 3,0");
    assert_eq!(t.ch("c").stress, 0);
    // Only E2 and E1 are in the Area 2; each picks a defence, then each is rolled.
    assert_eq!(t.pending(), ("defence", "e2".into()));
    t.cmd("defend resilience");
    // Each: 3 + 3 + 3 = 9 against 3 + 2 = 5, a Success (margin 4): 1 Fatigue, no Burning.
    t.dice(&[3, 3, 3, 2, 3, 3, 3, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess); 2]);
    assert_eq!((t.ch("e1").fatigue, t.ch("e2").fatigue, t.ch("e3").fatigue), (1, 1, 0));
    assert_eq!(t.ch("e1").status(XStatus::Burning), 0);
    assert_eq!(t.ch("c").stress, 0);
}

#[test]
fn thr_r132_thr_r134_overexert_wide_pays_1_stress_for_an_area_4() {
    let mut t = burst("");
    t.cmd("act fire-burst area 3,0 overexert wide");
    assert_eq!(t.ch("c").stress, 1);
    // E3, E2 and E1 are all in the 4-by-4 area now.
    t.cmd("defend resilience");
    t.cmd("defend resilience");
    t.dice(&[3, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last).len(), 3);
    assert_eq!((t.ch("e1").fatigue, t.ch("e2").fatigue, t.ch("e3").fatigue), (1, 1, 1));
    assert_eq!(t.ch("c").stress, 1);
}

#[test]
fn thr_r132_overexert_fierce_turns_a_success_into_a_critical() {
    let mut t = burst("");
    t.cmd("act fire-burst area 3,0 overexert fierce");
    t.cmd("defend resilience");
    t.dice(&[3, 3, 3, 2, 3, 3, 3, 2]);
    t.cmd("defend resilience");
    // The same margin-4 Successes as without Overexert, now with the Critical line as well:
    // 1 + 1 Fatigue and Burning 1.
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess); 2]);
    assert_eq!((t.ch("e1").fatigue, t.ch("e2").fatigue), (2, 2));
    assert_eq!(t.ch("e1").status(XStatus::Burning), 1);
    assert_eq!(t.ch("c").stress, 1);
}

#[test]
fn thr_r132_overexert_searing_applies_the_critical_line_twice() {
    let mut t = burst("");
    t.cmd("act fire-burst area 3,0 overexert searing");
    t.cmd("defend resilience");
    // E2: 6 + 6 + 3 = 15 against 2, a Critical; E1: a mere Success (margin 4).
    t.dice(&[6, 6, 1, 1, 3, 3, 3, 2]);
    t.cmd("defend resilience");
    assert_eq!(
        contests(&t.last),
        vec![
            (15, Some(2), Verdict::AttackerCritical),
            (9, Some(5), Verdict::AttackerSuccess)
        ]
    );
    // Critical: 1 (Success) + 2 x (1 Fatigue and Burning 1).
    assert_eq!(t.ch("e2").fatigue, 3);
    assert_eq!(t.ch("e2").status(XStatus::Burning), 2);
    // Searing does nothing for a Success.
    assert_eq!(t.ch("e1").fatigue, 1);
    assert_eq!(t.ch("e1").status(XStatus::Burning), 0);
}

#[test]
fn thr_r133_overexert_stress_is_taken_before_any_roll() {
    let mut t = burst("");
    t.cmd("act fire-burst area 3,0 overexert wide");
    // Declared with the action: the Stress is already paid while the defenders choose, and no
    // die has been rolled.
    assert_eq!(stress_paid_by(&t.last, t.id("c")), 1);
    assert!(contests(&t.last).is_empty());
    assert_eq!(t.pending().0, "defence");
    t.cmd("defend resilience");
    t.cmd("defend resilience");
    t.dice(&[3, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 2]);
    t.cmd("defend resilience");
    // In the whole record, the Stress comes before the first contest.
    let ev = t.all_events();
    let paid = ev
        .iter()
        .position(|e| {
            matches!(
                e,
                Event::Damage {
                    gauge: Gauge::Stress,
                    ..
                }
            )
        })
        .unwrap();
    let first_roll = ev.iter().position(|e| matches!(e, Event::Contest { .. })).unwrap();
    assert!(paid < first_roll);
}

#[test]
fn thr_r134_thr_h19_overexert_may_make_the_user_frayed_by_default() {
    let mut t = burst("");
    t.set("c", "stress", 2);
    t.cmd("act fire-burst area 3,0 overexert fierce");
    assert_eq!(t.ch("c").stress, 3);
    assert!(t.ch("c").frayed());
}

#[test]
fn thr_r134_option_overexert_may_not_fray() {
    let mut t = burst("[options]\noverexert-may-fray = false\n");
    t.set("c", "stress", 2);
    assert_eq!(t.reject("act fire-burst area 3,0 overexert fierce").code, "would-fray");
    // One Stress short of Frayed is still fine.
    t.set("c", "stress", 1);
    t.cmd("act fire-burst area 3,0 overexert fierce");
    assert_eq!(t.ch("c").stress, 2);
    assert!(!t.ch("c").frayed());
}

#[test]
fn thr_r134_option_overexert_stress_sets_the_default_cost() {
    let mut t = burst("[options]\noverexert-stress = 2\n");
    t.cmd("act fire-burst area 3,0 overexert wide");
    assert_eq!(t.ch("c").stress, 2);
}

#[test]
fn thr_r134_an_ability_may_state_its_own_overexert_cost() {
    let e = with_abilities(
        &FIELD,
        &format!(
            "{}{}",
            who("c", "pcs", "0,0", "attack = 3\nabilities = [\"costly-jab\"]"),
            who("e", "npcs", "1,0", GRUNT)
        ),
        r#"
[[ability]]
id = "costly-jab"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = 1 }]
overexert = [{ label = "hard", stress = 2, extra = [{ fatigue = 1 }] }]
"#,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd("act costly-jab e overexert hard");
    // The stated 2, not the `overexert-stress` default of 1.
    assert_eq!(t.ch("c").stress, 2);
    t.dice(&[3, 3, 3, 2]);
    t.cmd("defend resilience");
    assert_eq!(t.ch("e").fatigue, 2);
}

// ---------------------------------------------------------------------------------------------
// Upkeep Overexert (Whirling Sleet: biting)
// ---------------------------------------------------------------------------------------------

/// Caster C at 2,1 with Whirling Sleet (an Aura 1 Terrain Effect) and E right next to it at 3,1.
/// C acts first, E (last in the order) begins its turns by itself.
fn sleet(options: &str) -> T {
    let mut t = game(
        &format!(
            "{options}{}{}",
            who("c", "pcs", "2,1", "abilities = [\"whirling-sleet\", \"briar-patch\"]"),
            who("e", "npcs", "3,1", GRUNT)
        ),
        &[6, 6, 1, 1],
    );
    t.cmd("begin");
    t
}

/// Ends C's turn and plays E's turn (E just ends it): returns E's Fatigue afterwards.
fn e_turn(t: &mut T) -> i16 {
    t.cmd("end");
    assert_eq!(t.turn().0, "e");
    t.cmd("end");
    t.ch("e").fatigue
}

#[test]
fn thr_r135_an_upkeep_overexert_is_paid_again_at_the_creators_start_of_turn() {
    let mut t = sleet("");
    t.cmd("act whirling-sleet overexert biting");
    // Paid once on use.
    assert_eq!(t.ch("c").stress, 1);
    assert_eq!(t.s().terrain.len(), 1);
    assert_eq!(t.s().terrain[0].upkeep, Some(1));
    // Kept up, the sleet chills the enemy starting its turn inside it.
    assert_eq!(e_turn(&mut t), 1);
    // Round 2: C's Start of Turn asks C to pay again.
    t.cmd("begin");
    assert_eq!(t.pending(), ("upkeep", "c".into()));
    t.cmd("keep");
    assert_eq!(t.ch("c").stress, 2);
    assert_eq!(e_turn(&mut t), 2);
    // Round 3: released, the Overexert part ends but the Terrain Effect stays.
    t.cmd("begin");
    assert_eq!(t.pending(), ("upkeep", "c".into()));
    t.cmd("release");
    assert_eq!(t.ch("c").stress, 2);
    assert_eq!(t.s().terrain.len(), 1);
    assert_eq!(t.s().terrain[0].upkeep, None);
    assert_eq!(e_turn(&mut t), 2);
    // Round 4: nothing more to pay.
    t.cmd("begin");
    assert_eq!(t.pending().0, "turn");
}

#[test]
fn thr_r135_without_overexert_the_sleet_has_no_upkeep_and_no_chill() {
    let mut t = sleet("");
    t.cmd("act whirling-sleet");
    assert_eq!(t.ch("c").stress, 0);
    assert_eq!(t.s().terrain[0].upkeep, None);
    assert_eq!(e_turn(&mut t), 0);
    t.cmd("begin");
    assert_eq!(t.pending().0, "turn");
}

#[test]
fn thr_r135_option_upkeep_paid_at_the_end_of_the_creators_turn() {
    let mut t = sleet("[options]\nupkeep-at-start-of-turn = false\n");
    t.cmd("act whirling-sleet overexert biting");
    assert_eq!(t.ch("c").stress, 1);
    // Not asked again at the end of the turn that paid it.
    assert_eq!(e_turn(&mut t), 1);
    // Round 2: nothing at the start of C's turn; the payment is asked when the turn ends.
    t.cmd("begin");
    assert_eq!(t.pending(), ("turn", "c".into()));
    t.cmd("end");
    assert_eq!(t.pending(), ("upkeep", "c".into()));
    t.cmd("keep");
    assert_eq!(t.ch("c").stress, 2);
    assert_eq!(t.turn().0, "e");
    t.cmd("end");
    assert_eq!(t.ch("e").fatigue, 2);
}

// ---------------------------------------------------------------------------------------------
// Terrain Effects (Briar Patch, Caltrops)
// ---------------------------------------------------------------------------------------------

/// Creator C at 0,0 (Briar Patch, Whirling Sleet and Caltrops), ally A at 2,0, enemy E at 3,0.
/// Order: C, A, E.
fn briars(options: &str) -> T {
    let mut t = game(
        &format!(
            "{options}{}{}{}",
            who(
                "c",
                "pcs",
                "0,0",
                "abilities = [\"briar-patch\", \"whirling-sleet\", \"caltrops\"]"
            ),
            who("a", "pcs", "2,0", ""),
            who("e", "npcs", "3,0", GRUNT)
        ),
        &[6, 6, 5, 5, 1, 1],
    );
    assert_eq!(t.order(), vec!["c", "a", "e"]);
    t.cmd("begin");
    t
}

/// Plays the rest of the round after C's Action: C ends, A begins and ends, E ends.
fn rest_of_round(t: &mut T) {
    t.cmds(&["end", "begin", "end", "end"]);
}

fn terrain_squares(t: &T) -> Vec<Vec<Pos>> {
    t.s().terrain.iter().map(|x| x.squares.clone()).collect()
}

#[test]
fn thr_r136_a_terrain_effect_makes_no_roll_and_targets_no_one() {
    let mut t = briars("");
    // A and E both stand in the Area 2 at 2,0, yet nobody defends and no die is rolled.
    t.cmd("act briar-patch area 2,0");
    t.assert_dice_used();
    assert!(contests(&t.last).is_empty());
    assert!(!t.last.iter().any(|e| matches!(e, Event::DefenceChosen { .. })));
    assert_eq!(t.pending(), ("stance", "c".into()));
    assert_eq!(
        terrain_squares(&t),
        vec![vec![Pos::new(2, 0), Pos::new(3, 0), Pos::new(2, 1), Pos::new(3, 1)]]
    );
}

#[test]
fn thr_r136_briar_patch_hurts_enemies_ending_their_turn_inside_and_spares_allies() {
    let mut t = briars("");
    t.cmd("act briar-patch area 2,0");
    rest_of_round(&mut t);
    assert_eq!(t.ch("a").fatigue, 0);
    assert_eq!(t.ch("e").fatigue, 1);
}

#[test]
fn thr_r136_briar_patch_is_difficult_for_enemies_only() {
    let mut t = briars("");
    t.cmd("act briar-patch area 2,0");
    t.cmds(&["end", "begin"]);
    // A, an ally, walks out of the briars at the normal cost: 2,0 to 2,2 is 2 movement.
    t.cmd("move 2,2");
    assert_eq!(t.s().turn.spent, 2);
    t.cmd("end");
    // E, an enemy, pays 1 more to leave a briar square: 3,0 to 5,0 costs 2 + 1.
    assert_eq!(t.turn().0, "e");
    t.cmd("move 5,0");
    assert_eq!(t.s().turn.spent, 3);
    t.cmd("end");
    // E ended its turn outside: no Fatigue.
    assert_eq!(t.ch("e").fatigue, 0);
}

#[test]
fn thr_r136_caltrops_act_on_whoever_moves_into_them() {
    let mut t = briars("");
    t.cmd("act caltrops area 1,2");
    t.cmds(&["end", "begin"]);
    // Caltrops hinder everyone, allies included: A steps into 2,2 and is Slowed.
    t.cmd("move 2,2");
    assert_eq!(t.s().turn.spent, 2);
    assert_eq!(t.ch("a").status(XStatus::Slowed), 1);
    assert_eq!(t.ch("e").status(XStatus::Slowed), 0);
}

#[test]
fn thr_r137_a_new_terrain_effect_removes_the_creators_previous_one() {
    let mut t = briars("");
    t.cmd("act briar-patch area 2,0");
    rest_of_round(&mut t);
    t.cmd("begin");
    t.cmd("act briar-patch area 1,2");
    // The log names whose Terrain Effect ends.
    assert!(
        t.log().iter().any(|l| l == "c's Terrain Effect Briar Patch ends"),
        "{:?}",
        t.log()
    );
    assert_eq!(
        terrain_squares(&t),
        vec![vec![Pos::new(1, 2), Pos::new(2, 2), Pos::new(1, 3), Pos::new(2, 3)]]
    );
    rest_of_round(&mut t);
    // The old briars are gone: E, still at 3,0, takes nothing more.
    assert_eq!(t.ch("e").fatigue, 1);
    // A different Terrain Effect replaces it too.
    t.cmd("begin");
    t.cmd("act whirling-sleet");
    assert_eq!(t.s().terrain.len(), 1);
    assert_eq!(t.s().setup.book.get(t.s().terrain[0].ability).id, "whirling-sleet");
}

#[test]
fn thr_r138_caltrops_are_exempt_from_the_one_terrain_effect_limit() {
    let mut t = briars("");
    let ids = |t: &T| -> Vec<String> {
        t.s()
            .terrain
            .iter()
            .map(|x| t.s().setup.book.get(x.ability).id.clone())
            .collect()
    };
    t.cmd("act caltrops area 0,2");
    rest_of_round(&mut t);
    t.cmd("begin");
    t.cmd("act briar-patch area 2,0");
    assert_eq!(ids(&t), vec!["caltrops", "briar-patch"]);
    rest_of_round(&mut t);
    // A new Briar Patch replaces the old one, the Caltrops stay.
    t.cmd("begin");
    t.cmd("act briar-patch area 1,2");
    assert_eq!(ids(&t), vec!["caltrops", "briar-patch"]);
    assert_eq!(t.s().terrain[1].squares[0], Pos::new(1, 2));
    rest_of_round(&mut t);
    // More Caltrops remove nothing.
    t.cmd("begin");
    t.cmd("act caltrops area 1,0");
    assert_eq!(ids(&t), vec!["caltrops", "briar-patch", "caltrops"]);
}

#[test]
fn thr_r136_a_terrain_effect_rolls_only_when_its_text_calls_for_an_attack() {
    // Default `terrain-effect-attacks = "when-stated"`: Briar Patch (no Attack type) rolls nothing (see
    // above); a Terrain Effect whose record has an Attack type does roll against those inside.
    let e = with_abilities(
        &FIELD,
        &format!(
            "{}{}",
            who("c", "pcs", "0,0", "attack = 3\nabilities = [\"scalding-pool\"]"),
            who("e", "npcs", "3,0", GRUNT)
        ),
        r#"
[[ability]]
id = "scalding-pool"
type = "action"
attack = "physical"
tags = ["terrain-effect"]
range = 3
target = "area 2"
success = [{ fatigue = 1 }]
terrain = { end-of-turn = [{ fatigue = 1 }], affects = "enemies" }
"#,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd("act scalding-pool area 3,0");
    t.dice(&[3, 3, 3, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess)]);
    assert_eq!(t.ch("e").fatigue, 1);
    assert_eq!(t.s().terrain.len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Buffs (Spirit Armor)
// ---------------------------------------------------------------------------------------------

/// C (Animism Training 3) at 0,0 and D (Animism Training 1) at 0,1, both with Spirit Armor;
/// ally A at 1,0; enemy E at 4,0 (Basic Attack, attack +3). Order: C, D, A, E.
fn armor(options: &str) -> T {
    let mut t = game(
        &format!(
            "{options}{}{}{}{}",
            who(
                "c",
                "pcs",
                "0,0",
                "training = { animism = 3 }\nabilities = [\"spirit-armor\", \"briar-patch\"]"
            ),
            who(
                "d",
                "pcs",
                "0,1",
                "training = { animism = 1 }\nabilities = [\"spirit-armor\"]"
            ),
            who("a", "pcs", "1,0", ""),
            who("e", "npcs", "4,0", GRUNT)
        ),
        &[6, 6, 6, 5, 5, 5, 1, 1],
    );
    assert_eq!(t.order(), vec!["c", "d", "a", "e"]);
    t.cmd("begin");
    t
}

/// From C's turn after its Action: C, D and A end their turns, E attacks A with a Basic Attack.
fn e_attacks_a(t: &mut T) {
    t.cmds(&["end", "begin", "end", "begin", "end"]);
    assert_eq!(t.turn().0, "e");
    t.cmd("act basic-attack a");
    assert_eq!(t.pending(), ("defence", "a".into()));
}

fn buff_creator(t: &T, id: &str) -> Option<String> {
    t.ch(id).buff.map(|b| t.s().info(b.creator).id.clone())
}

#[test]
fn thr_r139_a_buff_targets_an_ally_or_the_user_and_makes_no_roll() {
    let mut t = armor("");
    assert_eq!(t.reject("act spirit-armor e").code, "invalid-target");
    t.cmd("act spirit-armor a");
    t.assert_dice_used();
    assert!(contests(&t.last).is_empty());
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
    assert_eq!(t.ch("a").buff.unwrap().uses, 1);
}

#[test]
fn thr_r139_a_buff_lasts_until_used_across_rounds() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    // Two whole rounds pass: the Buff is still there.
    t.cmds(&["end", "begin", "end", "begin", "end", "end"]);
    t.cmds(&["begin", "end", "begin", "end", "begin", "end", "end"]);
    assert_eq!(t.s().round, 3);
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
}

#[test]
fn thr_r139_spirit_armor_adds_the_creators_animism_training_to_the_defence() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    e_attacks_a(&mut t);
    // 4 + 3 + 3 = 10 against 4 + 3 + 0 + 3 (C's Training) = 10: a tie, the defender wins.
    t.dice(&[4, 3, 4, 3]);
    t.cmd("defend resilience with spirit-armor");
    assert_eq!(contests(&t.last), vec![(10, Some(10), Verdict::DefenderSuccess)]);
    assert_eq!(t.ch("a").fatigue, 0);
    // Used up: its creator chooses to keep it (1 Stress) or let it end.
    assert_eq!(t.pending(), ("keep", "c".into()));
    t.cmd("release");
    assert_eq!(t.ch("a").buff, None);
    assert_eq!(t.ch("c").stress, 0);
}

#[test]
fn thr_r139_spirit_armor_takes_1_off_the_damage_and_may_be_kept_for_1_stress() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    e_attacks_a(&mut t);
    // 6 + 6 + 3 = 15 against 1 + 1 + 3 = 5: a hit for 2 Fatigue, 1 of it taken off.
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience with spirit-armor");
    assert_eq!(t.ch("a").fatigue, 1);
    assert_eq!(t.pending(), ("keep", "c".into()));
    t.cmd("keep");
    assert_eq!(t.ch("c").stress, 1);
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
    assert_eq!(t.ch("a").buff.unwrap().uses, 1);
    // The log says the Buff was renewed, not used again.
    assert!(t.last.iter().any(|e| matches!(e, Event::BuffRenewed { uses: 1, .. })));
    assert!(!t.last.iter().any(|e| matches!(e, Event::BuffUsed { .. })));
    let log = t.log().join("\n");
    assert!(log.contains("Buff is kept and renewed (1 use(s))"), "{log}");
    assert!(!log.contains("uses its Buff"), "{log}");
}

#[test]
fn thr_r139_using_the_buff_is_the_bearers_choice() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    e_attacks_a(&mut t);
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    // No bonus, no reduction, nothing asked of the creator; the Buff is still unused.
    assert_eq!(contests(&t.last), vec![(15, Some(2), Verdict::AttackerCritical)]);
    assert_eq!(t.ch("a").fatigue, 2);
    assert_eq!(t.ch("a").buff.unwrap().uses, 1);
    assert_ne!(t.pending().0, "keep");
}

#[test]
fn thr_r139_spirit_armor_rerolls_a_failed_panic_roll() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.set("a", "stress", 3);
    t.cmds(&["end", "begin", "end"]);
    // A starts its turn Frayed: 1 + 1 = 2 does not beat Stress 3; the Buff offers a reroll.
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert_eq!(t.pending(), ("reroll", "a".into()));
    t.dice(&[6, 6]);
    t.cmd("reroll");
    t.assert_dice_used();
    assert!(!t.ch("a").has(fray_thrum::ability::Cond::Stunned));
    assert_eq!(t.ch("a").stress, 3);
    // Then the creator decides whether to keep the used-up Buff.
    assert_eq!(t.pending(), ("keep", "c".into()));
    t.cmd("release");
    assert_eq!(t.ch("a").buff, None);
    assert_eq!(t.pending(), ("turn", "a".into()));
}

#[test]
fn thr_r140_a_creator_may_keep_several_buffs_on_different_targets() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin", "end", "begin", "end", "end"]);
    t.cmd("begin");
    t.cmd("act spirit-armor c");
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
    assert_eq!(buff_creator(&t, "c"), Some("c".into()));
}

#[test]
fn thr_r141_thr_r142_a_buffed_character_may_decline_a_second_buff() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin"]);
    t.cmd("act spirit-armor a");
    assert_eq!(t.pending(), ("buff", "a".into()));
    t.cmd("decline");
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
    assert!(
        t.log()
            .iter()
            .any(|l| l == "a declines d's Spirit Armor and keeps its current Buff"),
        "{:?}",
        t.log()
    );
}

#[test]
fn thr_r141_thr_r142_accepting_a_second_buff_ends_the_first() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin"]);
    t.cmd("act spirit-armor a");
    assert_eq!(t.pending(), ("buff", "a".into()));
    t.cmd("accept");
    assert!(
        t.log().iter().any(|l| l == "a's Buff Spirit Armor (from c) ends"),
        "{:?}",
        t.log()
    );
    // Only D's Buff now: it adds D's Training 1, not C's 3.
    assert_eq!(buff_creator(&t, "a"), Some("d".into()));
    t.cmds(&["end", "begin", "end"]);
    t.cmd("act basic-attack a");
    t.dice(&[4, 3, 4, 3]);
    t.cmd("defend resilience with spirit-armor");
    assert_eq!(contests(&t.last), vec![(10, Some(8), Verdict::AttackerSuccess)]);
    assert_eq!(t.pending(), ("keep", "d".into()));
}

#[test]
fn thr_r143_buffs_and_terrain_effects_outlast_an_incapacitated_creator_but_not_a_removed_one() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin", "end", "begin", "end", "end"]);
    t.cmd("begin");
    t.cmd("act briar-patch area 3,0");
    t.set("c", "fatigue", 5);
    t.cmd("gm incapacitate c");
    assert!(t.ch("c").incapacitated);
    assert_eq!(buff_creator(&t, "a"), Some("c".into()));
    assert_eq!(t.s().terrain.len(), 1);
    t.cmd("gm remove c");
    assert_eq!(t.ch("a").buff, None);
    assert!(t.s().terrain.is_empty());
}

#[test]
fn thr_r143_option_creator_gone_on_incapacitation() {
    let mut t = armor("[options]\ncreator-gone = \"incapacitated\"\n");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin", "end", "begin", "end", "end"]);
    t.cmd("begin");
    t.cmd("act briar-patch area 3,0");
    t.set("c", "fatigue", 5);
    t.cmd("gm incapacitate c");
    assert_eq!(t.ch("a").buff, None);
    assert!(t.s().terrain.is_empty());
}

#[test]
fn thr_r143_buffs_and_terrain_effects_end_with_the_combat() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.cmds(&["end", "begin", "end", "begin", "end", "end"]);
    t.cmd("begin");
    t.cmd("act briar-patch area 3,0");
    t.cmd("gm end pcs");
    assert_eq!(t.ch("a").buff, None);
    assert!(t.s().terrain.is_empty());
}

#[test]
fn thr_r139_a_declined_reroll_leaves_the_buff_unused() {
    let mut t = armor("");
    t.cmd("act spirit-armor a");
    t.set("a", "stress", 3);
    t.cmds(&["end", "begin", "end"]);
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert_eq!(t.pending(), ("reroll", "a".into()));
    t.cmd("pass");
    // The failed Panic Roll stands (Stunned, Stress turned into Fatigue); the Buff is unused.
    assert!(t.ch("a").has(fray_thrum::ability::Cond::Stunned));
    assert_eq!((t.ch("a").fatigue, t.ch("a").stress), (3, 0));
    assert_eq!(t.ch("a").buff.unwrap().uses, 1);
    assert_eq!(t.pending(), ("turn", "a".into()));
}

#[test]
fn thr_r136_option_terrain_effects_never_roll() {
    // With `terrain-effect-attacks = "never"`, the same pool applies its lines with no roll.
    let e = with_abilities(
        &FIELD,
        &format!(
            "[options]\nterrain-effect-attacks = \"never\"\n\n{}{}",
            who("c", "pcs", "0,0", "attack = 3\nabilities = [\"scalding-pool\"]"),
            who("e", "npcs", "3,0", GRUNT)
        ),
        r#"
[[ability]]
id = "scalding-pool"
type = "action"
attack = "physical"
tags = ["terrain-effect"]
range = 3
target = "area 2"
success = [{ fatigue = 1 }]
terrain = { end-of-turn = [{ fatigue = 1 }], affects = "enemies" }
"#,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd("act scalding-pool area 3,0");
    t.assert_dice_used();
    assert!(contests(&t.last).is_empty());
    assert_eq!(t.ch("e").fatigue, 1);
    assert_eq!(t.s().terrain.len(), 1);
}
