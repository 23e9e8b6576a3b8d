//! Murdham: factions alternate, giving a turn to one character at a time or passing, until all
//! pass in a row; reactions spend a character's turn out of order; attacks hit unless hard
//! circumstances call for a WIT save; damage dice explode; health, critical damage and morale;
//! concealed ambushers whose places the other side does not see; and the chapter's two optional
//! rules, fast and slow activations and the chaos of combat. Rules are numbered in
//! `shared/rules/murdham.md` (`MUR-R1` ...); code and tests cite them.
//!
//! Module map, in the rooms every ruleset has:
//! - [`setup`] (encounter files and stat blocks), with [`data`] (abilities, sizes, items,
//!   powers), [`place`] (zones and borders) and [`options`].
//! - [`state`]: the state, the events and the one `apply` (split by topic into a character,
//!   the frames of the stack, the events, and `apply` with the GM's rulings); the rulings as
//!   data are `ruling.rs`, re-exported from [`command`].
//! - `flow.rs`: the rounds, the phases and who decides next (MUR-R1 to MUR-R6, MUR-R40,
//!   MUR-R52, MUR-R53), and [`advance`](resolve::advance), the loop of automatic steps.
//! - [`stage`]: the decision the game waits for, read from the state once.
//! - [`command`]: commands, typed and as text.
//! - [`check`] and [`resolve`]: the two dispatchers. [`check`] returns the checked plan or the
//!   typed rejection and lists the legal answers; [`resolve`] consumes the plan. Both match
//!   the stage and the command and call into `actions/`, one file per action or topic, each
//!   with its check, its resolution and its legal list side by side: `weapons`, `attack`,
//!   `landing`, `reactions`, `counter`, `damage`, `health`, `movement`, `grapple`,
//!   `influence`, `items`, `talk`, `morale`, `wear`, `rulings` (the map of rule topics to
//!   files is in `actions/mod.rs`). The dice of resolution are `roll.rs`.
//! - [`view`] (what each seat may see), [`text`] (the `TextRuleset`: log lines, map,
//!   tracker), [`ai`], [`odds`] (exact odds, one file per calculation), [`codes`] (rejection
//!   codes); the report hooks for simulations are in `summary.rs`.
//!
//! The imports run one way: nothing under `check` or `stage` imports `resolve`; the actions
//! import neither dispatcher, nor the stage, nor the turn flow; the turn flow imports the
//! actions and not the stage, which asks the turn flow who decides. This file holds the
//! `Ruleset` itself.

mod actions;
pub mod ai;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod data;
mod flow;
pub mod odds;
pub mod options;
pub mod place;
pub mod resolve;
mod roll;
mod ruling;
pub mod setup;
pub mod stage;
pub mod state;
mod summary;
pub mod text;
pub mod view;

use crate::command::Command;
use crate::options::Options;
use crate::setup::{Cid, Setup};
use crate::state::{Event, Frame, State};
use fray_engine::resolve::FrameOp;
use fray_engine::{Answer, Cx, EngineError, Frames, Outcome, Pending, Reject, Ruleset, Seat, Shown};

/// Rounds of reloading a reload weapon needs after it fires.
pub const RELOAD_ROUNDS: u8 = 10;

/// The Murdham ruleset.
pub struct Murdham;

/// The character whose decision it is, if any.
pub fn pending_actor(s: &State) -> Option<Cid> {
    stage::stage(s).and_then(|st| st.actor())
}

/// The attacker a reaction would counter, when a reaction is asked.
pub fn countered_attacker(s: &State) -> Option<Cid> {
    match s.frames.last() {
        Some(Frame::Attack(a)) => Some(a.by),
        _ => None,
    }
}

impl Ruleset for Murdham {
    const ID: &'static str = "murdham";
    /// 0.2.0 plays the rules file's readings where 0.1.0 had fray's own (defenceless targets,
    /// shields, hiding behind someone, indirect fire, surprise attacks, injuries): each change
    /// is an option, and [`Ruleset::earlier_options`] sets a 0.1.0 record's options to the
    /// readings it played by.
    const VERSION: &'static str = "0.2.0";
    const REPLAYS_VERSIONS: &'static [&'static str] = &["0.1.0"];
    type Options = Options;
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type Checked = check::Plan;
    type Stage = stage::Stage;

    fn new_state(setup: &Setup, options: &Options) -> Result<State, EngineError> {
        setup::validate(setup, options).map_err(EngineError::Invalid)?;
        Ok(State::new(setup, options))
    }

    fn start(cx: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        resolve::start(cx)
    }

    /// Built from the stage alone: its kind and character, and the seats it asks (a decision
    /// about a character goes to the seat that plays it, [`State::seat_of`]; a faction's
    /// opportunity and the opening to every seat of the faction with a stake in them, and the
    /// first to answer decides: [`stage::Stage::seats`]).
    fn pending(s: &State) -> Option<Pending<stage::Stage>> {
        stage::stage(s).map(|st| st.pending(s))
    }

    fn is_ruling(command: &Command) -> bool {
        matches!(command, Command::Gm(_))
    }

    fn legal(s: &State, stage: &stage::Stage, seat: Seat, out: &mut Vec<Answer<Self>>) {
        check::legal_in(s, seat, stage, out);
    }

    fn check(s: &State, stage: &stage::Stage, seat: Seat, command: &Command) -> Result<check::Plan, Reject> {
        check::check_in(s, seat, Some(stage), command)
    }

    fn resolve(
        cx: &mut Cx<'_, Self>,
        stage: &stage::Stage,
        _: Seat,
        command: &Command,
        plan: check::Plan,
    ) -> Result<(), EngineError> {
        resolve::resolve_in(cx, Some(*stage), command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        state::apply(s, e)
    }

    /// Events that change nothing in the state and only explain the log, which 0.1.0 recorded
    /// otherwise: the damage roll of no dice of a weapon that deals no damage (0.1.0 logged
    /// one; 0.2.0 logs none, and still logs the empty roll of damage impaired twice), and a
    /// counter's blow that never lands (0.1.0 logged nothing).
    fn is_bookkeeping(e: &Event) -> bool {
        match e {
            Event::DamageRoll { rolls, .. } => rolls.is_empty(),
            Event::BlowStopped { .. } => true,
            _ => false,
        }
    }

    fn earlier_options(version: &str, options: &mut Options) {
        if version == "0.1.0" {
            options::as_in_0_1_0(options);
        }
    }

    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }

    type View<'a> = view::View<'a>;

    fn view(s: &State, seat: Seat) -> view::View<'_> {
        view::view(s, seat)
    }

    const HIDDEN_INFORMATION: bool = true;

    fn hides_from(s: &State, seat: Seat) -> bool {
        view::hides_from(s, seat)
    }

    fn seen(s: &State, seat: Seat) -> std::borrow::Cow<'_, State> {
        view::seen(s, seat)
    }

    fn hidden_count(s: &State, seat: Seat) -> usize {
        view::hidden_count(s, seat)
    }

    fn redact(s: &State, seat: Seat, e: &Event) -> Shown<Event> {
        view::redact(s, seat, e)
    }

    fn redact_command(s: &State, seat: Seat, c: &Command) -> Shown<Command> {
        view::redact_command(s, seat, c)
    }

    fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
        view::indistinguishable(s, seat, out)
    }
}

impl Frames for Murdham {
    type Frame = Frame;
    fn frames(s: &State) -> &[Frame] {
        &s.frames
    }
    fn frame_event(op: FrameOp<Frame>) -> Event {
        Event::Frame(op)
    }
}
