//! Where dice come from.
//!
//! Resolution code draws every die through the [`Dice`] trait, so the same
//! rules run unchanged against a seeded generator (simulations), a fixed
//! script (tests and replays), a person typing the faces of physical dice
//! (interactive play), or any of these wrapped by [`RecordingDice`] to keep
//! the faces for a game record.
//!
//! Design decisions:
//!
//! - A roll appends to a caller-provided [`Faces`], so the seeded path never
//!   allocates.
//! - The reason for a roll is a `&dyn Display` that only interactive
//!   sources and error paths ever format, so describing a roll costs
//!   nothing in a simulation.
//! - Every source either appends all `count` faces or returns an error and
//!   leaves `out` unchanged (and, for a script, consumes nothing), so a
//!   failed roll never leaves half a roll behind.
//! - A request for a zero-sided die is an error from every source, reported
//!   as [`DiceError::OutOfRange`] with `face` and `sides` both 0, since no
//!   face is on such a die.

use std::collections::VecDeque;
use std::fmt;

use crate::faces::{Faces, MAX_DICE};
use crate::notation::NotationError;
use crate::prng::Prng;

/// Where dice come from. Resolution code draws every die through this trait.
pub trait Dice {
    /// Rolls `count` dice with `sides` faces each and appends the faces to
    /// `out`.
    ///
    /// `why` describes the roll for a person (only formatted by interactive
    /// sources and in errors, so it costs nothing otherwise). On error the
    /// built-in sources leave `out` unchanged.
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError>;
}

impl<D: Dice + ?Sized> Dice for &mut D {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        (**self).roll(count, sides, why, out)
    }
}

impl<D: Dice + ?Sized> Dice for Box<D> {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        (**self).roll(count, sides, why, out)
    }
}

/// Why a source could not produce the dice asked for.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DiceError {
    /// A scripted source had no faces left.
    #[error("the scripted dice ran out (needed a d{sides} for {why})")]
    Exhausted {
        /// The sides of the die that was needed.
        sides: u16,
        /// The reason given for the roll.
        why: String,
    },
    /// A scripted or typed face is not on the die (0, or above `sides`).
    /// A request for a zero-sided die is reported with `face` and `sides`
    /// both 0.
    #[error("face {face} is not on a d{sides} (for {why})")]
    OutOfRange {
        /// The offending face.
        face: u16,
        /// The sides of the die rolled.
        sides: u16,
        /// The reason given for the roll.
        why: String,
    },
    /// The roll would hold more than [`MAX_DICE`] dice.
    #[error("a roll may use at most {max} dice")]
    TooManyDice {
        /// The limit, [`MAX_DICE`].
        max: usize,
    },
    /// The person at an interactive prompt gave up (end of input, etc.).
    #[error("{0}")]
    Aborted(String),
}

/// Checks the parts of a request that every source checks the same way: the
/// die has sides and the faces fit in `out`.
fn check_request(count: usize, sides: u16, why: &dyn fmt::Display, out: &Faces) -> Result<(), DiceError> {
    if count > out.spare() {
        return Err(DiceError::TooManyDice { max: MAX_DICE });
    }
    if sides == 0 && count > 0 {
        return Err(DiceError::OutOfRange {
            face: 0,
            sides: 0,
            why: why.to_string(),
        });
    }
    Ok(())
}

/// Dice drawn from the frozen [`Prng`]: the source for simulations and for
/// seeded games that replay from their seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SeededDice {
    /// The generator; public so its state can be saved and restored.
    pub prng: Prng,
}

impl SeededDice {
    /// Dice from a generator seeded with `seed` (see [`Prng::from_seed`]).
    pub fn new(seed: u64) -> SeededDice {
        SeededDice {
            prng: Prng::from_seed(seed),
        }
    }

    /// Dice from stream `stream` of a batch seeded with `seed` (see
    /// [`Prng::for_stream`]).
    pub fn for_stream(seed: u64, stream: u64) -> SeededDice {
        SeededDice {
            prng: Prng::for_stream(seed, stream),
        }
    }

    /// Dice from an existing generator, continuing its sequence.
    pub fn from_prng(prng: Prng) -> SeededDice {
        SeededDice { prng }
    }
}

impl Dice for SeededDice {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        check_request(count, sides, why, out)?;
        for _ in 0..count {
            out.push(self.prng.die(sides))?;
        }
        Ok(())
    }
}

/// Dice that come from a fixed list of faces, in order: for tests, and for
/// replaying rolls that were entered by hand.
///
/// Running out of faces, or meeting a face that is not on the die asked for,
/// is an error rather than a panic, and a failed roll consumes nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedDice {
    /// The faces still to be dealt, front first.
    queue: VecDeque<u16>,
    /// How many faces have been dealt so far.
    consumed: usize,
}

impl ScriptedDice {
    /// Dice that will deal `faces` in order.
    pub fn new(faces: impl IntoIterator<Item = u16>) -> ScriptedDice {
        ScriptedDice {
            queue: faces.into_iter().collect(),
            consumed: 0,
        }
    }

    /// Appends more faces to the end of the script.
    pub fn extend(&mut self, faces: impl IntoIterator<Item = u16>) {
        self.queue.extend(faces);
    }

    /// How many faces are left.
    pub fn remaining(&self) -> usize {
        self.queue.len()
    }

    /// How many faces have been dealt.
    pub fn consumed(&self) -> usize {
        self.consumed
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        check_request(count, sides, why, out)?;
        // Validate the whole roll before taking anything, so that a failed
        // roll leaves both the script and `out` untouched.
        for i in 0..count {
            let Some(&face) = self.queue.get(i) else {
                return Err(DiceError::Exhausted {
                    sides,
                    why: why.to_string(),
                });
            };
            if face == 0 || face > sides {
                return Err(DiceError::OutOfRange {
                    face,
                    sides,
                    why: why.to_string(),
                });
            }
        }
        for face in self.queue.drain(..count) {
            out.push(face)?;
        }
        self.consumed += count;
        Ok(())
    }
}

/// Asks a person for the faces of physical dice.
///
/// For each roll it calls `ask(count, sides, why_text)`, which returns the
/// faces typed (for instance via [`parse_faces`]) or
/// `Err(DiceError::Aborted)`. The source checks the answer: on a wrong
/// number of faces or a face that is not on the die it calls
/// `complain(message)` and then asks again with the same request, for as
/// long as `ask` keeps answering; only `ask` can end the loop by returning
/// an error. A roll of zero dice asks nothing.
pub struct InteractiveDice<A, C>
where
    A: FnMut(usize, u16, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    /// Asks for `count` faces of a d`sides`, with the reason as text.
    ask: A,
    /// Tells the person what was wrong with the last answer.
    complain: C,
}

impl<A, C> InteractiveDice<A, C>
where
    A: FnMut(usize, u16, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    /// A source that asks with `ask` and reports bad answers with
    /// `complain`.
    pub fn new(ask: A, complain: C) -> InteractiveDice<A, C> {
        InteractiveDice { ask, complain }
    }

    /// Gives back the two closures.
    pub fn into_parts(self) -> (A, C) {
        (self.ask, self.complain)
    }
}

impl<A, C> fmt::Debug for InteractiveDice<A, C>
where
    A: FnMut(usize, u16, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InteractiveDice").finish_non_exhaustive()
    }
}

impl<A, C> Dice for InteractiveDice<A, C>
where
    A: FnMut(usize, u16, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        check_request(count, sides, why, out)?;
        if count == 0 {
            return Ok(());
        }
        let why_text = why.to_string();
        loop {
            let answer = (self.ask)(count, sides, &why_text)?;
            if let Some(problem) = answer_problem(&answer, count, sides) {
                (self.complain)(&problem);
                continue;
            }
            // The answer has exactly `count` faces and `count` fits, so this
            // cannot fail; the error path is kept rather than a panic.
            return out.extend_from_slice(&answer);
        }
    }
}

/// Describes what is wrong with a typed answer, or returns `None` if it is
/// exactly `count` faces that are all on a d`sides`.
fn answer_problem(answer: &[u16], count: usize, sides: u16) -> Option<String> {
    if answer.len() != count {
        let noun = if count == 1 { "face" } else { "faces" };
        return Some(format!("expected {count} {noun} of a d{sides}, got {}", answer.len()));
    }
    answer
        .iter()
        .find(|&&face| face == 0 || face > sides)
        .map(|face| format!("{face} is not on a d{sides}: faces run from 1 to {sides}"))
}

/// Wraps any source and keeps every face drawn, in order (for game records).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordingDice<D: Dice> {
    /// The source the dice really come from.
    pub inner: D,
    /// Every face drawn through this wrapper so far, in order.
    pub drawn: Vec<u16>,
}

impl<D: Dice> RecordingDice<D> {
    /// Starts recording the faces drawn from `inner`.
    pub fn new(inner: D) -> RecordingDice<D> {
        RecordingDice {
            inner,
            drawn: Vec::new(),
        }
    }

    /// Takes the faces recorded so far, leaving the record empty.
    pub fn take_drawn(&mut self) -> Vec<u16> {
        std::mem::take(&mut self.drawn)
    }

    /// Gives back the wrapped source, discarding the record.
    pub fn into_inner(self) -> D {
        self.inner
    }
}

impl<D: Dice> Dice for RecordingDice<D> {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        let start = out.len();
        self.inner.roll(count, sides, why, out)?;
        if let Some(new) = out.as_slice().get(start..) {
            self.drawn.extend_from_slice(new);
        }
        Ok(())
    }
}

/// Parses faces typed by a person: numbers separated by spaces and/or
/// commas, such as `"3 4 6"`, `"3,4,6"` or `"3, 4"`.
///
/// A comma must stand between two numbers. Every face must be a whole
/// number from 1 to 65535; whether it is on the die is the source's
/// business. Empty input gives an empty list. Errors name the 1-based
/// character column and the offending text.
pub fn parse_faces(text: &str) -> Result<Vec<u16>, NotationError> {
    let mut faces = Vec::new();
    let mut chars = text.chars().enumerate().peekable();
    // Column of a comma seen since the last number, if any.
    let mut pending_comma: Option<usize> = None;
    while let Some(&(index, c)) = chars.peek() {
        let column = index + 1;
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == ',' {
            if faces.is_empty() || pending_comma.is_some() {
                return Err(NotationError::new(
                    column,
                    "expected a face number before ',', found ','",
                ));
            }
            pending_comma = Some(column);
            chars.next();
            continue;
        }
        // A word runs up to the next separator.
        let mut word = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() || c == ',' {
                break;
            }
            word.push(c);
            chars.next();
        }
        faces.push(parse_face_word(&word, column)?);
        pending_comma = None;
    }
    if let Some(column) = pending_comma {
        return Err(NotationError::new(
            column,
            "expected a face number after ',', found the end of the input",
        ));
    }
    Ok(faces)
}

/// Parses one word of typed faces that starts at `column`.
fn parse_face_word(word: &str, column: usize) -> Result<u16, NotationError> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::new(
            column,
            format!("expected a face number, found '{word}'"),
        ));
    }
    match word.parse::<u16>() {
        Ok(0) => Err(NotationError::new(column, "expected a face of 1 or more, found '0'")),
        Ok(face) => Ok(face),
        Err(_) => Err(NotationError::new(
            column,
            format!("face '{word}' is too large (at most {})", u16::MAX),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll_vec(dice: &mut dyn Dice, count: usize, sides: u16) -> Result<Vec<u16>, DiceError> {
        let mut out = Faces::new();
        dice.roll(count, sides, &"test", &mut out)?;
        Ok(out.as_slice().to_vec())
    }

    #[test]
    fn seeded_dice_follow_the_prng() {
        let mut dice = SeededDice::new(42);
        assert_eq!(roll_vec(&mut dice, 5, 6).unwrap(), [1, 3, 5, 6, 6]);
        assert_eq!(roll_vec(&mut dice, 3, 6).unwrap(), [5, 5, 6]);
        let mut again = SeededDice::from_prng(Prng::from_seed(42));
        assert_eq!(roll_vec(&mut again, 8, 6).unwrap(), [1, 3, 5, 6, 6, 5, 5, 6]);
    }

    #[test]
    fn seeded_dice_refuse_too_many_and_zero_sides() {
        let mut dice = SeededDice::new(1);
        let before = dice.clone();
        assert_eq!(roll_vec(&mut dice, 33, 6), Err(DiceError::TooManyDice { max: 32 }));
        assert_eq!(
            roll_vec(&mut dice, 1, 0),
            Err(DiceError::OutOfRange {
                face: 0,
                sides: 0,
                why: "test".into()
            })
        );
        assert_eq!(dice, before, "a refused roll draws nothing");
        let mut out = Faces::from_slice(&[1; 30]).unwrap();
        assert_eq!(dice.roll(3, 6, &"x", &mut out), Err(DiceError::TooManyDice { max: 32 }));
        assert_eq!(out.len(), 30);
        assert_eq!(roll_vec(&mut dice, 0, 0).unwrap(), Vec::<u16>::new());
    }

    #[test]
    fn scripted_dice_deal_in_order() {
        let mut dice = ScriptedDice::new([3, 4, 6, 1]);
        assert_eq!(roll_vec(&mut dice, 3, 6).unwrap(), [3, 4, 6]);
        assert_eq!(dice.remaining(), 1);
        assert_eq!(dice.consumed(), 3);
        assert_eq!(roll_vec(&mut dice, 1, 20).unwrap(), [1]);
        assert_eq!(dice.remaining(), 0);
        assert_eq!(dice.consumed(), 4);
    }

    #[test]
    fn scripted_dice_errors_consume_nothing() {
        let mut dice = ScriptedDice::new([2, 7]);
        let err = roll_vec(&mut dice, 2, 6).unwrap_err();
        assert_eq!(
            err,
            DiceError::OutOfRange {
                face: 7,
                sides: 6,
                why: "test".into()
            }
        );
        assert_eq!(err.to_string(), "face 7 is not on a d6 (for test)");
        assert_eq!(dice.remaining(), 2);
        assert_eq!(dice.consumed(), 0);
        let err = roll_vec(&mut dice, 3, 8).unwrap_err();
        assert_eq!(err.to_string(), "the scripted dice ran out (needed a d8 for test)");
        assert_eq!(dice.remaining(), 2);
        assert_eq!(roll_vec(&mut dice, 2, 8).unwrap(), [2, 7]);
        let mut zero = ScriptedDice::new([0]);
        assert!(matches!(
            roll_vec(&mut zero, 1, 6),
            Err(DiceError::OutOfRange { face: 0, .. })
        ));
        dice.extend([5]);
        assert_eq!(roll_vec(&mut dice, 1, 6).unwrap(), [5]);
    }

    #[test]
    fn interactive_dice_reask_until_valid() {
        let mut answers = vec![
            Ok(vec![1, 2]),    // Too few faces.
            Ok(vec![1, 9, 3]), // 9 is not on a d6.
            Ok(vec![1, 6, 3]),
        ]
        .into_iter();
        let mut asked = Vec::new();
        let mut complaints = Vec::new();
        {
            let mut dice = InteractiveDice::new(
                |count, sides, why: &str| {
                    asked.push((count, sides, why.to_string()));
                    answers
                        .next()
                        .unwrap_or_else(|| Err(DiceError::Aborted("no more".into())))
                },
                |msg: &str| complaints.push(msg.to_string()),
            );
            let mut out = Faces::new();
            dice.roll(3, 6, &format_args!("attack by {}", "Ana"), &mut out).unwrap();
            assert_eq!(out.as_slice(), &[1, 6, 3]);
        }
        assert_eq!(asked.len(), 3);
        assert!(asked.iter().all(|a| *a == (3, 6, "attack by Ana".to_string())));
        assert_eq!(
            complaints,
            [
                "expected 3 faces of a d6, got 2",
                "9 is not on a d6: faces run from 1 to 6"
            ]
        );
    }

    #[test]
    fn interactive_dice_abort() {
        let mut dice = InteractiveDice::new(
            |_, _, _: &str| Err(DiceError::Aborted("end of input".into())),
            |_: &str| {},
        );
        let mut out = Faces::new();
        assert_eq!(
            dice.roll(1, 20, &"initiative", &mut out),
            Err(DiceError::Aborted("end of input".into()))
        );
        assert!(out.is_empty());
        // Zero dice need no question.
        dice.roll(0, 20, &"nothing", &mut out).unwrap();
        assert_eq!(format!("{dice:?}"), "InteractiveDice { .. }");
    }

    #[test]
    fn recording_dice_keep_every_face() {
        let mut rec = RecordingDice::new(ScriptedDice::new([4, 2, 6, 1]));
        let mut out = Faces::new();
        rec.roll(2, 6, &"a", &mut out).unwrap();
        rec.roll(1, 6, &"b", &mut out).unwrap();
        assert_eq!(out.as_slice(), &[4, 2, 6]);
        assert_eq!(rec.drawn, [4, 2, 6]);
        assert!(rec.roll(2, 6, &"c", &mut out).is_err());
        assert_eq!(rec.take_drawn(), [4, 2, 6]);
        assert!(rec.drawn.is_empty());
        assert_eq!(rec.into_inner().remaining(), 1);
    }

    #[test]
    fn dyn_references_and_boxes_are_dice() {
        let mut seeded = SeededDice::new(42);
        let dyn_ref: &mut dyn Dice = &mut seeded;
        let mut by_ref = RecordingDice::new(dyn_ref);
        assert_eq!(roll_vec(&mut by_ref, 2, 6).unwrap(), [1, 3]);
        let mut boxed: Box<dyn Dice> = Box::new(ScriptedDice::new([5]));
        assert_eq!(roll_vec(&mut boxed, 1, 6).unwrap(), [5]);
    }

    #[test]
    fn parse_faces_accepts_spaces_and_commas() {
        assert_eq!(parse_faces("3 4 6").unwrap(), [3, 4, 6]);
        assert_eq!(parse_faces("3,4,6").unwrap(), [3, 4, 6]);
        assert_eq!(parse_faces("3, 4").unwrap(), [3, 4]);
        assert_eq!(parse_faces("  20  ").unwrap(), [20]);
        assert_eq!(parse_faces("1 ,2\t3").unwrap(), [1, 2, 3]);
        assert_eq!(parse_faces("").unwrap(), Vec::<u16>::new());
        assert_eq!(parse_faces("65535").unwrap(), [65_535]);
    }

    #[test]
    fn parse_faces_errors_name_column_and_text() {
        let err = parse_faces("3 x 6").unwrap_err();
        assert_eq!(err.to_string(), "column 3: expected a face number, found 'x'");
        let err = parse_faces("3 4z").unwrap_err();
        assert_eq!(err.to_string(), "column 3: expected a face number, found '4z'");
        assert_eq!(parse_faces("3,,4").unwrap_err().column, 3);
        assert_eq!(parse_faces(",3").unwrap_err().column, 1);
        assert_eq!(
            parse_faces("3,").unwrap_err().to_string(),
            "column 2: expected a face number after ',', found the end of the input"
        );
        assert_eq!(
            parse_faces("1 70000").unwrap_err().to_string(),
            "column 3: face '70000' is too large (at most 65535)"
        );
        assert_eq!(
            parse_faces("0").unwrap_err().to_string(),
            "column 1: expected a face of 1 or more, found '0'"
        );
        assert_eq!(parse_faces("é 1").unwrap_err().column, 1);
        assert_eq!(parse_faces("é1 x").unwrap_err().column, 1);
        assert_eq!(parse_faces("1 é").unwrap_err().column, 3);
        assert_eq!(parse_faces("１").unwrap_err().column, 1);
        assert_eq!(parse_faces("-1").unwrap_err().column, 1);
    }
}
