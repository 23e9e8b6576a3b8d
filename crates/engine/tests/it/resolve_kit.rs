//! The resolution kit: the context changes state only through `emit` and shows each event to an
//! observer; the frame stack has one depth limit; `settle` runs automatic steps to the next
//! decision and reports a step that would repeat forever.

use fray_dice::SeededDice;
use fray_engine::resolve::{FrameOp, apply_frame_op, settle};
use fray_engine::{
    Cx, EngineError, Flow, FrameChanges, Frames, Game, Observer, Outcome, Pending, Reject, Ruleset, Seat,
};
use serde::{Deserialize, Serialize};

/// A countdown: `Go(n)` pushes a frame that counts down to zero by itself, one event per step;
/// a frame that reaches zero pops and the seat is asked again. `Stuck` makes a step that asks
/// to go on without emitting anything; `Chain(n)` pushes `n` frames at once.
struct Countdown;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct St {
    stack: Vec<u32>,
    ticks: u32,
    stuck: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
enum Cmd {
    Go(u32),
    Stuck,
    Chain(usize),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Ev {
    Push(u32),
    Top(u32),
    Set(usize, u32),
    Pop,
    /// A small change: add to the frame at an index.
    Add(usize, u32),
    Tick,
    Stuck,
    /// A record that changes nothing (emitted with `Cx::note`).
    Note(u32),
}

impl Frames for Countdown {
    type Frame = u32;
    const MAX_DEPTH: usize = 5;
    fn frames(s: &St) -> &[u32] {
        &s.stack
    }
    fn frame_event(op: FrameOp<u32>) -> Ev {
        match op {
            FrameOp::Push(f) => Ev::Push(f),
            FrameOp::Update(f) => Ev::Top(f),
            FrameOp::Set(i, f) => Ev::Set(i, f),
            FrameOp::Pop => Ev::Pop,
        }
    }
    fn frames_mut(s: &mut St) -> Option<&mut [u32]> {
        Some(&mut s.stack)
    }
    fn stack_mut(s: &mut St) -> Option<&mut Vec<u32>> {
        Some(&mut s.stack)
    }
}

impl FrameChanges for Countdown {
    type Change = u32;
    fn change_event(index: usize, change: u32) -> Ev {
        Ev::Add(index, change)
    }
    fn apply_change(frame: &mut u32, change: u32) {
        *frame += change;
    }
}

fn advance(cx: &mut Cx<'_, Countdown>) -> Result<(), EngineError> {
    settle(cx, |cx| {
        if cx.s.stuck {
            // Changes nothing, yet asks to go on.
            return Ok(Flow::Go);
        }
        match cx.top().copied() {
            None => Ok(Flow::Wait),
            Some(0) => {
                cx.pop();
                Ok(Flow::Go)
            }
            Some(n) => {
                cx.emit(Ev::Tick);
                cx.update(n - 1);
                Ok(Flow::Go)
            }
        }
    })
}

/// The toy's decision: its kind and the combatant it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Asked {
    kind: &'static str,
    actor: Option<u16>,
}

impl fray_engine::Stage for Asked {
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn actor(&self) -> Option<u16> {
        self.actor
    }
}

impl Ruleset for Countdown {
    const ID: &'static str = "countdown";
    const VERSION: &'static str = "1";
    type Options = ();
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;
    type View<'a> = ();
    fn new_state(_: &(), _: &()) -> Result<St, EngineError> {
        Ok(St::default())
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(_: &St) -> Option<Pending<Asked>> {
        Some(Pending::one(
            Seat(1),
            Asked {
                kind: "go",
                actor: None,
            },
        ))
    }
    fn is_ruling(_: &Cmd) -> bool {
        false
    }
    fn legal(_: &St, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.push(fray_engine::Answer::new(Cmd::Go(1), ()));
    }
    fn check(_: &St, _: &Asked, _: Seat, _: &Cmd) -> Result<(), Reject> {
        Ok(())
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        match c {
            Cmd::Go(n) => cx.push(*n)?,
            Cmd::Stuck => cx.emit(Ev::Stuck),
            Cmd::Chain(n) => {
                for i in 0..*n {
                    cx.push(i as u32 + 1)?;
                }
            }
        }
        advance(cx)
    }
    fn apply(s: &mut St, e: &Ev) {
        match e {
            Ev::Push(f) => apply_frame_op(&mut s.stack, FrameOp::Push(f)),
            Ev::Top(f) => apply_frame_op(&mut s.stack, FrameOp::Update(f)),
            Ev::Set(i, f) => apply_frame_op(&mut s.stack, FrameOp::Set(*i, f)),
            Ev::Pop => apply_frame_op(&mut s.stack, FrameOp::Pop),
            Ev::Add(i, n) => {
                if let Some(f) = s.stack.get_mut(*i) {
                    Countdown::apply_change(f, *n);
                }
            }
            Ev::Tick => s.ticks += 1,
            Ev::Stuck => s.stuck = true,
            Ev::Note(_) => {}
        }
    }
    fn outcome(_: &St) -> Option<Outcome> {
        None
    }
    fn view(_: &St, _: Seat) {}
}

fn game() -> Game<Countdown> {
    Game::new_seeded((), (), 1).expect("starts")
}

#[test]
fn settle_runs_automatic_steps_until_a_decision() {
    let mut g = game();
    let events = g.submit(Seat(1), Cmd::Go(3)).expect("accepted").to_vec();
    // Push 3, then three ticks each followed by the new top, then the pop at zero.
    assert_eq!(
        events,
        vec![
            Ev::Push(3),
            Ev::Tick,
            Ev::Top(2),
            Ev::Tick,
            Ev::Top(1),
            Ev::Tick,
            Ev::Top(0),
            Ev::Pop
        ]
    );
    assert_eq!(g.state().ticks, 3);
    assert!(g.state().stack.is_empty());
}

#[test]
fn a_step_that_changes_nothing_is_a_bug_not_a_hang_and_the_game_is_unchanged() {
    let mut g = game();
    let before = g.state().clone();
    let err = g.submit(Seat(1), Cmd::Stuck).expect_err("refused");
    assert!(err.to_string().contains("changed nothing"), "{err}");
    assert_eq!(g.state(), &before);
    assert!(g.record().entries.is_empty());
}

#[test]
fn the_frame_stack_has_one_depth_limit() {
    let mut g = game();
    // Five frames fit (they then count down by themselves)...
    g.submit(Seat(1), Cmd::Chain(5)).expect("five frames fit");
    // ...a sixth does not.
    let err = g.submit(Seat(1), Cmd::Chain(6)).expect_err("too deep");
    assert!(err.to_string().contains("beyond 5 frames"), "{err}");
}

/// Sees each event with the state before and after it.
#[derive(Default)]
struct Watch {
    seen: Vec<(u32, String, u32)>,
}

impl Observer<Countdown> for Watch {
    fn before(&mut self, s: &St, e: &Ev) {
        self.seen.push((s.ticks, format!("{e:?}"), 0));
    }
    fn after(&mut self, s: &St, _: &Ev) {
        if let Some(last) = self.seen.last_mut() {
            last.2 = s.ticks;
        }
    }
}

#[test]
fn the_observer_sees_each_event_once_between_the_state_before_and_after() {
    let mut g = game();
    let mut w = Watch::default();
    let events = g
        .submit_observed(Seat(1), Cmd::Go(2), &mut w)
        .expect("accepted")
        .to_vec();
    assert_eq!(w.seen.len(), events.len());
    let ticks: Vec<_> = w
        .seen
        .iter()
        .filter(|(_, e, _)| e == "Tick")
        .map(|(b, _, a)| (*b, *a))
        .collect();
    assert_eq!(ticks, vec![(0, 1), (1, 2)]);
    // A context built by hand observes the same way, and its emitted events are the output.
    let mut s = St::default();
    let mut out = Vec::new();
    let mut w2 = Watch::default();
    let mut dice = SeededDice::new(0);
    let mut cx = Cx::<Countdown>::observed(&mut s, &mut dice, &mut out, &mut w2);
    let go = Asked {
        kind: "go",
        actor: None,
    };
    Countdown::resolve(&mut cx, &go, Seat(1), &Cmd::Go(2), ()).expect("resolves");
    assert_eq!(cx.emitted(), events.as_slice());
    assert_eq!(cx.state().ticks, 2);
    assert_eq!(w2.seen, w.seen);
}

#[test]
fn a_frame_op_can_be_an_event_of_its_own_and_applies_through_as_ref() {
    // A ruleset may keep its frame events as one variant holding the kit's FrameOp.
    let ops = [
        FrameOp::Push(7u32),
        FrameOp::Push(9),
        FrameOp::Update(8),
        FrameOp::Set(0, 5),
        FrameOp::Pop,
    ];
    let json = serde_json::to_string(&ops).expect("serialises");
    assert_eq!(json, r#"[{"Push":7},{"Push":9},{"Update":8},{"Set":[0,5]},"Pop"]"#);
    let back: Vec<FrameOp<u32>> = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, ops);
    let mut stack = Vec::new();
    for op in &back {
        apply_frame_op(&mut stack, op.as_ref());
    }
    assert_eq!(stack, vec![5]);
}

/// Runs `f` from `start` in a context that keeps its events, in a watched one and in one that
/// keeps none, and checks all three leave the same state and count the same events, the
/// watched one records the same events and shows each to its observer once, and the last
/// records none. Returns the state, the events kept and their count.
fn in_every_context(start: &St, f: impl Fn(&mut Cx<'_, Countdown>)) -> (St, Vec<Ev>, usize) {
    let mut dice = SeededDice::for_stream(1, 0);
    let (mut kept, mut out) = (start.clone(), Vec::new());
    let mut cx: Cx<'_, Countdown> = Cx::new(&mut kept, &mut dice, &mut out);
    f(&mut cx);
    let count = cx.emitted_count();

    let (mut watched, mut seen_out, mut watch) = (start.clone(), Vec::new(), Watch::default());
    let mut cx: Cx<'_, Countdown> = Cx::observed(&mut watched, &mut dice, &mut seen_out, &mut watch);
    f(&mut cx);
    assert_eq!(cx.emitted_count(), count);
    assert_eq!(seen_out, out);
    assert_eq!(watched, kept);
    assert_eq!(watch.seen.len(), out.len());

    let mut dropped = start.clone();
    let mut cx: Cx<'_, Countdown> = Cx::discarding(&mut dropped, &mut dice);
    f(&mut cx);
    assert_eq!(cx.emitted_count(), count);
    assert!(cx.emitted().is_empty());
    assert_eq!(dropped, kept);
    (kept, out, count)
}

/// A stack of three frames, changed by `change_top`, `change_frame` and `replace_top` in a
/// context that keeps its events, in a watched one and in one that keeps none: the same state
/// every way; the first two emit the same events as `update` and `set_frame` with changed
/// copies, the last counts its changes.
#[test]
fn changing_a_frame_in_place_leaves_the_state_an_update_would() {
    let start = St {
        stack: vec![7, 8, 9],
        ..St::default()
    };
    let change = |cx: &mut Cx<'_, Countdown>| {
        cx.change_top(|f| *f += 1);
        cx.change_frame(0, |f| *f *= 10);
        // Nothing at index 5: nothing happens.
        cx.change_frame(5, |f| *f = 0);
        cx.replace_top(11);
    };
    // Watched, the frames are changed on copies and the updates applied as events: the
    // observer sees each, and the state and events come out the same.
    let (kept, out, count) = in_every_context(&start, change);
    assert_eq!(count, 3);
    assert_eq!(out, vec![Ev::Top(10), Ev::Set(0, 70), Ev::Top(11)]);
    assert_eq!(kept.stack, vec![70, 8, 11]);

    // With an empty stack there is no top to change, in either context.
    let mut dice = SeededDice::for_stream(1, 0);
    let mut empty = St::default();
    let mut out: Vec<Ev> = Vec::new();
    let mut cx: Cx<'_, Countdown> = Cx::new(&mut empty, &mut dice, &mut out);
    cx.change_top(|f| *f = 1);
    assert_eq!(cx.emitted_count(), 0);
    let mut cx: Cx<'_, Countdown> = Cx::discarding(&mut empty, &mut dice);
    cx.change_top(|f| *f = 1);
    cx.replace_top(1);
    assert_eq!(cx.emitted_count(), 0);
    assert!(empty.stack.is_empty());
}

#[test]
fn a_small_change_is_one_small_event_and_the_same_state_in_every_context() {
    let start = St {
        stack: vec![7, 8, 9],
        ..St::default()
    };
    let change = |cx: &mut Cx<'_, Countdown>| {
        cx.change(2, 5);
        cx.change(0, 1);
        // Nothing at index 3: nothing happens, and no event says otherwise.
        cx.change(3, 1);
    };
    // Watched, each change goes through `apply` as its event; keeping nothing, the frames
    // change where they lie and no event is built: the same state every way.
    let (kept, out, count) = in_every_context(&start, change);
    assert_eq!(count, 2);
    assert_eq!(out, vec![Ev::Add(2, 5), Ev::Add(0, 1)]);
    assert_eq!(kept.stack, vec![8, 8, 14]);

    // Replaying the kept events rebuilds the same stack.
    let mut replayed = start.clone();
    for e in [Ev::Add(2, 5), Ev::Add(0, 1)] {
        Countdown::apply(&mut replayed, &e);
    }
    assert_eq!(replayed, kept);
}

#[test]
fn pushing_and_popping_in_place_leaves_the_state_and_count_the_events_would() {
    let ops = |cx: &mut Cx<'_, Countdown>| -> Result<(), EngineError> {
        cx.push(3)?;
        cx.push(4)?;
        cx.pop();
        cx.push(5)?;
        // Popping an empty stack does nothing, as the `Pop` event does.
        cx.pop();
        cx.pop();
        cx.pop();
        cx.push(6)
    };
    let mut dice = SeededDice::for_stream(1, 0);
    let (mut kept, mut out) = (St::default(), Vec::new());
    let mut cx: Cx<'_, Countdown> = Cx::new(&mut kept, &mut dice, &mut out);
    ops(&mut cx).expect("within the depth limit");
    let count = cx.emitted_count();
    assert_eq!(
        out,
        vec![
            Ev::Push(3),
            Ev::Push(4),
            Ev::Pop,
            Ev::Push(5),
            Ev::Pop,
            Ev::Pop,
            Ev::Pop,
            Ev::Push(6)
        ]
    );
    assert_eq!(kept.stack, vec![6]);

    // Keeping nothing, the frames go onto the stack and off it directly: no event is built,
    // the state and the count come out the same.
    let mut dropped = St::default();
    let mut cx: Cx<'_, Countdown> = Cx::discarding(&mut dropped, &mut dice);
    ops(&mut cx).expect("within the depth limit");
    assert_eq!(cx.emitted_count(), count);
    assert!(cx.emitted().is_empty());
    assert_eq!(dropped, kept);

    // The depth limit holds in place too.
    let mut deep = St::default();
    let mut cx: Cx<'_, Countdown> = Cx::discarding(&mut deep, &mut dice);
    for i in 0..5 {
        cx.push(i).expect("within the depth limit");
    }
    assert!(matches!(cx.push(9), Err(EngineError::Bug(_))));
    assert_eq!(deep.stack, vec![0, 1, 2, 3, 4]);
}

#[test]
fn a_note_is_built_only_where_it_is_kept_or_watched_and_always_counted() {
    let built = std::cell::Cell::new(0);
    let notes = |cx: &mut Cx<'_, Countdown>| {
        cx.note(|| {
            built.set(built.get() + 1);
            Ev::Note(1)
        });
        cx.emit(Ev::Tick);
        cx.note(|| {
            built.set(built.get() + 1);
            Ev::Note(2)
        });
    };
    let mut dice = SeededDice::for_stream(1, 0);
    let (mut kept, mut out) = (St::default(), Vec::new());
    let mut cx: Cx<'_, Countdown> = Cx::new(&mut kept, &mut dice, &mut out);
    notes(&mut cx);
    assert_eq!(cx.emitted_count(), 3);
    assert_eq!(out, vec![Ev::Note(1), Ev::Tick, Ev::Note(2)]);
    assert_eq!(built.get(), 2);

    let (mut watched, mut out, mut watch) = (St::default(), Vec::new(), Watch::default());
    let mut cx: Cx<'_, Countdown> = Cx::observed(&mut watched, &mut dice, &mut out, &mut watch);
    notes(&mut cx);
    assert_eq!(out, vec![Ev::Note(1), Ev::Tick, Ev::Note(2)]);
    assert_eq!(watch.seen.len(), 3);
    assert_eq!(watched, kept);

    // Keeping nothing, a note is counted (so `settle` sees the step did something) and, in a
    // release build, never built (a debug build builds it to check it changes nothing).
    built.set(0);
    let mut dropped = St::default();
    let mut cx: Cx<'_, Countdown> = Cx::discarding(&mut dropped, &mut dice);
    notes(&mut cx);
    assert_eq!(cx.emitted_count(), 3);
    assert_eq!(dropped, kept);
    assert_eq!(built.get(), if cfg!(debug_assertions) { 2 } else { 0 });
}
