//! The one helper every Thrum rule test goes through.
//!
//! A test builds a tiny encounter from TOML, feeds scripted dice as it goes (`dice`), and
//! types commands exactly as a person at `fray play` would (`cmd`). `cmd` panics with the
//! rejection's reason when a command is refused; `reject` asserts a refusal and that nothing
//! changed. Dice must be fed before the command that rolls them; a test fails if the engine
//! asks for a die that was not scripted, or if faces are left over when `assert_dice_used`
//! is called.
#![allow(dead_code)]

use fray_dice::{Dice, DiceError, Faces};
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Reject, Seat};
use fray_thrum::Thrum;
use fray_thrum::command::Command;
use fray_thrum::event::Event;
use fray_thrum::setup::Cid;
use fray_thrum::state::{Char, State};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

/// Dice shared between the test and the game: the test pushes faces, the game pops them.
#[derive(Clone, Default)]
pub struct Shared(pub Rc<RefCell<VecDeque<u16>>>);

impl Dice for Shared {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        let mut q = self.0.borrow_mut();
        for _ in 0..count {
            let Some(f) = q.pop_front() else {
                return Err(DiceError::Exhausted {
                    sides,
                    why: why.to_string(),
                });
            };
            if f == 0 || f > sides {
                return Err(DiceError::OutOfRange {
                    face: f,
                    sides,
                    why: why.to_string(),
                });
            }
            out.push(f)?;
        }
        Ok(())
    }
}

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

/// A test game.
pub struct T {
    pub game: Game<Thrum>,
    pub dice: Shared,
    pub last: Vec<Event>,
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
        let src = SourceFile {
            name: "test.toml".into(),
            text: toml.into(),
        };
        let mut read = |p: &str| {
            files
                .iter()
                .find(|(n, _)| *n == p)
                .map(|(n, t)| SourceFile {
                    name: n.to_string(),
                    text: t.to_string(),
                })
                .ok_or_else(|| format!("no file {p} in this test"))
        };
        let loaded = Thrum::load(&src, &mut read).unwrap_or_else(|d| {
            panic!(
                "bad test encounter:\n{}",
                d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
            )
        });
        let dice = Shared::default();
        dice.0.borrow_mut().extend(init.iter().copied());
        let game = Game::<Thrum>::new_with_dice(loaded.setup, loaded.options, Box::new(dice.clone()))
            .unwrap_or_else(|e| panic!("start failed: {e}"));
        let last = game.record().start.events.clone();
        let t = T { game, dice, last };
        t.assert_dice_used();
        t
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
        self.dice.0.borrow_mut().extend(faces.iter().copied());
        self
    }

    /// Asserts that every scripted face was used.
    pub fn assert_dice_used(&self) {
        let left: Vec<u16> = self.dice.0.borrow().iter().copied().collect();
        assert!(left.is_empty(), "scripted dice left unused: {left:?}");
    }

    fn parse(&self, text: &str) -> Result<Command, Reject> {
        Thrum::parse_command(self.s(), text)
    }

    fn seat_for(&self, text: &str) -> Seat {
        if text.starts_with("gm ") {
            Seat::GM
        } else {
            self.game.pending().map_or(Seat::GM, |p| p.seat)
        }
    }

    /// Types a command as the seat that must decide (GM for `gm ...`); panics if refused.
    /// Returns the events it produced.
    pub fn cmd(&mut self, text: &str) -> Vec<Event> {
        let c = self
            .parse(text)
            .unwrap_or_else(|r| panic!("'{text}' does not parse: {}", r.reason));
        let seat = self.seat_for(text);
        match self.game.submit(seat, c) {
            Ok(ev) => {
                self.last = ev.to_vec();
                self.last.clone()
            }
            Err(e) => panic!(
                "'{text}' was refused: {e}\npending: {:?}\nlegal: {:?}",
                self.game.pending(),
                self.legal()
            ),
        }
    }

    /// Types several commands.
    pub fn cmds(&mut self, texts: &[&str]) {
        for t in texts {
            self.cmd(t);
        }
    }

    /// Asserts that a command is refused with a listed code (the engine's or
    /// `fray_thrum::codes::ALL`) and changes nothing; returns the rejection.
    pub fn reject(&mut self, text: &str) -> Reject {
        let before = self.s().clone();
        let r = match self.parse(text) {
            Ok(c) => {
                let seat = self.seat_for(text);
                match self.game.submit(seat, c) {
                    Ok(_) => panic!("'{text}' was accepted"),
                    Err(fray_engine::SubmitError::Rejected(r)) => r,
                    Err(e) => panic!("'{text}' failed with an engine error: {e}"),
                }
            }
            Err(r) => r,
        };
        assert_eq!(self.s(), &before, "a rejected command changed the state");
        assert!(
            fray_thrum::codes::ALL.contains(&r.code) || Reject::ENGINE_CODES.contains(&r.code),
            "'{text}' was refused with the unlisted code {}",
            r.code
        );
        r
    }

    /// The state.
    pub fn s(&self) -> &State {
        self.game.state()
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
        (p.kind, p.actor.map(|a| self.s().info(a).id.clone()).unwrap_or_default())
    }

    /// The legal commands, printed.
    pub fn legal(&self) -> Vec<String> {
        self.game
            .legal_commands()
            .iter()
            .map(|c| Thrum::format_command(self.s(), c))
            .collect()
    }

    /// The readable log of the last command.
    pub fn log(&self) -> Vec<String> {
        // Described against the final state: good enough for assertions on wording.
        self.last
            .iter()
            .filter_map(|e| Thrum::describe_event(self.s(), e))
            .collect()
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

    /// Every event of the game so far.
    pub fn all_events(&self) -> Vec<Event> {
        let r = self.game.record();
        r.start
            .events
            .iter()
            .chain(r.entries.iter().flat_map(|e| e.events.iter()))
            .cloned()
            .collect()
    }

    /// Asserts the state survives a replay of the record.
    pub fn assert_replays(&self) {
        let g = Game::<Thrum>::replay(self.game.record()).expect("replay");
        assert_eq!(g.state(), self.s());
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
            } => Some((attack.map_or(0, |a| a.total), defence.map(|d| d.total), *verdict)),
            _ => None,
        })
        .collect()
}
