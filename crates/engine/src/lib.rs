//! The ruleset-agnostic core of fray.
//!
//! A game is a [`Ruleset`]: plain-data state, commands that are checked and then resolved into
//! events, and one `apply` that is the only way state changes. This crate owns everything that
//! is the same for every game:
//!
//! - **the combat loop** ([`play`]): authority, the rules check and its plan, resolution into a
//!   sink of events, and policies playing to the end, once for every driver;
//! - **authority** ([`Game::submit`]): a finished game, a seat deciding out of turn, or a ruling
//!   from a seat that is not the GM are rejected here, before the ruleset sees the command;
//! - **records** ([`Record`]): ruleset id and version, options, setup, seed and every command with
//!   the faces it drew and the events it produced; [`Game::replay`] re-runs a record and fails on
//!   the first divergence;
//! - **turn orders** ([`order`]: sorted initiative with delays; [`teams`]: team alternation), the
//!   **action economy** ([`economy`]: actions per turn, reactions per round, extended actions)
//!   that rulesets reuse;
//! - the **resolution kit** ([`resolve`]: the context that changes state only through `emit`,
//!   the frame stack with its depth limit, the `settle` driver) and the **GM-ruling vocabulary**
//!   ([`gm`]);
//! - the **text layer** ([`text`]) through which the `fray` command talks to any ruleset, and the
//!   **encounter kit** ([`encounter`]) that reads what every encounter file shares, with
//!   [`sides`] for `[[side]]` tables and seats;
//! - the **kits** ([`kit`]) a ruleset made from the skeleton builds on: its roster, the standard
//!   encounter loader's steps, the shared GM rulings, and the text it prints alike;
//! - the **conformance suite** ([`conformance`]) every ruleset runs over its examples.
//!
//! The engine never depends on a concrete ruleset.

pub mod conformance;
pub mod diag;
pub mod economy;
pub mod encounter;
mod error;
mod game;
pub mod gm;
pub mod kit;
pub mod order;
pub mod play;
mod policy;
mod record;
pub mod resolve;
mod ruleset;
mod seat;
pub mod sides;
mod summary;
pub mod teams;
pub mod text;
pub mod view;

pub use error::{EngineError, Reject, RejectKind};
pub use game::{Game, StartFailed};
pub use play::{Answer, Sink, SubmitError, authorize};
pub use policy::{Decision, FirstLegal, Policy, RandomLegal, Seen, choose_first};
pub use record::{Entry, RECORD_FORMAT, Record, StartEntry};
pub use resolve::{Cx, Flow, FrameChanges, Frames, Observer};
pub use ruleset::{Outcome, Pending, PendingOf, Ruleset, Shown, Stage};
pub use seat::{Seat, Seats};
pub use summary::{CombatantEnd, SeatPolicy, Summarize};

pub use fray_dice as dice;
