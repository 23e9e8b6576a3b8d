//! Test-only helpers shared by every ruleset's tests and benchmarks (a dev-dependency only; no
//! library crate may depend on it, and it names no ruleset).
//!
//! - [`Table`]: a game of any [`TextRuleset`] at a table with scripted dice. A test loads an
//!   encounter text, feeds dice faces as it goes ([`Table::dice`]), and types commands exactly
//!   as a person at `fray play` would ([`Table::cmd`], [`Table::type_as`]).
//!   [`Table::expect_rejection`] asserts a refusal with its code and that neither the state nor
//!   the record changed.
//! - [`example`]: the shipped examples (`examples/<ruleset id>/`), loaded as the `fray` command
//!   loads them, for conformance tests, record tests and benchmarks.
//! - [`versions`]: checks of older records every ruleset's version tests share.
//!
//! This crate may read files (it never ships in a binary).

mod example;
mod table;
pub mod versions;

pub use example::{example, example_path};
pub use table::{SharedDice, Table};
