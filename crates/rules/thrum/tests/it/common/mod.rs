//! The one helper every Thrum rule test goes through: the test kit's `Table` (`fray-testkit`)
//! with Thrum's encounter builders and lookups.
//!
//! A test builds a tiny encounter from TOML, feeds scripted dice as it goes (`dice`), and
//! types commands exactly as a person at `fray play` would (`cmd`). `cmd` panics with the
//! rejection's reason when a command is refused; `reject` asserts a refusal and that nothing
//! changed. Dice must be fed before the command that rolls them; a test fails if the engine
//! asks for a die that was not scripted, or if faces are left over when `assert_dice_used`
//! is called.
#![allow(dead_code)]

use fray_testkit::Table;
use fray_thrum::Thrum;
use fray_thrum::event::Event;
use fray_thrum::setup::Cid;
use fray_thrum::state::{Char, State};
use std::ops::{Deref, DerefMut};

/// The sides every test encounter uses: `pcs` (kind pc) and `npcs` (kind npc), both GM-seated
/// unless a combatant names its own seat.
pub const SIDES: &str = r#"
[[side]]
id = "pcs"
kind = "pc"
seat = "players"

[[side]]
id = "npcs"
kind = "npc"
seat = "gm"
"#;

/// An encounter: a map and some tables (combatants, options...), with the standard sides.
pub fn enc(rows: &[&str], rest: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("  \"{r}\",")).collect();
    format!(
        "ruleset = \"thrum\"\ntitle = \"test\"\n\n[map]\nrows = [\n{}\n]\n{SIDES}\n{rest}",
        rows.join("\n")
    )
}

/// An encounter with extra abilities: returns the encounter text and the files to pass to
/// [`T::with_files`]. `abilities` is the TOML of `[[ability]]` tables.
pub fn with_abilities(rows: &[&str], rest: &str, abilities: &str) -> (String, Vec<(&'static str, String)>) {
    let toml = enc(rows, rest).replacen(
        "title = \"test\"\n",
        "title = \"test\"\nability-files = [\"test-abilities.toml\"]\n",
        1,
    );
    (toml, vec![("test-abilities.toml", abilities.to_string())])
}

/// Starts a game from [`with_abilities`] output.
pub fn t_with(enc: &(String, Vec<(&'static str, String)>), init: &[u16]) -> T {
    let files: Vec<(&str, &str)> = enc.1.iter().map(|(n, t)| (*n, t.as_str())).collect();
    T::with_files(&enc.0, &files, init)
}

/// A combatant table with common defaults: `attack`, `resilience`, `evasion`, `resolve` 0,
/// tolerances 3/2, speed 4 unless `extra` says otherwise.
pub fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{extra}\n")
}

/// A test game: the kit's [`Table`] for Thrum, with Thrum's own lookups.
pub struct T(pub Table<Thrum>);

impl Deref for T {
    type Target = Table<Thrum>;
    fn deref(&self) -> &Table<Thrum> {
        &self.0
    }
}

impl DerefMut for T {
    fn deref_mut(&mut self) -> &mut Table<Thrum> {
        &mut self.0
    }
}

impl T {
    /// Loads the encounter (panicking with the diagnostics if it is invalid) and starts the
    /// game with the given faces for the Initiative rolls (two per combatant, in file order).
    pub fn new(toml: &str, init: &[u16]) -> T {
        T::with_files(toml, &[], init)
    }

    /// Like [`T::new`], with extra files the encounter may name in `ability-files` (name, text).
    /// Use [`abilities`] to add test abilities to an encounter.
    pub fn with_files(toml: &str, files: &[(&str, &str)], init: &[u16]) -> T {
        T(Table::load(toml, files, init))
    }

    /// Like [`T::new`], then answers every Round Zero decision with `end` and begins round 1's
    /// first slot (if it asks).
    pub fn in_round_one(toml: &str, init: &[u16]) -> T {
        let mut t = T::new(toml, init);
        t.skip_round_zero();
        t
    }

    /// Answers Round Zero decisions with `end`.
    pub fn skip_round_zero(&mut self) {
        while self.s().phase == fray_thrum::state::Phase::RoundZero && self.game.pending().is_some() {
            self.cmd("end");
        }
    }

    /// Queues dice faces for the next rolls.
    pub fn dice(&mut self, faces: &[u16]) -> &mut Self {
        self.0.dice(faces);
        self
    }

    /// The state.
    pub fn s(&self) -> &State {
        self.state()
    }

    /// A combatant's index by id.
    pub fn id(&self, id: &str) -> Cid {
        self.s().find(id).unwrap_or_else(|| panic!("no combatant {id}"))
    }

    /// A combatant's state by id.
    pub fn ch(&self, id: &str) -> &Char {
        self.s().ch(self.id(id))
    }

    /// The pending decision's kind and the id of the combatant it is about.
    pub fn pending(&self) -> (&'static str, String) {
        let p = self.game.pending().expect("nothing is pending");
        (
            p.kind(),
            p.actor().map(|a| self.s().info(a).id.clone()).unwrap_or_default(),
        )
    }

    /// Whose turn or slot it is, and at which step.
    pub fn turn(&self) -> (String, fray_thrum::state::Step) {
        (self.s().info(self.s().turn.who).id.clone(), self.s().turn.step)
    }

    /// The ids in turn order.
    pub fn order(&self) -> Vec<String> {
        self.s()
            .order
            .slots()
            .iter()
            .map(|sl| self.s().info(sl.who).id.clone())
            .collect()
    }

    /// Sets a gauge by GM ruling (`fatigue`, `stress`, `fatigue-tolerance`, ...).
    pub fn set(&mut self, id: &str, gauge: &str, value: i16) {
        self.cmd(&format!("gm set {id} {gauge} ={value}"));
    }
}

/// Extracts the contests among events.
pub fn contests(ev: &[Event]) -> Vec<(i16, Option<i16>, fray_thrum::event::Verdict)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Contest {
                attack,
                defence,
                verdict,
                ..
            } => Some((
                attack.as_ref().map_or(0, |a| a.total),
                defence.as_ref().map(|d| d.total),
                *verdict,
            )),
            _ => None,
        })
        .collect()
}
