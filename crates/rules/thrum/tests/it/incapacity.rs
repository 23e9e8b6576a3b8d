//! Exhaustion, Incapacity and Wounds; End of Combat (THR-R164 to THR-R187, THR-H15, THR-H18,
//! THR-H21 to THR-H25, THR-H29, THR-H30). Rule 188 (Nova Potential carries over) is not tested:
//! there are no Nova abilities yet.

use crate::common;
use common::*;
use fray_thrum::ability::{Cond, XStatus};
use fray_thrum::event::{Event, Rolled};
use fray_thrum::state::Step;

const ABILITIES: &str = r#"
[[ability]]
id = "rally"
type = "action"
range = 2
target = "ally"
effect = [{ reduce-fatigue = 9 }]

[[ability]]
id = "long-jab"
type = "action"
attack = "physical"
range = 2
target = "enemy"
success = [{ fatigue = 1 }]

[[ability]]
id = "rouse"
type = "action"
range = 2
target = "ally"
effect = [{ end-incapacitated = true }]

[[ability]]
id = "rouse-fallen"
type = "action"
range = 2
target = "incapacitated-ally"
effect = [{ end-incapacitated = true }]

[[ability]]
id = "second-wind"
type = "action"
target = "self"
effect = [{ fatigue-tolerance = 1 }, { stress-tolerance = 1 }]

[[ability]]
id = "steel"
type = "action"
range = 2
target = "ally"
effect = [{ fatigue-tolerance = 2 }]

[[ability]]
id = "sap"
type = "action"
range = 2
target = "ally"
effect = [{ fatigue-tolerance = -5 }, { stress-tolerance = -1 }]
"#;

/// D and K are PCs (Tolerances 3 / 2), E an NPC two squares east of D. Turn order D (12),
/// E (7), K (2); K, last, begins its turns by itself.
fn trio(d: &str, k: &str, e: &str, rest: &str) -> T {
    let enc = with_abilities(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{rest}{}{}{}",
            who("d", "pcs", "0,0", d),
            who("k", "pcs", "0,1", k),
            who("e", "npcs", "2,0", e)
        ),
        ABILITIES,
    );
    let t = t_with(&enc, &[6, 6, 1, 1, 3, 4]);
    assert_eq!(t.order(), vec!["d", "e", "k"]);
    t
}

/// `trio` with Round Zero skipped: D's slot is up.
fn trio1(d: &str, k: &str, e: &str, rest: &str) -> T {
    let mut t = trio(d, k, e, rest);
    t.skip_round_zero();
    assert_eq!(t.turn(), ("d".into(), Step::Slot));
    t
}

/// From D's Stance step to D's next slot: E begins and ends, K ends.
fn next_round(t: &mut T) {
    t.cmds(&["end", "begin", "end", "end"]);
    assert_eq!(t.turn(), ("d".into(), Step::Slot));
}

fn attack(ev: &[Event]) -> Rolled {
    ev.iter()
        .find_map(|e| match e {
            Event::Contest { attack: Some(a), .. } => Some(**a),
            _ => None,
        })
        .expect("an attack roll")
}

/// Incapacity Rolls among events: (who, roll, load, passed).
fn incap(t: &T, ev: &[Event]) -> Vec<(String, Rolled, i16, bool)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::IncapacityRolled {
                who,
                roll,
                load,
                passed,
            } => Some((t.s().info(*who).id.clone(), *roll, *load, *passed)),
            _ => None,
        })
        .collect()
}

fn at(ev: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    ev.iter().position(f).expect("event not found")
}

fn ft_load(t: &T, id: &str) -> (i16, i16) {
    (t.ch(id).ft, t.ch(id).fatigue)
}

// ---------------------------------------------------------------------------------------------
// Exhaustion and the Incapacity Roll
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r164_thr_r165_exhausted_above_tolerance_banes_attack_rolls() {
    // THR-R164, THR-R165.
    let mut t = trio1("attack = 2", "", "", "");
    // Fatigue Load 3 = Tolerance 3: not Exhausted, no Bane, no Incapacity Roll.
    t.set("d", "fatigue", 3);
    assert!(!t.ch("d").exhausted());
    t.cmd("begin");
    t.cmd("act basic-attack e");
    t.dice(&[3, 3, 1, 1]);
    t.cmd("defend resilience");
    assert_eq!(attack(&t.last).net, 0);
    assert!(incap(&t, &t.last).is_empty());
    next_round(&mut t);
    // Load 4 > 3: Exhausted, +1 Bane on the attack (3 dice, worst two: 3 + 3 + 2 = 8).
    t.set("d", "fatigue", 4);
    assert!(t.ch("d").exhausted());
    t.cmd("begin");
    t.cmd("act basic-attack e");
    t.dice(&[3, 3, 6, 1, 1, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let a = attack(&t.last);
    assert_eq!((a.net, a.total), (-1, 8));
}

#[test]
fn thr_r166_an_exhausted_character_rolls_incapacity_right_after_its_action() {
    let mut t = trio1("attack = 2", "", "", "");
    t.set("d", "fatigue", 4);
    t.cmd("begin");
    t.cmd("act basic-attack e");
    // Attack 3 + 3 + 2 (1 Bane), E's 1 + 1; then D's Incapacity Roll 6 + 6 > 4.
    t.dice(&[3, 3, 6, 1, 1, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let ev = &t.last;
    let contest = at(ev, |e| matches!(e, Event::Contest { .. }));
    let damage = at(ev, |e| matches!(e, Event::Damage { .. }));
    let roll = at(ev, |e| matches!(e, Event::IncapacityRolled { .. }));
    assert!(contest < damage && damage < roll);
    let r = incap(&t, ev);
    assert_eq!((r[0].0.as_str(), r[0].1.total, r[0].2, r[0].3), ("d", 12, 4, true));
    assert!(t.ch("d").able());
}

#[test]
fn thr_r166_no_roll_when_the_action_ended_the_exhaustion() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 4);
    t.cmd("begin");
    // Recover brings the Load back to the Tolerance: no longer Exhausted, no roll.
    t.cmd("act recover option fatigue");
    assert_eq!(t.ch("d").fatigue, 3);
    assert!(incap(&t, &t.last).is_empty());
}

#[test]
fn thr_r167_any_action_counts_and_no_action_means_no_roll() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 4);
    t.set("d", "stress", 1);
    // Recover on Stress leaves D Exhausted: it rolls.
    t.cmd("begin");
    t.dice(&[6, 6]);
    t.cmd("act recover option stress");
    assert_eq!(incap(&t, &t.last).len(), 1);
    next_round(&mut t);
    // Dash counts too.
    t.cmd("begin");
    t.dice(&[6, 6]);
    t.cmd("act dash");
    assert_eq!(incap(&t, &t.last).len(), 1);
    t.cmds(&["end", "begin", "end", "end"]);
    // A turn with no Action: no roll.
    t.cmd("begin");
    t.cmd("end");
    assert!(incap(&t, &t.last).is_empty());
    t.assert_dice_used();
}

#[test]
fn thr_r167_option_only_attacks_call_for_the_roll() {
    let mut t = trio1("attack = 2", "", "", "[options]\nincapacity-after-any-action = false\n");
    t.set("d", "fatigue", 4);
    t.cmd("begin");
    t.cmd("act dash");
    assert!(incap(&t, &t.last).is_empty());
    next_round(&mut t);
    t.cmd("begin");
    t.cmd("act basic-attack e");
    t.dice(&[3, 3, 6, 1, 1, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(incap(&t, &t.last).len(), 1);
}

#[test]
fn thr_r168_thr_r169_thr_r172_the_incapacity_roll_and_becoming_incapacitated() {
    // THR-R168, THR-R169, THR-R172.
    let mut t = trio("resilience = 2", "", "", "");
    t.cmds(&["stance brace", "end", "end"]);
    t.set("d", "fatigue", 5);
    // 2d6 + Resilience 2: 2 + 2 + 2 = 6 > 5 passes.
    t.cmd("begin");
    t.dice(&[2, 2]);
    t.cmd("act dash");
    let r = incap(&t, &t.last);
    assert_eq!((r[0].1.total, r[0].1.modifier, r[0].3), (6, 2, true));
    assert!(t.ch("d").able());
    next_round(&mut t);
    // 1 + 2 + 2 = 5 is not greater than the Load 5: Incapacitated.
    t.cmd("begin");
    t.dice(&[1, 2]);
    t.cmd("act dash");
    t.assert_dice_used();
    let r = incap(&t, &t.last);
    assert_eq!((r[0].1.total, r[0].3), (5, false));
    assert!(t.ch("d").incapacitated);
    // THR-R169: the Stance ends at once.
    assert_eq!(t.ch("d").stance, None);
    let ev = &t.last;
    let down = at(ev, |e| matches!(e, Event::Incapacitated { .. }));
    let stance = at(ev, |e| matches!(e, Event::StanceEnded { .. }));
    assert_eq!(stance, down + 1);
    // THR-R172: Tolerance and Load both drop by 1 the moment it happens: 3 / 5 to 2 / 4.
    use fray_thrum::command::Gauge;
    assert!(matches!(
        ev[down + 2],
        Event::Set {
            who: 0,
            gauge: Gauge::FatigueTolerance,
            value: 2
        }
    ));
    assert!(matches!(
        ev[down + 3],
        Event::Set {
            who: 0,
            gauge: Gauge::Fatigue,
            value: 4
        }
    ));
    // Its turn then ends by itself, Incapacitated, with the end-of-turn drop (THR-R173).
    assert_eq!(t.turn().0, "e");
    assert_eq!(ft_load(&t, "d"), (1, 3));
}

/// D (Fatigue Tolerance 2, Load 3: Exhausted) Dashes and fails its Incapacity Roll (1 + 1 = 2,
/// not above 3): 1 / 2 at once; its turn then ends by itself.
fn fallen_on_its_own_turn(options: &str) -> T {
    let mut t = trio1("fatigue-tolerance = 2", "", "", options);
    t.set("d", "fatigue", 3);
    t.cmd("begin");
    t.dice(&[1, 1]);
    t.cmd("act dash");
    t.assert_dice_used();
    assert!(t.ch("d").incapacitated);
    assert_eq!(t.turn().0, "e");
    t
}

#[test]
fn thr_r172_thr_r173_incapacitated_on_its_own_turn_drops_twice_that_turn() {
    // THR-R172, THR-R173 read literally: the drop on becoming Incapacitated (2 / 3 to 1 / 2),
    // then the end-of-turn drop (0 / 1), and a Wound for ending the turn at Tolerance 0.
    let t = fallen_on_its_own_turn("");
    assert_eq!(ft_load(&t, "d"), (0, 1));
    assert_eq!(t.ch("d").wounds, 1);
}

#[test]
fn thr_r173_option_incapacity_drop_same_turn_false_drops_once_that_turn() {
    // THR-R173 with `incapacity-drop-same-turn = false`: that turn's end adds no second drop.
    let mut t = fallen_on_its_own_turn("[options]\nincapacity-drop-same-turn = false\n");
    assert_eq!(ft_load(&t, "d"), (1, 2));
    assert_eq!(t.ch("d").wounds, 0);
    // Its next turn, spent Incapacitated (it runs by itself), drops as usual.
    t.cmds(&["begin", "end", "end"]); // E, then K
    assert_eq!(t.turn().0, "e");
    assert_eq!(ft_load(&t, "d"), (0, 1));
    assert_eq!(t.ch("d").wounds, 1);
}

#[test]
fn thr_h25_brace_does_not_help_the_incapacity_roll() {
    let mut t = trio("", "", "", "");
    t.cmds(&["stance brace", "end", "end"]);
    t.set("d", "fatigue", 4);
    t.cmd("begin");
    t.dice(&[6, 6]);
    t.cmd("act dash");
    t.assert_dice_used();
    assert_eq!(incap(&t, &t.last)[0].1.net, 0);
}

#[test]
fn thr_h25_option_stances_help_the_incapacity_roll() {
    let mut t = trio("", "", "", "[options]\nstances-help-fixed-rolls = true\n");
    t.cmds(&["stance brace", "end", "end"]);
    t.set("d", "fatigue", 4);
    t.cmd("begin");
    t.dice(&[1, 6, 6]);
    t.cmd("act dash");
    t.assert_dice_used();
    assert_eq!(incap(&t, &t.last)[0].1.net, 1);
}

// ---------------------------------------------------------------------------------------------
// While Incapacitated
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r170_thr_h21_an_incapacitated_character_gets_turns_but_only_defends() {
    // THR-R170, THR-H21.
    let mut t = trio1("", "", "attack = 2", "");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    // D's slot came up and its turn ran by itself: no Delay, Move, Action or Stance offered.
    let ev = &t.last;
    let started = at(ev, |e| matches!(e, Event::TurnStarted { who: 0 }));
    let ended = at(ev, |e| matches!(e, Event::TurnEnded { who: 0 }));
    assert!(started < ended);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Moved { .. } | Event::Declared { .. }))
    );
    assert_eq!(t.pending(), ("slot", "e".into()));
    // It still defends when attacked.
    t.cmd("begin");
    t.cmd("act basic-attack d");
    assert_eq!(t.pending(), ("defence", "d".into()));
    t.dice(&[3, 3, 4, 4]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(
        contests(&t.last),
        vec![(8, Some(8), fray_thrum::event::Verdict::DefenderSuccess)]
    );
}

#[test]
fn thr_r172_thr_r177_gm_incapacitate_at_a_low_load_revives_at_once_and_says_why() {
    // THR-R172: becoming Incapacitated drops the Load by 1; THR-R177: Load 0 ends Incapacity.
    let mut t = trio1("", "", "attack = 2", "");
    t.set("d", "fatigue", 1);
    t.cmd("gm incapacitate d");
    assert!(!t.ch("d").incapacitated);
    assert_eq!(t.ch("d").fatigue, 0);
    let log = t.log();
    let line = log
        .iter()
        .find(|l| l.contains("came back at once"))
        .unwrap_or_else(|| panic!("no explanation in {log:?}"));
    assert!(line.contains("(it was 1)"), "{line}");
    assert!(line.contains("gm set d fatigue =N"), "{line}");
    // At a higher load it stays down, and nothing needs explaining.
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    assert!(t.ch("d").incapacitated);
    assert!(!t.log().iter().any(|l| l.contains("came back at once")));
}

#[test]
fn thr_h21_option_incapacitated_characters_do_not_defend() {
    let mut t = trio1("", "", "attack = 2", "[options]\nincapacitated-may-defend = false\n");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    t.cmd("begin");
    // No defence is asked and nothing is rolled: the attack succeeds.
    t.cmd("act basic-attack d");
    t.assert_dice_used();
    assert_eq!(
        contests(&t.last),
        vec![(0, None, fray_thrum::event::Verdict::AttackerSuccess)]
    );
    assert_eq!(t.ch("d").fatigue, 1 + 2);
}

#[test]
fn thr_h30_an_incapacitated_character_keeps_its_slot_but_may_not_delay() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    t.cmds(&["begin", "end", "end"]); // e, k
    // Round 2: D's slot is still first in the order; no Delay is offered, its turn runs.
    assert_eq!(t.order(), vec!["d", "e", "k"]);
    assert_eq!(t.pending(), ("slot", "e".into()));
    assert!(
        t.all_events()
            .iter()
            .any(|e| matches!(e, Event::RoundStarted { round: 2 }))
    );
}

#[test]
fn thr_h30_option_an_incapacitated_character_may_delay() {
    let mut t = trio1("", "", "", "[options]\nincapacitated-may-delay = true\n");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    // The slot now waits for a decision.
    assert_eq!(t.pending(), ("slot", "d".into()));
    t.cmd("delay after e");
    assert_eq!(t.order(), vec!["e", "d", "k"]);
}

#[test]
fn thr_r171_statuses_stay_and_tick_on_an_incapacitated_character() {
    let mut t = trio1("", "", "", "");
    t.cmd("gm status d bleed =2");
    t.cmd("gm status d dazed on");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    // Its turn ran: Bleed ticked from 2 to 1, Dazed (no X) stays.
    assert_eq!(t.ch("d").status(XStatus::Bleed), 1);
    assert!(t.ch("d").has(Cond::Dazed));
    assert!(t.ch("d").incapacitated);
}

#[test]
fn thr_r175_thr_h22_burning_then_the_drop_then_ticks_then_the_wound() {
    // THR-R175, THR-H22.
    let mut t = trio1("", "", "", "");
    t.cmd("gm status d burning =1");
    t.set("d", "fatigue-tolerance", 2);
    t.set("d", "fatigue", 2);
    // Incapacitated: 2 / 2 becomes 1 / 1; then D's turn runs.
    t.cmd("gm incapacitate d");
    let ev = t.last.clone();
    let turn = at(&ev, |e| matches!(e, Event::TurnStarted { who: 0 }));
    let ev = &ev[turn..];
    // Step a: Burning's Fatigue (Load 2), then the drop (Tolerance 0, Load 1): no revive.
    let burn = at(ev, |e| matches!(e, Event::Damage { who: 0, .. }));
    let drop = at(ev, |e| {
        matches!(
            e,
            Event::Set {
                who: 0,
                gauge: fray_thrum::command::Gauge::FatigueTolerance,
                value: 0
            }
        )
    });
    // Step b: Burning ticks off; last, the Wound check.
    let tick = at(ev, |e| {
        matches!(
            e,
            Event::Status {
                who: 0,
                status: XStatus::Burning,
                x: 0
            }
        )
    });
    let wound = at(ev, |e| matches!(e, Event::Wounded { who: 0, wounds: 1 }));
    assert!(burn < drop && drop < tick && tick < wound);
    assert!(!ev.iter().any(|e| matches!(e, Event::Revived { .. })));
    assert_eq!(ft_load(&t, "d"), (0, 1));
}

#[test]
fn thr_h22_option_wound_check_before_revive() {
    let mut t = trio1("", "", "", "[options]\nrevive-before-wound = false\n");
    t.set("d", "fatigue-tolerance", 2);
    t.set("d", "fatigue", 2);
    // 1 / 1 on becoming Incapacitated; at the end of the turn 0 / 0: the Wound comes first,
    // then the revive.
    t.cmd("gm incapacitate d");
    assert_eq!(t.ch("d").wounds, 1);
    assert!(!t.ch("d").incapacitated);
    let ev = &t.last;
    let wound = at(ev, |e| matches!(e, Event::Wounded { .. }));
    let revive = at(ev, |e| matches!(e, Event::Revived { .. }));
    assert!(wound < revive);
}

#[test]
fn thr_h22_default_revive_before_wound() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue-tolerance", 2);
    t.set("d", "fatigue", 2);
    t.cmd("gm incapacitate d");
    // THR-R177: the Load reached 0, so D revives before the Wound check and takes none.
    assert!(!t.ch("d").incapacitated);
    assert_eq!(t.ch("d").wounds, 0);
    assert_eq!(ft_load(&t, "d"), (0, 0));
}

#[test]
fn thr_r176_three_wounds_remove_a_character_from_combat() {
    let mut t = trio1("wounds = 2\nfatigue-tolerance = 1", "", "", "");
    t.set("d", "fatigue", 3);
    // 1 / 3 becomes 0 / 2; the end of its turn: 0 / 1, still Incapacitated: Wound 3.
    t.cmd("gm incapacitate d");
    assert_eq!(t.ch("d").wounds, 3);
    assert!(t.ch("d").removed);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Removed {
            who: 0,
            why: fray_thrum::event::Removal::Wounds
        }
    )));
    // Its slot is skipped from now on.
    t.cmds(&["begin", "end", "end"]);
    assert_eq!(t.turn(), ("e".into(), Step::Slot));
    assert_eq!(t.s().round, 2);
    assert!(t.s().outcome.is_none());
}

#[test]
fn thr_r177_incapacity_ends_when_the_load_reaches_0() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 2);
    // 3 / 2 becomes 2 / 1; the end of its turn: 1 / 0, revived, no Wound.
    t.cmd("gm incapacitate d");
    assert!(t.last.iter().any(|e| matches!(e, Event::Revived { who: 0 })));
    assert!(t.ch("d").able());
    assert_eq!(ft_load(&t, "d"), (1, 0));
    assert_eq!(t.ch("d").wounds, 0);
}

#[test]
fn thr_r178_resuscitate_ends_incapacity() {
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 6);
    t.cmd("gm status d bleed =2");
    t.cmd("gm incapacitate d"); // 2 / 5, then its turn: 1 / 4, Bleed 1
    t.set("d", "stress", 3);
    t.cmds(&["begin", "end"]); // e
    assert_eq!(t.turn().0, "k");
    t.cmd("act resuscitate d");
    let d = t.ch("d");
    assert!(!d.incapacitated);
    assert_eq!((d.fatigue, d.stress), (2, 1));
    assert_eq!(d.status(XStatus::Bleed), 0);
}

#[test]
fn thr_r177_an_ability_that_lowers_the_load_to_0_ends_incapacity() {
    // THR-R177: Rally only lowers the Fatigue Load; reaching 0 is what ends Incapacity.
    let mut t = trio1("", "abilities = [\"rally\"]", "", "");
    t.set("d", "fatigue", 6);
    t.cmd("gm incapacitate d");
    t.cmds(&["begin", "end"]); // e
    t.cmd("act rally d");
    assert!(t.last.iter().any(|e| matches!(e, Event::Revived { who: 0 })));
    assert!(t.ch("d").able());
    assert_eq!(t.ch("d").fatigue, 0);
}

#[test]
fn thr_r179_an_ability_line_that_ends_incapacitated_ends_it_and_nothing_else() {
    // THR-R179: `end-incapacitated = true` ends Incapacity on its recipient; unlike Resuscitate
    // (THR-R178) it leaves the Loads and statuses alone, and unlike THR-R177 the Load is not 0.
    let mut t = trio1("", "abilities = [\"rouse\", \"rouse-fallen\"]", "", "");
    t.set("d", "fatigue", 6);
    t.cmd("gm status d bleed =2");
    t.cmd("gm incapacitate d"); // 2 / 5, then its turn: 1 / 4, Bleed 1
    t.set("d", "stress", 2); // not Frayed: no Panic Roll at its next turn
    t.cmds(&["begin", "end"]); // e
    assert_eq!(t.turn().0, "k");
    assert!(t.ch("d").incapacitated);
    let before = t.ch("d").clone();
    t.cmd("act rouse d");
    assert!(t.last.iter().any(|e| matches!(e, Event::Revived { who: 0 })));
    assert!(
        t.log().iter().any(|l| l == "d is no longer Incapacitated"),
        "{:?}",
        t.log()
    );
    let d = t.ch("d");
    assert!(d.able());
    // Nothing else changed: the Loads, the Tolerance and Bleed are as they were.
    assert_eq!(
        (d.fatigue, d.stress, d.ft, d.status(XStatus::Bleed)),
        (before.fatigue, before.stress, before.ft, before.status(XStatus::Bleed))
    );
    assert_eq!((d.fatigue, d.stress, d.ft, d.status(XStatus::Bleed)), (4, 2, 1, 1));
    assert_eq!(
        d,
        &fray_thrum::state::Char {
            incapacitated: false,
            ..before
        }
    );
    // D takes its next turn again: its slot asks (Delay is possible), it is not skipped.
    t.cmd("end"); // K's Stance step
    assert_eq!(t.turn(), ("d".into(), Step::Slot));
    t.cmds(&["begin", "end", "begin", "end"]); // d, e; K begins by itself
    assert_eq!(t.turn().0, "k");
    // The control: on an ally who is not Incapacitated the same line changes nothing, and an
    // ability aimed only at Incapacitated allies is refused.
    assert_eq!(t.reject("act rouse-fallen d").code, "invalid-target");
    let before = t.ch("d").clone();
    t.cmd("act rouse d");
    assert!(!t.last.iter().any(|e| matches!(e, Event::Revived { .. })));
    assert_eq!(t.ch("d"), &before);
    t.assert_replays();
}

#[test]
fn thr_r181_incapacitated_by_a_finisher_worked_example() {
    // N (an enemy with Sock 'Em) acts first, then X (Fatigue Tolerance 3), then K.
    let toml = enc(
        &[". . . .", ". . . ."],
        &format!(
            "{}{}{}",
            who("x", "pcs", "0,0", ""),
            who("k", "pcs", "3,1", ""),
            who("n", "npcs", "1,0", "attack = 3\nabilities = [\"sock-em\"]")
        ),
    );
    let mut t = T::in_round_one(&toml, &[3, 3, 1, 1, 6, 6]);
    assert_eq!(t.order(), vec!["n", "x", "k"]);
    assert_eq!(t.ch("x").ft, 3);
    t.set("x", "fatigue", 2);
    t.cmd("begin");
    t.cmd("act sock-em x option slow");
    // N 4 + 4 + 3 = 11 against 3 + 4 = 7: 2 Fatigue, Load 4 > 3. The Finisher's Incapacity
    // Roll 1 + 1 = 2 fails.
    t.dice(&[4, 4, 3, 4, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let r = incap(&t, &t.last);
    assert_eq!((r[0].0.as_str(), r[0].2, r[0].3), ("x", 4, false));
    assert!(t.ch("x").incapacitated);
    assert_eq!(ft_load(&t, "x"), (2, 3)); // THR-R172
    // X's next turn runs by itself after N's: 1 / 2.
    t.cmd("end");
    assert_eq!(ft_load(&t, "x"), (1, 2)); // THR-R173
    assert_eq!(t.ch("x").wounds, 0);
    // The following turn: 0 / 1, still Incapacitated at Tolerance 0: Wound 1.
    t.cmds(&["end", "begin", "end"]);
    assert_eq!(ft_load(&t, "x"), (0, 1));
    assert_eq!(t.ch("x").wounds, 1); // THR-R174
    assert!(t.ch("x").incapacitated);
    // The next: Load 0, so X revives and takes no Wound.
    t.cmds(&["end", "begin", "end"]);
    assert_eq!(ft_load(&t, "x"), (0, 0));
    assert!(!t.ch("x").incapacitated); // THR-R177
    assert_eq!(t.ch("x").wounds, 1);
    assert_eq!(t.turn().0, "k");
}

fn corridor(rest: &str) -> T {
    // K, D (to be Incapacitated), then E, in a one-row corridor.
    let toml = enc(
        &[". . . . ."],
        &format!(
            "{rest}{}{}{}",
            who("k", "pcs", "0,0", ""),
            who("d", "pcs", "1,0", ""),
            who("e", "npcs", "3,0", "")
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1, 3, 4]);
    assert_eq!(t.order(), vec!["k", "e", "d"]);
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    t
}

#[test]
fn thr_r182_thr_h23_an_incapacitated_character_still_occupies_its_square() {
    // THR-R182, THR-H23.
    let mut t = corridor("");
    // An ally passes through it.
    t.cmd("begin");
    t.cmd("move 2,0");
    assert_eq!(t.ch("k").pos, Some(fray_space::Pos::new(2, 0)));
    t.cmd("end");
    // An enemy may not enter it.
    t.cmd("gm move k 4,0");
    t.cmd("begin");
    assert_eq!(t.turn().0, "e");
    t.cmd("move 2,0");
    assert_eq!(t.reject("step w").code, "blocked");
    assert_eq!(t.reject("move 0,0").code, "not-enough-movement");
}

#[test]
fn thr_r182_thr_r55_option_a_move_onto_an_incapacitated_character_may_end_there() {
    // With incapacitated-occupy = false, Incapacitated D fills nothing (THR-R182): the enemy is
    // offered D's square and, having moved there, may end its turn on it (THR-R55 forbids only
    // a filled square), rather than being left with no legal command.
    let mut t = corridor("[options]\nincapacitated-occupy = false\n");
    t.cmds(&["begin", "end", "begin"]);
    assert_eq!(t.turn().0, "e");
    t.cmd("move 1,0");
    let legal = t.legal();
    assert!(legal.iter().any(|c| c == "end"), "{legal:?}");
    assert!(legal.iter().any(|c| c.starts_with("act ")), "{legal:?}");
    t.cmd("end");
    assert_eq!(t.ch("e").pos, Some(fray_space::Pos::new(1, 0)));
    assert_eq!(t.ch("d").pos, Some(fray_space::Pos::new(1, 0)));
}

#[test]
fn thr_r55_thr_r37_option_a_revived_character_shares_the_square_until_one_can_move_off() {
    // incapacitated-occupy = false: K stops on Incapacitated D's square and Resuscitates it
    // there. Its movement is over after the Action (THR-R37), so it may end its turn sharing
    // the square; D, able again, must move off on its turn while it can (THR-R55).
    let mut t = corridor("[options]\nincapacitated-occupy = false\n");
    t.cmds(&["begin", "move 1,0", "act resuscitate d"]);
    assert!(!t.ch("d").incapacitated);
    t.cmd("end");
    t.cmds(&["begin", "end"]); // E
    assert_eq!(t.turn().0, "d"); // its turn begins by itself
    assert_eq!(t.reject("end").code, "cannot-stop-here");
    t.cmd("move 2,0");
    t.cmd("end");
    assert_eq!(t.ch("k").pos, Some(fray_space::Pos::new(1, 0)));
}

fn cover(rest: &str) -> T {
    // E jabs K from 2 squares west; Incapacitated D stands between them.
    let enc = with_abilities(
        &[". . . . ."],
        &format!(
            "{rest}{}{}{}",
            who("e", "npcs", "0,0", "attack = 2\nabilities = [\"long-jab\"]"),
            who("d", "pcs", "1,0", ""),
            who("k", "pcs", "2,0", "")
        ),
        ABILITIES,
    );
    let mut t = t_with(&enc, &[6, 6, 1, 1, 3, 3]);
    t.skip_round_zero();
    assert_eq!(t.turn().0, "e");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    t.cmd("begin");
    t.cmd("act long-jab k");
    t
}

#[test]
fn thr_r182_an_incapacitated_character_is_still_a_cover_source() {
    let mut t = cover("");
    t.dice(&[3, 3, 6, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(attack(&t.last).net, -1);
}

#[test]
fn thr_h23_option_incapacitated_characters_do_not_occupy() {
    let mut t = cover("[options]\nincapacitated-occupy = false\n");
    t.dice(&[3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(attack(&t.last).net, 0);
}

// ---------------------------------------------------------------------------------------------
// Finisher, stop conditions, clamping
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_h15_finisher_checks_after_the_attack_hit_or_miss() {
    let mut t = trio1("attack = 3\nabilities = [\"sock-em\"]", "", "", "");
    t.cmd("gm move e 1,0");
    // A hit that makes E Exhausted: 3 + 2 = 5 > 3, then the Finisher's roll.
    t.set("e", "fatigue", 3);
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    t.dice(&[4, 4, 3, 4, 6, 6]);
    t.cmd("defend resilience");
    let r = incap(&t, &t.last);
    assert_eq!((r[0].0.as_str(), r[0].2, r[0].3), ("e", 5, true));
    next_round(&mut t);
    // A miss against an Exhausted target still calls for the roll.
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    t.dice(&[1, 1, 3, 4, 6, 6]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(incap(&t, &t.last).len(), 1);
    assert_eq!(t.ch("e").fatigue, 5);
}

#[test]
fn thr_h15_option_no_finisher_on_a_miss() {
    let mut t = trio1(
        "attack = 3\nabilities = [\"sock-em\"]",
        "",
        "",
        "[options]\nfinisher-on-miss = false\n",
    );
    t.cmd("gm move e 1,0");
    t.set("e", "fatigue", 4);
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    t.dice(&[1, 1, 3, 4]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(incap(&t, &t.last).is_empty());
}

fn both_fall(rest: &str) -> T {
    let toml = enc(
        &[". . . ."],
        &format!(
            "{rest}{}{}",
            who("d", "pcs", "0,0", "attack = 3\nabilities = [\"sock-em\"]"),
            who("e", "npcs", "1,0", "")
        ),
    );
    let mut t = T::in_round_one(&toml, &[6, 6, 1, 1]);
    t.set("d", "fatigue", 4);
    t.set("e", "fatigue", 3);
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    // D (1 Bane) 4 + 4 + 3 = 11 against 3 + 4 = 7: E takes 2 (Load 5) and fails its
    // Finisher roll (2); then D, Exhausted, fails its own after the Action (2).
    t.dice(&[4, 4, 6, 3, 4, 1, 1, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    // Both fell during the same ability; End of Combat then revived the PC.
    for who in [0, 1] {
        assert!(
            t.last
                .iter()
                .any(|e| matches!(e, Event::Incapacitated { who: w } if *w == who))
        );
    }
    t
}

#[test]
fn thr_h18_when_both_sides_fall_together_the_pcs_lose() {
    let t = both_fall("");
    let o = t.s().outcome.clone().expect("combat over");
    assert_eq!(o.winner, Some(1));
    assert_eq!(o.reason, "both-sides-down");
}

#[test]
fn thr_h18_option_both_falling_is_a_draw() {
    let t = both_fall("[options]\nboth-fall = \"draw\"\n");
    let o = t.s().outcome.clone().expect("combat over");
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, "both-sides-down");
}

#[test]
fn thr_h29_recover_at_load_0_is_allowed_and_does_nothing() {
    let mut t = trio1("", "", "", "");
    t.cmd("begin");
    t.cmd("act recover option fatigue");
    assert_eq!(t.ch("d").fatigue, 0);
}

#[test]
fn thr_h29_option_loads_do_not_clamp() {
    let mut t = trio1("", "", "", "[options]\nclamp-at-zero = false\n");
    t.cmd("begin");
    t.cmd("act recover option fatigue");
    assert_eq!(t.ch("d").fatigue, -1);
}

// ---------------------------------------------------------------------------------------------
// End of Combat
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r183_thr_r184_end_of_combat_revives_pcs_and_empties_every_load() {
    // THR-R183, THR-R184.
    let mut t = trio1("attack = 3\nabilities = [\"sock-em\"]", "", "", "");
    t.cmd("gm move e 1,0");
    t.set("k", "fatigue", 4);
    t.set("k", "stress", 1);
    t.cmd("gm incapacitate k"); // K: Tolerance 2, Load 3
    t.set("e", "fatigue", 3);
    t.set("e", "stress", 1);
    t.set("d", "stress", 2);
    // D knocks out the last NPC with a Finisher: the combat ends.
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    t.dice(&[4, 4, 3, 4, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    let o = t.s().outcome.clone().expect("combat over");
    assert_eq!((o.winner, o.reason.as_str()), (Some(0), "all-npcs-down"));
    // THR-R183: the Incapacitated PC is revived (Tolerance 2 > 0: fit to go on).
    assert!(!t.ch("k").incapacitated);
    assert!(!t.ch("k").barred);
    // THR-R184: every Load is 0, NPCs' included; an NPC is not revived.
    for id in ["d", "k", "e"] {
        assert_eq!((t.ch(id).fatigue, t.ch(id).stress), (0, 0), "{id}");
    }
    assert!(t.ch("e").incapacitated);
    let ended = at(&t.last, |e| matches!(e, Event::CombatEnded { .. }));
    let cleared = at(&t.last, |e| matches!(e, Event::Cleared { .. }));
    assert!(ended < cleared);
}

#[test]
fn the_end_summary_shows_each_combatant_as_the_fight_left_it() {
    // The fight above: k (a PC) ends it Incapacitated with Fatigue 3 and Stress 1; End of
    // Combat then clears both and revives k (THR-R183, THR-R184), but the summary shows how
    // the fight left them, and says what End of Combat did.
    let mut t = trio1("attack = 3\nabilities = [\"sock-em\"]", "", "", "");
    t.cmd("gm move e 1,0");
    t.set("k", "fatigue", 4);
    t.set("k", "stress", 1);
    t.cmd("gm incapacitate k");
    t.set("e", "fatigue", 3);
    t.cmd("begin");
    t.cmd("act sock-em e option slow");
    t.dice(&[4, 4, 3, 4, 1, 1]);
    t.cmd("defend resilience");
    assert!(!t.ch("k").incapacitated);
    let summary = fray_thrum::text::summary(t.s());
    let k = summary
        .lines()
        .find(|l| l.trim_start().starts_with(&t.s().info(t.id("k")).name))
        .unwrap();
    assert!(k.contains("Fatigue 3/2  Stress 1/"), "{summary}");
    assert!(k.contains("[Incapacitated]"), "{summary}");
    assert!(
        summary.contains("(as the fight left them, before End of Combat cleared Loads and statuses)"),
        "{summary}"
    );
}

#[test]
fn the_end_summary_tells_apart_two_combatants_of_one_name() {
    let toml = enc(
        &[". . . . ."],
        &format!(
            "[template.guard]\nname = \"Guard\"\nside = \"npcs\"\n{}{}{}",
            who("korrin", "pcs", "0,0", ""),
            who("guard-1", "npcs", "3,0", "template = \"guard\""),
            who("guard-2", "npcs", "4,0", "template = \"guard\""),
        ),
    );
    let t = T::new(&toml, &[6, 6, 5, 5, 4, 4]);
    let summary = fray_thrum::text::summary(t.s());
    assert!(summary.contains("  Guard (guard-1) "), "{summary}");
    assert!(summary.contains("  Guard (guard-2) "), "{summary}");
}

#[test]
fn thr_r180_thr_r185_lost_tolerance_and_wounds_are_kept_after_combat() {
    // THR-R180, THR-R185.
    let mut t = trio1("", "", "", "");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d"); // 2 / 2, then its turn: 1 / 1
    assert_eq!(ft_load(&t, "d"), (1, 1));
    t.set("d", "stress-tolerance", 1);
    t.set("d", "wounds", 1);
    t.cmd("gm end pcs");
    // Nothing restores them at End of Combat.
    let d = t.ch("d");
    assert_eq!((d.ft, d.st, d.wounds), (1, 1, 1));
    assert_eq!((d.fatigue, d.stress), (0, 0));
    assert!(!d.incapacitated && !d.barred);
    // The saved values are where the next combat starts.
    let next = trio("fatigue-tolerance = 1\nstress-tolerance = 1\nwounds = 1", "", "", "");
    let d = next.ch("d");
    assert_eq!((d.ft, d.st, d.wounds, d.fatigue, d.stress), (1, 1, 1, 0, 0));
    assert_eq!(next.s().info(next.id("d")).stats.max_ft, 3);
}

#[test]
fn thr_r180_an_ability_raises_a_tolerance_and_exhausted_and_frayed_follow_the_new_value() {
    // THR-R180 [W]: `fatigue-tolerance = X` / `stress-tolerance = X` raise a Tolerance.
    // Exhausted (THR-R164) and Frayed (THR-R155) compare the Loads with the raised values, and
    // THR-R166's roll is judged after the Action's lines.
    let mut t = trio1("abilities = [\"second-wind\"]", "", "", "");
    t.cmd("begin");
    t.set("d", "fatigue", 4);
    t.set("d", "stress", 3);
    assert!(t.ch("d").exhausted() && t.ch("d").frayed());
    // No dice are scripted: an Incapacity Roll after the Action would fail the command.
    t.cmd("act second-wind");
    t.assert_dice_used();
    let d = t.ch("d");
    assert_eq!((d.ft, d.st), (4, 3));
    assert!(!d.exhausted() && !d.frayed());
    assert!(incap(&t, &t.last).is_empty());
    let log = t.log();
    assert!(log.iter().any(|l| l == "d's Fatigue Tolerance is now 4"), "{log:?}");
    assert!(log.iter().any(|l| l == "d's Stress Tolerance is now 3"), "{log:?}");
    // The control: a Load still above the raised Tolerance leaves D Exhausted, so it rolls.
    next_round(&mut t);
    t.cmd("begin");
    t.set("d", "fatigue", 6);
    t.dice(&[6, 6]);
    t.cmd("act second-wind");
    t.assert_dice_used();
    assert_eq!(t.ch("d").ft, 5);
    let r = incap(&t, &t.last);
    assert_eq!((r.len(), r[0].2, r[0].3), (1, 6, true));
}

#[test]
fn thr_r180_thr_r174_a_raised_tolerance_spares_the_wound_but_does_not_end_incapacity() {
    // THR-R180 [W] with THR-R174 and THR-R185: K raises Incapacitated D's Fatigue Tolerance
    // from 0 to 2. Raising a Tolerance is none of the ways out of Incapacity (THR-R177 to
    // THR-R179); the Wound check reads the raised Tolerance; End of Combat keeps it.
    let mut t = trio1("fatigue-tolerance = 1", "abilities = [\"steel\"]", "", "");
    t.set("d", "fatigue", 5);
    t.cmd("gm incapacitate d"); // 0 / 4, then its turn: 0 / 3 and Wound 1
    assert_eq!((ft_load(&t, "d"), t.ch("d").wounds), ((0, 3), 1));
    t.cmds(&["begin", "end"]); // e
    t.cmd("act steel d");
    assert_eq!(ft_load(&t, "d"), (2, 3));
    assert!(t.ch("d").incapacitated);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Revived { .. })));
    // D's next turn: 1 / 2, Tolerance above 0, so no second Wound (at 0 it would take one).
    t.cmd("end");
    assert_eq!(t.turn().0, "e");
    assert_eq!((ft_load(&t, "d"), t.ch("d").wounds), ((1, 2), 1));
    assert!(t.ch("d").incapacitated);
    // End of Combat revives D, keeps Tolerance 1, and D is not barred (THR-R186).
    t.cmd("gm end pcs");
    let d = t.ch("d");
    assert_eq!((d.ft, d.fatigue, d.incapacitated, d.barred), (1, 0, false, false));
}

#[test]
fn thr_r180_thr_r162_a_negative_amount_lowers_a_tolerance_never_below_the_floor() {
    let mut t = trio1("", "abilities = [\"sap\"]", "", "");
    t.set("d", "fatigue", 1);
    t.cmds(&["begin", "end", "begin", "end"]); // d, e
    t.cmd("act sap d");
    let d = t.ch("d");
    assert_eq!((d.ft, d.st), (0, 1)); // 3 - 5 stops at the floor 0; 2 - 1
    assert!(d.exhausted());
    t.cmd("gm end pcs");
    // THR-R180: End of Combat restores neither.
    assert_eq!((t.ch("d").ft, t.ch("d").st), (0, 1));
}

#[test]
fn thr_r186_thr_h24_a_pc_at_tolerance_0_is_revived_but_barred() {
    // THR-R186, THR-H24.
    let mut t = trio1("fatigue-tolerance = 1", "", "", "");
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d"); // 0 / 2, then its turn: 0 / 1, Wound 1
    assert!(t.ch("d").incapacitated);
    t.cmd("gm end pcs");
    let d = t.ch("d");
    assert!(!d.incapacitated);
    assert_eq!((d.fatigue, d.stress, d.ft), (0, 0, 0));
    assert!(d.barred);
    assert!(!t.ch("k").barred);
}

/// The diagnostics of an encounter that does not load, as `FILE:LINE:COLUMN: error: ...`.
fn load_errors(toml: &str) -> Vec<String> {
    use fray_engine::text::TextRuleset;
    let src = fray_engine::diag::SourceFile {
        name: "test.toml".into(),
        text: toml.into(),
    };
    let mut read = |p: &str| Err(format!("no file {p}"));
    match fray_thrum::Thrum::load(&src, &mut read) {
        Ok(_) => panic!("the encounter loaded"),
        Err(d) => d.iter().map(|x| x.to_string()).collect(),
    }
}

#[test]
fn thr_r186_thr_h24_a_pc_at_tolerance_0_cannot_join_a_combat() {
    // THR-R186, THR-H24: carried into a new encounter, the barred PC is refused at setup,
    // with the file and line of its table.
    let toml = enc(
        &[". . . ."],
        &format!(
            "{}{}",
            who("e", "npcs", "3,0", ""),
            who("d", "pcs", "0,0", "fatigue-tolerance = 0")
        ),
    );
    let errs = load_errors(&toml);
    assert_eq!(errs.len(), 1, "{errs:?}");
    let line = toml[..toml.rfind("[[combatant]]").unwrap()].matches('\n').count() + 1;
    assert!(errs[0].starts_with(&format!("test.toml:{line}:")), "{}", errs[0]);
    assert!(errs[0].contains("PC 'd' has Fatigue Tolerance 0"), "{}", errs[0]);
    assert!(errs[0].contains("barred"), "{}", errs[0]);
    // An NPC at 0, or a PC at 1, is fine.
    T::new(
        &enc(
            &[". . . ."],
            &format!(
                "{}{}",
                who("e", "npcs", "3,0", "fatigue-tolerance = 0"),
                who("d", "pcs", "0,0", "fatigue-tolerance = 1")
            ),
        ),
        &[6, 6, 1, 1],
    );
}

#[test]
fn thr_h24_option_stays_incapacitated_lets_a_pc_at_tolerance_0_be_set_up() {
    // With the alternative, the barring rule does not exist: the encounter loads.
    let t = T::new(
        &enc(
            &[". . . ."],
            &format!(
                "[options]\nzero-tolerance-pc = \"stays-incapacitated\"\n{}{}",
                who("e", "npcs", "3,0", ""),
                who("d", "pcs", "0,0", "fatigue-tolerance = 0")
            ),
        ),
        &[6, 6, 1, 1],
    );
    assert_eq!(t.ch("d").ft, 0);
}

#[test]
fn thr_h24_option_a_pc_at_tolerance_0_stays_incapacitated() {
    let mut t = trio1(
        "fatigue-tolerance = 1",
        "",
        "",
        "[options]\nzero-tolerance-pc = \"stays-incapacitated\"\n",
    );
    t.set("d", "fatigue", 3);
    t.cmd("gm incapacitate d");
    t.cmd("gm end pcs");
    let d = t.ch("d");
    assert!(d.incapacitated);
    assert!(!d.barred);
    assert_eq!(d.fatigue, 0);
}

fn decorated(rest: &str) -> T {
    let mut t = trio("", "", "", rest);
    t.cmds(&["stance brace", "stance dodge", "end"]);
    t.cmd("gm status d bleed =2");
    t.cmd("gm status d dazed on");
    t.set("d", "mark", 2);
    t.cmd("gm status e slowed =1");
    t.cmd("gm end none");
    t
}

#[test]
fn thr_r187_stances_statuses_conditions_and_mark_end_with_the_combat() {
    let t = decorated("");
    let d = t.ch("d");
    assert_eq!(d.stance, None);
    assert_eq!(d.status(XStatus::Bleed), 0);
    assert!(!d.has(Cond::Dazed));
    assert_eq!(d.mark, 0);
    assert_eq!(t.ch("e").stance, None);
    assert_eq!(t.ch("e").status(XStatus::Slowed), 0);
}

#[test]
fn thr_r187_option_keep_them_after_the_combat() {
    let t = decorated("[options]\nclear-at-end = false\n");
    let d = t.ch("d");
    assert_eq!(d.stance, t.s().setup.book.find("brace"));
    assert_eq!(d.status(XStatus::Bleed), 2);
    assert!(d.has(Cond::Dazed));
    assert_eq!(d.mark, 2);
}
