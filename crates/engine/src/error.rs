//! Rejections (a command the rules refuse) and engine errors (something is broken).
//!
//! The two are different types on purpose: a rejection is an expected answer that leaves the
//! state untouched and is shown to the person who typed the command; an engine error means a
//! corrupt record, dice that ran out, or a bug, and stops the program's current job.

use fray_dice::DiceError;
use std::fmt;

/// A command refused by the engine or the rules. The state is exactly as it was.
///
/// `code` is stable and documented (docs/commands.md lists the engine's codes and each ruleset's
/// own); `reason` is a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reject {
    /// A stable, kebab-case code such as `not-your-decision` or `out-of-range`.
    pub code: &'static str,
    /// Why, in a sentence a player understands.
    pub reason: String,
    /// Whether the rules refused a command, or the text was not a command at all.
    pub kind: RejectKind,
}

/// The two kinds of refusal, the same for every ruleset: a script that types a line the
/// ruleset cannot read is bad input (exit 2), a readable command the rules refuse is a rule
/// rejection (exit 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RejectKind {
    /// A readable command that the rules (or the engine's authority checks) refuse.
    #[default]
    Rule,
    /// Text that is not a command of this ruleset (unknown words, missing or malformed
    /// arguments, names that match nothing).
    Unreadable,
}

impl Reject {
    /// A rule rejection with the given code and reason.
    pub fn new(code: &'static str, reason: impl Into<String>) -> Reject {
        Reject {
            code,
            reason: reason.into(),
            kind: RejectKind::Rule,
        }
    }

    /// Text that is not a command: code [`Reject::UNKNOWN_COMMAND`], kind
    /// [`RejectKind::Unreadable`].
    pub fn unreadable(reason: impl Into<String>) -> Reject {
        Reject {
            code: Reject::UNKNOWN_COMMAND,
            reason: reason.into(),
            kind: RejectKind::Unreadable,
        }
    }

    /// The same refusal, marked as unreadable text (its code is kept).
    pub fn as_unreadable(mut self) -> Reject {
        self.kind = RejectKind::Unreadable;
        self
    }

    /// Whether the text was not a command at all (see [`RejectKind`]).
    pub fn is_unreadable(&self) -> bool {
        self.kind == RejectKind::Unreadable
    }

    /// Code used when the game has already ended.
    pub const GAME_OVER: &'static str = "game-over";
    /// Code used when a seat answers a decision that belongs to another seat.
    pub const NOT_YOUR_DECISION: &'static str = "not-your-decision";
    /// Code used when a seat other than the GM submits a ruling.
    pub const GM_ONLY: &'static str = "gm-only";
    /// Code used when no decision is pending (the game is waiting for nothing).
    pub const NOTHING_PENDING: &'static str = "nothing-pending";
    /// Code used when text cannot be understood as a command.
    pub const UNKNOWN_COMMAND: &'static str = "unknown-command";

    /// Every engine code, in the order `docs/commands.md` lists them. Each ruleset lists its
    /// own codes beside these (a `codes::ALL` of its own).
    pub const ENGINE_CODES: &'static [&'static str] = &[
        Reject::GAME_OVER,
        Reject::NOT_YOUR_DECISION,
        Reject::GM_ONLY,
        Reject::NOTHING_PENDING,
        Reject::UNKNOWN_COMMAND,
    ];
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.code)
    }
}

impl std::error::Error for Reject {}

/// Something that is not a rule decision went wrong.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The dice source failed (scripted dice ran out, a typed face was impossible, the person
    /// at the prompt gave up). The command that needed the dice was not applied.
    #[error("dice: {0}")]
    Dice(#[from] DiceError),
    /// A record is inconsistent with the rules that replay it.
    #[error("replay diverged at {at}: {what}")]
    Diverged {
        /// Which entry ("start" or "command 12").
        at: String,
        /// What differed.
        what: String,
    },
    /// A record or setup cannot be used at all.
    #[error("invalid record: {0}")]
    Invalid(String),
    /// An internal invariant was broken: a bug in fray, never the user's fault.
    #[error("internal error (a bug in fray): {0}")]
    Bug(String),
}
