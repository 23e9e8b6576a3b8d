//! The Basic Combat Abilities: actions and stances (THR-R189 to THR-R201; THR-H6, THR-H25).

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::ability::{Cond, XStatus};
use fray_thrum::event::{Event, Rolled};
use fray_thrum::state::Step;

/// A Mental Attack, for Concentrate.
const ABILITIES: &str = r#"
[[ability]]
id = "taunt"
type = "action"
attack = "mental"
range = 3
target = "enemy"
success = [{ stress = 1 }]
"#;

const MAP: [&str; 3] = [". . . . . . . .", ". . . . . . . .", ". . . . . . . ."];

fn opts(o: &str) -> String {
    format!("[options]\n{o}\n")
}

/// Begins the turn if the slot asks whether to begin or Delay.
fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// A game on an open 8×3 map: Round Zero runs `r0` (in turn order, the rest answered with
/// `end`), then the first slot of round 1 begins.
fn game(rest: &str, init: &[u16], r0: &[&str]) -> T {
    let e = with_abilities(&MAP, rest, ABILITIES);
    let mut t = t_with(&e, init);
    t.cmds(r0);
    t.skip_round_zero();
    begin(&mut t);
    t
}

/// The rolls of the single contest among events.
fn contest(ev: &[Event]) -> (Rolled, Rolled) {
    let v: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Contest {
                attack: Some(a),
                defence: Some(d),
                ..
            } => Some((**a, **d)),
            _ => None,
        })
        .collect();
    assert_eq!(v.len(), 1, "expected one contest: {v:?}");
    v[0]
}

fn incapacity_rolls(ev: &[Event]) -> Vec<Rolled> {
    ev.iter()
        .filter_map(|e| match e {
            Event::IncapacityRolled { roll, .. } => Some(*roll),
            _ => None,
        })
        .collect()
}

/// A PC `a` (attack +3) at 0,0 acts first; an NPC `b` stands at `b_at`.
fn pair(options: &str, a: &str, b_at: &str, b: &str) -> T {
    game(
        &format!(
            "{options}{}{}",
            who("a", "pcs", "0,0", &format!("attack = 3\nabilities = [\"taunt\"]\n{a}")),
            who("b", "npcs", b_at, b)
        ),
        &[6, 6, 1, 1],
        &[],
    )
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r189_basic_attack_has_range_3_against_one_enemy() {
    let t = pair("", "", "3,0", "");
    assert!(t.legal().contains(&"act basic-attack b".to_string()));
    assert!(!t.legal().contains(&"act basic-attack a".to_string()));
    let mut t = pair("", "", "4,0", "");
    assert_eq!(t.reject("act basic-attack b").code, "out-of-range");
}

#[test]
fn thr_r189_basic_attack_is_a_ranged_physical_attack_at_the_best_art_for_2_fatigue() {
    // Brawling 3 with POW 2: +3; Animism 1: +2.
    let mut t = game(
        &format!(
            "{}{}",
            who(
                "k",
                "pcs",
                "0,0",
                "attributes = { pow = 2 }\ntraining = { brawling = 3, animism = 1 }"
            ),
            who("b", "npcs", "1,0", "")
        ),
        &[6, 6, 1, 1],
        &[],
    );
    t.cmd("act basic-attack b");
    // Physical: Resilience or Evasion.
    assert_eq!(t.legal(), vec!["defend resilience", "defend evasion"]);
    // THR-R116: Ranged, so +1 Bane for the adjacent enemy: [6, 5, 6] keeps 5 + 6, + 3 = 14
    // against 10.
    t.dice(&[6, 5, 6, 5, 5]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let (a, d) = contest(&t.last);
    assert_eq!((a.net, a.modifier, a.total), (-1, 3, 14));
    assert_eq!(d.total, 10);
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r190_dash_moves_again_up_to_speed() {
    let mut t = pair("", "", "7,2", "");
    t.cmd("move 2,0");
    assert_eq!(t.s().turn.spent, 2);
    t.cmd("act dash");
    assert_eq!(t.turn(), ("a".to_string(), Step::ActionMove));
    // A fresh allowance of Speed 4 (not the 2 left over), under the normal rules.
    t.cmd("move 6,0");
    assert_eq!(t.ch("a").pos, Some(Pos::new(6, 0)));
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    // Dash was the Action.
    assert_eq!(t.reject("act dash").code, "not-now");
}

#[test]
fn thr_r191_recover_lowers_fatigue_by_1() {
    let mut t = pair("", "", "7,2", "");
    t.set("a", "fatigue", 2);
    t.set("a", "stress", 2);
    assert_eq!(t.reject("act recover").code, "bad-pick"); // one option must be picked
    t.cmd("act recover option fatigue");
    assert_eq!((t.ch("a").fatigue, t.ch("a").stress), (1, 2));
}

#[test]
fn thr_r191_recover_lowers_stress_by_1() {
    let mut t = pair("", "", "7,2", "");
    t.set("a", "fatigue", 2);
    t.set("a", "stress", 2);
    t.cmd("act recover option stress");
    assert_eq!((t.ch("a").fatigue, t.ch("a").stress), (2, 1));
}

#[test]
fn thr_r191_recover_ends_one_status() {
    let mut t = pair("", "", "7,2", "");
    t.cmd("gm status a bleed =2");
    t.cmd("gm status a weakened =1");
    assert_eq!(t.reject("act recover option status").code, "bad-pick"); // which one?
    assert_eq!(t.reject("act recover option status status slowed").code, "bad-pick"); // not on
    t.cmd("act recover option status status bleed");
    assert_eq!(t.ch("a").status(XStatus::Bleed), 0);
    assert_eq!(t.ch("a").status(XStatus::Weakened), 1);
}

#[test]
fn thr_r193_recover_ends_statuses_without_x_but_not_mark_or_helpful_ones() {
    let mut t = pair("", "", "7,2", "");
    t.cmd("gm status a dazed on");
    t.cmd("gm status a hidden on");
    t.set("a", "mark", 2);
    // Mark is not a status at all; Hidden helps.
    let r = t.reject("act recover option status status mark");
    assert_eq!(r.code, "unknown-command", "{}", r.reason);
    assert!(r.reason.contains("'mark' is not a status"), "{}", r.reason);
    assert_eq!(t.reject("act recover option status status hidden").code, "bad-pick");
    let legal = t.legal();
    assert!(legal.contains(&"act recover option status status dazed".to_string()));
    assert!(!legal.iter().any(|c| c.ends_with("status hidden")));
    t.cmd("act recover option status status dazed");
    assert!(!t.ch("a").has(Cond::Dazed));
    assert!(t.ch("a").has(Cond::Hidden));
    assert_eq!(t.ch("a").mark, 2);
}

/// a at 0,0 with its ally c at 1,0 (Incapacitated with Fatigue 7, Stress 3 and a mixture of
/// statuses), a second ally d at 0,1 and an enemy b far away.
fn rescue(c_at: &str) -> T {
    let mut t = game(
        &format!(
            "{}{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("c", "pcs", c_at, ""),
            who("d", "pcs", "0,1", ""),
            who("b", "npcs", "7,2", "")
        ),
        &[6, 6, 5, 5, 4, 4, 1, 1],
        &[],
    );
    t.set("c", "fatigue", 8);
    t.cmd("gm incapacitate c"); // Fatigue 7, Fatigue Tolerance 2
    t.set("c", "stress", 3);
    for s in [
        "slowed =2",
        "bleed =1",
        "dazed on",
        "stunned on",
        "immobilized on",
        "hidden on",
    ] {
        t.cmd(&format!("gm status c {s}"));
    }
    t.set("c", "mark", 2);
    t
}

#[test]
fn thr_r192_resuscitate_revives_halves_both_loads_and_clears_negative_statuses() {
    let mut t = rescue("1,0");
    assert_eq!(t.reject("act resuscitate d").code, "invalid-target"); // not Incapacitated
    t.cmd("act resuscitate c");
    let c = t.ch("c");
    assert!(!c.incapacitated);
    assert_eq!((c.fatigue, c.stress), (3, 1)); // 7 / 2 and 3 / 2, rounded down
    assert_eq!(c.ft, 2); // Tolerance is not restored
    for x in [XStatus::Slowed, XStatus::Bleed] {
        assert_eq!(c.status(x), 0, "{x:?}");
    }
    for k in [Cond::Dazed, Cond::Stunned, Cond::Immobilized] {
        assert!(!c.has(k), "{k:?}");
    }
    // THR-R193: Mark and the helpful Hidden stay.
    assert_eq!(c.mark, 2);
    assert!(c.has(Cond::Hidden));
}

#[test]
fn thr_r192_resuscitate_has_range_1_and_needs_an_incapacitated_ally() {
    let mut t = rescue("2,0");
    assert_eq!(t.reject("act resuscitate c").code, "out-of-range");
    // An Incapacitated enemy is not an ally.
    let mut t = finishing("");
    assert_eq!(t.reject("act resuscitate b").code, "invalid-target");
}

/// a next to b (Incapacitated) and d (up), both NPCs.
fn finishing(options: &str) -> T {
    let mut t = game(
        &format!(
            "{options}{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("b", "npcs", "1,0", ""),
            who("d", "npcs", "0,1", "")
        ),
        &[6, 6, 1, 1, 1, 2],
        &[],
    );
    t.set("b", "fatigue", 4);
    t.cmd("gm incapacitate b");
    t
}

#[test]
fn thr_r194_coup_de_grace_removes_an_incapacitated_enemy() {
    // THR-H6: available to everyone by default.
    let mut t = finishing("");
    assert_eq!(t.reject("act coup-de-grace d").code, "invalid-target"); // not Incapacitated
    t.cmd("act coup-de-grace b");
    assert!(t.ch("b").removed);
    assert!(!t.ch("d").removed);
}

#[test]
fn thr_r194_option_coup_de_grace_off() {
    // THR-H6 alternative.
    let mut t = finishing(&opts("coup-de-grace = false"));
    assert_eq!(t.reject("act coup-de-grace b").code, "unknown-ability");
    assert!(!t.legal().iter().any(|c| c.contains("coup-de-grace")));
}

#[test]
fn thr_r201_recover_out_of_exhaustion_makes_no_incapacity_roll() {
    // Fatigue Tolerance 3, Load 4: Exhausted. Recover to 3: no longer Exhausted, no roll
    // (no dice are scripted: a roll would fail the test).
    let mut t = pair("", "", "7,2", "");
    assert_eq!(t.ch("a").ft, 3);
    t.set("a", "fatigue", 4);
    t.cmd("act recover option fatigue");
    assert_eq!(t.ch("a").fatigue, 3);
    assert!(incapacity_rolls(&t.last).is_empty());
    t.assert_dice_used();
    // Recovering Stress instead leaves it Exhausted, so it rolls.
    let mut t = pair("", "", "7,2", "");
    t.set("a", "fatigue", 4);
    t.dice(&[3, 3]);
    t.cmd("act recover option stress");
    t.assert_dice_used();
    assert_eq!(incapacity_rolls(&t.last).len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Stances
// ---------------------------------------------------------------------------------------------

/// `a` attacks `b` (2 squares away), who entered `stance` in Round Zero and defends with
/// `defence`; returns b's defence roll.
fn defend_in_stance(stance: &str, act: &str, defence: &str, vulnerable: bool, dice: &[u16]) -> Rolled {
    let mut t = game(
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", "attack = 3\nabilities = [\"taunt\"]"),
            who("b", "npcs", "2,0", "")
        ),
        &[6, 6, 1, 1],
        &["end", &format!("stance {stance}")],
    );
    if vulnerable {
        t.cmd("gm status b vulnerable =1");
    }
    t.dice(dice);
    t.cmd(act);
    t.cmd(&format!("defend {defence}"));
    t.assert_dice_used();
    contest(&t.last).1
}

#[test]
fn thr_r195_brace_adds_a_boon_to_resilience_only() {
    let d = defend_in_stance("brace", "act basic-attack b", "resilience", false, &[1, 1, 2, 6, 5]);
    assert_eq!((d.net, d.total), (1, 11));
    let d = defend_in_stance("brace", "act basic-attack b", "evasion", false, &[1, 1, 2, 6, 5]);
    assert_eq!(d.net, 1); // Evasion's own Boon only
}

#[test]
fn thr_r196_dodge_adds_a_boon_to_evasion_on_top_of_its_own() {
    let d = defend_in_stance("dodge", "act basic-attack b", "evasion", false, &[1, 1, 2, 6, 5, 1]);
    assert_eq!((d.net, d.roll.faces.len(), d.total), (2, 4, 11));
    // Vulnerable: no automatic Boon, Dodge's alone.
    let d = defend_in_stance("dodge", "act basic-attack b", "evasion", true, &[1, 1, 2, 6, 5]);
    assert_eq!(d.net, 1);
    let d = defend_in_stance("dodge", "act basic-attack b", "resilience", false, &[1, 1, 2, 6]);
    assert_eq!(d.net, 0);
}

#[test]
fn thr_r197_concentrate_adds_a_boon_to_resolve_only() {
    let d = defend_in_stance("concentrate", "act taunt b", "resolve", false, &[1, 1, 2, 6, 5]);
    assert_eq!((d.net, d.total), (1, 11));
    let d = defend_in_stance("concentrate", "act basic-attack b", "resilience", false, &[1, 1, 2, 6]);
    assert_eq!(d.net, 0);
}

/// `b` (an NPC acting first) holds `stance`; it starts its turn with the given Loads, then
/// recovers Stress (the Action after which an Exhausted character rolls for Incapacity).
/// Returns the events of its turn start and of its Action.
fn fixed_rolls(options: &str, stance: &str, fatigue: i16, stress: i16, dice: &[u16]) -> Vec<Event> {
    let e = with_abilities(
        &MAP,
        &format!("{options}{}{}", who("a", "pcs", "0,0", ""), who("b", "npcs", "7,2", "")),
        ABILITIES,
    );
    let mut t = t_with(&e, &[1, 1, 6, 6]);
    t.cmds(&[&format!("stance {stance}"), "end"]);
    t.set("b", "fatigue", fatigue);
    t.set("b", "stress", stress);
    t.dice(dice);
    let mut ev = t.cmd("begin");
    ev.extend(t.cmd("act recover option stress"));
    t.assert_dice_used();
    ev
}

fn panic_rolls(ev: &[Event]) -> Vec<Rolled> {
    ev.iter()
        .filter_map(|e| match e {
            Event::PanicRolled { roll, .. } => Some(*roll),
            _ => None,
        })
        .collect()
}

#[test]
fn thr_r198_brace_does_not_help_incapacity_rolls() {
    // THR-H25: Fatigue 4 over Tolerance 3.
    let ev = fixed_rolls("", "brace", 4, 0, &[3, 3]);
    let r = incapacity_rolls(&ev);
    assert_eq!((r.len(), r[0].net, r[0].roll.faces.len()), (1, 0, 2));
}

#[test]
fn thr_r198_concentrate_does_not_help_panic_rolls() {
    // THR-H25: Stress 3 over Tolerance 2.
    let ev = fixed_rolls("", "concentrate", 0, 3, &[3, 3]);
    let r = panic_rolls(&ev);
    assert_eq!((r.len(), r[0].net, r[0].roll.faces.len()), (1, 0, 2));
}

#[test]
fn thr_r198_option_stances_help_fixed_rolls() {
    // THR-H25 alternative.
    let o = opts("stances-help-fixed-rolls = true");
    let r = incapacity_rolls(&fixed_rolls(&o, "brace", 4, 0, &[3, 3, 1]));
    assert_eq!((r[0].net, r[0].roll.faces.len()), (1, 3));
    let r = panic_rolls(&fixed_rolls(&o, "concentrate", 0, 3, &[3, 3, 1]));
    assert_eq!((r[0].net, r[0].roll.faces.len()), (1, 3));
}

/// a (PC) makes a Basic Attack on b (NPC) at 2,0; its ally c, at `c_at`, holds Assist.
/// Returns the game with c's trigger window open (or the attack resolved if none opens).
fn assisted(c_at: &str, dice: &[u16]) -> T {
    let mut t = game(
        &format!(
            "{}{}{}",
            who("a", "pcs", "0,0", "attack = 3"),
            who("c", "pcs", c_at, ""),
            who("b", "npcs", "2,0", "")
        ),
        &[6, 6, 5, 5, 1, 1],
        &["end", "stance assist"],
    );
    t.dice(dice);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t
}

#[test]
fn thr_r199_assist_imposes_a_bane_on_the_foes_defence_and_ends() {
    let mut t = assisted("3,0", &[1, 1, 6, 6, 1]);
    // Asked after the defence is chosen, before anything is rolled.
    assert_eq!(t.pending(), ("trigger", "c".to_string()));
    assert_eq!(t.legal(), vec!["trigger assist", "pass"]);
    assert_eq!(t.dice.0.borrow().len(), 5);
    t.cmd("trigger assist");
    t.assert_dice_used();
    let (_, d) = contest(&t.last);
    assert_eq!((d.net, d.total), (-1, 7)); // [6, (6), 1]
    assert_eq!(t.ch("c").stance, None);
}

#[test]
fn thr_r199_assist_passed_keeps_the_stance() {
    let mut t = assisted("3,0", &[1, 1, 6, 6]);
    t.cmd("pass");
    t.assert_dice_used();
    assert_eq!(contest(&t.last).1.net, 0);
    assert_eq!(t.ch("c").stance, t.s().setup.book.find("assist"));
}

#[test]
fn thr_r199_assist_needs_the_foe_within_range_1() {
    let t = assisted("4,0", &[1, 1, 6, 6]);
    t.assert_dice_used(); // no window: rolled at once
    assert_eq!(contest(&t.last).1.net, 0);
    assert_eq!(t.ch("c").stance, t.s().setup.book.find("assist"));
}

#[test]
fn thr_r200_protect_grants_a_boon_on_the_friends_defence_and_ends() {
    // b (NPC) acts first and makes a Basic Attack on a; c, next to a, holds Protect.
    let mut t = game(
        &format!(
            "{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("c", "pcs", "0,1", ""),
            who("b", "npcs", "2,0", "attack = 3")
        ),
        &[2, 2, 3, 3, 6, 6],
        &["end", "stance protect"],
    );
    assert_eq!(t.turn().0, "b");
    t.cmd("act basic-attack a");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "c".to_string()));
    t.dice(&[1, 1, 6, 1, 1]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    let (_, d) = contest(&t.last);
    assert_eq!((d.net, d.total), (1, 7)); // [6, 1, (1)]
    assert_eq!(t.ch("c").stance, None);
}
