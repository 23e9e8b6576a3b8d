//! Targets, attacks and defence (THR-R88 to THR-R114, THR-R227; THR-H1, THR-H13, THR-H14).

use crate::common;
use common::*;
use fray_thrum::ability::{Cond, XStatus};
use fray_thrum::event::{Event, Rolled, Verdict};

/// Test abilities: one per kind of target or attack the tests need.
const ABILITIES: &str = r#"
[[ability]]
id = "steady"
type = "action"
target = "self"
effect = [{ mark = 1 }]

[[ability]]
id = "cheer"
type = "action"
range = 3
target = "ally"
effect = [{ mark = 1 }]

[[ability]]
id = "poke"
type = "action"
range = 3
target = "character"
effect = [{ mark = 1 }]

[[ability]]
id = "rally"
type = "action"
target = "all-enemies"
effect = [{ mark = 1 }]

[[ability]]
id = "rally-near"
type = "action"
range = 2
target = "all-enemies"
effect = [{ mark = 1 }]

[[ability]]
id = "volley"
type = "action"
attack = "physical"
range = 3
target = "up-to-2-enemies"
success = [{ fatigue = 1 }]

[[ability]]
id = "jab"
type = "action"
attack = "physical"
range = 1
target = "enemy"
effect = [{ mark = 1 }]
success = [{ fatigue = 2 }]
critical = [{ fatigue = 1 }]

[[ability]]
id = "taunt"
type = "action"
attack = "mental"
range = 3
target = "enemy"
success = [{ stress = 1 }]

[[ability]]
id = "smite"
type = "action"
attack = "special"
range = 3
target = "enemy"
success = [{ fatigue = 1 }]
critical = [{ fatigue = 1 }]

[[ability]]
id = "keen-jab"
type = "action"
attack = "physical"
range = 1
target = "enemy"
critical-margin = 3
success = [{ fatigue = 1 }]
critical = [{ fatigue = 1 }]

[[ability]]
id = "nudge"
type = "action"
attack = "physical"
range = 1
target = "enemy"
success = [{ fatigue = true }, { stress = true }]
"#;

/// Everything the test attacker `a` can use besides the basic abilities.
const KIT: &str = "abilities = [\"steady\", \"cheer\", \"poke\", \"rally\", \"rally-near\", \"volley\", \"jab\", \"taunt\", \"smite\", \"nudge\", \"biffer-strike\", \"keen-jab\"]";

const MAP: [&str; 3] = [". . . . . . . .", ". . . . . . . .", ". . . . . . . ."];

/// An `[options]` table.
fn opts(o: &str) -> String {
    format!("[options]\n{o}\n")
}

/// Begins the turn if the slot asks whether to begin or Delay.
fn begin(t: &mut T) {
    if t.pending().0 == "slot" {
        t.cmd("begin");
    }
}

/// A game on an open 8×3 map with the test abilities: Round Zero runs `r0` (in turn order,
/// the rest answered with `end`), then the first turn of round 1 begins.
fn game(rest: &str, init: &[u16], r0: &[&str]) -> T {
    let e = with_abilities(&MAP, rest, ABILITIES);
    let mut t = t_with(&e, init);
    t.cmds(r0);
    t.skip_round_zero();
    begin(&mut t);
    t
}

/// `a` (a PC with attack +3 and the test kit) at 0,0 acts first against `b` (an NPC) at 1,0.
fn duel_with(options: &str, b: &str) -> T {
    game(
        &format!(
            "{options}{}{}",
            who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
            who("b", "npcs", "1,0", b)
        ),
        &[6, 6, 1, 1],
        &[],
    )
}

fn duel(b: &str) -> T {
    duel_with("", b)
}

/// Runs `act` against `b` with the scripted `dice`, answering the defence with `defend`
/// (empty when the engine picks the only possible defence itself).
fn attack_with(options: &str, b: &str, act: &str, defend: &str, dice: &[u16]) -> T {
    let mut t = duel_with(options, b);
    t.dice(dice);
    t.cmd(act);
    if !defend.is_empty() {
        t.cmd(&format!("defend {defend}"));
    }
    t.assert_dice_used();
    t
}

fn attack(b: &str, act: &str, defend: &str, dice: &[u16]) -> T {
    attack_with("", b, act, defend, dice)
}

/// The single contest among events: attack roll, defence roll, verdict.
fn contest(ev: &[Event]) -> (Option<Rolled>, Option<Rolled>, Verdict) {
    let v: Vec<_> = ev
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

fn faces(r: &Rolled) -> Vec<u16> {
    r.roll.faces.as_slice().to_vec()
}

// ---------------------------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r88_self_means_the_user() {
    let mut t = duel("");
    assert_eq!(t.reject("act steady b").code, "invalid-target");
    t.cmd("act steady");
    assert_eq!(t.ch("a").mark, 1);
    assert_eq!(t.ch("b").mark, 0);
}

/// a and c are PCs, b and d NPCs; order a, c, b, d.
fn four(options: &str) -> String {
    format!(
        "{options}{}{}{}{}",
        who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
        who("c", "pcs", "2,0", ""),
        who("b", "npcs", "1,1", KIT),
        who("d", "npcs", "3,1", "")
    )
}

const FOUR_INIT: [u16; 8] = [6, 6, 5, 5, 4, 4, 3, 3];

#[test]
fn thr_r89_an_ally_is_another_character_of_the_users_side_pc_or_npc() {
    let mut t = game(&four(""), &FOUR_INIT, &[]);
    assert_eq!(t.order(), vec!["a", "c", "b", "d"]);
    assert_eq!(t.reject("act cheer a").code, "invalid-target"); // not the user itself
    assert_eq!(t.reject("act cheer b").code, "invalid-target"); // not an enemy
    t.cmd("act cheer c");
    assert_eq!(t.ch("c").mark, 1);
    t.cmd("end");
    begin(&mut t);
    t.cmd("end"); // c
    begin(&mut t);
    assert_eq!(t.turn().0, "b");
    // An NPC's ally is an NPC.
    assert_eq!(t.reject("act cheer a").code, "invalid-target");
    t.cmd("act cheer d");
    assert_eq!(t.ch("d").mark, 1);
}

#[test]
fn thr_r90_an_enemy_is_a_character_of_an_opposing_side() {
    let mut t = game(&four(""), &FOUR_INIT, &[]);
    let legal = t.legal();
    for ok in ["act basic-attack b", "act jab b"] {
        assert!(legal.contains(&ok.to_string()), "{ok} missing from {legal:?}");
    }
    assert!(
        !legal
            .iter()
            .any(|c| c.starts_with("act basic-attack") && !c.ends_with(" b") && !c.ends_with(" d"))
    );
    assert_eq!(t.reject("act basic-attack c").code, "invalid-target");
    assert_eq!(t.reject("act basic-attack a").code, "invalid-target");
}

#[test]
fn thr_r91_character_means_self_ally_or_enemy() {
    let t = game(&four(""), &FOUR_INIT, &[]);
    let legal = t.legal();
    for id in ["a", "b", "c", "d"] {
        assert!(
            legal.contains(&format!("act poke {id}")),
            "poke {id} missing from {legal:?}"
        );
    }
}

/// a at 0,0; enemies b (1,0), d (2,2) and e (7,0); ally c (0,1).
fn crowd(options: &str) -> String {
    format!(
        "{options}{}{}{}{}{}",
        who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
        who("c", "pcs", "0,1", ""),
        who("b", "npcs", "1,0", ""),
        who("d", "npcs", "2,2", ""),
        who("e", "npcs", "7,0", "")
    )
}

const CROWD_INIT: [u16; 10] = [6, 6, 5, 5, 1, 1, 1, 2, 2, 2];

#[test]
fn thr_r92_up_to_n_enemies_means_1_to_n_distinct_enemies_in_range() {
    let mut t = game(&crowd(""), &CROWD_INIT, &[]);
    assert_eq!(t.reject("act volley b,d,e").code, "invalid-target"); // 3 > 2
    assert_eq!(t.reject("act volley b,b").code, "invalid-target"); // not distinct
    assert_eq!(t.reject("act volley e").code, "out-of-range"); // 7 squares away
    assert_eq!(t.reject("act volley b,c").code, "invalid-target"); // c is an ally
    t.cmd("act volley b,d");
    // Each target defends, and each gets its own attack roll. THR-H13 (default: per target).
    t.cmd("defend resilience");
    t.dice(&[6, 6, 1, 1, 6, 6, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last).len(), 2);
    assert_eq!(t.ch("b").fatigue, 1);
    assert_eq!(t.ch("d").fatigue, 1);
}

#[test]
fn thr_r92_option_distinct_targets_off_lets_one_enemy_be_named_twice() {
    let mut t = game(&crowd(&opts("distinct-targets = false")), &CROWD_INIT, &[]);
    assert!(t.legal().contains(&"act volley b,b".to_string()));
    t.cmd("act volley b,b");
    t.cmd("defend resilience");
    t.dice(&[6, 6, 1, 1, 6, 6, 1, 1]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r92_all_enemies_means_every_enemy_on_the_map_unless_a_range_is_given() {
    let mut t = game(&crowd(""), &CROWD_INIT, &[]);
    t.cmd("act rally");
    for (id, mark) in [("b", 1), ("d", 1), ("e", 1), ("a", 0), ("c", 0)] {
        assert_eq!(t.ch(id).mark, mark, "{id}");
    }
    let mut t = game(&crowd(""), &CROWD_INIT, &[]);
    t.cmd("act rally-near");
    for (id, mark) in [("b", 1), ("d", 1), ("e", 0)] {
        assert_eq!(t.ch(id).mark, mark, "{id}");
    }
}

/// b is Incapacitated by a GM ruling (d keeps the fight going).
fn downed(options: &str) -> T {
    let mut t = game(&crowd(options), &CROWD_INIT, &[]);
    t.set("b", "fatigue", 4);
    t.cmd("gm incapacitate b");
    assert!(t.ch("b").incapacitated);
    t
}

#[test]
fn thr_r93_incapacitated_characters_remain_legal_targets() {
    let mut t = downed("");
    assert!(t.legal().contains(&"act jab b".to_string()));
    t.cmd("act jab b");
    assert_eq!(t.pending(), ("defence", "b".to_string()));
}

#[test]
fn thr_r93_option_incapacitated_not_targetable() {
    let mut t = downed(&opts("incapacitated-targetable = false"));
    assert!(!t.legal().contains(&"act jab b".to_string()));
    assert_eq!(t.reject("act jab b").code, "invalid-target");
}

// ---------------------------------------------------------------------------------------------
// Attack modifiers
// ---------------------------------------------------------------------------------------------

/// A PC with POW 2, FIN 0, Brawling 3 (+3) and Dueling 1 (+1), against an NPC `b` at `b_at`.
fn brawler(options: &str, b_at: &str) -> T {
    game(
        &format!(
            "{options}{}{}",
            who(
                "k",
                "pcs",
                "0,0",
                "attributes = { pow = 2 }\ntraining = { brawling = 3, dueling = 1 }\nabilities = [\"sock-em\", \"precision-slash\"]"
            ),
            who("b", "npcs", b_at, "")
        ),
        &[6, 6, 1, 1],
        &[],
    )
}

#[test]
fn thr_r94_an_attack_rolls_2d6_plus_the_modifier_of_its_art() {
    for (act, modifier) in [("act precision-slash b", 1), ("act sock-em b option slow", 3)] {
        let mut t = brawler("", "1,0");
        t.dice(&[2, 3, 1, 1]);
        t.cmd(act);
        t.cmd("defend resilience");
        let (a, _, _) = contest(&t.last);
        let a = a.unwrap();
        assert_eq!(faces(&a), vec![2, 3], "{act}");
        assert_eq!((a.modifier, a.total), (modifier, 5 + modifier), "{act}");
    }
}

#[test]
fn thr_r95_a_basic_attack_uses_the_highest_art_modifier() {
    let mut t = brawler("", "2,0");
    t.dice(&[2, 3, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    let (a, _, _) = contest(&t.last);
    assert_eq!(a.unwrap().modifier, 3); // Brawling +3, not Dueling +1
}

/// An untrained PC `u` makes a Basic Attack.
fn untrained(options: &str) -> i16 {
    let mut t = game(
        &format!("{options}{}{}", who("u", "pcs", "0,0", ""), who("b", "npcs", "2,0", "")),
        &[6, 6, 1, 1],
        &[],
    );
    t.dice(&[2, 3, 1, 1]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    contest(&t.last).0.unwrap().modifier
}

#[test]
fn thr_r95_a_character_with_no_trained_art_attacks_at_0() {
    assert_eq!(untrained(""), 0);
}

#[test]
fn thr_r95_option_untrained_attack_modifier() {
    assert_eq!(untrained(&opts("untrained-attack-modifier = 1")), 1);
}

// ---------------------------------------------------------------------------------------------
// Defence choices
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r96_thr_r99_the_target_always_defends_and_picks_before_the_roll() {
    let mut t = duel("");
    t.dice(&[4, 4, 3, 3]);
    t.cmd("act jab b");
    // THR-R96: the target is asked to defend.
    assert_eq!(t.pending(), ("defence", "b".to_string()));
    // THR-R99: nothing has been rolled yet.
    assert_eq!(t.dice.0.borrow().len(), 4);
    assert!(!t.last.iter().any(|e| matches!(e, Event::Contest { .. })));
    t.cmd("defend resilience");
    t.assert_dice_used();
    let chosen = t
        .last
        .iter()
        .position(|e| matches!(e, Event::DefenceChosen { .. }))
        .unwrap();
    let rolled = t.last.iter().position(|e| matches!(e, Event::Contest { .. })).unwrap();
    assert!(chosen < rolled);
}

#[test]
fn thr_r97_against_a_physical_attack_resilience_or_evasion() {
    let mut t = duel("");
    t.cmd("act jab b");
    assert_eq!(t.legal(), vec!["defend resilience", "defend evasion"]);
    assert_eq!(t.reject("defend resolve").code, "bad-pick");
    assert_eq!(t.reject("defend decline").code, "bad-pick");
}

#[test]
fn thr_r98_against_a_mental_attack_resolve_or_evasion() {
    let mut t = duel("");
    t.cmd("act taunt b");
    assert_eq!(t.legal(), vec!["defend resolve", "defend evasion"]);
    assert_eq!(t.reject("defend resilience").code, "bad-pick");
    assert_eq!(t.reject("defend decline").code, "bad-pick");
}

#[test]
fn thr_r100_against_a_special_attack_only_evasion_or_decline() {
    let mut t = duel("");
    t.cmd("act smite b");
    assert_eq!(t.legal(), vec!["defend evasion", "defend decline"]);
    assert_eq!(t.reject("defend resilience").code, "bad-pick");
    assert_eq!(t.reject("defend resolve").code, "bad-pick");
    // Declined: an automatic Success that cannot be a Critical, and nobody rolls.
    t.cmd("defend decline");
    t.assert_dice_used();
    let (a, d, v) = contest(&t.last);
    assert_eq!((a, d, v), (None, None, Verdict::AttackerSuccess));
    assert_eq!(t.ch("b").fatigue, 1);
}

#[test]
fn thr_r100_option_declined_defence_zero_rolls_and_may_critical() {
    let t = attack_with(
        &opts("declined-defence = \"defence-zero\""),
        "",
        "act smite b",
        "decline",
        &[3, 4],
    );
    let (a, d, v) = contest(&t.last);
    assert_eq!(a.unwrap().total, 10);
    assert_eq!(d, None);
    assert_eq!(v, Verdict::AttackerCritical); // 10 against 0
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r101_a_slowed_character_cannot_choose_evasion() {
    let mut t = duel("");
    t.cmd("gm status b slowed =1");
    t.dice(&[1, 1, 1, 1]);
    t.cmd("act jab b");
    // Resilience is the only defence left, so the engine picks it and rolls at once.
    t.assert_dice_used();
    assert!(
        t.log()
            .iter()
            .any(|l| l == "b defends with Resilience (taken for it: the only choice, b is Slowed, so no Evasion)"),
        "{:?}",
        t.log()
    );
    assert!(t.last.iter().any(|e| matches!(
        e,
        Event::Contest {
            with: fray_thrum::ability::Defence::Resilience,
            ..
        }
    )));
}

#[test]
fn thr_r101_a_defend_typed_after_the_defence_was_taken_for_it_says_what_happened() {
    let mut t = duel("");
    t.cmd("gm status b slowed =1");
    t.dice(&[1, 1, 1, 1]);
    t.cmd("act jab b");
    t.assert_dice_used();
    assert_eq!(t.pending(), ("stance", "a".into()));
    // The defence was the latest thing fray did by itself: `defend` says so (and changes nothing).
    let taken = "b's defence was already taken for it: Resilience, the only choice (b is Slowed, so no Evasion)";
    for typed in ["defend resilience", "defend evasion", "defend decline"] {
        let r = t.reject(typed);
        assert_eq!((r.code, r.reason.as_str()), ("not-now", taken), "{typed}");
    }
    // Once another command has been resolved it is no longer the latest thing: the usual refusal.
    t.cmd("gm status b slowed =0");
    let r = t.reject("defend resilience");
    assert_eq!(r.code, "not-now");
    assert!(!r.reason.contains("already taken"), "{}", r.reason);
    t.assert_replays();
}

#[test]
fn thr_r101_a_slowed_target_of_a_special_attack_can_only_decline() {
    let mut t = duel("");
    t.cmd("gm status b slowed =1");
    t.cmd("act smite b");
    assert!(
        t.log()
            .iter()
            .any(|l| l.starts_with("b defends with Decline (taken for it: the only choice, b is Slowed")),
        "{:?}",
        t.log()
    );
    assert_eq!(t.ch("b").fatigue, 1);
}

// ---------------------------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------------------------

#[test]
fn thr_r102_resilience_success_avoids_failure_takes_the_effect() {
    // 7 against 8: defended.
    let t = attack("resilience = 1", "act jab b", "resilience", &[2, 2, 4, 3]);
    assert_eq!(contest(&t.last).2, Verdict::DefenderSuccess);
    assert_eq!(t.ch("b").fatigue, 0);
    // 9 against 8: hit.
    let t = attack("resilience = 1", "act jab b", "resilience", &[3, 3, 4, 3]);
    assert_eq!(contest(&t.last).2, Verdict::AttackerSuccess);
    assert_eq!(t.ch("b").fatigue, 2);
    // A defender Critical (5 against 13) is a Success too; Resilience never gives Vulnerable.
    let t = attack("resilience = 1", "act jab b", "resilience", &[1, 1, 6, 6]);
    assert_eq!(contest(&t.last).2, Verdict::DefenderCritical);
    assert_eq!(t.ch("b").fatigue, 0);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
}

#[test]
fn thr_r102_resolve_success_avoids_failure_takes_the_effect() {
    let t = attack("resolve = 1", "act taunt b", "resolve", &[2, 2, 4, 3]);
    let (_, d, v) = contest(&t.last);
    assert_eq!((d.unwrap().modifier, v), (1, Verdict::DefenderSuccess));
    assert_eq!(t.ch("b").stress, 0);
    let t = attack("resolve = 1", "act taunt b", "resolve", &[3, 3, 4, 3]);
    assert_eq!(contest(&t.last).2, Verdict::AttackerSuccess);
    assert_eq!(t.ch("b").stress, 1);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
}

#[test]
fn thr_r103_evasion_gets_a_boon_unless_vulnerable() {
    let t = attack("evasion = 1", "act jab b", "evasion", &[1, 1, 6, 5, 1]);
    let d = contest(&t.last).1.unwrap();
    assert_eq!((faces(&d), d.net, d.total), (vec![6, 5, 1], 1, 12));
    // Vulnerable: no automatic Boon, two dice.
    let mut t = duel("evasion = 1");
    t.cmd("gm status b vulnerable =1");
    t.dice(&[1, 1, 6, 5]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    let d = contest(&t.last).1.unwrap();
    assert_eq!((faces(&d), d.net, d.total), (vec![6, 5], 0, 12));
}

#[test]
fn thr_r104_evasion_critical_avoids_with_no_status() {
    // 5 against 12 + 0.
    let t = attack("", "act jab b", "evasion", &[1, 1, 6, 6, 1]);
    assert_eq!(contest(&t.last).2, Verdict::DefenderCritical);
    assert_eq!(t.ch("b").fatigue, 0);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
}

#[test]
fn thr_r104_evasion_success_avoids_but_gains_vulnerable() {
    // 9 against 10.
    let t = attack("", "act jab b", "evasion", &[3, 3, 6, 4, 1]);
    assert_eq!(contest(&t.last).2, Verdict::DefenderSuccess);
    assert_eq!(t.ch("b").fatigue, 0);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 1);
}

#[test]
fn thr_r104_evasion_failure_takes_the_effect_and_gains_vulnerable() {
    // 11 against 9.
    let t = attack("", "act jab b", "evasion", &[4, 4, 5, 4, 1]);
    assert_eq!(contest(&t.last).2, Verdict::AttackerSuccess);
    assert_eq!(t.ch("b").fatigue, 2);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 1);
}

#[test]
fn thr_r105_the_effect_line_applies_hit_or_miss() {
    // THR-H14: a successful defence avoids only the Success and Critical lines.
    let miss = attack("", "act jab b", "resilience", &[1, 1, 6, 6]);
    assert!(!contest(&miss.last).2.hit());
    assert_eq!((miss.ch("b").mark, miss.ch("b").fatigue), (1, 0));
    let hit = attack("", "act jab b", "resilience", &[2, 2, 1, 2]);
    assert!(contest(&hit.last).2.hit());
    assert_eq!((hit.ch("b").mark, hit.ch("b").fatigue), (1, 2));
}

#[test]
fn thr_r105_option_effect_only_on_a_hit() {
    // THR-H14 alternative.
    let o = opts("effect-on-miss = false");
    let miss = attack_with(&o, "", "act jab b", "resilience", &[1, 1, 6, 6]);
    assert_eq!((miss.ch("b").mark, miss.ch("b").fatigue), (0, 0));
    let hit = attack_with(&o, "", "act jab b", "resilience", &[2, 2, 1, 2]);
    assert_eq!((hit.ch("b").mark, hit.ch("b").fatigue), (1, 2));
}

#[test]
fn thr_r106_the_success_line_applies_when_the_attack_beats_the_defence() {
    // 9 against 8 (beaten by 1): Success, 2 Fatigue, no Critical line.
    let t = attack("resilience = 1", "act jab b", "resilience", &[3, 3, 3, 4]);
    assert_eq!(contests(&t.last), vec![(9, Some(8), Verdict::AttackerSuccess)]);
    assert_eq!(t.ch("b").fatigue, 2);
    // 8 against 8 does not beat it (THR-H1).
    let t = attack("resilience = 1", "act jab b", "resilience", &[2, 3, 3, 4]);
    assert_eq!(contests(&t.last), vec![(8, Some(8), Verdict::DefenderSuccess)]);
    assert_eq!(t.ch("b").fatigue, 0);
}

#[test]
fn thr_r107_a_critical_applies_the_success_and_the_critical_line() {
    // 13 against 8: a margin of exactly 5 is a Critical: 2 + 1 Fatigue.
    let t = attack("resilience = 1", "act jab b", "resilience", &[5, 5, 4, 3]);
    assert_eq!(contests(&t.last), vec![(13, Some(8), Verdict::AttackerCritical)]);
    assert_eq!(t.ch("b").fatigue, 3);
    // 12 against 8: a margin of 4 is only a Success.
    let t = attack("resilience = 1", "act jab b", "resilience", &[4, 5, 4, 3]);
    assert_eq!(contests(&t.last), vec![(12, Some(8), Verdict::AttackerSuccess)]);
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn thr_r107_thr_r109_an_abilitys_own_critical_margin_is_the_attackers_only() {
    // keen-jab sets a Critical margin of 3. 9 against 6: the attacker's Critical (2 Fatigue).
    let t = attack("", "act keen-jab b", "resilience", &[3, 3, 3, 3]);
    assert_eq!(contests(&t.last), vec![(9, Some(6), Verdict::AttackerCritical)]);
    assert_eq!(t.ch("b").fatigue, 2);
    // 5 against 8: the defender wins by 3, short of the game's margin of 5: no defender
    // Critical (`ability-critical-margin = "attacker-only"`).
    let t = attack("", "act keen-jab b", "resilience", &[1, 1, 4, 4]);
    assert_eq!(contests(&t.last), vec![(5, Some(8), Verdict::DefenderSuccess)]);
}

#[test]
fn thr_r109_option_ability_critical_margin_both_sides() {
    let o = opts("ability-critical-margin = \"both-sides\"");
    let t = attack_with(&o, "", "act keen-jab b", "resilience", &[1, 1, 4, 4]);
    assert_eq!(contests(&t.last), vec![(5, Some(8), Verdict::DefenderCritical)]);
}

#[test]
fn thr_r107_a_critical_line_that_says_instead_replaces_the_success_line() {
    // The Biffer's Strike: Success 1 Fatigue; Critical 2 Fatigue instead (not 1 + 2).
    let t = attack("resilience = 1", "act biffer-strike b", "resilience", &[5, 5, 4, 3]);
    assert_eq!(contest(&t.last).2, Verdict::AttackerCritical);
    assert_eq!(t.ch("b").fatigue, 2);
    assert!(t.ch("b").has(Cond::Dazed)); // its Effect
}

#[test]
fn thr_r108_damage_without_a_number_is_1() {
    // nudge's lines are `fatigue = true` and `stress = true` ("deal Fatigue", "take Stress").
    let t = attack("", "act nudge b", "resilience", &[4, 4, 1, 1]);
    assert_eq!((t.ch("b").fatigue, t.ch("b").stress), (1, 1));
}

/// Sefa (FIN 2, REF 2, Dueling 3) holds Parry and Riposte next to a Biffer-like `n` (attack
/// +2, Resilience +1), who acts first and strikes her; she defends with Evasion and uses the
/// trigger.
fn parried(dice: &[u16]) -> T {
    let e = with_abilities(
        &MAP,
        &format!(
            "{}{}",
            who(
                "sefa",
                "pcs",
                "0,0",
                "attributes = { fin = 2, ref = 2 }\ntraining = { dueling = 3 }\nabilities = [\"precision-slash\", \"parry-and-riposte\"]"
            ),
            who(
                "n",
                "npcs",
                "1,0",
                "attack = 2\nresilience = 1\nabilities = [\"biffer-strike\"]"
            )
        ),
        ABILITIES,
    );
    let mut t = t_with(&e, &[1, 1, 6, 6]);
    t.cmds(&["end", "stance parry-and-riposte"]); // Round Zero: n, then Sefa
    begin(&mut t);
    t.cmd("act biffer-strike sefa");
    t.cmd("defend evasion");
    assert_eq!(t.pending(), ("trigger", "sefa".to_string()));
    t.dice(dice);
    t.cmd("trigger parry-and-riposte");
    t
}

#[test]
fn thr_r109_a_defender_critical_is_reported_to_the_defending_stance() {
    // 4 against [6, 6, (1)] + 2 + 3 = 17: a defender Critical, so Parry and Riposte stays up
    // and its riposte follows.
    let mut t = parried(&[1, 1, 6, 6, 1]);
    assert_eq!(contests(&t.last), vec![(4, Some(17), Verdict::DefenderCritical)]);
    let parry = t.s().setup.book.find("parry-and-riposte");
    assert_eq!(t.ch("sefa").stance, parry);
    assert_eq!(t.pending(), ("defence", "n".to_string()));
    t.dice(&[3, 3, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(9, Some(5), Verdict::AttackerSuccess)]);
    assert_eq!(t.ch("n").fatigue, 1);
}

#[test]
fn thr_r109_a_plain_defence_success_ends_that_stance() {
    // 8 against [3, 3, (1)] + 5 = 11: a Success but not a Critical.
    let t = parried(&[3, 3, 3, 3, 1]);
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(8, Some(11), Verdict::DefenderSuccess)]);
    assert_eq!(t.ch("sefa").stance, None);
    assert_eq!(t.ch("n").fatigue, 0);
}

// ---------------------------------------------------------------------------------------------
// Worked examples
// ---------------------------------------------------------------------------------------------

/// Korrin Vale (POW 2, END 2, Brawling 3: +3) next to a Biffer T0 (Resilience +1).
fn korrin_and_biffer() -> T {
    game(
        &format!(
            "{}{}",
            who(
                "korrin",
                "pcs",
                "0,1",
                "attributes = { pow = 2, end = 2 }\ntraining = { brawling = 3 }\nabilities = [\"sock-em\"]"
            ),
            who(
                "biffer",
                "npcs",
                "1,1",
                "attack = 2\nresilience = 1\nevasion = 0\nresolve = 0\nmax-fatigue-tolerance = 3\nmax-stress-tolerance = 1\nabilities = [\"biffer-strike\", \"shove\", \"stand-firm\"]"
            )
        ),
        &[6, 6, 1, 1],
        &[],
    )
}

#[test]
fn thr_r110_sock_em_12_against_7_is_a_critical_with_the_effect() {
    let mut t = korrin_and_biffer();
    t.dice(&[6, 3, 3, 3]);
    t.cmd("act sock-em biffer option slow");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(12, Some(7), Verdict::AttackerCritical)]);
    let b = t.ch("biffer");
    assert_eq!(b.fatigue, 3); // 2 + 1
    assert!(b.has(Cond::Stunned));
    assert_eq!(b.status(XStatus::Slowed), 1); // the Effect
}

#[test]
fn thr_r110_sock_em_7_against_12_applies_only_the_effect() {
    let mut t = korrin_and_biffer();
    t.dice(&[2, 2, 5, 6]);
    t.cmd("act sock-em biffer option shift dir e");
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(contests(&t.last), vec![(7, Some(12), Verdict::DefenderCritical)]);
    let b = t.ch("biffer");
    assert_eq!(b.fatigue, 0);
    assert!(!b.has(Cond::Stunned));
    assert_eq!(b.pos, Some(fray_space::Pos::new(2, 1))); // the Effect: shifted one square east
}

#[test]
fn thr_r111_two_boons_and_one_bane_keep_the_best_two_of_three() {
    // Evasion's Boon + Dodge's Boon + Dazed's Bane: 1 net Boon.
    let mut t = game(
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
            who("b", "npcs", "1,0", "")
        ),
        &[6, 6, 1, 1],
        &["end", "stance dodge"],
    );
    t.cmd("gm status b dazed on");
    t.dice(&[1, 1, 3, 4, 6]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    let d = contest(&t.last).1.unwrap();
    assert_eq!((faces(&d), d.net, d.total), (vec![3, 4, 6], 1, 10));
}

#[test]
fn thr_r111_one_net_bane_keeps_the_worst_two_of_three() {
    // Brace's Boon + Dazed's Bane + Frayed's Bane: 1 net Bane.
    let mut t = game(
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
            who("b", "npcs", "1,0", "")
        ),
        &[6, 6, 1, 1],
        &["end", "stance brace"],
    );
    t.cmd("gm status b dazed on");
    t.set("b", "stress", 3); // Stress Tolerance 2: Frayed
    t.dice(&[1, 1, 3, 4, 6]);
    t.cmd("act jab b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    let d = contest(&t.last).1.unwrap();
    assert_eq!((faces(&d), d.net, d.total), (vec![3, 4, 6], -1, 7));
}

#[test]
fn thr_r112_an_evasion_tie_is_a_plain_defender_success_with_vulnerable() {
    // [2, 3] + 3 = 8 against [4, 4, (1)] + 0 = 8.
    let t = attack("", "act jab b", "evasion", &[2, 3, 4, 4, 1]);
    assert_eq!(contests(&t.last), vec![(8, Some(8), Verdict::DefenderSuccess)]);
    assert_eq!(t.ch("b").fatigue, 0);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 1);
}

/// `a` makes a Basic Attack on `b`, who has The Quill, standing at `b_at`.
fn quill_defence(b_at: &str) -> Rolled {
    let mut t = game(
        &format!(
            "{}{}",
            who("a", "pcs", "0,0", &format!("attack = 3\n{KIT}")),
            who("b", "npcs", b_at, "traits = [\"quill\"]")
        ),
        &[6, 6, 1, 1],
        &[],
    );
    t.dice(&[1, 1, 3, 4]);
    t.cmd("act basic-attack b");
    t.cmd("defend resilience");
    t.assert_dice_used();
    contest(&t.last).1.unwrap()
}

#[test]
fn thr_r113_flat_bonuses_add_to_the_modifier_not_the_dice() {
    // The Quill: +1 on defence rolls against an attacker 3 or more squares away.
    let far = quill_defence("3,0");
    assert_eq!((faces(&far), far.net, far.modifier, far.total), (vec![3, 4], 0, 1, 8));
    let near = quill_defence("2,0");
    assert_eq!((faces(&near), near.modifier, near.total), (vec![3, 4], 0, 7));
}

/// `a` at 1,1 between two enemies (d at 0,1, e at 2,1) makes a Basic Attack (Ranged: a Bane
/// per adjacent enemy) on `b` at 4,1, who holds Dodge and defends with Evasion (a Boon from
/// each). Returns the attack and defence rolls.
fn stacked(options: &str, dice: &[u16]) -> (Rolled, Rolled) {
    let mut t = game(
        &format!(
            "{options}{}{}{}{}",
            who("a", "pcs", "1,1", &format!("attack = 3\n{KIT}")),
            who("b", "npcs", "4,1", ""),
            who("d", "npcs", "0,1", ""),
            who("e", "npcs", "2,1", "")
        ),
        &[6, 6, 1, 1, 1, 2, 2, 2],
        &["end", "end", "end", "stance dodge"],
    );
    t.cmd("act basic-attack b");
    t.dice(dice);
    t.cmd("defend evasion");
    t.assert_dice_used();
    let (a, d, _) = contest(&t.last);
    (a.unwrap(), d.unwrap())
}

#[test]
fn thr_r114_boons_and_banes_from_every_source_add_up() {
    let (a, d) = stacked("", &[6, 6, 2, 1, 1, 1, 5, 6]);
    assert_eq!((a.net, a.roll.faces.len(), a.total), (-2, 4, 6));
    assert_eq!((d.net, d.roll.faces.len(), d.total), (2, 4, 11));
}

#[test]
fn thr_r114_option_one_boon_and_one_bane_at_most() {
    let (a, d) = stacked(&opts("boon-stacking = \"one-each\""), &[6, 2, 1, 1, 5, 6]);
    assert_eq!((a.net, a.roll.faces.len(), a.total), (-1, 3, 6));
    assert_eq!((d.net, d.roll.faces.len(), d.total), (1, 3, 11));
}

/// The Damage events among events: (amount, of which Vulnerable).
fn damage(ev: &[Event]) -> Vec<(i16, i16)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Damage { amount, vulnerable, .. } => Some((*amount, *vulnerable)),
            _ => None,
        })
        .collect()
}

/// Index of the event that sets the defender's Vulnerable to `x`.
fn vulnerable_set(ev: &[Event], x: u8) -> Option<usize> {
    ev.iter()
        .position(|e| matches!(e, Event::Status { status: XStatus::Vulnerable, x: v, .. } if *v == x))
}

#[test]
fn thr_r227_not_vulnerable_evasion_failure_takes_2_then_gains_vulnerable_1() {
    // [1, 2] + 3 = 6 against [2, 2, (1)] = 4: an Evasion Failure against 2 Fatigue.
    let t = attack("", "act jab b", "evasion", &[1, 2, 2, 2, 1]);
    assert_eq!(contest(&t.last).2, Verdict::AttackerSuccess);
    assert_eq!(damage(&t.last), vec![(2, 0)]);
    let hurt = t.last.iter().position(|e| matches!(e, Event::Damage { .. })).unwrap();
    assert!(vulnerable_set(&t.last, 1).unwrap() > hurt);
    assert_eq!(t.ch("b").fatigue, 2);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 1);
}

#[test]
fn thr_r227_at_vulnerable_2_evasion_failure_takes_4_then_restarts_at_vulnerable_1() {
    let mut t = duel("");
    t.cmd("gm status b vulnerable =2");
    // No automatic Boon: [1, 2] + 3 = 6 against [2, 2] = 4.
    t.dice(&[1, 2, 2, 2]);
    t.cmd("act jab b");
    t.cmd("defend evasion");
    t.assert_dice_used();
    assert_eq!(contest(&t.last).1.unwrap().net, 0);
    assert_eq!(damage(&t.last), vec![(4, 2)]);
    assert!(vulnerable_set(&t.last, 0).unwrap() < vulnerable_set(&t.last, 1).unwrap());
    assert_eq!(t.ch("b").fatigue, 4);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 1);
}

#[test]
fn thr_r227_option_vulnerable_before_the_lines_raises_that_attacks_damage() {
    let o = opts("vulnerable-after-lines = false");
    let t = attack_with(&o, "", "act jab b", "evasion", &[1, 2, 2, 2, 1]);
    assert_eq!(damage(&t.last), vec![(3, 1)]);
    assert_eq!(t.ch("b").fatigue, 3);
    assert_eq!(t.ch("b").status(XStatus::Vulnerable), 0);
}

#[test]
fn ties_go_to_the_defender_by_default() {
    // THR-H1: 8 against 8 with Resilience: the attack fails.
    let t = attack("resilience = 1", "act jab b", "resilience", &[2, 3, 3, 4]);
    assert_eq!(contests(&t.last), vec![(8, Some(8), Verdict::DefenderSuccess)]);
    assert_eq!((t.ch("b").fatigue, t.ch("b").mark), (0, 1));
}

#[test]
fn ties_option_reroll_rolls_both_sides_again() {
    // THR-H1 alternative: 8 against 8, then 9 against 8.
    let o = opts("tie-rule = \"reroll\"");
    let t = attack_with(
        &o,
        "resilience = 1",
        "act jab b",
        "resilience",
        &[2, 3, 3, 4, 3, 3, 3, 4],
    );
    assert_eq!(
        contests(&t.last),
        vec![
            (8, Some(8), Verdict::DefenderSuccess),
            (9, Some(8), Verdict::AttackerSuccess)
        ]
    );
    assert_eq!(t.ch("b").fatigue, 2);
}

#[test]
fn multi_target_option_shared_rolls_one_attack_for_every_target() {
    // THR-H13 alternative (the default, one roll per target, is in the THR-R92 test).
    let mut t = game(&crowd(&opts("multi-target = \"shared\"")), &CROWD_INIT, &[]);
    t.cmd("act volley b,d");
    t.cmd("defend resilience");
    t.dice(&[5, 4, 1, 1, 2, 2]);
    t.cmd("defend resilience");
    t.assert_dice_used();
    assert_eq!(
        contests(&t.last),
        vec![
            (12, Some(2), Verdict::AttackerCritical),
            (12, Some(4), Verdict::AttackerCritical)
        ]
    );
    assert_eq!((t.ch("b").fatigue, t.ch("d").fatigue), (1, 1));
}

#[test]
fn thr_r108_true_is_accepted_only_as_a_fatigue_or_stress_amount() {
    let f = fray_engine::diag::SourceFile {
        name: "x.toml".into(),
        text: "[[ability]]\nid = \"zap\"\ntype = \"action\"\ntarget = \"enemy\"\nrange = true\nsuccess = [{ fatigue = false }, { status = \"slowed\", x = true }]\n".into(),
    };
    let mut book = fray_thrum::ability::AbilityBook::default();
    let errs = fray_thrum::ability::load_abilities(&f, &mut book, &mut Vec::new()).unwrap_err();
    let lines: Vec<usize> = errs.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![5, 6, 6], "{errs:?}");
}
