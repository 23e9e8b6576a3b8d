//! The skeleton: a toy skirmish, the smallest complete fray ruleset, and the template a new
//! ruleset starts from (`docs/new-ruleset.md` says how). Its rules are numbered in
//! `docs/skeleton.md` (`SKL-R1` ...); code and tests cite them.
//!
//! Sides fight on a square grid. Each combatant has health, attack, defence and speed. Initiative
//! is d6 + speed, once. A turn moves up to speed squares and attacks an adjacent foe once
//! (d20 + attack ≥ defence hits for d6 damage); the defender's seat may dodge, once a round. At
//! 0 health a combatant is out, and the last side with anyone left wins.
//!
//! Module map: [`options`], [`codes`] (rejection codes), [`setup`] (encounter files), [`state`]
//! (state, events and the one `apply`), [`stage`] (the decision the game waits for),
//! [`command`] (typed and text forms), [`check`] (legality and the legal list), [`resolve`]
//! (dice and turn flow), [`text`] (the `TextRuleset`: log lines, map, tracker), [`ai`],
//! [`odds`]; the report hooks for simulations are in `summary.rs`. This file holds the
//! `Ruleset` itself.

pub mod ai;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod odds;
pub mod options;
pub mod resolve;
pub mod setup;
pub mod stage;
pub mod state;
mod summary;
pub mod text;

use crate::command::Command;
use crate::options::Options;
use crate::setup::Setup;
use crate::stage::{Stage, stage};
use crate::state::{Attack, Event, State};
use fray_engine::resolve::FrameOp;
use fray_engine::{Answer, Cx, EngineError, Frames, Outcome, Pending, Reject, Ruleset, Seat};

/// The skeleton ruleset.
pub struct Skeleton;

impl Ruleset for Skeleton {
    const ID: &'static str = "skeleton";
    const VERSION: &'static str = "0.1.0";
    type Options = Options;
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    type Checked = check::Plan;
    type Stage = Stage;

    fn new_state(setup: &Setup, options: &Options) -> Result<State, EngineError> {
        setup::validate(setup, options).map_err(EngineError::Invalid)?;
        Ok(State::new(setup, options))
    }

    fn start(cx: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        resolve::start(cx)
    }

    // The stage says what is asked; every decision is about one combatant, and goes to the
    // seat that plays it.
    fn pending(s: &State) -> Option<Pending<Stage>> {
        let st = stage(s)?;
        let who = st.actor()?;
        Some(Pending::one(s.seat_of(who), st))
    }

    fn is_ruling(command: &Command) -> bool {
        matches!(command, Command::Gm(_))
    }

    // Every decision has one decider, whom the engine has already matched to the seat. The
    // legal list, the check and the resolver work out the stage once, here, and match on it.
    // The engine works the stage out once and hands it to all three.
    fn legal(s: &State, stage: &Stage, _: Seat, out: &mut Vec<Answer<Self>>) {
        check::legal(s, stage, out);
    }

    fn check(s: &State, stage: &Stage, _: Seat, command: &Command) -> Result<check::Plan, Reject> {
        check::check(s, Some(stage), command)
    }

    fn resolve(
        cx: &mut Cx<'_, Self>,
        stage: &Stage,
        _: Seat,
        command: &Command,
        plan: check::Plan,
    ) -> Result<(), EngineError> {
        resolve::resolve(cx, Some(*stage), command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        state::apply(s, e)
    }

    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }

    // Nothing is hidden: every seat's view (and its AI's input) is the whole state.
    type View<'a> = &'a State;

    fn view(s: &State, _: Seat) -> &State {
        s
    }
}

impl Frames for Skeleton {
    type Frame = Attack;
    fn frames(s: &State) -> &[Attack] {
        &s.frames
    }
    fn frame_event(op: FrameOp<Attack>) -> Event {
        Event::Frame(op)
    }
}
