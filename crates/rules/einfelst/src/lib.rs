//! Einfelst Wilds: the combat chapter of a Year Zero Engine style fantasy game. Its rules are
//! numbered in `shared/rules/einfelst.md` (`EIN-R1` ...); code and tests cite them, and
//! `docs/einfelst.md` describes the game in fray.
//!
//! The battlefield is a map of zones. Everyone draws an initiative card (1 to 10) once and keeps
//! it; the lowest acts first. A turn is one slow and one fast manoeuvre (or two fast); reactions
//! (dodge, parry, break free, hold, chase, resist) spend those manoeuvres at any time in the
//! round, declared before the roll they answer. Tests roll Attribute + Action d6 and count
//! sixes; extra successes buy damage, card swaps and other effects. Harm fills Physical and
//! Mental rows that cost dice; hazards (fear, fire, poison, falls) add more.
//!
//! Module map, in the rooms every ruleset has:
//!
//! - [`setup`] (encounter files and stat blocks), [`data`] (attributes, Actions, weapons),
//!   [`options`], [`codes`] (rejection codes), [`command`] (typed and text forms).
//! - [`state`]: the state, the frames of the resolution stack, the events and the one `apply`
//!   (with the Harm track's arithmetic).
//! - [`stage`]: what the game waits for, as a typed value, decided once.
//! - [`check`] and [`resolve`]: the two dispatchers. `check` returns the checked [`plan::Plan`]
//!   (or the typed rejection) and the legal list; `resolve` consumes the plan. Both are short and
//!   call into [`actions`], one module per action or topic (attack, defence, hit, flee,
//!   restraint, movement, items, quick manoeuvres, hazards, Harm, tests, pushed rolls, cards,
//!   card swaps, the ambush, the Director's rulings), each holding its action's check, its legal
//!   candidates and its resolution side by side; [`actions`] has the table of rule IDs by
//!   module. [`plan`] is the contract between the two dispatchers, below both.
//! - [`flow`]: rounds, turns and who decides next ([`flow::advance`] runs every automatic step).
//! - [`ways`]: the movement search (a fleer's way out); [`zones`]: the zone map's answers.
//! - [`text`] (the `TextRuleset`), [`ai`], [`odds`]; the report hooks for simulations are in
//!   `summary.rs`.
//!
//! Dependencies run one way: `check` and `resolve` call `actions`, `flow` and `stage`; nothing
//! under `check` (nor `stage`, nor any action) refers to `resolve`, so legality never depends on
//! resolution. This file holds the `Ruleset` itself.

pub mod actions;
pub mod ai;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod data;
pub mod flow;
pub mod odds;
pub mod options;
pub mod plan;
pub mod resolve;
pub mod setup;
pub mod stage;
pub mod state;
mod summary;
pub mod text;
pub mod ways;
pub mod zones;

use crate::command::Command;
use crate::options::Options;
use crate::setup::Setup;
use crate::state::{Event, Frame, State};
use fray_engine::resolve::FrameOp;
use fray_engine::{Answer, Cx, EngineError, Frames, Outcome, Pending, Reject, Ruleset, Seat};

/// The Einfelst Wilds ruleset.
pub struct Einfelst;

impl Ruleset for Einfelst {
    const ID: &'static str = "einfelst";
    const VERSION: &'static str = "0.2.0";
    /// 0.1.0 played with a group's members in encounter order (`group-order = "encounter"`),
    /// and its events lack the faces of rolls and how a turn ended; everything else is the same.
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

    fn pending(s: &State) -> Option<Pending<stage::Stage>> {
        stage::stage(s).map(|st| st.pending(s))
    }

    fn earlier_options(version: &str, options: &mut Options) {
        if version == "0.1.0" {
            // 0.1.0 had no choice of a group's order: encounter order.
            options.group_order = crate::options::GroupOrder::Encounter;
        }
    }

    /// A 0.1.0 event stands for the one replayed when they differ only in what 0.1.0 did not
    /// record: the faces of a roll, and how a turn ended.
    fn same_as_earlier(recorded: &Event, replayed: &Event) -> bool {
        use crate::state::TurnEnd;
        match (recorded, replayed) {
            (Event::Tested { faces: f, .. }, Event::Tested { .. }) if f.is_empty() => {
                let mut r = replayed.clone();
                if let Event::Tested { faces, .. } = &mut r {
                    *faces = fray_dice::Faces::new();
                }
                *recorded == r
            }
            (Event::Pushed { faces: f, .. }, Event::Pushed { .. }) if f.is_empty() => {
                let mut r = replayed.clone();
                if let Event::Pushed { faces, .. } = &mut r {
                    *faces = fray_dice::Faces::new();
                }
                *recorded == r
            }
            (
                Event::TurnEnded {
                    who: a,
                    how: TurnEnd::Ended,
                },
                Event::TurnEnded { who: b, .. },
            ) => a == b,
            _ => recorded == replayed,
        }
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
        seat: Seat,
        command: &Command,
        plan: check::Plan,
    ) -> Result<(), EngineError> {
        resolve::resolve_in(cx, Some(*stage), seat, command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        state::apply(s, e)
    }

    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome.clone()
    }

    // Nothing is hidden: initiative cards are open (EIN-R45), and so is everything else.
    type View<'a> = &'a State;

    fn view(s: &State, _: Seat) -> &State {
        s
    }
}

impl Frames for Einfelst {
    type Frame = Frame;
    fn frames(s: &State) -> &[Frame] {
        &s.frames
    }
    fn frame_event(op: FrameOp<Frame>) -> Event {
        Event::Frame(op)
    }
}
