//! Movement search: every square a creature can walk to through open squares, the cheapest
//! way there and what each square of it costs, diagonal steps counted by the `metric` option
//! (HAL-R18).
//!
//! The search knows no turn and no rule of who may move: the `move`, the short move (`step`)
//! and a flight call it with the movement they allow (`actions::moves`, `actions::flee`), and
//! the legal list reads one search's squares rather than checking each square (a search each).

use crate::plan::Plan;
use crate::state::State;
use fray_space::{DiagonalReach, DiagonalScratch, Metric, Pos, reach_diagonal, reach_diagonal_to};
use std::cell::RefCell;

/// Every square a creature at `from` may walk to for at most `budget` squares, through open
/// squares, diagonal steps counted by the `metric` option (HAL-R18).
pub fn walk_reach<'a>(s: &'a State, from: Pos, budget: u32, scratch: &'a mut DiagonalScratch) -> DiagonalReach<'a> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let enter = |_: Pos, b: Pos| s.open(b).then_some(0);
    reach_diagonal(&s.setup.map, from, budget, alternating, enter, |_| true, scratch)
}

/// [`walk_reach`] asked about one square, `to`: its cost and its way are exactly what
/// [`walk_reach`] gives (the space crate's promise for a goal-first search), found without
/// settling the rest of the map. The checks of `move` and `step` ask this.
pub fn walk_reach_to<'a>(
    s: &'a State,
    from: Pos,
    to: Pos,
    budget: u32,
    scratch: &'a mut DiagonalScratch,
) -> DiagonalReach<'a> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let enter = |_: Pos, b: Pos| s.open(b).then_some(0);
    reach_diagonal_to(&s.setup.map, from, to, budget, alternating, enter, |_| true, scratch)
}

thread_local! {
    /// The search space the checks reuse, so checking a move allocates nothing after the first.
    static SCRATCH: RefCell<DiagonalScratch> = RefCell::new(DiagonalScratch::new());
}

/// Runs `f` with this thread's reusable search space (a fresh one if it is in use).
pub fn with_scratch<T>(f: impl FnOnce(&mut DiagonalScratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut DiagonalScratch::new()),
    })
}

/// The cost of each square of a walk from `from` along `path` (the squares after the start),
/// counted from the start: 1 a step, or with alternating diagonals every second diagonal 2.
pub fn path_costs(s: &State, from: Pos, path: &[Pos]) -> Vec<u32> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let (mut prev, mut total, mut diagonals) = (from, 0u32, 0u32);
    path.iter()
        .map(|&p| {
            let diagonal = p.x != prev.x && p.y != prev.y;
            if diagonal {
                diagonals += 1;
            }
            total += if alternating && diagonal && diagonals % 2 == 0 {
                2
            } else {
                1
            };
            prev = p;
            total
        })
        .collect()
}

/// The plan of a move (or short move) to `to` found by a search of
/// [`crate::actions::moves::move_reach`] (or, for a short move, [`walk_reach`] within
/// `free-move`): its way there. The search went no further than the movement allowed, and a
/// cheapest way within it is the one the whole search finds, so the plan is the one
/// [`crate::check::check`] gives.
pub fn walk_plan(r: &DiagonalReach<'_>, to: Pos) -> Option<Plan> {
    r.path_to(to).map(Plan::Walk)
}
