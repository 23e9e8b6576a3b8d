//! Triggers (THR-R144 to THR-R151, THR-H26).

use crate::common;
use common::*;
use fray_thrum::event::{Event, Rolled, Verdict};

/// Begins the turn if the slot asks whether to begin or Delay.
fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// The attack and defence rolls of every contest among events, with the defender's id.
fn rolls(t: &T, ev: &[Event]) -> Vec<(String, Rolled, Rolled, Verdict)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Contest {
                target,
                attack: Some(a),
                defence: Some(d),
                verdict,
                ..
            } => Some((t.s().info(*target).id.clone(), **a, **d, *verdict)),
            _ => None,
        })
        .collect()
}

/// Who used which trigger, in order.
fn used(t: &T, ev: &[Event]) -> Vec<(String, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::TriggerUsed { who, ability, .. } => {
                Some((t.s().info(*who).id.clone(), t.s().setup.book.get(*ability).id.clone()))
            }
            _ => None,
        })
        .collect()
}

/// P is attacked by E; A and B (both PCs) stand next to P. Initiative: A 14, B 9, E 6, P 3.
fn guarded(a_at: &str, extra_rest: &str) -> String {
    enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}{}{}",
            who("p", "pcs", "1,1", ""),
            who("a", "pcs", a_at, "initiative = 2"),
            who("b", "pcs", "2,1", ""),
            who("e", "npcs", "1,0", "attack = 2\nabilities = [\"biffer-strike\"]"),
            extra_rest
        ),
    )
}

const GUARDED_INIT: [u16; 8] = [1, 2, 6, 6, 4, 5, 3, 3];

/// Round Zero with A and B entering Protect.
fn protect_both(t: &mut T) {
    assert_eq!(t.order(), vec!["a", "b", "e", "p"]);
    t.cmd("stance protect"); // a
    t.cmd("stance protect"); // b
    t.cmd("end"); // e
    t.cmd("end"); // p
}

#[test]
fn thr_r150_protect_from_allies_at_initiative_14_and_9_gives_two_boons() {
    let mut t = T::new(&guarded("0,1", ""), &GUARDED_INIT);
    assert_eq!(t.ch("a").initiative, 14);
    assert_eq!(t.ch("b").initiative, 9);
    protect_both(&mut t);
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end"); // a, then b keep their stance
    }
    begin(&mut t);
    assert_eq!(t.turn().0, "e");
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    // A (Initiative 14) is asked first, then B (Initiative 9), both before the defence roll.
    assert_eq!(t.pending(), ("trigger", "a".into()));
    t.cmd("trigger protect");
    assert!(contests(&t.last).is_empty(), "no roll before every trigger is settled");
    assert_eq!(t.pending(), ("trigger", "b".into()));
    // E's attack: 3 + 3 + 2 = 8. P's Resilience with +2 Boons: 4d6, best two 6 + 5.
    t.dice(&[3, 3, 6, 1, 5, 2]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    let r = rolls(&t, &t.last);
    assert_eq!(r.len(), 1);
    let (_, atk, def, verdict) = r[0];
    assert_eq!(atk.total, 8);
    assert_eq!(def.net, 2);
    assert_eq!(def.total, 11);
    assert_eq!(verdict, Verdict::DefenderSuccess);
    // Using Protect ends each holder's Stance (THR-R200).
    assert_eq!(t.ch("a").stance, None);
    assert_eq!(t.ch("b").stance, None);
}

#[test]
fn thr_r144_protect_resolves_only_when_its_trigger_condition_is_met() {
    // A stands 2 squares from P, out of Protect's Range 1; B is next to P.
    let mut t = T::new(&guarded("3,0", ""), &GUARDED_INIT);
    protect_both(&mut t);
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end");
    }
    begin(&mut t);
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    // Only B's trigger is offered.
    assert_eq!(t.pending(), ("trigger", "b".into()));
    t.dice(&[3, 3, 2, 2, 1]);
    t.cmd("trigger protect");
    assert_eq!(used(&t, &t.last), vec![("b".into(), "protect".into())]);
    assert_eq!(t.ch("a").stance, t.s().setup.book.find("protect"));

    // Next round E attacks the Protect holder A itself: "a foe aims at an ally" does not
    // cover the holder, and nobody else holds a trigger, so the attack rolls at once.
    t.cmd("end"); // e
    begin(&mut t);
    t.cmd("end"); // p
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end"); // a, b
    }
    begin(&mut t);
    assert_eq!(t.turn().0, "e");
    t.cmd("gm move e 2,0");
    t.cmd("act biffer-strike a");
    t.dice(&[3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(used(&t, &t.last).is_empty());
    assert_eq!(contests(&t.last).len(), 1);
    assert!(t.game.pending().is_some_and(|p| p.kind() != "trigger"));
}

#[test]
fn thr_r145_triggers_resolve_in_the_current_turn_order_after_delays() {
    let mut t = T::new(&guarded("0,1", ""), &GUARDED_INIT);
    protect_both(&mut t);
    // A (Initiative 14) delays behind B (Initiative 9): the turn order is now B, A.
    assert_eq!(t.turn().0, "a");
    t.cmd("delay after b");
    begin(&mut t);
    assert_eq!(t.turn().0, "b");
    t.cmd("end");
    assert_eq!(t.turn().0, "a");
    t.cmd("end");
    begin(&mut t);
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    // B is asked first, although A's Initiative total is still the higher.
    assert!(t.ch("a").initiative > t.ch("b").initiative);
    assert_eq!(t.pending(), ("trigger", "b".into()));
    t.cmd("pass");
    assert_eq!(t.pending(), ("trigger", "a".into()));
    t.dice(&[3, 3, 2, 2, 1]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    assert_eq!(used(&t, &t.last), vec![("a".into(), "protect".into())]);
}

#[test]
fn thr_r147_a_trigger_interrupts_the_attack_which_then_resolves() {
    let mut t = T::new(&guarded("0,1", ""), &GUARDED_INIT);
    protect_both(&mut t);
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end");
    }
    begin(&mut t);
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    // The Strike is on hold while A decides: nothing rolled, nothing dealt.
    assert_eq!(t.pending(), ("trigger", "a".into()));
    assert_eq!(t.ch("p").fatigue, 0);
    assert!(!t.ch("p").has(fray_thrum::ability::Cond::Dazed));
    t.cmd("trigger protect");
    // E 6 + 6 + 2 = 14 against P's 2 + 2 + 1 (1 Boon: 2, 2, 1) = 4.
    t.dice(&[6, 6, 2, 2, 1]);
    t.cmd("pass"); // b
    t.assert_dice_used();
    // The rest of the Strike resolved after the trigger: the roll, then its lines.
    let ev = &t.last;
    let contest = ev.iter().position(|e| matches!(e, Event::Contest { .. })).unwrap();
    let damage = ev.iter().position(|e| matches!(e, Event::Damage { .. })).unwrap();
    assert!(contest < damage);
    assert_eq!(rolls(&t, ev)[0].2.net, 1);
    // Critical "instead": 2 Fatigue.
    assert_eq!(t.ch("p").fatigue, 2);
    assert!(t.ch("p").has(fray_thrum::ability::Cond::Dazed));
}

/// S (Parry and Riposte) and T are PCs; E sweeps both; F guards E with Protect.
fn riposte_chain(options: &str) -> (String, Vec<(&'static str, String)>) {
    with_abilities(
        &[". . . .", ". . . ."],
        &format!(
            "{options}{}{}{}{}",
            who(
                "s",
                "pcs",
                "1,1",
                "attributes = { fin = 2, ref = 2 }\ntraining = { dueling = 3 }\nabilities = [\"parry-and-riposte\"]"
            ),
            who("t", "pcs", "1,0", ""),
            who("e", "npcs", "2,1", "attack = 2\nabilities = [\"sweep\"]"),
            who("f", "npcs", "3,1", ""),
        ),
        r#"
[[ability]]
id = "sweep"
type = "action"
attack = "physical"
range = 1
target = "up-to-2-enemies"
success = [{ fatigue = 1 }]
"#,
    )
}

#[test]
fn thr_r151_thr_r146_riposte_answered_by_protect_resolves_before_the_rest_of_the_attack() {
    // THR-R151, THR-R146.
    // Initiative: S 1 + 1 + 2 = 4, T 3, E 12, F 10.
    let mut t = t_with(&riposte_chain(""), &[1, 1, 1, 2, 6, 6, 5, 5]);
    assert_eq!(t.order(), vec!["e", "f", "s", "t"]);
    t.cmd("end"); // e
    t.cmd("stance protect"); // f
    t.cmd("stance parry-and-riposte"); // s
    t.cmd("end"); // t
    begin(&mut t);
    // X: E's sweep at S and T.
    t.cmd("act sweep s,t");
    t.cmd("defend evasion"); // s
    t.cmd("defend resilience"); // t
    assert_eq!(t.pending(), ("trigger", "s".into()));
    // Y: S parries. E 1 + 1 + 2 = 4; S's Evasion (1 Boon) 6 + 6 + 2 + Training 3 = 17: a
    // Critical defence, so S ripostes at once, before the sweep reaches T.
    t.dice(&[1, 1, 6, 6, 1]);
    t.cmd("trigger parry-and-riposte");
    t.assert_dice_used();
    assert_eq!(rolls(&t, &t.last).len(), 1);
    assert_eq!(rolls(&t, &t.last)[0].3, Verdict::DefenderCritical);
    // The riposte is an attack on E: E defends, then Z: F's Protect answers the riposte.
    assert_eq!(t.pending(), ("defence", "e".into()));
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "f".into()));
    // Riposte: S 4 + 4 + 3 = 11 against E's Resilience with F's Boon (2, 2, 1) 4: hit.
    // Then the rest of X: E 3 + 3 + 2 = 8 against T's 2 + 2 = 4: hit.
    t.dice(&[4, 4, 2, 2, 1, 3, 3, 2, 2]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    let ev = t.last.clone();
    let pos = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).unwrap();
    let z = pos(&|e| matches!(e, Event::TriggerUsed { .. }));
    let r = rolls(&t, &ev);
    assert_eq!(r.len(), 2);
    // Z resolved fully first: the riposte's defence already carries Protect's Boon.
    assert_eq!(r[0].0, "e");
    assert_eq!(r[0].2.net, 1);
    assert_eq!(r[0].2.total, 4);
    let riposte_damage = pos(&|e| matches!(e, Event::Damage { who, .. } if t.s().info(*who).id == "e"));
    let rest_of_x = ev
        .iter()
        .enumerate()
        .position(|(i, e)| i > riposte_damage && matches!(e, Event::Contest { .. }))
        .unwrap();
    assert!(z < riposte_damage && riposte_damage < rest_of_x);
    // Then the rest of X: the sweep reaches T.
    assert_eq!(r[1].0, "t");
    assert_eq!(t.ch("e").fatigue, 1);
    assert_eq!(t.ch("t").fatigue, 1);
    // S's Stance stays up after the Critical defence; F's Protect was used up.
    assert_eq!(t.ch("s").stance, t.s().setup.book.find("parry-and-riposte"));
    assert_eq!(t.ch("f").stance, None);
    assert_eq!(t.turn().0, "e");
}

/// H holds Protect and a Passive with the same trigger.
fn two_triggers(options: &str) -> (String, Vec<(&'static str, String)>) {
    with_abilities(
        &[". . .", ". . ."],
        &format!(
            "{options}{}{}{}",
            who("p", "pcs", "1,1", ""),
            who("h", "pcs", "0,1", "abilities = [\"steady-hand\"]"),
            who("e", "npcs", "1,0", "attack = 2\nabilities = [\"biffer-strike\"]"),
        ),
        r#"
[[ability]]
id = "steady-hand"
type = "passive"
trigger = { on = "foe-aims-at-ally", range = 1, defence-bonus = 1 }
"#,
    )
}

#[test]
fn thr_r148_a_character_orders_its_own_triggers_on_one_event() {
    // Initiative: P 2, H 12, E 6.
    let mut t = t_with(&two_triggers(""), &[1, 1, 6, 6, 3, 3]);
    t.cmd("stance protect"); // h
    t.cmd("end"); // e
    t.cmd("end"); // p
    begin(&mut t);
    t.cmd("end"); // h
    begin(&mut t);
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "h".into()));
    // H picks its Passive first although Protect is listed first, then Protect.
    t.cmd("trigger steady-hand");
    assert_eq!(t.pending(), ("trigger", "h".into()));
    t.dice(&[3, 3, 4, 4, 1]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    let all = t.all_events();
    assert_eq!(
        used(&t, &all),
        vec![("h".into(), "steady-hand".into()), ("h".into(), "protect".into())]
    );
    // Both applied: +1 Boon and +1 on P's Resilience: 4 + 4 + 1 = 9 against 8.
    let r = rolls(&t, &t.last);
    assert_eq!((r[0].2.net, r[0].2.modifier, r[0].2.total), (1, 1, 9));
}

#[test]
fn thr_r148_option_fixed_order_of_own_triggers() {
    let mut t = t_with(
        &two_triggers("[options]\ncontroller-orders-own-triggers = false\n"),
        &[1, 1, 6, 6, 3, 3],
    );
    t.cmd("stance protect");
    t.cmd("end");
    t.cmd("end");
    begin(&mut t);
    t.cmd("end");
    begin(&mut t);
    t.cmd("act biffer-strike p");
    t.cmd("defend resilience");
    // The triggers come in the listed order: the Passive cannot jump ahead of the Stance.
    let r = t.reject("trigger steady-hand");
    assert_eq!(r.code, "unknown-ability");
    t.cmd("trigger protect");
    assert_eq!(t.pending(), ("trigger", "h".into()));
    t.dice(&[3, 3, 4, 4, 1]);
    t.cmd("trigger steady-hand");
    t.assert_dice_used();
    assert_eq!(
        used(&t, &t.all_events()),
        vec![("h".into(), "protect".into()), ("h".into(), "steady-hand".into())]
    );
}

/// O shoots E from afar; F (E's ally) holds Protect and G (O's ally) holds Assist, both next
/// to E.
fn shooting(ability: &str) -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}{}{}",
            who("o", "pcs", "1,0", &format!("attack = 2\nabilities = [\"{ability}\"]")),
            who("g", "pcs", "4,0", ""),
            who("e", "npcs", "4,1", ""),
            who("f", "npcs", "5,1", ""),
        ),
    )
}

fn shoot(ability: &str) -> T {
    // Initiative: O 12, G 10, E 4, F 2.
    let mut t = T::new(&shooting(ability), &[6, 6, 5, 5, 2, 2, 1, 1]);
    t.cmd("end"); // o
    t.cmd("stance assist"); // g
    t.cmd("stance protect"); // e (not used: E is the target)
    t.cmd("stance protect"); // f
    begin(&mut t);
    t
}

#[test]
fn thr_r149_enemy_triggers_cannot_answer_piercing_shot() {
    let mut t = shoot("piercing-shot");
    t.cmd("act piercing-shot e");
    t.cmd("defend resilience");
    // Only O's ally G may answer; F's Protect (an enemy's trigger) is not offered.
    assert_eq!(t.pending(), ("trigger", "g".into()));
    // O 4 + 4 + 2 = 10 against E's Resilience with G's Bane (3, 3, 5: worst two) 6.
    t.dice(&[4, 4, 3, 3, 5]);
    t.cmd("trigger assist");
    t.assert_dice_used();
    assert!(t.game.pending().is_some_and(|p| p.kind() != "trigger"));
    let r = rolls(&t, &t.last);
    assert_eq!((r[0].2.net, r[0].2.total), (-1, 6));
    assert_eq!(t.ch("f").stance, t.s().setup.book.find("protect"));
    assert_eq!(t.ch("e").fatigue, 2);
}

#[test]
fn thr_r149_the_same_shot_without_piercing_lets_the_enemy_protect() {
    let mut t = shoot("basic-attack");
    t.cmd("act basic-attack e");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "g".into()));
    t.cmd("trigger assist");
    assert_eq!(t.pending(), ("trigger", "f".into()));
    // Boon and Bane cancel: 2 dice each.
    t.dice(&[4, 4, 3, 3]);
    t.cmd("trigger protect");
    t.assert_dice_used();
    assert_eq!(rolls(&t, &t.last)[0].2.net, 0);
}

#[test]
fn thr_h26_defences_are_picked_before_triggers_by_default() {
    let mut t = T::new(&guarded("0,1", ""), &GUARDED_INIT);
    protect_both(&mut t);
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end");
    }
    begin(&mut t);
    t.cmd("act biffer-strike p");
    assert_eq!(t.pending(), ("defence", "p".into()));
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "a".into()));
}

#[test]
fn thr_h26_option_triggers_before_the_defence_pick() {
    let mut t = T::new(
        &guarded("0,1", "[options]\ndefence-timing = \"after-triggers\"\n"),
        &GUARDED_INIT,
    );
    protect_both(&mut t);
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end");
    }
    begin(&mut t);
    t.cmd("act biffer-strike p");
    assert_eq!(t.pending(), ("trigger", "a".into()));
    t.cmd("trigger protect");
    t.cmd("pass"); // b
    // P picks its defence knowing A's Boon is coming.
    assert_eq!(t.pending(), ("defence", "p".into()));
    t.dice(&[3, 3, 2, 2, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(rolls(&t, &t.last)[0].2.net, 1);
}

#[test]
fn thr_r146_option_trigger_depth_limit() {
    // With a depth limit of 2, the riposte (a second frame) still happens, but nothing may
    // answer it any more.
    let mut t = t_with(
        &riposte_chain("[options]\ntrigger-depth-limit = 2\n"),
        &[1, 1, 1, 2, 6, 6, 5, 5],
    );
    t.cmds(&["end", "stance protect", "stance parry-and-riposte", "end"]);
    begin(&mut t);
    t.cmd("act sweep s,t");
    t.cmd("defend evasion");
    t.cmd("defend resilience");
    t.dice(&[1, 1, 6, 6, 1]);
    t.cmd("trigger parry-and-riposte");
    assert_eq!(t.pending(), ("defence", "e".into()));
    // No window for F's Protect: the riposte and the rest of the sweep roll at once.
    t.dice(&[4, 4, 2, 2, 3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(used(&t, &t.last).is_empty());
    assert_eq!(rolls(&t, &t.last)[0].2.net, 0);
    assert_eq!(t.ch("f").stance, t.s().setup.book.find("protect"));
}
