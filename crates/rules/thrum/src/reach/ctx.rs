//! The searches of a [`MoveCtx`]: the squares a move reaches, the cheapest path to one square,
//! every `move` with its path from one search, and reading a path back from a search's costs
//! (THR-R51 to THR-R76 priced by the context's tables).
//!
//! A square's cost does not depend on which of several equal paths finds it, so the searches of
//! costs keep no predecessors; a path is read back from the goal as the neighbour of least
//! (cost, grid index) whose cost plus the step's price is the square's, which is the predecessor
//! `fray_space`'s path search keeps, so both give the same path (compared in debug builds).

use super::costs::{COST_PATH_MAX_SQUARES, COSTS, COSTS_MAX_BUDGET, CostSearch, Reach};
use super::*;
use crate::Thrum;
use crate::command::Command;
use fray_engine::Answer;

impl<'a> MoveCtx<'a> {
    /// Gathers the squares' facts for `who` moving in `s`.
    pub fn new(s: &'a State, who: Cid) -> Self {
        let map = &s.setup.map;
        let mut flags = take_flags(map.len());
        // The first present occupant of a square is the one that counts, as in `State::occupant`.
        for (i, c) in s.chars.iter().enumerate() {
            let Some(p) = c.pos else { continue };
            if !c.present() || (c.incapacitated && !s.options.incapacitated_occupy) {
                continue;
            }
            let Some(k) = map.index(p) else { continue };
            if flags[k] & SQ_TAKEN != 0 {
                continue;
            }
            flags[k] |= SQ_TAKEN;
            let o = i as Cid;
            if o != who {
                flags[k] |= SQ_OTHER;
                if s.enemies(who, o) {
                    flags[k] |= SQ_ENEMY;
                }
            }
        }
        let mut mark = |p: Pos| {
            if let Some(k) = map.index(p) {
                flags[k] |= SQ_LEAVE;
            }
        };
        for o in s.ids() {
            let t = s.info(o).traits.loomer;
            if t == 0 || !s.enemies(who, o) || !s.ch(o).able() {
                continue;
            }
            let Some(q) = s.ch(o).pos else { continue };
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                mark(Pos::new(q.x + dx, q.y + dy));
            }
            if t >= 2 {
                for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                    mark(Pos::new(q.x + dx, q.y + dy));
                }
            }
        }
        for t in &s.terrain {
            let Some(spec) = s.setup.book.get(t.ability).terrain.as_ref() else {
                continue;
            };
            let Some(affects) = spec.difficult else { continue };
            if terrain_affects(s, t, who, affects) {
                for p in crate::state::terrain_squares(s, t) {
                    mark(p);
                }
            }
        }
        MoveCtx {
            s,
            who,
            steps: s.setup.steps(),
            prices: s.setup.prices(s.options.extra_costs),
            flags,
            ex: exemption(s, who),
        }
    }

    /// The full cost of a voluntary step from square index `i` in direction `Dir::ALL[d]` to
    /// square index `j`, `None` when it cannot be taken (as [`step_cost`]), with the terrain
    /// price looked up in the map's step table; the Weaver's exemption is applied by the
    /// searches, not here.
    #[inline]
    pub(super) fn step_at(&self, i: usize, d: usize, j: usize) -> Option<u32> {
        let price = self.prices[8 * i + d];
        let cost = if price[0] == NO_STEP || self.flags[j] & SQ_ENEMY != 0 {
            None
        } else {
            Some(u32::from(price[usize::from(self.flags[i] & SQ_LEAVE != 0)]))
        };
        #[cfg(debug_assertions)]
        {
            let map = &self.s.setup.map;
            let (from, to) = (map.pos_of(i), map.pos_of(j));
            debug_assert_eq!(
                cost,
                step_cost(self.s, self.who, from, to, false).ok().map(|c| c as u32),
                "MoveCtx disagrees with step_cost from {from} to {to}"
            );
        }
        cost
    }

    /// Whether the mover may end its movement on square index `k` (as [`can_stop`]).
    #[inline]
    pub(super) fn can_stop_at(&self, k: usize) -> bool {
        let map = &self.s.setup.map;
        let ok = !map.cells()[k].blocked && self.flags[k] & SQ_OTHER == 0;
        debug_assert_eq!(ok, can_stop(self.s, self.who, map.pos_of(k)));
        ok
    }

    /// Whether the mover may end its movement on `p` (as [`can_stop`]).
    #[inline]
    pub fn can_stop(&self, p: Pos) -> bool {
        self.s.setup.map.index(p).is_some_and(|k| self.can_stop_at(k))
    }

    /// The cost the mover pays for a step: its full cost after an exemption that needs no
    /// memory of earlier steps (none, or the upgraded Weaver's "all of them").
    #[inline]
    pub(super) fn paid_at(&self, i: usize, d: usize, j: usize) -> Option<u32> {
        let full = self.step_at(i, d, j)?;
        Some(weave(full as i16, self.ex).0 as u32)
    }

    /// The squares (other than `from`) `who` can end a move on with `budget` movement, with
    /// their costs, in grid order (`y`, then `x`). Costs are what the resolver charges,
    /// the Weaver's exemption included.
    pub fn destinations(&self, from: Pos, budget: i16, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
        if self.ex == Exemption::First {
            if budget.max(0) as u32 <= COSTS_MAX_BUDGET {
                let out = self.weave_destinations_by_cost(from, budget.max(0) as u32);
                debug_assert_eq!(
                    out,
                    self.weave_search(from, budget, None, |w| w.destinations(self)),
                    "the cost search disagrees with the Weaver's search from {from}"
                );
                return out;
            }
            return self.weave_search(from, budget, None, |w| w.destinations(self));
        }
        let budget = budget.max(0) as u32;
        if budget <= COSTS_MAX_BUDGET {
            let out = self.destinations_by_cost(from, budget);
            debug_assert_eq!(
                out,
                self.reach_destinations(from, budget, scratch),
                "the cost search disagrees with the reach search from {from}"
            );
            return out;
        }
        self.reach_destinations(from, budget, scratch)
    }

    /// The `move` answers to [`MoveCtx::destinations`] that `keep` accepts, in the same order,
    /// each with its [`Plan::Move`]: the path [`MoveCtx::path`] finds to the square, read off the
    /// one search of every destination rather than found by a search of its own. Each square's
    /// predecessor is worked out once ([`MoveCtx::predecessor`], or over the Weaver's two layers
    /// [`MoveCtx::predecessor_weave`]), and every path follows them back.
    pub fn move_answers(
        &self,
        from: Pos,
        budget: i16,
        scratch: &mut PathScratch,
        mut keep: impl FnMut(Pos) -> bool,
        out: &mut Vec<Answer<Thrum>>,
    ) {
        let answer = |to: Pos, path: Path, cost: u32| Answer::new(Command::Move(to), Plan::Move { path, cost });
        let map = &self.s.setup.map;
        let n = map.len();
        let b = budget.max(0) as u32;
        if b > COSTS_MAX_BUDGET {
            // Beyond the search of costs: a path search per square (no movement is this large).
            for (to, _) in self.destinations(from, budget, scratch) {
                if keep(to)
                    && let Some((path, cost)) = self.path(from, to, budget, scratch)
                {
                    out.push(answer(to, path, cost));
                }
            }
            return;
        }
        let Some(origin) = map.index(from) else { return };
        let weaving = self.ex == Exemption::First;
        COSTS.with(|c| {
            let c = &mut *c.borrow_mut();
            // Nodes are squares, or for a Weaver whose exemption is unused the (square,
            // exemption used) pairs of `weave_destinations_by_cost`.
            let (nodes, start) = if weaving { (2 * n, 2 * origin) } else { (n, origin) };
            // The search keeps each node's predecessor, the one the walk back from any goal
            // takes (debug builds compare the two).
            if weaving {
                c.run_keeping_paths(nodes, start, b, |node, f| self.expand_weave(node, f));
            } else {
                c.run_keeping_paths(nodes, start, b, |i, f| self.expand(i, f));
            }
            let CostSearch { dist, prev, .. } = c;
            #[cfg(debug_assertions)]
            for m in (0..nodes).filter(|&m| m != start && dist[m] <= b) {
                let walked = if weaving {
                    self.predecessor_weave(dist, m)
                } else {
                    self.predecessor(dist, m)
                };
                debug_assert_eq!(walked.map(|u| u as u32), Some(prev[m]), "the predecessor of node {m}");
            }
            for k in 0..n {
                // A Weaver's square is reached at the cheaper of its nodes (the one with the
                // exemption unused on a tie), as `WeaveSearch::best` picks it.
                let goal = match weaving {
                    true if dist[2 * k] <= dist[2 * k + 1] => 2 * k,
                    true => 2 * k + 1,
                    false => k,
                };
                let cost = dist[goal];
                if cost > b || k == origin || !self.can_stop_at(k) {
                    continue;
                }
                let to = map.pos_of(k);
                if !keep(to) {
                    continue;
                }
                let mut path = Path::new();
                let mut m = goal;
                while m != start {
                    path.push(map.pos_of(if weaving { m / 2 } else { m }));
                    match prev[m] {
                        u32::MAX => break,
                        u => m = u as usize,
                    }
                }
                debug_assert!(m == start, "no path back from {to}");
                if m == start {
                    path.reverse();
                    out.push(answer(to, path, cost));
                }
            }
        });
    }

    /// [`MoveCtx::destinations`] for an exemption that needs no memory of earlier steps, by
    /// `fray_space`'s reach search (which also keeps each square's path).
    pub(super) fn reach_destinations(&self, from: Pos, budget: u32, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
        let found = fray_space::reach_indexed(
            &self.s.setup.map,
            self.steps,
            from,
            budget,
            |i, d, j| self.paid_at(i, d, j),
            |k| self.can_stop_at(k),
            scratch,
        );
        let found = found.destinations();
        // Sized once for every square the search settled (an upper bound), not grown as found.
        let mut out = Vec::with_capacity(found.size_hint().1.unwrap_or(0));
        out.extend(found);
        out
    }

    /// [`MoveCtx::destinations`] for an exemption that needs no memory of earlier steps, found by
    /// a search of costs alone: a list of squares per cost (a square is listed again only at a
    /// strictly lower cost, and passed over where its cost has dropped since), the squares
    /// within the budget whose move may end there, in grid order. Where several paths cost the
    /// same, it does not say which one a move would take (`path` does); what a square costs is
    /// the same whichever Dijkstra finds it. Runs in this thread's reusable memory.
    pub(super) fn destinations_by_cost(&self, from: Pos, budget: u32) -> Vec<(Pos, u32)> {
        debug_assert!(self.ex != Exemption::First && budget <= COSTS_MAX_BUDGET);
        let map = &self.s.setup.map;
        let Some(origin) = map.index(from) else {
            return Vec::new();
        };
        COSTS.with(|c| {
            let c = &mut *c.borrow_mut();
            c.run(map.len(), origin, budget, |i, f| self.expand(i, f));
            let mut out = Vec::new();
            for (k, &cost) in c.dist.iter().enumerate() {
                if cost <= budget && k != origin && self.can_stop_at(k) {
                    out.push((map.pos_of(k), cost));
                }
            }
            out
        })
    }

    /// The steps of [`MoveCtx::destinations_by_cost`]'s search from square index `i`, at the
    /// price the mover pays (an exemption that needs no memory of earlier steps).
    #[inline(always)]
    pub(super) fn expand(&self, i: usize, f: &mut impl Reach) {
        self.each_step(i, |j, full| f.reach(j, weave(full as i16, self.ex).0 as u32));
    }

    /// Calls `f` with each step the mover may take from square index `k`: the neighbour `j` and
    /// the step's full price, as [`MoveCtx::step_at`] gives them, with the square's row of the
    /// tables and whether it is difficult to leave read once.
    #[inline(always)]
    pub(super) fn each_step(&self, k: usize, mut f: impl FnMut(usize, u32)) {
        let n = self.flags.len();
        let Ok(prices) = <&[[u16; 2]; 8]>::try_from(&self.prices[8 * k..8 * k + 8]) else {
            return;
        };
        let leave = usize::from(self.flags[k] & SQ_LEAVE != 0);
        for (&j, price) in self.steps.neighbours(k).iter().zip(prices) {
            let j = j as usize;
            if price[0] != NO_STEP && j < n && self.flags[j] & SQ_ENEMY == 0 {
                f(j, u32::from(price[leave]));
            }
        }
    }

    /// The path to square `goal` read off the final costs `dist` of a search from `origin` (the
    /// squares after `origin`, `goal` last). Walking back from `goal`, each square's predecessor
    /// is, among its neighbours whose cost plus the step's price equals its own, the one of
    /// least (cost, grid index): the one a path search that settles squares in (cost, grid
    /// index) order settles first and keeps, since it replaces a predecessor only for a
    /// strictly cheaper route. Costs must be final up to `goal`'s (an exemption that needs no
    /// memory of earlier steps). `None` when the walk cannot get back to `origin`.
    pub(super) fn walk_back(&self, dist: &[u32], origin: usize, goal: usize) -> Option<Path> {
        let map = &self.s.setup.map;
        let mut path = Path::new();
        let mut v = goal;
        while v != origin {
            path.push(map.pos_of(v));
            v = self.predecessor(dist, v)?;
        }
        path.reverse();
        Some(path)
    }

    /// The predecessor [`MoveCtx::walk_back`] takes for square `v`: among its neighbours whose
    /// cost plus the step's price equals its own, the one of least (cost, grid index).
    #[inline]
    pub(super) fn predecessor(&self, dist: &[u32], v: usize) -> Option<usize> {
        let n = self.flags.len();
        if self.flags[v] & SQ_ENEMY != 0 {
            return None;
        }
        let mut best: Option<(u32, usize)> = None;
        for (d, &u) in self.steps.neighbours(v).iter().enumerate() {
            let u = u as usize;
            if u >= n || dist[u] >= dist[v] {
                continue;
            }
            // `u` lies in direction `d` from `v`, so the step from `u` to `v` goes the opposite
            // way (`Dir::ALL` runs clockwise): priced as `each_step` prices it.
            let back = (d + 4) % 8;
            debug_assert_eq!(self.steps.neighbours(u)[back] as usize, v);
            let price = self.prices[8 * u + back];
            if price[0] == NO_STEP {
                continue;
            }
            let full = price[usize::from(self.flags[u] & SQ_LEAVE != 0)];
            let p = weave(full as i16, self.ex).0 as u32;
            if dist[u] + p == dist[v] && best.is_none_or(|b| (dist[u], u) < b) {
                best = Some((dist[u], u));
            }
        }
        best.map(|(_, u)| u)
    }

    /// [`MoveCtx::path`] for an exemption that needs no memory of earlier steps, by the search of
    /// costs alone ([`CostSearch`]) stopped once the goal's cost is final, then
    /// [`MoveCtx::walk_back`]: the same path and cost as `fray_space::cheapest_path_pruned`
    /// (checked in debug builds), with no per-square predecessors or queue to keep. Squares
    /// from which the goal is out of reach within the budget even at 1 per step are not listed,
    /// as in that search.
    pub(super) fn path_by_cost(&self, from: Pos, to: Pos, budget: u32) -> Option<(Path, u32)> {
        debug_assert!(self.ex != Exemption::First && budget <= COSTS_MAX_BUDGET);
        let map = &self.s.setup.map;
        let origin = map.index(from)?;
        let goal = map.index(to)?;
        if goal == origin {
            return Some((Path::new(), 0));
        }
        if !self.can_stop_at(goal) {
            return None;
        }
        COSTS.with(|c| {
            let c = &mut *c.borrow_mut();
            c.start(map.len(), origin, budget);
            for level in 0..=budget {
                // Every level below this one is expanded, so costs up to it are final.
                if c.dist[goal] <= level {
                    break;
                }
                c.expand_level(level, budget, &mut |i, f| {
                    self.each_step(i, |j, full| {
                        let price = weave(full as i16, self.ex).0 as u32;
                        let open = u32::from(fray_space::chebyshev(map.pos_of(j), to));
                        if f.cost.saturating_add(price).saturating_add(open) <= budget {
                            f.reach(j, price);
                        }
                    })
                });
            }
            let cost = c.dist[goal];
            if cost > budget {
                return None;
            }
            Some((self.walk_back(&c.dist, origin, goal)?, cost))
        })
    }

    /// The cheapest path from `from` to `to` within `budget`, with the stable tie-break, and
    /// what it costs (the Weaver's exemption included).
    pub fn path(&self, from: Pos, to: Pos, budget: i16, scratch: &mut PathScratch) -> Option<(Path, u32)> {
        if self.ex == Exemption::First {
            if !self.can_stop(to) {
                return None;
            }
            let goal = self.s.setup.map.index(to);
            let found = self.weave_search(from, budget, goal, |w| w.path(self, from, to));
            debug_assert_eq!(
                found,
                self.weave_search(from, budget, None, |w| w.path(self, from, to)),
                "the Weaver's search stopped at {to} disagrees with the full search"
            );
            return found;
        }
        // Every step costs at least 1 (THR-R51; the Weaver's exemption lowers a step to 1), so
        // squares the goal is out of reach from over open ground are not searched.
        let b = budget.max(0) as u32;
        let search = |scratch: &mut PathScratch| {
            let found = fray_space::cheapest_path_pruned(
                &self.s.setup.map,
                self.steps,
                from,
                to,
                b,
                1,
                |i, d, j| self.paid_at(i, d, j),
                |k| self.can_stop_at(k),
                scratch,
            );
            found.map(|(path, cost)| (Path::from_vec(path), cost))
        };
        if b <= COSTS_MAX_BUDGET && self.flags.len() <= COST_PATH_MAX_SQUARES {
            let found = self.path_by_cost(from, to, b);
            debug_assert_eq!(
                found,
                search(scratch),
                "the search of costs disagrees with the path search from {from} to {to}"
            );
            return found;
        }
        search(scratch)
    }
}
