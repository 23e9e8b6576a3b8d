//! Pathfinding.
//!
//! [`reach`] and [`cheapest_path`] run Dijkstra's algorithm over the eight
//! neighbours of each square. They know nothing about terrain prices,
//! occupants or rules: the caller supplies the price of every step (`None` = may not enter) and
//! says which squares the mover may end on. A square the mover may not end on
//! can still be passed through, which is how "allies may be passed but not
//! shared" is expressed.
//!
//! Key decisions:
//!
//! * **No allocation per search.** All working memory lives in a
//!   caller-owned [`PathScratch`]. It grows to the grid's size on first use
//!   and is reused afterwards; per-square state is invalidated with a
//!   generation stamp, so starting a search costs nothing proportional to
//!   the map. The priority queue is an indexed binary heap holding each
//!   square at most once, so its size is bounded by the map and it never
//!   needs to grow after the first search either.
//! * **Reproducible tie-breaks.** Game records are replayed, so among paths
//!   of equal cost the result must never depend on anything but the inputs.
//!   Squares are settled in order of (cost, grid index), neighbours are
//!   examined in [`Dir::ALL`] order and a square's recorded predecessor is
//!   replaced only by a strictly cheaper one. The resulting rule is spelled
//!   out on [`reach`].
//! * Costs are `u32` and additions are checked; a step whose total would
//!   overflow is treated as beyond any budget.

use crate::grid::Grid;
use crate::pos::{Dir, Pos};

/// Marks "no square" in the predecessor array.
const NO_SQUARE: u32 = u32::MAX;
/// Flag: the square's cost is final.
const SETTLED: u8 = 1;
/// Flag: the mover may end its move on the square.
const STOPPABLE: u8 = 2;
/// Flag: the square is in the heap (`heap_slot` is valid).
const QUEUED: u8 = 4;

/// Reusable working memory for [`reach`] and [`cheapest_path`].
///
/// Create one per simulation thread and pass it to every search. It sizes
/// itself to the grid on first use; later searches on a grid with no more
/// squares do not allocate. A [`Reach`] borrows it, so the results of one
/// search stay readable until the next search starts.
#[derive(Clone, Debug, Default)]
pub struct PathScratch {
    /// Current search number; per-square data is valid only where
    /// `stamp[i] == generation`.
    generation: u32,
    stamp: Vec<u32>,
    /// Best known cost to each square.
    dist: Vec<u32>,
    /// Predecessor on the best known path, or [`NO_SQUARE`].
    prev: Vec<u32>,
    /// [`SETTLED`], [`STOPPABLE`] and [`QUEUED`] bits.
    flags: Vec<u8>,
    /// Position of each queued square within `heap`.
    heap_slot: Vec<u32>,
    /// Indexed binary min-heap of square indices keyed by `(dist, index)`, for searches whose
    /// budget is too large for `buckets`.
    heap: Vec<u32>,
    /// The queue of searches with a small budget: the same `(dist, index)` order.
    buckets: crate::bucket::BucketQueue,
    /// Whether the current search queues in `buckets` rather than `heap`.
    use_buckets: bool,
    /// Squares settled in the last search, sorted by index at the end.
    settled: Vec<u32>,
    /// Dimensions of the grid searched last.
    width: u16,
    height: u16,
    /// Index of the last search's start, if it was on the grid.
    start: Option<u32>,
}

impl PathScratch {
    /// Empty scratch space; it grows on first use.
    #[must_use]
    pub fn new() -> PathScratch {
        PathScratch::default()
    }

    /// Prepares for a new search on `grid`: sizes the arrays and invalidates
    /// all per-square data in constant time.
    fn begin(&mut self, grid: &Grid) {
        let len = grid.len();
        if self.stamp.len() != len {
            self.stamp.resize(len, 0);
            self.dist.resize(len, u32::MAX);
            self.prev.resize(len, NO_SQUARE);
            self.flags.resize(len, 0);
            self.heap_slot.resize(len, 0);
        }
        self.heap.clear();
        self.heap.reserve(len);
        self.settled.clear();
        self.settled.reserve(len);
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After four billion searches the stamps could collide with old
            // ones; clear them all once and start counting again.
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.width = grid.width();
        self.height = grid.height();
        self.start = None;
    }

    /// Whether square `i` has been written in the current search.
    #[inline]
    fn is_current(&self, i: usize) -> bool {
        self.stamp[i] == self.generation
    }

    /// Makes square `i`'s data current, resetting it if it is stale.
    #[inline]
    fn touch(&mut self, i: usize) {
        if !self.is_current(i) {
            self.stamp[i] = self.generation;
            self.dist[i] = u32::MAX;
            self.prev[i] = NO_SQUARE;
            self.flags[i] = 0;
        }
    }

    /// Flags of square `i` in the current search (0 if untouched).
    #[inline]
    fn flags_of(&self, i: usize) -> u8 {
        if self.is_current(i) { self.flags[i] } else { 0 }
    }

    /// Heap order: cheaper first, then lower grid index.
    #[inline]
    fn before(&self, a: u32, b: u32) -> bool {
        (self.dist[a as usize], a) < (self.dist[b as usize], b)
    }

    #[inline]
    fn place(&mut self, slot: usize, square: u32) {
        self.heap[slot] = square;
        self.heap_slot[square as usize] = slot as u32;
    }

    fn sift_up(&mut self, mut slot: usize) {
        let square = self.heap[slot];
        while slot > 0 {
            let parent = (slot - 1) / 2;
            let above = self.heap[parent];
            if !self.before(square, above) {
                break;
            }
            self.place(slot, above);
            slot = parent;
        }
        self.place(slot, square);
    }

    fn sift_down(&mut self, mut slot: usize) {
        let square = self.heap[slot];
        let len = self.heap.len();
        loop {
            let left = 2 * slot + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let mut child = left;
            if right < len && self.before(self.heap[right], self.heap[left]) {
                child = right;
            }
            let below = self.heap[child];
            if !self.before(below, square) {
                break;
            }
            self.place(slot, below);
            slot = child;
        }
        self.place(slot, square);
    }

    /// Queues square `i` at its cost `dist[i]`, or moves it there from `old` (its previous cost)
    /// if it is already queued.
    #[inline]
    fn requeue(&mut self, i: usize, old: u32) {
        if !self.use_buckets {
            return self.queue(i);
        }
        if self.flags[i] & QUEUED != 0 {
            self.buckets.remove(i, old);
        } else {
            self.flags[i] |= QUEUED;
        }
        self.buckets.push(i, self.dist[i]);
    }

    /// Removes and returns the queued square with the lowest (cost, index).
    #[inline]
    fn pop_next(&mut self) -> Option<usize> {
        if !self.use_buckets {
            return self.pop();
        }
        let (i, _) = self.buckets.pop()?;
        self.flags[i] &= !QUEUED;
        Some(i)
    }

    /// Adds square `i` to the heap or, if it is already queued, moves it up
    /// after its cost dropped.
    fn queue(&mut self, i: usize) {
        if self.flags[i] & QUEUED != 0 {
            self.sift_up(self.heap_slot[i] as usize);
        } else {
            self.flags[i] |= QUEUED;
            let slot = self.heap.len();
            self.heap.push(i as u32);
            self.sift_up(slot);
        }
    }

    /// Removes and returns the queued square with the lowest (cost, index).
    fn pop(&mut self) -> Option<usize> {
        let top = *self.heap.first()?;
        let last = self.heap.pop()?;
        if !self.heap.is_empty() {
            self.place(0, last);
            self.sift_down(0);
        }
        self.flags[top as usize] &= !QUEUED;
        Some(top as usize)
    }

    /// Dijkstra from `start` over squares named by grid index: `neighbour(i, d)` is the square
    /// one step from `i` in direction `Dir::ALL[d]` (if on the grid), `step(i, d, j)` prices
    /// that step, `can_stop(j)` says whether a move may end on `j`. Stops early once `goal` is
    /// settled, if given. With `prune` (`Some(m)`, only with a goal, every step costing at least
    /// `m`), a square is not queued when its cost plus `m` per step of open ground to the goal
    /// is over the budget: no path to the goal within the budget passes through it, so every
    /// square such a path passes through, and every square it could have been reached from at
    /// its cost, is settled as without pruning, in the same order (see [`cheapest_path_pruned`]).
    #[allow(clippy::too_many_arguments)]
    fn search_indexed(
        &mut self,
        grid: &Grid,
        start: Pos,
        budget: u32,
        goal: Option<usize>,
        prune: Option<u32>,
        mut neighbour: impl FnMut(usize, usize) -> Option<usize>,
        mut step: impl FnMut(usize, usize, usize) -> Option<u32>,
        mut can_stop: impl FnMut(usize) -> bool,
    ) {
        self.begin(grid);
        let Some(origin) = grid.index(start) else {
            return;
        };
        // Grid sides are at most 256, so every index fits in u32.
        self.start = Some(origin as u32);
        // The goal's square and the least price of a step, when squares too far from the goal
        // are left out.
        let prune = goal.zip(prune).map(|(g, m)| (grid.pos_of(g), m));
        self.use_buckets = crate::bucket::BucketQueue::fits(grid.len(), budget);
        if self.use_buckets {
            self.buckets.reset(grid.len(), budget);
        }
        self.touch(origin);
        self.dist[origin] = 0;
        self.requeue(origin, u32::MAX);
        while let Some(i) = self.pop_next() {
            self.flags[i] |= SETTLED;
            // The start is always a valid place to be; do not ask about it.
            if i == origin || can_stop(i) {
                self.flags[i] |= STOPPABLE;
            }
            self.settled.push(i as u32);
            if goal == Some(i) {
                break;
            }
            let cost_here = self.dist[i];
            for d in 0..Dir::ALL.len() {
                let Some(j) = neighbour(i, d) else {
                    continue;
                };
                if self.flags_of(j) & SETTLED != 0 {
                    continue;
                }
                let Some(cost) = step(i, d, j).and_then(|c| cost_here.checked_add(c)) else {
                    continue;
                };
                if cost > budget {
                    continue;
                }
                if let Some((g, m)) = prune {
                    let open = u32::from(crate::metric::chebyshev(grid.pos_of(j), g)).saturating_mul(m);
                    debug_assert!(cost - cost_here >= m, "a step cheaper than the promised least price");
                    if cost.saturating_add(open) > budget {
                        continue;
                    }
                }
                // A square seen for the first time takes any in-budget cost
                // (even u32::MAX); after that only a strictly cheaper route
                // replaces the predecessor.
                let first_seen = !self.is_current(j);
                self.touch(j);
                if first_seen || cost < self.dist[j] {
                    let old = self.dist[j];
                    self.dist[j] = cost;
                    self.prev[j] = i as u32;
                    self.requeue(j, old);
                }
            }
        }
        // A search stopped at its goal leaves squares queued.
        self.buckets.clear();
        // Only a full search lists its destinations (in grid order); a search for one goal is
        // read by its path alone.
        if goal.is_none() {
            self.settled.sort_unstable();
        }
    }

    /// [`PathScratch::search_indexed`] with squares named by position.
    fn search(
        &mut self,
        grid: &Grid,
        start: Pos,
        budget: u32,
        goal: Option<usize>,
        mut step: impl FnMut(Pos, Pos) -> Option<u32>,
        mut can_stop: impl FnMut(Pos) -> bool,
    ) {
        let neighbour = |i: usize, d: usize| grid.index(grid.pos_of(i).checked_step(Dir::ALL[d])?);
        self.search_indexed(
            grid,
            start,
            budget,
            goal,
            None,
            neighbour,
            |i, _, j| step(grid.pos_of(i), grid.pos_of(j)),
            |j| can_stop(grid.pos_of(j)),
        );
    }

    /// The dense index of `p` on the grid searched last.
    #[inline]
    fn index(&self, p: Pos) -> Option<usize> {
        if crate::grid::within(p, self.width, self.height) {
            let x = usize::from(p.x.unsigned_abs());
            let y = usize::from(p.y.unsigned_abs());
            Some(y * usize::from(self.width) + x)
        } else {
            None
        }
    }

    /// The square with dense index `i` on the grid searched last.
    #[inline]
    fn pos(&self, i: usize) -> Pos {
        let width = usize::from(self.width.max(1));
        let coordinate = |v: usize| i16::try_from(v).unwrap_or(i16::MAX);
        Pos::new(coordinate(i % width), coordinate(i / width))
    }
}

/// The result of [`reach`]: every square the mover can end on within the
/// budget, with its cost and a cheapest path to it.
///
/// It borrows the [`PathScratch`] used for the search, so reading it does
/// not allocate (except [`Reach::path_to`], which returns a new `Vec`).
#[derive(Clone, Copy, Debug)]
pub struct Reach<'a> {
    scratch: &'a PathScratch,
}

impl Reach<'_> {
    /// The square the search started from, or `None` if it was off the grid
    /// (in which case nothing is reachable).
    #[must_use]
    pub fn start(&self) -> Option<Pos> {
        self.scratch.start.map(|s| self.scratch.pos(s as usize))
    }

    /// The flags of `p` if it is a reachable square the mover may end on.
    fn stoppable_index(&self, p: Pos) -> Option<usize> {
        let i = self.scratch.index(p)?;
        let wanted = SETTLED | STOPPABLE;
        (self.scratch.flags_of(i) & wanted == wanted).then_some(i)
    }

    /// The cheapest cost of ending the move on `p`.
    ///
    /// `None` if `p` is off the grid, unreachable within the budget, or a
    /// square the mover may not end on. The start is always `Some(0)`.
    #[must_use]
    pub fn cost_to(&self, p: Pos) -> Option<u32> {
        self.stoppable_index(p).map(|i| self.scratch.dist[i])
    }

    /// A cheapest path to `p`: the squares after the start, up to and
    /// including `p` (empty for the start itself). `None` exactly when
    /// [`Reach::cost_to`] is `None`. Ties are broken as described on
    /// [`reach`].
    #[must_use]
    pub fn path_to(&self, p: Pos) -> Option<Vec<Pos>> {
        let mut path = Vec::new();
        self.path_into(p, &mut path)?;
        Some(path)
    }

    /// Like [`Reach::path_to`] but writes the path into `out` (cleared
    /// first), so a caller can reuse one buffer. Returns the path's cost, or
    /// `None` (leaving `out` empty) when `p` cannot be the end of the move.
    pub fn path_into(&self, p: Pos, out: &mut Vec<Pos>) -> Option<u32> {
        out.clear();
        let end = self.stoppable_index(p)?;
        let scratch = self.scratch;
        let mut i = end;
        // Predecessors always point at squares settled earlier, so the chain
        // ends at the start; the bound only guards against a broken invariant.
        for _ in 0..scratch.stamp.len() {
            if Some(i as u32) == scratch.start {
                out.reverse();
                return Some(scratch.dist[end]);
            }
            out.push(scratch.pos(i));
            let prev = scratch.prev[i];
            if prev == NO_SQUARE {
                break;
            }
            i = prev as usize;
        }
        out.clear();
        None
    }

    /// Every square other than the start that the mover can end on, with
    /// its cost, in grid order (`y` ascending, then `x` ascending).
    pub fn destinations(&self) -> impl Iterator<Item = (Pos, u32)> + '_ {
        let scratch = self.scratch;
        scratch
            .settled
            .iter()
            .map(|&i| i as usize)
            .filter(move |&i| Some(i as u32) != scratch.start && scratch.flags[i] & STOPPABLE != 0)
            .map(move |i| (scratch.pos(i), scratch.dist[i]))
    }
}

/// Finds every square reachable from `start` for at most `budget`.
///
/// `step(from, to)` prices one step between adjacent on-grid squares (`None`
/// = `to` cannot be entered from `from`); `can_stop(p)` says whether the
/// mover may end its move on `p`. Squares where it may not stop can still be
/// passed through. The start is reachable at cost 0 and is never passed to
/// `can_stop`. If `start` is off the grid nothing is reachable.
///
/// Both callbacks are called in a fixed order for given inputs: squares are
/// settled in order of (cost, grid index), `can_stop` once per settled
/// square and `step` for each of its neighbours in [`Dir::ALL`] order.
///
/// # Tie-break rule
///
/// When several paths to a square cost the same, the recorded one is fixed
/// by the inputs alone: each square's predecessor is, among the neighbours
/// through which it is reached at its final cost, the one settled first,
/// that is the one with the lowest cost so far and, among those, the lowest
/// grid index (southernmost, then westernmost). Applied back from the end,
/// this yields the whole path. For example, with every step costing 1, the
/// path from `(0,0)` to `(2,1)` is `(1,0), (2,1)`, not `(1,1), (2,1)`.
pub fn reach<'a>(
    grid: &Grid,
    start: Pos,
    budget: u32,
    step: impl FnMut(Pos, Pos) -> Option<u32>,
    can_stop: impl FnMut(Pos) -> bool,
    scratch: &'a mut PathScratch,
) -> Reach<'a> {
    scratch.search(grid, start, budget, None, step, can_stop);
    Reach { scratch }
}

/// The cheapest path from `start` to `goal` costing at most `budget`, and its
/// cost; `None` if there is none or the mover may not end on `goal`.
///
/// The path lists the squares after `start` up to and including `goal` and
/// is the same one [`reach`] would report (same tie-break rule); the search
/// simply stops as soon as `goal` is settled. A `goal` equal to `start` gives
/// an empty path of cost 0.
pub fn cheapest_path(
    grid: &Grid,
    start: Pos,
    goal: Pos,
    budget: u32,
    step: impl FnMut(Pos, Pos) -> Option<u32>,
    can_stop: impl FnMut(Pos) -> bool,
    scratch: &mut PathScratch,
) -> Option<(Vec<Pos>, u32)> {
    let goal_index = grid.index(goal)?;
    scratch.search(grid, start, budget, Some(goal_index), step, can_stop);
    let found = Reach { scratch };
    let mut path = Vec::new();
    let cost = found.path_into(goal, &mut path)?;
    Some((path, cost))
}

/// The price of every step of a grid, worked out once: for each square and direction (in
/// [`Dir::ALL`] order) the neighbour's index and the price the caller's pricing function gave
/// that step. Searches that use it ([`reach_indexed`], [`cheapest_path_indexed`]) look steps up
/// instead of recomputing them. The price type `C` is the ruleset's: a number, or the parts of
/// a price that its rules treat differently.
///
/// It describes the grid it was built from; build a new one if the grid changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepTable<C> {
    /// `neighbour[8 * i + d]`: the square one step from `i` in direction `d`, or [`NO_SQUARE`].
    neighbour: Vec<u32>,
    /// `cost[8 * i + d]`: the price of that step (`None`: off the grid, or not priced).
    cost: Vec<Option<C>>,
}

impl<C> Default for StepTable<C> {
    fn default() -> StepTable<C> {
        StepTable {
            neighbour: Vec::new(),
            cost: Vec::new(),
        }
    }
}

impl<C: Copy> StepTable<C> {
    /// The table of `grid`, with `price(grid, from, to)` giving the price of the step from
    /// `from` to its on-grid neighbour `to` (`None`: that step cannot be taken). `price` is
    /// called once per square and direction, squares in grid order and directions in
    /// [`Dir::ALL`] order.
    #[must_use]
    pub fn new(grid: &Grid, mut price: impl FnMut(&Grid, Pos, Pos) -> Option<C>) -> StepTable<C> {
        let n = grid.len();
        let mut neighbour = Vec::with_capacity(8 * n);
        let mut cost = Vec::with_capacity(8 * n);
        for i in 0..n {
            let here = grid.pos_of(i);
            for d in Dir::ALL {
                let next = here.checked_step(d).and_then(|q| grid.index(q).map(|j| (q, j)));
                neighbour.push(next.map_or(NO_SQUARE, |(_, j)| j as u32));
                cost.push(next.and_then(|(q, _)| price(grid, here, q)));
            }
        }
        StepTable { neighbour, cost }
    }

    /// The square one step from square `i` in direction `Dir::ALL[d]`.
    #[inline]
    #[must_use]
    pub fn neighbour(&self, i: usize, d: usize) -> Option<usize> {
        match self.neighbour[8 * i + d] {
            NO_SQUARE => None,
            j => Some(j as usize),
        }
    }

    /// The eight squares one step from square `i`, in [`Dir::ALL`] order, as grid indices
    /// (`u32::MAX` where the step leaves the grid): one look-up for a search that tries every
    /// direction.
    #[inline]
    #[must_use]
    pub fn neighbours(&self, i: usize) -> &[u32; 8] {
        let row = &self.neighbour[8 * i..8 * i + 8];
        // The table holds eight entries per square, so the row always has eight.
        <&[u32; 8]>::try_from(row).unwrap_or(&[NO_SQUARE; 8])
    }

    /// The price of the step from square `i` in direction `Dir::ALL[d]`.
    #[inline]
    #[must_use]
    pub fn cost(&self, i: usize, d: usize) -> Option<C> {
        self.cost[8 * i + d]
    }
}

/// [`reach`] with squares named by grid index and the neighbours taken from `table` (built
/// from `grid`): `step(i, d, j)` prices the step from square `i` in direction `Dir::ALL[d]` to
/// square `j`, `can_stop(j)` says whether the move may end on `j`. Same order, same tie-breaks.
pub fn reach_indexed<'a, C: Copy>(
    grid: &Grid,
    table: &StepTable<C>,
    start: Pos,
    budget: u32,
    step: impl FnMut(usize, usize, usize) -> Option<u32>,
    can_stop: impl FnMut(usize) -> bool,
    scratch: &'a mut PathScratch,
) -> Reach<'a> {
    scratch.search_indexed(
        grid,
        start,
        budget,
        None,
        None,
        |i, d| table.neighbour(i, d),
        step,
        can_stop,
    );
    Reach { scratch }
}

/// [`cheapest_path`] with squares named by grid index (see [`reach_indexed`]).
#[allow(clippy::too_many_arguments)]
pub fn cheapest_path_indexed<C: Copy>(
    grid: &Grid,
    table: &StepTable<C>,
    start: Pos,
    goal: Pos,
    budget: u32,
    step: impl FnMut(usize, usize, usize) -> Option<u32>,
    can_stop: impl FnMut(usize) -> bool,
    scratch: &mut PathScratch,
) -> Option<(Vec<Pos>, u32)> {
    path_indexed(grid, table, start, goal, budget, None, step, can_stop, scratch)
}

/// [`cheapest_path_indexed`] for pricings where every step costs at least `min_step`: the same
/// path and cost, found without searching squares from which the goal is out of reach within
/// the budget even over open ground (`min_step` per step, Chebyshev steps). A path through such
/// a square would cost more than the budget, and every square a path within the budget could
/// pass through or come from keeps its cost, predecessor and settling order, so the tie-breaks
/// of [`reach`] hold. Debug builds check the promise on every step taken.
#[allow(clippy::too_many_arguments)]
pub fn cheapest_path_pruned<C: Copy>(
    grid: &Grid,
    table: &StepTable<C>,
    start: Pos,
    goal: Pos,
    budget: u32,
    min_step: u32,
    step: impl FnMut(usize, usize, usize) -> Option<u32>,
    can_stop: impl FnMut(usize) -> bool,
    scratch: &mut PathScratch,
) -> Option<(Vec<Pos>, u32)> {
    path_indexed(
        grid,
        table,
        start,
        goal,
        budget,
        Some(min_step),
        step,
        can_stop,
        scratch,
    )
}

/// The search for one square behind [`cheapest_path_indexed`] and [`cheapest_path_pruned`].
#[allow(clippy::too_many_arguments)]
fn path_indexed<C: Copy>(
    grid: &Grid,
    table: &StepTable<C>,
    start: Pos,
    goal: Pos,
    budget: u32,
    prune: Option<u32>,
    step: impl FnMut(usize, usize, usize) -> Option<u32>,
    can_stop: impl FnMut(usize) -> bool,
    scratch: &mut PathScratch,
) -> Option<(Vec<Pos>, u32)> {
    let goal_index = grid.index(goal)?;
    scratch.search_indexed(
        grid,
        start,
        budget,
        Some(goal_index),
        prune,
        |i, d| table.neighbour(i, d),
        step,
        can_stop,
    );
    let found = Reach { scratch };
    let mut path = Vec::new();
    let cost = found.path_into(goal, &mut path)?;
    Some((path, cost))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    /// A terrain pricing for the tests (a ruleset's own pricing lives in the ruleset): 1 per
    /// step, plus 1 for leaving a difficult square, plus a level for each level of height
    /// change beyond the first; blocked squares cannot be entered.
    fn walk(grid: &Grid) -> impl FnMut(Pos, Pos) -> Option<u32> + '_ {
        move |a, b| {
            let (from, to) = (grid.get(a)?, grid.get(b)?);
            if to.blocked || !crate::metric::is_adjacent(a, b) {
                return None;
            }
            let levels = (i32::from(to.elevation) - i32::from(from.elevation)).unsigned_abs();
            Some(1 + u32::from(from.difficult) + levels.saturating_sub(1))
        }
    }

    #[test]
    fn reach_on_open_ground_is_chebyshev() {
        let g = Grid::new(7, 7).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(3, 3), 2, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.start(), Some(p(3, 3)));
        assert_eq!(r.cost_to(p(3, 3)), Some(0));
        assert_eq!(r.cost_to(p(4, 4)), Some(1));
        assert_eq!(r.cost_to(p(5, 1)), Some(2));
        assert_eq!(r.cost_to(p(6, 3)), None);
        assert_eq!(r.cost_to(p(-1, 3)), None);
        let all: Vec<(Pos, u32)> = r.destinations().collect();
        assert_eq!(all.len(), 24);
        assert_eq!(all.first(), Some(&(p(1, 1), 2)));
        assert_eq!(all.last(), Some(&(p(5, 5), 2)));
        assert!(all.windows(2).all(|w| g.index(w[0].0) < g.index(w[1].0)));
        assert_eq!(r.path_to(p(3, 3)), Some(vec![]));
    }

    #[test]
    fn terrain_costs_shape_the_reach() {
        // A wall with a gap, a difficult square and a cliff.
        let g = Grid::parse_rows(&[". . . . .", "x x . x x", ". d . . 3", ". . . . ."]).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 0), 10, walk(&g), |_| true, &mut scratch);
        // Leaving the difficult square (1,1) costs one extra.
        assert_eq!(r.cost_to(p(1, 1)), Some(1));
        // (2,2) can only be reached through (1,1), which is difficult.
        assert_eq!(r.cost_to(p(2, 2)), Some(3));
        // Climbing three levels costs 1 + 2.
        assert_eq!(r.cost_to(p(4, 1)), Some(3 + 3));
        assert_eq!(r.cost_to(p(3, 0)), Some(3));
        // The wall squares are never entered.
        assert_eq!(r.cost_to(p(0, 2)), None);
        // Through the gap at (2,2).
        assert_eq!(r.cost_to(p(0, 3)), Some(5));
        assert_eq!(r.path_to(p(0, 3)), Some(vec![p(1, 1), p(2, 2), p(1, 3), p(0, 3)]));
    }

    #[test]
    fn squares_that_cannot_be_ended_on_are_passed_through() {
        // A corridor one square wide; an ally stands at (1,0).
        let g = Grid::parse_rows(&["x x x x", ". . . .", "x x x x"]).unwrap();
        let ally = p(1, 1);
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 1), 3, walk(&g), |q| q != ally, &mut scratch);
        assert_eq!(r.cost_to(ally), None);
        assert_eq!(r.path_to(ally), None);
        assert_eq!(r.cost_to(p(2, 1)), Some(2));
        assert_eq!(r.path_to(p(3, 1)), Some(vec![ally, p(2, 1), p(3, 1)]));
        let ends: Vec<Pos> = r.destinations().map(|(q, _)| q).collect();
        assert_eq!(ends, vec![p(2, 1), p(3, 1)]);

        // An enemy blocks entry altogether.
        let enemy = p(1, 1);
        let mut blocked = walk(&g);
        let r = reach(
            &g,
            p(0, 1),
            3,
            |a, b| if b == enemy { None } else { blocked(a, b) },
            |_| true,
            &mut scratch,
        );
        assert_eq!(r.destinations().count(), 0);
        assert_eq!(r.cost_to(p(0, 1)), Some(0));
    }

    #[test]
    fn budget_is_inclusive_and_zero_budget_reaches_only_the_start() {
        let g = Grid::new(5, 1).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 0), 3, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.cost_to(p(3, 0)), Some(3));
        assert_eq!(r.cost_to(p(4, 0)), None);
        let r = reach(&g, p(0, 0), 0, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.destinations().count(), 0);
        assert_eq!(r.cost_to(p(0, 0)), Some(0));
    }

    #[test]
    fn start_off_the_grid_reaches_nothing() {
        let g = Grid::new(3, 3).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(5, 5), 10, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.start(), None);
        assert_eq!(r.cost_to(p(5, 5)), None);
        assert_eq!(r.destinations().count(), 0);
        assert_eq!(
            cheapest_path(&g, p(-1, 0), p(1, 1), 10, walk(&g), |_| true, &mut scratch),
            None
        );
    }

    #[test]
    fn equal_cost_ties_prefer_the_earliest_settled_predecessor() {
        let g = Grid::new(5, 5).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 0), 10, walk(&g), |_| true, &mut scratch);
        // (1,0) and (1,1) both reach (2,1) at cost 2; (1,0) has the lower
        // index, so it is settled first and kept.
        assert_eq!(r.path_to(p(2, 1)), Some(vec![p(1, 0), p(2, 1)]));
        // Going straight north: (0,1) has a lower index than (1,1), so the
        // path hugs the western edge.
        assert_eq!(r.path_to(p(1, 2)), Some(vec![p(0, 1), p(1, 2)]));
        // From the north-east corner going south-west, the southern,
        // western neighbours win.
        let r = reach(&g, p(4, 4), 10, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.path_to(p(2, 3)), Some(vec![p(3, 3), p(2, 3)]));
        assert_eq!(r.path_to(p(4, 2)), Some(vec![p(3, 3), p(4, 2)]));
    }

    #[test]
    fn a_cheaper_route_found_later_replaces_the_predecessor() {
        // Going east along y = 0 costs 5 per step except the detour.
        let g = Grid::new(3, 2).unwrap();
        let mut scratch = PathScratch::new();
        let cost = |a: Pos, b: Pos| Some(if a.y == 0 && b.y == 0 { 5 } else { 1 });
        let r = reach(&g, p(0, 0), 20, cost, |_| true, &mut scratch);
        // (1,0) is first reached straight from the start for 5, then for 2
        // by way of (0,1), which replaces it.
        assert_eq!(r.cost_to(p(1, 0)), Some(2));
        assert_eq!(r.path_to(p(1, 0)), Some(vec![p(0, 1), p(1, 0)]));
        assert_eq!(r.cost_to(p(2, 0)), Some(2));
        assert_eq!(r.path_to(p(2, 0)), Some(vec![p(1, 1), p(2, 0)]));
    }

    #[test]
    fn zero_cost_steps_are_handled() {
        let g = Grid::new(4, 1).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 0), 0, |_, _| Some(0), |_| true, &mut scratch);
        assert_eq!(r.path_to(p(3, 0)), Some(vec![p(1, 0), p(2, 0), p(3, 0)]));
        assert_eq!(r.cost_to(p(3, 0)), Some(0));
    }

    #[test]
    fn overflowing_costs_are_out_of_budget() {
        let g = Grid::new(3, 1).unwrap();
        let mut scratch = PathScratch::new();
        let r = reach(&g, p(0, 0), u32::MAX, |_, _| Some(u32::MAX), |_| true, &mut scratch);
        assert_eq!(r.cost_to(p(1, 0)), Some(u32::MAX));
        assert_eq!(r.cost_to(p(2, 0)), None);
    }

    #[test]
    fn cheapest_path_agrees_with_reach() {
        let g = Grid::parse_rows(&[". . 2 . .", ". d 2 . .", ". d x . .", ". . . . ."]).unwrap();
        let mut scratch = PathScratch::new();
        let goal = p(4, 3);
        let r = reach(&g, p(0, 3), 20, walk(&g), |_| true, &mut scratch);
        let expected = (r.path_to(goal).unwrap(), r.cost_to(goal).unwrap());
        let found = cheapest_path(&g, p(0, 3), goal, 20, walk(&g), |_| true, &mut scratch);
        assert_eq!(found, Some(expected));
        assert_eq!(
            cheapest_path(&g, p(0, 3), p(0, 3), 0, walk(&g), |_| true, &mut scratch),
            Some((vec![], 0))
        );
        assert_eq!(
            cheapest_path(&g, p(0, 3), goal, 3, walk(&g), |_| true, &mut scratch),
            None
        );
        assert_eq!(
            cheapest_path(&g, p(0, 3), goal, 20, walk(&g), |q| q != goal, &mut scratch),
            None
        );
        assert_eq!(
            cheapest_path(&g, p(0, 3), p(9, 9), 20, walk(&g), |_| true, &mut scratch),
            None
        );
    }

    #[test]
    fn results_are_identical_across_scratch_reuse() {
        let g = Grid::parse_rows(&["1 . . d . .", ". 2 . d 1 .", ". . x x . .", "d . . . . -1"]).unwrap();
        let run = |scratch: &mut PathScratch| {
            let r = reach(&g, p(0, 0), 9, walk(&g), |q| q.x != 2, scratch);
            r.destinations().map(|(q, c)| (q, c, r.path_to(q))).collect::<Vec<_>>()
        };
        let mut shared = PathScratch::new();
        let first = run(&mut shared);
        // Dirty the scratch with a search on a different grid first.
        let other = Grid::new(9, 2).unwrap();
        let _ = reach(&other, p(8, 1), 4, walk(&other), |_| true, &mut shared);
        assert_eq!(run(&mut shared), first);
        assert_eq!(run(&mut PathScratch::new()), first);
        assert!(!first.is_empty());
    }

    #[test]
    fn scratch_does_not_reallocate_on_repeat_searches() {
        let g = Grid::new(16, 16).unwrap();
        let mut scratch = PathScratch::new();
        let _ = reach(&g, p(0, 0), 100, walk(&g), |_| true, &mut scratch);
        let fingerprint = |s: &PathScratch| {
            [
                (s.stamp.as_ptr() as usize, s.stamp.capacity()),
                (s.dist.as_ptr() as usize, s.dist.capacity()),
                (s.prev.as_ptr() as usize, s.prev.capacity()),
                (s.flags.as_ptr() as usize, s.flags.capacity()),
                (s.heap_slot.as_ptr() as usize, s.heap_slot.capacity()),
                (s.heap.as_ptr() as usize, s.heap.capacity()),
                (s.settled.as_ptr() as usize, s.settled.capacity()),
            ]
        };
        let before = fingerprint(&scratch);
        for start in [p(15, 15), p(7, 3), p(0, 9)] {
            let r = reach(&g, start, 100, walk(&g), |q| q.x % 2 == 0, &mut scratch);
            assert!(r.destinations().count() > 100);
            assert_eq!(fingerprint(&scratch), before);
        }
    }

    #[test]
    fn generation_wrap_clears_stale_data() {
        let g = Grid::new(3, 1).unwrap();
        let mut scratch = PathScratch::new();
        let _ = reach(&g, p(0, 0), 5, walk(&g), |_| true, &mut scratch);
        scratch.generation = u32::MAX;
        let r = reach(&g, p(2, 0), 0, walk(&g), |_| true, &mut scratch);
        assert_eq!(r.cost_to(p(0, 0)), None);
        assert_eq!(r.cost_to(p(2, 0)), Some(0));
        assert_eq!(scratch.generation, 1);
    }
}
