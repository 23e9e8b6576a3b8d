//! Exact odds of Murdham's dice: saves (alone, as a group, or sizes deciding them), contests,
//! exploding damage with impairment, enhancement, size multipliers, armour and the damage a
//! target can take, attacks with a to-hit save and a dodge, a counter's race between two blows,
//! and durability rolls. `fray odds murdham ...` prints them ([`parse_and_run`]), and the play
//! prompt shows [`attack_note`] beside each attack.
//!
//! The mechanics (the "Core resolution mechanic" and "Stats" sections of `shared/rules/murdham.md`
//! and the rules cited below):
//! - A save rolls a d20 and passes on a roll at or under the score ([`save_passes`]). A score of 0
//!   or less cannot pass. A larger character wins STR saves against a smaller one outright.
//! - A group save is one d20 read against every member's score. A contest is `score - d20` on each
//!   side; the highest wins, and sides tied at the top roll again among themselves.
//! - Damage rolls the weapon's die; its highest face counts one less and the die is rolled again
//!   and added, as often as it comes up ([`exploding_total`]). Impaired damage keeps the lower of
//!   two such rolls and enhanced the higher; each impairment cancels one enhancement, two net
//!   impairments deal nothing and extra enhancements add nothing ([`Quality`]).
//! - Size multiplies the damage a character deals (tiny ÷4, small ÷2, large ×2, massive ×4), a
//!   sweep halves it and a blast aimed at one large target doubles it (MUR-R58). All of these are
//!   powers of two, so they are added up into one net factor applied once to the kept roll, a
//!   division rounding up ([`DamageSpec::scaled`]); so a sweep by a large character deals the
//!   roll itself. Armour is subtracted afterwards, down to 0; direct damage ignores it
//!   ([`DamageSpec::dealt`]).
//! - Losing at once at least half the remaining health (rounded up) is critical damage; a helmet
//!   raises that by 1 except against direct damage; losing all of it is also dying; a single hit
//!   of at least the maximum health kills outright ([`critical_threshold`], MUR-H20).
//! - An attack needs the to-hit WIT save only in challenging circumstances (MUR-R13), and the
//!   target's dodge is an AGI save that makes it miss (MUR-R20).
//! - In a counter both roll at once and whoever would suffer more damage after reductions is hit
//!   first; a tie lands both together (MUR-R21, MUR-H10: 0 against 0 is a tie). A first hit that
//!   is critical for its victim (incapacitated, or dying) stops that victim's own blow.
//! - Durability fails on 1:4 (1:8 for robust items): the first failure damages an item, the
//!   second destroys it (MUR-R48, MUR-H16). A damaged weapon breaks when the kept damage roll
//!   shows a natural 1 (MUR-R49, MUR-H25), a damaged shield or armour on a hit of 8 or more before
//!   armour (MUR-R50).
//!
//! # Exactness
//!
//! Every probability is a fraction of two exact counts ([`Count`], of any size): a [`Chance`] in
//! lowest terms, or a [`TailDist`] of counts over a common total. Floating point appears only in
//! the JSON (`p` beside the exact fraction) and the text rounds each fraction exactly to one
//! decimal of a percent (`<0.1%` and `>99.9%` for outcomes that can or cannot happen).
//!
//! An exploding die has no largest value, so a damage roll is followed exactly through a number
//! of explosions (its depth): every value up to the resulting cap has its exact chance, and
//! everything above the cap is one exact "more than" bucket, always reported and never dropped,
//! so the chances add up to exactly 1. With `D` explosions followed, a die of `N` sides has `N^D`
//! equally likely padded sequences, and the value `(N-1)k + r` (`r` in 1..N-1, `k < D`) takes
//! `N^(D-k-1)` of them: its chance is `(1/N)^(k+1)`; the one sequence of `D` maxima is the tail.
//! The depth is the smallest that leaves less than 1 in 10^9 beyond the cap, raised until every
//! threshold asked about (health, critical damage, 8 before armour) lies inside the exact part,
//! so those chances are exact with no bucket involved. The only figure that is not exact is the
//! mean damage, which counts the bucket at its least value; it is low by less than 1e-6.
//!
//! In a counter, the two damages are compared exactly up to a common cap; only when both lie
//! above it is the order unknown, and that joint tail (below about 1e-9) is reported as
//! `undecided` rather than guessed.
//!
//! Bad input is an `Err` with a sentence naming the word, never a panic.
//!
//! # Files
//!
//! One file per calculation, in the order of the mechanics above: `chance` (exact chances),
//! `saves` (saves, group saves, contests), `spec` (dice, sizes, damage specifications), `tail`
//! (exact distributions with a tail), `damage` (damage rolls), `attack` (attacks and the
//! prompt's note), `counter` (counters), `durability`, and `cli` (the command line). The
//! decision behind the split: the calculations share a few private helpers and the tests read
//! them all, so the files see each other through `use super::*`, and everything keeps its
//! path as `odds::...`.

mod attack;
mod chance;
mod cli;
mod counter;
mod damage;
mod durability;
mod saves;
mod spec;
mod tail;

pub use self::attack::*;
pub use self::chance::*;
pub use self::cli::*;
pub use self::counter::*;
pub use self::damage::*;
pub use self::durability::*;
pub use self::saves::*;
pub use self::spec::*;
pub use self::tail::*;

use fray_dice::count::{Count, percent, tenths};
use serde::{Serialize, Serializer};
use std::fmt::{self, Write};

/// The faces of the d20 that saves and contests roll.
const D20: u32 = 20;

/// A damage roll is followed far enough that fewer than 1 in this many rolls lie beyond its cap.
const TAIL_ODDS: u128 = 1_000_000_000;

/// The highest save score: abilities run from 1 to 19.
pub const MAX_SCORE: i32 = 19;

/// The lowest score accepted (0 or less can never pass a save).
pub const MIN_SCORE: i32 = -99;

/// The most armour accepted (heavy armour, two shields, cover and a massive size stay far below).
pub const MAX_ARMOUR: u32 = 50;

/// The most maximum health accepted (STR 19 at massive size with the tough skill is 84).
pub const MAX_HEALTH: u32 = 200;

/// The most members of a group save.
pub const MAX_GROUP: usize = 20;

/// The most sides of a contest.
pub const MAX_CONTEST: usize = 6;

/// Damage before armour that destroys a damaged shield or armour (MUR-R50).
pub const BREAKS_ARMOUR: usize = 8;

/// The most impairments or enhancements counted on one damage roll.
const MAX_STEPS: u8 = 9;

#[cfg(test)]
#[path = "../odds_tests.rs"]
mod tests;
