//! Pathfinding where every second diagonal step costs two ("alternating diagonals").
//!
//! The cost of a diagonal step depends on how many diagonals the mover has already taken in
//! this movement (the first costs 1, the second 2, the third 1, ...), so the search runs over
//! pairs (square, parity of diagonals so far): Dijkstra on twice as many states. On open ground
//! the cheapest cost to a square equals [`alternating_diagonal`](crate::alternating_diagonal);
//! around obstacles it is the true cheapest walk.
//!
//! Rules decide the rest through callbacks, as with [`reach`](crate::reach): `enter(from, to)`
//! says whether a step may be taken and what it costs on top of the metric (terrain), and
//! `can_stop(p)` whether the mover may end there. Ties are broken by (cost, square index,
//! parity), so results depend on the inputs alone.

use crate::grid::Grid;
use crate::pos::{Dir, Pos};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// What a search knows of one (square, parity) state. It belongs to the current search only
/// when `stamp` is the scratch's generation; otherwise it is left over from an earlier one.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    stamp: u32,
    dist: u32,
    prev: u32,
    settled: bool,
}

/// Reusable working memory for [`reach_diagonal`].
#[derive(Clone, Debug, Default)]
pub struct DiagonalScratch {
    generation: u32,
    nodes: Vec<Node>,
    stoppable: Vec<bool>,
    heap: BinaryHeap<Reverse<u64>>,
    width: u16,
    height: u16,
    start: u32,
}

impl DiagonalScratch {
    /// Empty scratch space; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }

    fn begin(&mut self, grid: &Grid) {
        let states = grid.len() * 2;
        if self.nodes.len() != states {
            self.nodes = vec![Node::default(); states];
            self.stoppable = vec![false; grid.len()];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.nodes.fill(Node::default());
            self.generation = 1;
        }
        self.heap.clear();
        self.width = grid.width();
        self.height = grid.height();
        self.start = NONE;
    }

    /// State `s` in this search, made fresh (unreached) if it was left over.
    #[inline]
    fn touch(&mut self, s: usize) -> &mut Node {
        let generation = self.generation;
        let n = &mut self.nodes[s];
        if n.stamp != generation {
            *n = Node {
                stamp: generation,
                dist: u32::MAX,
                prev: NONE,
                settled: false,
            };
        }
        n
    }

    /// The cost of state `s` if it has settled in this search.
    #[inline]
    fn settled(&self, s: usize) -> Option<u32> {
        let n = self.nodes.get(s)?;
        (n.stamp == self.generation && n.settled).then_some(n.dist)
    }

    fn cost_of_square(&self, i: usize) -> Option<(u32, usize)> {
        let mut best: Option<(u32, usize)> = None;
        for s in [2 * i, 2 * i + 1] {
            if let Some(d) = self.settled(s)
                && best.is_none_or(|(b, _)| d < b)
            {
                best = Some((d, s));
            }
        }
        best
    }

    fn pos(&self, i: usize) -> Pos {
        let w = usize::from(self.width.max(1));
        Pos::new((i % w) as i16, (i / w) as i16)
    }

    /// The squares next to square `i` (at `here`) that are on the grid and not blocked, in
    /// [`Dir::ALL`] order: each with its position, its index, and whether the step is diagonal.
    #[inline]
    fn open_steps<'g>(&self, grid: &'g Grid, i: usize, here: Pos) -> impl Iterator<Item = (Pos, usize, bool)> + 'g {
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        Dir::ALL.into_iter().filter_map(move |dir| {
            let (dx, dy) = dir.delta();
            let (x, y) = (i32::from(here.x) + i32::from(dx), i32::from(here.y) + i32::from(dy));
            if x < 0 || y < 0 || x >= w || y >= h {
                return None;
            }
            let j = (i as isize + (isize::from(dy) * w as isize + isize::from(dx))) as usize;
            if grid.cells()[j].blocked {
                return None;
            }
            Some((Pos::new(x as i16, y as i16), j, dx != 0 && dy != 0))
        })
    }
}

/// The squares reached by [`reach_diagonal`].
pub struct DiagonalReach<'a> {
    scratch: &'a DiagonalScratch,
    grid: &'a Grid,
}

impl DiagonalReach<'_> {
    /// The cheapest cost to `p`, if it is reachable within the budget (the start costs 0).
    pub fn cost_to(&self, p: Pos) -> Option<u32> {
        let i = self.grid.index(p)?;
        self.scratch.cost_of_square(i).map(|(d, _)| d)
    }

    /// Whether the mover may end on `p` (reachable and allowed to stop there; the start counts).
    pub fn can_end_on(&self, p: Pos) -> bool {
        self.grid.index(p).is_some_and(|i| {
            self.scratch.cost_of_square(i).is_some() && (self.scratch.stoppable[i] || i as u32 == self.scratch.start)
        })
    }

    /// A cheapest path to `p`: the squares after the start, up to and including `p`.
    pub fn path_to(&self, p: Pos) -> Option<Vec<Pos>> {
        let i = self.grid.index(p)?;
        let (_, mut s) = self.scratch.cost_of_square(i)?;
        let mut path = Vec::new();
        while self.scratch.nodes[s].prev != NONE {
            path.push(self.scratch.pos(s / 2));
            s = self.scratch.nodes[s].prev as usize;
        }
        path.reverse();
        Some(path)
    }

    /// Every square other than the start where the mover may end, with its cost, in grid order.
    pub fn destinations(&self) -> impl Iterator<Item = (Pos, u32)> + '_ {
        (0..self.grid.len()).filter_map(move |i| {
            if i as u32 == self.scratch.start || !self.scratch.stoppable[i] {
                return None;
            }
            let (d, _) = self.scratch.cost_of_square(i)?;
            Some((self.scratch.pos(i), d))
        })
    }
}

/// Every square reachable from `start` for at most `budget`, where orthogonal steps cost 1,
/// diagonal steps cost 1 and 2 alternately (or always 1 when `alternating` is false), and
/// `enter(from, to)` adds a cost (or forbids the step with `None`). `can_stop(p)` is asked once
/// per reached square.
// Inlined into the caller's search (with its two closures): Ingenuity's simulations spend
// about half their time here, and an out-of-line copy measured 4% slower on the ambush example.
#[inline]
pub fn reach_diagonal<'a>(
    grid: &'a Grid,
    start: Pos,
    budget: u32,
    alternating: bool,
    enter: impl FnMut(Pos, Pos) -> Option<u32>,
    can_stop: impl FnMut(Pos) -> bool,
    scratch: &'a mut DiagonalScratch,
) -> DiagonalReach<'a> {
    search(grid, start, budget, alternating, enter, can_stop, scratch)
}

/// [`reach_diagonal`] for one square, `goal`: what the result says about `goal`
/// ([`DiagonalReach::cost_to`], [`DiagonalReach::can_end_on`], [`DiagonalReach::path_to`]) is
/// exactly what [`reach_diagonal`] with the same arguments says, the same path included; what
/// it says about other squares is incomplete. It searches goal first (as
/// [`cheapest_diagonal`]), then walks back from `goal` choosing at each state the predecessor
/// [`reach_diagonal`] would have recorded: of the states one step before on a cheapest way,
/// the first it settles, that is the least by (cost, state index). `enter` and `can_stop` are
/// asked about fewer squares.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn reach_diagonal_to<'a>(
    grid: &'a Grid,
    start: Pos,
    goal: Pos,
    budget: u32,
    alternating: bool,
    mut enter: impl FnMut(Pos, Pos) -> Option<u32>,
    mut can_stop: impl FnMut(Pos) -> bool,
    scratch: &'a mut DiagonalScratch,
) -> DiagonalReach<'a> {
    let Some(best) = goal_first(grid, start, goal, budget, alternating, &mut enter, true, scratch) else {
        return DiagonalReach { scratch, grid };
    };
    let (Some(origin), Some(target)) = (grid.index(start), grid.index(goal)) else {
        return DiagonalReach { scratch, grid };
    };
    scratch.start = origin as u32;
    scratch.stoppable[origin] = false;
    if target != origin {
        scratch.stoppable[target] = can_stop(goal);
    }
    // The goal's state `reach_diagonal` reports: the cheaper, parity 0 on a tie.
    let mut t = if scratch.settled(2 * target) == Some(best) {
        2 * target
    } else {
        2 * target + 1
    };
    // Every state on a cheapest way to the goal has settled (`goal_first` with `ties`), at its
    // final cost; the walk back ends at the start, the one state of cost 0.
    while scratch.nodes[t].dist > 0 {
        let here = scratch.pos(t / 2);
        let parity = t % 2;
        let mut from: Option<(u32, usize)> = None;
        for dir in Dir::ALL {
            let (dx, dy) = dir.delta();
            let Some(back) = here.checked_offset(-dx, -dy) else {
                continue;
            };
            let Some(j) = grid.index(back) else { continue };
            let diagonal = dx != 0 && dy != 0;
            // The parity before the step, and what the step cost on top of `enter`.
            let (before, metric) = match (diagonal, alternating) {
                (true, true) => (1 - parity, 2 - parity as u32),
                _ => (parity, 1),
            };
            let u = 2 * j + before;
            let Some(du) = scratch.settled(u) else { continue };
            if from.is_some_and(|(d, v)| (d, v) < (du, u)) {
                continue;
            }
            let Some(extra) = enter(back, here) else { continue };
            if du.saturating_add(metric).saturating_add(extra) == scratch.nodes[t].dist {
                from = Some((du, u));
            }
        }
        let Some((_, u)) = from else { break };
        scratch.nodes[t].prev = u as u32;
        t = u;
    }
    DiagonalReach { scratch, grid }
}

/// The least a walk from `a` to `b` can cost on open ground, for a mover whose diagonals so
/// far are even (`odd` false: the next diagonal costs 1) or odd (it costs 2). It is the exact
/// cost on an open plane, so it never falls by more than a step's price when the mover takes a
/// step: a consistent bound, as walls and `enter`'s extra prices only add to a walk's cost.
#[inline]
fn lower_bound(a: Pos, b: Pos, alternating: bool, odd: bool) -> u32 {
    if alternating {
        let dx = u32::from(a.x.abs_diff(b.x));
        let dy = u32::from(a.y.abs_diff(b.y));
        let (short, long) = if dx < dy { (dx, dy) } else { (dy, dx) };
        long + (short + u32::from(odd)) / 2
    } else {
        u32::from(crate::chebyshev(a, b))
    }
}

/// The cost [`reach_diagonal`] with the same arguments reports for `goal`
/// ([`DiagonalReach::cost_to`]), found goal first: an A* search over (square, parity) guided by
/// the open-ground cost to `goal`, which settles few squares besides those on the way. It
/// gives no path (see [`reach_diagonal_to`] for one) and asks no `can_stop`; `enter` is asked
/// about fewer squares.
#[inline]
pub fn cheapest_diagonal(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    budget: u32,
    alternating: bool,
    mut enter: impl FnMut(Pos, Pos) -> Option<u32>,
    scratch: &mut DiagonalScratch,
) -> Option<u32> {
    goal_first(grid, start, goal, budget, alternating, &mut enter, false, scratch)
}

/// A* over (square, parity) from `start` to `goal` within `budget`, ordered by cost plus the
/// open-ground bound: with a consistent bound every state's cost is final when it settles, and
/// both states of the goal have bound 0, so the first goal state to settle is the goal's
/// cheapest; its cost is returned. With `ties` the search goes on until every state whose cost
/// plus bound is at most that cost has settled: those include every state on every cheapest
/// way to the goal (and only they matter for its path). Predecessors are not recorded.
#[inline]
#[allow(clippy::too_many_arguments)]
fn goal_first(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    budget: u32,
    alternating: bool,
    enter: &mut impl FnMut(Pos, Pos) -> Option<u32>,
    ties: bool,
    scratch: &mut DiagonalScratch,
) -> Option<u32> {
    scratch.begin(grid);
    let origin = grid.index(start)?;
    let target = grid.index(goal)?;
    let h = |p: Pos, parity: usize| lower_bound(p, goal, alternating, parity == 1);
    if h(start, 0) > budget {
        return None;
    }
    // Until the goal settles, the limit is the budget; then its cost.
    let mut limit = budget;
    let mut found = None;
    let s0 = 2 * origin;
    scratch.touch(s0).dist = 0;
    scratch.heap.push(Reverse(key(h(start, 0), s0)));
    while let Some(Reverse(k)) = scratch.heap.pop() {
        let (f, s) = ((k >> 32) as u32, (k & 0xffff_ffff) as usize);
        if f > limit {
            break;
        }
        let i = s / 2;
        let parity = s % 2;
        let here = scratch.pos(i);
        let node = &mut scratch.nodes[s];
        let d = node.dist;
        if node.settled || f != d.saturating_add(h(here, parity)) {
            continue;
        }
        node.settled = true;
        if i == target && found.is_none() {
            if !ties {
                return Some(d);
            }
            found = Some(d);
            limit = d;
        }
        for (next, j, diagonal) in scratch.open_steps(grid, i, here) {
            let (metric, np) = match (diagonal, alternating) {
                (true, true) => (1 + parity as u32, 1 - parity),
                _ => (1, parity),
            };
            if d.saturating_add(metric).saturating_add(h(next, np)) > limit {
                continue;
            }
            let Some(extra) = enter(here, next) else { continue };
            let cost = d.saturating_add(metric).saturating_add(extra);
            let to_goal = cost.saturating_add(h(next, np));
            if to_goal > limit {
                continue;
            }
            let t = 2 * j + np;
            let node = scratch.touch(t);
            if !node.settled && cost < node.dist {
                node.dist = cost;
                scratch.heap.push(Reverse(key(to_goal, t)));
            }
        }
    }
    found
}

/// Dijkstra over (square, parity), in (cost, state index) order: the state index is
/// `2 * square + parity`, so equal costs settle the lower square first, and parity 0 before 1.
/// Every step costs at least 1, so every state of cost `d` is queued before the first one is
/// settled, and the settling order depends on the inputs alone. A state's predecessor is the
/// first settled state that reached it at its final cost.
#[inline]
fn search<'a>(
    grid: &'a Grid,
    start: Pos,
    budget: u32,
    alternating: bool,
    mut enter: impl FnMut(Pos, Pos) -> Option<u32>,
    mut can_stop: impl FnMut(Pos) -> bool,
    scratch: &'a mut DiagonalScratch,
) -> DiagonalReach<'a> {
    scratch.begin(grid);
    let Some(origin) = grid.index(start) else {
        return DiagonalReach { scratch, grid };
    };
    scratch.start = origin as u32;
    // `stoppable[i]` is written when `i` first settles and read only for settled squares, so
    // it needs no clearing between searches.
    scratch.stoppable[origin] = false;
    let s0 = 2 * origin;
    scratch.touch(s0).dist = 0;
    scratch.heap.push(Reverse(key(0, s0)));
    while let Some(Reverse(k)) = scratch.heap.pop() {
        let (d, s) = ((k >> 32) as u32, (k & 0xffff_ffff) as usize);
        let node = &mut scratch.nodes[s];
        if node.settled || d != node.dist {
            continue;
        }
        node.settled = true;
        let i = s / 2;
        let parity = s % 2;
        let here = scratch.pos(i);
        // The square's first settled state is its cheapest: ask once whether it may end here.
        let other = s ^ 1;
        let first = scratch.settled(other).is_none();
        if first && i != origin {
            scratch.stoppable[i] = can_stop(here);
        }
        for (next, j, diagonal) in scratch.open_steps(grid, i, here) {
            let (metric, np) = match (diagonal, alternating) {
                (true, true) => (1 + parity as u32, 1 - parity),
                _ => (1, parity),
            };
            let Some(extra) = enter(here, next) else { continue };
            let cost = d.saturating_add(metric).saturating_add(extra);
            if cost > budget {
                continue;
            }
            let t = 2 * j + np;
            let node = scratch.touch(t);
            if !node.settled && cost < node.dist {
                node.dist = cost;
                node.prev = s as u32;
                scratch.heap.push(Reverse(key(cost, t)));
            }
        }
    }
    DiagonalReach { scratch, grid }
}

/// A queue entry: the cost in the high half and the state in the low half, so one integer
/// comparison orders by (cost, state).
#[inline]
fn key(cost: u32, state: usize) -> u64 {
    (u64::from(cost) << 32) | state as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alternating_diagonal;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn open_ground_matches_the_metric() {
        let g = Grid::new(9, 9).unwrap();
        let mut sc = DiagonalScratch::new();
        let r = reach_diagonal(&g, p(4, 4), 20, true, |_, _| Some(0), |_| true, &mut sc);
        for q in g.positions() {
            assert_eq!(r.cost_to(q), Some(alternating_diagonal(p(4, 4), q)), "{q}");
        }
    }

    #[test]
    fn the_second_diagonal_costs_two() {
        let g = Grid::new(5, 5).unwrap();
        let mut sc = DiagonalScratch::new();
        let r = reach_diagonal(&g, p(0, 0), 3, true, |_, _| Some(0), |_| true, &mut sc);
        assert_eq!(r.cost_to(p(1, 1)), Some(1));
        assert_eq!(r.cost_to(p(2, 2)), Some(3));
        assert_eq!(r.cost_to(p(3, 3)), None);
        assert_eq!(r.path_to(p(2, 2)), Some(vec![p(1, 1), p(2, 2)]));
    }

    #[test]
    fn walls_force_detours_and_costs_add() {
        let g = Grid::parse_rows(&[". x .", ". x .", ". . ."]).unwrap();
        let mut sc = DiagonalScratch::new();
        // From the top-left (0,2) to the top-right (2,2) around the wall: down two, across
        // diagonally twice... the cheapest is (0,1),(1,0),(2,1),(2,2): 1 + 1 + 2 + 1 = 5.
        let r = reach_diagonal(&g, p(0, 2), 10, true, |_, _| Some(0), |_| true, &mut sc);
        assert_eq!(r.cost_to(p(2, 2)), Some(5));
        assert!(r.cost_to(p(1, 2)).is_none());
        let extra = reach_diagonal(
            &g,
            p(0, 2),
            10,
            true,
            |_, to| Some(u32::from(to == p(1, 0))),
            |_| true,
            &mut sc,
        );
        // Entering (1,0) now costs 1 more: every way around the wall passes it.
        assert_eq!(extra.cost_to(p(1, 0)), Some(3));
        assert_eq!(extra.cost_to(p(2, 2)), Some(6));
    }

    #[test]
    fn without_alternation_every_diagonal_costs_one() {
        let g = Grid::new(9, 9).unwrap();
        let mut sc = DiagonalScratch::new();
        let r = reach_diagonal(&g, p(0, 0), 20, false, |_, _| Some(0), |_| true, &mut sc);
        assert_eq!(r.cost_to(p(4, 4)), Some(4));
        assert_eq!(r.cost_to(p(2, 7)), Some(7));
    }

    #[test]
    fn squares_that_cannot_be_stopped_on_are_passed_through() {
        let g = Grid::new(3, 1).unwrap();
        let mut sc = DiagonalScratch::new();
        let r = reach_diagonal(&g, p(0, 0), 2, true, |_, _| Some(0), |q| q != p(1, 0), &mut sc);
        let d: Vec<_> = r.destinations().collect();
        assert_eq!(d, vec![(p(2, 0), 2)]);
        assert!(!r.can_end_on(p(1, 0)));
        assert!(r.can_end_on(p(0, 0)));
    }
}
