//! A game of any text ruleset at a table with scripted dice.

use fray_dice::{Dice, DiceError, Faces};
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{Game, Reject, Seat, SubmitError};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

/// Dice shared between a test and its game: the test pushes faces, the game pops them. Asking
/// for a die that was not scripted, or a face a die cannot show, is a dice error (which the
/// engine reports and which leaves the game as it was).
#[derive(Clone, Default)]
pub struct SharedDice(pub Rc<RefCell<VecDeque<u16>>>);

impl Dice for SharedDice {
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

/// A game at the table: the game, its scripted dice, and the events of the last command.
///
/// Dice must be fed before the command that rolls them; a command fails if the engine asks for
/// a die that was not scripted, and [`Table::assert_dice_used`] fails if faces are left over.
pub struct Table<R: TextRuleset> {
    /// The game.
    pub game: Game<R>,
    /// The scripted dice (faces still to be dealt, front first).
    pub dice: SharedDice,
    /// The events of the last accepted command (at first, those of the start).
    pub last: Vec<R::Event>,
}

impl<R: TextRuleset> Table<R> {
    /// Loads an encounter text (named `test.toml`) and starts the game with `faces` scripted
    /// for the start. `files` are the files the encounter may refer to (name, text); any other
    /// file is "no file NAME in this test". Panics with the diagnostics if the encounter is
    /// invalid, if the start fails, or if the start leaves faces unused.
    pub fn load(toml: &str, files: &[(&str, &str)], faces: &[u16]) -> Self {
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
        let loaded = R::load(&src, &mut read).unwrap_or_else(|d| {
            panic!(
                "bad test encounter:\n{}",
                d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")
            )
        });
        let dice = SharedDice::default();
        dice.0.borrow_mut().extend(faces.iter().copied());
        let game = Game::<R>::new_with_dice(loaded.setup, loaded.options, Box::new(dice.clone()))
            .unwrap_or_else(|e| panic!("start failed: {e}"));
        let last = game.record().start.events.clone();
        let t = Table { game, dice, last };
        t.assert_dice_used();
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

    /// The state.
    pub fn state(&self) -> &R::State {
        self.game.state()
    }

    /// Parses a command as typed at the prompt.
    pub fn parse(&self, text: &str) -> Result<R::Command, Reject> {
        R::parse_command(self.state(), text)
    }

    /// The seat a command is typed from: the GM for `gm ...`, otherwise the seat that must
    /// decide (the GM when nobody must).
    pub fn seat_for(&self, text: &str) -> Seat {
        if text.starts_with("gm ") {
            Seat::GM
        } else {
            self.game.pending().map_or(Seat::GM, |p| p.first())
        }
    }

    /// Types a command as `seat`: a command that does not parse is its rejection. On success
    /// the events it produced become [`Table::last`] and are returned.
    pub fn submit(&mut self, seat: Seat, text: &str) -> Result<Vec<R::Event>, SubmitError> {
        let c = self.parse(text)?;
        let ev = self.game.submit(seat, c)?;
        self.last = ev.to_vec();
        Ok(self.last.clone())
    }

    /// Types a command as `seat`; panics with the reason (and the pending decision and the
    /// legal commands) if it is refused. Returns the events it produced.
    pub fn type_as(&mut self, seat: Seat, text: &str) -> Vec<R::Event> {
        let c = self
            .parse(text)
            .unwrap_or_else(|r| panic!("'{text}' does not parse: {}", r.reason));
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

    /// Types a command as the seat that must decide (the GM for `gm ...`, see
    /// [`Table::seat_for`]); panics if it is refused. Returns the events it produced.
    pub fn cmd(&mut self, text: &str) -> Vec<R::Event> {
        let seat = self.seat_for(text);
        self.type_as(seat, text)
    }

    /// Types several commands with [`Table::cmd`].
    pub fn cmds(&mut self, texts: &[&str]) {
        for t in texts {
            self.cmd(t);
        }
    }

    /// Asserts that `seat` typing `text` is refused and changes neither the state nor the
    /// record; returns the rejection. A command that does not parse is returned as it is.
    pub fn reject_as(&mut self, seat: Seat, text: &str) -> Reject {
        let state = self.state().clone();
        let record = self.game.record().clone();
        let c = match self.parse(text) {
            Ok(c) => c,
            Err(r) => return r,
        };
        let r = match self.game.submit(seat, c) {
            Ok(_) => panic!("'{text}' was accepted"),
            Err(SubmitError::Rejected(r)) => r,
            Err(e) => panic!("'{text}' failed with an engine error: {e}"),
        };
        assert_eq!(self.state(), &state, "a rejected command changed the state");
        assert!(self.game.record() == &record, "a rejected command changed the record");
        assert!(
            R::REJECTION_CODES.contains(&r.code) || Reject::ENGINE_CODES.contains(&r.code),
            "'{text}' was refused with the unlisted code {}",
            r.code
        );
        r
    }

    /// Like [`Table::reject_as`] from the seat that must decide (see [`Table::seat_for`]).
    pub fn reject(&mut self, text: &str) -> Reject {
        let seat = self.seat_for(text);
        self.reject_as(seat, text)
    }

    /// Asserts that `seat` typing `text` is refused with `code` and changes neither the state
    /// nor the record; returns the rejection.
    pub fn expect_rejection(&mut self, seat: Seat, text: &str, code: &str) -> Reject {
        let r = self.reject_as(seat, text);
        assert_eq!(r.code, code, "'{text}' was refused for another reason: {}", r.reason);
        r
    }

    /// The legal commands of the seat asked first, printed.
    pub fn legal(&self) -> Vec<String> {
        self.game
            .legal_commands(self.game.pending().map_or(Seat::GM, |p| p.first()))
            .iter()
            .map(|c| R::format_command(self.state(), c))
            .collect()
    }

    /// The readable log of the last command, described against the current state (good enough
    /// for assertions on wording).
    pub fn log(&self) -> Vec<String> {
        self.last
            .iter()
            .filter_map(|e| R::describe_event(self.state(), e))
            .collect()
    }

    /// Every event of the game so far, the start's first.
    pub fn all_events(&self) -> Vec<R::Event> {
        let r = self.game.record();
        r.start
            .events
            .iter()
            .chain(r.entries.iter().flat_map(|e| e.events.iter()))
            .cloned()
            .collect()
    }

    /// Asserts that a replay of the record reaches the same state.
    pub fn assert_replays(&self) {
        let g = Game::<R>::replay(self.game.record()).expect("replay");
        assert_eq!(g.state(), self.state());
    }
}
