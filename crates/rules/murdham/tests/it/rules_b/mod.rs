//! Rule tests for the blasts, stunts, grappling, sneaking, morale, chases, gear and fast and slow
//! activations of the checklist (the chaos of combat has its own file):
//! tiny encounters, scripted dice, commands typed as the seat asked would type them, through
//! the test kit's `Table`. Each test names the rules it checks (`mur_r31_...`).
//!
//! Unless a test says otherwise: zone `a` links to `b`, `c`, `d`, `e` and `f` (in that order,
//! so a deviating blast from `a` numbers them 1 to 5), `b` links to `g`, and `c` is a hazard
//! (d6); side `pcs` (seat 1, a player side, holding the initiative) against side `foes`
//! (seat 2); the initiative faction opens every round by itself; everyone is a medium human
//! with STR, AGI and WIT 10 and no gear.

use fray_engine::{Ruleset, Seat};
use fray_murdham::Murdham;
use fray_murdham::codes;
use fray_murdham::place::Place;
use fray_murdham::setup::Cid;
use fray_murdham::state::{Char, Event, Phase, Status, Why};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);
const GM: Seat = Seat::GM;

/// Items the tests use besides the shipped ones: a ranged blast weapon of range 2, fragile
/// (already damaged) gear, an improvised weapon written as a fragile simple hand weapon
/// (MUR-R51), and a robust club.
const ITEMS: &str = r#"
[item.bomb]
name = "bomb"
damage = 6
range = 2
keywords = ["blast"]
[item.rusty]
name = "rusty sword"
damage = 6
keywords = ["fragile"]
[item.buckler]
name = "old buckler"
damage = 4
keywords = ["shield", "fragile"]
[item.stool]
name = "stool"
damage = 4
keywords = ["fragile"]
[item.maul]
name = "iron maul"
damage = 4
keywords = ["robust"]
"#;

/// The encounter: `head` goes before everything (top-level keys such as `initiative`),
/// `options` into `[options]` (the initiative faction opens each round by itself unless the
/// options name `opener`), then the characters in `rest`.
fn enc(head: &str, options: &str, rest: &str) -> String {
    let opener = if options.contains("opener") {
        ""
    } else {
        "opener = \"initiative\"\n"
    };
    format!(
        r#"ruleset = "murdham"
player-sides = ["pcs"]
{head}
[options]
{opener}{options}
[[zone]]
id = "a"
links = ["b", "c", "d", "e", "f"]
cover = 2
[[zone]]
id = "b"
links = ["g"]
[[zone]]
id = "c"
tags = ["hazard-6"]
[[zone]]
id = "d"
[[zone]]
id = "e"
[[zone]]
id = "f"
[[zone]]
id = "g"
[[side]]
id = "pcs"
[[side]]
id = "foes"
{ITEMS}
{rest}"#
    )
}

/// The pcs hold the initiative.
const PCS_FIRST: &str = "initiative = \"pcs\"";
/// The foes hold the initiative.
const FOES_FIRST: &str = "initiative = \"foes\"";

/// A character: STR, AGI and WIT 10 unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let stats: String = ["str", "agi", "wit"]
        .iter()
        .filter(|k| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|k| format!("{k} = 10\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

fn id(t: &Table<Murdham>, name: &str) -> Cid {
    t.state().find(name).unwrap_or_else(|| panic!("no character {name}"))
}

fn ch<'a>(t: &'a Table<Murdham>, name: &str) -> &'a Char {
    t.state().ch(id(t, name))
}

fn place(t: &Table<Murdham>, p: &str) -> Place {
    Place::parse(p, &t.state().setup.zones).expect("a place")
}

fn name(t: &Table<Murdham>, c: Cid) -> String {
    t.state().ch(c).id.clone()
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

/// The saves of the last command: who, the d20 (0 when size or skill decided), passed.
fn saves(t: &Table<Murdham>) -> Vec<(String, u16, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Save { who, roll, pass, .. } => Some((name(t, *who), *roll, *pass)),
            _ => None,
        })
        .collect()
}

/// Who holds `x`, by id.
fn holder(t: &Table<Murdham>, x: &str) -> Option<String> {
    ch(t, x).grabbed_by.map(|h| name(t, h))
}

/// The item ids `x` has in its hands (main first).
fn in_hands(t: &Table<Murdham>, x: &str) -> Vec<String> {
    let c = ch(t, x);
    c.hands
        .iter()
        .flatten()
        .map(|&i| c.items[i as usize].id.clone())
        .collect()
}

/// The kind of the pending decision.
fn asked(t: &Table<Murdham>) -> Option<&'static str> {
    t.game.pending().map(|p| p.kind())
}

mod attack_stunts;
mod blast_attacks;
mod gear_degradation;
mod long_chases;
mod morale_and_surrender;
mod non_lethal_attacks;
mod optional_fast_and_slow;
mod sneaking;

// ---------------------------------------------------------------------------------------------
// Stunts (MUR-R32)

fn duel(head: &str, options: &str, ash: &str, bo: &str) -> Table<Murdham> {
    let toml = enc(
        head,
        options,
        &[who("ash", "pcs", "a", ash), who("bo", "foes", "a", bo)].concat(),
    );
    Table::<Murdham>::load(&toml, &[], &[])
}

fn stunts(t: &Table<Murdham>) -> Vec<(String, Option<bool>)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Stunt { effect, accepted, .. } => Some((effect.clone(), *accepted)),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Shove, entangled, break free, free (MUR-R37, MUR-R39)

/// ash holds bo in zone `zone`, and the next round has begun with ash to act (round 2).
fn held(zone: &str, bo: &str) -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[who("ash", "pcs", zone, ""), who("bo", "foes", zone, bo)].concat(),
    );
    let mut t = Table::<Murdham>::load(&toml, &[], &[]);
    t.cmd("act ash");
    t.dice(&[20]).cmds(&["grapple bo", "take", "end", "act bo"]);
    // bo's try to break free: 20 fails.
    t.dice(&[20]).cmd("break-free");
    assert_eq!(holder(&t, "bo").as_deref(), Some("ash"));
    assert_eq!(t.state().round, 2);
    t.cmd("act ash");
    t
}

// ---------------------------------------------------------------------------------------------
// Sneaking (MUR-R40 to MUR-R42, MUR-R57)

fn revealed(t: &Table<Murdham>) -> Vec<String> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Revealed { who, .. } => Some(name(t, *who)),
            _ => None,
        })
        .collect()
}

/// The ids of the characters in `seat`'s view, as the seat is sent it.
fn view_ids(t: &Table<Murdham>, seat: Seat) -> Vec<String> {
    let v = serde_json::to_value(Murdham::view(t.state(), seat)).expect("a view serialises");
    v["characters"]
        .as_array()
        .expect("characters")
        .iter()
        .map(|c| c["id"].as_str().expect("an id").to_string())
        .collect()
}

/// An ambush by a concealed PC (`pc`, weaker than anyone) standing in `pc_at`, an AI bandit in
/// `a` and a visible PC `ally` in `a`.
fn hidden_pc(pc_at: &str) -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who(
                "pc",
                "pcs",
                pc_at,
                "str = 3\nconcealed = true\nwield = [\"martial-hand\"]",
            ),
            who("ally", "pcs", "a", ""),
            who("bandit", "foes", "a", "wield = [\"martial-hand\"]"),
        ]
        .concat(),
    )
    .replace("id = \"foes\"\n", "id = \"foes\"\npolicy = \"heuristic\"\n");
    Table::<Murdham>::load(&toml, &[], &[])
}

// ---------------------------------------------------------------------------------------------
// Morale and surrender (MUR-R43 to MUR-R46)

/// A group save: the d20, each member with its pass, and why.
type GroupSave = (u16, Vec<(String, bool)>, Why);

/// The group saves of the last command.
fn group_saves(t: &Table<Murdham>) -> Vec<GroupSave> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::GroupSave { roll, members, why } => Some((
                *roll,
                members.iter().map(|(c, _, pass)| (name(t, *c), *pass)).collect(),
                *why,
            )),
            _ => None,
        })
        .collect()
}

fn status(t: &Table<Murdham>, x: &str) -> Status {
    ch(t, x).status
}

// ---------------------------------------------------------------------------------------------
// Long chases (MUR-R47)

fn chase() -> Table<Murdham> {
    let toml = enc(
        PCS_FIRST,
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("bo", "foes", "b", "agi = 12"),
            who("cy", "foes", "b", "agi = 6"),
        ]
        .concat(),
    );
    Table::<Murdham>::load(&toml, &[], &[])
}

// ---------------------------------------------------------------------------------------------
// Gear degradation (MUR-R48 to MUR-R51, MUR-H25)

/// The durability rolls of the last command: whose, which item (none: armour), die, faces.
fn durability(t: &Table<Murdham>) -> Vec<(String, Option<u8>, u16, u16)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Durability { who, item, roll, sides } => Some((name(t, *who), *item, *roll, *sides)),
            _ => None,
        })
        .collect()
}

/// What wore out in the last command: whose, the item's name, destroyed.
fn worn(t: &Table<Murdham>) -> Vec<(String, String, bool)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Worn {
                who,
                name: n,
                destroyed,
                ..
            } => Some((name(t, *who), n.clone(), *destroyed)),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Fast and slow activations (MUR-R52 to MUR-R54)

/// What happened in the whole game, compactly: phases (with the threshold), openings, turns,
/// reactions and passes.
fn trace(t: &Table<Murdham>) -> Vec<String> {
    let side = |i: &u8| t.state().setup.sides[*i as usize].id.clone();
    t.all_events()
        .iter()
        .filter_map(|e| match e {
            Event::RoundStarted { round } => Some(format!("round {round}")),
            Event::PhaseStarted { phase, fat } => Some(match fat {
                Some(f) => format!("{phase:?} phase, FAT {f}"),
                None => format!("{phase:?} phase"),
            }),
            Event::Opens { side: s } => Some(format!("{} open", side(s))),
            Event::TurnStarted { who } => Some(format!("{}'s turn", name(t, *who))),
            Event::Reacted { who, what, .. } => Some(format!("{} {what}", name(t, *who))),
            Event::Passed { side: s } => Some(format!("{} pass", side(s))),
            _ => None,
        })
        .collect()
}
