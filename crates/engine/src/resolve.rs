//! The resolution kit: what every ruleset's `start` and `resolve` are written with.
//!
//! - [`Cx`] hands the ruleset the state read-only ([`Ro`]) and changes it only through
//!   [`Cx::emit`], which applies the event with [`Ruleset::apply`], tells an optional
//!   [`Observer`] (the text layer describes each event as it happens, against the state before
//!   and after it, instead of applying the events a second time on a copy), and records it.
//!   The frame operations below and [`Cx::note`] take shortcuts that leave exactly the state
//!   (and the events) `emit` would: a frame changed where it lies ([`Frames::frames_mut`],
//!   [`Cx::change`]), pushed or popped in place where no event is kept ([`Frames::stack_mut`]),
//!   a record that changes nothing not built where it is not kept.
//! - [`Frames`] + [`Cx::push`], [`Cx::update`], [`Cx::set_frame`], [`Cx::pop`]: a resolution
//!   stack kept in the state and changed by the ruleset's own frame events, with one depth limit
//!   ([`Frames::MAX_DEPTH`]) against runaway chains of triggers.
//! - [`settle`]: the driver that runs automatic steps until the next decision, with one loop
//!   guard for every ruleset (a step that asks to go on without emitting anything would repeat
//!   forever, and is reported as a bug at once).

use crate::{EngineError, Ruleset};
use fray_dice::Dice;
use std::ops::Deref;

/// Read-only access to the state inside a [`Cx`]: it dereferences to the state, but only the
/// context's own methods ([`Cx::emit`] and the shortcuts that leave the same state) change it.
pub struct Ro<'a, S>(&'a mut S);

impl<S> Deref for Ro<'_, S> {
    type Target = S;
    fn deref(&self) -> &S {
        self.0
    }
}

/// Sees every event as it is emitted: [`Observer::before`] against the state before it is
/// applied, [`Observer::after`] against the state right after.
pub trait Observer<R: Ruleset> {
    /// The event is about to be applied to `state`.
    fn before(&mut self, state: &R::State, event: &R::Event);
    /// The event has just been applied; `state` is the state after it.
    fn after(&mut self, state: &R::State, event: &R::Event);
}

/// The resolution context: the state (read-only), the dice, and the events emitted so far.
pub struct Cx<'a, R: Ruleset> {
    /// The state; change it with [`Cx::emit`].
    pub s: Ro<'a, R::State>,
    /// Where dice (and cards) come from.
    pub dice: &'a mut dyn Dice,
    /// Where emitted events go; `None` for a context that does not keep them.
    out: Option<&'a mut Vec<R::Event>>,
    /// How many events were emitted through this context.
    count: usize,
    observer: Option<&'a mut dyn Observer<R>>,
}

impl<'a, R: Ruleset> Cx<'a, R> {
    /// A context that appends the events it emits to `out`.
    pub fn new(state: &'a mut R::State, dice: &'a mut dyn Dice, out: &'a mut Vec<R::Event>) -> Self {
        Cx {
            s: Ro(state),
            dice,
            out: Some(out),
            count: 0,
            observer: None,
        }
    }

    /// A context that applies the events it emits and keeps none of them (with
    /// [`Ruleset::apply_owned`], which may move what an event carries into the state instead
    /// of copying it): what the simulator runs, where nothing reads the events. The state
    /// comes out exactly as with [`Cx::new`].
    pub fn discarding(state: &'a mut R::State, dice: &'a mut dyn Dice) -> Self {
        Cx {
            s: Ro(state),
            dice,
            out: None,
            count: 0,
            observer: None,
        }
    }

    /// A context whose events are also shown to `observer` as they happen.
    pub fn observed(
        state: &'a mut R::State,
        dice: &'a mut dyn Dice,
        out: &'a mut Vec<R::Event>,
        observer: &'a mut dyn Observer<R>,
    ) -> Self {
        Cx {
            s: Ro(state),
            dice,
            out: Some(out),
            count: 0,
            observer: Some(observer),
        }
    }

    /// Applies an event to the state, shows it to the observer and records it: the way
    /// resolution changes the state (the frame shortcuts and [`Cx::note`] leave the state this
    /// would).
    pub fn emit(&mut self, event: R::Event) {
        self.count += 1;
        let Some(out) = self.out.as_mut() else {
            // A discarding context has no observer.
            R::apply_owned(self.s.0, event);
            return;
        };
        if let Some(o) = self.observer.as_mut() {
            o.before(self.s.0, &event);
        }
        R::apply(self.s.0, &event);
        if let Some(o) = self.observer.as_mut() {
            o.after(self.s.0, &event);
        }
        out.push(event);
    }

    /// Emits an event that changes nothing in the state (a record of a roll, a message),
    /// built by `event` only when something keeps or watches it: a context that keeps no
    /// events counts it and builds nothing, so a large record (a roll's dice) costs the
    /// simulator nothing. The ruleset's `apply` must leave the state as it is for such an
    /// event (debug builds check it in the contexts that skip it).
    #[inline]
    pub fn note(&mut self, event: impl FnOnce() -> R::Event) {
        if self.out.is_none() && self.observer.is_none() {
            self.count += 1;
            #[cfg(debug_assertions)]
            {
                let e = event();
                let before = self.s.0.clone();
                R::apply(self.s.0, &e);
                debug_assert!(*self.s.0 == before, "a noted event changed the state: {e:?}");
            }
            return;
        }
        self.emit(event());
    }

    /// The state (the same as `&*cx.s`).
    pub fn state(&self) -> &R::State {
        self.s.0
    }

    /// The events emitted so far through this context's output (none for a
    /// [`Cx::discarding`] context).
    pub fn emitted(&self) -> &[R::Event] {
        self.out.as_deref().map_or(&[], Vec::as_slice)
    }

    /// How many events were emitted through this context, kept or not.
    pub fn emitted_count(&self) -> usize {
        self.count
    }
}

/// A ruleset whose resolution keeps a stack of frames in its state (an attack waiting for
/// defences, a trigger window, a prompt): the top frame is what is being resolved now, and a
/// frame pushed on top resolves fully before the one under it goes on (last in, first out).
///
/// The ruleset keeps its own frame events (so its records and logs keep their form) and says
/// here how the kit's operations map onto them; its `apply` changes the stack with
/// [`apply_frame_op`].
pub trait Frames: Ruleset {
    /// One frame.
    type Frame: Clone;
    /// The deepest the stack may grow: a push beyond it is refused with
    /// [`EngineError::Bug`] (a chain of triggers that never ends).
    const MAX_DEPTH: usize = 64;
    /// The stack, bottom first.
    fn frames(state: &Self::State) -> &[Self::Frame];
    /// The event that performs `op`.
    fn frame_event(op: FrameOp<Self::Frame>) -> Self::Event;
    /// The stack, to change in place: lets [`Cx::change_top`] and [`Cx::change_frame`] change
    /// a frame where it lies instead of changing a copy and applying the update event (and
    /// [`Cx::change`] make a small change there). `None` (the default) makes them copy the
    /// frame and emit the update in every context. Give it only when applying the frame event
    /// of an `Update` or a `Set` does nothing but replace the frame, so changing it in place
    /// leaves the same state.
    fn frames_mut(_state: &mut Self::State) -> Option<&mut [Self::Frame]> {
        None
    }
    /// The stack itself, to push onto and pop from in place: lets [`Cx::push`] and [`Cx::pop`]
    /// in a context that keeps no events (and so has no observer) change the stack directly
    /// instead of building the frame event and applying it, which for a large frame means
    /// moving it through the event. `None` (the default) always goes through the event. Give
    /// it only when applying the frame event of a `Push` does nothing but push the frame and
    /// that of a `Pop` nothing but pop the top one, so both ways leave the same state.
    fn stack_mut(_state: &mut Self::State) -> Option<&mut Vec<Self::Frame>> {
        None
    }
}

/// A ruleset whose frames move on by small changes (a cursor, one target's result) rather than
/// by replacing the whole frame: its change event carries only the change, so a kept log does
/// not hold a copy of the frame each time resolution moves on, and (with
/// [`Frames::frames_mut`]) a context that keeps no events makes the change where the frame lies
/// and builds no event at all. The change is made with [`Cx::change`].
pub trait FrameChanges: Frames {
    /// One small change to a frame.
    type Change: Copy;
    /// The event that makes `change` to the frame at stack index `index` (bottom = 0). The
    /// ruleset's `apply` must do exactly [`FrameChanges::apply_change`] on that frame for it.
    fn change_event(index: usize, change: Self::Change) -> Self::Event;
    /// Makes `change` to `frame`.
    fn apply_change(frame: &mut Self::Frame, change: Self::Change);
}

/// A change of the resolution stack. It serialises (`{"Push": frame}`, `"Pop"`...), so a new
/// ruleset may keep its frame events as one event variant holding a `FrameOp<Frame>` and apply
/// it with `apply_frame_op(&mut stack, op.as_ref())`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FrameOp<F> {
    /// Push a frame.
    Push(F),
    /// Replace the top frame.
    Update(F),
    /// Replace the frame at an index (bottom = 0), for a trigger that changes what it answers.
    Set(usize, F),
    /// Remove the top frame.
    Pop,
}

impl<F> FrameOp<F> {
    /// The same operation borrowing its frame (what [`apply_frame_op`] takes).
    pub fn as_ref(&self) -> FrameOp<&F> {
        match self {
            FrameOp::Push(f) => FrameOp::Push(f),
            FrameOp::Update(f) => FrameOp::Update(f),
            FrameOp::Set(i, f) => FrameOp::Set(*i, f),
            FrameOp::Pop => FrameOp::Pop,
        }
    }
}

/// [`apply_frame_op`] taking the frame by value, moved onto the stack instead of copied (what a
/// ruleset's [`Ruleset::apply_owned`] calls for its frame events).
pub fn apply_frame_op_owned<F>(stack: &mut Vec<F>, op: FrameOp<F>) {
    match op {
        FrameOp::Push(f) => stack.push(f),
        FrameOp::Update(f) => {
            if let Some(top) = stack.last_mut() {
                *top = f;
            }
        }
        FrameOp::Set(i, f) => {
            if let Some(x) = stack.get_mut(i) {
                *x = f;
            }
        }
        FrameOp::Pop => {
            pop_in_place(stack);
        }
    }
}

/// Performs a frame operation on a stack kept as a vector (what a ruleset's `apply` calls for
/// its frame events). Replacing or popping what is not there does nothing.
pub fn apply_frame_op<F: Clone>(stack: &mut Vec<F>, op: FrameOp<&F>) {
    match op {
        FrameOp::Push(f) => stack.push(f.clone()),
        FrameOp::Update(f) => {
            if let Some(top) = stack.last_mut() {
                top.clone_from(f);
            }
        }
        FrameOp::Set(i, f) => {
            if let Some(x) = stack.get_mut(i) {
                x.clone_from(f);
            }
        }
        FrameOp::Pop => {
            pop_in_place(stack);
        }
    }
}

/// Drops the top frame where it lies (`Vec::pop` would move it out first: a copy of a large
/// frame for nothing).
fn pop_in_place<F>(stack: &mut Vec<F>) {
    if let Some(n) = stack.len().checked_sub(1) {
        stack.truncate(n);
    }
}

impl<R: Frames> Cx<'_, R> {
    /// The frame being resolved now.
    pub fn top(&self) -> Option<&R::Frame> {
        R::frames(&self.s).last()
    }

    /// How many frames are on the stack.
    pub fn depth(&self) -> usize {
        R::frames(&self.s).len()
    }

    /// Pushes a frame, unless the stack is already [`Frames::MAX_DEPTH`] deep (directly onto
    /// the stack, with no event built, in a context that keeps none when the ruleset gives
    /// [`Frames::stack_mut`]).
    pub fn push(&mut self, frame: R::Frame) -> Result<(), EngineError> {
        if self.depth() >= R::MAX_DEPTH {
            return Err(EngineError::Bug(format!(
                "the resolution stack would grow beyond {} frames: a chain of triggers that never ends",
                R::MAX_DEPTH
            )));
        }
        if self.out.is_none()
            && self.observer.is_none()
            && let Some(stack) = R::stack_mut(self.s.0)
        {
            self.count += 1;
            stack.push(frame);
            return Ok(());
        }
        self.emit(R::frame_event(FrameOp::Push(frame)));
        Ok(())
    }

    /// Replaces the top frame.
    pub fn update(&mut self, frame: R::Frame) {
        self.emit(R::frame_event(FrameOp::Update(frame)));
    }

    /// Replaces the frame at `index` (bottom = 0).
    pub fn set_frame(&mut self, index: usize, frame: R::Frame) {
        self.emit(R::frame_event(FrameOp::Set(index, frame)));
    }

    /// Changes the top frame with `change`: the same state, and the same event, as
    /// [`Cx::update`] with a changed copy of the top frame. When the ruleset gives
    /// [`Frames::frames_mut`] and no observer watches, the frame is changed where it lies: a
    /// context that keeps events then copies the changed frame once, into the event, and one
    /// that does not copies nothing. With no frame on the stack, nothing happens.
    pub fn change_top(&mut self, change: impl FnOnce(&mut R::Frame)) {
        if let Some(top) = self.depth().checked_sub(1) {
            self.change_at(top, FrameOp::Update, change);
        }
    }

    /// Replaces the top frame: [`Cx::change_top`] with the new frame (so, where frames change
    /// in place, without a copy when no event is kept). With no frame on the stack, nothing
    /// happens.
    pub fn replace_top(&mut self, frame: R::Frame) {
        self.change_top(|top| *top = frame);
    }

    /// Changes the frame at `index` (bottom = 0) with `change`: the same state, and the same
    /// event, as [`Cx::set_frame`] with a changed copy of that frame, and like
    /// [`Cx::change_top`] changed where it lies when it can be. With no frame at `index`,
    /// nothing happens.
    pub fn change_frame(&mut self, index: usize, change: impl FnOnce(&mut R::Frame)) {
        self.change_at(index, |f| FrameOp::Set(index, f), change);
    }

    /// Makes a small change to the frame at `index` (bottom = 0): the same state, and the same
    /// event, as emitting [`FrameChanges::change_event`]. When the ruleset gives
    /// [`Frames::frames_mut`] and no observer watches, the change is made where the frame lies
    /// without going through the ruleset's `apply`, and only a context that keeps events builds
    /// the event. With no frame at `index`, nothing happens.
    #[inline]
    pub fn change(&mut self, index: usize, change: R::Change)
    where
        R: FrameChanges,
    {
        if index >= self.depth() {
            return;
        }
        if self.observer.is_none()
            && let Some(stack) = R::frames_mut(self.s.0)
        {
            if let Some(frame) = stack.get_mut(index) {
                R::apply_change(frame, change);
            }
            self.count += 1;
            if let Some(out) = self.out.as_mut() {
                out.push(R::change_event(index, change));
            }
            return;
        }
        self.emit(R::change_event(index, change));
    }

    /// Changes the frame at `index` and emits `op` of the changed frame (see
    /// [`Cx::change_top`]).
    fn change_at(
        &mut self,
        index: usize,
        op: impl FnOnce(R::Frame) -> FrameOp<R::Frame>,
        change: impl FnOnce(&mut R::Frame),
    ) {
        if self.observer.is_none()
            && let Some(stack) = R::frames_mut(self.s.0)
        {
            if let Some(frame) = stack.get_mut(index) {
                change(frame);
                self.count += 1;
                if let Some(out) = self.out.as_mut() {
                    out.push(R::frame_event(op(frame.clone())));
                }
            }
            return;
        }
        let Some(mut frame) = R::frames(&self.s).get(index).cloned() else {
            return;
        };
        change(&mut frame);
        self.emit(R::frame_event(op(frame)));
    }

    /// Removes the top frame (directly, like [`Cx::push`], where [`Frames::stack_mut`] allows).
    pub fn pop(&mut self) {
        if self.out.is_none()
            && self.observer.is_none()
            && let Some(stack) = R::stack_mut(self.s.0)
        {
            self.count += 1;
            pop_in_place(stack);
            return;
        }
        self.emit(R::frame_event(FrameOp::Pop));
    }
}

/// What an automatic step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// A decision is pending, or the game is over: stop here.
    Wait,
    /// The step changed something (it emitted at least one event): run the next one.
    Go,
}

/// At most this many automatic steps run between two decisions.
pub const SETTLE_LIMIT: usize = 100_000;

/// Runs `step` until it says [`Flow::Wait`]: the driver behind every ruleset's "run everything
/// automatic until the next decision". A step that says [`Flow::Go`] without emitting an event
/// changed nothing and would run forever: that, and more than [`SETTLE_LIMIT`] steps, is
/// [`EngineError::Bug`].
#[inline]
pub fn settle<R: Ruleset>(
    cx: &mut Cx<'_, R>,
    mut step: impl FnMut(&mut Cx<'_, R>) -> Result<Flow, EngineError>,
) -> Result<(), EngineError> {
    for _ in 0..SETTLE_LIMIT {
        let before = cx.count;
        match step(cx)? {
            Flow::Wait => return Ok(()),
            Flow::Go if cx.count == before => {
                return Err(EngineError::Bug(
                    "an automatic step changed nothing and asked to go on: it would repeat forever".into(),
                ));
            }
            Flow::Go => {}
        }
    }
    Err(EngineError::Bug(format!(
        "resolution did not reach a decision within {SETTLE_LIMIT} automatic steps"
    )))
}
