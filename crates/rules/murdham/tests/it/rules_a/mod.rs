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

mod attacking;
mod blast_attacks;
mod protection;
mod reacting_to_an_attack;
mod reactions;
mod round_structure;
mod taking_a_turn;
