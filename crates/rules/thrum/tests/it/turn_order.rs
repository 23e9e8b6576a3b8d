//! Combat order, Initiative and Delay, Round Zero (THR-R1 to THR-R25) and the holes they touch
//! (THR-H7 to THR-H11, THR-H18, THR-H28, THR-H30).

use crate::common;
use common::*;
use fray_engine::text::TextRuleset;
use fray_space::Pos;
use fray_thrum::Thrum;
use fray_thrum::event::Event;
use fray_thrum::state::{Phase, Step};

const PCS: Option<u8> = Some(0);
const NPCS: Option<u8> = Some(1);

/// Bob and Alice (PCs, already placed) and an ogre, far apart.
fn three(options: &str) -> String {
    enc(
        &[". . . . . .", "s s . . . ."],
        &format!(
            "{options}{}{}{}",
            who("bob", "pcs", "0,1", ""),
            who("alice", "pcs", "1,1", ""),
            who("ogre", "npcs", "5,1", "abilities = [\"stand-firm\"]")
        ),
    )
}

/// Bob 12, Alice 10, the ogre 2.
const BOB_ALICE_OGRE: [u16; 6] = [6, 6, 5, 5, 1, 1];

/// The diagnostics of an encounter that does not load.
fn load_errors(toml: &str) -> String {
    let src = fray_engine::diag::SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    let mut read = |p: &str| Err(format!("no file {p}"));
    match Thrum::load(&src, &mut read) {
        Ok(_) => panic!("the encounter loaded"),
        Err(d) => d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

/// Plays the pending turn without doing anything: begins it if its slot asks, then ends it.
fn pass(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
    t.cmd("end");
}

/// The ids whose turns started in the given round, in order.
fn turns_in_round(t: &T, round: u16) -> Vec<String> {
    let mut cur = None;
    let mut out = Vec::new();
    for e in t.all_events() {
        match e {
            Event::RoundStarted { round: r } => cur = Some(r),
            Event::TurnStarted { who } if cur == Some(round) => out.push(t.s().info(who).id.clone()),
            _ => {}
        }
    }
    out
}

fn outcome(t: &T) -> (Option<u8>, String) {
    let o = t.s().outcome.as_ref().expect("the combat has not ended");
    (o.winner, o.reason.clone())
}

// ---------------------------------------------------------------------------------------------
// Combat order
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r1_the_five_phases_run_in_order() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    pass(&mut t); // bob
    t.cmd("gm remove ogre");
    // One label per event, consecutive duplicates merged.
    let mut phases: Vec<&str> = Vec::new();
    let mut round = None;
    for e in t.all_events() {
        let p = match e {
            Event::InitiativeRolled { .. } | Event::OrderSet { .. } => "initiative",
            Event::RoundStarted { round: r } => {
                round = Some(r);
                continue;
            }
            Event::CombatEnded { .. } | Event::Cleared { .. } => "end-of-combat",
            _ if round == Some(0) => "round-zero",
            _ if round.is_some() => "rounds",
            _ => "before",
        };
        if phases.last() != Some(&p) {
            phases.push(p);
        }
    }
    assert_eq!(phases, vec!["initiative", "round-zero", "rounds", "end-of-combat"]);
    assert_eq!(t.s().phase, Phase::Ended);
}

#[test]
fn thr_r2_npcs_stand_on_their_placement_squares_from_the_start() {
    // Bob has no square yet: he picks one in Round Zero. The ogre was placed by the GM.
    let toml = enc(
        &[". . . . . .", "s s . . . ."],
        &format!("{}{}", who("bob", "pcs", "", ""), who("ogre", "npcs", "4,0", "")).replace("at = \"\"\n", ""),
    );
    let t = T::new(&toml, &[1, 1, 6, 6]);
    // The ogre rolled first but is never asked for a square; Bob is.
    assert_eq!(t.ch("ogre").pos, Some(Pos::new(4, 0)));
    assert_eq!(t.ch("bob").pos, None);
    assert_eq!(t.pending(), ("stance", "ogre".into()));
    assert!(t.legal().iter().all(|c| !c.starts_with("place")));
    // An NPC without a square is an input error.
    let bad = enc(
        &[". ."],
        &format!("{}{}", who("bob", "pcs", "0,0", ""), who("ogre", "npcs", "1,0", "")),
    )
    .replace(
        "id = \"ogre\"\nside = \"npcs\"\nat = \"1,0\"",
        "id = \"ogre\"\nside = \"npcs\"",
    );
    let e = load_errors(&bad);
    assert!(e.contains("NPC 'ogre' needs a square"), "{e}");
}

#[test]
fn thr_r3_every_character_takes_exactly_one_turn_per_round() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    for _ in 0..6 {
        pass(&mut t);
    }
    assert_eq!(t.s().round, 3);
    for r in [1, 2] {
        let mut seen = turns_in_round(&t, r);
        seen.sort();
        assert_eq!(seen, vec!["alice", "bob", "ogre"], "round {r}");
    }
}

#[test]
fn thr_r4_the_combat_stops_when_every_pc_is_incapacitated_or_removed() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.set("bob", "fatigue", 3); // so that Incapacity does not end at once (Load 0)
    t.cmd("gm incapacitate bob");
    assert!(t.ch("bob").incapacitated);
    assert!(t.s().outcome.is_none(), "Alice is still up");
    t.cmd("gm remove alice");
    assert_eq!(outcome(&t), (NPCS, "all-pcs-down".into()));
    assert!(t.game.pending().is_none());
}

/// Korrin (Sock 'Em, Brawling +3) next to an ogre with Fatigue Tolerance 3.
fn korrin_and_ogre(options: &str) -> String {
    enc(
        &[". . . ."],
        &format!(
            "{options}{}{}",
            who(
                "korrin",
                "pcs",
                "0,0",
                "attributes = { pow = 2 }\ntraining = { brawling = 3 }\nabilities = [\"sock-em\"]"
            ),
            who("ogre", "npcs", "1,0", "max-fatigue-tolerance = 3")
        ),
    )
}

/// Korrin hits the ogre (Fatigue 2 -> 4, Exhausted) with Sock 'Em; its Finisher roll fails.
fn korrin_finishes_ogre(t: &mut T, korrin_exhausted: bool) {
    t.set("ogre", "fatigue", 2);
    t.cmd("begin");
    t.cmd("act sock-em ogre option slow");
    if korrin_exhausted {
        // Attack with +1 Bane (Exhausted) keeps 4, 3; then Korrin's own Incapacity Roll.
        t.dice(&[4, 3, 6, 3, 3, 1, 2, 1, 1]);
    } else {
        // Attack 4+3+3 = 10 vs Resilience 3+3 = 6: hit; Incapacity Roll 1+2 = 3 vs Fatigue 4.
        t.dice(&[4, 3, 3, 3, 1, 2]);
    }
    t.cmd("defend resilience");
    t.assert_dice_used();
}

#[test]
fn thr_r5_thr_r7_the_combat_stops_right_after_the_ability_that_downs_the_last_npc() {
    let mut t = T::in_round_one(&korrin_and_ogre(""), &[6, 6, 1, 1]);
    korrin_finishes_ogre(&mut t, false);
    assert!(t.ch("ogre").incapacitated);
    assert_eq!(outcome(&t), (PCS, "all-npcs-down".into()));
    // THR-R7 / THR-H18 default: checked after the ability, so Korrin's turn stops there.
    assert!(t.game.pending().is_none());
    assert!(!t.last.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
}

#[test]
fn thr_r7_option_stop_check_at_end_of_turn_lets_the_turn_finish() {
    // THR-H18 alternative: stop conditions only at the end of each turn.
    let mut t = T::in_round_one(
        &korrin_and_ogre("[options]\nstop-check = \"end-of-turn\"\n"),
        &[6, 6, 1, 1],
    );
    korrin_finishes_ogre(&mut t, false);
    assert!(t.ch("ogre").incapacitated);
    assert!(t.s().outcome.is_none());
    assert_eq!(t.pending(), ("stance", "korrin".into()));
    t.cmd("stance brace");
    assert_eq!(outcome(&t), (PCS, "all-npcs-down".into()));
}

#[test]
fn thr_h18_when_both_sides_fall_together_the_pcs_lose() {
    let mut t = T::in_round_one(&korrin_and_ogre(""), &[6, 6, 1, 1]);
    t.set("korrin", "fatigue", 6); // Exhausted: his Action calls for an Incapacity Roll.
    korrin_finishes_ogre(&mut t, true);
    // Both went down in that one Action (End of Combat has revived Korrin since, THR-R183).
    for id in ["ogre", "korrin"] {
        assert!(t.last.contains(&Event::Incapacitated { who: t.id(id) }), "{id}");
    }
    assert_eq!(outcome(&t), (NPCS, "both-sides-down".into()));
}

#[test]
fn thr_h18_option_both_fall_draw() {
    let mut t = T::in_round_one(&korrin_and_ogre("[options]\nboth-fall = \"draw\"\n"), &[6, 6, 1, 1]);
    t.set("korrin", "fatigue", 6);
    korrin_finishes_ogre(&mut t, true);
    assert_eq!(outcome(&t), (None, "both-sides-down".into()));
}

fn with_condition(cond: &str) -> String {
    three(&format!("[[condition]]\n{cond}\n"))
}

#[test]
fn thr_r6_thr_h28_a_reach_win_condition_ends_the_combat() {
    let mut t = T::in_round_one(
        &with_condition("kind = \"win\"\ntest = \"reach\"\nsquares = [\"3,1\"]"),
        &BOB_ALICE_OGRE,
    );
    t.cmd("begin");
    t.cmd("move 3,1");
    // THR-R7: checked at the end of the turn (a move is not an ability).
    assert!(t.s().outcome.is_none());
    t.cmd("end");
    assert_eq!(outcome(&t), (PCS, "win-condition".into()));
}

#[test]
fn thr_r6_thr_h28_a_down_defeat_condition_ends_the_combat() {
    // Protect Alice: the PCs lose as soon as she is down, although Bob still stands.
    let mut t = T::in_round_one(
        &with_condition("kind = \"defeat\"\ntest = \"down\"\nwho = \"alice\""),
        &BOB_ALICE_OGRE,
    );
    t.set("bob", "fatigue", 3);
    t.set("alice", "fatigue", 3);
    t.cmd("gm incapacitate bob");
    assert!(t.s().outcome.is_none());
    t.cmd("gm revive bob");
    t.cmd("gm incapacitate alice");
    assert_eq!(outcome(&t), (NPCS, "defeat-condition".into()));
}

#[test]
fn thr_r6_thr_r8_thr_h28_a_survive_condition_is_judged_when_the_round_ends() {
    // THR-R8: the end-of-round event is what a round counter listens to.
    let mut t = T::in_round_one(
        &with_condition("kind = \"win\"\ntest = \"survive\"\nrounds = 2"),
        &BOB_ALICE_OGRE,
    );
    for _ in 0..5 {
        pass(&mut t);
    }
    assert!(t.s().outcome.is_none(), "round 2 is not over yet");
    pass(&mut t); // the ogre, last in round 2
    assert_eq!(outcome(&t), (PCS, "win-condition".into()));
    let ended = t
        .last
        .iter()
        .position(|e| matches!(e, Event::RoundEnded { round: 2 }))
        .unwrap();
    let over = t
        .last
        .iter()
        .position(|e| matches!(e, Event::CombatEnded { .. }))
        .unwrap();
    assert!(ended < over);
}

#[test]
fn thr_h28_a_hold_condition_counts_rounds_ended_on_the_squares() {
    let mut t = T::in_round_one(
        &with_condition("kind = \"win\"\ntest = \"hold\"\nsquares = [\"2,1\"]\nrounds = 2"),
        &BOB_ALICE_OGRE,
    );
    t.cmd("begin");
    t.cmd("move 2,1");
    t.cmd("end");
    pass(&mut t);
    pass(&mut t);
    assert!(t.last.contains(&Event::HoldCounted { condition: 0, count: 1 }));
    assert!(t.s().outcome.is_none());
    for _ in 0..3 {
        pass(&mut t);
    }
    assert_eq!(outcome(&t), (PCS, "win-condition".into()));
}

#[test]
fn thr_h28_a_condition_of_unknown_kind_is_an_input_error() {
    let e = load_errors(&with_condition("kind = \"lose\"\ntest = \"survive\"\nrounds = 2"));
    assert!(e.contains("unknown condition kind 'lose'"), "{e}");
}

#[test]
fn thr_r8_an_end_of_round_event_follows_the_last_turn_of_every_round() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    for _ in 0..6 {
        pass(&mut t);
    }
    let ev = t.all_events();
    let at = |f: &dyn Fn(&Event) -> bool| -> Vec<usize> { (0..ev.len()).filter(|i| f(&ev[*i])).collect() };
    for r in [1u16, 2] {
        let started = at(&|e| matches!(e, Event::RoundStarted { round } if *round == r));
        let ended = at(&|e| matches!(e, Event::RoundEnded { round } if *round == r));
        assert_eq!((started.len(), ended.len()), (1, 1), "round {r}");
        let (start, end) = (started[0], ended[0]);
        // All three turns of the round ended before it, and the next round starts right after.
        let turns_ended = at(&|e| matches!(e, Event::TurnEnded { .. }));
        assert_eq!(turns_ended.iter().filter(|i| (start..end).contains(*i)).count(), 3);
        assert!(matches!(ev[end + 1], Event::RoundStarted { round } if round == r + 1));
    }
}

// ---------------------------------------------------------------------------------------------
// Initiative
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r9_a_pcs_initiative_modifier_is_its_ref() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("sefa", "pcs", "0,0", "attributes = { ref = 2 }"),
            who("ogre", "npcs", "3,0", "")
        ),
    );
    let t = T::new(&toml, &[3, 4, 5, 5]);
    assert_eq!(t.ch("sefa").initiative, 9);
    assert_eq!(t.ch("ogre").initiative, 10);
}

#[test]
fn thr_r10_thr_r11_turns_go_from_highest_total_down_and_the_order_carries_over() {
    // THR-R11: the same order in rounds 1 and 2.
    let toml = enc(
        &[". . . . . . ."],
        &format!(
            "{}{}{}{}",
            who("a", "pcs", "0,0", ""),
            who("b", "npcs", "2,0", ""),
            who("c", "pcs", "4,0", ""),
            who("d", "npcs", "6,0", "")
        ),
    );
    // a 5, b 11, c 8, d 3.
    let mut t = T::in_round_one(&toml, &[2, 3, 5, 6, 4, 4, 1, 2]);
    assert_eq!(t.order(), vec!["b", "c", "a", "d"]);
    for _ in 0..8 {
        pass(&mut t);
    }
    for r in [1, 2] {
        assert_eq!(turns_in_round(&t, r), vec!["b", "c", "a", "d"], "round {r}");
    }
    assert_eq!(t.order(), vec!["b", "c", "a", "d"]);
}

/// x and y, who will tie, and z, an NPC who rolls 1, 1 and is not part of the tie.
fn pair(a: &str, b: &str, options: &str) -> String {
    enc(
        &[". . . . . ."],
        &format!(
            "{options}{}{}{}",
            who("x", a, "0,0", ""),
            who("y", b, "3,0", ""),
            who("z", "npcs", "5,0", "")
        ),
    )
}

#[test]
fn thr_r12_thr_h7_equal_totals_higher_modifier_first() {
    // x: 2+2+2 = 6; y: 3+3+0 = 6. No roll-off dice are drawn.
    let toml = pair("npcs", "pcs", "").replace("at = \"0,0\"\n", "at = \"0,0\"\ninitiative = 2\n");
    let t = T::new(&toml, &[2, 2, 3, 3, 1, 1]);
    assert_eq!((t.ch("x").initiative, t.ch("y").initiative), (6, 6));
    assert_eq!(t.order(), vec!["x", "y", "z"]);
    assert!(!t.all_events().iter().any(|e| matches!(e, Event::RollOff { .. })));
}

#[test]
fn thr_r12_thr_h7_equal_totals_and_modifiers_pcs_before_npcs() {
    // The NPC is listed first, but the PC goes first.
    let t = T::new(&pair("npcs", "pcs", ""), &[3, 3, 4, 2, 1, 1]);
    assert_eq!(t.order(), vec!["y", "x", "z"]);
    assert!(!t.all_events().iter().any(|e| matches!(e, Event::RollOff { .. })));
}

#[test]
fn thr_r12_thr_h7_still_tied_a_rolloff_decides_and_repeats_on_ties() {
    // Two PCs at 6: the roll-off ties at 6 and 6, then y wins 12 to 2.
    let t = T::new(&pair("pcs", "pcs", ""), &[3, 3, 4, 2, 1, 1, 3, 3, 4, 2, 1, 1, 6, 6]);
    assert_eq!(t.order(), vec!["y", "x", "z"]);
    let rolloffs = t
        .all_events()
        .iter()
        .filter(|e| matches!(e, Event::RollOff { .. }))
        .count();
    assert_eq!(rolloffs, 4);
    // The initiative totals themselves do not change.
    assert_eq!((t.ch("x").initiative, t.ch("y").initiative), (6, 6));
    t.assert_dice_used();
}

#[test]
fn thr_r12_option_rolloff_ignores_modifier_and_side() {
    // THR-H7 alternative: x (modifier 2, listed first) ties y (modifier 0) at 6; y wins the
    // roll-off 12 to 2.
    let toml = pair("pcs", "npcs", "[options]\ninitiative-ties = \"rolloff\"\n")
        .replace("at = \"0,0\"\n", "at = \"0,0\"\ninitiative = 2\n");
    let t = T::new(&toml, &[2, 2, 3, 3, 1, 1, 1, 1, 6, 6]);
    assert_eq!(t.order(), vec!["y", "x", "z"]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Delay
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r13_the_gm_may_delay_an_npc() {
    // The ogre 12, Bob 10, Alice 2.
    let mut t = T::in_round_one(&three(""), &[5, 5, 1, 1, 6, 6]);
    assert_eq!(t.pending(), ("slot", "ogre".into()));
    t.cmd("delay after bob");
    assert_eq!(t.turn(), ("bob".into(), Step::Slot));
    assert_eq!(t.order(), vec!["bob", "ogre", "alice"]);
    pass(&mut t); // bob
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
}

#[test]
fn thr_r14_thr_r15_a_delayed_slot_begins_by_itself_and_stays_put() {
    // THR-R15: once per round, then it must act; THR-R14: the new place is kept.
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.cmd("delay after alice");
    pass(&mut t); // alice
    // Bob's new slot opens straight into his turn: he must act, no second Delay.
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
    // The log says it began by itself and why, and a `begin` typed now says what happened.
    assert!(
        t.log()
            .iter()
            .any(|l| l == "bob's turn began by itself (the only choice: bob has already delayed this round)"),
        "{:?}",
        t.log()
    );
    let r = t.reject("begin");
    assert_eq!(r.code, "not-now");
    assert_eq!(r.reason, "bob's turn already began by itself (the only choice)");
    let r = t.reject("delay end");
    assert_eq!(r.code, "cannot-delay");
    t.cmd("end");
    pass(&mut t); // ogre
    // Round 2 and 3 keep the delayed place.
    assert_eq!(t.order(), vec!["alice", "bob", "ogre"]);
    for _ in 0..3 {
        pass(&mut t);
    }
    assert_eq!(turns_in_round(&t, 2), vec!["alice", "bob", "ogre"]);
    assert_eq!(t.s().round, 3);
    assert_eq!(t.pending(), ("slot", "alice".into()));
}

#[test]
fn thr_r17_thr_h8_a_character_may_delay_again_the_next_round() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.cmd("delay after alice");
    pass(&mut t); // alice
    t.cmd("end"); // bob
    pass(&mut t); // ogre
    pass(&mut t); // alice, round 2
    assert_eq!(t.turn(), ("bob".into(), Step::Slot));
    t.cmd("delay after ogre");
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
}

#[test]
fn thr_r17_option_delay_once_per_combat() {
    // THR-H8 alternative: one Delay in the whole combat.
    let mut t = T::in_round_one(
        &three("[options]\ndelay-limit = \"once-per-combat\"\n"),
        &BOB_ALICE_OGRE,
    );
    t.cmd("delay after alice");
    pass(&mut t); // alice
    t.cmd("end"); // bob
    pass(&mut t); // ogre
    pass(&mut t); // alice, round 2
    // Bob cannot delay any more, so his slot begins by itself.
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
    assert_eq!(t.reject("delay after ogre").code, "cannot-delay");
}

#[test]
fn thr_r17_thr_h9_a_delay_names_a_later_slot_that_has_not_acted() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    pass(&mut t); // bob acts
    assert_eq!(t.pending(), ("slot", "alice".into()));
    let r = t.reject("delay after bob");
    assert_eq!(r.code, "cannot-delay");
    assert_eq!(t.reject("delay after alice").code, "cannot-delay");
    assert_eq!(
        t.legal().iter().filter(|c| c.starts_with("delay")).collect::<Vec<_>>(),
        vec!["delay after ogre", "delay end"]
    );
}

#[test]
fn thr_r17_thr_h9_delay_to_the_end_of_the_round_becomes_the_last_slot() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.cmd("delay end");
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
    pass(&mut t); // alice
    pass(&mut t); // ogre
    assert_eq!(t.turn(), ("bob".into(), Step::Move));
    t.cmd("end");
    assert_eq!(t.s().round, 2);
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
}

#[test]
fn thr_r17_option_no_delay_to_end() {
    // THR-H9 alternative: "end of round" is not a legal point.
    let mut t = T::in_round_one(&three("[options]\ndelay-to-end = false\n"), &BOB_ALICE_OGRE);
    assert_eq!(t.reject("delay end").code, "cannot-delay");
    t.cmd("delay after ogre");
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"]);
}

#[test]
fn thr_h30_a_removed_characters_slot_is_skipped() {
    let toml = three("").replace(
        "[[combatant]]\nid = \"ogre\"",
        &format!("{}[[combatant]]\nid = \"ogre\"", who("cal", "pcs", "2,1", "")),
    );
    // bob 12, alice 10, cal 8, ogre 2.
    let mut t = T::in_round_one(&toml, &[6, 6, 5, 5, 4, 4, 1, 1]);
    t.cmd("begin");
    t.cmd("gm remove alice");
    t.cmd("end");
    assert_eq!(t.pending(), ("slot", "cal".into()));
    pass(&mut t); // cal
    pass(&mut t); // ogre
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "cal", "ogre"]);
    assert!(!t.legal().contains(&"delay after alice".to_string()));
}

#[test]
fn thr_h30_an_incapacitated_character_keeps_its_slot_but_may_not_delay() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.set("alice", "fatigue", 3);
    t.cmd("gm incapacitate alice");
    t.cmd("gm status alice slowed =2");
    pass(&mut t); // bob
    // Alice's slot is not offered as a decision: her turn runs and ends by itself.
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "alice", "ogre"]);
    assert_eq!(t.turn(), ("ogre".into(), Step::Move));
    assert!(t.last.contains(&Event::TurnEnded { who: t.id("alice") }));
    assert_eq!(t.ch("alice").status(fray_thrum::ability::XStatus::Slowed), 1);
}

#[test]
fn thr_h30_option_incapacitated_may_delay() {
    let mut t = T::in_round_one(&three("[options]\nincapacitated-may-delay = true\n"), &BOB_ALICE_OGRE);
    t.set("alice", "fatigue", 3);
    t.cmd("gm incapacitate alice");
    pass(&mut t); // bob
    assert_eq!(t.pending(), ("slot", "alice".into()));
    t.cmd("delay after ogre");
    assert_eq!(t.order(), vec!["bob", "ogre", "alice"]);
}

// ---------------------------------------------------------------------------------------------
// Initiative changes and joiners
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r18_a_changed_initiative_resorts_the_order_at_the_next_round() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    // Bob delays behind the ogre: his slot takes the ogre's place (key 2).
    t.cmd("delay after ogre");
    t.cmd("gm set alice initiative -9");
    assert_eq!(t.ch("alice").initiative, 1);
    assert_eq!(t.order(), vec!["alice", "ogre", "bob"], "no change this round");
    pass(&mut t); // alice
    pass(&mut t); // ogre
    t.cmd("end"); // bob
    // Round 2: Alice (1) drops below; Bob stays right after the ogre.
    assert_eq!(t.order(), vec!["ogre", "bob", "alice"]);
}

#[test]
fn thr_r18_a_raised_initiative_moves_up_next_round() {
    let mut t = T::in_round_one(&three(""), &BOB_ALICE_OGRE);
    t.cmd("gm set ogre initiative +20");
    assert_eq!(t.ch("ogre").initiative, 22);
    for _ in 0..3 {
        pass(&mut t);
    }
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "alice", "ogre"]);
    assert_eq!(t.order(), vec!["ogre", "bob", "alice"]);
    assert_eq!(t.pending(), ("slot", "ogre".into()));
}

#[test]
fn thr_r18_option_keep_order() {
    let mut t = T::in_round_one(
        &three("[options]\ninitiative-change = \"keep-order\"\n"),
        &BOB_ALICE_OGRE,
    );
    t.cmd("gm set ogre initiative +20");
    assert_eq!(t.ch("ogre").initiative, 22);
    for _ in 0..3 {
        pass(&mut t);
    }
    assert_eq!(t.order(), vec!["bob", "alice", "ogre"]);
}

fn with_template() -> String {
    three("[template.goblin]\ninitiative = 1\nattack = 1\n\n")
}

#[test]
fn thr_r19_a_joiner_rolls_initiative_on_arrival_and_acts_next_round() {
    let mut t = T::in_round_one(&with_template(), &BOB_ALICE_OGRE);
    t.cmd("begin");
    t.dice(&[6, 6]);
    t.cmd("gm add gob goblin npcs 4,0");
    t.assert_dice_used();
    assert_eq!(t.ch("gob").initiative, 13);
    assert!(t.last.iter().any(|e| matches!(e, Event::InitiativeRolled { .. })));
    t.cmd("end"); // bob
    pass(&mut t); // alice
    pass(&mut t); // ogre
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "alice", "ogre"]);
    assert_eq!(t.s().round, 2);
    assert_eq!(t.order(), vec!["gob", "bob", "alice", "ogre"]);
    assert_eq!(t.pending(), ("slot", "gob".into()));
}

#[test]
fn thr_r19_a_joiner_waits_for_next_round_even_when_its_slot_is_ahead() {
    let mut t = T::in_round_one(&with_template(), &BOB_ALICE_OGRE);
    t.cmd("begin");
    t.dice(&[2, 2]); // 5: between Alice (10) and the ogre (2)
    t.cmd("gm add gob goblin npcs 4,0");
    t.cmd("end"); // bob
    pass(&mut t); // alice
    pass(&mut t); // ogre
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "alice", "ogre"]);
}

#[test]
fn thr_r19_option_joiner_acts_this_round_if_ahead() {
    let toml = with_template().replacen(
        "[template.goblin]",
        "[options]\njoiner-turn = \"this-round-if-ahead\"\n\n[template.goblin]",
        1,
    );
    let mut t = T::in_round_one(&toml, &BOB_ALICE_OGRE);
    t.cmd("begin");
    t.dice(&[2, 2]); // 5: still ahead of the ogre this round
    t.cmd("gm add gob goblin npcs 4,0");
    t.dice(&[6, 6]); // 13: already passed this round
    t.cmd("gm add hob goblin npcs 4,1");
    t.cmd("end"); // bob
    pass(&mut t); // alice
    pass(&mut t); // gob
    pass(&mut t); // ogre
    assert_eq!(turns_in_round(&t, 1), vec!["bob", "alice", "gob", "ogre"]);
    assert_eq!(t.pending(), ("slot", "hob".into()));
}

// ---------------------------------------------------------------------------------------------
// Round Zero
// ---------------------------------------------------------------------------------------------

/// Two unplaced PCs and an ogre; Starting Area of four squares on the west.
fn unplaced(options: &str) -> String {
    enc(
        &["s s . . .", "s s . . ."],
        &format!(
            "{options}{}{}{}",
            who("bob", "pcs", "", ""),
            who("alice", "pcs", "", ""),
            who("ogre", "npcs", "4,0", "abilities = [\"stand-firm\"]")
        )
        .replace("at = \"\"\n", ""),
    )
}

#[test]
fn thr_r20_round_zero_happens_once_in_initiative_order() {
    // Alice 12, the ogre 10, Bob 2.
    let mut t = T::new(&unplaced(""), &[1, 1, 6, 6, 5, 5]);
    assert_eq!(t.s().round, 0);
    t.cmds(&["place 0,0", "end"]); // alice
    t.cmd("end"); // ogre
    t.cmds(&["place 1,0", "end"]); // bob
    assert_eq!(turns_in_round(&t, 0), vec!["alice", "ogre", "bob"]);
    assert_eq!(t.s().round, 1);
    assert_eq!(t.s().phase, Phase::Rounds);
    for _ in 0..3 {
        pass(&mut t);
    }
    let rounds: Vec<u16> = t
        .all_events()
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { round } => Some(*round),
            _ => None,
        })
        .collect();
    assert_eq!(rounds, vec![0, 1, 2]);
}

#[test]
fn thr_r21_no_actions_or_moves_in_round_zero() {
    let mut t = T::new(&three(""), &BOB_ALICE_OGRE);
    assert_eq!(t.pending(), ("stance", "bob".into()));
    assert_eq!(t.reject("act dash").code, "not-now");
    assert_eq!(t.reject("act basic-attack ogre").code, "not-now");
    assert_eq!(t.reject("move 2,1").code, "not-now");
    assert_eq!(t.reject("delay after alice").code, "not-now");
    assert!(
        t.legal().iter().all(|c| c.starts_with("stance") || c == "end"),
        "{:?}",
        t.legal()
    );
}

#[test]
fn thr_r22_a_pc_picks_its_starting_square_inside_the_starting_area() {
    let mut t = T::new(&unplaced(""), &[6, 6, 5, 5, 1, 1]);
    assert_eq!(t.pending(), ("place", "bob".into()));
    assert_eq!(t.reject("place 2,0").code, "not-in-start-area");
    assert_eq!(t.reject("end").code, "not-now");
    let mut squares = t.legal();
    squares.sort();
    assert_eq!(squares, vec!["place 0,0", "place 0,1", "place 1,0", "place 1,1"]);
    t.cmd("place 1,1");
    assert_eq!(t.ch("bob").pos, Some(Pos::new(1, 1)));
    assert_eq!(t.pending(), ("stance", "bob".into()));
}

#[test]
fn thr_r23_a_round_zero_stance_is_active_in_round_one() {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("bob", "pcs", "0,0", ""),
            who("ogre", "npcs", "1,0", "attack = 2\nabilities = [\"biffer-strike\"]")
        ),
    );
    // The ogre 12 acts first in round 1.
    let mut t = T::new(&toml, &[5, 5, 6, 6]);
    t.cmd("end"); // ogre
    t.cmd("stance brace"); // bob: one Stance, and his Round Zero turn is over
    assert_eq!(t.s().round, 1);
    assert_eq!(t.ch("bob").stance, t.s().setup.book.find("brace"));
    assert_eq!(t.pending(), ("slot", "ogre".into()));
    t.cmd("begin");
    t.cmd("act biffer-strike bob");
    // Bob's Resilience roll has Brace's Boon: three dice.
    t.dice(&[3, 3, 1, 5, 6]);
    t.cmd("defend resilience");
    let c = contests(&t.last);
    assert_eq!(c, vec![(8, Some(11), fray_thrum::event::Verdict::DefenderSuccess)]);
    t.assert_dice_used();
}

#[test]
fn thr_r24_thr_h10_npcs_keep_their_square_but_may_enter_a_stance() {
    // The ogre first.
    let mut t = T::new(&three(""), &[5, 5, 1, 1, 6, 6]);
    assert_eq!(t.pending(), ("stance", "ogre".into()));
    assert_eq!(t.reject("place 0,1").code, "not-now");
    t.cmd("stance stand-firm");
    t.cmds(&["end", "end"]);
    assert_eq!(t.s().round, 1);
    assert_eq!(t.ch("ogre").pos, Some(Pos::new(5, 1)));
    assert_eq!(t.ch("ogre").stance, t.s().setup.book.find("stand-firm"));
}

#[test]
fn thr_r24_option_npcs_take_no_round_zero_stance() {
    let mut t = T::new(
        &three("[options]\nnpc-round-zero-stance = false\n"),
        &[5, 5, 1, 1, 6, 6],
    );
    // The ogre's Round Zero turn passes without a decision.
    assert_eq!(t.pending(), ("stance", "bob".into()));
    assert_eq!(turns_in_round(&t, 0), vec!["ogre", "bob"]);
    t.cmds(&["end", "end"]);
    assert_eq!(t.s().round, 1);
    assert_eq!(t.ch("ogre").stance, None);
}

#[test]
fn thr_r25_thr_h11_a_starting_square_must_be_empty() {
    // The ogre stands inside the Starting Area.
    let toml = unplaced("").replace("at = \"4,0\"", "at = \"1,0\"");
    let mut t = T::new(&toml, &[6, 6, 5, 5, 1, 1]);
    assert_eq!(t.reject("place 1,0").code, "occupied");
    t.cmd("place 0,0");
    t.cmd("end");
    assert_eq!(t.pending(), ("place", "alice".into()));
    assert_eq!(t.reject("place 0,0").code, "occupied");
}

#[test]
fn thr_r25_thr_h11_a_starting_area_too_small_is_refused() {
    let toml = unplaced("").replace("s s . . .\",\n  \"s s . . .", "s . . . .\",\n  \". . . . .");
    let e = load_errors(&toml);
    assert!(e.contains("2 PCs must pick a starting square"), "{e}");
    assert!(e.contains("only 1 empty squares"), "{e}");
}

#[test]
fn thr_r25_option_pcs_without_room_start_on_any_empty_square() {
    let toml = unplaced("[options]\nstart-area-too-small = \"any-empty-square\"\n")
        .replace("s s . . .\",\n  \"s s . . .", "s . . . .\",\n  \". . . . .");
    let mut t = T::new(&toml, &[6, 6, 5, 5, 1, 1]);
    // While the Starting Area has room, it must be used.
    assert_eq!(t.reject("place 2,1").code, "not-in-start-area");
    t.cmds(&["place 0,1", "end"]);
    // Now it is full: Alice may take any empty square, but not an occupied one.
    assert_eq!(t.reject("place 4,0").code, "occupied");
    t.cmd("place 2,1");
    assert_eq!(t.ch("alice").pos, Some(Pos::new(2, 1)));
}
