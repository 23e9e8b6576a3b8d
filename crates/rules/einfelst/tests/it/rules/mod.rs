//! Rule tests: tiny encounters, scripted dice, commands typed as a player would, through the
//! test kit's `Table`. Each test names the rules it checks (`ein_r12_...`, or `// EIN-R12`).
//!
//! Unless a test says otherwise: zones `a` (1 cover spot) – `b` – `c` (an exit), and `d` off
//! `a`; side `pcs` (seat `players`, player characters) and side `foes` (the GM's); every
//! attribute 2 and every combat Action 1, so each test rolls 3 dice; a sword (damage 2).
//! Successes are sixes: `hits(k, n)` scripts k sixes among n dice. Cards come first, one draw
//! per creature in encounter order (a group draws once); `cards(&[..])` turns the values wanted
//! into the faces that draw them.

use fray_einfelst::Einfelst;
use fray_einfelst::codes;
use fray_einfelst::state::{Card, Event, RoundStage, Status};
use fray_engine::Seat;
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const GM: Seat = Seat::GM;

fn enc(options: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "einfelst"
player-sides = ["pcs"]
[options]
{options}
[[zone]]
id = "a"
links = ["b", "d"]
cover = 1
[[zone]]
id = "b"
links = ["c"]
[[zone]]
id = "c"
exit = true
[[zone]]
id = "d"
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
{rest}"#
    )
}

/// A creature with the defaults above, unless `extra` sets a key.
fn who(id: &str, side: &str, zone: &str, extra: &str) -> String {
    let defaults = [
        (
            "attributes",
            "{ strength = 2, dexterity = 2, intuition = 2, reason = 2, presence = 2 }",
        ),
        (
            "actions",
            "{ strike = 1, shoot = 1, force = 1, endure = 1, finesse = 1, sneak = 1, track = 1, read = 1 }",
        ),
        ("weapons", r#"["sword"]"#),
    ];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nzone = \"{zone}\"\n{stats}{extra}\n")
}

/// The faces that draw these card values, in order, from a fresh deck of 1 to 10.
fn cards(values: &[u16]) -> Vec<u16> {
    let mut deck: Vec<u16> = (1..=10).collect();
    values
        .iter()
        .map(|v| {
            let i = deck.iter().position(|c| c == v).expect("a card still in the deck");
            deck.remove(i);
            i as u16 + 1
        })
        .collect()
}

/// `k` successes among `n` dice.
fn hits(k: usize, n: usize) -> Vec<u16> {
    (0..n).map(|i| if i < k { 6 } else { 1 }).collect()
}

fn cat(parts: &[Vec<u16>]) -> Vec<u16> {
    parts.concat()
}

fn id(t: &Table<Einfelst>, name: &str) -> u16 {
    t.state().find(name).unwrap()
}

fn card_of(t: &Table<Einfelst>, name: &str) -> Vec<u8> {
    t.state()
        .ch(id(t, name))
        .cards
        .cards()
        .iter()
        .map(|c| c.value)
        .collect()
}

fn zone_of(t: &Table<Einfelst>, name: &str) -> String {
    let s = t.state();
    s.setup.zones.id(s.ch(id(t, name)).zone).to_string()
}

fn physical(t: &Table<Einfelst>, name: &str) -> [u8; 3] {
    t.state().ch(id(t, name)).harm.physical
}

fn mental(t: &Table<Einfelst>, name: &str) -> [u8; 3] {
    t.state().ch(id(t, name)).harm.mental
}

/// The pools and successes of the tests in the last command, in order.
fn tests(t: &Table<Einfelst>) -> Vec<(u8, u8)> {
    t.last
        .iter()
        .filter_map(|e| match e {
            Event::Tested { pool, successes, .. } => Some((*pool, *successes)),
            _ => None,
        })
        .collect()
}

/// Whose turn it is.
fn turn(t: &Table<Einfelst>) -> String {
    let s = t.state();
    s.turn.map(|x| s.ch(x.who).id.clone()).unwrap_or_default()
}

/// ash (pcs) and bo (foes) in zone `a`, holding cards `ash_card` and `bo_card`.
fn duel(options: &str, ash: &str, bo: &str, ash_card: u16, bo_card: u16) -> Table<Einfelst> {
    let toml = enc(
        options,
        &[who("ash", "pcs", "a", ash), who("bo", "foes", "a", bo)].concat(),
    );
    Table::<Einfelst>::load(&toml, &[], &cards(&[ash_card, bo_card]))
}

mod ambush;
mod attacks_and_damage;
mod fear;
mod fire;
mod fleeing_and_chasing;
mod grappling;
mod harm_types;
mod initiative_cards;
mod maneuvers;
mod other_hazards;
mod poison;
mod zones_and_circumstances;

fn ambush(test: &str) -> String {
    enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "d", ""),
            who("di", "foes", "d", ""),
            format!("[ambush]\nside = \"foes\"\ntest = \"{test}\"\n"),
        ]
        .concat(),
    )
}

/// The pending decision in words, as the prompt says it.
fn prompt(t: &Table<Einfelst>) -> String {
    use fray_engine::text::TextRuleset;
    Einfelst::describe_pending(t.state(), &t.game.pending().expect("a decision"))
}

/// The whole game's log, as `fray play` and `fray log` write it.
fn full_log(t: &Table<Einfelst>) -> Vec<String> {
    fray_engine::text::TextGame::<Einfelst>::log_of_record(t.game.record(), GM)
        .expect("the record replays")
        .into_iter()
        .filter_map(|l| l.text)
        .collect()
}

/// What the built-in AI would answer now, printed.
fn ai_choice(t: &Table<Einfelst>) -> String {
    use fray_engine::text::TextRuleset;
    let mut ai = Einfelst::heuristic();
    let mut rng = fray_dice::Prng::for_stream(1, 0);
    let (_, c) = fray_engine::choose_first(&mut *ai, t.state(), &mut rng).expect("a choice");
    Einfelst::format_command(t.state(), &c)
}

/// The test map with an obstacle `label` between `a_zone` and its neighbour `b_zone` (written on
/// `a_zone`'s links line), and the obstacle's table.
fn with_obstacle(toml: String, links: &str, to: &str, table: &str) -> String {
    toml.replacen(links, &format!("{links}\nobstacles = {{ {to} = \"rubble\" }}"), 1) + "[obstacle.rubble]\n" + table
}
