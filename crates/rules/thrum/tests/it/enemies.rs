//! The enemy stat blocks of the rules file's "Content for examples": the Biffer (Strike, Shove,
//! Stand Firm, Interpose) and the Plinker (Shot, Slip Away with Unseen Aim, High Perch,
//! Jittery). Where an ability exercises a numbered rule (Dazed, Stunned, Hidden), the test cites
//! it.

use crate::common;
use common::*;
use fray_space::Pos;
use fray_thrum::ability::{Cond, Defence};
use fray_thrum::event::{Event, Rolled, Verdict};

fn biffer(tier: i16) -> String {
    let (attack, resilience) = if tier == 0 { (2, 1) } else { (3, 2) };
    format!(
        "tier = {tier}\nattack = {attack}\nresilience = {resilience}\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 3\nmax-stress-tolerance = 1\nabilities = [\"biffer-strike\", \"shove\", \"stand-firm\", \"interpose\"]"
    )
}

/// A Plinker of Tier `tier` with the given abilities.
fn plinker(tier: i16, abilities: &str) -> String {
    let (init, attack, evasion) = if tier == 0 { (1, 2, 1) } else { (tier + 1, 3, 2) };
    format!(
        "tier = {tier}\ninitiative = {init}\nattack = {attack}\nresilience = 0\nevasion = {evasion}\nresolve = 0\nmax-fatigue-tolerance = 1\nmax-stress-tolerance = 1\nabilities = [{abilities}]"
    )
}

/// Korrin Vale: POW 2, END 2 (Resilience +2, Fatigue Tolerance 5), Brawling 3 (+3).
const KORRIN: &str = "attributes = { pow = 2, end = 2 }\ntraining = { brawling = 3 }\nabilities = [\"sock-em\"]";

/// A plain PC with a Basic Attack modifier of +3.
const PC: &str = "attack = 3";

/// A game on `rows`; `people` (id, side, square, stats) act in the listed order. Round Zero
/// runs `r0` (one command per combatant in order), then the first slot of round 1 is begun.
fn game(rows: &[&str], people: &[(&str, &str, &str, &str)], r0: &[&str]) -> T {
    let mut rest = String::new();
    let mut init = Vec::new();
    for (i, (id, side, at, extra)) in people.iter().enumerate() {
        rest.push_str(&who(id, side, at, extra));
        let f = [6, 4, 2, 1][i];
        init.extend([f, f]);
    }
    let mut t = T::new(&enc(rows, &rest), &init);
    t.cmds(r0);
    t.skip_round_zero();
    begin(&mut t);
    t
}

fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// Ends the current turn and begins the next one.
fn next(t: &mut T) {
    t.cmd("end");
    begin(t);
}

fn p(x: i16, y: i16) -> Option<Pos> {
    Some(Pos::new(x, y))
}

const OPEN: [&str; 3] = [". . . . . . . .", ". . . . . . . .", ". . . . . . . ."];

/// The contests of the last command: attack roll, defence roll, defence, verdict.
fn contests_of(t: &T) -> Vec<(Option<Rolled>, Option<Rolled>, Defence, Verdict)> {
    t.last
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
        .collect()
}

fn attack_net(t: &T) -> i16 {
    let c = contests_of(t);
    assert_eq!(c.len(), 1, "expected one contest: {c:?}");
    c[0].0.unwrap().net
}

// ---------------------------------------------------------------------------------------------
// Biffer: Strike
// ---------------------------------------------------------------------------------------------

/// A Biffer of Tier `tier` strikes Korrin (Resilience +2), who defends with Resilience.
fn strike(tier: i16, dice: &[u16]) -> T {
    let mut t = game(
        &OPEN,
        &[("b", "npcs", "0,0", &biffer(tier)), ("k", "pcs", "1,0", KORRIN)],
        &[],
    );
    t.dice(dice);
    t.cmd("act biffer-strike k");
    t.cmd("defend resilience");
    t.assert_dice_used();
    t
}

#[test]
fn thr_r214_biffer_strike_success_deals_1_fatigue_and_dazes() {
    // 5 + 4 + 2 = 11 against 3 + 3 + 2 = 8.
    let t = strike(0, &[5, 4, 3, 3]);
    assert_eq!(contests_of(&t)[0].3, Verdict::AttackerSuccess);
    assert_eq!(t.ch("k").fatigue, 1);
    assert!(t.ch("k").has(Cond::Dazed));
}

#[test]
fn biffer_strike_dazes_even_when_it_misses() {
    let t = strike(0, &[1, 1, 6, 6]);
    assert!(!contests_of(&t)[0].3.hit());
    assert_eq!(t.ch("k").fatigue, 0);
    assert!(t.ch("k").has(Cond::Dazed));
}

#[test]
fn biffer_strike_critical_deals_2_fatigue_instead_and_no_stun_at_tier_0() {
    // 6 + 6 + 2 = 14 against 2 + 2 + 2 = 6: a Critical.
    let t = strike(0, &[6, 6, 2, 2]);
    assert_eq!(contests_of(&t)[0].3, Verdict::AttackerCritical);
    assert_eq!(t.ch("k").fatigue, 2);
    assert!(!t.ch("k").has(Cond::Stunned));
}

#[test]
fn thr_r218_biffer_strike_critical_at_tier_1_stuns_for_the_targets_next_turn() {
    // 6 + 6 + 3 = 15 against 2 + 2 + 2 = 6.
    let mut t = strike(1, &[6, 6, 2, 2]);
    assert_eq!(contests_of(&t)[0].3, Verdict::AttackerCritical);
    assert_eq!(t.ch("k").fatigue, 2);
    assert!(t.ch("k").has(Cond::Stunned));
    next(&mut t);
    assert_eq!(t.turn().0, "k");
    t.cmd("move 1,1");
    assert_eq!(t.reject("act sock-em b option slow").code, "stunned");
    t.cmd("end");
    assert!(!t.ch("k").has(Cond::Stunned));
}

// ---------------------------------------------------------------------------------------------
// Biffer: Shove
// ---------------------------------------------------------------------------------------------

/// A Biffer of Tier `tier` at 0,1 shoves `a` (at 1,1) and hits.
fn shove(tier: i16) -> T {
    let mut t = game(
        &OPEN,
        &[("b", "npcs", "0,1", &biffer(tier)), ("a", "pcs", "1,1", PC)],
        &[],
    );
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    t
}

#[test]
fn shove_pushes_1_plus_tier_then_offers_the_biffer_a_follow_up_move() {
    let mut t = shove(0);
    assert_eq!(t.ch("a").pos, p(2, 1));
    assert_eq!(t.pending(), ("move", "b".into()));
    // Up to 2 squares, anywhere.
    assert_eq!(t.reject("move 3,0").code, "not-enough-movement");
    let legal = t.legal();
    assert!(legal.contains(&"move 2,0".to_string()) && legal.contains(&"pass".to_string()));
    t.cmd("move 1,1");
    assert_eq!(t.ch("b").pos, p(1, 1));
    assert_eq!(t.pending().0, "stance");
}

#[test]
fn shove_at_tier_1_pushes_2_and_the_follow_up_may_be_passed() {
    let mut t = shove(1);
    assert_eq!(t.ch("a").pos, p(3, 1));
    t.cmd("pass");
    assert_eq!(t.ch("b").pos, p(0, 1));
    assert_eq!(t.pending().0, "stance");
}

#[test]
fn a_shove_that_misses_neither_pushes_nor_follows() {
    let mut t = game(&OPEN, &[("b", "npcs", "0,1", &biffer(0)), ("a", "pcs", "1,1", PC)], &[]);
    t.dice(&[1, 1, 6, 6]);
    t.cmd("act shove a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("a").pos, p(1, 1));
    assert_eq!(t.pending().0, "stance");
}

// ---------------------------------------------------------------------------------------------
// Biffer: Stand Firm
// ---------------------------------------------------------------------------------------------

/// Korrin acts first and Sock 'Ems a Biffer of Tier `tier` that entered Stand Firm in Round
/// Zero, shifting it east.
fn sock_standing_biffer(tier: i16, dice: &[u16]) -> T {
    let mut t = game(
        &OPEN,
        &[("k", "pcs", "0,0", KORRIN), ("b", "npcs", "1,0", &biffer(tier))],
        &["end", "stance stand-firm"],
    );
    assert_eq!(t.ch("b").stance, t.s().setup.book.find("stand-firm"));
    t.dice(dice);
    t.cmd("act sock-em b option shift dir e");
    t.cmd("defend resilience");
    t.assert_dice_used();
    t
}

#[test]
fn stand_firm_gives_a_boon_on_resilience() {
    // The Biffer's Resilience roll: the best two of 1, 1, 6 + 1 = 8; Korrin 3 + 3 + 3 = 9.
    let t = sock_standing_biffer(0, &[3, 3, 1, 1, 6]);
    let c = contests_of(&t);
    let def = c[0].1.unwrap();
    assert_eq!((def.net, def.total), (1, 8));
    assert_eq!(c[0].3, Verdict::AttackerSuccess);
    // Tier 0: the shift (an Effect) moves it.
    assert_eq!(t.ch("b").pos, p(2, 0));
}

#[test]
fn stand_firm_at_tier_1_cannot_be_moved_involuntarily() {
    let t = sock_standing_biffer(1, &[3, 3, 1, 1, 6]);
    assert_eq!(t.ch("b").pos, p(1, 0));
    assert!(t.last.iter().all(|e| !matches!(e, Event::Moved { .. })));
}

// ---------------------------------------------------------------------------------------------
// Biffer: Interpose
// ---------------------------------------------------------------------------------------------

/// `a` at 0,0 aims a Basic Attack at the Biffer `b1` (3,0); `b2` (Tier `tier`, at 3,2: 2
/// squares from b1) is offered Interpose and takes it.
fn interposed(tier: i16) -> T {
    let mut t = game(
        &[". . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . ."],
        &[
            ("a", "pcs", "0,0", PC),
            ("b1", "npcs", "3,0", &biffer(0)),
            ("b2", "npcs", "3,2", &biffer(tier)),
        ],
        &[],
    );
    t.cmd("act basic-attack b1");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "b2".into()));
    t.cmd("trigger interpose");
    assert_eq!(t.pending(), ("move", "b2".into()));
    t
}

#[test]
fn interpose_moves_up_to_1_plus_tier_toward_the_attacked_ally_and_can_give_cover() {
    let mut t = interposed(1);
    // Never farther from b1 than where b2 stands.
    assert_eq!(t.reject("move 3,4").code, "invalid-target");
    // 2,0 stands between a and b1: b2 becomes b1's cover source, a Bane on a's roll.
    t.dice(&[6, 6, 6, 1, 1]);
    t.cmd("move 2,0");
    t.assert_dice_used();
    assert_eq!(t.ch("b2").pos, p(2, 0));
    assert_eq!(attack_net(&t), -1);
}

#[test]
fn interpose_at_tier_0_moves_only_1() {
    let mut t = interposed(0);
    assert_eq!(t.reject("move 2,0").code, "not-enough-movement");
    t.dice(&[6, 6, 1, 1]);
    t.cmd("move 3,1");
    t.assert_dice_used();
    assert_eq!(t.ch("b2").pos, p(3, 1));
    assert_eq!(attack_net(&t), 0);
}

/// `a` (0,0) aims Fire Burst (Area 2) at 3,0, catching b1 (3,0) and b2 (4,0); the Biffer bi
/// (3,2) is within 2 squares of both. Both targets have picked Resilience.
fn burst(options: &str) -> T {
    let grunt = "attack = 1\nabilities = [\"biffer-strike\"]";
    let rest = format!(
        "{options}\n{}{}{}{}",
        who("a", "pcs", "0,0", "attack = 3\nabilities = [\"fire-burst\"]"),
        who("b1", "npcs", "3,0", grunt),
        who("b2", "npcs", "4,0", grunt),
        who("bi", "npcs", "3,2", &biffer(0)),
    );
    let mut t = T::in_round_one(&enc(&OPEN, &rest), &[6, 6, 4, 4, 2, 2, 1, 1]);
    begin(&mut t);
    t.cmd("act fire-burst area 3,0");
    t.cmd("defend resilience");
    t.cmd("defend resilience");
    assert_eq!(t.pending(), ("trigger", "bi".into()));
    t
}

fn interposes(t: &T) -> usize {
    t.all_events()
        .iter()
        .filter(|e| matches!(e, Event::TriggerUsed { .. }))
        .count()
}

#[test]
fn interpose_answers_one_area_attack_once() {
    // THR-R40 with `triggered-moves = "once-per-use"`: attacked twice by one Fire Burst, the
    // allies get one Interpose from bi, not two.
    let mut t = burst("");
    t.cmd("trigger interpose");
    // b1 then b2 (which b1 covers: a Bane, three dice).
    t.dice(&[1, 1, 6, 6, 1, 1, 1, 6, 6]);
    t.cmd("move 3,1");
    t.assert_dice_used();
    assert_eq!(interposes(&t), 1);
    assert_eq!(contests_of(&t).len(), 2);
}

#[test]
fn interpose_option_per_target_answers_each_attacked_ally() {
    // THR-R40 with `triggered-moves = "per-target"`: a second Interpose for b2.
    let mut t = burst("[options]\ntriggered-moves = \"per-target\"");
    t.cmd("trigger interpose");
    t.cmd("pass");
    assert_eq!(t.pending(), ("trigger", "bi".into()));
    t.cmd("trigger interpose");
    t.dice(&[1, 1, 6, 6, 1, 1, 1, 6, 6]);
    t.cmd("pass");
    t.assert_dice_used();
    assert_eq!(interposes(&t), 2);
}

/// Fire Burst at 3,0 catches b1 (3,0) and the Biffer bi (3,1); bi Interposes for b1 by
/// stepping out of the area, to 2,1 (which gives b1 Cover: a Bane on the attack).
fn burst_and_leave(options: &str) -> T {
    let grunt = "attack = 1\nabilities = [\"biffer-strike\"]";
    let rest = format!(
        "{options}\n{}{}{}",
        who("a", "pcs", "0,0", "attack = 3\nabilities = [\"fire-burst\"]"),
        who("b1", "npcs", "3,0", grunt),
        who("bi", "npcs", "3,1", &biffer(0)),
    );
    let mut t = T::in_round_one(&enc(&OPEN, &rest), &[6, 6, 4, 4, 2, 2]);
    begin(&mut t);
    t.cmd("act fire-burst area 3,0");
    t.cmd("defend resilience");
    t.cmd("defend resilience");
    t.cmd("trigger interpose");
    t
}

#[test]
fn thr_r85_a_target_that_left_the_area_before_its_roll_is_not_affected() {
    // THR-R85: the area affects the characters inside it; bi is no longer inside when its roll
    // comes (`area-leavers = "spared"`).
    let mut t = burst_and_leave("");
    t.dice(&[1, 1, 1, 6, 6]);
    t.cmd("move 2,1");
    t.assert_dice_used();
    assert_eq!(contests_of(&t).len(), 1);
    let bi = t.id("bi");
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::LeftArea { who } if *who == bi))
    );
    assert!(t.log().iter().any(|l| l.contains("no longer in the area")));
}

#[test]
fn thr_r85_option_area_leavers_hit_keeps_the_declared_targets() {
    let mut t = burst_and_leave("[options]\narea-leavers = \"hit\"");
    t.dice(&[1, 1, 1, 6, 6, 1, 1, 6, 6]);
    t.cmd("move 2,1");
    t.assert_dice_used();
    assert_eq!(contests_of(&t).len(), 2);
    assert!(!t.last.iter().any(|e| matches!(e, Event::LeftArea { .. })));
}

// ---------------------------------------------------------------------------------------------
// Plinker: Shot, Slip Away, Unseen Aim
// ---------------------------------------------------------------------------------------------

#[test]
fn plinker_shot_reaches_6_squares() {
    let rows = [". . . . . . . ."];
    let mut t = game(
        &rows,
        &[
            ("pl", "npcs", "7,0", &plinker(0, "\"plinker-shot\"")),
            ("a", "pcs", "1,0", PC),
        ],
        &[],
    );
    // 2 + 2 + 2 = 6 against 1 + 2 = 3: a Success.
    t.dice(&[2, 2, 1, 2]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("a").fatigue, 1);
    let mut t = game(
        &rows,
        &[
            ("pl", "npcs", "7,0", &plinker(0, "\"plinker-shot\"")),
            ("a", "pcs", "0,0", PC),
        ],
        &[],
    );
    assert_eq!(t.reject("act plinker-shot a").code, "out-of-range");
}

#[test]
fn plinker_shot_critical_deals_2_fatigue_instead() {
    let mut t = game(
        &OPEN,
        &[
            ("pl", "npcs", "5,0", &plinker(0, "\"plinker-shot\"")),
            ("a", "pcs", "1,0", PC),
        ],
        &[],
    );
    // 6 + 6 + 2 = 14 against 1 + 1 = 2.
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests_of(&t)[0].3, Verdict::AttackerCritical);
    assert_eq!(t.ch("a").fatigue, 2);
}

/// A Plinker of Tier `tier` Slips Away in round 1, then shoots `a` (4 squares off) in round 2.
fn hidden_shot(tier: i16, dice: &[u16]) -> T {
    let mut t = game(
        &OPEN,
        &[
            (
                "pl",
                "npcs",
                "5,0",
                &plinker(tier, "\"plinker-shot\", \"slip-away\", \"unseen-aim\""),
            ),
            ("a", "pcs", "1,0", PC),
        ],
        &[],
    );
    t.cmd("act slip-away");
    assert!(t.ch("pl").has(Cond::Hidden));
    next(&mut t); // a
    next(&mut t); // round 2: pl
    assert_eq!(t.turn().0, "pl");
    t.dice(dice);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    t
}

#[test]
fn thr_r219_unseen_aim_at_tier_1_gives_a_boon_to_a_shot_from_hiding_which_ends_hidden() {
    let t = hidden_shot(1, &[1, 6, 6, 1, 1]);
    assert_eq!(attack_net(&t), 1);
    assert_eq!(contests_of(&t)[0].0.unwrap().total, 15);
    assert!(!t.ch("pl").has(Cond::Hidden));
}

#[test]
fn unseen_aim_gives_nothing_at_tier_0() {
    let t = hidden_shot(0, &[6, 6, 1, 1]);
    assert_eq!(attack_net(&t), 0);
}

// ---------------------------------------------------------------------------------------------
// Plinker: High Perch, Jittery
// ---------------------------------------------------------------------------------------------

/// A Plinker of Tier `tier` with High Perch on a ledge of height `h` shoots `a` (4 squares off,
/// height 0); `other` is an extra PC (maybe none).
fn perched(tier: i16, h: i16, other: Option<&str>) -> T {
    let rows = [". . . . . . . .".to_string(), format!("{h} . . . . . . .")];
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let pl = plinker(tier, "\"plinker-shot\", \"high-perch\"");
    let mut people = vec![("pl", "npcs", "0,0", pl.as_str()), ("a", "pcs", "4,0", PC)];
    if let Some(at) = other {
        people.push(("c", "pcs", at, PC));
    }
    let mut t = game(&rows, &people, &[]);
    assert_eq!(t.turn().0, "pl");
    t.dice(&[6, 6, 6, 6, 6, 1, 1]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t
}

#[test]
fn high_perch_gives_a_boon_per_level_of_height_beyond_the_first() {
    for (h, boons) in [(1, 0), (2, 1), (3, 2)] {
        let t = perched(0, h, None);
        assert_eq!(attack_net(&t), boons, "height {h}");
    }
}

#[test]
fn high_perch_needs_every_foe_more_than_2_squares_away() {
    // c 2 squares from the Plinker (1,1 is its neighbour: 2,1 is 2 away).
    let t = perched(0, 3, Some("2,1"));
    assert_eq!(attack_net(&t), 0);
    let t = perched(0, 3, Some("3,1"));
    assert_eq!(attack_net(&t), 2);
}

#[test]
fn high_perch_at_tier_2_needs_foes_only_more_than_1_square_away() {
    let t = perched(2, 3, Some("2,1"));
    assert_eq!(attack_net(&t), 2);
}

#[test]
fn high_perch_range_is_2_squares_up_to_tier_1_and_1_square_from_tier_2_at_every_tier() {
    // A foe 2 squares away (2,1) spoils the perch below Tier 2 only.
    for (tier, boons) in [(0, 0), (1, 0), (2, 2), (3, 2), (4, 2), (6, 2)] {
        let t = perched(tier, 3, Some("2,1"));
        assert_eq!(attack_net(&t), boons, "tier {tier}, foe 2 squares away");
    }
    // A foe next to the Plinker (1,1) spoils it at every Tier (and adds the Ranged Bane).
    for tier in [0, 2, 4, 6] {
        let t = perched(tier, 3, Some("1,1"));
        assert_eq!(attack_net(&t), -1, "tier {tier}, foe adjacent");
    }
}

/// A perched Tier 0 Plinker (height 3) shoots `a` while the PC `c`, 2 squares from it, is
/// Incapacitated; returns the attack's net Boons.
fn perched_next_to_a_fallen_foe(options: &str) -> i16 {
    let rows = [". . . . . . . .", "3 . . . . . . ."];
    let rest = format!(
        "{options}\n{}{}{}",
        who("pl", "npcs", "0,0", &plinker(0, "\"plinker-shot\", \"high-perch\"")),
        who("a", "pcs", "4,0", PC),
        who("c", "pcs", "2,1", PC)
    );
    let mut t = T::in_round_one(&enc(&rows, &rest), &[6, 6, 4, 4, 2, 2]);
    begin(&mut t);
    t.cmd("gm set c fatigue =3");
    t.cmd("gm incapacitate c");
    assert!(t.ch("c").incapacitated);
    t.dice(&[6, 6, 6, 6, 1, 1]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    attack_net(&t)
}

#[test]
fn high_perch_an_incapacitated_foe_nearby_still_counts_unless_the_option_ignores_it() {
    // THR-R115's reading of "foe" (`incapacitated-foes`) applies to High Perch too.
    assert_eq!(perched_next_to_a_fallen_foe(""), 0);
    assert_eq!(
        perched_next_to_a_fallen_foe("[options]\nincapacitated-foes = \"ignored\""),
        2
    );
}

/// A Tier 0 Plinker with Jittery starts its turn at `at`, `a` standing at 1,0.
fn jittery(at: &str) -> T {
    game(
        &OPEN,
        &[
            ("pl", "npcs", at, &plinker(0, "\"plinker-shot\", \"jittery\"")),
            ("a", "pcs", "1,0", PC),
        ],
        &[],
    )
}

#[test]
fn jittery_next_to_a_foe_costs_1_stress_and_a_bane_on_that_turns_rolls() {
    let mut t = jittery("0,0");
    assert_eq!(t.ch("pl").stress, 1);
    // Jittery's Bane and the Ranged Bane for an adjacent enemy.
    t.dice(&[6, 6, 6, 6, 1, 1]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(attack_net(&t), -2);
    // On a's turn the Bane is gone: the Plinker's Evasion has only its automatic Boon.
    // (a's Basic Attack is Ranged too: the worst two of 1, 1, 6.)
    next(&mut t);
    t.dice(&[1, 1, 6, 6, 6, 6]);
    t.cmd("act basic-attack pl");
    t.cmd("defend evasion");
    t.assert_dice_used();
    assert_eq!(contests_of(&t)[0].1.unwrap().net, 1);
}

#[test]
fn jittery_does_nothing_when_no_foe_is_adjacent() {
    let mut t = jittery("3,0");
    assert_eq!(t.ch("pl").stress, 0);
    t.dice(&[6, 6, 1, 1]);
    t.cmd("act plinker-shot a");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(attack_net(&t), 0);
}
