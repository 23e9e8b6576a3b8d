//! Turn structure (THR-R26 to THR-R40) and THR-H20.

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::ability::XStatus;
use fray_thrum::event::{Event, Verdict};
use fray_thrum::state::Step;

const OGRE: &str = "attack = 2\nabilities = [\"biffer-strike\"]";

/// PC `p` on the west end of a one-row map, an ogre at `ogre_at`; `p` rolls 12, the ogre 2,
/// so `p`'s slot comes first and asks for a decision.
fn duel(width: usize, p_extra: &str, ogre_at: &str, options: &str) -> T {
    let row = vec!["."; width].join(" ");
    let toml = enc(
        &[row.as_str()],
        &format!(
            "{options}{}{}",
            who("p", "pcs", "0,0", p_extra),
            who("ogre", "npcs", ogre_at, OGRE)
        ),
    );
    T::in_round_one(&toml, &[6, 6, 1, 1])
}

/// Index of the first event (at or after `from`) that matches.
fn find(ev: &[Event], from: usize, f: impl Fn(&Event) -> bool) -> usize {
    (from..ev.len())
        .find(|i| f(&ev[*i]))
        .unwrap_or_else(|| panic!("no such event after {from}"))
}

fn ab(t: &T, id: &str) -> Option<u16> {
    t.s().setup.book.find(id)
}

#[test]
fn thr_r26_an_action_typed_at_the_slot_prompt_says_the_turn_has_not_begun() {
    // THR-R26: the turn (and with it the Action) starts only once the slot is begun.
    let mut t = duel(6, "", "1,0", "");
    assert_eq!(t.pending().0, "slot");
    let r = t.reject("act basic-attack ogre");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("turn has not begun"), "{}", r.reason);
    assert!(!r.reason.contains("already been taken"), "{}", r.reason);
}

#[test]
fn thr_r26_a_turn_runs_start_move_action_stance_end_in_order() {
    let mut t = duel(6, "", "4,0", "");
    t.set("p", "stress", 3); // Frayed: a Panic Roll at the start of the turn
    t.cmd("gm status p slowed =1"); // ticks at the end of the turn
    let p = t.id("p");
    let first = t.all_events().len();
    t.dice(&[6, 6]);
    t.cmd("begin");
    t.cmd("move 1,0");
    t.cmd("act basic-attack ogre");
    t.dice(&[3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.cmd("stance brace");
    t.assert_dice_used();
    let ev = t.all_events();
    let start = find(&ev, first, |e| *e == Event::TurnStarted { who: p });
    let panic = find(&ev, start, |e| matches!(e, Event::PanicRolled { .. }));
    let moved = find(&ev, panic, |e| matches!(e, Event::Moved { .. }));
    let action = find(&ev, moved, |e| matches!(e, Event::Declared { .. }));
    let contest = find(&ev, action, |e| matches!(e, Event::Contest { .. }));
    let stance = find(&ev, contest, |e| matches!(e, Event::StanceEntered { .. }));
    let tick = find(&ev, stance, |e| {
        *e == Event::Status {
            who: p,
            status: XStatus::Slowed,
            x: 0,
        }
    });
    find(&ev, tick, |e| *e == Event::TurnEnded { who: p });
    // The Stance step closed the turn: the ogre's turn has begun.
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
}

#[test]
fn thr_r27_thr_r157_no_panic_roll_at_stress_equal_to_tolerance() {
    // THR-R157: only a Frayed character (Stress above Tolerance) rolls.
    // FOC 1: Stress Tolerance 3, Resolve +1.
    let mut t = duel(6, "attributes = { foc = 1 }", "5,0", "");
    t.set("p", "stress", 3);
    t.cmd("begin");
    assert!(!t.last.iter().any(|e| matches!(e, Event::PanicRolled { .. })));
    assert_eq!(t.turn(), ("p".into(), Step::Move));
}

#[test]
fn thr_r27_a_panic_roll_when_stress_exceeds_tolerance() {
    let mut t = duel(6, "attributes = { foc = 1 }", "5,0", "");
    t.set("p", "stress", 4);
    t.dice(&[1, 3]);
    t.cmd("begin");
    t.assert_dice_used();
    let (total, load, passed) = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::PanicRolled { roll, load, passed, .. } => Some((roll.total, *load, *passed)),
            _ => None,
        })
        .expect("a Panic Roll");
    // 1 + 3 + Resolve 1 = 5 > 4.
    assert_eq!((total, load, passed), (5, 4, true));
    assert!(!t.ch("p").has(fray_thrum::ability::Cond::Stunned));
}

/// `p` fails a start-of-turn Panic Roll (2 against Stress 3).
fn failed_panic(options: &str) -> T {
    let mut t = duel(6, "", "5,0", options);
    t.set("p", "stress", 3);
    t.dice(&[1, 1]);
    t.cmd("begin");
    assert!(t.ch("p").has(fray_thrum::ability::Cond::Stunned));
    t
}

#[test]
fn thr_r27_thr_h20_stunned_from_a_panic_roll_limits_this_turn() {
    let mut t = failed_panic("");
    t.cmd("move 1,0");
    assert_eq!(t.reject("act recover option fatigue").code, "stunned");
    assert!(t.legal().iter().all(|c| !c.starts_with("act")));
    t.cmd("end");
    // It ends with this turn.
    assert!(!t.ch("p").has(fray_thrum::ability::Cond::Stunned));
}

#[test]
fn thr_r27_option_panic_stun_limits_the_next_turn() {
    // THR-H20 alternative.
    let mut t = failed_panic("[options]\npanic-stun = \"next-turn\"\n");
    t.cmd("move 1,0");
    t.cmd("act recover option fatigue");
    t.cmd("end");
    assert!(t.ch("p").has(fray_thrum::ability::Cond::Stunned));
    t.cmd("end"); // the ogre
    t.cmd("begin"); // p, round 2
    t.cmd("move 2,0");
    assert_eq!(t.reject("act recover option fatigue").code, "stunned");
    t.cmd("end");
    assert!(!t.ch("p").has(fray_thrum::ability::Cond::Stunned));
}

#[test]
fn thr_r28_other_start_of_turn_effects_follow_the_panic_roll() {
    // The Weaver ignores Slowed as a start-of-turn effect (step b).
    let mut t = duel(8, "traits = [\"weaver\"]", "7,0", "");
    t.set("p", "stress", 3);
    t.cmd("gm status p slowed =1");
    t.dice(&[6, 6]);
    t.cmd("begin");
    let panic = find(&t.last, 0, |e| matches!(e, Event::PanicRolled { .. }));
    find(&t.last, panic, |e| {
        matches!(e, Event::WeaverIgnored { slowed: true, .. })
    });
    // Speed 4, not 2.
    t.cmd("move 4,0");
}

#[test]
fn thr_r29_movement_up_to_speed_and_zero_is_allowed() {
    let mut t = duel(8, "", "7,0", "");
    t.cmd("begin");
    assert_eq!(t.reject("move 5,0").code, "not-enough-movement");
    t.cmd("move 4,0");
    assert_eq!(t.s().turn.spent, 4);
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    t.cmd("end");
    t.cmd("end"); // the ogre
    // Round 2: no movement at all, straight to a Stance.
    t.cmd("begin");
    t.cmd("stance brace");
    assert_eq!(t.ch("p").pos, Some(Pos::new(4, 0)));
}

#[test]
fn thr_r30_one_action_from_the_basic_abilities_or_picked_art_abilities() {
    let mut t = duel(
        4,
        "attributes = { fin = 2 }\ntraining = { dueling = 3 }\nabilities = [\"precision-slash\"]",
        "1,0",
        "",
    );
    t.cmd("begin");
    // Sock 'Em is a Brawling ability p did not pick.
    assert_eq!(t.reject("act sock-em ogre option slow").code, "unknown-ability");
    t.cmd("act precision-slash ogre");
    t.dice(&[3, 3, 3, 2]);
    t.cmd("defend resilience");
    // Dueling +3: 3 + 3 + 3 = 9 against 5.
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess)]);
    // One Action only: no second one, not even a basic one.
    assert_eq!(t.reject("act dash").code, "not-now");
    assert!(t.legal().iter().all(|c| !c.starts_with("act")));
}

#[test]
fn thr_r31_taking_no_action_is_allowed() {
    let mut t = duel(6, "", "5,0", "");
    t.cmd("begin");
    t.cmd("end");
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
}

#[test]
fn thr_r31_option_an_action_is_required() {
    let mut t = duel(6, "", "5,0", "[options]\nallow-no-action = false\n");
    t.cmd("begin");
    assert_eq!(t.reject("end").code, "not-now");
    assert_eq!(t.reject("stance brace").code, "not-now");
    t.cmd("act recover option fatigue");
    t.cmd("end");
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
}

#[test]
fn thr_r31_thr_r218_option_an_action_is_required_only_while_one_is_legal() {
    // THR-R31 with allow-no-action = false: a Stunned character (THR-R218) that has moved can
    // take no Action, so the requirement lapses and its turn may still end or take a Stance.
    let mut t = failed_panic("[options]\nallow-no-action = false\n");
    assert_eq!(t.reject("end").code, "not-now"); // it could still act instead of moving
    t.cmd("move 1,0");
    assert_eq!(t.reject("act recover option fatigue").code, "stunned");
    let legal = t.legal();
    assert!(legal.iter().all(|c| !c.starts_with("act")), "{legal:?}");
    assert!(legal.iter().any(|c| c == "end"), "{legal:?}");
    assert!(legal.iter().any(|c| c == "stance brace"), "{legal:?}");
    t.cmd("end");
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
}

#[test]
fn thr_r32_a_new_stance_ends_the_old_one_or_the_old_one_is_kept() {
    let toml = enc(
        &[". . . . . ."],
        &format!("{}{}", who("p", "pcs", "0,0", ""), who("ogre", "npcs", "5,0", OGRE)),
    );
    let mut t = T::new(&toml, &[6, 6, 1, 1]);
    t.cmd("stance brace"); // Round Zero
    t.cmd("end"); // the ogre
    let p = t.id("p");
    let (brace, dodge) = (ab(&t, "brace").unwrap(), ab(&t, "dodge").unwrap());
    t.cmd("begin");
    t.cmd("stance dodge");
    let ended = find(&t.last, 0, |e| *e == Event::StanceEnded { who: p, ability: brace });
    find(&t.last, ended, |e| {
        *e == Event::StanceEntered { who: p, ability: dodge }
    });
    t.cmd("end"); // the ogre
    t.cmd("begin");
    t.cmd("end"); // keeps Dodge
    assert!(!t.last.iter().any(|e| matches!(e, Event::StanceEnded { .. })));
    assert_eq!(t.ch("p").stance, Some(dodge));
}

#[test]
fn thr_r33_only_one_stance_is_active() {
    let toml = enc(
        &[". . . . . ."],
        &format!("{}{}", who("p", "pcs", "0,0", ""), who("ogre", "npcs", "1,0", OGRE)),
    );
    let mut t = T::new(&toml, &[6, 6, 1, 1]);
    t.cmd("stance brace"); // Round Zero
    t.cmd("end");
    t.cmd("begin");
    t.cmd("stance dodge");
    assert_eq!(t.ch("p").stance, ab(&t, "dodge"));
    // The ogre attacks: Brace is gone, so the Resilience roll has no Boon (two dice).
    t.cmd("act biffer-strike p");
    t.dice(&[3, 3, 4, 5]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let net = t
        .last
        .iter()
        .find_map(|e| match e {
            Event::Contest { defence: Some(d), .. } => Some(d.net),
            _ => None,
        })
        .unwrap();
    assert_eq!(net, 0);
}

/// `b` (12) attacks the ogre (2) while `a` (10) holds Assist next to it.
fn assist(options: &str) -> T {
    let toml = enc(
        &[". . . . ."],
        &format!(
            "{options}{}{}{}",
            who("b", "pcs", "0,0", ""),
            who("a", "pcs", "3,0", ""),
            who("ogre", "npcs", "2,0", OGRE)
        ),
    );
    let mut t = T::new(&toml, &[6, 6, 5, 5, 1, 1]);
    t.cmd("end"); // b
    t.cmd("stance assist"); // a
    t.cmd("end"); // the ogre
    t.cmd("begin");
    t.cmd("act basic-attack ogre");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "a".into()));
    // Attack 3 + 3 = 6; the ogre's roll takes Assist's Bane: 4, 4, 1 keeps 4 + 1.
    t.dice(&[3, 3, 4, 4, 1]);
    t.cmd("trigger assist");
    t.assert_dice_used();
    assert_eq!(t.ch("a").stance, None);
    t.cmd("end"); // b
    t.cmd("begin"); // a
    t
}

#[test]
fn thr_r34_a_stance_used_up_since_the_last_turn_may_be_entered_again() {
    let mut t = assist("");
    t.cmd("stance assist");
    assert_eq!(t.ch("a").stance, ab(&t, "assist"));
}

#[test]
fn thr_r34_option_no_reentering_a_stance_that_just_ended() {
    let mut t = assist("[options]\nreenter-ended-stance = false\n");
    assert_eq!(t.reject("stance assist").code, "not-now");
    // Another Stance is fine.
    t.cmd("stance protect");
}

#[test]
fn thr_r35_thr_r36_end_of_turn_effects_then_status_ticks() {
    // THR-R36: the ticks come after step a.
    let mut t = duel(6, "", "5,0", "");
    t.cmd("gm status p burning =1");
    t.cmd("gm status p slowed =2");
    let p = t.id("p");
    t.cmd("begin");
    t.cmd("end");
    // Burning at X 1 still burns (step a) before it ticks away (step b).
    let burn = find(
        &t.last,
        0,
        |e| matches!(e, Event::Damage { who, amount: 1, .. } if *who == p),
    );
    let b = find(&t.last, burn, |e| {
        *e == Event::Status {
            who: p,
            status: XStatus::Burning,
            x: 0,
        }
    });
    find(&t.last, burn, |e| {
        *e == Event::Status {
            who: p,
            status: XStatus::Slowed,
            x: 1,
        }
    });
    find(&t.last, b, |e| *e == Event::TurnEnded { who: p });
    assert_eq!(t.ch("p").fatigue, 1);
    assert_eq!(t.ch("p").status(XStatus::Burning), 0);
}

#[test]
fn thr_r37_no_movement_after_the_action() {
    let mut t = duel(8, "", "7,0", "");
    t.cmd("begin");
    t.cmd("move 1,0");
    t.cmd("act recover option fatigue");
    assert_eq!(t.reject("move 2,0").code, "not-now");
    assert_eq!(t.reject("step e").code, "not-now");
    assert!(
        t.legal()
            .iter()
            .all(|c| !c.starts_with("move") && !c.starts_with("step"))
    );
    assert_eq!(t.s().turn.spent, 1);
}

#[test]
fn thr_r37_unless_the_action_grants_movement() {
    let mut t = duel(10, "", "9,0", "");
    t.cmd("begin");
    t.cmd("move 2,0");
    t.cmd("act dash");
    // Dash: a fresh allowance of Speed 4.
    t.cmd("move 6,0");
    assert_eq!(t.reject("step e").code, "not-enough-movement");
    assert_eq!(t.ch("p").pos, Some(Pos::new(6, 0)));
}

#[test]
fn thr_r38_everyone_has_the_basic_combat_abilities() {
    // The ogre only picked Strike, p picked nothing; both use the basic ones.
    let toml = enc(
        &[". . . . . ."],
        &format!("{}{}", who("p", "pcs", "0,0", ""), who("ogre", "npcs", "3,0", OGRE)),
    );
    let mut t = T::in_round_one(&toml, &[1, 1, 6, 6]);
    t.cmd("begin");
    let legal = t.legal();
    for c in [
        "act basic-attack p",
        "act dash",
        "act recover option fatigue",
        "stance brace",
        "stance protect",
    ] {
        assert!(legal.contains(&c.to_string()), "{c} missing from {legal:?}");
    }
    t.cmd("act basic-attack p");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("defend resilience");
    // The ogre's own attack modifier (+2) applies: 10 against 2.
    assert_eq!(contests(&t.last), vec![(10, Some(2), Verdict::AttackerCritical)]);
    t.cmd("end");
    t.cmd("act recover option fatigue");
    assert_eq!(t.ch("p").fatigue, 1);
    t.cmd("stance dodge");
    assert_eq!(t.ch("p").stance, ab(&t, "dodge"));
}

/// The ogre (first) next to `p`, and `q` further away; `p`'s Round Zero Stance is given.
fn ogre_attacks(p_stance: &str) -> T {
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}",
            who(
                "p",
                "pcs",
                "1,0",
                "attributes = { fin = 2 }\ntraining = { dueling = 3 }\nabilities = [\"parry-and-riposte\"]"
            ),
            who("q", "pcs", "4,0", ""),
            who("ogre", "npcs", "0,0", OGRE)
        ),
    );
    let mut t = T::new(&toml, &[5, 5, 4, 4, 6, 6]);
    t.cmd("end"); // the ogre
    t.cmd(&format!("stance {p_stance}"));
    t.cmd("stance dodge"); // q
    t.cmd("begin"); // the ogre, round 1
    t.cmd("act biffer-strike p");
    t
}

#[test]
fn thr_r39_outside_its_turn_a_character_only_defends() {
    let mut t = ogre_attacks("brace");
    assert_eq!(t.turn().0, "ogre");
    assert_eq!(t.pending(), ("defence", "p".into()));
    assert_eq!(t.legal(), vec!["defend resilience", "defend evasion"]);
    // Brace has no trigger, and q is not involved: after the defence, nothing more is asked.
    t.dice(&[3, 3, 4, 5, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.pending(), ("stance", "ogre".into()));
}

#[test]
fn thr_r39_or_through_a_triggered_effect_of_its_stance() {
    let mut t = ogre_attacks("parry-and-riposte");
    t.cmd("defend resilience");
    assert_eq!(t.turn().0, "ogre");
    assert_eq!(t.pending(), ("trigger", "p".into()));
    assert_eq!(t.legal(), vec!["trigger parry-and-riposte", "pass"]);
    t.dice(&[3, 3, 4, 5]);
    t.cmd("pass");
    t.assert_dice_used();
    assert_eq!(t.pending(), ("stance", "ogre".into()));
}

#[test]
fn thr_r40_a_passive_trigger_fires_outside_its_owners_turn() {
    let biffer = "attack = 1\nabilities = [\"biffer-strike\", \"interpose\"]";
    let toml = enc(
        &[". . . . . ."],
        &format!(
            "{}{}{}",
            who("p", "pcs", "0,0", ""),
            who("b1", "npcs", "3,0", OGRE),
            who("b2", "npcs", "5,0", biffer)
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1, 2, 2]);
    t.cmd("begin");
    t.cmd("act basic-attack b1");
    t.cmd("defend resilience");
    // p's turn, yet b2's Interpose (a Passive with a Trigger) is offered.
    assert_eq!(t.turn().0, "p");
    assert_eq!(t.pending(), ("trigger", "b2".into()));
    t.cmd("trigger interpose");
    // Its controller picks where to go: up to 1 + T = 1 square, no farther from b1.
    assert_eq!(t.pending(), ("move", "b2".into()));
    assert_eq!(t.legal(), vec!["move 4,0".to_string(), "pass".to_string()]);
    t.dice(&[3, 3, 1, 1]);
    t.cmd("move 4,0");
    t.assert_dice_used();
    assert_eq!(t.ch("b2").pos, Some(Pos::new(4, 0)));
    assert_eq!(contests(&t.last), vec![(6, Some(2), Verdict::AttackerSuccess)]);
}
