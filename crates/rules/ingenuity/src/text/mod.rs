//! Log lines, prompts, views and summaries.
//!
//! The files: `log` the line of each event (and of a test's dice), `prompt` the line of the
//! pending decision (in full, or as a seat may know it), `report` the JSON view of the state
//! and the end-of-combat summary, `map` the battlefield as text (and who sees what of it), and
//! `tracker` the combat tracker, the browser table and the conditions both list. The decision
//! behind the split: each is read by a different part of the table (the log, the prompt, the
//! `map`, `show` and browser views), and what a seat may see is decided once, in `map`'s
//! [`sees`] and its gauge rule, for all of them.

mod log;
mod map;
mod prompt;
mod report;
mod tracker;

pub use self::log::{describe, test_text};
pub(crate) use self::map::sees;
pub use self::map::{map, marker};
pub use self::prompt::{describe_pending, describe_pending_for};
pub use self::report::{summary, view};
pub use self::tracker::{conditions, table, tracker};
