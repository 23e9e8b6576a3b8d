//! Fatigue, Stress, Frayed and Panic (THR-R152 to THR-R163, THR-R228, THR-H19, THR-H20,
//! THR-H25).

use crate::common;
use common::*;
use fray_thrum::ability::Cond;
use fray_thrum::event::{Event, Rolled};
use fray_thrum::state::Step;

/// D (a PC, Resolve 0, Tolerances 3 / 2) and E (an NPC with attack +2, 2 squares east).
/// D acts first: Initiative D 12, E 2; E, last in the order, begins its turns by itself.
fn duo(d_extra: &str, rest: &str) -> T {
    let e = with_abilities(
        &[". . . .", ". . . ."],
        &format!(
            "{rest}{}{}",
            who("d", "pcs", "0,0", d_extra),
            who("e", "npcs", "2,0", "attack = 2\nabilities = [\"mind-spike\"]")
        ),
        ABILITIES,
    );
    let t = t_with(&e, &[6, 6, 1, 1]);
    assert_eq!(t.order(), vec!["d", "e"]);
    t
}

const ABILITIES: &str = r#"
[[ability]]
id = "mind-spike"
type = "action"
attack = "mental"
range = 3
target = "enemy"
success = [{ stress = 1 }]

[[ability]]
id = "heavy-blow"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = 1 }]
overexert = [{ label = "hard", extra = [{ fatigue = 1 }] }]
"#;

/// Skips Round Zero: D's slot is up, in round 1.
fn to_d(t: &mut T) {
    t.skip_round_zero();
    assert_eq!(t.turn(), ("d".into(), Step::Slot));
}

fn panic_rolls(ev: &[Event]) -> Vec<(Rolled, i16, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::PanicRolled { roll, load, passed, .. } => Some((*roll, *load, *passed)),
            _ => None,
        })
        .collect()
}

fn defence(ev: &[Event]) -> Rolled {
    ev.iter()
        .find_map(|e| match e {
            Event::Contest { defence: Some(d), .. } => Some(**d),
            _ => None,
        })
        .expect("a contest with a defence roll")
}

#[test]
fn thr_r152_thr_r153_attacks_add_fatigue_or_stress_to_the_loads() {
    // THR-R152, THR-R153.
    let mut t = duo("", "");
    to_d(&mut t);
    t.cmds(&["begin", "end"]);
    // E: Basic Attack, 4 + 4 + 2 = 10 against 1 + 2 = 3: 2 Fatigue.
    t.cmd("act basic-attack d");
    t.dice(&[4, 4, 1, 2]);
    t.cmd("defend resilience");
    assert_eq!((t.ch("d").fatigue, t.ch("d").stress), (2, 0));
    t.cmd("end");
    // Round 2: a Mental Attack that deals Stress: 10 against 3: 1 Stress.
    t.cmds(&["begin", "end"]);
    t.cmd("act mind-spike d");
    t.dice(&[4, 4, 1, 2]);
    t.cmd("defend resolve");
    t.assert_dice_used();
    assert_eq!((t.ch("d").fatigue, t.ch("d").stress), (2, 1));
    // No hit points: however high the Fatigue Load, only an Incapacity Roll takes a character
    // out.
    t.set("d", "fatigue", 12);
    assert!(t.ch("d").able());
}

#[test]
fn thr_r154_both_loads_are_0_when_combat_starts() {
    // Even a PC whose Tolerances were lowered in an earlier combat starts at Loads 0.
    let t = duo("fatigue-tolerance = 1\nstress-tolerance = 1", "");
    for id in ["d", "e"] {
        assert_eq!((t.ch(id).fatigue, t.ch(id).stress), (0, 0));
    }
    assert_eq!((t.ch("d").ft, t.ch("d").st), (1, 1));
}

#[test]
fn thr_r155_thr_r156_frayed_only_above_stress_tolerance_and_banes_defence_rolls() {
    // THR-R155, THR-R156.
    let mut t = duo("", "");
    to_d(&mut t);
    // Stress Load 2 = Stress Tolerance 2: not Frayed.
    t.set("d", "stress", 2);
    assert!(!t.ch("d").frayed());
    // D is not Frayed at the start of its turn: no Panic Roll (THR-R157).
    t.cmd("begin");
    assert!(panic_rolls(&t.last).is_empty());
    t.cmd("end");
    // E attacks: no Bane on D's Resilience roll.
    t.cmd("act basic-attack d");
    t.dice(&[3, 3, 2, 2]);
    t.cmd("defend resilience");
    assert_eq!(defence(&t.last).net, 0);
    t.cmd("end");
    // Stress Load 3 > 2: Frayed, +1 Bane on the Resilience roll (3 dice, worst two).
    t.set("d", "stress", 3);
    assert!(t.ch("d").frayed());
    t.dice(&[6, 6]); // D's Panic Roll passes
    t.cmds(&["begin", "end"]);
    t.cmd("act basic-attack d");
    t.dice(&[3, 3, 6, 2, 1]);
    t.cmd("defend resilience");
    let d = defence(&t.last);
    assert_eq!((d.net, d.total), (-1, 3));
    t.cmd("end");
    // On Evasion the Frayed Bane cancels the automatic Boon.
    t.dice(&[6, 6]);
    t.cmds(&["begin", "end"]);
    t.cmd("act basic-attack d");
    t.dice(&[3, 3, 1, 1]);
    t.cmd("defend evasion");
    t.assert_dice_used();
    assert_eq!(defence(&t.last).net, 0);
}

#[test]
fn thr_r157_thr_r158_a_frayed_character_rolls_panic_at_the_start_of_its_turn() {
    // THR-R157, THR-R158.
    let mut t = duo("", "");
    to_d(&mut t);
    t.set("d", "stress", 3);
    // 2d6 + Resolve 0 = 4 > Stress Load 3: passed, nothing changes.
    t.dice(&[2, 2]);
    t.cmd("begin");
    t.assert_dice_used();
    let p = panic_rolls(&t.last);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].0.total, p[0].1, p[0].2), (4, 3, true));
    // The roll comes first in the turn (Start of Turn, step a).
    let started = t
        .last
        .iter()
        .position(|e| matches!(e, Event::TurnStarted { .. }))
        .unwrap();
    let rolled = t
        .last
        .iter()
        .position(|e| matches!(e, Event::PanicRolled { .. }))
        .unwrap();
    assert!(started < rolled);
    let d = t.ch("d");
    assert_eq!((d.fatigue, d.stress, d.st), (0, 3, 2));
    assert!(!d.has(Cond::Stunned));
    t.cmds(&["end", "end"]); // d, e
    // Next turn: 2 + 1 = 3 is not greater than 3: a tie fails.
    t.dice(&[2, 1]);
    t.cmd("begin");
    let p = panic_rolls(&t.last);
    assert_eq!((p[0].0.total, p[0].2), (3, false));
}

#[test]
fn thr_r159_thr_r160_thr_r161_a_failed_panic_roll() {
    // THR-R159, THR-R160, THR-R161.
    let mut t = duo("", "");
    to_d(&mut t);
    t.set("d", "stress", 4);
    t.set("d", "fatigue", 2);
    t.dice(&[1, 2]);
    t.cmd("begin");
    t.assert_dice_used();
    let d = t.ch("d");
    assert!(d.has(Cond::Stunned)); // THR-R159
    assert_eq!((d.fatigue, d.stress), (6, 0)); // THR-R160: 2 + 4, then 0
    assert_eq!(d.st, 1); // THR-R161
}

#[test]
fn thr_r163_panic_worked_example() {
    // Stress Tolerance 2, Stress Load 3, Fatigue Load 1, Resolve +1.
    let mut t = duo("resolve = 1", "");
    to_d(&mut t);
    t.set("d", "stress", 3);
    t.set("d", "fatigue", 1);
    assert_eq!(t.ch("d").st, 2);
    // The Panic Roll totals 1 + 1 + 1 = 3: a tie does not exceed 3.
    t.dice(&[1, 1]);
    t.cmd("begin");
    t.assert_dice_used();
    let p = panic_rolls(&t.last);
    assert_eq!((p[0].0.total, p[0].1, p[0].2), (3, 3, false));
    let d = t.ch("d");
    assert_eq!((d.fatigue, d.stress, d.st), (4, 0, 1));
    assert!(d.has(Cond::Stunned));
}

#[test]
fn thr_r162_tolerance_stays_at_0_and_panic_stun_limits_this_turn() {
    let mut t = duo("", "");
    to_d(&mut t);
    t.set("d", "stress-tolerance", 0);
    t.set("d", "stress", 3);
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert_eq!(t.ch("d").st, 0);
    assert_eq!(t.ch("d").fatigue, 3);
    // THR-H20: Stunned limits this very turn: Move or Action, not both.
    assert!(t.s().turn.stunned);
    t.cmd("move 1,1");
    let r = t.reject("act dash");
    assert_eq!(r.code, "stunned");
    t.cmd("end");
    // Stunned ends at the end of that turn.
    assert!(!t.ch("d").has(Cond::Stunned));
}

#[test]
fn thr_r162_option_tolerance_floor() {
    let mut t = duo("", "[options]\ntolerance-floor = -1\n");
    to_d(&mut t);
    t.set("d", "stress-tolerance", 0);
    t.set("d", "stress", 3);
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert_eq!(t.ch("d").st, -1);
}

#[test]
fn thr_h20_option_panic_stun_limits_the_next_turn() {
    let mut t = duo("", "[options]\npanic-stun = \"next-turn\"\n");
    to_d(&mut t);
    t.set("d", "stress", 3);
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert!(t.ch("d").has(Cond::Stunned));
    // This turn is free: D moves and acts.
    assert!(!t.s().turn.stunned);
    t.cmd("move 1,1");
    t.cmd("act dash");
    t.cmd("end");
    assert!(t.ch("d").has(Cond::Stunned));
    t.cmd("end"); // e
    // The next turn is limited, and Stunned ends with it.
    t.cmd("begin");
    assert!(t.s().turn.stunned);
    t.cmd("move 0,1");
    assert_eq!(t.reject("act dash").code, "stunned");
    t.cmd("end");
    assert!(!t.ch("d").has(Cond::Stunned));
}

/// D stands on a ledge: east of it the ground is 2 levels lower.
fn ledge(rest: &str) -> T {
    let toml = enc(
        &[". -2 -2 -2"],
        &format!("{rest}{}{}", who("d", "pcs", "0,0", ""), who("e", "npcs", "3,0", "")),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1]);
    assert_eq!(t.order(), vec!["d", "e"]);
    // Frayed (Stress 3 > 2) and Exhausted (Fatigue 4 > 3).
    t.set("d", "stress", 3);
    t.set("d", "fatigue", 4);
    t
}

#[test]
fn thr_r228_panic_incapacity_and_environment_rolls_are_not_defensive_rolls() {
    let mut t = ledge("");
    // Panic Roll: 2 dice, no Frayed Bane.
    t.dice(&[6, 6]);
    t.cmd("begin");
    assert_eq!(panic_rolls(&t.last)[0].0.net, 0);
    // The drop roll against the environment: 2 dice for D (no Bane), 2 for the environment.
    t.dice(&[3, 3, 1, 1]);
    t.cmd("step e roll end");
    let drop = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::DropRolled { roll, passed, .. } => Some((*roll, *passed)),
            _ => None,
        })
        .unwrap();
    assert_eq!((drop.0.net, drop.1), (0, true));
    // The Incapacity Roll after an Action: neither Frayed's nor Exhausted's Bane.
    t.dice(&[6, 6]);
    t.cmd("act dash");
    t.assert_dice_used();
    let inc = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::IncapacityRolled { roll, .. } => Some(*roll),
            _ => None,
        })
        .unwrap();
    assert_eq!(inc.net, 0);
}

#[test]
fn thr_r228_option_defensive_attributes_banes_the_panic_roll() {
    let mut t = ledge("[options]\nfrayed-rolls = \"defensive-attributes\"\n");
    // 3 dice, worst two: 1 + 6.
    t.dice(&[6, 6, 1]);
    t.cmd("begin");
    t.assert_dice_used();
    let p = panic_rolls(&t.last);
    assert_eq!((p[0].0.net, p[0].0.total), (-1, 7));
}

#[test]
fn thr_h25_concentrate_does_not_help_the_panic_roll() {
    let toml = enc(
        &[". . . ."],
        &format!("{}{}", who("d", "pcs", "0,0", ""), who("e", "npcs", "3,0", "")),
    );
    let mut t = T::new(&toml, &[6, 6, 1, 1]);
    t.cmds(&["stance concentrate", "end"]);
    t.set("d", "stress", 3);
    t.dice(&[6, 6]);
    t.cmd("begin");
    t.assert_dice_used();
    assert_eq!(panic_rolls(&t.last)[0].0.net, 0);
}

#[test]
fn thr_h25_option_stances_help_the_panic_roll() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "[options]\nstances-help-fixed-rolls = true\n{}{}",
            who("d", "pcs", "0,0", ""),
            who("e", "npcs", "3,0", "")
        ),
    );
    let mut t = T::new(&toml, &[6, 6, 1, 1]);
    t.cmds(&["stance concentrate", "end"]);
    t.set("d", "stress", 3);
    t.dice(&[1, 6, 6]);
    t.cmd("begin");
    t.assert_dice_used();
    assert_eq!(panic_rolls(&t.last)[0].0.net, 1);
}

/// D (a PC with Heavy Blow) next to E; D acts first.
fn blow(rest: &str) -> T {
    let e = with_abilities(
        &[". . . ."],
        &format!(
            "{rest}{}{}",
            who("d", "pcs", "0,0", "attack = 2\nabilities = [\"heavy-blow\"]"),
            who("e", "npcs", "1,0", "")
        ),
        ABILITIES,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.set("d", "stress", 2);
    t.cmd("gm status d dazed on");
    t.cmd("begin");
    t
}

#[test]
fn thr_h19_overexert_costs_1_stress_and_may_fray_the_user() {
    let mut t = blow("");
    t.cmd("act heavy-blow e overexert hard");
    assert_eq!(t.ch("d").stress, 3);
    assert!(t.ch("d").frayed());
    // The Stress is the user's own, not an enemy's: Dazed stays.
    assert!(t.ch("d").has(Cond::Dazed));
    // 4 + 4 + 2 = 10 against 1 + 1 = 2: 1 + 1 Fatigue.
    t.dice(&[4, 4, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("e").fatigue, 2);
}

#[test]
fn thr_h19_option_overexert_may_not_fray() {
    let mut t = blow("[options]\noverexert-may-fray = false\n");
    assert_eq!(t.reject("act heavy-blow e overexert hard").code, "would-fray");
    t.cmd("act heavy-blow e");
    assert_eq!(t.ch("d").stress, 2);
}

#[test]
fn thr_h19_option_overexert_stress() {
    let mut t = blow("[options]\noverexert-stress = 2\n");
    t.cmd("act heavy-blow e overexert hard");
    assert_eq!(t.ch("d").stress, 4);
}
