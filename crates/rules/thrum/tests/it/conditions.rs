//! Conditions without (or beside) an X: Mark, Dazed, Immobilized, Disoriented, Stunned, Hidden,
//! Hastened, Scouted and Minions (THR-R213 to THR-R222; THR-H2, THR-H3, THR-H4, THR-H18 and
//! THR-H29 for Minions; options `mark-adds`, `negative-statuses`).

use crate::common;
use common::*;
use fray_space::{Dir, Pos};
use fray_thrum::ability::{Cond, Defence, XStatus};
use fray_thrum::event::{Event, Removal, Rolled, Verdict};

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
id = "tag"
type = "action"
range = 3
target = "enemy"
effect = [{ mark = 2 }]

[[ability]]
id = "scout"
type = "action"
range = 3
target = "enemy"
effect = [{ scouted = 1 }]

[[ability]]
id = "cheer"
type = "action"
range = 3
target = "ally"
effect = [{ mark = 1 }]

[[ability]]
id = "blink"
type = "action"
range = 3
target = "square"
effect = [{ teleport = "movement", to = "self" }]
"#;

/// What the test fighters carry (PCs and NPCs alike).
const KIT: &str = "attack = 3\nabilities = [\"jab\", \"taunt\", \"tag\", \"scout\", \"cheer\", \"blink\", \"biffer-strike\", \"shove\"]";

const OPEN: [&str; 3] = [". . . . . . .", ". . . . . . .", ". . . . . . ."];

/// A game on `rows` with `options`; `people` are (id, side, square, extra stats) and act in the
/// listed order (Initiative 12, 10, 8, ...). Round Zero is skipped; the first slot is up.
fn game(rows: &[&str], options: &str, people: &[(&str, &str, &str, &str)]) -> T {
    let mut rest = format!("[options]\n{options}\n");
    let mut init = Vec::new();
    for (i, (id, side, at, extra)) in people.iter().enumerate() {
        let stats = if extra.contains("abilities") {
            extra.to_string()
        } else {
            format!("{KIT}\n{extra}")
        };
        rest.push_str(&who(id, side, at, &stats));
        let f = 6 - i as u16;
        init.extend([f, f]);
    }
    let e = with_abilities(rows, &rest, ABILITIES);
    let mut t = t_with(&e, &init);
    t.skip_round_zero();
    t
}

fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// `a` (PC) at 0,0 acts first against `b` (NPC) at `b_at`; `a`'s turn is begun.
fn duo(options: &str, b_at: &str, b: &str) -> T {
    let mut t = game(&OPEN, options, &[("a", "pcs", "0,0", ""), ("b", "npcs", b_at, b)]);
    begin(&mut t);
    t
}

fn p(x: i16, y: i16) -> Option<Pos> {
    Some(Pos::new(x, y))
}

/// The single contest of the last command: attack roll, defence roll, defence, verdict.
fn contest(t: &T) -> (Option<Rolled>, Option<Rolled>, Defence, Verdict) {
    let v: Vec<_> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Contest {
                attack,
                defence,
                with,
                verdict,
                ..
            } => Some((attack.as_deref().copied(), defence.as_deref().copied(), *with, *verdict)),
            _ => None,
        })
        .collect();
    assert_eq!(v.len(), 1, "expected one contest: {v:?}");
    v[0]
}

// ---------------------------------------------------------------------------------------------
// THR-R213: Mark
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r213_plus_n_mark_adds_n() {
    let mut t = duo("", "2,0", "");
    t.set("b", "mark", 1);
    t.cmd("act tag b");
    assert_eq!(t.ch("b").mark, 3);
}

#[test]
fn thr_r213_option_mark_adds_false_sets_mark_to_n() {
    let mut t = duo("mark-adds = false", "2,0", "");
    t.set("b", "mark", 1);
    t.cmd("act tag b");
    assert_eq!(t.ch("b").mark, 2);
}

#[test]
fn thr_r213_mark_has_no_effect_and_never_ticks() {
    let mut t = duo("", "1,0", "");
    t.set("b", "mark", 3);
    // No Boon or Bane on an attack against a Marked character, nor on its defence.
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let (att, def, _, _) = contest(&t);
    assert_eq!((att.unwrap().net, def.unwrap().net), (0, 0));
    t.cmd("end");
    begin(&mut t);
    assert_eq!(t.turn().0, "b");
    t.cmd("end");
    assert_eq!(t.ch("b").mark, 3);
}

#[test]
fn thr_r213_mark_is_not_a_status_recover_and_resuscitate_leave_it() {
    // Recover cannot name it.
    let mut t = duo("", "3,0", "");
    t.set("a", "mark", 2);
    let r = t.reject("act recover option status status mark");
    assert!(r.reason.contains("not a status"), "{}", r.reason);
    assert_eq!(t.ch("a").mark, 2);
    // Resuscitate clears c's negative statuses but not its Mark.
    let mut t = game(
        &OPEN,
        "",
        &[
            ("a", "pcs", "0,0", ""),
            ("c", "pcs", "1,0", ""),
            ("b", "npcs", "6,2", ""),
        ],
    );
    begin(&mut t);
    t.set("c", "mark", 2);
    t.cmd("gm status c bleed =1");
    t.set("c", "fatigue", 5);
    t.cmd("gm incapacitate c");
    assert!(t.ch("c").incapacitated);
    t.cmd("act resuscitate c");
    assert!(!t.ch("c").incapacitated);
    assert_eq!(t.ch("c").status(XStatus::Bleed), 0);
    assert_eq!(t.ch("c").mark, 2);
}

// ---------------------------------------------------------------------------------------------
// THR-R214, THR-H2: Dazed
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r214_dazed_puts_a_bane_on_defence_rolls_against_attacks() {
    let mut t = duo("", "1,0", "");
    t.cmd("gm status b dazed on");
    // b's Resilience roll: the worst two of 6, 6, 1 = 7, against 3 + 3 + 3 = 9.
    t.dice(&[3, 3, 6, 6, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let (_, def, _, v) = contest(&t);
    let def = def.unwrap();
    assert_eq!((def.net, def.total), (-1, 7));
    assert_eq!(v, Verdict::AttackerSuccess);
}

#[test]
fn thr_r214_dazed_ends_when_an_enemy_ability_deals_fatigue() {
    let mut t = duo("", "1,0", "");
    t.cmd("gm status b dazed on");
    t.dice(&[3, 3, 6, 6, 1]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    assert_eq!(t.ch("b").fatigue, 2);
    assert!(!t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_r214_dazed_ends_when_an_enemy_ability_deals_stress() {
    let mut t = duo("", "2,0", "");
    t.cmd("gm status b dazed on");
    t.dice(&[3, 3, 6, 6, 1]);
    t.cmd("act taunt b");
    t.cmd("defend resolve");
    assert_eq!(t.ch("b").stress, 1);
    assert!(!t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_r214_dazed_survives_a_miss_fatigue_not_from_an_enemy_and_does_not_tick() {
    let mut t = duo("", "1,0", "");
    t.cmd("gm status b dazed on");
    t.cmd("gm status b burning =1");
    // A miss deals nothing: still Dazed.
    t.dice(&[1, 1, 6, 6, 6]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(!contest(&t).3.hit());
    t.cmd("end");
    begin(&mut t);
    t.cmd("end");
    // b's Burning (no enemy's ability) hurt it; its turn ended: Dazed is still there.
    assert_eq!(t.ch("b").fatigue, 1);
    assert!(t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_r214_thr_h2_a_biffer_strike_that_hits_leaves_its_own_dazed_on() {
    let mut t = duo("", "1,0", "");
    // 4 + 3 + 3 = 10 against 3 + 3 = 6: a Success (1 Fatigue).
    t.dice(&[4, 3, 3, 3]);
    t.cmd("act biffer-strike b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 1);
    assert!(t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_h2_option_dazed_survives_own_use_false_the_strikes_own_fatigue_ends_it() {
    let mut t = duo("dazed-survives-own-use = false", "1,0", "");
    t.dice(&[4, 3, 3, 3]);
    t.cmd("act biffer-strike b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 1);
    assert!(!t.ch("b").has(Cond::Dazed));
}

/// e1 covers a (1,0) with its Briar Patch, then e2 (0,0) Strikes a and misses (the Effect
/// Dazes a anyway); a's turn is up.
fn dazed_in_briars() -> T {
    let mut t = game(
        &OPEN,
        "",
        &[
            ("e1", "npcs", "4,0", "abilities = [\"briar-patch\"]"),
            ("e2", "npcs", "0,0", ""),
            ("a", "pcs", "1,0", ""),
        ],
    );
    begin(&mut t);
    t.cmd("act briar-patch area 1,0");
    t.cmd("end");
    begin(&mut t);
    t.dice(&[1, 1, 6, 6]);
    t.cmd("act biffer-strike a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(t.ch("a").has(Cond::Dazed));
    t.cmd("end");
    begin(&mut t);
    assert_eq!(t.turn().0, "a");
    t
}

#[test]
fn thr_r214_fatigue_from_an_enemys_terrain_effect_ends_dazed() {
    // THR-R214, THR-H2: the Briar Patch's end-of-turn Fatigue is a later enemy ability than the
    // Strike that Dazed a, whatever happened in between.
    let mut t = dazed_in_briars();
    t.cmd("end");
    assert_eq!(t.ch("a").fatigue, 1);
    assert!(!t.ch("a").has(Cond::Dazed));
    // The same when a used an ability of its own first.
    let mut t = dazed_in_briars();
    t.cmd("act tag e2");
    t.cmd("end");
    assert_eq!(t.ch("a").fatigue, 1);
    assert!(!t.ch("a").has(Cond::Dazed));
}

/// a and c (PCs) both Strike b and miss (the Effect lands anyway); b's turn is next.
fn struck_twice(options: &str) -> T {
    let mut t = game(
        &OPEN,
        options,
        &[
            ("a", "pcs", "0,0", ""),
            ("c", "pcs", "1,1", ""),
            ("b", "npcs", "1,0", ""),
        ],
    );
    // The second time b is Dazed: a Bane on its defence (three dice).
    for (who, dice) in [("a", &[1, 1, 6, 6][..]), ("c", &[1, 1, 6, 6, 6][..])] {
        begin(&mut t);
        assert_eq!(t.turn().0, who);
        t.dice(dice);
        t.cmd("act biffer-strike b");
        t.cmd("defend resilience");
        t.cmd("end");
    }
    t.assert_dice_used();
    t
}

#[test]
fn thr_h2_dazed_is_a_flag_a_second_dazed_adds_nothing_and_it_does_not_tick() {
    let mut t = struck_twice("");
    assert!(t.ch("b").has(Cond::Dazed));
    assert_eq!(t.ch("b").dazed_x, 0);
    begin(&mut t);
    t.cmd("end");
    assert!(t.ch("b").has(Cond::Dazed));
    assert_eq!(t.ch("b").dazed_x, 0);
}

/// a and c (PCs) both Strike b and hit (1 Fatigue each); b's turn is next.
fn hit_twice(options: &str) -> T {
    let mut t = game(
        &OPEN,
        options,
        &[
            ("a", "pcs", "0,0", ""),
            ("c", "pcs", "1,1", ""),
            ("b", "npcs", "1,0", ""),
        ],
    );
    // a: 4 + 3 + 3 = 10 against 3 + 3 = 6. c: the same against the worst two of 3, 3, 3 (b is
    // Dazed by then: a Bane on its defence).
    for (who, dice) in [("a", &[4, 3, 3, 3][..]), ("c", &[4, 3, 3, 3, 3][..])] {
        begin(&mut t);
        assert_eq!(t.turn().0, who);
        t.dice(dice);
        t.cmd("act biffer-strike b");
        t.cmd("defend resilience");
        t.cmd("end");
    }
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 2);
    t
}

#[test]
fn thr_r214_thr_h2_a_second_enemys_dazing_hit_that_deals_fatigue_ends_dazed() {
    // THR-R214, THR-H2: "+1 Dazed" on a Dazed character changes nothing, so the first Strike
    // stays the applier and the second Strike's Fatigue (a later enemy ability use) ends it.
    let t = hit_twice("");
    assert!(!t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_r214_thr_h2_option_dazed_reapply_renews_applier_keeps_it_on() {
    // THR-R214, THR-H2, option `dazed-reapply = "renews-applier"`: the second Strike becomes the
    // applier, so its own Fatigue leaves Dazed on.
    let t = hit_twice("dazed-reapply = \"renews-applier\"");
    assert!(t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_h2_option_dazed_as_a_status_stacks_and_ticks() {
    let mut t = struck_twice("dazed = \"status\"");
    assert_eq!(t.ch("b").dazed_x, 2);
    begin(&mut t);
    t.cmd("end");
    assert_eq!(t.ch("b").dazed_x, 1);
    assert!(t.ch("b").has(Cond::Dazed));
    // Round 2: a, c, then b's turn ends again: X 0 ends it.
    for _ in 0..3 {
        begin(&mut t);
        t.cmd("end");
    }
    assert!(!t.ch("b").has(Cond::Dazed));
}

#[test]
fn thr_h2_recover_can_end_dazed_as_a_status() {
    let mut t = duo("", "3,0", "");
    t.cmd("gm status a dazed on");
    t.cmd("act recover option status status dazed");
    assert!(!t.ch("a").has(Cond::Dazed));
}

#[test]
fn thr_h2_option_negative_statuses_x_statuses_recover_cannot_end_dazed() {
    let mut t = duo("negative-statuses = \"x-statuses\"", "3,0", "");
    t.cmd("gm status a dazed on");
    assert_eq!(t.reject("act recover option status status dazed").code, "bad-pick");
    assert!(t.ch("a").has(Cond::Dazed));
}

// ---------------------------------------------------------------------------------------------
// THR-R215: Immobilized
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r215_an_immobilized_character_cannot_move_by_itself() {
    let mut t = duo("", "6,2", "");
    t.cmd("gm status a immobilized on");
    assert_eq!(t.reject("move 1,1").code, "immobilized");
    assert_eq!(t.reject("step e").code, "immobilized");
    // Not even with the movement of a Dash.
    t.cmd("act dash");
    assert_eq!(t.reject("step e").code, "immobilized");
    assert_eq!(t.ch("a").pos, p(0, 0));
}

#[test]
fn thr_r215_an_immobilized_character_can_still_teleport() {
    let mut t = duo("", "6,2", "");
    t.cmd("gm status a immobilized on");
    t.cmd("act blink at 2,0");
    assert_eq!(t.ch("a").pos, p(2, 0));
}

#[test]
fn thr_r215_an_immobilized_character_can_still_be_pushed() {
    // The Biffer-like b acts first and Shoves a (Tier 0: 1 square).
    let mut t = game(&OPEN, "", &[("b", "npcs", "0,0", ""), ("a", "pcs", "1,0", "")]);
    begin(&mut t);
    t.cmd("gm status a immobilized on");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.cmd("pass"); // b's follow-up move
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(2, 0));
}

#[test]
fn thr_r215_an_immobilized_shover_gets_no_follow_up_move() {
    // Shove's follow-up is b's own movement: Immobilized, it is not offered.
    let mut t = game(&OPEN, "", &[("b", "npcs", "0,0", ""), ("a", "pcs", "1,0", "")]);
    begin(&mut t);
    t.cmd("gm status b immobilized on");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(2, 0));
    assert_ne!(t.pending().0, "move");
    assert_eq!(t.ch("b").pos, p(0, 0));
}

/// a (PC at 0,0) aims a Basic Attack at b1 (3,0); b2 (3,2) has Interpose.
fn interpose_game() -> T {
    let b2 = "attack = 3\nabilities = [\"interpose\"]";
    let mut t = game(
        &[". . . . .", ". . . . .", ". . . . ."],
        "",
        &[
            ("a", "pcs", "0,0", ""),
            ("b1", "npcs", "3,0", ""),
            ("b2", "npcs", "3,2", b2),
        ],
    );
    begin(&mut t);
    t
}

#[test]
fn thr_r215_an_immobilized_biffer_is_not_offered_interpose() {
    let mut t = interpose_game();
    t.cmd("gm status b2 immobilized on");
    t.cmd("act basic-attack b1");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert!(!t.last.iter().any(|e| matches!(e, Event::TriggerUsed { .. })));
    assert_eq!(t.ch("b2").pos, p(3, 2));
    assert_eq!(t.turn().0, "a");
    // The log says it was not offered, and why.
    assert!(
        t.log()
            .iter()
            .any(|l| l == "b2's Interpose is not offered (about b1): b2 is Immobilized and it only moves"),
        "{:?}",
        t.log()
    );
}

#[test]
fn thr_r215_a_trigger_typed_after_it_was_not_offered_says_why() {
    let mut t = interpose_game();
    t.cmd("gm status b2 immobilized on");
    t.cmd("act basic-attack b1");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("defend resilience");
    assert_eq!(t.turn().0, "a");
    let r = t.reject("trigger interpose");
    assert_eq!(r.code, "not-now");
    assert_eq!(
        r.reason,
        "b2's Interpose was not offered (about b1): b2 is Immobilized and it only moves"
    );
    // After the next command it is old news: the usual refusal.
    t.cmd("gm status b2 immobilized off");
    let r = t.reject("trigger interpose");
    assert!(!r.reason.contains("not offered"), "{}", r.reason);
}

#[test]
fn thr_r101_a_defend_typed_while_a_trigger_is_asked_names_the_defence_taken_for_it() {
    // b1 is Slowed, so its defence is taken for it; then b2 is asked about Interpose. A
    // `defend` typed now is about the defence already taken, not "another decision is pending".
    let mut t = interpose_game();
    t.cmd("gm status b1 slowed =1");
    t.cmd("act basic-attack b1");
    assert_eq!(t.pending(), ("trigger", "b2".into()));
    let r = t.reject("defend evasion");
    assert_eq!(r.code, "not-now");
    assert_eq!(
        r.reason,
        "b1's defence was already taken for it: Resilience, the only choice (b1 is Slowed, so no Evasion)"
    );
    // A trigger that is on offer is still accepted.
    t.cmd("trigger interpose");
    assert_eq!(t.pending(), ("move", "b2".into()));
}

#[test]
fn thr_r215_an_interpose_move_is_refused_once_immobilized() {
    let mut t = interpose_game();
    t.cmd("act basic-attack b1");
    t.cmd("defend resilience");
    t.cmd("trigger interpose");
    assert_eq!(t.pending(), ("move", "b2".into()));
    t.cmd("gm status b2 immobilized on");
    assert_eq!(t.reject("move 3,1").code, "immobilized");
    assert_eq!(t.legal(), vec!["pass".to_string()]);
    t.dice(&[6, 6, 1, 1]);
    t.cmd("pass");
    t.assert_dice_used();
    assert_eq!(t.ch("b2").pos, p(3, 2));
}

// ---------------------------------------------------------------------------------------------
// THR-R216, THR-R217: Disoriented
// ---------------------------------------------------------------------------------------------

const FIVE: [&str; 5] = [". . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . ."];

fn disoriented(options: &str, at: &str) -> T {
    let mut t = game(&FIVE, options, &[("a", "pcs", at, ""), ("b", "npcs", "4,4", "")]);
    begin(&mut t);
    t.cmd("gm status a disoriented on");
    t
}

/// The drift of the last step: (intended, actual).
fn drift(t: &T) -> (Dir, Dir) {
    t.last
        .iter()
        .find_map(|e| match e {
            Event::Drifted { intended, actual, .. } => Some((*intended, *actual)),
            _ => None,
        })
        .expect("a drift roll")
}

#[test]
fn thr_r217_disoriented_north_9_goes_east_4_south_west_7_north_and_clears() {
    let mut t = disoriented("", "2,2");
    // A Disoriented character moves step by step.
    assert_eq!(t.reject("move 2,4").code, "not-now");
    t.dice(&[4, 5]); // 9
    t.cmd("step n");
    assert_eq!(drift(&t), (Dir::N, Dir::E));
    assert_eq!(t.ch("a").pos, p(3, 2));
    assert!(t.ch("a").has(Cond::Disoriented));
    t.dice(&[1, 3]); // 4
    t.cmd("step n");
    assert_eq!(drift(&t), (Dir::N, Dir::SW));
    assert_eq!(t.ch("a").pos, p(2, 1));
    assert!(t.ch("a").has(Cond::Disoriented));
    t.dice(&[3, 4]); // 7
    t.cmd("step n");
    assert_eq!(drift(&t), (Dir::N, Dir::N));
    assert_eq!(t.ch("a").pos, p(2, 2));
    assert!(!t.ch("a").has(Cond::Disoriented));
    t.assert_dice_used();
    assert_eq!(t.s().turn.spent, 3);
    // No longer Disoriented: the next step rolls nothing.
    t.cmd("step n");
    assert_eq!(t.ch("a").pos, p(2, 3));
}

#[test]
fn thr_r216_a_drift_onto_an_illegal_square_loses_the_step_but_spends_it() {
    // From the south-west corner, north with a 4 drifts south-west: off the map.
    let mut t = disoriented("", "0,0");
    t.dice(&[2, 2]);
    t.cmd("step n");
    t.assert_dice_used();
    assert_eq!(drift(&t), (Dir::N, Dir::SW));
    assert_eq!(t.ch("a").pos, p(0, 0));
    assert_eq!(t.s().turn.spent, 1);
    assert!(t.ch("a").has(Cond::Disoriented));
}

#[test]
fn thr_r216_option_draft_disoriented_false_a_roll_other_than_7_loses_the_step() {
    let mut t = disoriented("draft-disoriented = false", "2,2");
    t.dice(&[4, 5]);
    t.cmd("step n");
    assert_eq!(t.ch("a").pos, p(2, 2));
    assert_eq!(t.s().turn.spent, 1);
    assert!(t.ch("a").has(Cond::Disoriented));
    t.dice(&[3, 4]);
    t.cmd("step n");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(2, 3));
    assert!(!t.ch("a").has(Cond::Disoriented));
}

/// A Disoriented `a` (with `extra`) at 2,2 of `rows`, its turn begun.
fn disoriented_on(rows: &[&str], options: &str, extra: &str) -> T {
    let mut t = game(rows, options, &[("a", "pcs", "2,2", extra), ("b", "npcs", "4,4", "")]);
    begin(&mut t);
    t.cmd("gm status a disoriented on");
    t
}

/// 3,2 (east of a) is 3 levels up: stepping there costs 1 + 2 = 3.
const CLIFF_EAST: [&str; 5] = [". . . . .", ". . . . .", ". . . 3 .", ". . . . .", ". . . . ."];

#[test]
fn thr_r53_a_drifted_step_dearer_than_the_movement_left_is_lost() {
    // THR-R52, THR-R53, THR-R216: Speed 1; north drifts east (9) onto a climb costing 3. The
    // step is lost and spends the 1 movement left; Speed is never exceeded.
    let mut t = disoriented_on(&CLIFF_EAST, "", "speed = 1");
    t.dice(&[4, 5]);
    t.cmd("step n");
    t.assert_dice_used();
    assert_eq!(drift(&t), (Dir::N, Dir::E));
    assert_eq!(t.ch("a").pos, p(2, 2));
    assert_eq!(t.s().turn.spent, 1);
    assert_eq!(t.reject("step n").code, "not-enough-movement");
}

#[test]
fn thr_r53_option_partial_steps_a_drifted_step_may_overspend() {
    // THR-R53 with `partial-steps = true`: the last step may cost more than what is left.
    let mut t = disoriented_on(&CLIFF_EAST, "partial-steps = true", "speed = 1");
    t.dice(&[4, 5]);
    t.cmd("step n");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(3, 2));
    assert_eq!(t.s().turn.spent, 3);
}

/// a stands at 2,2 on a 3-level block (2,3 north of it too); 3,2 east is at level 0.
const LEDGE: [&str; 5] = [". . . . .", ". . 3 . .", ". . 3 . .", ". . . . .", ". . . . ."];

fn drop_rolled(ev: &[Event]) -> Option<(i16, bool)> {
    ev.iter().find_map(|e| match e {
        Event::DropRolled { against, passed, .. } => Some((*against, *passed)),
        _ => None,
    })
}

#[test]
fn thr_r64_a_disoriented_step_that_drifts_down_a_drop_uses_the_declared_roll() {
    // THR-R64, THR-R65, THR-R216: the roll is declared with the step (north is level, so only
    // a Disoriented character may declare it); the step drifts east, 3 levels down, so the
    // roll replaces the extra cost: it costs 1.
    let mut t = disoriented_on(&LEDGE, "", "");
    t.dice(&[4, 5, 6, 6, 1, 1]);
    t.cmd("step n roll end");
    t.assert_dice_used();
    assert_eq!(drift(&t), (Dir::N, Dir::E));
    assert_eq!(t.ch("a").pos, p(3, 2));
    assert_eq!(drop_rolled(&t.last), Some((5, true)));
    assert_eq!(t.s().turn.spent, 1);
    // Not Disoriented, a roll with a level step is refused as before.
    let mut t = game(&LEDGE, "", &[("a", "pcs", "2,2", ""), ("b", "npcs", "4,4", "")]);
    begin(&mut t);
    assert_eq!(t.reject("step n roll end").code, "bad-pick");
}

#[test]
fn thr_r63_a_disoriented_step_down_a_drop_without_a_roll_pays_in_full() {
    // THR-R63: no roll declared: the drifted drop costs 1 + 2 = 3 and nothing is rolled.
    let mut t = disoriented_on(&LEDGE, "", "");
    t.dice(&[4, 5]);
    t.cmd("step n");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(3, 2));
    assert_eq!(drop_rolled(&t.last), None);
    assert_eq!(t.s().turn.spent, 3);
}

// ---------------------------------------------------------------------------------------------
// THR-R218, THR-H3: Stunned
// ---------------------------------------------------------------------------------------------

/// a is Stunned before its turn begins; b is adjacent to where a can walk.
fn stunned(options: &str) -> T {
    let mut t = game(&OPEN, options, &[("a", "pcs", "0,0", ""), ("b", "npcs", "2,0", "")]);
    t.cmd("gm status a stunned on");
    begin(&mut t);
    t
}

#[test]
fn thr_r218_a_stunned_character_that_moves_cannot_act() {
    let mut t = stunned("");
    t.cmd("move 1,0");
    assert_eq!(t.reject("act jab b").code, "stunned");
    assert!(t.legal().iter().all(|c| !c.starts_with("act")));
    t.cmd("end");
    // Stunned ends at the end of that turn.
    assert!(!t.ch("a").has(Cond::Stunned));
}

#[test]
fn thr_r218_a_stunned_character_that_has_not_moved_may_act() {
    let mut t = stunned("");
    t.cmd("act tag b");
    assert_eq!(t.ch("b").mark, 2);
    t.cmd("end");
    assert!(!t.ch("a").has(Cond::Stunned));
}

#[test]
fn thr_r218_stunned_limits_only_the_next_turn() {
    let mut t = stunned("");
    t.cmd("end");
    begin(&mut t);
    t.cmd("end"); // b
    begin(&mut t);
    assert_eq!(t.turn().0, "a");
    t.cmd("move 1,0");
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_h3_option_draft_stunned_false_stunned_does_not_limit_the_turn() {
    let mut t = stunned("draft-stunned = false");
    t.cmd("move 1,0");
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 2);
}

// ---------------------------------------------------------------------------------------------
// THR-R219, THR-H3: Hidden
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r219_an_ability_aimed_at_a_hidden_foe_works_at_half_range_rounding_up() {
    // Basic Attack, Range 3: against Hidden b, Range 2.
    let mut t = duo("", "3,0", "");
    t.cmd("gm status b hidden on");
    assert_eq!(t.reject("act basic-attack b").code, "out-of-range");
    assert_eq!(t.reject("act tag b").code, "out-of-range");
    t.cmd("gm status b hidden off");
    t.cmd("act tag b");
    assert_eq!(t.ch("b").mark, 2);
}

#[test]
fn thr_r219_attacks_on_a_hidden_foe_from_beyond_adjacent_take_a_bane_and_it_stays_hidden() {
    let mut t = duo("", "2,0", "");
    t.cmd("gm status b hidden on");
    t.dice(&[6, 6, 1, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let att = contest(&t).0.unwrap();
    assert_eq!((att.net, att.total), (-1, 10));
    assert!(t.ch("b").has(Cond::Hidden));
}

#[test]
fn thr_r219_a_foe_aiming_from_an_adjacent_square_takes_no_bane_and_ends_hidden() {
    // Range 1 halved rounds up to 1: the adjacent b can still be jabbed.
    let mut t = duo("", "1,0", "");
    t.cmd("gm status b hidden on");
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, 0);
    assert!(!t.ch("b").has(Cond::Hidden));
}

#[test]
fn thr_r219_hidden_ends_when_its_bearer_aims_at_a_foe_not_at_an_ally() {
    let mut t = game(
        &OPEN,
        "",
        &[
            ("a", "pcs", "0,0", ""),
            ("c", "pcs", "0,1", ""),
            ("b", "npcs", "3,0", ""),
        ],
    );
    begin(&mut t);
    t.cmd("gm status a hidden on");
    t.cmd("act cheer c");
    assert!(t.ch("a").has(Cond::Hidden));
    t.cmd("end");
    begin(&mut t);
    t.cmd("gm status c hidden on");
    t.cmd("act tag b");
    assert!(!t.ch("c").has(Cond::Hidden));
}

#[test]
fn thr_h3_option_draft_hidden_false_hidden_does_nothing() {
    let mut t = duo("draft-hidden = false", "3,0", "");
    t.cmd("gm status b hidden on");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, 0);
    assert!(t.ch("b").has(Cond::Hidden));
    // Nor does it hide b's square from the other side's seat (its view, log and AI).
    let seat = t.s().setup.chars[0].seat;
    assert!(!fray_thrum::board::hidden_from(t.s(), seat, 1));
    let mut t = duo("", "3,0", "");
    t.cmd("gm status b hidden on");
    assert!(fray_thrum::board::hidden_from(t.s(), seat, 1));
}

// ---------------------------------------------------------------------------------------------
// THR-R220, THR-H3: Hastened
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r220_hastened_adds_2_to_speed() {
    let mut t = duo("", "6,2", "");
    t.cmd("gm status a hastened on");
    t.cmd("move 6,0");
    assert_eq!(t.s().turn.spent, 6);
    let mut t = duo("", "6,2", "");
    assert_eq!(t.reject("move 6,0").code, "not-enough-movement");
}

#[test]
fn thr_r220_hastened_gives_a_boon_on_evasion() {
    let mut t = duo("", "1,0", "");
    t.cmd("gm status b hastened on");
    // Evasion's own Boon plus Hastened's: the best two of four dice.
    t.dice(&[3, 3, 1, 1, 6, 5]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    let def = contest(&t).1.unwrap();
    assert_eq!((def.net, def.total), (2, 11));
}

#[test]
fn thr_r220_hastened_gives_a_boon_on_ref_environment_rolls_not_end() {
    let drop_roll = |attr: &str| -> i16 {
        let mut t = game(&[". -2 . ."], "", &[("a", "pcs", "0,0", ""), ("b", "npcs", "3,0", "")]);
        begin(&mut t);
        t.cmd("gm status a hastened on");
        let n = if attr == "ref" { 3 } else { 2 };
        t.dice(&vec![6; n + 2]);
        t.cmd(&format!("step e roll {attr}"));
        t.assert_dice_used();
        t.last
            .iter()
            .find_map(|e| match e {
                Event::DropRolled { roll, .. } => Some(roll.net),
                _ => None,
            })
            .expect("a drop roll")
    };
    assert_eq!(drop_roll("ref"), 1);
    assert_eq!(drop_roll("end"), 0);
}

#[test]
fn thr_h3_option_draft_hastened_false_no_speed_no_boon() {
    let mut t = duo("draft-hastened = false", "1,0", "");
    t.cmd("gm status b hastened on");
    t.dice(&[3, 3, 1, 1, 6]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    assert_eq!(contest(&t).1.unwrap().net, 1);
    let mut t = duo("draft-hastened = false", "6,2", "");
    t.cmd("gm status a hastened on");
    assert_eq!(t.reject("move 6,0").code, "not-enough-movement");
}

// ---------------------------------------------------------------------------------------------
// THR-R221, THR-H4: Scouted
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r221_thr_h4_scouted_is_stored_like_mark_and_does_nothing() {
    let mut t = duo("", "1,0", "");
    t.cmd("act scout b");
    assert_eq!(t.ch("b").scouted, 1);
    t.cmd("end");
    // b's own turn: no Bane from it on its attack, and it never ticks.
    begin(&mut t);
    t.dice(&[3, 3, 3, 3]);
    t.cmd("act jab a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contest(&t).0.unwrap().net, 0);
    t.cmd("end");
    assert_eq!(t.ch("b").scouted, 1);
    // Like Mark it is not a status: Recover cannot name it.
    begin(&mut t);
    let r = t.reject("act recover option status status scouted");
    assert!(r.reason.contains("not a status"), "{}", r.reason);
}

#[test]
fn thr_h4_option_scouted_one_turn_ends_at_the_end_of_its_bearers_next_turn() {
    let mut t = duo("scouted = \"one-turn\"", "1,0", "");
    t.cmd("act scout b");
    t.cmd("end");
    assert_eq!(t.ch("b").scouted, 1);
    begin(&mut t);
    t.cmd("end");
    assert_eq!(t.ch("b").scouted, 0);
}

// ---------------------------------------------------------------------------------------------
// THR-R222, THR-H18, THR-H29: Minions (Spirit Wisp)
// ---------------------------------------------------------------------------------------------

/// Wenna Thistle (FOC 1: Resolve +1, Animism 3) with Spirit Wisp, and an NPC `x` with the test
/// kit; Wenna acts first, then `p` (another PC, unless `alone`), then `x`.
fn wenna(options: &str, alone: bool) -> T {
    let w = "attributes = { pow = 2, end = 1, foc = 1 }\ntraining = { animism = 3 }\nabilities = [\"spirit-wisp\"]";
    let mut people = vec![("w", "pcs", "0,0", w)];
    if !alone {
        people.push(("p", "pcs", "0,2", ""));
    }
    people.push(("x", "npcs", "4,0", ""));
    let mut t = game(&OPEN, options, &people);
    begin(&mut t);
    t
}

#[test]
fn thr_r222_spirit_wisp_places_a_minion_within_range_with_no_turn() {
    let mut t = wenna("", false);
    assert_eq!(t.reject("act spirit-wisp at 4,1").code, "out-of-range");
    t.cmd("act spirit-wisp at 3,0");
    assert_eq!(t.ch("w-minion").pos, p(3, 0));
    // It has no turn: the order is unchanged.
    assert_eq!(t.order(), vec!["w", "p", "x"]);
    // An ally of Wenna's side: p cannot jab it, x can.
    t.cmd("end");
    begin(&mut t);
    t.cmd("move 2,1");
    assert_eq!(t.reject("act jab w-minion").code, "invalid-target");
    t.cmd("end");
    begin(&mut t);
    t.dice(&[1, 1, 6, 6]);
    t.cmd("act jab w-minion");
    t.assert_dice_used();
    assert!(!contest(&t).3.hit());
}

#[test]
fn thr_r222_positioning_again_moves_the_one_minion() {
    let mut t = wenna("", false);
    t.cmd("act spirit-wisp at 3,0");
    t.cmd("end");
    for _ in 0..2 {
        begin(&mut t);
        t.cmd("end");
    }
    begin(&mut t);
    assert_eq!(t.turn().0, "w");
    t.cmd("act spirit-wisp at 1,2");
    assert_eq!(t.ch("w-minion").pos, p(1, 2));
    assert!(t.s().find("w-minion-2").is_none());
}

/// Wenna has placed her Wisp next to `x`; it is `x`'s turn.
fn wisp_next_to_x(options: &str) -> T {
    let mut t = wenna(options, false);
    t.cmd("act spirit-wisp at 3,0");
    t.cmd("end");
    begin(&mut t);
    t.cmd("end"); // p
    begin(&mut t);
    assert_eq!(t.turn().0, "x");
    t
}

#[test]
fn thr_r222_an_attack_on_a_minion_is_defended_by_its_controllers_resolve() {
    let mut t = wisp_next_to_x("");
    // A Physical Attack, yet the Wisp defends with Resolve: Wenna's +1. Nobody is asked.
    t.dice(&[2, 2, 3, 3]);
    t.cmd("act jab w-minion");
    t.assert_dice_used();
    let (att, def, with, v) = contest(&t);
    assert_eq!(with, Defence::Resolve);
    assert_eq!(
        (att.unwrap().total, def.unwrap().modifier, def.unwrap().total),
        (7, 1, 7)
    );
    assert_eq!(v, Verdict::DefenderSuccess);
    assert!(t.ch("w-minion").present());
}

#[test]
fn thr_r222_fatigue_landing_on_a_minion_makes_it_vanish() {
    let mut t = wisp_next_to_x("");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("act jab w-minion");
    t.assert_dice_used();
    assert!(t.ch("w-minion").removed);
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Removed {
            why: Removal::Vanished,
            ..
        }
    )));
    assert_eq!((t.ch("w").fatigue, t.ch("w-minion").fatigue), (0, 0));
}

#[test]
fn thr_r222_stress_landing_on_a_minion_makes_it_vanish() {
    let mut t = wisp_next_to_x("");
    t.dice(&[4, 4, 1, 1]);
    t.cmd("act taunt w-minion");
    t.assert_dice_used();
    assert!(t.ch("w-minion").removed);
    assert_eq!(t.ch("w").stress, 0);
}

#[test]
fn thr_r222_a_minion_ignores_conditions() {
    let mut t = wisp_next_to_x("");
    t.cmd("gm status w-minion dazed on");
    t.dice(&[2, 2, 3, 3]);
    t.cmd("act jab w-minion");
    t.assert_dice_used();
    assert_eq!(contest(&t).1.unwrap().net, 0);
}

#[test]
fn thr_h18_a_minion_does_not_count_for_the_stop_conditions() {
    let mut t = wenna("", true);
    t.cmd("act spirit-wisp at 3,0");
    t.set("w", "fatigue", 5);
    t.cmd("gm incapacitate w");
    // Only the Wisp stands on the PCs' side: they are all down.
    let outcome = t.s().outcome.clone().expect("the combat ended");
    assert_eq!(outcome.reason, "all-pcs-down");
}

#[test]
fn thr_h18_option_minions_count() {
    let mut t = wenna("minions-count = true", true);
    t.cmd("act spirit-wisp at 3,0");
    t.set("w", "fatigue", 5);
    t.cmd("gm incapacitate w");
    assert!(t.s().outcome.is_none());
}
