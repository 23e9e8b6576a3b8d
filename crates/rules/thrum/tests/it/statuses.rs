//! Statuses with an X: Bleed, Blinded, Burning, Hamstrung, Shocked, Slowed, Vulnerable and
//! Weakened; "+N" stacking, the end-of-turn tick and X as a duration (THR-R202 to THR-R212;
//! options `status-effect-scales`, `hamstrung-after-attack`, `speed-floor`).

use crate::common;
use common::*;
use fray_thrum::ability::{Cond, Defence, XStatus};
use fray_thrum::command::Gauge;
use fray_thrum::event::{Event, Rolled, Verdict};

/// Test abilities: a melee hit, a mental hit and a non-attack that inflicts +2 Bleed.
const ABILITIES: &str = r#"
[[ability]]
id = "jab"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = 2 }]

[[ability]]
id = "taunt"
type = "action"
attack = "mental"
range = 3
target = "enemy"
success = [{ stress = 1 }]

[[ability]]
id = "cut"
type = "action"
range = 3
target = "enemy"
effect = [{ status = "bleed", x = 2 }]
"#;

const KIT: &str = "attack = 3\nabilities = [\"jab\", \"taunt\", \"cut\"]";

/// `a` (a PC, attack +3) acts first against the NPC `b`; the map is 7 × 2. Round Zero is
/// over and `a`'s slot is up (not begun).
fn game_at(options: &str, a: &str, b_at: &str, b: &str, more: &str) -> T {
    // `a` gets the test kit unless `a` lists its own abilities.
    let a_stats = if a.contains("abilities") {
        a.to_string()
    } else {
        format!("{KIT}\n{a}")
    };
    let e = with_abilities(
        &[". . . . . . .", ". . . . . . ."],
        &format!(
            "[options]\n{options}\n{}{}{more}",
            who("a", "pcs", "0,0", &a_stats),
            who("b", "npcs", b_at, b)
        ),
        ABILITIES,
    );
    let n = e.0.matches("[[combatant]]").count();
    let mut init = vec![6, 6, 1, 1];
    for i in 2..n {
        init.extend([2, i as u16]);
    }
    let mut t = t_with(&e, &init);
    t.skip_round_zero();
    assert_eq!(t.turn().0, "a");
    t
}

fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// Like [`game_at`] with `b` adjacent at 1,0, and `a`'s turn begun.
fn duel(options: &str, a: &str, b: &str) -> T {
    let mut t = game_at(options, a, "1,0", b, "");
    begin(&mut t);
    t
}

/// The single contest of the last command: attack roll, defence roll, verdict.
fn contest(t: &T) -> (Option<Rolled>, Option<Rolled>, Verdict) {
    let v: Vec<_> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Contest {
                attack,
                defence,
                verdict,
                ..
            } => Some((attack.as_deref().copied(), defence.as_deref().copied(), *verdict)),
            _ => None,
        })
        .collect();
    assert_eq!(v.len(), 1, "expected one contest: {v:?}");
    v[0]
}

/// The defence used in the last command's contest.
fn defence_used(t: &T) -> Defence {
    t.last
        .iter()
        .find_map(|e| match e {
            Event::Contest { with, .. } => Some(*with),
            _ => None,
        })
        .expect("a contest")
}

fn faces(r: &Rolled) -> Vec<u16> {
    r.roll.faces.as_slice().to_vec()
}

/// The Incapacity Roll of the last command: (net Boons, total, passed).
fn incapacity_roll(t: &T) -> (i16, i16, bool) {
    t.last
        .iter()
        .find_map(|e| match e {
            Event::IncapacityRolled { roll, passed, .. } => Some((roll.net, roll.total, *passed)),
            _ => None,
        })
        .expect("an Incapacity Roll")
}

/// Index of the first event matching `f` in the last command.
fn at(t: &T, f: impl Fn(&Event) -> bool) -> usize {
    t.last.iter().position(f).expect("event not found")
}

// ---------------------------------------------------------------------------------------------
// THR-R202: "+N"
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r202_gaining_plus_n_adds_n_to_x() {
    // b has Bleed 1; cut gives +2 Bleed: 3.
    let mut t = duel("", "", "");
    t.cmd("gm status b bleed =1");
    t.cmd("act cut b");
    assert_eq!(t.ch("b").status(XStatus::Bleed), 3);
}

#[test]
fn thr_r202_a_character_without_the_status_gets_x_equal_to_n() {
    let mut t = duel("", "", "");
    assert_eq!(t.ch("b").status(XStatus::Bleed), 0);
    t.cmd("act cut b");
    assert_eq!(t.ch("b").status(XStatus::Bleed), 2);
    // Precision Slash's Effect "+1 Bleed" on Bleed 2: 2 + 1.
    let mut u = game_at(
        "",
        "attributes = { fin = 2 }\ntraining = { dueling = 3 }\nabilities = [\"precision-slash\"]",
        "1,0",
        "",
        "",
    );
    begin(&mut u);
    u.cmd("gm status b bleed =2");
    u.dice(&[1, 1, 6, 6]); // a miss: the Effect applies anyway
    u.cmd("act precision-slash b");
    u.cmd("defend resilience");
    u.assert_dice_used();
    assert_eq!(u.ch("b").status(XStatus::Bleed), 3);
}

// ---------------------------------------------------------------------------------------------
// THR-R203 to THR-R210: what each status does
// ---------------------------------------------------------------------------------------------

/// `a` is Exhausted (Fatigue 5 over Tolerance 3) with Bleed `x`, and Dashes: the Action calls
/// for its Incapacity Roll.
fn bleeding_dash(options: &str, x: u8, dice: &[u16]) -> T {
    let mut t = duel(options, "", "");
    t.set("a", "fatigue", 5);
    t.cmd(&format!("gm status a bleed ={x}"));
    t.dice(dice);
    t.cmd("act dash");
    t.assert_dice_used();
    t
}

#[test]
fn thr_r203_bleed_puts_a_bane_on_incapacity_rolls() {
    // 3 dice, the worst two kept: 6 + 1 + Resilience 0 = 7 > Load 5.
    let t = bleeding_dash("", 1, &[6, 6, 1]);
    assert_eq!(incapacity_roll(&t), (-1, 7, true));
    assert!(!t.ch("a").incapacitated);
    // Without Bleed the same first dice would keep 6 + 6.
    let mut t = duel("", "", "");
    t.set("a", "fatigue", 5);
    t.dice(&[6, 6]);
    t.cmd("act dash");
    assert_eq!(incapacity_roll(&t), (0, 12, true));
}

#[test]
fn thr_r212_bleed_2_is_still_one_bane() {
    let t = bleeding_dash("", 2, &[6, 6, 1]);
    assert_eq!(incapacity_roll(&t), (-1, 7, true));
}

#[test]
fn thr_r212_option_status_effect_scales_bleed_2_is_two_banes() {
    // 4 dice, the worst two: 1 + 1 = 2, not above Load 5: Incapacitated.
    let t = bleeding_dash("status-effect-scales = true", 2, &[6, 6, 1, 1]);
    assert_eq!(incapacity_roll(&t), (-2, 2, false));
    // (a was the only PC, so the combat ends there.)
    assert!(t.last.iter().any(|e| matches!(e, Event::Incapacitated { .. })));
}

#[test]
fn thr_r204_blinded_halves_range_rounding_up_and_banes_non_adjacent_attacks() {
    // Basic Attack has Range 3: Blinded, 2. c at distance 3 is out of reach, b at 2 is not.
    let mut t = game_at("", "", "2,0", "", &who("c", "npcs", "3,0", ""));
    begin(&mut t);
    t.cmd("gm status a blinded =1");
    assert_eq!(t.reject("act basic-attack c").code, "out-of-range");
    // Attack roll: 1 Bane (Blinded, b is not adjacent): the worst two of 6, 6, 1.
    t.dice(&[6, 6, 1, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let (att, _, _) = contest(&t);
    let att = att.unwrap();
    assert_eq!((att.net, faces(&att), att.total), (-1, vec![6, 6, 1], 10));
}

#[test]
fn thr_r204_without_blinded_the_same_attacks_reach_3_with_no_bane() {
    let mut t = game_at("", "", "3,0", "", "");
    begin(&mut t);
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, 0);
}

#[test]
fn thr_r212_option_status_effect_scales_blinded_2_is_two_banes() {
    let mut t = game_at("status-effect-scales = true", "", "2,0", "", "");
    begin(&mut t);
    t.cmd("gm status a blinded =2");
    t.dice(&[6, 6, 6, 1, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, -2);
}

#[test]
fn thr_r204_blinded_range_1_stays_1_and_adjacent_attacks_take_no_bane() {
    let mut t = duel("", "", "");
    t.cmd("gm status a blinded =1");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("act jab b"); // Range 1 → 1: still reaches the adjacent b
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, 0);
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r205_burning_deals_1_fatigue_at_the_end_of_its_bearers_turn() {
    let mut t = duel("", "", "");
    t.cmd("gm status a burning =3");
    t.cmd("gm status b burning =1");
    t.cmd("end");
    // X 3 still means 1 Fatigue (THR-R212); b's Burning does nothing on a's turn.
    assert_eq!(t.ch("a").fatigue, 1);
    assert_eq!(t.ch("b").fatigue, 0);
    assert_eq!(t.ch("a").status(XStatus::Burning), 2);
    // b's own turn ends: its Burning deals 1 and ticks to 0.
    begin(&mut t);
    assert_eq!(t.turn().0, "b");
    t.cmd("end");
    assert_eq!(t.ch("b").fatigue, 1);
    assert_eq!(t.ch("b").status(XStatus::Burning), 0);
}

#[test]
fn thr_r205_any_recover_ends_burning() {
    for option in ["fatigue", "stress"] {
        let mut t = duel("", "", "");
        t.cmd("gm status a burning =2");
        t.set("a", "fatigue", 2);
        t.cmd(&format!("act recover option {option}"));
        assert_eq!(t.ch("a").status(XStatus::Burning), 0, "{option}");
        t.cmd("end");
        // No Burning left at the end of the turn: no Fatigue from it.
        let expected = if option == "fatigue" { 1 } else { 2 };
        assert_eq!(t.ch("a").fatigue, expected, "{option}");
    }
}

#[test]
fn thr_r212_option_status_effect_scales_burning_deals_x_fatigue() {
    let mut t = duel("status-effect-scales = true", "", "");
    t.cmd("gm status a burning =2");
    t.cmd("end");
    assert_eq!(t.ch("a").fatigue, 2);
    assert_eq!(t.ch("a").status(XStatus::Burning), 1);
}

#[test]
fn thr_r206_hamstrung_attacker_is_dazed_after_the_attack_resolves() {
    let mut t = duel("", "", "");
    t.cmd("gm status a hamstrung =1");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(t.ch("a").has(Cond::Dazed));
    let contest_at = at(&t, |e| matches!(e, Event::Contest { .. }));
    let dazed_at = at(&t, |e| {
        matches!(
            e,
            Event::Condition {
                cond: Cond::Dazed,
                on: true,
                ..
            }
        )
    });
    assert!(contest_at < dazed_at);
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r206_hamstrung_does_nothing_to_an_ability_that_is_not_an_attack() {
    let mut t = duel("", "", "");
    t.cmd("gm status a hamstrung =1");
    t.cmd("act cut b");
    assert!(!t.ch("a").has(Cond::Dazed));
}

#[test]
fn thr_r206_option_hamstrung_dazes_when_the_attack_is_declared() {
    let mut t = duel("hamstrung-after-attack = false", "", "");
    t.cmd("gm status a hamstrung =1");
    t.cmd("act jab b");
    // Already Dazed while b picks its defence, before any roll.
    assert!(t.ch("a").has(Cond::Dazed));
    t.dice(&[4, 4, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(t.ch("a").has(Cond::Dazed));
}

#[test]
fn thr_r207_shocked_puts_a_bane_on_panic_rolls() {
    // a is Frayed (Stress 3 over Tolerance 2): its Panic Roll at the start of its turn has one
    // Bane: the worst two of 6, 6, 1 + Resolve 0 = 7 > 3.
    let mut t = game_at("", "", "1,0", "", "");
    t.set("a", "stress", 3);
    t.cmd("gm status a shocked =1");
    t.dice(&[6, 6, 1]);
    begin(&mut t);
    t.assert_dice_used();
    let panic = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::PanicRolled { roll, passed, .. } => Some((roll.net, roll.total, *passed)),
            _ => None,
        })
        .expect("a Panic Roll");
    assert_eq!(panic, (-1, 7, true));
}

#[test]
fn thr_r208_slowed_takes_2_from_speed() {
    // b stands out of the way on the north row.
    let mut t = game_at("", "", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =1");
    assert_eq!(t.reject("move 3,0").code, "not-enough-movement");
    t.cmd("move 2,0");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

#[test]
fn thr_r208_slowed_at_speed_1_leaves_no_movement() {
    // Speed 1, Slowed: −1, floored at 0. Not a single step.
    let mut t = game_at("", "speed = 1", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =1");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

#[test]
fn thr_r208_option_speed_floor_1() {
    // Speed 2, Slowed: 0, unless the floor is 1.
    let mut t = game_at("", "speed = 2", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =1");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    let mut t = game_at("speed-floor = 1", "speed = 2", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =1");
    t.cmd("step e");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

#[test]
fn thr_r208_a_slowed_character_cannot_defend_with_evasion() {
    let mut t = duel("", "", "evasion = 3");
    t.cmd("gm status b slowed =1");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("act jab b"); // only Resilience is left: no defence decision
    t.assert_dice_used();
    assert_eq!(defence_used(&t), Defence::Resilience);
}

#[test]
fn thr_r209_vulnerable_2_and_hit_for_2_fatigue_takes_4_and_vulnerable_ends() {
    let mut t = duel("", "", "");
    t.cmd("gm status b vulnerable =2");
    // 3 + 3 + 3 = 9 against 3 + 3 + 0 = 6: a Success, 2 Fatigue.
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).2, Verdict::AttackerSuccess);
    assert_eq!(t.ch("b").fatigue, 4);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
}

#[test]
fn thr_r209_an_evasion_success_at_vulnerable_1_gives_vulnerable_2_and_no_boon() {
    let mut t = duel("", "", "");
    t.cmd("gm status b vulnerable =1");
    // 2 + 2 + 3 = 7 against 4 + 4 + 0 = 8 with only two dice: no automatic Boon.
    t.dice(&[2, 2, 4, 4]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    let (_, def, verdict) = contest(&t);
    assert_eq!(verdict, Verdict::DefenderSuccess);
    assert_eq!(def.unwrap().net, 0);
    assert_eq!(faces(&def.unwrap()).len(), 2);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 2);
    assert_eq!(t.ch("b").fatigue, 0);
}

#[test]
fn thr_r209_vulnerable_adds_to_stress_too_and_ignores_the_other_kind_of_x() {
    // Vulnerable 1, hit for 1 Stress: 2 Stress, Vulnerable gone.
    let mut t = duel("", "", "");
    t.cmd("gm status b vulnerable =1");
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act taunt b");
    t.cmd("defend resolve");
    t.assert_dice_used();
    assert_eq!((t.ch("b").stress, t.ch("b").fatigue), (2, 0));
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
    let dmg: Vec<_> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Damage {
                gauge,
                amount,
                vulnerable,
                ..
            } => Some((*gauge, *amount, *vulnerable)),
            _ => None,
        })
        .collect();
    assert_eq!(dmg, vec![(Gauge::Stress, 2, 1)]);
}

#[test]
fn thr_r210_weakened_puts_a_bane_on_attack_rolls() {
    let mut t = duel("", "", "");
    t.cmd("gm status a weakened =1");
    // The worst two of 6, 6, 2: 8 + 3 = 11 against 2.
    t.dice(&[6, 6, 2, 1, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let att = contest(&t).0.unwrap();
    assert_eq!((att.net, att.total), (-1, 11));
}

#[test]
fn thr_r212_weakened_3_is_still_one_bane() {
    let mut t = duel("", "", "");
    t.cmd("gm status a weakened =3");
    t.dice(&[6, 6, 2, 1, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, -1);
}

#[test]
fn thr_r212_option_status_effect_scales_weakened_2_is_two_banes() {
    let mut t = duel("status-effect-scales = true", "", "");
    t.cmd("gm status a weakened =2");
    t.dice(&[6, 6, 2, 2, 1, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, -2);
}

#[test]
fn thr_r212_banes_of_different_statuses_stack() {
    // Weakened and Blinded (b 2 squares away): 2 Banes on the Basic Attack.
    let mut t = game_at("", "", "2,0", "", "");
    begin(&mut t);
    t.cmd("gm status a weakened =1");
    t.cmd("gm status a blinded =1");
    // The worst two of 6, 6, 6, 1: 7 + 3.
    t.dice(&[6, 6, 6, 1, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let att = contest(&t).0.unwrap();
    assert_eq!((att.net, att.total), (-2, 10));
}

#[test]
fn thr_r212_slowed_2_is_still_minus_2_speed() {
    let mut t = game_at("", "", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =2");
    t.cmd("move 2,0");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

#[test]
fn thr_r212_option_status_effect_scales_slowed_2_is_minus_4_speed() {
    let mut t = game_at("status-effect-scales = true", "", "6,1", "", "");
    begin(&mut t);
    t.cmd("gm status a slowed =2");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
}

// ---------------------------------------------------------------------------------------------
// THR-R211, THR-R212: ticking down
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r211_each_status_drops_by_1_at_the_end_of_its_bearers_own_turn() {
    let mut t = duel("", "", "");
    for (s, x) in [
        ("bleed", 2),
        ("slowed", 1),
        ("weakened", 3),
        ("shocked", 1),
        ("hamstrung", 2),
    ] {
        t.cmd(&format!("gm status a {s} ={x}"));
    }
    t.cmd("gm status b bleed =2");
    t.cmd("end");
    let a = t.ch("a");
    assert_eq!(a.status(XStatus::Bleed), 1);
    assert_eq!(a.status(XStatus::Weakened), 2);
    assert_eq!(a.status(XStatus::Hamstrung), 1);
    // THR-R212: X 1 drops to 0, which ends the status.
    assert_eq!(a.status(XStatus::Slowed), 0);
    assert_eq!(a.status(XStatus::Shocked), 0);
    // b's statuses wait for b's own turn.
    assert_eq!(t.ch("b").status(XStatus::Bleed), 2);
    begin(&mut t);
    t.cmd("end");
    assert_eq!(t.ch("b").status(XStatus::Bleed), 1);
    assert_eq!(t.ch("a").status(XStatus::Bleed), 1);
}

#[test]
fn thr_r211_the_tick_comes_after_the_other_end_of_turn_effects() {
    // Burning 1 still burns (1 Fatigue) before it ticks down to 0.
    let mut t = duel("", "", "");
    t.cmd("gm status a burning =1");
    t.cmd("end");
    assert_eq!(t.ch("a").fatigue, 1);
    assert_eq!(t.ch("a").status(XStatus::Burning), 0);
    let hurt = at(&t, |e| matches!(e, Event::Damage { .. }));
    let tick = at(&t, |e| {
        matches!(
            e,
            Event::Status {
                status: XStatus::Burning,
                x: 0,
                ..
            }
        )
    });
    assert!(hurt < tick);
}
