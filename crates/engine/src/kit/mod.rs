//! Kits: the pieces a ruleset made from the skeleton would otherwise write again, each generic
//! over what differs between rulesets.
//!
//! - [`roster`]: the combatants of a fight ([`roster::Roster`] over a ruleset's
//!   [`roster::Member`]): look-ups by index and typed id, the seat that decides for one, and
//!   whether only one side is left;
//! - [`load`]: the encounter loader's standard steps (the ruleset line and the options, a
//!   combatant's side and square, its own seat, the check for empty sides, and the same checks
//!   again on a record's setup), every problem a diagnostic at file:line:column;
//! - [`rulings`]: the GM rulings every ruleset shares (set a gauge, move, add, remove, end),
//!   read, checked, printed and applied through [`rulings::GmTable`], which a ruleset
//!   implements for its state;
//! - [`text`]: the text every such ruleset prints alike: the result line, map markers, a grid
//!   with the combatants on it, and the encounter's names that the default seat and title
//!   methods of [`crate::text::TextRuleset`] read.
//!
//! A kit holds no rules of its own: what differs (a stat block, what a square may hold, the
//! sentences of a ruleset's own tables) stays in the ruleset and is passed in. The sentences a
//! kit writes are the ones the rulesets wrote before, so their diagnostics and rejections stay
//! as they were.

pub mod load;
pub mod roster;
pub mod rulings;
pub mod text;
