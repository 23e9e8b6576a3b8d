//! The reaction stack.
//!
//! Rulesets resolve abilities, reaction windows and triggered effects as frames on one stack:
//! the top frame is what is being resolved now, a trigger pushes a new frame that resolves fully
//! before the frame under it continues (last in, first out), and a [`Window`] asks the seats that
//! may respond, one after another, in the ruleset's order. A depth limit stops runaway chains of
//! triggers of triggers.

use serde::{Deserialize, Serialize};

/// The stack was already at its depth limit; the new frame was not pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopGuard {
    /// The limit that was reached.
    pub limit: usize,
}

/// A stack of resolution frames with a depth limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReactionStack<F> {
    frames: Vec<F>,
}

impl<F> Default for ReactionStack<F> {
    fn default() -> Self {
        ReactionStack { frames: Vec::new() }
    }
}

impl<F> ReactionStack<F> {
    /// The default depth limit: deeper chains of triggers are not offered.
    pub const DEFAULT_LIMIT: usize = 24;

    /// An empty stack.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pushes a frame unless the stack already holds `limit` frames.
    pub fn push(&mut self, frame: F, limit: usize) -> Result<(), LoopGuard> {
        if self.frames.len() >= limit {
            return Err(LoopGuard { limit });
        }
        self.frames.push(frame);
        Ok(())
    }

    /// Removes and returns the top frame.
    pub fn pop(&mut self) -> Option<F> {
        self.frames.pop()
    }

    /// The frame being resolved now.
    pub fn top(&self) -> Option<&F> {
        self.frames.last()
    }

    /// The frame being resolved now, mutably.
    pub fn top_mut(&mut self) -> Option<&mut F> {
        self.frames.last_mut()
    }

    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether nothing is being resolved.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Frames from bottom to top.
    pub fn iter(&self) -> impl Iterator<Item = &F> {
        self.frames.iter()
    }

    /// Frames from bottom to top, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut F> {
        self.frames.iter_mut()
    }

    /// Removes every frame.
    pub fn clear(&mut self) {
        self.frames.clear();
    }
}

/// A reaction window: the candidates that may respond to one trigger, asked one at a time in
/// the order the ruleset gave (for example the turn order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window<C> {
    /// Who may respond, in the order they are asked.
    pub candidates: Vec<C>,
    /// How many have been asked already.
    pub asked: usize,
}

impl<C> Window<C> {
    /// A window over candidates already in asking order.
    pub fn new(candidates: Vec<C>) -> Self {
        Window { candidates, asked: 0 }
    }

    /// The candidate being asked now.
    pub fn current(&self) -> Option<&C> {
        self.candidates.get(self.asked)
    }

    /// Moves to the next candidate.
    pub fn advance(&mut self) {
        self.asked += 1;
    }

    /// Whether everyone has been asked.
    pub fn is_done(&self) -> bool {
        self.asked >= self.candidates.len()
    }
}

/// Sorts candidates by a position key (such as their slot in the turn order), keeping the given
/// order for equal keys.
pub fn order_by<C>(candidates: &mut [C], mut position: impl FnMut(&C) -> usize) {
    candidates.sort_by_key(|c| position(c));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_resolve_last_in_first_out_with_a_depth_limit() {
        let mut s = ReactionStack::new();
        s.push("X", 3).unwrap();
        s.push("Y", 3).unwrap();
        s.push("Z", 3).unwrap();
        assert_eq!(s.push("W", 3), Err(LoopGuard { limit: 3 }));
        assert_eq!(s.pop(), Some("Z"));
        assert_eq!(s.pop(), Some("Y"));
        assert_eq!(s.pop(), Some("X"));
        assert!(s.is_empty());
    }

    #[test]
    fn window_asks_in_order() {
        let mut cands = vec![(7, "B"), (2, "A"), (7, "C")];
        order_by(&mut cands, |c| c.0);
        let mut w = Window::new(cands);
        assert_eq!(w.current().map(|c| c.1), Some("A"));
        w.advance();
        assert_eq!(w.current().map(|c| c.1), Some("B"));
        w.advance();
        w.advance();
        assert!(w.is_done());
    }
}
