//! Combat order, Initiative, Delay and Round Zero (THR-R1 to THR-R25).

use crate::common;
use common::*;
use fray_thrum::event::Event;
use fray_thrum::state::{Phase, Step};

fn three() -> String {
    enc(
        &[". . . . . .", "s s . . . ."],
        &format!(
            "{}{}{}",
            who("bob", "pcs", "0,1", ""),
            who("alice", "pcs", "1,1", ""),
            who("ogre", "npcs", "5,1", "")
        ),
    )
}

#[test]
fn thr_r9_initiative_is_2d6_plus_the_initiative_modifier() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", "initiative = 2"),
            who("b", "npcs", "3,0", "")
        ),
    );
    let t = T::new(&toml, &[3, 4, 6, 6]);
    assert_eq!(t.ch("a").initiative, 9);
    assert_eq!(t.ch("b").initiative, 12);
    // THR-R10: descending order.
    assert_eq!(t.order(), vec!["b", "a"]);
}

#[test]
fn thr_r1_thr_r20_round_zero_comes_after_initiative_and_before_round_one() {
    let t = T::new(&three(), &[6, 6, 5, 5, 1, 1]);
    let ev = t.all_events();
    let init = ev
        .iter()
        .position(|e| matches!(e, Event::InitiativeRolled { .. }))
        .unwrap();
    let r0 = ev
        .iter()
        .position(|e| matches!(e, Event::RoundStarted { round: 0 }))
        .unwrap();
    assert!(init < r0);
    assert_eq!(t.s().phase, Phase::RoundZero);
    // THR-R2: NPCs are already placed before anyone rolls.
    assert!(t.ch("ogre").pos.is_some());
}

#[test]
fn thr_r16_bob_and_alice_delay_once_each() {
    // Bob 12, Alice 10, the ogre 2.
    let mut t = T::in_round_one(&three(), &[6, 6, 5, 5, 1, 1]);
    assert_eq!(t.turn(), ("bob".into(), Step::Slot));
    t.cmd("delay after alice");
    assert_eq!(t.turn(), ("alice".into(), Step::Slot));
    t.cmd("delay after bob");
    // THR-R15: Bob already delayed this round, so his slot begins at once: he must act.
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
    let r = t.reject("delay after ogre");
    assert_eq!(r.code, "cannot-delay");
    assert!(r.reason.contains("already delayed"), "{}", r.reason);
    assert!(t.legal().iter().all(|c| !c.starts_with("delay")));
    t.cmd("end");
    // Alice delayed this round too, so her slot begins by itself.
    assert_eq!(t.turn(), ("alice".into(), Step::Move));
    t.cmd("end");
    assert_eq!(t.order(), vec!["bob", "alice", "ogre"]);
}

#[test]
fn thr_r13_thr_r14_a_delay_is_permanent_and_thr_r17_per_round() {
    let mut t = T::in_round_one(&three(), &[6, 6, 5, 5, 1, 1]);
    t.cmd("delay after ogre");
    t.cmds(&["begin", "end"]); // alice
    t.cmds(&["begin", "end"]); // ogre (no one later: begins by itself? it may delay to the end)
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
    t.cmd("end");
    // Round 2: Bob keeps his new place, and may delay again this round.
    assert_eq!(t.s().round, 2);
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
    t.cmds(&["begin", "end", "begin", "end"]);
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
}

#[test]
fn thr_r58_thr_r59_thr_r60_teleport_harness_smoke() {
    let e = with_abilities(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", "abilities = [\"blink\"]"),
            who("b", "npcs", "5,1", "")
        ),
        r#"
[[ability]]
id = "blink"
type = "action"
range = 3
target = "square"
effect = [{ teleport = "movement", to = "self" }]
"#,
    );
    let mut t = t_with(&e, &[6, 6, 1, 1]);
    t.skip_round_zero();
    t.cmd("begin");
    t.cmd("act blink at 3,1");
    assert_eq!(t.ch("a").pos, Some(fray_space::Pos::new(3, 1)));
    assert_eq!(t.s().turn.spent, 3);
}
