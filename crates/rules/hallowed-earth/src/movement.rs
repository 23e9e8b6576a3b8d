//! Movement search: every square a creature can walk to through open squares, the cheapest
//! way there and what each square of it costs, diagonal steps counted by the `metric` option
//! (HAL-R18).
//!
//! The search knows no turn and no rule of who may move: the `move`, the short move (`step`)
//! and a flight call it with the movement they allow (`actions::moves`, `actions::flee`), and
//! the legal list reads one search's squares rather than checking each square (a search each).

use crate::plan::Plan;
use crate::state::State;
use fray_space::{DiagonalReach, DiagonalScratch, Metric, Pos, reach_diagonal};

/// Every square a creature at `from` may walk to for at most `budget` squares, through open
/// squares, diagonal steps counted by the `metric` option (HAL-R18).
pub fn walk_reach<'a>(s: &'a State, from: Pos, budget: u32, scratch: &'a mut DiagonalScratch) -> DiagonalReach<'a> {
    let alternating = s.options.metric == Metric::AlternatingDiagonal;
    let enter = |_: Pos, b: Pos| s.open(b).then_some(0);
    reach_diagonal(&s.setup.map, from, budget, alternating, enter, |_| true, scratch)
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
