//! The search of costs: one list of nodes per cost, for budgets and maps of the sizes Thrum plays
//! (every step costs at least 1, THR-R51, so a cost's nodes are final once every cheaper one is
//! expanded), its per-thread memory, and [`LevelReach`], the same search listed a cost at a time.
//!
//! It is apart from the contexts' searches because the AI keeps its memory ([`LevelMemory`])
//! between decisions while the checks borrow the thread's ([`COSTS`]), a pure memory pool that
//! holds no result.

use super::*;

thread_local! {
    /// A pure memory pool for the searches of costs of checks and listings
    /// ([`MoveCtx::path_by_cost`], [`MoveCtx::destinations_by_cost`], the moves listed with
    /// their paths): each search resets it and reads only its own costs; nothing is kept for a
    /// later one. Allocating it per search instead was measured to cost instructions on every
    /// shipped example.
    pub(super) static COSTS: std::cell::RefCell<CostSearch> = std::cell::RefCell::new(CostSearch::default());
}

/// Maps of more squares than this find a path by `fray_space`'s path search (which touches
/// only the squares it reaches) rather than [`MoveCtx::path_by_cost`] (which resets a cost per
/// square of the map each time).
pub(super) const COST_PATH_MAX_SQUARES: usize = 4096;

/// Budgets above this are searched with `fray_space`'s reach search instead of
/// [`MoveCtx::destinations_by_cost`], which keeps one list per cost.
pub(super) const COSTS_MAX_BUDGET: u32 = 4096;

/// The memory of [`MoveCtx::destinations_by_cost`] and [`LevelReach`]: each node's cost so far,
/// and the nodes to look at per cost.
#[derive(Default)]
pub(super) struct CostSearch {
    pub(super) dist: Vec<u32>,
    pub(super) lists: Vec<Vec<u32>>,
    /// [`LevelReach`]: the squares of the level being listed, one bit per square (so they come
    /// out in grid order, each once).
    pub(super) level: Vec<u64>,
    /// [`MoveCtx::move_answers`]: each node's predecessor on its path (`u32::MAX`: none).
    pub(super) prev: Vec<u32>,
}

impl CostSearch {
    /// The least cost within `budget` of each of `nodes` nodes from `start` (left in `dist`,
    /// `u32::MAX` where out of reach), where `expand(node, frontier)` calls
    /// [`Frontier::reach`] for each node one step away, with what that step costs. One list of
    /// nodes per cost: a node is listed again only at a strictly lower cost, and passed over
    /// where its cost has dropped since it was listed.
    pub(super) fn run(
        &mut self,
        nodes: usize,
        start: usize,
        budget: u32,
        mut expand: impl FnMut(usize, &mut Frontier<'_>),
    ) {
        self.start(nodes, start, budget);
        for cost in 0..=budget {
            self.expand_level(cost, budget, &mut expand);
        }
    }

    /// [`CostSearch::run`], keeping each node's predecessor on its path in `prev` (`u32::MAX`
    /// for the start and the nodes out of reach): the node of least (cost, node) among those a
    /// step before it whose cost plus the step's price is its own, as
    /// [`MoveCtx::predecessor`] and [`MoveCtx::predecessor_weave`] find it.
    pub(super) fn run_keeping_paths(
        &mut self,
        nodes: usize,
        start: usize,
        budget: u32,
        mut expand: impl FnMut(usize, &mut KeepingFrontier<'_>),
    ) {
        self.start(nodes, start, budget);
        self.prev.clear();
        self.prev.resize(nodes, u32::MAX);
        for cost in 0..=budget {
            while let Some(node) = self.lists[cost as usize].pop() {
                if self.dist[node as usize] != cost {
                    continue;
                }
                let mut frontier = KeepingFrontier {
                    dist: &mut self.dist,
                    lists: &mut self.lists,
                    prev: &mut self.prev,
                    node,
                    cost,
                    budget,
                };
                expand(node as usize, &mut frontier);
            }
        }
    }

    /// Begins a search of `nodes` nodes from `start` within `budget` (see [`CostSearch::run`]).
    pub(super) fn start(&mut self, nodes: usize, start: usize, budget: u32) {
        self.dist.clear();
        self.dist.resize(nodes, u32::MAX);
        if self.lists.len() <= budget as usize {
            self.lists.resize_with(budget as usize + 1, Vec::new);
        }
        for l in &mut self.lists[..=budget as usize] {
            l.clear();
        }
        self.dist[start] = 0;
        self.lists[0].push(start as u32);
    }

    /// Expands the nodes whose least cost is `cost`, once every lower cost is expanded. Then
    /// the nodes at `cost + 1` are settled: every step costs at least 1, so no later expansion
    /// lowers them.
    #[inline(always)]
    pub(super) fn expand_level(&mut self, cost: u32, budget: u32, expand: &mut impl FnMut(usize, &mut Frontier<'_>)) {
        while let Some(node) = self.lists[cost as usize].pop() {
            let node = node as usize;
            if self.dist[node] != cost {
                continue;
            }
            let mut frontier = Frontier {
                dist: &mut self.dist,
                lists: &mut self.lists,
                cost,
                budget,
            };
            expand(node, &mut frontier);
        }
    }
}

/// The memory of a [`LevelReach`] search, kept by whoever runs them (the AI, between its
/// decisions), so a search allocates nothing once its memory has grown.
#[derive(Default)]
pub struct LevelMemory(CostSearch);

/// The squares the current character may `move` to, with their costs, found one cost at a time:
/// the search of [`MoveCtx::destinations`] (every step costs at least 1, so once every cost
/// below `c` is expanded the squares of cost `c` are settled), for the AI, which often needs
/// only the cheapest few. Each [`LevelReach::next_level`] lists the squares of the next cost in
/// grid order, so the levels together are [`reachable`]'s squares ordered by cost, then grid
/// order. `None` from [`LevelReach::new`] where [`reachable`] has to be asked instead (no
/// square, or a budget beyond the search by costs).
pub struct LevelReach<'a> {
    pub(super) ctx: MoveCtx<'a>,
    pub(super) origin: usize,
    pub(super) budget: u32,
    /// The cost whose squares the next call lists.
    pub(super) next: u32,
    pub(super) search: CostSearch,
    /// Whether nodes are the Weaver's (square, exemption used) pairs.
    pub(super) weave: bool,
}

impl<'a> LevelReach<'a> {
    /// The search for the character whose turn it is, with its movement left, in `memory`
    /// (taken until [`LevelReach::into_memory`] gives it back).
    pub fn new(s: &'a State, who: Cid, memory: &mut LevelMemory) -> Option<LevelReach<'a>> {
        let from = s.ch(who).pos?;
        let budget = movement_left(s).max(0) as u32;
        if budget > COSTS_MAX_BUDGET {
            return None;
        }
        let map = &s.setup.map;
        let origin = map.index(from)?;
        let ctx = MoveCtx::new(s, who);
        let weave = ctx.ex == Exemption::First;
        let mut search = std::mem::take(&mut memory.0);
        let nodes = if weave { 2 * map.len() } else { map.len() };
        let start = if weave { 2 * origin } else { origin };
        search.start(nodes, start, budget);
        Some(LevelReach {
            ctx,
            origin,
            budget,
            next: 1,
            search,
            weave,
        })
    }

    /// The search's memory, for the next one.
    pub fn into_memory(mut self) -> LevelMemory {
        LevelMemory(std::mem::take(&mut self.search))
    }

    /// The plan of the `move` to `to`, one of the squares listed so far: the path and cost
    /// [`check`] finds for it, read off this search's costs, which are final up to the last
    /// cost listed. Walking back from `to`, each square's predecessor is, among its neighbours
    /// whose cost plus the step's price equals its own, the one of least (cost, grid index),
    /// which is the one the path search settles first and keeps (it replaces a predecessor
    /// only for a strictly cheaper route); for a Weaver whose exemption is unused, the same
    /// over the two-layer search ([`MoveCtx::walk_back_weave`]) from the square's cheaper
    /// node, the one where the exemption is still unused on a tie, as `weave_search` picks it.
    /// `None` for a square not listed yet.
    pub fn move_plan(&self, to: Pos) -> Option<Plan> {
        let ctx = &self.ctx;
        let goal = ctx.s.setup.map.index(to)?;
        let dist = &self.search.dist;
        if goal == self.origin || !ctx.can_stop_at(goal) {
            return None;
        }
        let (path, cost) = if self.weave {
            let cost = dist[2 * goal].min(dist[2 * goal + 1]);
            if cost >= self.next {
                return None;
            }
            // Both nodes' costs up to the last level listed are final, so a node at the
            // square's cost is its cheaper one.
            let node = if dist[2 * goal] == cost { 2 * goal } else { 2 * goal + 1 };
            (ctx.walk_back_weave(dist, self.origin, node)?, cost)
        } else {
            let cost = dist[goal];
            if cost >= self.next {
                return None;
            }
            (ctx.walk_back(dist, self.origin, goal)?, cost)
        };
        Some(Plan::Move { path, cost })
    }

    /// Appends the squares of the next cost to `out`, in grid order (there may be none);
    /// `false` once every cost within the budget has been listed.
    pub fn next_level(&mut self, out: &mut Vec<(Pos, u32)>) -> bool {
        let level = self.next;
        if level > self.budget {
            return false;
        }
        self.next += 1;
        let ctx = &self.ctx;
        if self.weave {
            self.search
                .expand_level(level - 1, self.budget, &mut |node, f| ctx.expand_weave(node, f));
        } else {
            self.search
                .expand_level(level - 1, self.budget, &mut |i, f| ctx.expand(i, f));
        }
        let CostSearch {
            dist,
            lists,
            level: buf,
            ..
        } = &mut self.search;
        let map = &ctx.s.setup.map;
        buf.clear();
        buf.resize(map.len().div_ceil(64), 0);
        for &node in &lists[level as usize] {
            let node = node as usize;
            if dist[node] != level {
                continue;
            }
            // A Weaver's square costs the cheaper of its two nodes: listed at that cost.
            if self.weave && dist[node ^ 1] < level {
                continue;
            }
            let k = if self.weave { node / 2 } else { node };
            buf[k / 64] |= 1 << (k % 64);
        }
        for (w, &word) in buf.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let k = 64 * w + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if k != self.origin && ctx.can_stop_at(k) {
                    out.push((map.pos_of(k), level));
                }
            }
        }
        true
    }
}

/// The search of [`CostSearch::run`] while it expands a node reached at `cost`.
pub(super) struct Frontier<'a> {
    pub(super) dist: &'a mut [u32],
    pub(super) lists: &'a mut [Vec<u32>],
    pub(super) cost: u32,
    pub(super) budget: u32,
}

/// What a search of costs does with a step it finds from the node it expands.
pub(super) trait Reach {
    /// Node `m` is one step away, for `price`.
    fn reach(&mut self, m: usize, price: u32);
}

impl Frontier<'_> {
    /// Node `m` is one step away, for `price`.
    #[inline]
    fn reach(&mut self, m: usize, price: u32) {
        let Some(to) = self.cost.checked_add(price) else { return };
        if to <= self.budget && to < self.dist[m] {
            self.dist[m] = to;
            self.lists[to as usize].push(m as u32);
        }
    }
}

impl Reach for Frontier<'_> {
    #[inline(always)]
    fn reach(&mut self, m: usize, price: u32) {
        Frontier::reach(self, m, price);
    }
}

/// The search of [`CostSearch::run_keeping_paths`] while it expands `node`, reached at `cost`.
pub(super) struct KeepingFrontier<'a> {
    pub(super) dist: &'a mut [u32],
    pub(super) lists: &'a mut [Vec<u32>],
    pub(super) prev: &'a mut [u32],
    pub(super) node: u32,
    pub(super) cost: u32,
    pub(super) budget: u32,
}

impl Reach for KeepingFrontier<'_> {
    /// As [`Frontier::reach`], keeping as `m`'s predecessor the node of least (cost, node)
    /// among those that reach it at its least cost: the first to reach it at that cost (nodes
    /// are expanded cheapest first), or one of the same cost and a lower number.
    #[inline(always)]
    fn reach(&mut self, m: usize, price: u32) {
        let Some(to) = self.cost.checked_add(price) else { return };
        if to > self.budget {
            return;
        }
        let known = self.dist[m];
        if to < known {
            self.dist[m] = to;
            self.prev[m] = self.node;
            self.lists[to as usize].push(m as u32);
        } else if to == known && self.node < self.prev[m] && self.dist[self.prev[m] as usize] == self.cost {
            self.prev[m] = self.node;
        }
    }
}
