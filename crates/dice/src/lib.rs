//! Dice for the fray rules engine: a frozen random number generator, the
//! sources that dice are drawn from, roll records, dice notation and exact
//! probability distributions.
//!
//! # A frozen generator
//!
//! Game records store a seed rather than every face, so a record replays only
//! if the generator produces the same numbers forever. [`Prng`] is therefore
//! xoshiro256** seeded through SplitMix64, written out here rather than taken
//! from a library whose output might change between versions, and the mapping
//! from raw numbers to die faces (Lemire's unbiased multiply-shift) is part of
//! the frozen contract. Known-answer tests pin both.
//!
//! # Where dice come from
//!
//! Rules code never calls the generator directly: it draws every die through
//! the [`Dice`] trait. [`SeededDice`] serves simulations, [`ScriptedDice`]
//! serves tests and replays of hand-entered rolls, [`InteractiveDice`] asks a
//! person at the table for physical dice, and [`RecordingDice`] wraps any of
//! them to keep every face for the game record.
//!
//! # Cards
//!
//! [`Dice::draw`] draws one card, uniformly and without replacement, from the
//! cards a ruleset passes in (a [`Deck`] in its state, which it changes only
//! through its own events). The value of the card is what every source
//! returns and what the record keeps: a seeded draw is one die with as many
//! sides as cards left, a script and a person give the card's value, which
//! must be in the deck.
//!
//! # No allocation per roll
//!
//! Rolling dice is the simulation hot path. Faces live in [`Faces`], a fixed
//! inline array of at most [`MAX_DICE`] faces, and [`roll()`] produces a
//! [`Roll`] record (faces, a bit mask of kept faces and their total) without
//! touching the heap. Text is only produced when something goes wrong or when
//! a person is asked, which is why roll reasons are passed as
//! `&dyn Display` rather than as strings.
//!
//! # Notation and exact odds
//!
//! [`DiceExpr`] parses and prints expressions such as `4d6kh3+2`, and
//! [`Dist`] computes their exact distributions with integer counts, so odds
//! shown to players are exact fractions rather than sampled estimates.
//! When `u128` counts are not enough (joint rolls of many dice), [`Count`]
//! is an exact natural number of any size, and [`count::percent`] rounds a
//! fraction of two counts exactly for display.
//!
//! # Example
//!
//! ```
//! use fray_dice::{DiceExpr, Dist, Keep, SeededDice, roll};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Roll 4d6, keep the highest three, from a seeded source.
//! let mut dice = SeededDice::new(42);
//! let stats = roll(&mut dice, 4, 6, Keep::Highest(3), &"strength")?;
//! assert_eq!(stats.describe(), "[(1), 3, 5, 6] = 14");
//!
//! // The same pool in notation, and its exact odds of 15 or more.
//! let expr: DiceExpr = "4d6kh3".parse()?;
//! let odds = Dist::of_expr(&expr)?;
//! assert_eq!((odds.count_ge(15), odds.total()), (300, 1296));
//! # Ok(())
//! # }
//! ```

pub mod count;
pub mod deck;
pub mod dist;
pub mod faces;
pub mod notation;
pub mod prng;
pub mod roll;
pub mod source;

pub use count::Count;
pub use deck::Deck;
pub use dist::{Dist, DistError};
pub use faces::{Faces, MAX_DICE};
pub use notation::{DiceExpr, NotationError, Term};
pub use prng::Prng;
pub use roll::{Keep, Roll, roll};
pub use source::{
    DeckList, Dice, DiceError, InteractiveDice, RecordingDice, Request, ScriptedDice, SeededDice, parse_faces,
};
