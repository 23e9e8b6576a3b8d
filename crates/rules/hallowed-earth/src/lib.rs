//! Hallowed Earth: declared actions, speed-based initiative resolved lowest first with
//! simultaneous ties, Stress and Wound Points, critical injuries and monster morale. Its rules
//! are numbered in `shared/rules/hallowed-earth.md` (`HAL-R1` ...); code and tests cite them,
//! and `docs/hallowed-earth.md` says how fray plays them and where it had to choose.
//!
//! A round: every creature that is not surprised declares an action (secretly or one at a
//! time, per the `declaration` option); each one's round initiative is its Base Initiative
//! (d12 − Agility modifier, once a combat) plus the action's speed; the actions resolve from the
//! lowest count up, equal counts at the same time; at the end of the round the Dying bleed and
//! monsters check morale.
//!
//! Module map, in the rooms every ruleset has: [`options`], [`codes`] (rejection codes),
//! [`data`] (stat blocks, weapons, injury tables), [`setup`] (encounter files), [`state`] (the
//! position, its events and the one `apply`), [`command`] (typed and text forms), [`stage`] (the
//! decision the game waits for), [`flow`] (who declares next, and the automatic steps of a
//! round: reveals, counts, turns, the end of the round), [`actions`] (one file per action or
//! topic, each with its check, its resolution and its legal answers: declaring, acting, weapons,
//! attacks and the Reposte, damage and injuries, spells, healing, morale, moving, flight, the
//! Free action, the costs of acting hurt, GM rulings), [`movement`] (the search through the
//! squares), [`plan`] (what a check hands the resolver), [`check`] and [`resolve`] (the two
//! dispatchers: the one source of legality and the legal list, and the one consumer of its
//! plans), [`view`] (what each seat may know), [`text`] (the `TextRuleset`), [`ai`], [`odds`];
//! the report hooks for simulations are in `summary.rs`.
//!
//! The checks and the resolution of an action sit side by side in its file under `actions/`,
//! and nothing there, in `check` or in `stage` calls the resolver: the resolver depends on the checks'
//! plans, never the other way round.

pub mod actions;
pub mod ai;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod data;
pub mod flow;
pub mod movement;
pub mod odds;
pub mod options;
pub mod plan;
pub mod resolve;
pub mod setup;
pub mod stage;
pub mod state;
mod summary;
pub mod text;
pub mod view;

use crate::command::Command;
use crate::options::Options;
use crate::setup::Setup;
use crate::state::{Event, Frame, State};
use fray_engine::resolve::FrameOp;
use fray_engine::{Answer, Cx, EngineError, Frames, Outcome, Pending, Reject, Ruleset, Seat, Shown};

/// The Hallowed Earth ruleset.
pub struct HallowedEarth;

impl Ruleset for HallowedEarth {
    const ID: &'static str = "hallowed-earth";
    const VERSION: &'static str = "0.2.0";
    /// 0.1.0 rolled the 3d6 of a monster whose morale outcome was obvious, had no Free action,
    /// declared a seat's creatures in a fixed order and logged the end of a round before its
    /// end-of-round steps: [`HallowedEarth::earlier_options`] sets the options that play as it
    /// did, and [`HallowedEarth::is_bookkeeping`] leaves the moved `RoundEnded` out of the
    /// comparison of its events.
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

    /// Built from the [`stage::stage`] alone: its kind and actor, and the seats it names.
    fn pending(s: &State) -> Option<Pending<stage::Stage>> {
        stage::stage(s).map(|st| st.pending(s))
    }

    /// A 0.1.0 record plays with the readings 0.1.0 played by.
    fn earlier_options(version: &str, o: &mut Options) {
        if version == "0.1.0" {
            // HAL-R22: 0.1.0 still drew the 3d6 of a monster whose outcome is obvious.
            o.morale_roll_when_obvious = true;
            // 0.1.0 took each seat's declarations in a fixed order, and had no Free action
            // (HAL-R17).
            o.seat_picks_declaration_order = false;
            o.free_actions = false;
        }
    }

    /// 0.2.0 logs the end of a round after its end-of-round steps (the Dying loss and morale,
    /// HAL-H26), where 0.1.0 logged it before them: the event only marks the place, and its
    /// change of state (full defence over, the count's fixed state cleared) touches nothing
    /// those steps read, so an earlier record is compared without it (its state still is).
    fn is_bookkeeping(e: &Event) -> bool {
        matches!(e, Event::RoundEnded { .. })
    }

    fn is_ruling(command: &Command) -> bool {
        matches!(command, Command::Gm(_))
    }

    fn legal(s: &State, stage: &stage::Stage, seat: Seat, out: &mut Vec<Answer<Self>>) {
        check::legal_in(s, seat, stage, out)
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
        resolve::resolve(cx, Some(stage), command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        state::apply(s, e)
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

    fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
        view::redact(s, seat, event)
    }

    fn redact_command(s: &State, seat: Seat, command: &Command) -> Shown<Command> {
        view::redact_command(s, seat, command)
    }

    fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
        view::indistinguishable(s, seat, out)
    }
}

impl Frames for HallowedEarth {
    type Frame = Frame;
    fn frames(s: &State) -> &[Frame] {
        &s.frames
    }
    fn frame_event(op: FrameOp<Frame>) -> Event {
        Event::Frame(op)
    }
}
