//! Thrum: the combat chapter of the Thrum RPG as a fray ruleset.
//!
//! Square grid with elevation and cover, 2d6 contests with Boons and Banes, Fatigue and
//! Stress instead of hit points, Initiative with Delay, Round Zero, stances and triggers.
//! `shared/rules/thrum.md` numbers every rule (`THR-R1` ...); the tests cite them.
//!
//! Module map, in the rooms every fray ruleset has:
//!
//! - [`setup`] (encounter files and stat blocks), [`ability`] (abilities as data), [`options`]
//!   (every open reading as an option).
//! - [`state`] (the state, the resolution context `Cx`, where Terrain Effects lie),
//!   [`command`], [`event`] (and the one `apply`), [`plan`] (what a check hands its
//!   resolution), [`codes`] (rejection codes and the refusal builders), [`calc`] (derived
//!   numbers), [`dice`] (the 2d6 roll and its distribution), [`stage`] (the decision the game
//!   waits for).
//! - [`flow`] (rounds, turns, who decides next: the resolution loop, start and end of turn,
//!   stop conditions and End of Combat).
//! - [`actions`]: one module per action or topic, its check, its legal candidates and its
//!   resolution side by side (`movement`, `turn`, `stance`, `action` and `targets`, `ability`
//!   (the interpreter of an ability use), `trigger`, `defence`, `lines`, `effects`, `ruling`).
//! - [`reach`]: the movement search (step prices, reachable squares, paths, their memory).
//! - The dispatchers: [`check`] (the one check, returning the checked plan or the typed
//!   rejection), [`resolve`] (the one resolution, consuming the plan), [`legal`] (the legal
//!   list). Each matches on the stage and calls into `actions` (and `flow`).
//! - [`view`], [`board`], [`text`] (log lines and views), [`ai`] (the built-in AI), [`odds`].
//!
//! Dependencies run one way between the dispatchers: nothing under `check` (nor `stage`, nor the
//! checks in `actions`, nor `reach`) refers to `resolve` or `flow`; `resolve` and `flow` use the
//! checks' pieces. The names the tests and other crates use under `check::`, `resolve::` and
//! `legal::` are re-exported there from the modules that now hold them.

pub mod ability;
pub mod actions;
pub mod ai;
pub mod board;
pub mod calc;
pub mod check;
pub mod codes;
pub mod command;
mod conformance;
pub mod dice;
pub mod event;
pub mod flow;
pub mod inline;
pub mod legal;
pub mod odds;
pub mod options;
pub mod plan;
pub mod reach;
pub mod resolve;
pub mod setup;
pub mod stage;
pub mod state;
mod summary;
pub mod text;
pub mod view;

use crate::command::Command;
use crate::dice::roll2d6;
use crate::event::{Event, apply};
use crate::flow::{advance, stop_check};
use crate::options::{InitiativeTies, Options};
use crate::setup::{Cid, Setup};
use crate::stage::Stage;
use crate::state::Cx;
use crate::state::{Char, Frame, FrameChange, Phase, State, Turn};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::order::InitiativeOrder;
use fray_engine::resolve::FrameOp;
use fray_engine::text::{Lasting, Loaded, ReadFile, Rest, TextRuleset};
use fray_engine::{Answer, EngineError, FrameChanges, Frames, Outcome, Pending, Policy, Reject, Ruleset, Seat, Shown};
use std::sync::Arc;

/// The Thrum ruleset.
pub struct Thrum;

impl Ruleset for Thrum {
    const ID: &'static str = "thrum";
    const VERSION: &'static str = "0.3.0";
    /// 0.2.0 kept whole-frame `SetTop`/`SetFrame` events where 0.3.0 keeps small
    /// `FrameChanged` ones (and none while the start of a turn runs its steps); the play is the
    /// same, so its records still replay.
    const REPLAYS_VERSIONS: &'static [&'static str] = &["0.2.0"];
    type Options = Options;
    type Setup = Setup;
    type State = State;
    type Command = Command;
    type Event = Event;
    /// What the check of a command learned for its resolution: a move's path, an Action's
    /// targets (see [`check::Plan`]).
    type Checked = check::Plan;
    type Stage = stage::Stage;

    fn new_state(setup: &Setup, options: &Options) -> Result<State, EngineError> {
        // A setup may come from a record (untrusted input): check it as strictly as the
        // encounter loader does before anything indexes into it.
        setup::validate(setup, options).map_err(EngineError::Invalid)?;
        Ok(State {
            setup: Arc::new(setup.clone()),
            options: Arc::new(options.clone()),
            phase: Phase::RoundZero,
            round: 0,
            order: InitiativeOrder::new([], true),
            chars: setup.chars.iter().map(Char::new).collect(),
            turn: Turn::idle(0),
            stack: Vec::new(),
            uses: 0,
            holds: vec![0; setup.conditions.len()],
            terrain: Vec::new(),
            outcome: None,
            auto: Vec::new(),
            fought: None,
        })
    }

    fn start(cx: &mut Cx) -> Result<(), EngineError> {
        // THR-R1: the phases in their order. NPC Placement is done (the NPCs' squares came with
        // the setup), so Initiative is rolled here, then Round Zero begins; the rounds and End
        // of Combat follow from the flow.
        // Initiative (THR-R9): 2d6 + Initiative modifier for everyone, once.
        let n = cx.s.chars.len() as Cid;
        for who in 0..n {
            let modifier = cx.s.info(who).stats.initiative;
            let setup = Arc::clone(&cx.s.setup);
            let name = &setup.chars[who as usize].name;
            let roll = roll2d6(cx, 0, modifier, &format_args!("{name}'s Initiative"))?;
            cx.emit(Event::InitiativeRolled { who, roll });
        }
        let order = initiative_order(cx)?;
        cx.emit(Event::OrderSet { order });
        stop_check(cx);
        if cx.s.outcome.is_none() {
            cx.emit(Event::RoundStarted { round: 0 });
        }
        advance(cx)
    }

    /// Built from the [`stage::stage`] alone: its kind and actor, and the actor's seat.
    fn pending(s: &State) -> Option<Pending<Stage>> {
        let st = stage::stage(s)?;
        let who = st.actor()?;
        Some(Pending::one(s.info(who).seat, st))
    }

    fn is_ruling(command: &Command) -> bool {
        matches!(command, Command::Gm(_))
    }

    // Every Thrum decision has one decider, whom the engine's authority check has matched, so
    // the seat is not needed below.
    fn legal(s: &State, stage: &Stage, _seat: Seat, out: &mut Vec<Answer<Self>>) {
        legal::legal_in(s, stage, out)
    }

    fn check(s: &State, stage: &Stage, _seat: Seat, command: &Command) -> Result<check::Plan, Reject> {
        check::check_in(s, Some(stage), command)
    }

    fn resolve(
        cx: &mut Cx,
        stage: &Stage,
        _seat: Seat,
        command: &Command,
        plan: check::Plan,
    ) -> Result<(), EngineError> {
        resolve::resolve_in(cx, Some(*stage), command, plan)
    }

    fn apply(s: &mut State, e: &Event) {
        apply(s, e)
    }

    #[inline]
    fn apply_owned(s: &mut State, e: Event) {
        event::apply_owned(s, e)
    }

    /// Where a frame's resolution is: what 0.2.0 kept as whole frames.
    fn is_bookkeeping(e: &Event) -> bool {
        matches!(
            e,
            Event::SetTop { .. } | Event::SetFrame { .. } | Event::FrameChanged { .. }
        )
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

/// The resolution stack (`State::stack`) through the engine's frame kit, with Thrum's own frame
/// events, so records and logs keep their form.
impl Frames for Thrum {
    type Frame = Frame;

    /// Above any depth the rules reach, so the limit is only a guard against bugs: Thrum's own
    /// guard against endless chains is `trigger-depth-limit` (THR-R146), at most 255 frames of
    /// ability uses and trigger windows, with a few prompts and rolls on top of them.
    const MAX_DEPTH: usize = 512;

    fn frames(s: &State) -> &[Frame] {
        &s.stack
    }

    /// `SetTop` and `SetFrame` only replace the frame (see `event::apply`).
    fn frames_mut(s: &mut State) -> Option<&mut [Frame]> {
        Some(&mut s.stack)
    }

    /// `Push` and `Pop` only push and pop (see `event::apply`).
    fn stack_mut(s: &mut State) -> Option<&mut Vec<Frame>> {
        Some(&mut s.stack)
    }

    fn frame_event(op: FrameOp<Frame>) -> Event {
        match op {
            FrameOp::Push(frame) => Event::Push { frame: Box::new(frame) },
            FrameOp::Update(frame) => Event::SetTop { frame: Box::new(frame) },
            // Only ability uses are replaced by index, and they sit below `trigger-depth-limit`
            // (a `u8`), so the index always fits (the same `as u8` as before the kit).
            FrameOp::Set(index, frame) => Event::SetFrame {
                index: index as u8,
                frame: Box::new(frame),
            },
            FrameOp::Pop => Event::Pop,
        }
    }
}

/// Thrum's frames move on by small changes (`Event::FrameChanged`), not by whole-frame
/// `SetTop`/`SetFrame` events.
impl FrameChanges for Thrum {
    type Change = FrameChange;

    fn change_event(index: usize, change: FrameChange) -> Event {
        // The stack is at most `MAX_DEPTH` (512) frames deep, so the index fits.
        Event::FrameChanged {
            index: index as u16,
            change,
        }
    }

    #[inline]
    fn apply_change(frame: &mut Frame, change: FrameChange) {
        change.apply(frame);
    }
}

/// Sorts the Initiative totals (THR-R10, THR-R12): descending; ties by the higher modifier,
/// then PCs first, then a 2d6 roll-off (repeated among those still tied).
fn initiative_order(cx: &mut Cx) -> Result<InitiativeOrder, EngineError> {
    let s = &*cx.s;
    let n = s.chars.len() as Cid;
    let key = |c: Cid| -> (i16, i16, bool) {
        let total = s.ch(c).initiative;
        // THR-R12: equal totals sort by the higher modifier, then PCs first; what is still
        // equal goes to the roll-off below (or straight to it, by the option).
        match s.options.initiative_ties {
            InitiativeTies::ModifierPcRolloff => (total, s.info(c).stats.initiative, s.is_pc(c)),
            InitiativeTies::Rolloff => (total, 0, false),
        }
    };
    let mut ids: Vec<Cid> = (0..n).collect();
    ids.sort_by_key(|c| std::cmp::Reverse(key(*c)));
    let keys: Vec<(i16, i16, bool)> = ids.iter().map(|c| key(*c)).collect();
    // Roll-offs inside groups with equal keys.
    let mut out: Vec<Cid> = Vec::with_capacity(ids.len());
    let mut i = 0;
    while i < ids.len() {
        let mut j = i + 1;
        while j < ids.len() && keys[j] == keys[i] {
            j += 1;
        }
        let mut group: Vec<Cid> = ids[i..j].to_vec();
        rolloff(cx, &mut group)?;
        out.extend(group);
        i = j;
    }
    let s = &*cx.s;
    Ok(InitiativeOrder::new(
        out.into_iter().map(|c| (c, s.ch(c).initiative as i32)),
        true,
    ))
}

fn rolloff(cx: &mut Cx, group: &mut Vec<Cid>) -> Result<(), EngineError> {
    if group.len() < 2 {
        return Ok(());
    }
    let mut rolled: Vec<(i32, Cid)> = Vec::with_capacity(group.len());
    for &who in group.iter() {
        let name = cx.s.name(who).to_string();
        let r = fray_dice::roll(
            cx.dice,
            2,
            6,
            fray_dice::Keep::All,
            &format_args!("{name}'s Initiative roll-off"),
        )?;
        cx.note(|| Event::RollOff { who, roll: r });
        rolled.push((r.total, who));
    }
    rolled.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut sorted = Vec::with_capacity(group.len());
    let mut i = 0;
    while i < rolled.len() {
        let mut j = i + 1;
        while j < rolled.len() && rolled[j].0 == rolled[i].0 {
            j += 1;
        }
        let mut sub: Vec<Cid> = rolled[i..j].iter().map(|x| x.1).collect();
        rolloff(cx, &mut sub)?;
        sorted.extend(sub);
        i = j;
    }
    *group = sorted;
    Ok(())
}

impl TextRuleset for Thrum {
    const EVENT_COMBATANTS: &'static [&'static str] = &[
        "who",
        "creator",
        "user",
        "target",
        "chars",
        "about",
        "toward",
        "holder",
        "by",
        "after",
        "attacker",
        "targets",
        "ends_unless_critical",
        "!frame-changed/target",
    ];

    const REJECTION_CODES: &'static [&'static str] = codes::ALL;

    /// Downtime restores lost Fatigue and Stress Tolerance and Wounds: no combat rule does
    /// (THR-R180); Nova Potential is lost at Downtime (THR-R188).
    const RESTS: &'static [Rest] = &[Rest {
        word: "downtime",
        what: "Downtime: lost Fatigue and Stress Tolerance and Wounds are restored (THR-R180), Nova Potential is lost (THR-R188)",
        // THR-R188: Downtime forgets the Nova Potential carried over, with the rest.
        restores: &["fatigue-tolerance", "stress-tolerance", "wounds", "nova"],
    }];

    /// Each PC's current Fatigue and Stress Tolerance (saved at End of Combat, THR-R185) and
    /// Wounds carry into later combats until Downtime (THR-R180), and so does the Potential of
    /// its Nova abilities (THR-R188).
    fn lasting(state: &State) -> Vec<Lasting> {
        state
            .ids()
            .filter(|&c| state.is_pc(c))
            .map(|c| {
                let (info, ch) = (state.info(c), &state.chars[c as usize]);
                let mut values = vec![
                    ("fatigue-tolerance".into(), ch.ft.to_string()),
                    ("stress-tolerance".into(), ch.st.to_string()),
                    ("wounds".into(), ch.wounds.to_string()),
                ];
                // THR-R188: Nova Potential goes on to the next combat (Downtime, in `RESTS`,
                // drops it).
                if !ch.nova.is_empty() {
                    let potential: Vec<String> = ch
                        .nova
                        .iter()
                        .map(|n| format!("{} = {}", toml_key(&state.setup.book.get(n.ability).id), n.potential))
                        .collect();
                    values.push(("nova".into(), format!("{{ {} }}", potential.join(", "))));
                }
                Lasting {
                    id: info.id.clone(),
                    name: info.name.clone(),
                    values,
                }
            })
            .collect()
    }

    fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        let (setup, options) = setup::load(source, read)?;
        Ok(Loaded {
            title: setup.title.clone(),
            setup,
            options,
        })
    }

    fn parse_command(state: &State, text: &str) -> Result<Command, Reject> {
        command::parse(state, text)
    }

    fn format_command(state: &State, command: &Command) -> String {
        command::format(state, command)
    }

    fn describe_event(state: &State, event: &Event) -> Option<String> {
        text::describe(state, event)
    }

    fn describe_pending(state: &State, pending: &Pending<crate::stage::Stage>) -> String {
        text::describe_pending(state, pending)
    }

    fn describe_pending_for(state: &State, pending: &Pending<crate::stage::Stage>, seat: Seat) -> String {
        text::describe_pending_for(state, pending, seat)
    }

    fn seat_name(state: &State, seat: Seat) -> String {
        fray_engine::sides::seat_name(&state.setup.seats, seat)
    }

    fn seat_by_name(state: &State, name: &str) -> Option<Seat> {
        fray_engine::sides::seat_by_name(&state.setup.seats, name)
    }

    fn summary(state: &State) -> String {
        text::summary(state)
    }

    fn map(state: &State, seat: Seat) -> Option<String> {
        Some(board::map(state, seat))
    }

    fn tracker(state: &State, seat: Seat) -> String {
        board::tracker(state, seat)
    }

    fn table(state: &State, seat: Seat) -> fray_engine::view::Table {
        view::table(state, seat)
    }

    fn combatant_id(state: &State, index: u16) -> Option<String> {
        state.setup.chars.get(usize::from(index)).map(|c| c.id.clone())
    }

    fn title(state: &State) -> String {
        state.setup.title.clone()
    }

    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(ai::Heuristic::new())
    }

    fn gm_help() -> &'static str {
        "gm set <id> fatigue|stress|fatigue-tolerance|stress-tolerance|wounds|initiative|mark|scouted +N|-N|=N
gm status <id> <status-or-condition> +N|-N|=N|on|off
gm incapacitate <id>     gm revive <id>
gm move <id> <x,y>       gm remove <id>
gm add <new-id> <template> <side> <x,y>
gm end <side>|none"
    }

    fn odds(args: &[String]) -> Result<(String, serde_json::Value), String> {
        let q = odds::parse_query(args)?;
        let o = odds::attack(q)?;
        Ok((odds::text(&o), serde_json::to_value(&o).map_err(|e| e.to_string())?))
    }

    const OPTION_WORDS: &'static [&'static str] = &["option", "dir", "status", "overexert"];

    fn note(state: &State, command: &Command) -> Option<String> {
        match command {
            Command::Act(a) => match &a.target {
                command::Target::Chars(l) if l.len() == 1 => odds::note(state, state.turn.who, a.ability, l[0]),
                _ => None,
            },
            _ => None,
        }
    }

    fn board(state: &State, seat: Seat) -> Option<fray_engine::view::Board> {
        Some(board::board(state, seat))
    }
}

/// A key of a TOML table: bare when it can be, quoted otherwise (an upgraded ability's id has a
/// `+`).
fn toml_key(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        k.to_string()
    } else {
        toml::Value::String(k.to_string()).to_string()
    }
}
