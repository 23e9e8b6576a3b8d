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

mod attacking;
mod blast_attacks;
mod gear_degradation;
mod non_lethal_attacks;
mod protection;
mod reacting_to_an_attack;
mod reactions;
mod sneaking;

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
