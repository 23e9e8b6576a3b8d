//! The one helper every Ingenuity rule test goes through.
//!
//! A test builds a tiny encounter from TOML, feeds scripted dice as it goes (`dice`), and types
//! commands exactly as a person at `fray play` would (`cmd`). `cmd` panics with the rejection's
//! reason when a command is refused; `reject` asserts a refusal and that nothing changed. Dice
//! must be fed before the command that rolls them; a test fails if the engine asks for a die
//! that was not scripted, or if faces are left when `assert_dice_used` is called.
//!
//! Dice order: a test rolls its attribute die, its skill die, then the luck d20, then one die
//! per advantage/disadvantage reroll. An attack: defences declared before the roll (a dodge
//! rolls its test then), the attack test, a misfire pick (if several could be hit), then the
//! consciousness fortify test and the death check's luck die.
#![allow(dead_code)]

use fray_dice::{Dice, DiceError, Faces};
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Reject, Seat};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::command::Command;
use fray_ingenuity::event::Event;
use fray_ingenuity::setup::Cid;
use fray_ingenuity::state::{Char, State};
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

/// The teams every test encounter uses: `pcs` (seat `players`) first and `foes` (seat `gm`)
/// second, so `pcs` picks first unless `[initiative]` says otherwise.
pub const TEAMS: &str = r#"
[[team]]
id = "pcs"
seat = "players"

[[team]]
id = "foes"
seat = "gm"
"#;

/// Test items on top of the built-in ones (`data/items.toml`): a spear with the chapter's
/// numbers, a bow, a shield, a nonlethal club.
pub const ITEMS: &str = r#"
[[item]]
id = "spear"
attributes = ["str", "dex"]
proficiencies = ["martial", "finesse"]
damage = 4
type = "piercing"
critical-threshold = 19
critical-damage = 8
metal = true

[[item]]
id = "bow"
attributes = ["dex"]
proficiencies = ["archery"]
damage = 3
type = "piercing"
critical-threshold = 20
critical-damage = 6
range = 20
properties = ["projectile"]

[[item]]
id = "shield"
block = 3
durability = 5

[[item]]
id = "club"
attributes = ["str"]
proficiencies = ["martial"]
damage = 2
type = "bludgeoning"
properties = ["nonlethal"]
"#;

/// An encounter: a map and some tables (combatants, options...), with the standard teams and
/// the test items.
pub fn enc(rows: &[&str], rest: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("  \"{r}\",")).collect();
    format!(
        "ruleset = \"ingenuity\"\ntitle = \"test\"\n\n[map]\nrows = [\n{}\n]\n{TEAMS}\n{ITEMS}\n{rest}",
        rows.join("\n")
    )
}

/// A combatant table: `extra` adds fields (attributes, skills, items, overrides...).
pub fn who(id: &str, team: &str, at: &str, extra: &str) -> String {
    format!("[[combatant]]\nid = \"{id}\"\nteam = \"{team}\"\nat = \"{at}\"\n{extra}\n")
}

/// A test game.
pub struct T {
    pub game: Game<Ingenuity>,
    pub dice: Shared,
    pub last: Vec<Event>,
}

impl T {
    /// Loads the encounter (panicking with the diagnostics if it is invalid) and starts it.
    pub fn new(toml: &str) -> T {
        let src = SourceFile {
            name: "test.toml".into(),
            text: toml.into(),
        };
        let mut read = |p: &str| Err(format!("no file {p} in this test"));
        let loaded = Ingenuity::load(&src, &mut read).unwrap_or_else(|d| {
            panic!(
                "bad test encounter:\n{}",
                d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
            )
        });
        let dice = Shared::default();
        let game = Game::<Ingenuity>::new_with_dice(loaded.setup, loaded.options, Box::new(dice.clone()))
            .unwrap_or_else(|e| panic!("start failed: {e}"));
        let last = game.record().start.events.clone();
        T { game, dice, last }
    }

    /// Starts the encounter and picks `first` for the first turn.
    pub fn turn_of(toml: &str, first: &str) -> T {
        let mut t = T::new(toml);
        t.cmd(&format!("pick {first}"));
        t
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
        Ingenuity::parse_command(self.s(), text)
    }

    fn seat_for(&self, text: &str) -> Seat {
        if text.starts_with("gm ") {
            Seat::GM
        } else {
            self.game.pending().map_or(Seat::GM, |p| p.seat)
        }
    }

    /// Types a command as the seat that must decide (GM for `gm ...`); panics if refused.
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
    /// `fray_ingenuity::codes::ALL`) and changes nothing; returns the rejection.
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
            fray_ingenuity::codes::ALL.contains(&r.code) || Reject::ENGINE_CODES.contains(&r.code),
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

    /// The pending decision's kind and the id of the combatant it is about ("" for a team's
    /// pick).
    pub fn pending(&self) -> (&'static str, String) {
        let p = self.game.pending().expect("nothing is pending");
        (p.kind, p.actor.map(|a| self.s().info(a).id.clone()).unwrap_or_default())
    }

    /// The legal commands, printed.
    pub fn legal(&self) -> Vec<String> {
        self.game
            .legal_commands()
            .iter()
            .map(|c| Ingenuity::format_command(self.s(), c))
            .collect()
    }

    /// The readable log of the last command.
    pub fn log(&self) -> Vec<String> {
        self.last
            .iter()
            .filter_map(|e| Ingenuity::describe_event(self.s(), e))
            .collect()
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Option<String> {
        self.s().turn.as_ref().map(|t| self.s().info(t.who).id.clone())
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
        let g = Game::<Ingenuity>::replay(self.game.record()).expect("replay");
        assert_eq!(g.state(), self.s());
    }

    /// The attack results among the last events: (hit, crit, evasion).
    pub fn results(&self) -> Vec<(bool, bool, i16)> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::AttackResult { hit, crit, evasion, .. } => Some((*hit, *crit, *evasion)),
                _ => None,
            })
            .collect()
    }

    /// The attack test totals among the last events.
    pub fn attack_totals(&self) -> Vec<i16> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::AttackRolled { roll, .. } => Some(roll.total),
                _ => None,
            })
            .collect()
    }

    /// The damage dealt among the last events: (who, amount, endurance, health).
    pub fn damage(&self) -> Vec<(String, i16, i16, i16)> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged {
                    who,
                    amount,
                    endurance,
                    health,
                    ..
                } => Some((self.s().info(*who).id.clone(), *amount, *endurance, *health)),
                _ => None,
            })
            .collect()
    }
}
