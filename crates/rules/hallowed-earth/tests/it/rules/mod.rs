//! Rule tests: tiny encounters, scripted dice, commands typed as a player would, through the
//! test kit's `Table`. Each test names the rules it checks (`hal_r10_...`, or `// HAL-R10`).
//!
//! Dice at the start: for each creature in encounter order, its Stress dice (none here: the
//! stat blocks fix `stress`), then its Base Initiative d12 (one for a whole group).

use fray_engine::{Reject, Seat};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::codes;
use fray_hallowed_earth::state::{Action, Cap, Conditions, Event, Phase};
use fray_testkit::Table;

const PCS: Seat = Seat(1);
const FOES: Seat = Seat(2);

/// A 10 × 5 yard field, sides `pcs` and `foes` (each its own seat), `options`, then `rest`.
fn enc(options: &str, rest: &str) -> String {
    format!(
        r#"ruleset = "hallowed-earth"
[options]
{options}
[map]
rows = [". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . .", ". . . . . . . . . ."]
[[side]]
id = "pcs"
[[side]]
id = "foes"
{rest}"#
    )
}

/// A combatant: Strength 12 (12 Wound Points), Agility 10, Stress 10, Speed 6 yards, attack
/// +0 and a sword (1d6, speed 0, ×2), unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let defaults = [
        ("strength", "12"),
        ("agility", "10"),
        ("stress", "10"),
        ("speed", "6"),
        ("weapons", r#"[{ name = "sword", damage = "1d6" }]"#),
    ];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.lines().any(|l| l.trim_start().starts_with(&format!("{k} ="))))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

/// The game as the text layer shows it to each seat (a replay of its record).
fn text_game(t: &Table<HallowedEarth>) -> fray_engine::text::TextGame<HallowedEarth> {
    fray_engine::text::TextGame::new(fray_engine::Game::replay(t.game.record()).expect("replays"))
}

fn events(t: &Table<HallowedEarth>) -> Vec<Event> {
    t.all_events()
}

fn wp(t: &Table<HallowedEarth>, id: &str) -> i16 {
    let s = t.state();
    s.ch(s.find(id).unwrap()).wp
}

fn stress(t: &Table<HallowedEarth>, id: &str) -> i16 {
    let s = t.state();
    s.ch(s.find(id).unwrap()).stress
}

fn has(t: &Table<HallowedEarth>, id: &str, flag: u32) -> bool {
    let s = t.state();
    s.ch(s.find(id).unwrap()).has(flag)
}

/// Two duellists next to each other: ash (pcs) at 0,0 and bo (foes) at 1,0.
fn duel(options: &str, ash: &str, bo: &str, d12: [u16; 2]) -> Table<HallowedEarth> {
    let toml = enc(
        options,
        &[who("ash", "pcs", "0,0", ash), who("bo", "foes", "1,0", bo)].concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &d12)
}

/// The duel with a third creature, zed (pcs, far away, surprised in round 1), so that the
/// travellers' side keeps someone fighting while ash is down.
fn duel_z(options: &str, ash: &str, bo: &str, d12: [u16; 2]) -> Table<HallowedEarth> {
    let toml = enc(
        options,
        &[
            who("ash", "pcs", "0,0", ash),
            who("bo", "foes", "1,0", bo),
            who("zed", "pcs", "9,4", "surprised = true"),
        ]
        .concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &[d12[0], d12[1], 12])
}

mod defense_armour_crits;
mod defensive_actions_and_economy;
mod end_of_combat;
mod incapacitated_dying_death;
mod initiative;
mod monster_morale;
mod procedure_and_surprise;
mod stress_and_wound_points;

/// ash (pcs) with a sword in hand and a dagger stowed, cy (pcs) beside it, bo (foes) next to
/// ash; bases 7, 3 and 5.
fn free_trio(options: &str, ash: &str, cy: &str) -> Table<HallowedEarth> {
    let weapons =
        r#"weapons = [{ name = "sword", damage = "1d6" }, { name = "dagger", damage = "1d4", drawn = false }]"#;
    let toml = enc(
        options,
        &[
            who("ash", "pcs", "0,0", &format!("{weapons}\n{ash}")),
            who("bo", "foes", "1,0", ""),
            who("cy", "pcs", "0,2", cy),
        ]
        .concat(),
    );
    Table::<HallowedEarth>::load(&toml, &[], &[7, 3, 5])
}

/// ash strikes bo once with `weapon` on count 1 (bo: Stress 10, Strength 12, `bo`), with the
/// attack's dice `faces`; returns the table.
fn strike(options: &str, weapon: &str, bo: &str, faces: &[u16]) -> Table<HallowedEarth> {
    let mut t = duel_z(options, &format!("weapons = [{weapon}]"), bo, [1, 9]);
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(faces).cmd("act");
    t.assert_dice_used();
    t
}
