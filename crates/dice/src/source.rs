//! Where dice come from.
//!
//! Resolution code draws every die through the [`Dice`] trait, so the same
//! rules run unchanged against a seeded generator (simulations), a fixed
//! script (tests and replays), a person typing the faces of physical dice
//! (interactive play), or any of these wrapped by [`RecordingDice`] to keep
//! the faces for a game record.
//!
//! The trait also draws cards without replacement ([`Dice::draw`]): the
//! caller keeps the deck in its state (for instance a [`Deck`](crate::Deck)),
//! passes the cards still in it, and removes the card drawn through its own
//! event. What a source returns, and what the record keeps, is the card's
//! value, so cards typed from a physical deck, a `--dice` list and a seeded
//! draw all replay the same way.
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
//! - A draw from an empty deck is [`DiceError::EmptyDeck`] from every
//!   source, and a deck of more than 65535 cards (the largest die) is
//!   [`DiceError::DeckTooLarge`]; a failed draw consumes nothing.

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

    /// Draws one card, uniformly, from the cards still in `deck`, and
    /// returns its value.
    ///
    /// The caller owns the deck: it passes the cards left, in a fixed order
    /// (a seeded draw picks by position), and removes the card drawn itself,
    /// through its own event, so drawing again without removing it would be
    /// drawing with replacement. A value that appears twice in `deck` is two
    /// cards. What a recording keeps is the value, not the position.
    ///
    /// An empty deck is [`DiceError::EmptyDeck`] and a deck of more than
    /// 65535 cards is [`DiceError::DeckTooLarge`], from every source.
    ///
    /// The default rolls one die with `deck.len()` sides and takes the card
    /// at that position (face 1 is `deck[0]`); [`SeededDice`] does exactly
    /// the same with its generator. Sources whose faces come from a person or
    /// a list ([`ScriptedDice`], [`InteractiveDice`]) override it to take the
    /// card's value instead, and [`RecordingDice`] records the value.
    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        let sides = check_deck(deck, why)?;
        let mut out = Faces::new();
        self.roll(1, sides, why, &mut out)?;
        let face = out.as_slice().first().copied().unwrap_or(0);
        card_at(deck, face, why)
    }
}

impl<D: Dice + ?Sized> Dice for &mut D {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        (**self).roll(count, sides, why, out)
    }

    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        (**self).draw(deck, why)
    }
}

impl<D: Dice + ?Sized> Dice for Box<D> {
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        (**self).roll(count, sides, why, out)
    }

    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        (**self).draw(deck, why)
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
    /// A card was to be drawn from a deck with no cards left.
    #[error("there is no card left in the deck to draw (for {why})")]
    EmptyDeck {
        /// The reason given for the draw.
        why: String,
    },
    /// A deck held more cards than the largest die has faces.
    #[error("a deck may hold at most {max} cards, this one holds {len}")]
    DeckTooLarge {
        /// How many cards the deck held.
        len: usize,
        /// The limit, 65535.
        max: usize,
    },
    /// A scripted source had no value left for a card to be drawn.
    #[error("the scripted dice ran out (needed a card for {why})")]
    ExhaustedDraw {
        /// The reason given for the draw.
        why: String,
    },
    /// A scripted or typed card is not among the cards left in the deck.
    #[error("card {card} is not in the deck (in the deck: {}) (for {why})", DeckList(deck))]
    NotInDeck {
        /// The offending card value.
        card: u16,
        /// The cards that were left in the deck.
        deck: Vec<u16>,
        /// The reason given for the draw.
        why: String,
    },
}

/// Shows cards as `1 2 3 5` (for prompts and messages about a deck).
#[derive(Clone, Copy, Debug)]
pub struct DeckList<'a>(pub &'a [u16]);

impl fmt::Display for DeckList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

/// Checks a deck that a card is to be drawn from: it holds at least one card
/// and no more than a die can have faces. Returns its size as a die.
fn check_deck(deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
    if deck.is_empty() {
        return Err(DiceError::EmptyDeck { why: why.to_string() });
    }
    u16::try_from(deck.len()).map_err(|_| DiceError::DeckTooLarge {
        len: deck.len(),
        max: usize::from(u16::MAX),
    })
}

/// The card at die face `face` (face 1 is the first card), or the error a
/// face off the die gets.
fn card_at(deck: &[u16], face: u16, why: &dyn fmt::Display) -> Result<u16, DiceError> {
    face.checked_sub(1)
        .and_then(|i| deck.get(usize::from(i)))
        .copied()
        .ok_or_else(|| DiceError::OutOfRange {
            face,
            sides: u16::try_from(deck.len()).unwrap_or(u16::MAX),
            why: why.to_string(),
        })
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

    /// The same generator step as rolling one die with `deck.len()` sides,
    /// taking the card at that position; nothing is allocated.
    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        let sides = check_deck(deck, why)?;
        card_at(deck, self.prng.die(sides), why)
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

    /// Takes the next face of the script as the card's value; a value that
    /// is not in `deck` is [`DiceError::NotInDeck`] and consumes nothing.
    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        check_deck(deck, why)?;
        let Some(&card) = self.queue.front() else {
            return Err(DiceError::ExhaustedDraw { why: why.to_string() });
        };
        if !deck.contains(&card) {
            return Err(DiceError::NotInDeck {
                card,
                deck: deck.to_vec(),
                why: why.to_string(),
            });
        }
        self.queue.pop_front();
        self.consumed += 1;
        Ok(card)
    }
}

/// What an [`InteractiveDice`] asks a person for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request<'a> {
    /// The faces of `count` dice with `sides` faces each (`count` is at
    /// least 1).
    Roll {
        /// How many dice to roll.
        count: usize,
        /// The sides of each die.
        sides: u16,
    },
    /// The value of one card drawn from a physical deck whose cards left are
    /// `deck` (never empty).
    Draw {
        /// The cards still in the deck.
        deck: &'a [u16],
    },
}

/// Asks a person for the faces of physical dice, or the value of a card
/// drawn from a physical deck.
///
/// For each roll or draw it calls `ask(request, why_text)`, which returns
/// the numbers typed (for instance via [`parse_faces`]) or
/// `Err(DiceError::Aborted)`. The source checks the answer: on a wrong
/// number of faces, a face that is not on the die, more or fewer than one
/// card, or a card that is not in the deck it calls `complain(message)` and
/// then asks again with the same request, for as long as `ask` keeps
/// answering; only `ask` can end the loop by returning an error. A roll of
/// zero dice asks nothing; a draw from an empty deck asks nothing and is
/// [`DiceError::EmptyDeck`].
pub struct InteractiveDice<A, C>
where
    A: FnMut(Request<'_>, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    /// Asks for the faces of a roll or the value of a card, with the reason
    /// as text.
    ask: A,
    /// Tells the person what was wrong with the last answer.
    complain: C,
}

impl<A, C> InteractiveDice<A, C>
where
    A: FnMut(Request<'_>, &str) -> Result<Vec<u16>, DiceError>,
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
    A: FnMut(Request<'_>, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InteractiveDice").finish_non_exhaustive()
    }
}

impl<A, C> Dice for InteractiveDice<A, C>
where
    A: FnMut(Request<'_>, &str) -> Result<Vec<u16>, DiceError>,
    C: FnMut(&str),
{
    fn roll(&mut self, count: usize, sides: u16, why: &dyn fmt::Display, out: &mut Faces) -> Result<(), DiceError> {
        check_request(count, sides, why, out)?;
        if count == 0 {
            return Ok(());
        }
        let why_text = why.to_string();
        loop {
            let answer = (self.ask)(Request::Roll { count, sides }, &why_text)?;
            if let Some(problem) = answer_problem(&answer, count, sides) {
                (self.complain)(&problem);
                continue;
            }
            // The answer has exactly `count` faces and `count` fits, so this
            // cannot fail; the error path is kept rather than a panic.
            return out.extend_from_slice(&answer);
        }
    }

    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        check_deck(deck, why)?;
        let why_text = why.to_string();
        loop {
            let answer = (self.ask)(Request::Draw { deck }, &why_text)?;
            match answer.as_slice() {
                [card] if deck.contains(card) => return Ok(*card),
                [card] => (self.complain)(&format!(
                    "{card} is not in the deck: the cards left are {}",
                    DeckList(deck)
                )),
                _ => (self.complain)(&format!("expected 1 card, got {}", answer.len())),
            }
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

/// Wraps any source and keeps every face rolled and every card drawn, in
/// order (for game records).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordingDice<D: Dice> {
    /// The source the dice really come from.
    pub inner: D,
    /// Every face rolled and card value drawn through this wrapper so far,
    /// in order.
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

    /// Records the card's value, not its position in the deck.
    fn draw(&mut self, deck: &[u16], why: &dyn fmt::Display) -> Result<u16, DiceError> {
        let card = self.inner.draw(deck, why)?;
        self.drawn.push(card);
        Ok(card)
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
                |request: Request<'_>, why: &str| {
                    let Request::Roll { count, sides } = request else {
                        return Err(DiceError::Aborted("not a roll".into()));
                    };
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
            |_: Request<'_>, _: &str| Err(DiceError::Aborted("end of input".into())),
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
