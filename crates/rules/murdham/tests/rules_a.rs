//! Rule tests for MUR-R1 to MUR-R30 and MUR-R60: tiny encounters, scripted dice, commands typed
//! as a player would, through the test kit's `Table`. Each test names the rules it checks
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
const GM: Seat = Seat::GM;

/// Only the initiative faction opens, so no `open` question comes up.
const PLAIN: &str = "opener = \"initiative\"";

fn enc(options: &str, rest: &str) -> String {
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
[[zone]]
id = "b"
links = ["c"]
[[zone]]
id = "c"
links = ["d"]
[[zone]]
id = "d"
links = ["e"]
[[zone]]
id = "e"
links = ["f"]
[[zone]]
id = "f"
links = ["g"]
[[zone]]
id = "g"
links = ["h"]
[[zone]]
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
    (p.kind.to_string(), p.actor.map(|c| s.ch(c).id.clone()))
}

/// Whether the log of everything so far contains this line.
fn logged(t: &Table<Murdham>, line: &str) -> bool {
    history(t).iter().any(|l| l == line)
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
            "bo will lose its turn in round 1"
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
    assert_eq!(t.log(), ["ash uses up an item", "ash heals 4: health 9"]);
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
            "bo rolls 5 on a AGI save of 10 to dodge: passes"
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
            "ash rolls 5 on a AGI save of 10 to dodge: passes",
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
