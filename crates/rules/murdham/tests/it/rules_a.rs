//! Rule tests for the round, turns, reactions, attacks and protection of the checklist, and the
//! free reactions of other chapters:
//! Tiny encounters, scripted dice, commands typed as a player would, through the test kit's `Table`. Each test names the rules it checks
//! (`mur_r12_...`, or `// MUR-R12`).
//!
//! Unless a test says otherwise: zones `a` (1 cover spot) – `b` – `c` – `d` – `e` – `f` – `g` –
//! `h` in a line, then `dk` (dark), `brush` (concealment) and `wall` (a barrier with 1 spot),
//! each off `h`; side `pcs` (seat 1) holds the initiative against side `foes` (seat 2), and the
//! initiative faction always opens (`opener = "initiative"`). Every character is medium, STR,
//! AGI and WIT 10, unarmoured, with a sword (d6) in hand. A `flail` is a melee d6 blast, a
//! `dart` a d4 missile of range 2, and `bolt` a d6 profane power of range 4.

use fray_engine::{Reject, Seat};
use fray_murdham::Murdham;
use fray_murdham::codes;
use fray_murdham::state::{Event, Status};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);

/// Only the initiative faction opens, so no `open` question comes up.
const PLAIN: &str = "opener = \"initiative\"";

fn enc(options: &str, rest: &str) -> String {
    // b to g, each linked to the next.
    let line: String = ["b", "c", "d", "e", "f", "g", "h"]
        .windows(2)
        .map(|w| format!("[[zone]]\nid = \"{}\"\nlinks = [\"{}\"]\n", w[0], w[1]))
        .collect();
    format!(
        r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]
[options]
{options}
[[zone]]
id = "a"
links = ["b"]
cover = 1
{line}[[zone]]
id = "h"
links = ["dk", "brush", "wall"]
[[zone]]
id = "dk"
tags = ["dark"]
[[zone]]
id = "brush"
tags = ["concealment"]
[[zone]]
id = "wall"
cover = 1
tags = ["barrier"]
[item.flail]
name = "flail"
damage = 6
keywords = ["blast"]
[item.dart]
name = "dart"
damage = 4
range = 2
[power.bolt]
name = "bolt"
damage = 6
range = 4
[[side]]
id = "pcs"
[[side]]
id = "foes"
{rest}"#
    )
}

/// A character with the defaults above, unless `extra` sets a key.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let defaults = [
        ("str", "10"),
        ("agi", "10"),
        ("wit", "10"),
        ("wield", r#"["martial-hand"]"#),
    ];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

/// A table on `enc(options, characters)` with these first dice.
fn table(options: &str, chars: &[String], dice: &[u16]) -> Table<Murdham> {
    Table::<Murdham>::load(&enc(options, &chars.concat()), &[], dice)
}

fn id(t: &Table<Murdham>, name: &str) -> u16 {
    t.state().find(name).expect("a character of the encounter")
}

fn health(t: &Table<Murdham>, name: &str) -> i32 {
    t.state().ch(id(t, name)).health
}

fn status(t: &Table<Murdham>, name: &str) -> Status {
    t.state().ch(id(t, name)).status
}

/// The kind of decision asked now, and of whom.
fn asked(t: &Table<Murdham>) -> (String, Option<String>) {
    let p = t.game.pending().expect("a decision");
    let s = t.state();
    (p.kind().to_string(), p.actor().map(|c| s.ch(c).id.clone()))
}

/// Every log line since the start, described against the current state.
fn history(t: &Table<Murdham>) -> Vec<String> {
    use fray_engine::text::TextRuleset;
    t.all_events()
        .iter()
        .filter_map(|e| Murdham::describe_event(t.state(), e))
        .collect()
}

fn first_seat(t: &Table<Murdham>) -> Seat {
    t.game.pending().expect("a decision").first()
}

fn saves(t: &Table<Murdham>) -> usize {
    t.last.iter().filter(|e| matches!(e, Event::Save { .. })).count()
}

fn damage_rolls(t: &Table<Murdham>) -> usize {
    t.last.iter().filter(|e| matches!(e, Event::DamageRoll { .. })).count()
}

// ---------------------------------------------------------------- round structure

#[test]
fn mur_r1_r2_r3_r4_factions_alternate_one_turn_each_and_the_round_ends_after_passes_in_a_row() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "h", ""),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    // MUR-R1: the pcs' opportunity: one of theirs takes a turn (or they pass).
    assert_eq!(asked(&t), ("faction".to_string(), None));
    assert_eq!(first_seat(&t), PCS);
    t.expect_rejection(FOES, "act bo", Reject::NOT_YOUR_DECISION);
    t.cmds(&["act ash", "end"]);
    // Then the foes' opportunity.
    assert_eq!(first_seat(&t), FOES);
    t.expect_rejection(PCS, "act cy", Reject::NOT_YOUR_DECISION);
    t.cmd("pass");
    assert_eq!(t.log(), ["foes pass"]);
    // MUR-R2: ash has had its turn this round.
    t.expect_rejection(PCS, "act ash", codes::CANNOT_ACT);
    t.cmds(&["act cy", "end"]);
    // MUR-R3: the foes passed, but the pcs acted since: the foes may act again.
    t.cmd("act bo");
    assert_eq!(t.log(), ["bo's turn"]);
    // MUR-R4: nobody of the pcs can act, so they pass by themselves.
    t.cmd("end");
    assert_eq!(t.log(), ["pcs pass"]);
    assert_eq!((first_seat(&t), t.state().round), (FOES, 1));
    // MUR-R3: the foes pass too: every faction has passed in a row, and dee never acted.
    t.cmd("pass");
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "dee's turn"));
    assert_eq!(asked(&t), ("faction".to_string(), None));
    t.assert_replays();
}

#[test]
fn mur_r5_morale_is_checked_only_at_the_end_of_the_round() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", "str = 4"),
            who("dee", "foes", "h", "wit = 5"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    // 5 damage on STR 4 kills: the foes are down to half, but nobody checks yet.
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Dead);
    assert!(!t.last.iter().any(|e| matches!(e, Event::GroupSave { .. })));
    t.cmd("end");
    assert!(!t.last.iter().any(|e| matches!(e, Event::GroupSave { .. })));
    // MUR-R5: dee passes, the pcs have nobody left to act: the round ends with morale.
    t.dice(&[8]).cmd("pass");
    assert_eq!(
        t.log(),
        [
            "foes pass",
            "pcs pass",
            "Group WIT save for morale: d20 8: dee 5 fails",
            "Morale breaks for dee: surrender or retreat"
        ]
    );
    assert_eq!(asked(&t), ("morale".to_string(), Some("dee".to_string())));
    // dee runs; the pcs are left alone, and the sword that struck makes its durability roll.
    t.dice(&[3]).cmd("retreat");
    assert!(t.state().outcome.is_some());
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r6_a_die_picks_the_initiative_faction_which_says_who_opens_each_round() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "h", "")].concat())
        .replace("initiative = \"pcs\"\n", "");
    // Two factions: a d2, and 2 is the second faction.
    let mut t = Table::<Murdham>::load(&toml, &[], &[2]);
    assert_eq!(t.log(), ["Initiative die 2: foes hold the initiative", "Round 1"]);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("open", FOES));
    t.expect_rejection(PCS, "open pcs", Reject::NOT_YOUR_DECISION);
    t.cmd("open pcs");
    assert_eq!(t.log(), ["pcs act first"]);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("faction", PCS));
    t.cmds(&["act ash", "end", "act bo", "end"]);
    // Round 2: the foes choose again.
    assert_eq!(t.state().round, 2);
    assert_eq!((asked(&t).0.as_str(), first_seat(&t)), ("open", FOES));
    t.cmd("open foes");
    assert_eq!(first_seat(&t), FOES);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- taking a turn

#[test]
fn mur_r7_a_turn_has_a_bonus_action_a_main_action_and_one_zone_of_movement_in_any_order() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "b", "")], &[]);
    t.cmd("act ash");
    // Half the move, a bonus action, the other half, then the main action.
    t.cmds(&["move a|b", "say", "move b", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(health(&t, "bo"), 8);
    t.expect_rejection(PCS, "move a|b", codes::BAD_MOVE); // the zone of movement is spent
    t.expect_rejection(PCS, "say", codes::NO_ACTION); // both action slots are spent
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    // A second bonus action instead of the main action.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "say", "say"]);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    // At most one main action.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[1]).cmd("take");
    t.expect_rejection(PCS, "run", codes::NO_ACTION);
    t.cmd("say"); // the bonus action is still there
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r8_full_movement_is_a_main_action_for_two_zones_in_all() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "h", "")], &[]);
    t.cmds(&["act ash", "run", "move b", "move c"]);
    assert_eq!(t.log(), ["ash moves to c"]);
    t.expect_rejection(PCS, "move c|d", codes::BAD_MOVE);
    t.expect_rejection(PCS, "attack bo with unarmed", codes::NO_ACTION);
    t.assert_replays();
}

#[test]
fn mur_r8_distract_intimidate_and_taunt_work_on_a_failed_wit_save() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
    ];
    // Distract: bo rolls 15 against WIT 10 and loses its next turn.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("distract bo");
    assert_eq!(
        t.log(),
        [
            "ash tries to distract bo",
            "bo rolls 15 on a WIT save of 10 to keep its head: fails",
            "bo loses its turn this round"
        ]
    );
    t.cmd("end");
    // The foes have nobody able to act: they pass by themselves, and the pcs decide again.
    assert_eq!(t.log(), ["foes pass"]);
    assert_eq!(first_seat(&t), PCS);
    // A passed save: nothing happens.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[10]).cmd("distract bo");
    assert_eq!(
        t.log(),
        [
            "ash tries to distract bo",
            "bo rolls 10 on a WIT save of 10 to keep its head: passes"
        ]
    );
    t.cmd("end");
    t.cmd("act bo");
    // Intimidate: bo is frightened of ash and will not attack it.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("intimidate bo");
    assert_eq!(t.state().ch(id(&t, "bo")).frightened_of, Some(id(&t, "ash")));
    t.cmds(&["end", "act bo"]);
    t.expect_rejection(FOES, "attack ash", codes::CONDITION);
    t.cmd("attack cy");
    // Taunt: bo may spend its next turn only on trying to harm ash.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmd("act ash");
    t.dice(&[15]).cmd("taunt bo");
    t.cmds(&["end", "act bo"]);
    t.expect_rejection(FOES, "attack cy", codes::CONDITION);
    t.expect_rejection(FOES, "distract cy", codes::CONDITION);
    t.cmd("attack ash");
    // The GM waives the save when the attempt is overwhelming: no die.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "gm overwhelm ash", "intimidate bo"]);
    assert_eq!(t.log(), ["ash tries to intimidate bo", "bo is frightened of ash"]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r9_bonus_actions_use_a_consumable_equip_stow_drop_pick_up_interact_and_say() {
    let mut t = table(
        PLAIN,
        &[
            who(
                "ash",
                "pcs",
                "a",
                "health = 5\ncarry = [\"shield\", \"healing-draught\", \"acid\"]",
            ),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[4]).cmd("use healing-draught");
    assert_eq!(t.log(), ["ash's healing draught is used up", "ash heals 4: health 9"]);
    t.cmd("equip shield off");
    // Two bonus actions: nothing is left, not even the main action.
    t.expect_rejection(PCS, "interact", codes::NO_ACTION);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.cmd("end");
    t.cmd("pass");
    // A swap costs two bonus actions; dropping and picking up are bonus actions.
    t.cmds(&["act cy", "drop martial-hand", "pickup martial-hand"]);
    t.expect_rejection(PCS, "say", codes::NO_ACTION);
    t.cmds(&["end", "pass"]);
    assert_eq!(t.state().round, 2);
    // MUR-H24: throwing a consumable weapon is an attack (the main action); a bonus action is
    // left, not a second main action.
    t.cmds(&["act ash", "attack bo with acid"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(health(&t, "bo"), 7);
    t.expect_rejection(PCS, "interact main", codes::NO_ACTION);
    t.cmd("interact");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- reactions

#[test]
fn mur_r10_a_reaction_is_the_turn_of_the_round() {
    // A reaction uses the turn: bo dodges, then has no turn of its own.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmd("act ash");
    t.cmd("attack bo");
    t.dice(&[5]).cmd("dodge");
    assert_eq!(
        t.log(),
        [
            "bo dodges (its turn this round)",
            "bo rolls 5 on an AGI save of 10 to dodge: passes"
        ]
    );
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "bo's turn"));
    // A character who has had its turn cannot react: no question, the damage is rolled.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act cy", "end", "act bo", "end", "act ash"]);
    t.dice(&[3]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword",
            "ash rolls damage: 3 = 3",
            "bo takes 3 damage: health 7/10"
        ]
    );
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r11_the_reactions_are_counter_dodge_guard_hide_behind_and_opportunity_attack() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    // dee, nearby, may guard bo first.
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    assert_eq!(t.legal(), ["guard", "decline"]);
    t.cmd("decline");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    let legal = t.legal();
    for r in ["take", "dodge", "counter", "hide-behind dee"] {
        assert!(legal.iter().any(|l| l == r), "{r} missing from {legal:?}");
    }
    t.dice(&[1]).cmd("take");
    t.cmd("move b");
    // The opportunity attack: asked of dee, who still has its turn.
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    assert!(t.legal().iter().any(|l| l == "decline"));
    assert!(t.legal().iter().any(|l| l.starts_with("opportunity")));
    t.assert_dice_used();
}

// ---------------------------------------------------------------- MUR-R60: free reactions

#[test]
fn mur_r60_dodge_blows_dodges_once_for_free_and_the_turn_is_still_there() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", "skills = [\"dodge-blows\"]"),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (a free reaction)");
    t.cmd("end");
    t.cmd("act bo"); // the free dodge did not use bo's turn
    assert_eq!(t.log(), ["bo's turn"]);
    // A second dodge in the round uses the turn.
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (its turn this round)");
    t.cmd("end");
    t.expect_rejection(FOES, "act bo", Reject::NOT_YOUR_DECISION); // the foes passed by themselves
    assert_eq!(t.state().round, 2);
    assert!(!history(&t).iter().any(|l| l == "bo's turn"));
    // The free dodge comes back each round.
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(t.log()[0], "bo dodges (a free reaction)");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_protect_guards_for_free_and_the_guard_may_still_react() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", "skills = [\"protect\"]"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo", "guard"]);
    assert_eq!(t.log(), ["dee guards bo (a free reaction)"]);
    // The free guard leaves dee its reaction: it is asked, and dodges.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.dice(&[15, 4]).cmd("dodge");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (10, 6));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_fleet_footed_dodges_an_opportunity_attack_others_cannot_react_to_it() {
    let chars = |skill: &str| [who("ash", "pcs", "a", skill), who("bo", "foes", "a", "")];
    let mut t = table(PLAIN, &chars("skills = [\"fleet-footed\"]"), &[]);
    t.cmds(&["act ash", "move b", "opportunity"]);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("ash".to_string())));
    t.dice(&[5]).cmd("dodge");
    assert_eq!(
        t.log(),
        [
            "ash dodges (a free reaction)",
            "ash rolls 5 on an AGI save of 10 to dodge: passes",
            "ash moves to b"
        ]
    );
    // MUR-R25: without the skill the mover cannot react: the damage comes at once.
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash", "move b"]);
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(health(&t, "ash"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_fast_strike_hits_first_in_a_counter_unless_both_have_it() {
    // Without fast strike: ash's 2 against bo's counter 5: ash suffers more and is hit first;
    // 5 is critical for ash (STR 10), so ash's 2 never land.
    let chars = |a: &str, b: &str| {
        [
            who("ash", "pcs", "a", a),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", &format!("str = 4\n{b}")),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars("", ""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "ash"), health(&t, "bo")), (Status::Incapacitated, 4));
    // With fast strike ash hits first: 2 is critical for bo (4 health), whose counter fails.
    let mut t = table(PLAIN, &chars("skills = [\"fast-strike\"]", ""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "bo"), health(&t, "ash")), (Status::Incapacitated, 10));
    // Both have it: the usual order again.
    let fs = "skills = [\"fast-strike\"]";
    let mut t = table(PLAIN, &chars(fs, fs), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((status(&t, "ash"), health(&t, "bo")), (Status::Incapacitated, 4));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r60_a_power_cannot_be_dodged_but_can_be_countered() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "str = 12\npowers = [\"bolt\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "invoke bolt bo"]);
    assert!(!t.legal().iter().any(|l| l == "dodge"), "{:?}", t.legal());
    t.expect_rejection(FOES, "dodge", codes::NO_REACTION);
    // The counter: bolt 2 against the sword's 5: ash suffers more and is hit first; 5 is not
    // critical for STR 12, so the bolt lands too.
    t.dice(&[2, 5]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (7, 8));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- attacking

#[test]
fn mur_r12_an_attack_is_the_main_action_and_hits_without_a_roll() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(saves(&t), 0);
    t.dice(&[4]).cmd("take");
    assert_eq!(t.log(), ["ash rolls damage: 4 = 4", "bo takes 4 damage: health 6/10"]);
    t.expect_rejection(PCS, "attack bo", codes::NO_ACTION);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r13_a_wit_save_to_hit_in_the_dark_beyond_half_range_while_moving_and_indirect() {
    // Melee on a nearby target that is not visible (a dark zone): 15 fails WIT 10, a miss.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "dk", ""),
            who("cy", "pcs", "dk", ""),
            who("bo", "foes", "dk", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[15]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword",
            "ash rolls 15 on a WIT save of 10 to hit: fails"
        ]
    );
    assert_eq!(
        (asked(&t), health(&t, "bo")),
        (("turn".to_string(), Some("ash".to_string())), 10)
    );
    t.cmds(&["end", "pass", "act cy"]);
    t.dice(&[10]).cmd("attack bo"); // 10 passes: bo may react
    assert_eq!(asked(&t).0, "reaction");
    // Ranged beyond half range (sling range 8, half 4): range 5 needs the save.
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "f", "")], &[]);
    t.cmd("act ash");
    t.dice(&[11]).cmd("attack bo");
    assert_eq!(t.log()[1], "ash rolls 11 on a WIT save of 10 to hit: fails");
    // Within half range, standing still: no save.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "d", "")], &[]);
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!((saves(&t), asked(&t).0.as_str()), (0, "reaction"));
    // The same shot after moving (MUR-H5): a save.
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "e", "")], &[]);
    t.cmds(&["act ash", "move b"]);
    t.dice(&[12]).cmd("attack bo");
    assert_eq!(t.log()[1], "ash rolls 12 on a WIT save of 10 to hit: fails");
    // Every indirect attack: the mortar at range 5 rolls, passes, and bo may react.
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", mortar),
            who("bo", "foes", "f", ""),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack f with mortar");
    assert_eq!(saves(&t), 1);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r14_ranged_attacks_that_are_not_allowed_at_all() {
    let sling = "wield = [\"missile-hand\"]";
    // Beyond half range while moving: refused; within half range it is allowed (with a save).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", sling),
            who("bo", "foes", "g", ""),
            who("dee", "foes", "e", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "move b"]);
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    t.dice(&[20]).cmd("attack dee");
    // A direct ranged attack at a target that is not visible (in the dark).
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "h", sling), who("bo", "foes", "dk", "")],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    // An indirect attack within half range, and one while moving.
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", mortar), who("bo", "foes", "g", "")],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack e with mortar", codes::NOT_ALLOWED); // range 4
    t.cmd("move b");
    t.expect_rejection(PCS, "attack g with mortar", codes::NOT_ALLOWED); // range 5, moved
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r15_melee_reaches_nearby_ranged_reaches_its_range_indirect_reaches_the_unseen() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"martial-hand\", \"dart\"]"),
            who("bo", "foes", "b", ""),
            who("dee", "foes", "d", ""),
            who("eve", "foes", "a|b", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo", codes::OUT_OF_RANGE); // range 1: not nearby
    t.expect_rejection(PCS, "attack dee with dart", codes::OUT_OF_RANGE); // range 3 of 2
    t.cmd("attack eve"); // on a border of a: nearby
    assert_eq!(t.log(), ["ash attacks eve with sword"]);
    // Indirect: the mortar reaches bo in the dark, and over the barrier where dee hides, whose
    // cover it fires over (MUR-R15).
    let mortar = "wield = [\"mortar\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", mortar),
            who("cy", "pcs", "a", mortar),
            who("bo", "foes", "dk", ""),
            who("dee", "foes", "wall", "cover = true"),
        ],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack dk with mortar");
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.cmds(&["end", "pass", "act cy"]);
    t.dice(&[3]).cmd("attack wall with mortar");
    t.dice(&[4]).cmd("take");
    assert_eq!(health(&t, "dee"), 6); // the barrier's cover gives nothing against it
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r16_bare_hands_deal_d4_impaired_and_an_attacker_may_hold_back() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = []"),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    // MUR impaired: d4 twice, keep the lower (a 4 counts 3 and rolls on).
    t.dice(&[4, 2, 3]).cmd("take");
    assert_eq!(
        t.log(),
        [
            "ash rolls damage impaired: 4+2 / 3 = 3",
            "bo takes 3 damage: health 7/10"
        ]
    );
    t.cmds(&["end", "pass", "act cy", "attack bo hold"]);
    t.dice(&[5, 2]).cmd("take");
    assert_eq!(t.log()[0], "cy rolls damage impaired: 5 / 2 = 2");
    assert_eq!(health(&t, "bo"), 5);
    // Brawling: d6, not impaired.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = []\nskills = [\"brawling\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r17_a_one_handed_weapon_in_the_other_hand_is_impaired() {
    let chars = |skill: &str| {
        [
            who(
                "ash",
                "pcs",
                "a",
                &format!("wield = [\"shield\", \"martial-hand\"]\n{skill}"),
            ),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash", "attack bo with martial-hand"]);
    t.dice(&[3, 5]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage impaired: 3 / 5 = 3");
    let mut t = table(PLAIN, &chars("skills = [\"ambidextrous\"]"), &[]);
    t.cmds(&["act ash", "attack bo with martial-hand"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(health(&t, "bo"), 5);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r18_a_final_blow_kills_a_nearby_incapacitated_target_but_never_undead() {
    let chars = |kind: &str| {
        [
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", kind),
            who("dee", "foes", "h", ""),
        ]
    };
    let mut t = table(PLAIN, &chars(""), &[]);
    t.cmds(&["act ash"]);
    t.expect_rejection(PCS, "final-blow bo", codes::BAD_TARGET); // bo is up
    t.cmd("attack bo");
    // 5 of 10 health is critical damage.
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Incapacitated);
    t.cmds(&["end", "pass", "act cy"]);
    t.cmd("final-blow bo");
    assert_eq!(t.log(), ["cy deals bo a final blow", "bo dies"]);
    assert_eq!(status(&t, "bo"), Status::Dead);
    // Undead are never incapacitated, so there is never a final blow on them.
    let mut t = table(PLAIN, &chars("kind = \"undead\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5]).cmd("take");
    assert_eq!(status(&t, "bo"), Status::Up);
    t.cmds(&["end", "pass", "act cy"]);
    t.expect_rejection(PCS, "final-blow bo", codes::BAD_TARGET);
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- reacting to an attack

#[test]
fn mur_r19_the_reaction_comes_after_the_save_to_hit_and_before_damage_and_not_when_unaware() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", sling), who("bo", "foes", "f", "")], &[]);
    t.cmd("act ash");
    t.dice(&[3]).cmd("attack bo");
    assert_eq!((saves(&t), damage_rolls(&t)), (1, 0));
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[15, 2]).cmd("dodge");
    assert_eq!(health(&t, "bo"), 8);
    // A concealed attacker: bo is unaware, is not asked, and the damage comes at once.
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", "concealed = true"), who("bo", "foes", "a", "")],
        &[],
    );
    t.cmd("act ash");
    t.dice(&[4]).cmd("attack bo");
    assert_eq!(
        t.log(),
        [
            "ash attacks bo with sword (unseen: no reaction)",
            "ash rolls damage: 4 = 4",
            "bo takes 4 damage: health 6/10",
            "ash is revealed (a)"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r20_a_dodge_is_an_agi_save_that_makes_the_attack_miss() {
    let chars = [who("ash", "pcs", "a", ""), who("bo", "foes", "a", "agi = 7")];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[7]).cmd("dodge");
    assert_eq!(t.log()[1], "bo rolls 7 on an AGI save of 7 to dodge: passes");
    assert_eq!((damage_rolls(&t), health(&t, "bo")), (0, 10));
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[8, 4]).cmd("dodge");
    assert_eq!(health(&t, "bo"), 6);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r21_in_a_counter_who_suffers_more_is_hit_first_and_a_tie_lands_together() {
    let four = |a: &str, b: &str| {
        [
            who("ash", "pcs", "a", a),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", b),
            who("dee", "foes", "h", ""),
        ]
    };
    // The rule's test: the attack would deal 3 (4 less light armour), the counter 5: the counter
    // lands first, 5 is critical damage for ash (STR 9: 5 or more), and the 3 never land.
    let mut t = table(PLAIN, &four("str = 9", "armour = \"light\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 5]).cmd("counter");
    assert_eq!(
        t.log(),
        [
            "bo counters (its turn this round)",
            "ash rolls damage: 4 = 4",
            "bo rolls damage: 5 = 5",
            "ash takes 5 damage: health 4/9",
            "ash is incapacitated (critical damage)",
            "ash falls before its own blow lands: it deals nothing"
        ]
    );
    assert_eq!(health(&t, "bo"), 10);
    // 3 against 5 when 5 is not critical (STR 12): the counter first, then the attack.
    let mut t = table(PLAIN, &four("str = 12", "armour = \"light\""), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 5]).cmd("counter");
    assert_eq!(
        t.log()[3..],
        [
            "ash takes 5 damage: health 7/12",
            "bo takes 3 damage (4 less 1 armour): health 7/10"
        ]
    );
    // 4 against 4: both land together, even though 4 is critical for both (STR 8).
    let mut t = table(PLAIN, &four("str = 8", "str = 8"), &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[4, 4]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (4, 4));
    assert_eq!(
        (status(&t, "ash"), status(&t, "bo")),
        (Status::Incapacitated, Status::Incapacitated)
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r22_an_attack_on_several_targets_is_countered_by_one_of_them_only() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"flail\"]"),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.cmd("attack a with flail");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.dice(&[2, 1]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (9, 8));
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    assert!(!t.legal().iter().any(|l| l.starts_with("counter")), "{:?}", t.legal());
    t.expect_rejection(FOES, "counter", codes::NO_REACTION);
    // MUR-H8: the blast's one roll (2) reaches dee too.
    t.cmd("take");
    assert_eq!(health(&t, "dee"), 8);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r23_hide_behind_a_nearby_character_who_agrees_and_may_react_itself() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline"]); // dee does not guard
    t.expect_rejection(FOES, "hide-behind ash", codes::BAD_TARGET); // the attacker
    t.cmd("hide-behind dee");
    assert_eq!(asked(&t), ("stand-in".to_string(), Some("dee".to_string())));
    t.cmd("agree");
    // dee is the target now, and reacts on its own.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.dice(&[15, 3]).cmd("dodge");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (10, 7));
    // Hiding was bo's reaction, and dee's dodge its own: neither has a turn left, and once ash
    // is done the round is over.
    t.cmd("end");
    assert_eq!(t.state().round, 2);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r23_a_hider_whose_stand_in_declines_keeps_its_reaction() {
    let chars = [
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(PLAIN, &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline", "hide-behind dee"]);
    t.cmd("decline");
    assert_eq!(t.log(), ["dee will not stand in for bo, who may still react"]);
    // bo is asked again, and may dodge, counter or take it, but not hide a second time.
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    t.expect_rejection(FOES, "hide-behind dee", codes::NO_REACTION);
    t.dice(&[3, 2]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (8, 7));
    assert_eq!(
        t.log(),
        [
            "bo counters (its turn this round)",
            "ash rolls damage: 3 = 3",
            "bo rolls damage: 2 = 2",
            "bo takes 3 damage: health 7/10",
            "ash takes 2 damage: health 8/10"
        ]
    );
    t.assert_dice_used();
    t.assert_replays();

    // fray 0.1.0's reading: asking spent bo's reaction, and a refusal leaves it the hit.
    let mut t = table(&format!("{PLAIN}\ndeclined-hide-keeps-reaction = false"), &chars, &[]);
    t.cmds(&["act ash", "attack bo", "decline", "hide-behind dee"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!((health(&t, "bo"), health(&t, "dee")), (7, 10));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r24_a_guard_becomes_the_target_and_cannot_also_react() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    assert_eq!(asked(&t), ("guard".to_string(), Some("dee".to_string())));
    t.dice(&[3]).cmd("guard");
    assert_eq!(
        t.log(),
        [
            "dee guards bo (its turn this round)",
            "ash rolls damage: 3 = 3",
            "dee takes 3 damage: health 7/10"
        ]
    );
    assert_eq!(health(&t, "bo"), 10);
    t.cmd("end");
    t.expect_rejection(FOES, "act dee", codes::CANNOT_ACT);
    t.cmd("act bo");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r25_an_opportunity_attack_interrupts_a_step_away_and_the_turn_resumes() {
    let mut t = table(PLAIN, &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")], &[]);
    t.cmd("act ash");
    // MUR-H26: onto a border of the zone is not moving away.
    t.cmd("move a|b");
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.cmd("move b");
    assert_eq!(asked(&t), ("opportunity".to_string(), Some("bo".to_string())));
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(
        t.log(),
        [
            "bo makes an opportunity attack (its turn this round)",
            "bo makes an opportunity attack on ash with sword",
            "bo rolls damage: 3 = 3",
            "ash takes 3 damage: health 7/10",
            "ash moves to b"
        ]
    );
    // The turn resumes: the main action is still there.
    assert_eq!(asked(&t), ("turn".to_string(), Some("ash".to_string())));
    t.cmd("say");
    t.cmd("end");
    assert_eq!(t.state().round, 2); // bo spent its turn on the opportunity attack
    // A mover taken out of the fight never makes the step.
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "str = 4"),
            who("bo", "foes", "a", ""),
            who("cy", "pcs", "h", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "move b"]);
    t.dice(&[3]).cmd("opportunity");
    assert_eq!(status(&t, "ash"), Status::Incapacitated);
    assert!(!t.log().iter().any(|l| l == "ash moves to b"));
    assert_eq!(asked(&t).0, "faction");
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- protection

#[test]
fn mur_r26_concealment_makes_damage_impaired() {
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "brush", ""), who("bo", "foes", "brush", "")],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[5, 2]).cmd("take");
    assert_eq!(
        t.log(),
        ["ash rolls damage impaired: 5 / 2 = 2", "bo takes 2 damage: health 8/10"]
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r27_cover_adds_one_armour_unless_the_attack_goes_through_it() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "b", sling),
            who("cy", "pcs", "b", sling),
            who("bo", "foes", "a", "cover = true"),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 2 damage (3 less 1 armour): health 8/10");
    // The GM rules that cy's shot goes through the cover (MUR-H7).
    t.cmds(&["end", "pass", "act cy", "gm penetrate cy", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 3 damage: health 5/10");
    // Cover data: gunpowder goes through a fence.
    let toml = enc(
        PLAIN,
        &[
            who("ash", "pcs", "b", "wield = [\"handgun\"]"),
            who("bo", "foes", "a", "cover = true"),
            "[penetration]\nfence = [\"gunpowder\"]\n".to_string(),
        ]
        .concat(),
    )
    .replace(
        "cover = 1\n[[zone]]\nid = \"b\"",
        "cover = 1\ntags = [\"fence\"]\n[[zone]]\nid = \"b\"",
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[3]).cmd("take");
    assert_eq!(health(&t, "bo"), 7);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r28_a_barrier_blocks_attacks_but_one_who_peeks_out_to_attack_only_has_cover() {
    let sling = "wield = [\"missile-hand\"]";
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "h", sling),
            who("cy", "pcs", "h", sling),
            who("bo", "foes", "wall", &format!("cover = true\n{sling}")),
        ],
        &[],
    );
    t.cmd("act cy");
    t.expect_rejection(PCS, "attack bo", codes::NOT_ALLOWED);
    t.cmds(&["end", "act bo", "attack ash"]);
    assert_eq!(t.log()[0], "bo peeks out from behind the barrier");
    // ash counters: bo's 3 against ash, ash's 3 less 1 for the cover against bo.
    t.dice(&[3, 3]).cmd("counter");
    assert_eq!((health(&t, "ash"), health(&t, "bo")), (7, 8));
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- blasts

#[test]
fn mur_r29_a_blast_hits_everyone_in_the_zone_and_on_its_borders() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "carry = [\"alchemists-fire\"]"),
            who("bo", "foes", "c", "armour = \"light\""),
            who("dee", "foes", "c|d", ""),
            who("eve", "foes", "d", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    // Range 2 is beyond half of 2: a save, passed.
    t.dice(&[5]).cmd("attack c with alchemists-fire");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("bo".to_string())));
    // Fire is direct: bo's armour does not count.
    t.dice(&[4]).cmd("take");
    assert_eq!(asked(&t), ("reaction".to_string(), Some("dee".to_string())));
    t.cmd("take");
    assert_eq!((health(&t, "bo"), health(&t, "dee"), health(&t, "eve")), (6, 6, 10));
    // The flask is spent.
    assert!(
        t.state()
            .ch(id(&t, "ash"))
            .live_items()
            .all(|(_, i)| i.id != "alchemists-fire")
    );
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn mur_r30_a_melee_blast_hits_the_attackers_zone_but_not_the_attacker_and_cannot_miss() {
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"flail\"]"),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
            who("eve", "foes", "b", ""),
        ],
        &[],
    );
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack b with flail", codes::OUT_OF_RANGE);
    // Even a GM's call for a save to hit does not make a melee blast roll one.
    t.cmd("gm hinder ash");
    t.cmd("attack a with flail");
    assert_eq!(saves(&t), 0);
    assert_eq!(asked(&t), ("reaction".to_string(), Some("cy".to_string())));
    t.dice(&[3]).cmd("take");
    t.cmd("take");
    assert_eq!(
        (health(&t, "ash"), health(&t, "cy"), health(&t, "bo"), health(&t, "eve")),
        (10, 7, 7, 10)
    );
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------- health and damage

#[test]
fn mur_health_critical_damage_is_half_the_remaining_health_and_str_in_one_hit_kills() {
    // The Health example: STR 9 at full health: 5 is critical, 4 is not.
    let chars = |extra: &str| {
        [
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("cy", "pcs", "h", ""),
            who("bo", "foes", "a", &format!("str = 9\n{extra}")),
            who("dee", "foes", "h", ""),
        ]
    };
    let hit = |extra: &str, faces: &[u16]| {
        let mut t = table(PLAIN, &chars(extra), &[]);
        t.cmds(&["act ash", "attack bo"]);
        t.dice(faces).cmd("take");
        t.assert_dice_used();
        (health(&t, "bo"), status(&t, "bo"))
    };
    assert_eq!(hit("", &[4]), (5, Status::Up));
    assert_eq!(hit("", &[5]), (4, Status::Incapacitated));
    // At 4 health: 2 is critical, 1 is not.
    assert_eq!(hit("health = 4", &[1]), (3, Status::Up));
    assert_eq!(hit("health = 4", &[2]), (2, Status::Incapacitated));
    // All the remaining health (but less than 9): critical and dying.
    assert_eq!(hit("health = 4", &[4]), (0, Status::Dying { rounds: 1 }));
    // 9 or more in one hit kills at any health (8 counts 7 and rolls on: 7 + 2 = 9).
    assert_eq!(hit("", &[8, 2]).1, Status::Dead);
    assert_eq!(hit("health = 9", &[7]).1, Status::Incapacitated);
    // A helmet raises the threshold by one: 5 is no longer critical at full health.
    assert_eq!(hit("helmet = true", &[5]), (4, Status::Up));
}

#[test]
fn mur_damage_exploding_dice_impaired_and_armour_examples() {
    // d6 rolling 6, 6, 3 = 5 + 5 + 3 = 13 (bo has STR 19, so it lives).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "a", "str = 19"),
            who("dee", "foes", "h", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[6, 6, 3]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage: 6+6+3 = 13");
    assert_eq!(health(&t, "bo"), 6);
    // d8 impaired rolling 3 and 7: 3 (a greataxe held back).
    let mut t = table(
        PLAIN,
        &[
            who("ash", "pcs", "a", "wield = [\"martial-great\"]"),
            who("bo", "foes", "a", ""),
        ],
        &[],
    );
    t.cmds(&["act ash", "attack bo hold"]);
    t.dice(&[3, 7]).cmd("take");
    assert_eq!(t.log()[0], "ash rolls damage impaired: 3 / 7 = 3");
    // Light armour (1) against a d6 rolling 2: 1 damage.
    let mut t = table(
        PLAIN,
        &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "armour = \"light\"")],
        &[],
    );
    t.cmds(&["act ash", "attack bo"]);
    t.dice(&[2]).cmd("take");
    assert_eq!(t.log()[1], "bo takes 1 damage (2 less 1 armour): health 9/10");
    t.assert_dice_used();
    t.assert_replays();
}
