//! The contract every game implements.
//!
//! State is plain data. A command is first checked by a pure function that returns a typed
//! [`Reject`]; a command that passes is resolved, which draws dice and emits events, and each
//! event is applied through the single [`Ruleset::apply`]. Between commands the state always
//! says who must decide next ([`Ruleset::pending`]), and the legal answers to that decision
//! can be listed in a fixed order ([`Ruleset::legal`]) for AIs, UIs and tests.
//!
//! What checking a command finds out (a path, the targets in reach, an attack's profile) is
//! the ruleset's checked plan ([`Ruleset::Checked`]): [`Ruleset::check`] returns it,
//! [`Ruleset::legal`] lists each answer with it, and [`Ruleset::resolve`] consumes it, so
//! nothing is worked out twice and nothing is passed on the side. The loop that drives all of
//! it is written once, in [`crate::play`].
//!
//! A decision has a set of deciders ([`Pending::seats`]): usually one seat, sometimes several
//! that answer in any order, each once (secret declarations); the ruleset keeps who has
//! answered in its state and the step resolves when the last one has. What each seat may know
//! is a typed [`Ruleset::View`], and events are shown to each seat through
//! [`Ruleset::redact`], so hidden information never reaches a seat's screen, log or AI.

use crate::resolve::Cx;
use crate::{Answer, EngineError, Reject, Seat, Seats};
use serde::{Serialize, de::DeserializeOwned};
use std::borrow::Cow;
use std::fmt::Debug;

/// The decision a game waits for, typed by its ruleset ([`Ruleset::Stage`]): one variant per
/// kind of decision, holding what the check, the legal list and the resolver read of it.
/// boardgame.io's stages are the model. It is decided once per state ([`Ruleset::pending`])
/// and handed to [`Ruleset::check`], [`Ruleset::legal`] and [`Ruleset::resolve`], which match
/// on it instead of working out again what is asked.
pub trait Stage: Clone + Debug + PartialEq + Send + Sync {
    /// A stable kebab-case code for the kind of decision (`turn`, `defence`, `trigger`): the
    /// prompt's word and the shared view's `deciding.kind`.
    fn kind(&self) -> &'static str;
    /// The combatant the decision is about, as the ruleset's index, if any.
    fn actor(&self) -> Option<u16>;
}

/// What the game is waiting for: the seats that may answer, and the decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending<S> {
    /// The seats that may answer now. One seat for most decisions; several when they decide
    /// at once (each answers once, in any order; the set shrinks as they answer).
    pub seats: Seats,
    /// The decision, as the ruleset types it.
    pub stage: S,
}

impl<S: Stage> Pending<S> {
    /// A decision for one seat.
    pub fn one(seat: Seat, stage: S) -> Pending<S> {
        Pending {
            seats: Seats::one(seat),
            stage,
        }
    }

    /// The kind of decision ([`Stage::kind`]).
    pub fn kind(&self) -> &'static str {
        self.stage.kind()
    }

    /// The combatant the decision is about ([`Stage::actor`]).
    pub fn actor(&self) -> Option<u16> {
        self.stage.actor()
    }

    /// The seat a single-screen table asks first (the lowest of the deciders).
    pub fn first(&self) -> Seat {
        self.seats.first().unwrap_or(Seat::GM)
    }
}

/// The pending decision of ruleset `R`.
pub type PendingOf<R> = Pending<<R as Ruleset>::Stage>;

/// What one seat is shown of an event ([`Ruleset::redact`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown<E> {
    /// The whole event.
    All,
    /// Nothing: the seat does not learn that it happened.
    Nothing,
    /// This event instead (the same happening with what the seat may not see left out).
    As(E),
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Index of the winning side in the ruleset's side list; `None` for a draw or a GM stop
    /// without a winner.
    pub winner: Option<u8>,
    /// A short stable reason code (`all-npcs-down`, `win-condition`, `gm-ended`, ...).
    pub reason: String,
}

/// A game's combat rules.
///
/// All functions are associated functions: everything a game needs (its map, stat blocks,
/// abilities, options) lives in the state, so one state value is a whole game position and can
/// be cloned for search.
pub trait Ruleset: Sized + 'static {
    /// The ruleset id used in encounter files and records (`thrum`).
    const ID: &'static str;
    /// The version of the rules implementation written into records. A record replays on the
    /// version that wrote it, and on a later one that lists that version in
    /// [`Ruleset::REPLAYS_VERSIONS`].
    const VERSION: &'static str;
    /// Earlier versions whose records this one still replays: they play exactly the same, and
    /// their records differ from this version's only in events [`Ruleset::is_bookkeeping`]
    /// names. Empty by default: a record replays only on the version that wrote it.
    const REPLAYS_VERSIONS: &'static [&'static str] = &[];

    /// Every configurable rule reading (the `[A]` items and hole defaults of the rules file).
    type Options: Clone + Debug + PartialEq + Default + Serialize + DeserializeOwned + Send + Sync;
    /// A validated encounter: map, sides, combatants and their data.
    type Setup: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A whole game position.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What a seat can submit.
    type Command: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What resolution produces; the only thing that changes state.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What [`Ruleset::check`] learned about a command that [`Ruleset::resolve`] needs: the
    /// checked plan. `()` for a ruleset whose check finds out nothing its resolver would work
    /// out again. Two plans of one command in one position are equal (the conformance suite
    /// compares the plan [`Ruleset::legal`] lists with the one `check` gives).
    type Checked: Clone + Debug + PartialEq + Send + Sync;

    /// The decision the game waits for, typed ([`Stage`]): decided once per state by
    /// [`Ruleset::pending`] and handed to the check, the legal list and the resolver.
    type Stage: Stage;

    /// Builds the initial state (before any dice are rolled).
    ///
    /// The setup may come from a record, which is untrusted input (an edited file, an import):
    /// validate everything in it that later code relies on (indices into its own tables, sides,
    /// seats, positions on the map) as strictly as the encounter loader does, and return
    /// [`EngineError::Invalid`] naming what is wrong. Nothing may panic on any setup or options
    /// that deserialise.
    fn new_state(setup: &Self::Setup, options: &Self::Options) -> Result<Self::State, EngineError>;

    /// Runs everything up to the first decision (for example the initiative rolls).
    fn start(cx: &mut Cx<'_, Self>) -> Result<(), EngineError>;

    /// Who must decide now; `None` once the game is over. The seat set is never empty.
    fn pending(state: &Self::State) -> Option<Pending<Self::Stage>>;

    /// Whether the command is a GM ruling (allowed to the GM seat at any time before the end),
    /// rather than an answer to the pending decision.
    fn is_ruling(command: &Self::Command) -> bool;

    /// Appends every legal answer of `seat` (one of the pending deciders) to the pending
    /// decision, each with the plan [`Ruleset::check`] would give it, in a deterministic
    /// order. Rulings are not listed.
    fn legal(state: &Self::State, stage: &Self::Stage, seat: Seat, out: &mut Vec<Answer<Self>>);

    /// Checks a command of `seat` against the rules without changing anything, and returns
    /// what the check learned for [`Ruleset::resolve`]. Authority (game over, `seat` among the
    /// deciders, rulings only from the GM) has already been checked by the engine. Commands
    /// read from records are untrusted: any index in a command that deserialises must be
    /// refused, never panic.
    fn check(
        state: &Self::State,
        stage: &Self::Stage,
        seat: Seat,
        command: &Self::Command,
    ) -> Result<Self::Checked, Reject>;

    /// Resolves a command of `seat` with the plan [`Ruleset::check`] gave it in this state:
    /// draws dice from `cx.dice`, changes the state only with [`Cx::emit`] (which applies each
    /// event with [`Ruleset::apply`] as it goes), then runs automatic steps until the next
    /// decision ([`crate::resolve::settle`]). Only dice failures (or bugs) may make it fail;
    /// the caller then restores the state it had before. Called only from
    /// [`crate::play::resolve`].
    fn resolve(
        cx: &mut Cx<'_, Self>,
        stage: &Self::Stage,
        seat: Seat,
        command: &Self::Command,
        plan: Self::Checked,
    ) -> Result<(), EngineError>;

    /// Applies one event. The only function that changes state.
    fn apply(state: &mut Self::State, event: &Self::Event);

    /// Applies one event that is not kept afterwards ([`crate::resolve::Cx::discarding`]): the
    /// same change as [`Ruleset::apply`], which is what it does unless a ruleset moves what the
    /// event carries (a resolution frame) into the state instead of copying it.
    fn apply_owned(state: &mut Self::State, event: Self::Event) {
        Self::apply(state, &event);
    }

    /// Whether an event only keeps resolution's own place (a frame's cursor, say) in a form an
    /// earlier version in [`Ruleset::REPLAYS_VERSIONS`] recorded differently. Replaying such a
    /// version's record compares its events with these left out on both sides; every other
    /// event, every face and every command must still match, and the record's own events,
    /// bookkeeping included, must leave the state the replay reaches after every step. None by
    /// default.
    fn is_bookkeeping(_event: &Self::Event) -> bool {
        false
    }

    /// Sets, in the options of a record written by an earlier version in
    /// [`Ruleset::REPLAYS_VERSIONS`], the readings that version played by where this one plays
    /// differently by default (a ruling whose default changed, a fix kept as an option), so
    /// that the record replays, and the game goes on, as it was played. The replayed record
    /// keeps the options set here. Nothing by default.
    fn earlier_options(version: &str, options: &mut Self::Options) {
        let _ = (version, options);
    }

    /// Whether an event an earlier version recorded (in [`Ruleset::REPLAYS_VERSIONS`]) stands
    /// for the event this version replayed in its place: equality by default. A ruleset whose
    /// event gained a field that only explains what happened (the faces of a roll) compares
    /// the rest when the recorded event lacks it; one whose event records a reason now told
    /// more truly compares the rest. The recorded events must still leave the state the replay
    /// reaches, a recorded event matched here with a different replayed one counting as the
    /// replayed one.
    fn same_as_earlier(recorded: &Self::Event, replayed: &Self::Event) -> bool {
        recorded == replayed
    }

    /// How the game ended, once it has.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// What one seat's screen is sent of a position: it serialises to the JSON a client is
    /// sent (what its AI reads is [`Ruleset::seen`]).
    type View<'a>: Serialize
    where
        Self: 'a;

    /// What `seat` may see of the state (the GM sees everything).
    fn view(state: &Self::State, seat: Seat) -> Self::View<'_>;

    /// Whether this game has information some seats may not see (hidden positions, secret
    /// declarations). The conformance suite then checks that nothing hidden from a seat
    /// reaches its view or its log.
    const HIDDEN_INFORMATION: bool = false;

    /// Whether anything is hidden from `seat` right now. Search policies may look at the
    /// whole state only when nothing is.
    fn hides_from(state: &Self::State, seat: Seat) -> bool {
        let _ = (state, seat);
        false
    }

    /// The position as `seat` may know it, which is all its AI is given
    /// ([`crate::Decision::view`]): the state itself while nothing is hidden from the seat,
    /// otherwise a copy in which each hidden fact stands as a value that does not depend on
    /// it (a Hidden enemy's square as unknown, a secret declaration as one fixed action). The
    /// conformance suite checks that it is the same in every position the seat cannot tell
    /// apart ([`Ruleset::indistinguishable`]), so an AI cannot act on what its seat may not
    /// see. The default, for games without hidden information, is the state itself.
    fn seen(state: &Self::State, seat: Seat) -> Cow<'_, Self::State> {
        let _ = seat;
        Cow::Borrowed(state)
    }

    /// How many things are hidden from `seat` right now (the default counts "anything" as one).
    /// The conformance suite does not compare two commands a seat is shown alike when either
    /// of them reveals something (the count drops): what a reveal shows is meant to be seen.
    fn hidden_count(state: &Self::State, seat: Seat) -> usize {
        usize::from(Self::hides_from(state, seat))
    }

    /// What `seat` is shown of `event`, which is about to be applied to `state`. The default
    /// shows everything.
    fn redact(state: &Self::State, seat: Seat, event: &Self::Event) -> Shown<Self::Event> {
        let _ = (state, seat, event);
        Shown::All
    }

    /// What `seat` is shown of `command`, about to be resolved in `state` (a secret
    /// declaration is shown to the other seats as nothing, or as a command with the secret
    /// left out). The default shows everything. The conformance suite checks that two commands
    /// a seat is shown alike leave it the same log and view.
    fn redact_command(state: &Self::State, seat: Seat, command: &Self::Command) -> Shown<Self::Command> {
        let _ = (state, seat, command);
        Shown::All
    }

    /// Appends positions that `seat` cannot tell apart from `state`: each differs from it only
    /// in something hidden from the seat (a Hidden enemy standing elsewhere). The conformance
    /// suite checks that the seat's view and log are the same for each. Rulesets with
    /// [`Ruleset::HIDDEN_INFORMATION`] implement it; the default adds none.
    fn indistinguishable(state: &Self::State, seat: Seat, out: &mut Vec<Self::State>) {
        let _ = (state, seat, out);
    }
}
