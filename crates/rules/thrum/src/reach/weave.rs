//! The Weaver's two-layer search (THR-R76): while the once-per-turn exemption is unused, a node
//! is a square and whether the exemption is used up, and the first step dearer than 1 costs 1
//! and moves to the second layer.
//!
//! It is apart from the other searches because only a Weaver with the exemption unused needs it,
//! and its memory ([`WeaveSearch`], a per-thread pool) is its own.

use super::costs::{COSTS, COSTS_MAX_BUDGET, Reach};
use super::*;

/// The result of [`MoveCtx::weave_search`]: the cheapest cost to each (square, layer) node and
/// the node it was reached from, with the search's working memory (kept between searches).
#[derive(Default)]
pub(super) struct WeaveSearch {
    pub(super) dist: Vec<u32>,
    pub(super) prev: Vec<u32>,
    pub(super) start: Option<usize>,
    pub(super) settled: Vec<bool>,
    pub(super) queue: fray_space::BucketQueue,
    pub(super) heap: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32, u8)>>,
}

thread_local! {
    /// A pure memory pool for [`MoveCtx::weave_search`]: each search resets it before use and
    /// reads only what it found itself; nothing is kept for a later search (a `move`'s path goes
    /// to the resolver in its [`Plan`]). It spares an allocation per check of a Weaver's
    /// `move` (the AI reads its own search's paths and the legal list its one search of costs,
    /// so neither runs this search).
    pub(super) static WEAVE: std::cell::RefCell<WeaveSearch> = std::cell::RefCell::new(WeaveSearch::default());
}

impl WeaveSearch {
    /// The cheaper layer of square `k` (layer 0, the exemption kept, on a tie) and its cost.
    pub(super) fn best(&self, k: usize) -> Option<(usize, u32)> {
        let (a, b) = (self.dist[2 * k], self.dist[2 * k + 1]);
        match (a, b) {
            (u32::MAX, u32::MAX) => None,
            _ if a <= b => Some((2 * k, a)),
            _ => Some((2 * k + 1, b)),
        }
    }

    pub(super) fn destinations(&self, ctx: &MoveCtx<'_>) -> Vec<(Pos, u32)> {
        let map = &ctx.s.setup.map;
        (0..map.len())
            .filter(|&k| Some(k) != self.start)
            .filter_map(|k| {
                let (_, c) = self.best(k)?;
                ctx.can_stop_at(k).then_some((map.pos_of(k), c))
            })
            .collect()
    }

    pub(super) fn path(&self, ctx: &MoveCtx<'_>, from: Pos, to: Pos) -> Option<(Path, u32)> {
        let map = &ctx.s.setup.map;
        let origin = self.start?;
        let k = map.index(to)?;
        if to == from {
            return Some((Path::new(), 0));
        }
        let (mut node, cost) = self.best(k)?;
        let mut path = Path::new();
        while node / 2 != origin || node % 2 != 0 {
            path.push(map.pos_of(node / 2));
            node = self.prev[node] as usize;
            if node == u32::MAX as usize {
                return None;
            }
        }
        path.reverse();
        Some((path, cost))
    }
}

impl<'a> MoveCtx<'a> {
    /// [`MoveCtx::destinations`] for a Weaver whose exemption is still unused, found as
    /// [`MoveCtx::destinations_by_cost`] finds the others' over the nodes of
    /// [`MoveCtx::weave_search`] (square and exemption still unused or not): a square costs the
    /// cheaper of its two nodes.
    pub(super) fn weave_destinations_by_cost(&self, from: Pos, budget: u32) -> Vec<(Pos, u32)> {
        debug_assert!(self.ex == Exemption::First && budget <= COSTS_MAX_BUDGET);
        let map = &self.s.setup.map;
        let Some(origin) = map.index(from) else {
            return Vec::new();
        };
        COSTS.with(|c| {
            let c = &mut *c.borrow_mut();
            let n = map.len();
            c.run(2 * n, 2 * origin, budget, |node, f| self.expand_weave(node, f));
            let mut out = Vec::new();
            for k in 0..n {
                let cost = c.dist[2 * k].min(c.dist[2 * k + 1]);
                if cost <= budget && k != origin && self.can_stop_at(k) {
                    out.push((map.pos_of(k), cost));
                }
            }
            out
        })
    }

    /// The steps of [`MoveCtx::weave_destinations_by_cost`]'s search from node
    /// `2 * square + layer` (layer 1: the Weaver's exemption is used up).
    #[inline(always)]
    pub(super) fn expand_weave(&self, node: usize, f: &mut impl Reach) {
        let layer = node % 2;
        self.each_step(node / 2, |j, full| {
            // The first step dearer than 1 costs 1 and uses the exemption up.
            let (price, to_layer) = if layer == 0 && full > 1 { (1, 1) } else { (full, layer) };
            f.reach(2 * j + to_layer, price);
        });
    }

    /// The path to node `goal` (`2 * square + layer`) of the Weaver's two-layer search of
    /// [`MoveCtx::expand_weave`], read off its final costs `dist` from node `2 * origin` (the
    /// squares after `origin`, the goal's last), as [`MoveCtx::walk_back`] reads the one-layer
    /// search's: each node's predecessor is, among the nodes one step before it whose cost plus
    /// the step's price equals its own, the one of least (cost, node), which is the one
    /// [`MoveCtx::weave_search`] settles first and keeps. Costs must be final up to the goal's.
    pub(super) fn walk_back_weave(&self, dist: &[u32], origin: usize, goal: usize) -> Option<Path> {
        let map = &self.s.setup.map;
        let mut path = Path::new();
        let mut m = goal;
        while m != 2 * origin {
            path.push(map.pos_of(m / 2));
            m = self.predecessor_weave(dist, m)?;
        }
        path.reverse();
        Some(path)
    }

    /// The predecessor [`MoveCtx::walk_back_weave`] takes for node `m`: among the nodes one step
    /// before it whose cost plus the step's price equals its own, the one of least (cost, node).
    #[inline]
    pub(super) fn predecessor_weave(&self, dist: &[u32], m: usize) -> Option<usize> {
        let n = self.flags.len();
        let (k, layer) = (m / 2, m % 2);
        if self.flags[k] & SQ_ENEMY != 0 {
            return None;
        }
        let mut best: Option<(u32, usize)> = None;
        let mut offer = |u: usize, price: u32| {
            if dist[u] != u32::MAX && dist[u] + price == dist[m] && best.is_none_or(|b| (dist[u], u) < b) {
                best = Some((dist[u], u));
            }
        };
        for (d, &j) in self.steps.neighbours(k).iter().enumerate() {
            let j = j as usize;
            if j >= n {
                continue;
            }
            // The step from `j` back to `k`, priced as `each_step` prices it.
            let back = (d + 4) % 8;
            debug_assert_eq!(self.steps.neighbours(j)[back] as usize, k);
            let price = self.prices[8 * j + back];
            if price[0] == NO_STEP {
                continue;
            }
            let full = u32::from(price[usize::from(self.flags[j] & SQ_LEAVE != 0)]);
            // As `expand_weave`: the first step dearer than 1 costs 1 and uses the exemption up
            // (layer 0 to 1); every other keeps its layer and full price.
            if layer == 1 {
                if full > 1 {
                    offer(2 * j, 1);
                }
                offer(2 * j + 1, full);
            } else if full <= 1 {
                offer(2 * j, full);
            }
        }
        best.map(|(_, u)| u)
    }

    /// Dijkstra over (square, exemption still unused?) for a Weaver whose once-per-turn
    /// exemption is still unused: on layer 0 the first step whose full cost is above 1 costs 1
    /// and moves the search to layer 1, where every step costs its full price. The resolver
    /// applies the exemption to the first raised step of a path in the same way, so the cost
    /// found is the cost paid. Nodes are numbered `2 * square + layer`, so they settle in order
    /// of (cost, grid index, layer) — a bucket queue over node numbers when the budget is
    /// small, a heap otherwise — and keep the predecessor settled first, like
    /// `fray_space::reach`. Runs in this thread's reusable memory (no allocation once grown).
    ///
    /// With a `goal` square the search stops when the first of its two nodes settles: steps
    /// cost at least 1 and nodes settle in (cost, node) order, so the other node can only end
    /// up dearer (or, on layer 1, equal and second), and [`WeaveSearch::best`] picks the node
    /// settled first, with the same predecessors as the full search. Nodes whose cost plus the
    /// Chebyshev distance to the goal (1 per step at least) is over the budget are not queued,
    /// as in `fray_space::cheapest_path_pruned`: no path within the budget passes through them.
    pub(super) fn weave_search<T>(
        &self,
        from: Pos,
        budget: i16,
        goal: Option<usize>,
        f: impl FnOnce(&WeaveSearch) -> T,
    ) -> T {
        WEAVE.with(|w| {
            let mut w = w.borrow_mut();
            self.weave_search_in(&mut w, from, budget, goal);
            f(&w)
        })
    }

    pub(super) fn weave_search_in(&self, w: &mut WeaveSearch, from: Pos, budget: i16, goal: Option<usize>) {
        use std::cmp::Reverse;
        let map = &self.s.setup.map;
        let n = map.len();
        let budget = budget.max(0) as u32;
        w.dist.clear();
        w.dist.resize(2 * n, u32::MAX);
        w.prev.clear();
        w.prev.resize(2 * n, u32::MAX);
        w.settled.clear();
        w.settled.resize(2 * n, false);
        w.start = map.index(from);
        let Some(origin) = w.start else { return };
        let goal_at = goal.map(|g| map.pos_of(g));
        let buckets = fray_space::BucketQueue::fits(2 * n, budget);
        w.heap.clear();
        if buckets {
            w.queue.reset(2 * n, budget);
            w.queue.push(2 * origin, 0);
        } else {
            w.heap.push(Reverse((0u32, origin as u32, 0u8)));
        }
        w.dist[2 * origin] = 0;
        loop {
            let (d, k, layer) = if buckets {
                let Some((node, d)) = w.queue.pop() else { break };
                (d, (node / 2) as u32, (node % 2) as u8)
            } else {
                let Some(Reverse(top)) = w.heap.pop() else { break };
                top
            };
            let node = 2 * k as usize + layer as usize;
            if w.settled[node] || d != w.dist[node] {
                continue;
            }
            w.settled[node] = true;
            if goal == Some(k as usize) {
                break;
            }
            for dir in 0..fray_space::Dir::ALL.len() {
                let Some(j) = self.steps.neighbour(k as usize, dir) else {
                    continue;
                };
                let Some(full) = self.step_at(k as usize, dir, j) else {
                    continue;
                };
                let (cost, to_layer) = if layer == 0 && full > 1 {
                    (1, 1u8)
                } else {
                    (full, layer)
                };
                let cost = d + cost;
                let m = 2 * j + to_layer as usize;
                if cost > budget || w.settled[m] || cost >= w.dist[m] {
                    continue;
                }
                if let Some(g) = goal_at
                    && cost.saturating_add(u32::from(fray_space::chebyshev(map.pos_of(j), g))) > budget
                {
                    continue;
                }
                if buckets {
                    // A node is queued once, at its best cost so far.
                    if w.dist[m] != u32::MAX {
                        w.queue.remove(m, w.dist[m]);
                    }
                    w.queue.push(m, cost);
                } else {
                    w.heap.push(Reverse((cost, j as u32, to_layer)));
                }
                w.dist[m] = cost;
                w.prev[m] = node as u32;
            }
        }
        w.queue.clear();
    }
}
