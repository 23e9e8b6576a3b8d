//! The checked plan: what the check of a command learned that its resolution needs (a move's
//! path and cost, a step's price, an Action's targets).
//!
//! It is a module of its own, below the check, the movement search and the resolution, because
//! all three use it: the check returns it, the search builds a `move`'s plan from the path it
//! found, and the resolver consumes it instead of working it out again (`check::Plan` names
//! it too).
//!
//! The rule it carries: a step's use of the Weaver's exemption (THR-R76).

use crate::command::CharList;
use fray_space::Pos;

/// The squares of a move's path after its start, in order: inline up to 4 (no larger than a
/// list on the heap), so most moves' paths allocate nothing.
pub type Path = smallvec::SmallVec<[Pos; 4]>;

/// What [`check`] learned about a command that resolving it needs: Thrum's checked plan
/// ([`fray_engine::Ruleset::Checked`]). [`check`] returns it, the legal list gives it with each
/// command (the same plan: the conformance suite compares them), the AI builds it from its own
/// search, and the resolver consumes it instead of working it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Nothing the resolver would work out again (a turn begun, a defence, a Stance, a
    /// ruling, a step of a Disoriented character, whose square is known only once rolled).
    Plain,
    /// A `move`, of the Move step or answering a move prompt: the squares of the cheapest path
    /// after the start, the destination last, and what the path costs the mover (the Weaver's
    /// exemption included).
    Move {
        /// The squares stepped onto, in order.
        path: Path,
        /// The movement the path costs.
        cost: u32,
    },
    /// A `step` of a character that is not Disoriented: the movement it costs after the
    /// Weaver's exemption, and whether it uses the exemption up (THR-R76).
    Step {
        /// The movement paid.
        cost: i16,
        /// Whether the step uses up the once-per-turn exemption.
        weaves: bool,
    },
    /// An Action: the characters it affects, in resolution order. (The squares of an area's
    /// shape, which the check finds too, are not kept: carried through every check the AI asks
    /// for, the 16 squares a shape holds inline cost more than finding them again once per
    /// Action declared.)
    Act {
        /// Who the Action affects.
        targets: CharList,
    },
}
