//! Regression tests for the fixes after the review of the Murdham rules: each names the rule it
//! checks (`mur_r49_...`, or `// MUR-R49`), builds a tiny encounter, scripts the dice and types
//! commands as the seat asked would, through the test kit's `Table`.
//!
//! Unless a test says otherwise: zones `a` (2 cover spots) – `b` – `c` – `d` in a line, and
//! `wall` (a barrier with 2 spots) off `c`; side `pcs` (seat 1, a player side) holds the
//! initiative against side `foes` (seat 2), and the initiative faction opens every round by
//! itself; everyone is a medium human with STR, AGI and WIT 10 and no gear. A `stool` is an
//! improvised (fragile) d4 weapon, a `bomb` a direct d6 blast of range 2, a `shell` an indirect
//! d6 blast of range 2.

use fray_engine::Seat;
use fray_engine::text::{LogLine, TextGame, TextRuleset};
use fray_murdham::Murdham;
use fray_murdham::codes;
use fray_murdham::setup::Cid;
use fray_murdham::state::{Char, Event, Status};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);
const GM: Seat = Seat::GM;

/// The encounter with the characters in `rest`.
fn enc(rest: &str) -> String {
    format!(
        r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]
[options]
opener = "initiative"
[[zone]]
id = "a"
links = ["b"]
cover = 2
[[zone]]
id = "b"
links = ["c"]
[[zone]]
id = "c"
links = ["d", "wall"]
[[zone]]
id = "d"
[[zone]]
id = "wall"
cover = 2
tags = ["barrier"]
[item.stool]
name = "stool"
damage = 4
keywords = ["fragile"]
[item.bomb]
name = "bomb"
damage = 6
range = 2
keywords = ["blast"]
[item.shell]
name = "shell"
damage = 6
range = 2
keywords = ["blast", "indirect"]
[[side]]
id = "pcs"
[[side]]
id = "foes"
{rest}"#
    )
}

/// A character: STR, AGI and WIT 10 unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let stats: String = ["str", "agi", "wit"]
        .iter()
        .filter(|k| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|k| format!("{k} = 10\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

/// A table on these characters, with no dice for the start.
fn table(chars: &[String]) -> Table<Murdham> {
    Table::<Murdham>::load(&enc(&chars.concat()), &[], &[])
}

fn id(t: &Table<Murdham>, name: &str) -> Cid {
    t.state().find(name).unwrap_or_else(|| panic!("no character {name}"))
}

fn ch<'a>(t: &'a Table<Murdham>, name: &str) -> &'a Char {
    t.state().ch(id(t, name))
}

fn name(t: &Table<Murdham>, c: Cid) -> String {
    t.state().ch(c).id.clone()
}

/// Whether `who` still has an item with this id.
fn has(t: &Table<Murdham>, who: &str, item: &str) -> bool {
    ch(t, who).live_items().any(|(_, it)| it.id == item)
}

/// The kind of the pending decision and whose it is.
fn asked(t: &Table<Murdham>) -> (String, Option<String>) {
    let p = t.game.pending().expect("a decision");
    (p.kind().to_string(), p.actor().map(|c| name(t, c)))
}

/// The damage each character took in the last command (after armour), in order.
fn damage(t: &Table<Murdham>) -> Vec<(String, i32)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { who, amount, .. } => Some((name(t, *who), *amount)),
            _ => None,
        })
        .collect()
}

/// The saves of the last command: who, the d20, passed.
fn saves(t: &Table<Murdham>) -> Vec<(String, u16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Save { who, roll, pass, .. } => Some((name(t, *who), *roll, *pass)),
            _ => None,
        })
        .collect()
}

/// Every log line of the game so far, described against the current state.
fn history(t: &Table<Murdham>) -> Vec<String> {
    t.all_events()
        .iter()
        .filter_map(|e| Murdham::describe_event(t.state(), e))
        .collect()
}

/// The log of the whole game as `seat` is shown it.
fn seat_log(t: &Table<Murdham>, seat: Seat) -> Vec<LogLine> {
    TextGame::<Murdham>::log_of_record(t.game.record(), seat).expect("the record replays")
}

/// The text lines of a seat's log.
fn texts(log: &[LogLine]) -> Vec<String> {
    log.iter().filter_map(|l| l.text.clone()).collect()
}

// ---------------------------------------------------------------------------------------------
// MUR-R49: a weapon that breaks mid-sweep

#[test]
fn mur_r49_a_stool_breaking_in_a_sweep_at_two_goblins_finishes_the_sweep_and_spares_the_flask() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"stool\"]\ncarry = [\"acid\"]"),
        who("gob", "foes", "a", "size = \"small\""),
        who("nib", "foes", "a", "size = \"small\""),
    ]);
    t.cmds(&["act ash", "attack a sweep"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("gob".to_string())));
    // The stool's d4 shows 1: half of it (rounded up) is 1 for each goblin, and the stool
    // breaks, but only once the sweep is over.
    t.dice(&[1]).cmd("take");
    assert_eq!(damage(&t), [("gob".to_string(), 1)]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("nib".to_string())));
    t.cmd("take");
    assert_eq!(damage(&t), [("nib".to_string(), 1)]);
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert!(!has(&t, "ash", "stool"), "the stool broke");
    assert!(has(&t, "ash", "acid"), "the flask is untouched");
    assert!(
        !history(&t).iter().any(|l| l.contains("is used up")),
        "{:?}",
        history(&t)
    );
    // The flask still works: the turn goes on and the next round it is thrown.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "attack gob with acid", "decline"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("gob".to_string(), 3)]);
    assert!(!has(&t, "ash", "acid"));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-H24: a thrown flask that misses

#[test]
fn mur_h24_a_thrown_flask_that_fails_its_wit_save_to_hit_is_used_up_all_the_same() {
    let mut t = table(&[who("ash", "pcs", "a", "carry = [\"acid\"]"), who("bo", "foes", "c", "")]);
    t.cmd("act ash");
    // Range 2 is beyond half range (1): a WIT save, and 15 misses.
    t.dice(&[15]).cmd("attack bo with acid");
    assert_eq!(saves(&t), [("ash".to_string(), 15, false)]);
    assert_eq!(ch(&t, "bo").health, 10);
    assert!(!has(&t, "ash", "acid"), "the flask is spent");
    assert!(
        t.log().iter().any(|l| l == "ash's acid flask is used up"),
        "{:?}",
        t.log()
    );
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    t.reject("attack bo with acid");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R60, MUR-R25: dodge blows against opportunity attacks

#[test]
fn mur_r60_r25_dodge_blows_dodges_one_opportunity_attack_for_free_not_a_second_one_that_round() {
    let mut t = table(&[
        who("ash", "pcs", "a", "skills = [\"dodge-blows\"]"),
        who("bo", "foes", "a", "wield = [\"martial-hand\"]"),
        who("dee", "foes", "a", "wield = [\"martial-hand\"]"),
    ]);
    t.cmds(&["act ash", "move b"]);
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    t.cmd("opportunity");
    // MUR-R60: the round's free dodge covers an opportunity attack too.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("ash".to_string())));
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "ash dodges (a free reaction)");
    // dee strikes too: the free dodge is spent, and a mover cannot otherwise react (MUR-R25):
    // no question, the sword lands.
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("dee".to_string())));
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(damage(&t), [("ash".to_string(), 3)]);
    assert_eq!(
        ch(&t, "ash").at,
        fray_murdham::place::Place::parse("b", &t.state().setup.zones).expect("a place")
    );
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R24: a guard's shield

#[test]
fn mur_r24_a_guard_without_protect_holding_a_shield_gets_its_plus_1_against_the_attack_it_guards() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", "wield = [\"shield\"]"),
    ]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    // Not free (no protect): the guard is dee's reaction, and the blow lands on it; its shield
    // takes 1 off the sword's 3.
    t.dice(&[3]).cmd("guard");
    assert_eq!(damage(&t), [("dee".to_string(), 2)]);
    assert_eq!((ch(&t, "bo").health, ch(&t, "dee").health), (10, 8));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// Dying and healing (the health section)

/// ash with a sword; bo at 3 health; dee (brave, so no morale check comes up) far away.
fn dying() -> Table<Murdham> {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", "health = 3"),
        who("dee", "foes", "d", "skills = [\"bravery\"]"),
    ]);
    t.cmds(&["act ash", "attack bo"]);
    // 5 is more than bo's 3 but less than its STR: dying, not dead.
    t.dice(&[5]).cmd("take");
    assert_eq!(ch(&t, "bo").status, Status::Dying { rounds: 1 });
    t
}

#[test]
fn dying_a_dying_character_hit_again_keeps_its_countdown_and_dies_at_the_end_of_the_next_round() {
    let mut t = dying();
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(ch(&t, "bo").status, Status::Dying { rounds: 0 });
    // Round 2: bo is struck again (defenceless: it is not asked how to react); the countdown
    // does not start over.
    t.cmd("act ash");
    t.dice(&[2]).cmd("attack bo");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    assert_eq!(ch(&t, "bo").status, Status::Dying { rounds: 0 });
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 3);
    assert_eq!(ch(&t, "bo").status, Status::Dead);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn dying_healing_a_dying_character_by_1_saves_it_and_health_never_goes_below_0() {
    let mut t = dying();
    assert_eq!(ch(&t, "bo").health, 0);
    assert!(t.log().iter().any(|l| l.contains("health 0")), "{:?}", t.log());
    // Healed by 1: saved (still incapacitated), with a d6 for the injury: 1 is a scar.
    t.dice(&[1]).cmd("gm heal bo 1");
    assert_eq!(ch(&t, "bo").health, 1);
    assert_eq!(ch(&t, "bo").status, Status::Incapacitated);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(ch(&t, "bo").status, Status::Incapacitated);
    assert!(history(&t).iter().all(|l| !l.contains("health -")), "{:?}", history(&t));
    t.assert_dice_used();
    t.assert_replays();
}

/// ash with a sword and cy nearby; bo incapacitated (critical damage) beside a guard, dee.
fn defenceless(options: &str) -> Table<Murdham> {
    let chars = [
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("cy", "pcs", "a", ""),
        who(
            "bo",
            "foes",
            "a",
            "skills = [\"bravery\"]\nwield = [\"martial-hand\", \"shield\"]",
        ),
        who("dee", "foes", "a", "skills = [\"bravery\", \"protect\"]"),
    ]
    .concat();
    let toml = enc(&chars).replace(
        "opener = \"initiative\"",
        &format!("opener = \"initiative\"\n{options}"),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo", "decline"]);
    // 6, 4: 9 damage of bo's 10 is critical.
    t.dice(&[6, 4]).cmd("take");
    assert_eq!(ch(&t, "bo").status, Status::Incapacitated);
    t.cmds(&["end", "pass", "pass"]);
    assert_eq!(t.state().round, 2);
    t
}

#[test]
fn mur_health_a_defenceless_target_cannot_react_and_its_damage_is_rolled_as_for_anyone() {
    // Round 1 is over; in round 2 bo has a turn to spend, but it is incapacitated: defenceless.
    let mut t = defenceless("");
    assert!(!t.legal().contains(&"act bo".to_string()), "{:?}", t.legal());
    t.cmd("act ash");
    // Guarding is open to dee (protect), not reacting to bo: dee declines and the attack lands
    // with no question to bo, one damage die, no shield (bo does not react).
    t.cmd("attack bo");
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    t.dice(&[1]).cmd("decline");
    assert_eq!(damage(&t), [("bo".to_string(), 1)]);
    assert_eq!(ch(&t, "bo").health, 0);
    assert!(matches!(ch(&t, "bo").status, Status::Dying { .. }));
    t.assert_dice_used();
    t.assert_replays();
    // Dying is defenceless too: not asked, and it cannot stand in for anyone.
    t.cmds(&["end", "act dee", "attack cy with unarmed"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("cy".to_string())));
    t.expect_rejection(PCS, "hide-behind bo", codes::BAD_TARGET);

    // fray 0.1.0's ruling, kept as an option: the damage is enhanced (the better of 1 and 3).
    let mut t = defenceless("defenceless-enhanced = true");
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1, 3]).cmd("decline");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// MUR-R40, MUR-R8: losing a turn in the ambush

/// cut, concealed, ambushes ash and cy (with `cut` extra keys).
fn ambush(cut: &str) -> Table<Murdham> {
    let t = table(&[
        who("ash", "pcs", "a", ""),
        who("cy", "pcs", "a", ""),
        who("cut", "foes", "b", &format!("concealed = true\n{cut}")),
    ]);
    assert_eq!(t.state().round, 0);
    t
}

/// After the ambush, ash has lost its round-1 turn and has it back in round 2.
fn ash_lost_round_1(t: &mut Table<Murdham>) {
    t.cmd("end");
    assert_eq!(t.state().round, 1);
    t.expect_rejection(PCS, "act ash", codes::CANNOT_ACT);
    t.cmds(&["act cy", "end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    assert_eq!(asked(t), ("turn".to_string(), Some("ash".to_string())));
}

#[test]
fn mur_r40_r8_a_character_distracted_in_the_ambush_loses_its_round_1_turn() {
    let mut t = ambush("");
    t.cmd("act cut");
    t.dice(&[15]).cmd("distract ash");
    assert_eq!(
        t.log().last().map(String::as_str),
        Some("ash will lose its turn in round 1")
    );
    ash_lost_round_1(&mut t);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_a_character_stunned_in_the_ambush_loses_its_round_1_turn() {
    // By a stunning blast: flash powder on b (range 1, within half range: no save to hit);
    // ash, surprised, makes its STR save against the stun and fails (15); cy passes (5).
    let mut t = ambush("carry = [\"flash-powder\"]");
    t.cmd("act cut");
    t.dice(&[15, 5]).cmd("attack a with flash-powder");
    assert_eq!(saves(&t), [("ash".to_string(), 15, false), ("cy".to_string(), 5, true)]);
    ash_lost_round_1(&mut t);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r40_a_character_the_gm_stuns_in_the_ambush_loses_its_round_1_turn() {
    let mut t = ambush("");
    t.cmds(&["act cut", "gm stun ash"]);
    ash_lost_round_1(&mut t);
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R57: what the other seat is shown of a concealed character

/// Whether a log line names character `c` (whose id is `name`) in its text or its event's
/// JSON: by id anywhere, or by index under a field that holds a character.
fn names(line: &LogLine, c: Cid, name: &str) -> bool {
    fn has_cid(v: &serde_json::Value, c: Cid, name: &str, key: Option<&str>) -> bool {
        match v {
            serde_json::Value::Object(m) => m.iter().any(|(k, x)| has_cid(x, c, name, Some(k))),
            serde_json::Value::Array(a) => a.iter().any(|x| has_cid(x, c, name, key)),
            serde_json::Value::String(s) => s == name,
            serde_json::Value::Number(n) => {
                n.as_u64() == Some(u64::from(c)) && key.is_some_and(|k| ["who", "by", "next", "target"].contains(&k))
            }
            _ => false,
        }
    }
    line.text.as_deref().is_some_and(|t| t.contains(name)) || has_cid(&line.json, c, name, None)
}

#[test]
fn mur_r57_an_opportunity_attack_a_concealed_foe_may_make_is_kept_from_the_movers_seat() {
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "d", ""),
        who("cut", "foes", "a", "concealed = true\nwield = [\"martial-hand\"]"),
    ]);
    let cut = id(&t, "cut");
    // cut lets the ambush go by; in round 1 ash steps away from it.
    t.cmd("pass");
    assert_eq!(t.state().round, 1);
    t.cmds(&["act ash", "move b"]);
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("cut".to_string())));
    let frames = |seat: Seat| -> usize {
        let v = serde_json::to_value(fray_murdham::view::view(t.state(), seat)).expect("a view");
        v["frames"].as_array().map_or(0, Vec::len)
    };
    assert_eq!((frames(PCS), frames(GM)), (0, 1));
    t.cmd("decline");
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert!(ch(&t, "cut").concealed);
    let pcs = seat_log(&t, PCS);
    assert!(
        pcs.iter().all(|l| !names(l, cut, "cut")),
        "{:?}",
        pcs.iter().filter(|l| names(l, cut, "cut")).collect::<Vec<_>>()
    );
    // The GM's log does show it (so the check above can fail).
    assert!(seat_log(&t, GM).iter().any(|l| names(l, cut, "cut")));
    // Nor is there a trace of a question: the pcs' log of the step (events included) is the
    // same as with nobody in `a`.
    let mut alone = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "d", "")]);
    alone.cmds(&["act ash", "move b"]);
    let step = |log: Vec<LogLine>| -> Vec<(Option<String>, serde_json::Value)> {
        let from = log
            .iter()
            .position(|l| l.text.as_deref() == Some("ash's turn"))
            .expect("ash's turn");
        log[from..].iter().map(|l| (l.text.clone(), l.json.clone())).collect()
    };
    assert_eq!(step(seat_log(&t, PCS)), step(seat_log(&alone, PCS)));
    t.assert_replays();
}

#[test]
fn mur_r57_a_morale_save_shows_the_other_seat_only_the_members_it_sees() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", "str = 4"),
        who("dee", "foes", "a", "str = 4"),
        who("kit", "foes", "d", ""),
        who("cut", "foes", "d", "concealed = true"),
    ]);
    let cut = id(&t, "cut");
    t.cmd("pass");
    // ash kills bo (4 on STR 4), and dee in round 2: two of four lost.
    t.cmds(&["act ash", "attack bo", "decline"]);
    t.dice(&[4]).cmd("take");
    assert_eq!(ch(&t, "bo").status, Status::Dead);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["act ash", "attack dee"]);
    t.dice(&[4]).cmd("take");
    assert_eq!(ch(&t, "dee").status, Status::Dead);
    t.cmd("end");
    // The foes pass: the round ends with their group save (5 passes for kit and cut).
    t.dice(&[5]).cmd("pass");
    let group = |log: &[LogLine]| -> Vec<String> {
        texts(log)
            .into_iter()
            .filter(|l| l.starts_with("Group WIT save"))
            .collect()
    };
    assert_eq!(
        group(&seat_log(&t, GM)),
        ["Group WIT save for morale: d20 5: kit 10 passes, cut 10 passes"]
    );
    assert_eq!(group(&seat_log(&t, FOES)), group(&seat_log(&t, GM)));
    assert_eq!(
        group(&seat_log(&t, PCS)),
        ["Group WIT save for morale: d20 5: kit 10 passes"]
    );
    let pcs = seat_log(&t, PCS);
    assert!(
        pcs.iter().all(|l| !names(l, cut, "cut")),
        "{:?}",
        pcs.iter().filter(|l| names(l, cut, "cut")).collect::<Vec<_>>()
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r57_a_draught_cannot_be_used_on_an_enemy_the_seat_cannot_see() {
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"healing-draught\", \"healing-draught\"]"),
        who("bo", "foes", "d", ""),
        who("cut", "foes", "a", "concealed = true\nhealth = 5"),
    ]);
    t.cmds(&["pass", "act ash"]);
    t.expect_rejection(PCS, "use healing-draught cut", codes::BAD_TARGET);
    // Once the GM reveals cut, the same command is accepted.
    t.cmd("gm conceal cut off");
    t.dice(&[2]).cmd("use healing-draught cut");
    assert_eq!(ch(&t, "cut").health, 7);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-H7, MUR-H6: GM rulings for one attack

#[test]
fn mur_h7_gm_penetrate_lets_one_attack_through_cover_not_the_next() {
    let mut t = table(&[
        who("ash", "pcs", "b", "wield = [\"missile-hand\"]"),
        who("bo", "foes", "a", "cover = true"),
    ]);
    t.cmds(&["act ash", "gm penetrate ash", "attack bo"]);
    // Range 1, within half range: no save. Through the cover: all 3.
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    // The next shot meets the cover: 3 - 1.
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_h7_gm_penetrate_spent_on_a_counter_does_not_carry_over_to_the_next_attack() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(&[
        who("ash", "pcs", "a", &format!("{sling}\ncover = true")),
        who("bo", "foes", "b", sling),
    ]);
    t.cmds(&["act ash", "gm penetrate bo", "attack bo"]);
    // ash's 1 and bo's 3 through ash's cover: ash suffers more and is hit first.
    t.dice(&[1, 3]).cmd("counter");
    assert_eq!(damage(&t), [("ash".to_string(), 3), ("bo".to_string(), 1)]);
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    // bo's next shot meets the cover: 3 - 1.
    t.cmds(&["pass", "act bo", "attack ash"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(damage(&t), [("ash".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_h6_gm_hinder_asks_a_save_of_one_attack_only() {
    let sword = "wield = [\"martial-hand\"]";
    // A plain attack: one save, none the next round.
    let mut t = table(&[who("ash", "pcs", "a", sword), who("bo", "foes", "a", "")]);
    t.cmds(&["act ash", "gm hinder ash"]);
    t.dice(&[5]).cmd("attack bo");
    assert_eq!(saves(&t), [("ash".to_string(), 5, true)]);
    t.dice(&[1]).cmd("take");
    t.cmds(&["end", "pass"]);
    t.cmd("act ash");
    t.cmd("attack bo");
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    // A sweep cannot miss (MUR-R30): the ruling is spent on it all the same, and the next
    // attack needs no save.
    let mut t = table(&[
        who("ash", "pcs", "a", sword),
        who("gob", "foes", "a", "size = \"small\""),
    ]);
    t.cmds(&["act ash", "gm hinder ash", "attack a sweep"]);
    assert_eq!(saves(&t), []);
    t.dice(&[2]).cmd("take");
    t.cmds(&["end", "pass"]);
    t.cmds(&["act ash", "attack gob"]);
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    // A counter is an attack back (MUR-R21): the hindered counter makes the save, and the
    // counterer's own attack next round needs none.
    let mut t = table(&[who("ash", "pcs", "a", sword), who("bo", "foes", "a", sword)]);
    t.cmds(&["act ash", "gm hinder bo", "attack bo"]);
    // bo's save to hit (5 passes), then ash's 1 and bo's 2: ash suffers more, is hit first.
    t.dice(&[5, 1, 2]).cmd("counter");
    assert_eq!(saves(&t), [("bo".to_string(), 5, true)]);
    t.cmds(&["end"]);
    assert_eq!(t.state().round, 2);
    t.cmds(&["pass", "act bo", "attack ash"]);
    assert_eq!(saves(&t), []);
    t.dice(&[1]).cmd("take");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R36: holding on

/// ash holds bo in `a` (bo failed its save), round 2, ash's turn.
fn holding() -> Table<Murdham> {
    let mut t = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")]);
    t.cmds(&["act ash", "grapple bo"]);
    t.dice(&[20]).cmd("take");
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    // bo, held, may still spend its turn breaking free: it passes.
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    t
}

#[test]
fn mur_r36_a_grabber_who_runs_or_takes_cover_keeps_hold() {
    let mut t = holding();
    t.cmd("cover");
    assert!(ch(&t, "ash").cover);
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    let mut t = holding();
    t.cmd("run");
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    // It drags bo along.
    t.cmds(&["move b", "move c"]);
    assert_eq!(ch(&t, "bo").at, ch(&t, "ash").at);
    assert_eq!(ch(&t, "bo").grabbed_by, Some(id(&t, "ash")));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R29, MUR-R31: a blast is aimed at a zone

#[test]
fn mur_r29_r31_a_blast_aimed_at_a_border_is_refused() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"bomb\"]"),
        who("bo", "foes", "b|c", ""),
    ]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack b|c with bomb", codes::BAD_TARGET);
    t.expect_rejection(PCS, "attack a|b with bomb", codes::BAD_TARGET);
    // The zone itself is a target (and the borders of b are hit with it).
    t.cmd("attack b with bomb");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[2]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 2)]);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R48: ended by the GM

#[test]
fn mur_r48_a_fight_the_gm_ends_still_makes_the_durability_rolls() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
    ]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    // The sword attacked: its d4 shows 1, damaging it.
    t.dice(&[1]).cmd("gm end pcs");
    let rolls: Vec<(String, Option<u8>, u16, u16)> = t
        .last
        .iter()
        .filter_map(|e| match e {
            Event::Durability { who, item, roll, sides } => Some((name(&t, *who), *item, *roll, *sides)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, [("ash".to_string(), Some(0), 1, 4)]);
    assert!(ch(&t, "ash").items[0].damaged);
    let outcome = t.state().outcome.as_ref().expect("the fight is over");
    assert_eq!((outcome.winner, outcome.reason.as_str()), (Some(0), "gm-ended"));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// MUR-R28: blasts and barriers

/// ash with `weapon` in `b`; in `wall` (two zones off) `hid` behind the barrier and `out` in
/// the open.
fn barrier(weapon: &str) -> Table<Murdham> {
    let mut t = table(&[
        who("ash", "pcs", "b", &format!("wield = [\"{weapon}\"]")),
        who("hid", "foes", "wall", "cover = true"),
        who("out", "foes", "wall", ""),
    ]);
    t.cmd("act ash");
    t
}

#[test]
fn mur_r28_r15_a_direct_blast_does_not_reach_behind_a_barrier_an_indirect_one_fires_over_it() {
    // Direct: range 2, beyond half range, a save (5 passes); only `out` is hit.
    let mut t = barrier("bomb");
    t.dice(&[5]).cmd("attack wall with bomb");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("out".to_string())));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("out".to_string(), 4)]);
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    assert_eq!(ch(&t, "hid").health, 10);
    t.assert_dice_used();
    t.assert_replays();
    // Indirect: over the barrier, which gives `hid` no cover against it (MUR-R15).
    let mut t = barrier("shell");
    t.dice(&[5]).cmd("attack wall with shell");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("hid".to_string())));
    t.dice(&[4]).cmd("take");
    assert_eq!(damage(&t), [("hid".to_string(), 4)]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("out".to_string())));
    t.cmd("take");
    assert_eq!(damage(&t), [("out".to_string(), 4)]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r15_an_indirect_attack_fires_over_the_cover_its_target_holds() {
    // ash two zones off `a`, where `hid` holds a cover spot and `out` stands in the open.
    let shot = |weapon: &str, options: &str| {
        let chars = [
            who("ash", "pcs", "c", &format!("wield = [\"{weapon}\"]")),
            who("hid", "foes", "a", "cover = true"),
            who("out", "foes", "a", ""),
        ]
        .concat();
        let toml = enc(&chars).replace(
            "opener = \"initiative\"",
            &format!("opener = \"initiative\"\n{options}"),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        t.cmd("act ash");
        // Range 2, beyond half range: a save (5 passes); both are hit by the one roll of 4.
        t.dice(&[5]).cmd(&format!("attack a with {weapon}"));
        t.dice(&[4]).cmd("take");
        t.cmd("take");
        t.assert_dice_used();
        t.assert_replays();
        (ch(&t, "hid").health, ch(&t, "out").health)
    };
    // A direct blast: the cover takes 1 off.
    assert_eq!(shot("bomb", ""), (7, 6));
    // An indirect one comes down over it.
    assert_eq!(shot("shell", ""), (6, 6));
    // fray 0.1.0's reading: the cover counts against it too.
    assert_eq!(shot("shell", "indirect-over-cover = false"), (7, 6));
}

// ---------------------------------------------------------------------------------------------
// MUR-R42: a surprise attack resolves before the attacker is revealed

#[test]
fn mur_r42_a_surprise_attack_resolves_first_then_the_attacker_is_revealed() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cut", "foes", "b", "concealed = true\nwield = [\"martial-hand\"]"),
    ];
    let mut t = table(&chars);
    // The ambush bonus turn: cut steps onto the border unseen (its AGI save of 10 passes with
    // a 4) and strikes ash.
    t.cmd("act cut");
    t.dice(&[4]).cmd("move a|b sneak");
    t.dice(&[3]).cmd("attack ash");
    let attack = [
        "cut attacks ash with sword (unseen: no reaction)",
        "cut rolls damage: 3 = 3",
        "ash takes 3 damage: health 7/10",
        "cut is revealed (the border of a and b)",
    ];
    assert_eq!(t.log(), attack);
    // The pcs' seat is shown the attack as it happens, and where cut is only once it is
    // revealed: nothing of its turn or its sneaking step before.
    let pcs = texts(&seat_log(&t, PCS));
    let at = pcs.iter().position(|l| l == attack[0]).expect("the attack is shown");
    assert_eq!(pcs[at..], attack);
    assert!(pcs[..at].iter().all(|l| !l.contains("cut")), "{pcs:?}");
    t.assert_dice_used();
    t.assert_replays();

    // fray 0.1.0's order: revealed as it declares.
    let mut t = Table::<Murdham>::load(
        &enc(&chars.concat()).replace(
            "opener = \"initiative\"",
            "opener = \"initiative\"\nreveal-after-surprise = false",
        ),
        &[],
        &[],
    );
    t.cmd("act cut");
    t.dice(&[4]).cmd("move a|b sneak");
    t.dice(&[3]).cmd("attack ash");
    assert_eq!(t.log()[0], "cut is revealed (the border of a and b)");
    assert_eq!(t.log()[1], attack[0]);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// Injuries (the health section): the conditions injuries 4 to 6 leave

/// A table on these characters with these lines added to `[options]`.
fn table_with(options: &str, chars: &[String]) -> Table<Murdham> {
    let toml = enc(&chars.concat()).replace(
        "opener = \"initiative\"",
        &format!("opener = \"initiative\"\n{options}"),
    );
    Table::<Murdham>::load(&toml, &[], &[])
}

/// ash (a sword) hits bo (a sword and a shield in hand, 3 health) for 5: dying; cy and fay stand by,
/// and dee (brave, as bo is: no morale comes up) far off.
fn dying_bo(options: &str) -> Table<Murdham> {
    let mut t = table_with(
        options,
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
            who("cy", "pcs", "a", ""),
            who("fay", "pcs", "a", ""),
            who(
                "bo",
                "foes",
                "a",
                "health = 3\nskills = [\"bravery\"]\nwield = [\"martial-hand\", \"shield\"]",
            ),
            who("dee", "foes", "d", "skills = [\"bravery\"]"),
        ],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("take");
    assert!(matches!(ch(&t, "bo").status, Status::Dying { .. }));
    t
}

/// The turn under way ends, the foes pass, and `by` strikes the saved bo (1 health) for 2 with
/// bare hands: dying again; then the GM heals it by 1, with these injury dice.
fn hurt_and_save_bo(t: &mut Table<Murdham>, by: &str, injury: &[u16]) -> Vec<String> {
    t.cmds(&["end", "pass", &format!("act {by}")]);
    // Bare hands are impaired: the lower of 2 and 2.
    t.dice(&[2, 2]).cmd("attack bo with unarmed");
    assert!(matches!(ch(t, "bo").status, Status::Dying { .. }));
    t.dice(injury).type_as(GM, "gm heal bo 1");
    t.log()
}

#[test]
fn mur_health_injury_4_lowers_agi_and_leaves_the_character_hobbled_until_a_full_rest() {
    let mut t = dying_bo("");
    // Healed by 1: saved; the injury d6 4 lowers AGI by the d4 (2) and leaves bo hobbled.
    t.dice(&[4, 2]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 4): AGI 2 lower, and hobbled (half movement) until a full rest"
    );
    let bo = ch(&t, "bo");
    assert!(bo.injuries.hobbled);
    assert_eq!(bo.stats.abilities[1], 8);
    // The tracker, the seats' views and what lasts into the next fight show it.
    assert!(
        Murdham::tracker(t.state(), PCS)
            .lines()
            .any(|l| l.contains("bo (foes)") && l.contains(" hobbled"))
    );
    let view = serde_json::to_value(<Murdham as fray_engine::Ruleset>::view(t.state(), PCS)).expect("a view");
    let bo_view = view["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .find(|c| c["id"] == "bo");
    assert_eq!(
        bo_view.expect("bo is seen")["injuries"]["hobbled"],
        serde_json::json!(true)
    );
    let lasting = Murdham::lasting(t.state());
    let bo = lasting.iter().find(|l| l.id == "bo").expect("bo lasts");
    assert!(
        bo.values.contains(&("injuries".into(), "[\"hobbled\"]".into())),
        "{:?}",
        bo.values
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_health_a_hobbled_character_moves_half_a_zone_a_turn_and_a_zone_when_it_runs() {
    let mut t = table(&[
        who("ash", "pcs", "a", "injuries = [\"hobbled\"]"),
        who("bo", "foes", "d", ""),
    ]);
    t.cmd("act ash");
    assert!(
        Murdham::describe_pending(t.state(), &t.game.pending().expect("a turn")).contains("1 half zone of movement")
    );
    // A whole turn's move is half a zone: onto the border, not across into b.
    t.expect_rejection(PCS, "move b", codes::BAD_MOVE);
    t.cmd("move a|b");
    t.expect_rejection(PCS, "move b", codes::BAD_MOVE);
    // Full movement adds half of what it adds to anyone: half a zone more.
    t.cmd("run");
    t.cmd("move b");
    assert_eq!(ch(&t, "ash").at.word(&t.state().setup.zones), "b");
    t.expect_rejection(PCS, "move b|c", codes::BAD_MOVE);
    t.cmds(&["end", "pass"]);
    // A turn where nothing has happened yet is whole, for what takes the whole turn.
    t.cmd("act ash");
    t.cmd("surrender");
    assert_eq!(ch(&t, "ash").status, Status::Surrendered);
    t.assert_dice_used();
}

#[test]
fn mur_health_injury_5_leaves_an_arm_of_no_use_a_d2_picks_it_then_the_other() {
    let mut t = dying_bo("");
    // d6 5, d2 2: the main arm. The sword it held stays carried, out of its hand.
    t.dice(&[5, 2]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 5, d2 2): its main arm is of no use until a full rest"
    );
    assert_eq!(ch(&t, "bo").injuries.arms, [true, false]);
    assert_eq!(in_hands(&t, "bo"), ["shield"]);
    assert!(has(&t, "bo", "martial-hand"));
    // The second arm injury takes the other arm, with no d2; a third adds nothing.
    let log = hurt_and_save_bo(&mut t, "cy", &[5]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved but injured (d6 5): its other arm is of no use until a full rest")
    );
    assert_eq!(ch(&t, "bo").injuries.arms, [true, true]);
    assert_eq!(in_hands(&t, "bo"), Vec::<String>::new());
    let log = hurt_and_save_bo(&mut t, "fay", &[5]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved; the injury (d6 5) adds nothing to what it has")
    );
    t.assert_dice_used();
    t.assert_replays();
}

/// The items in `who`'s hands, by id, each once.
fn in_hands(t: &Table<Murdham>, who: &str) -> Vec<String> {
    let c = ch(t, who);
    let mut v: Vec<String> = Vec::new();
    for i in c.hands.iter().flatten() {
        let id = c.items[*i as usize].id.clone();
        if !v.contains(&id) {
            v.push(id);
        }
    }
    v
}

#[test]
fn mur_health_an_injured_arm_holds_nothing_and_what_it_held_goes_to_the_other_hand() {
    // An earlier fight's injury: the sword is held in the other hand (impaired, MUR-R17).
    let mut t = table(&[
        who(
            "ash",
            "pcs",
            "a",
            "injuries = [\"main-arm\"]\nwield = [\"martial-hand\"]\ncarry = [\"shield\", \"acid\"]",
        ),
        who("bo", "foes", "a", ""),
    ]);
    assert_eq!(ch(&t, "ash").hands, [None, Some(0)]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "equip shield", codes::HANDS_FULL);
    t.expect_rejection(PCS, "grapple bo with unarmed", codes::HANDS_FULL);
    // The sword in the other hand: impaired, the lower of 3 and 5.
    t.cmd("attack bo");
    t.dice(&[3, 5]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    // With both arms of no use it holds nothing, throws nothing and drinks nothing.
    let mut t = table(&[
        who(
            "ash",
            "pcs",
            "a",
            "injuries = [\"main-arm\", \"other-arm\"]\nwield = [\"martial-hand\"]\ncarry = [\"acid\", \"healing-draught\"]",
        ),
        who("bo", "foes", "a", ""),
    ]);
    assert_eq!(ch(&t, "ash").hands, [None, None]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo with acid", codes::HANDS_FULL);
    t.expect_rejection(PCS, "use healing-draught", codes::HANDS_FULL);
    t.expect_rejection(PCS, "equip martial-hand off", codes::HANDS_FULL);
    t.assert_dice_used();
}

#[test]
fn mur_health_injury_6_costs_an_eye_halving_ranged_reach_and_a_second_blinds() {
    let mut t = dying_bo("");
    t.dice(&[6]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 6): an eye lost (ranged attacks and powers at half range) until a full rest"
    );
    assert_eq!(ch(&t, "bo").injuries.eyes, 1);
    let log = hurt_and_save_bo(&mut t, "cy", &[6]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved but injured (d6 6): blind until a full rest")
    );
    assert!(ch(&t, "bo").injuries.blind());
    t.assert_dice_used();
    t.assert_replays();

    // One eye: the bow reaches 4 (half its 8), and needs a save beyond 2.
    let archer = |injury: &str| {
        let mut t = table(&[
            who(
                "ash",
                "pcs",
                "a",
                &format!("injuries = [\"{injury}\"]\nwield = [\"missile-great\"]"),
            ),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "d", ""),
        ]);
        t.cmd("act ash");
        t
    };
    let mut t = archer("eye");
    // dee is at range 3: within 4, beyond 2: a WIT save (4 passes).
    t.dice(&[4]).cmd("attack dee");
    assert_eq!(saves(&t), [("ash".to_string(), 4, true)]);
    t.assert_dice_used();
    // Blind: no ranged attack at all; a blow at a nearby bo needs a WIT save; it sees nobody.
    let mut t = archer("blind");
    t.expect_rejection(PCS, "attack dee", codes::CONDITION);
    t.dice(&[4]).cmd("attack bo with unarmed");
    assert_eq!(saves(&t), [("ash".to_string(), 4, true)]);
    t.assert_dice_used();
    let mut t = archer("blind");
    t.expect_rejection(PCS, "taunt bo", codes::BAD_TARGET);
}

#[test]
fn mur_health_injuries_leave_nothing_but_their_ability_loss_with_injury_effects_off() {
    // fray 0.1.0's reading: no d2, no condition.
    let mut t = dying_bo("injury-effects = false");
    t.dice(&[5]).type_as(GM, "gm heal bo 1");
    assert_eq!(t.log()[2], "bo is saved; the injury (d6 5) leaves nothing fray tracks");
    assert!(ch(&t, "bo").injuries.none());
    t.assert_dice_used();
    let mut t = dying_bo("injury-effects = false");
    t.dice(&[4, 1]).type_as(GM, "gm heal bo 1");
    assert!(!ch(&t, "bo").injuries.hobbled);
    assert_eq!(ch(&t, "bo").stats.abilities[1], 9);
    t.assert_dice_used();
}

// ---------------------------------------------------------------------------------------------
// The GM's ruling on the next hit on a character

/// The damage rolls of the last command: every roll's faces, and the level (1 enhanced).
fn rolls(t: &Table<Murdham>) -> Vec<(Vec<Vec<u16>>, i8)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::DamageRoll { rolls, level, .. } => Some((rolls.clone(), *level)),
            _ => None,
        })
        .collect()
}

#[test]
fn gm_enhance_and_impair_rule_the_next_hit_on_a_character() {
    let chars = [
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("cy", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(&chars);
    // Oil-soaked bo: ruled while ash's attack waits (dee is asked whether to guard), it counts
    // for that attack: the better of 2 and 5.
    t.cmds(&["act ash", "attack bo"]);
    t.type_as(GM, "gm enhance bo");
    assert!(
        Murdham::tracker(t.state(), GM)
            .lines()
            .any(|l| l.starts_with("  bo ") && l.contains(" next-hit-enhanced"))
    );
    t.cmd("decline");
    t.dice(&[15, 2, 5]).cmd("dodge");
    assert_eq!(rolls(&t), [(vec![vec![2], vec![5]], 1)]);
    assert_eq!(damage(&t), [("bo".to_string(), 5)]);
    // It was for that one hit.
    assert_eq!(ch(&t, "bo").next_hit, 0);
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!(rolls(&t), [(vec![vec![3]], 0)]);
    t.assert_dice_used();
    t.assert_replays();

    // A dodged attack rolls no damage and leaves the ruling waiting; an enhancement and an
    // impairment cancel; two impairments leave no damage.
    let mut t = table(&chars);
    t.type_as(GM, "gm impair dee");
    t.cmds(&["act ash", "attack dee", "decline"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(ch(&t, "dee").next_hit, -1);
    t.type_as(GM, "gm enhance dee");
    assert_eq!(ch(&t, "dee").next_hit, 0);
    t.type_as(GM, "gm impair dee");
    t.type_as(GM, "gm impair dee");
    assert_eq!(ch(&t, "dee").next_hit, -2);
    t.cmds(&["end", "pass", "act cy", "attack dee"]);
    t.cmd("decline");
    assert_eq!(damage(&t), [("dee".to_string(), 0)]);
    assert_eq!(ch(&t, "dee").next_hit, 0);
    t.expect_rejection(GM, "gm enhance nobody", fray_engine::Reject::UNKNOWN_COMMAND);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn gm_enhance_gives_its_target_a_roll_of_its_own_in_a_blast_rolled_once() {
    // Fire on oil-soaked bo: ash's flask hits bo and dee in b; bo's share is its own roll,
    // enhanced (the better of 1 and 4), dee's the blast's one roll (3), which dee2 shares.
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"alchemists-fire\"]"),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
        who("dee2", "foes", "b", ""),
    ]);
    t.type_as(GM, "gm enhance bo");
    t.cmd("act ash");
    t.cmd("attack b with alchemists-fire");
    t.dice(&[1, 4]).cmd("take");
    t.dice(&[3]).cmd("take");
    t.cmd("take");
    let all: Vec<(String, i32)> = ["bo", "dee", "dee2"]
        .iter()
        .map(|x| (x.to_string(), ch(&t, x).health))
        .collect();
    assert_eq!(
        all,
        [("bo".to_string(), 6), ("dee".to_string(), 7), ("dee2".to_string(), 7)]
    );
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// The log: a flask of no damage, GM rulings, a wrong answer

#[test]
fn a_flask_that_deals_no_damage_rolls_and_logs_no_damage() {
    // Flash powder into b: it stuns, and deals no damage, so bo and dee each get the STR save
    // against the stun and nothing else: no damage roll, no "takes no damage".
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"flash-powder\"]"),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
    ]);
    t.cmds(&["act ash", "attack b with flash-powder"]);
    t.dice(&[15]).cmd("take");
    t.dice(&[5]).cmd("take");
    assert!(
        !t.all_events().iter().any(|e| matches!(e, Event::DamageRoll { .. })),
        "{:?}",
        t.all_events()
    );
    let log = texts(&seat_log(&t, GM));
    let from = log
        .iter()
        .position(|l| l == "ash attacks b with flash powder")
        .expect("the attack");
    assert_eq!(
        log[from..],
        [
            "ash attacks b with flash powder",
            "bo rolls 15 on a STR save of 10 to shake off the effect: fails",
            "bo loses its turn this round",
            "dee rolls 5 on a STR save of 10 to shake off the effect: passes",
            "ash's flash powder is used up",
        ]
    );
    // A weapon that deals damage still logs a hit of none (impaired twice), with its reason.
    let mut t = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")]);
    t.type_as(GM, "gm impair bo");
    t.type_as(GM, "gm impair bo");
    t.cmds(&["act ash", "attack bo"]);
    t.cmd("take");
    let log = texts(&seat_log(&t, GM));
    assert!(
        log.iter().any(|l| l == "ash's damage is impaired twice: none"),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l == "bo takes no damage: health 10/10"), "{log:?}");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn gm_rulings_log_what_they_changed() {
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
    ]);
    let ruled = |t: &mut Table<Murdham>, r: &str| {
        t.type_as(GM, r);
        t.log()
    };
    let cases = [
        ("gm poison bo on", "bo is poisoned: 1 damage at each round's end"),
        ("gm poison bo off", "bo is cured of poison"),
        ("gm hinder bo", "bo's next attack needs a WIT save to hit"),
        ("gm penetrate ash", "ash's next attack goes through cover"),
        (
            "gm overwhelm ash",
            "ash's next distract, intimidate or taunt allows no save",
        ),
        ("gm set bo health -2", "bo's health is 8/10"),
        ("gm set ash str -1", "ash's STR is 9 (maximum health 9)"),
        ("gm frighten bo ash", "bo is frightened of ash"),
        ("gm calm bo", "bo is no longer frightened"),
        ("gm stun dee", "dee is stunned: it loses its turn this round"),
        ("gm enhance dee", "the next hit on dee deals enhanced damage"),
        (
            "gm impair dee",
            "the next hit on dee deals its damage as rolled (the rulings cancel)",
        ),
        ("gm conceal ash on", "ash is concealed: its enemies lose sight of it"),
        ("gm conceal ash off", "ash is revealed (a)"),
        ("gm move bo c", "bo is put at c"),
        ("gm remove dee", "dee leaves the fight"),
    ];
    for (r, what) in cases {
        assert_eq!(ruled(&mut t, r), [format!("Ruling: {r}: {what}")], "{r}");
    }
    assert_eq!(
        ruled(&mut t, "gm end pcs"),
        ["Ruling: gm end pcs", "The combat ends: pcs win (gm-ended)"]
    );
    t.assert_replays();
}

#[test]
fn a_command_of_the_wrong_kind_is_refused_with_the_decision_asked() {
    let mut t = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")]);
    // The faction is asked whom to give the turn.
    let r = t.expect_rejection(PCS, "dodge", codes::NOT_NOW);
    assert!(r.reason.contains("pcs: act <id> or pass"), "{}", r.reason);
    // A turn: a reaction is no command for it.
    t.cmd("act ash");
    let r = t.expect_rejection(PCS, "take", codes::NOT_NOW);
    assert!(r.reason.contains("ash's turn at a"), "{}", r.reason);
    // bo is asked how to react: "end" is no reaction, and the reason lists the reactions open.
    t.cmd("attack bo");
    let r = t.expect_rejection(FOES, "end", codes::NOT_NOW);
    assert_eq!(
        r.reason,
        "that does not answer what is asked now: bo is attacked by ash: take, dodge, counter [with <item>]"
    );
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// The prompt and typed names

#[test]
fn the_prompt_hides_harm_aimed_at_allies_and_choices_all_keeps_it() {
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"healing-draught\"]"),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
    ]);
    t.cmd("act ash");
    let legal = t.legal();
    let hides = |t: &Table<Murdham>, c: &str| {
        let c = t.parse(c).expect("a command");
        Murdham::prompt_hides(t.state(), &c)
    };
    // Legal all the same (`choices all` lists them), but left out of the prompt's list.
    for c in [
        "attack cy",
        "taunt cy",
        "distract cy",
        "intimidate cy",
        "use healing-draught bo",
    ] {
        assert!(legal.iter().any(|l| l == c), "{c} is legal: {legal:?}");
        assert!(hides(&t, c), "{c} is hidden");
    }
    for c in [
        "attack bo",
        "taunt bo",
        "use healing-draught cy",
        "use healing-draught",
        "end",
    ] {
        assert!(legal.iter().any(|l| l == c), "{c} is legal: {legal:?}");
        assert!(!hides(&t, c), "{c} is shown");
    }
    // A sweep of a zone holding no smaller enemy hits nobody it is meant for; bo in b is.
    let mut g = table(&[
        who("ash", "pcs", "a", "size = \"large\"\nwield = [\"martial-hand\"]"),
        who("cy", "pcs", "a", "size = \"small\""),
        who("bo", "foes", "b", ""),
    ]);
    g.cmd("act ash");
    assert!(g.legal().iter().any(|l| l == "attack a sweep"), "{:?}", g.legal());
    assert!(hides(&g, "attack a sweep"));
    g.cmds(&["move b"]);
    assert!(!hides(&g, "attack b sweep"), "{:?}", g.legal());
    // A reaction is never hidden.
    t.cmd("attack bo");
    assert!(t.legal().iter().all(|c| !hides(&t, c)), "{:?}", t.legal());
}

#[test]
fn a_mistyped_character_item_place_or_faction_gets_a_did_you_mean() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "b", ""),
        who("sly", "foes", "d", ""),
    ]);
    let why = |t: &Table<Murdham>, c: &str| t.parse(c).expect_err("unreadable").reason;
    assert_eq!(why(&t, "act ahs"), "no character 'ahs' (did you mean 'ash'?)");
    assert_eq!(why(&t, "open pc"), "no faction 'pc' (did you mean 'pcs'?)");
    t.cmd("act ash");
    assert_eq!(
        why(&t, "attack boo"),
        "'boo' is neither a character nor a place (did you mean 'bo'?)"
    );
    assert_eq!(
        why(&t, "move bb"),
        "unknown zone 'bb' (did you mean 'b'?); the zones are: a, b, c, d, wall"
    );
    assert_eq!(
        why(&t, "attack bo with martial-hnd"),
        "ash has no item 'martial-hnd' (did you mean 'martial-hand'?) (it has: martial-hand)"
    );
    // A concealed character is never offered: the parse does not know who is typing.
    assert_eq!(
        why(&t, "attack sli"),
        "'sli' is neither a character nor a place (did you mean 'sly'?)"
    );
    t.type_as(GM, "gm conceal sly on");
    assert_eq!(why(&t, "attack sli"), "'sli' is neither a character nor a place");
    assert_eq!(why(&t, "gm stun sli"), "no character 'sli'");
}

#[test]
fn the_shared_view_shows_places_health_and_flags_but_not_where_a_concealed_enemy_is_or_that_it_decides() {
    use fray_engine::Ruleset;
    use fray_engine::view::Place;
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "b", "concealed = true"),
        who("cy", "foes", "c", ""),
    ]);
    t.cmd("gm set cy health -2");
    t.cmd("gm poison cy on");
    let s = t.state();
    let gm = Murdham::seat_view(s, GM);
    assert_eq!(gm.ruleset, "murdham");
    let ids: Vec<&str> = gm.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "bo", "cy"]);
    assert_eq!(gm.order, ["pcs", "foes"]);
    let cy = &gm.combatants[2];
    assert_eq!((cy.side.as_str(), cy.seat.as_str()), ("foes", "foes"));
    assert_eq!(cy.place, Some(Place::Zone { zone: "c".into() }));
    let health = cy.gauges.iter().find(|g| g.name == "health").expect("health");
    assert_eq!(health.max.map(|m| m - health.value), Some(2));
    assert!(cy.statuses.iter().any(|x| x.name == "poisoned"));
    let bo = &gm.combatants[1];
    assert_eq!(bo.place, Some(Place::Zone { zone: "b".into() }));
    assert!(bo.statuses.iter().any(|x| x.name == "concealed"));
    // MUR-R57: the pcs' seat is not shown that bo is in the fight at all.
    let pv = Murdham::seat_view(s, PCS);
    let ids: Vec<&str> = pv.combatants.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ash", "cy"]);
    let mut others = Vec::new();
    Murdham::indistinguishable(s, PCS, &mut others);
    assert!(!others.is_empty());
    for other in &others {
        assert_eq!(Murdham::seat_view(other, PCS), pv);
    }
    // Nor, on bo's own turn, who is deciding or where it stands.
    t.cmd("act bo");
    let s = t.state();
    let pv = Murdham::seat_view(s, PCS);
    let d = pv.deciding.as_ref().expect("a decision");
    assert_eq!(d.actor, None);
    assert!(!d.text.contains("bo"), "{}", d.text);
    let gm = Murdham::seat_view(s, GM);
    assert!(
        gm.deciding
            .is_some_and(|d| d.actor.as_deref() == Some("bo") && d.text.contains("bo's turn"))
    );
    let mut others = Vec::new();
    Murdham::indistinguishable(s, PCS, &mut others);
    for other in &others {
        assert_eq!(Murdham::seat_view(other, PCS), pv);
    }
    // A character on a border stands on both zones'.
    t.type_as(GM, "gm move cy b|c");
    let cy = &Murdham::seat_view(t.state(), PCS).combatants[1];
    assert_eq!(
        cy.place,
        Some(Place::Border {
            zones: ["b".into(), "c".into()]
        })
    );
}
