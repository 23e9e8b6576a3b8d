//! Legality: the one place that decides whether a command is allowed now.
//!
//! [`check`] returns a typed [`Reject`] with a stable code and a sentence; it never changes
//! anything. The legal-command enumeration filters candidates through it, and the resolver
//! relies on it, so "listed as legal", "accepted" and "resolved" cannot drift apart. It does
//! not work out which decision is open: it matches on the [`Stage`] ([`stage`], worked out once
//! per call, or handed in by a caller that has it: [`check_in`], [`plan_in`], [`allowed_in`]).
//!
//! Stable rejection codes: `not-now`, `unknown-ability`, `out-of-range`, `invalid-target`,
//! `obstructed`, `blocked`, `occupied`, `not-enough-movement`, `immobilized`, `stunned`,
//! `cannot-delay`, `bad-pick`, `not-in-start-area`, `cannot-stop-here`, `would-fray`,
//! `bad-ruling`.

use crate::Thrum;
use crate::ability::{Ability, AbilityId, Attr, Cond, Defence, Kind, Op, TargetSpec, XStatus};
use crate::calc::{self, AimFail, distance, has_ability, in_range, obstructed, range_of};
use crate::codes;
use crate::command::{Action, CharList, Command, Gauge, Ruling, Target, ThrumRuling};
use crate::options::{DelayLimit, InfiniteLine, StartAreaTooSmall, TeleportCost};
use crate::resolve::{StepCost, terrain_step_cost};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{AutoStep, Phase, State, StatusRef};
use fray_engine::order::DelayError;
use fray_engine::{Answer, Reject};
use fray_space::{Dir, PathScratch, Pos, StepTable};

/// The squares of a move's path after its start, in order: inline up to 4 (no larger than a
/// list on the heap), so most moves' paths allocate nothing.
pub type Path = smallvec::SmallVec<[Pos; 4]>;

/// What [`check`] learned about a command that resolving it needs: Thrum's checked plan
/// ([`fray_engine::Ruleset::Checked`]). [`check`] returns it, the legal list gives it with each
/// command (the same plan: the conformance suite compares them), the AI builds it from its own
/// search, and the resolver consumes it instead of working it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Nothing the resolver would work out again (a turn begun, a defence, a Stance, a
    /// ruling, a step of a Disoriented character, whose square is known only once rolled).
    Plain,
    /// A `move`, of the Move step or answering a move prompt: the squares of the cheapest path
    /// after the start, the destination last, and what the path costs the mover (the Weaver's
    /// exemption included).
    Move {
        /// The squares stepped onto, in order.
        path: Path,
        /// The movement the path costs.
        cost: u32,
    },
    /// A `step` of a character that is not Disoriented: the movement it costs after the
    /// Weaver's exemption, and whether it uses the exemption up (THR-R76).
    Step {
        /// The movement paid.
        cost: i16,
        /// Whether the step uses up the once-per-turn exemption.
        weaves: bool,
    },
    /// An Action: the characters it affects, in resolution order. (The squares of an area's
    /// shape, which the check finds too, are not kept: carried through every check the AI asks
    /// for, the 16 squares a shape holds inline cost more than finding them again once per
    /// Action declared.)
    Act {
        /// Who the Action affects.
        targets: CharList,
    },
}

/// Whether a refusal is wanted with its sentence or only for its code. [`check`] says why a
/// command is refused; the legal list, the AI and the rules' own tests of legality only need
/// the verdict ([`allowed`]) or the code ([`check_code`]), and format no sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Say {
    /// The refusal carries its sentence.
    Sentence,
    /// The refusal carries its code and an empty sentence (no allocation, no formatting).
    Code,
}

/// A refusal with a stable code; `why` is called for the sentence only when `say` asks for it.
#[inline]
fn no<W: Into<String>>(say: Say, code: &'static str, why: impl FnOnce() -> W) -> Reject {
    match say {
        Say::Sentence => Reject::new(code, why()),
        Say::Code => Reject::new(code, String::new()),
    }
}

/// Refuses a square that is not on the map, naming the map's extent.
fn on_map(s: &State, p: Pos, say: Say) -> Result<(), Reject> {
    if s.setup.map.get(p).is_some() {
        return Ok(());
    }
    let (w, h) = (s.setup.map.width(), s.setup.map.height());
    Err(no(say, codes::INVALID_TARGET, || {
        format!(
            "{p} is off the map (it is {w} by {h} squares, 0,0 to {},{})",
            w.saturating_sub(1),
            h.saturating_sub(1)
        )
    }))
}

/// How the Weaver's exemption (THR-R76) applies to `who`'s own steps right now: the first
/// step of its turn whose cost is raised costs 1 (`First`, until used), or every such step
/// during its turn does (`All`, the upgraded trait). It never applies outside its own turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exemption {
    /// No exemption: steps cost their full price.
    None,
    /// The next raised step costs 1, and uses up the exemption for the turn.
    First,
    /// Every raised step costs 1.
    All,
}

/// The Weaver's exemption for `who` now (see [`Exemption`]).
pub fn exemption(s: &State, who: Cid) -> Exemption {
    let weaver = s.info(who).traits.weaver;
    if weaver == 0 || s.turn.who != who || s.phase != Phase::Rounds {
        Exemption::None
    } else if weaver >= 2 {
        Exemption::All
    } else if s.turn.weaver_used {
        Exemption::None
    } else {
        Exemption::First
    }
}

/// What a step whose full cost is `full` costs under the exemption `ex`, and whether it uses
/// up the once-per-turn exemption. The one place that applies the Weaver's discount: the
/// legality check, the path searches and the resolver all go through it.
pub fn weave(full: i16, ex: Exemption) -> (i16, bool) {
    match ex {
        Exemption::None => (full, false),
        _ if full <= 1 => (full, false),
        Exemption::First => (1, true),
        Exemption::All => (1, false),
    }
}

/// The movement `who` pays for one voluntary step now: [`step_cost`] after the Weaver's
/// exemption, and whether the step uses up the exemption.
pub fn paid_step_cost(s: &State, who: Cid, from: Pos, to: Pos, roll: bool) -> Result<(i16, bool), Reject> {
    Ok(weave(step_cost(s, who, from, to, roll)?, exemption(s, who)))
}

/// The full cost of one voluntary step for `who` (before the Weaver's exemption), or why it
/// cannot be taken (THR-R51 to THR-R63, THR-R70, THR-R71, THR-R75). `roll` replaces the extra
/// cost of a 2+ level drop with a roll. Ally squares may be entered (to pass through), enemy
/// squares may not.
pub fn step_cost(s: &State, who: Cid, from: Pos, to: Pos, roll: bool) -> Result<i16, Reject> {
    step_price(s, who, from, to, roll, Say::Sentence)
}

/// [`step_cost`], its refusal said as `say` asks.
fn step_price(s: &State, who: Cid, from: Pos, to: Pos, roll: bool, say: Say) -> Result<i16, Reject> {
    let map = &s.setup.map;
    // A step goes to any of the 8 neighbours, orthogonal or diagonal (THR-R42).
    let Some(c) = terrain_step_cost(map, from, to) else {
        return Err(no(say, codes::BLOCKED, || {
            format!("{to} cannot be entered from {from}")
        }));
    };
    // An ally's square may be passed through (THR-R54); an enemy's may not be entered (THR-R57).
    if let Some(o) = s.occupant(to)
        && o != who
        && s.enemies(who, o)
    {
        return Err(no(say, codes::BLOCKED, || {
            format!("{to} holds an enemy ({})", s.name(o))
        }));
    }
    let leave = c.leave_difficult > 0 || loomed(s, who, from) || terrain_difficult(s, who, from);
    Ok(combine_step(s, c, leave, roll))
}

/// A step's full cost from its terrain parts and whether the square left is difficult for the
/// mover (THR-H option `extra-costs`).
fn combine_step(s: &State, c: StepCost, leave: bool, roll: bool) -> i16 {
    combine_step_with(s.options.extra_costs, c, leave, roll)
}

/// [`combine_step`] under the `extra-costs` option `extra_costs`.
pub(crate) fn combine_step_with(extra_costs: crate::options::ExtraCosts, c: StepCost, leave: bool, roll: bool) -> i16 {
    let leave = i16::from(leave);
    // `climb` is 0 for a change of 0 or 1 level (THR-R62). A drop of 2+ levels costs 1 + its
    // levels beyond the first, or just 1 with the roll, whatever its result (THR-R65): a step
    // down 3 levels is 1 + 2 = 3, or 1 when rolling (THR-R72).
    let climb = if roll && c.drop >= 2 { 0 } else { c.climb as i16 };
    let extra = match extra_costs {
        crate::options::ExtraCosts::AddUp => leave + climb,
        crate::options::ExtraCosts::Largest => leave.max(climb),
    };
    c.base as i16 + extra
}

/// What a movement search needs to know about every square, gathered once per search so the
/// search itself does no lookups over characters or Terrain Effects: who stands where (enemies
/// block, anyone else may be passed but not stopped on) and which squares are difficult to leave
/// for this mover (enemy Loomers, difficult Terrain Effects). Agrees with [`step_cost`] and
/// [`can_stop`] exactly (checked in debug builds).
pub struct MoveCtx<'a> {
    s: &'a State,
    who: Cid,
    /// The map's step table, fetched once per search context rather than once per step.
    steps: &'a StepTable<StepCost>,
    /// The full price of every step under the options in force: `[i * 8 + d]` holds the price
    /// when the square left is not difficult for the mover and when it is ([`NO_STEP`]: no
    /// such step).
    prices: &'a [[u16; 2]],
    flags: Vec<u8>,
    ex: Exemption,
}

/// In a step price table ([`crate::setup::Setup::prices`]): the step cannot be taken.
pub const NO_STEP: u16 = u16::MAX;

/// The price table of a map's steps under `extra_costs`: for square `i` and direction `d`,
/// `[8 * i + d]` holds the full price of the step (before the Weaver's exemption) when the
/// square left is not difficult for the mover, and when it is; [`NO_STEP`] when the step
/// cannot be taken. The same arithmetic as [`step_cost`] (checked in debug builds by
/// [`MoveCtx`]).
pub fn step_prices(steps: &StepTable<StepCost>, n: usize, extra_costs: crate::options::ExtraCosts) -> Vec<[u16; 2]> {
    let mut out = Vec::with_capacity(8 * n);
    for i in 0..n {
        for d in 0..Dir::ALL.len() {
            out.push(match steps.cost(i, d) {
                None => [NO_STEP; 2],
                Some(c) => {
                    // A square that is difficult terrain is difficult to leave for everyone.
                    let stay = combine_step_with(extra_costs, c, c.leave_difficult > 0, false);
                    let leave = combine_step_with(extra_costs, c, true, false);
                    let clamp = |v: i16| u16::try_from(v.max(0)).unwrap_or(NO_STEP - 1).min(NO_STEP - 1);
                    [clamp(stay), clamp(leave)]
                }
            });
        }
    }
    out
}

const SQ_TAKEN: u8 = 1;
const SQ_OTHER: u8 = 2;
const SQ_ENEMY: u8 = 4;
const SQ_LEAVE: u8 = 8;

thread_local! {
    /// A pure memory pool: square-fact buffers of finished move searches, lent to the next ones
    /// and filled afresh by each (a search context is built for every `move` checked, every
    /// AI turn and every listing of moves, and contexts nest at most a few deep), so building one
    /// allocates nothing once the thread has warmed up. It holds no result: what a check finds
    /// goes to the resolver in its [`Plan`]. Allocating each buffer instead was measured to
    /// cost instructions on every shipped example (the simulator's hot path).
    static FLAG_POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A zeroed buffer of `n` square facts, from the pool when one is there.
fn take_flags(n: usize) -> Vec<u8> {
    let mut v = FLAG_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    v.clear();
    v.resize(n, 0);
    v
}

/// Returns a buffer of square facts to the pool (a handful are kept).
fn give_flags(v: Vec<u8>) {
    if v.capacity() > 0 {
        FLAG_POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 8 {
                p.push(v);
            }
        });
    }
}

impl Drop for MoveCtx<'_> {
    fn drop(&mut self) {
        give_flags(std::mem::take(&mut self.flags));
    }
}

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
            if crate::resolve::terrain_affects(s, t, who, affects) {
                for p in crate::resolve::terrain_squares(s, t) {
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
    fn step_at(&self, i: usize, d: usize, j: usize) -> Option<u32> {
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
    fn can_stop_at(&self, k: usize) -> bool {
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
    fn paid_at(&self, i: usize, d: usize, j: usize) -> Option<u32> {
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
    fn reach_destinations(&self, from: Pos, budget: u32, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
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

    /// [`MoveCtx::destinations`] for a Weaver whose exemption is still unused, found as
    /// [`MoveCtx::destinations_by_cost`] finds the others' over the nodes of
    /// [`MoveCtx::weave_search`] (square and exemption still unused or not): a square costs the
    /// cheaper of its two nodes.
    fn weave_destinations_by_cost(&self, from: Pos, budget: u32) -> Vec<(Pos, u32)> {
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

    /// [`MoveCtx::destinations`] for an exemption that needs no memory of earlier steps, found by
    /// a search of costs alone: a list of squares per cost (a square is listed again only at a
    /// strictly lower cost, and passed over where its cost has dropped since), the squares
    /// within the budget whose move may end there, in grid order. Where several paths cost the
    /// same, it does not say which one a move would take (`path` does); what a square costs is
    /// the same whichever Dijkstra finds it. Runs in this thread's reusable memory.
    fn destinations_by_cost(&self, from: Pos, budget: u32) -> Vec<(Pos, u32)> {
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
    fn expand(&self, i: usize, f: &mut impl Reach) {
        self.each_step(i, |j, full| f.reach(j, weave(full as i16, self.ex).0 as u32));
    }

    /// The steps of [`MoveCtx::weave_destinations_by_cost`]'s search from node
    /// `2 * square + layer` (layer 1: the Weaver's exemption is used up).
    #[inline(always)]
    fn expand_weave(&self, node: usize, f: &mut impl Reach) {
        let layer = node % 2;
        self.each_step(node / 2, |j, full| {
            // The first step dearer than 1 costs 1 and uses the exemption up.
            let (price, to_layer) = if layer == 0 && full > 1 { (1, 1) } else { (full, layer) };
            f.reach(2 * j + to_layer, price);
        });
    }

    /// Calls `f` with each step the mover may take from square index `k`: the neighbour `j` and
    /// the step's full price, as [`MoveCtx::step_at`] gives them, with the square's row of the
    /// tables and whether it is difficult to leave read once.
    #[inline(always)]
    fn each_step(&self, k: usize, mut f: impl FnMut(usize, u32)) {
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
    fn walk_back(&self, dist: &[u32], origin: usize, goal: usize) -> Option<Path> {
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
    fn predecessor(&self, dist: &[u32], v: usize) -> Option<usize> {
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

    /// The path to node `goal` (`2 * square + layer`) of the Weaver's two-layer search of
    /// [`MoveCtx::expand_weave`], read off its final costs `dist` from node `2 * origin` (the
    /// squares after `origin`, the goal's last), as [`MoveCtx::walk_back`] reads the one-layer
    /// search's: each node's predecessor is, among the nodes one step before it whose cost plus
    /// the step's price equals its own, the one of least (cost, node), which is the one
    /// [`MoveCtx::weave_search`] settles first and keeps. Costs must be final up to the goal's.
    fn walk_back_weave(&self, dist: &[u32], origin: usize, goal: usize) -> Option<Path> {
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
    fn predecessor_weave(&self, dist: &[u32], m: usize) -> Option<usize> {
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

    /// [`MoveCtx::path`] for an exemption that needs no memory of earlier steps, by the search of
    /// costs alone ([`CostSearch`]) stopped once the goal's cost is final, then
    /// [`MoveCtx::walk_back`]: the same path and cost as `fray_space::cheapest_path_pruned`
    /// (checked in debug builds), with no per-square predecessors or queue to keep. Squares
    /// from which the goal is out of reach within the budget even at 1 per step are not listed,
    /// as in that search.
    fn path_by_cost(&self, from: Pos, to: Pos, budget: u32) -> Option<(Path, u32)> {
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
    fn weave_search<T>(&self, from: Pos, budget: i16, goal: Option<usize>, f: impl FnOnce(&WeaveSearch) -> T) -> T {
        WEAVE.with(|w| {
            let mut w = w.borrow_mut();
            self.weave_search_in(&mut w, from, budget, goal);
            f(&w)
        })
    }

    fn weave_search_in(&self, w: &mut WeaveSearch, from: Pos, budget: i16, goal: Option<usize>) {
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

/// The result of [`MoveCtx::weave_search`]: the cheapest cost to each (square, layer) node and
/// the node it was reached from, with the search's working memory (kept between searches).
#[derive(Default)]
struct WeaveSearch {
    dist: Vec<u32>,
    prev: Vec<u32>,
    start: Option<usize>,
    settled: Vec<bool>,
    queue: fray_space::BucketQueue,
    heap: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32, u8)>>,
}

thread_local! {
    /// A pure memory pool for [`MoveCtx::weave_search`]: each search resets it before use and
    /// reads only what it found itself; nothing is kept for a later search (a `move`'s path goes
    /// to the resolver in its [`Plan`]). It spares an allocation per check of a Weaver's
    /// `move` (the AI reads its own search's paths and the legal list its one search of costs,
    /// so neither runs this search).
    static WEAVE: std::cell::RefCell<WeaveSearch> = std::cell::RefCell::new(WeaveSearch::default());
}

impl WeaveSearch {
    /// The cheaper layer of square `k` (layer 0, the exemption kept, on a tie) and its cost.
    fn best(&self, k: usize) -> Option<(usize, u32)> {
        let (a, b) = (self.dist[2 * k], self.dist[2 * k + 1]);
        match (a, b) {
            (u32::MAX, u32::MAX) => None,
            _ if a <= b => Some((2 * k, a)),
            _ => Some((2 * k + 1, b)),
        }
    }

    fn destinations(&self, ctx: &MoveCtx<'_>) -> Vec<(Pos, u32)> {
        let map = &ctx.s.setup.map;
        (0..map.len())
            .filter(|&k| Some(k) != self.start)
            .filter_map(|k| {
                let (_, c) = self.best(k)?;
                ctx.can_stop_at(k).then_some((map.pos_of(k), c))
            })
            .collect()
    }

    fn path(&self, ctx: &MoveCtx<'_>, from: Pos, to: Pos) -> Option<(Path, u32)> {
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

thread_local! {
    /// A pure memory pool for `fray_space`'s searches, which the checks run only beyond the
    /// search of costs (maps above [`COST_PATH_MAX_SQUARES`], budgets above
    /// [`COSTS_MAX_BUDGET`]): each search starts afresh in it and nothing is read back later.
    static SCRATCH: std::cell::RefCell<PathScratch> = std::cell::RefCell::new(PathScratch::new());
    /// A pure memory pool for the searches of costs of checks and listings
    /// ([`MoveCtx::path_by_cost`], [`MoveCtx::destinations_by_cost`], the moves listed with
    /// their paths): each search resets it and reads only its own costs; nothing is kept for a
    /// later one. Allocating it per search instead was measured to cost instructions on every
    /// shipped example.
    static COSTS: std::cell::RefCell<CostSearch> = std::cell::RefCell::new(CostSearch::default());
}

/// Maps of more squares than this find a path by `fray_space`'s path search (which touches
/// only the squares it reaches) rather than [`MoveCtx::path_by_cost`] (which resets a cost per
/// square of the map each time).
const COST_PATH_MAX_SQUARES: usize = 4096;

/// Budgets above this are searched with `fray_space`'s reach search instead of
/// [`MoveCtx::destinations_by_cost`], which keeps one list per cost.
const COSTS_MAX_BUDGET: u32 = 4096;

/// The memory of [`MoveCtx::destinations_by_cost`] and [`LevelReach`]: each node's cost so far,
/// and the nodes to look at per cost.
#[derive(Default)]
struct CostSearch {
    dist: Vec<u32>,
    lists: Vec<Vec<u32>>,
    /// [`LevelReach`]: the squares of the level being listed, one bit per square (so they come
    /// out in grid order, each once).
    level: Vec<u64>,
    /// [`MoveCtx::move_answers`]: each node's predecessor on its path (`u32::MAX`: none).
    prev: Vec<u32>,
}

impl CostSearch {
    /// The least cost within `budget` of each of `nodes` nodes from `start` (left in `dist`,
    /// `u32::MAX` where out of reach), where `expand(node, frontier)` calls
    /// [`Frontier::reach`] for each node one step away, with what that step costs. One list of
    /// nodes per cost: a node is listed again only at a strictly lower cost, and passed over
    /// where its cost has dropped since it was listed.
    fn run(&mut self, nodes: usize, start: usize, budget: u32, mut expand: impl FnMut(usize, &mut Frontier<'_>)) {
        self.start(nodes, start, budget);
        for cost in 0..=budget {
            self.expand_level(cost, budget, &mut expand);
        }
    }

    /// [`CostSearch::run`], keeping each node's predecessor on its path in `prev` (`u32::MAX`
    /// for the start and the nodes out of reach): the node of least (cost, node) among those a
    /// step before it whose cost plus the step's price is its own, as
    /// [`MoveCtx::predecessor`] and [`MoveCtx::predecessor_weave`] find it.
    fn run_keeping_paths(
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
    fn start(&mut self, nodes: usize, start: usize, budget: u32) {
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
    fn expand_level(&mut self, cost: u32, budget: u32, expand: &mut impl FnMut(usize, &mut Frontier<'_>)) {
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
    ctx: MoveCtx<'a>,
    origin: usize,
    budget: u32,
    /// The cost whose squares the next call lists.
    next: u32,
    search: CostSearch,
    /// Whether nodes are the Weaver's (square, exemption used) pairs.
    weave: bool,
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
struct Frontier<'a> {
    dist: &'a mut [u32],
    lists: &'a mut [Vec<u32>],
    cost: u32,
    budget: u32,
}

/// What a search of costs does with a step it finds from the node it expands.
trait Reach {
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
struct KeepingFrontier<'a> {
    dist: &'a mut [u32],
    lists: &'a mut [Vec<u32>],
    prev: &'a mut [u32],
    node: u32,
    cost: u32,
    budget: u32,
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

/// Runs `f` with this thread's reusable search memory, a pure memory pool (searches never
/// nest; see `SCRATCH`).
pub fn with_scratch<T>(f: impl FnOnce(&mut PathScratch) -> T) -> T {
    SCRATCH.with(|sc| f(&mut sc.borrow_mut()))
}

/// The cheapest path for `who` from `from` to `to` within `budget` and what it costs (the
/// Weaver's exemption included), `None` when there is none: what the check of a `move` finds
/// and hands the resolver in its [`Plan::Move`].
pub fn path_for(s: &State, who: Cid, from: Pos, to: Pos, budget: i16) -> Option<(Path, u32)> {
    let ctx = MoveCtx::new(s, who);
    with_scratch(|sc| ctx.path(from, to, budget.max(0), sc))
}

/// The squares (other than its own) `who` can reach from `from` within `budget`, with costs.
pub fn reach_for(s: &State, who: Cid, from: Pos, budget: i16) -> Vec<(Pos, u32)> {
    let ctx = MoveCtx::new(s, who);
    with_scratch(|sc| ctx.destinations(from, budget, sc))
}

/// Whether a Terrain Effect makes `p` Difficult Terrain for `who` (THR-R136).
pub fn terrain_difficult(s: &State, who: Cid, p: Pos) -> bool {
    s.terrain.iter().any(|t| {
        let Some(spec) = s.setup.book.get(t.ability).terrain.as_ref() else {
            return false;
        };
        let Some(affects) = spec.difficult else { return false };
        crate::resolve::terrain_affects(s, t, who, affects) && crate::resolve::terrain_covers(s, t, p)
    })
}

/// Whether an enemy Loomer makes `p` Difficult Terrain for `who` (THR-R75).
pub fn loomed(s: &State, who: Cid, p: Pos) -> bool {
    s.ids().any(|o| {
        let t = s.info(o).traits.loomer;
        if t == 0 || !s.enemies(who, o) || !s.ch(o).able() {
            return false;
        }
        let Some(q) = s.ch(o).pos else { return false };
        let (dx, dy) = ((p.x - q.x).abs(), (p.y - q.y).abs());
        (dx + dy == 1) || (t >= 2 && dx == 1 && dy == 1)
    })
}

/// The movement a teleport that uses movement spends (THR-R59, THR-R60): its distance, with no
/// extra cost for leaving or entering squares.
pub fn teleport_cost(s: &State, from: Pos, to: Pos) -> i16 {
    match s.options.teleport_cost {
        TeleportCost::Distance => fray_space::chebyshev(from, to) as i16,
        TeleportCost::Free => 0,
    }
}

/// Whether a combatant may end its movement on a square: only an empty one, never an ally's
/// (THR-R55).
pub fn can_stop(s: &State, who: Cid, p: Pos) -> bool {
    s.setup.map.get(p).is_some_and(|c| !c.blocked) && s.occupant(p).is_none_or(|o| o == who)
}

/// Movement left in the current allowance: up to Speed may be spent, and nothing need be
/// (THR-R29).
pub fn movement_left(s: &State) -> i16 {
    calc::speed(s, s.turn.who) - s.turn.spent
}

/// Who makes a normal move now, under the stage `at`, when anyone may.
fn moving(s: &State, at: Option<&Stage>, say: Say) -> Result<Cid, Reject> {
    // No normal moves in Round Zero (THR-R21), nor outside the Move step or Dash's allowance.
    let Some(&Stage::Turn { who, dash }) = at.filter(|_| s.phase == Phase::Rounds) else {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "moving is only possible in the Move step of a turn",
        ));
    };
    if s.turn.move_ended {
        // THR-R67: a failed drop roll ends the character's movement for the turn.
        return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!(
                "{}'s movement ended for this turn (a failed drop roll): no movement is left",
                s.name(who)
            )
        }));
    }
    if calc::has(s, who, Cond::Immobilized) {
        return Err(no(say, codes::IMMOBILIZED, || {
            format!("{} is Immobilized", s.name(who))
        }));
    }
    // THR-R218: a Stunned character that took its Action may not also Move.
    if s.turn.stunned && s.options.draft_stunned && s.turn.acted && !dash {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    Ok(who)
}

/// Whether the current character may make a normal `move` now, whatever the destination: the
/// parts of the `move` check that do not depend on where it goes. A destination [`reachable`]
/// listed for this same state then passes the whole check (its path is within the movement
/// left, it is not the start and the mover may stop there), so a caller holding that list needs
/// no second path search per destination.
pub fn may_move(s: &State) -> bool {
    moving(s, stage(s).as_ref(), Say::Code).is_ok()
        && !calc::has(s, s.turn.who, Cond::Disoriented)
        && s.ch(s.turn.who).pos.is_some()
}

/// Whether a `step` of `who` from `from` in direction `dir` may carry a drop roll: when it
/// drops 2 or more levels (THR-R67), or always for a Disoriented character, which does not know
/// where its step goes: its roll is declared in advance and used if the step it really takes
/// drops 2+ levels. [`check`] refuses a rolled step otherwise, and the legal list offers one
/// only then.
pub fn step_may_roll(s: &State, who: Cid, from: Pos, dir: Dir) -> bool {
    calc::has(s, who, Cond::Disoriented)
        || terrain_step_cost(&s.setup.map, from, from.step(dir)).map_or(0, |c| c.drop) >= 2
}

/// Where the current character may `move` to, with the cost (the Weaver's exemption included).
pub fn reachable(s: &State, who: Cid, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
    let Some(start) = s.ch(who).pos else { return Vec::new() };
    MoveCtx::new(s, who).destinations(start, movement_left(s), scratch)
}

/// Who moves and from where, when a `move` is possible now at all: everything [`check`] asks
/// of a `move` in the Move step before it looks at the square and the path.
fn move_start(s: &State, at: Option<&Stage>, say: Say) -> Result<(Cid, Pos), Reject> {
    let who = moving(s, at, say)?;
    if calc::has(s, who, Cond::Disoriented) {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "a Disoriented character moves one step at a time (use step)",
        ));
    }
    let from = s
        .ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    Ok((who, from))
}

/// Every square a `move` of the Move step may go to now (`st` is the [`stage`]), with its cost,
/// in the order of [`reachable`]: exactly the squares `p` whose `Move(p)` [`check`] accepts,
/// found with one reachability search where checking each square runs a path search of its own
/// (the cheapest path to a square exists within the budget exactly when the search reaches it).
pub fn moves(s: &State, st: &Stage, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return Vec::new();
    };
    // The search's destinations are squares other than `from` the mover may stop on, the rest
    // of the check (`MoveCtx` agrees with `can_stop`, checked in debug builds).
    let v = reachable(s, who, scratch);
    debug_assert!(v.iter().all(|&(p, _)| p != from && can_stop(s, who, p)));
    v
}

/// Every `move` of the Move step [`check`] accepts now (`st` is the [`stage`]), each with the
/// plan it gives, in the order of [`moves`]: found with one reachability search, each path read
/// off it.
pub fn move_answers(s: &State, st: &Stage, scratch: &mut PathScratch, out: &mut Vec<Answer<Thrum>>) {
    if s.outcome.is_some() {
        return;
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, movement_left(s), scratch, |_| true, out);
}

/// Every `move` answering a move prompt ([`Stage::MovePrompt`]: `who`, `budget`, `toward`)
/// [`check`] accepts, each with the plan it gives, in the order of [`reach_for`]: found with one
/// reachability search, each path read off it.
pub fn prompt_move_answers(
    s: &State,
    who: Cid,
    budget: i16,
    toward: Option<Cid>,
    scratch: &mut PathScratch,
    out: &mut Vec<Answer<Thrum>>,
) {
    if s.outcome.is_some() {
        return;
    }
    let Ok(from) = prompt_move_start(s, who, Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, budget, scratch, |p| toward_ok(s, from, p, toward), out);
}

/// Where the mover answering a move prompt stands, when it may move at all.
fn prompt_move_start(s: &State, who: Cid, say: Say) -> Result<Pos, Reject> {
    if calc::has(s, who, Cond::Immobilized) {
        return Err(no(say, codes::IMMOBILIZED, || {
            format!("{} is Immobilized", s.name(who))
        }));
    }
    s.ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))
}

/// Whether a prompted move from `from` to `to` keeps to its direction: a move toward a
/// character may not end farther from it than the mover stands now.
fn toward_ok(s: &State, from: Pos, to: Pos, toward: Option<Cid>) -> bool {
    match toward.and_then(|t| s.ch(t).pos) {
        Some(tp) => dist(s, to, tp) <= dist(s, from, tp),
        None => true,
    }
}

/// Checks a command against the rules: its [`Plan`], or why it is refused, in a sentence.
pub fn check(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    check_in(s, stage(s).as_ref(), cmd)
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, st: Option<&Stage>, cmd: &Command) -> Result<Plan, Reject> {
    check_rules(s, st, cmd, Say::Sentence).map_err(|r| already_done(s, st, cmd, &r, Say::Sentence).unwrap_or(r))
}

/// [`check`] without the sentence: the same plan, or the refusal's code only, the same code
/// [`check`] gives, and nothing formatted.
pub fn check_code(s: &State, cmd: &Command) -> Result<Plan, &'static str> {
    let st = stage(s);
    check_rules(s, st.as_ref(), cmd, Say::Code)
        .map_err(|r| already_done(s, st.as_ref(), cmd, &r, Say::Code).unwrap_or(r).code)
}

/// Whether [`check`] accepts a command, without formatting a refusal.
pub fn allowed(s: &State, cmd: &Command) -> bool {
    check_rules(s, stage(s).as_ref(), cmd, Say::Code).is_ok()
}

/// [`allowed`] under the stage `st` of `s` the caller has already worked out.
pub fn allowed_in(s: &State, st: &Stage, cmd: &Command) -> bool {
    check_rules(s, Some(st), cmd, Say::Code).is_ok()
}

/// The plan [`check`] gives a command it accepts, `None` for one it refuses (nothing formatted).
pub fn plan_of(s: &State, cmd: &Command) -> Option<Plan> {
    check_rules(s, stage(s).as_ref(), cmd, Say::Code).ok()
}

/// [`plan_of`] under the stage `st` of `s` the caller has already worked out: what the legal
/// list asks of each candidate, the stage worked out once for the whole list.
pub fn plan_in(s: &State, st: &Stage, cmd: &Command) -> Option<Plan> {
    check_rules(s, Some(st), cmd, Say::Code).ok()
}

/// A refused command typed for a step fray took by itself while resolving the last command (a
/// defence that was the only choice, a trigger not offered) is refused with what happened
/// instead of the usual reason. Only refusals change: what is legal stays the same.
fn already_done(s: &State, st: Option<&Stage>, cmd: &Command, r: &Reject, say: Say) -> Option<Reject> {
    if s.auto.is_empty() || !matches!(r.code, "not-now" | "unknown-ability") {
        return None;
    }
    match cmd {
        // While a defence is being asked, `defend` answers that question.
        Command::Defend(_) | Command::DefendWith(..) if !matches!(st, Some(Stage::Defence { .. })) => {
            s.auto.iter().rev().find_map(|a| match a {
                AutoStep::Defence { who, defence, why } => Some(no(say, codes::NOT_NOW, || {
                    format!(
                        "{}'s defence was already taken for it: {}, the only choice ({})",
                        s.name(*who),
                        crate::text::cap(defence.name()),
                        crate::text::only_defence_why(s, *who, *why)
                    )
                })),
                _ => None,
            })
        }
        Command::Trigger(id) => s.auto.iter().rev().find_map(|a| match a {
            AutoStep::NotOffered {
                who,
                ability,
                about,
                why,
            } if ability == id => Some(no(say, codes::NOT_NOW, || {
                format!(
                    "{}'s {} was not offered (about {}): {}",
                    s.name(*who),
                    s.setup.book.get(*ability).name,
                    s.name(*about),
                    crate::text::not_offered_why(s, *who, *why)
                )
            })),
            _ => None,
        }),
        _ => None,
    }
}

/// The rules under the stage `st` ([`stage`] of `s`): the one dispatch on what is asked.
fn check_rules(s: &State, st: Option<&Stage>, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    if s.outcome.is_some() {
        return Err(no(say, Reject::GAME_OVER, || "the combat is over"));
    }
    indices(s, cmd, say)?;
    // GM rulings are no stage: accepted whatever the game waits for.
    if let Command::Gm(r) = cmd {
        return check_ruling(s, r, say).map(|()| Plan::Plain);
    }
    match st {
        Some(st) if st.in_resolution() => check_in_frame(s, st, cmd, say),
        Some(st) => check_turn(s, Some(st), cmd, say),
        // Nothing is asked: a frame on the stack goes on by itself, or the turn is over (the
        // refusals of a turn's commands then say so).
        None if !s.stack.is_empty() => Err(another_decision(say)),
        None => check_turn(s, None, cmd, say),
    }
}

/// The commands of a turn, under its stage `at` (a [`Stage::Slot`], [`Stage::Place`],
/// [`Stage::Turn`] or [`Stage::Stance`]; `None` once the turn is over).
fn check_turn(s: &State, at: Option<&Stage>, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    // The turn's combatant, for the refusals (the stages that accept name it too).
    let who = s.turn.who;
    match (cmd, at) {
        (Command::Begin, Some(Stage::Slot { .. })) => Ok(Plan::Plain),
        (Command::Begin, _) if s.turn.began_by_itself => Err(no(say, codes::NOT_NOW, || {
            format!("{}'s turn already began by itself (the only choice)", s.name(who))
        })),
        (Command::Begin, Some(Stage::Turn { .. } | Stage::Stance { .. } | Stage::Place { .. })) => {
            Err(no(say, codes::NOT_NOW, || {
                format!("{}'s turn has already begun", s.name(who))
            }))
        }
        (Command::Delay(after), Some(&Stage::Slot { who })) => check_delay(s, who, *after, say).map(|()| Plan::Plain),
        (Command::Delay(_), _) if s.phase == Phase::Rounds => {
            if s.order.slot(who).is_some_and(|sl| sl.delayed) {
                Err(no(say, codes::CANNOT_DELAY, || {
                    format!("{} has already delayed this round and must act now", s.name(who))
                }))
            } else {
                Err(no(
                    say,
                    codes::CANNOT_DELAY,
                    || "a Delay must be declared when the slot comes up, before the turn begins",
                ))
            }
        }
        (Command::Place(p), Some(Stage::Place { .. })) => {
            let cell = s
                .setup
                .map
                .get(*p)
                .ok_or_else(|| no(say, codes::BLOCKED, || format!("{p} is off the map")))?;
            if cell.blocked {
                return Err(no(say, codes::BLOCKED, || format!("{p} is blocked")));
            }
            if s.occupant(*p).is_some() {
                return Err(no(say, codes::OCCUPIED, || format!("{p} is occupied")));
            }
            let fallback = s.options.start_area_too_small == StartAreaTooSmall::AnyEmptySquare && start_area_full(s);
            if !(cell.start || fallback) {
                return Err(no(say, codes::NOT_IN_START_AREA, || {
                    format!("{p} is not in the Starting Area")
                }));
            }
            Ok(Plan::Plain)
        }
        (Command::Move(to), Some(Stage::Turn { .. })) => {
            let (who, from) = move_start(s, at, say)?;
            if *to == from {
                return Err(no(say, codes::INVALID_TARGET, || "already there"));
            }
            on_map(s, *to, say)?;
            if !can_stop(s, who, *to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is not an empty square")
                }));
            }
            let budget = movement_left(s).max(0);
            match path_for(s, who, from, *to, budget) {
                Some((path, cost)) => Ok(Plan::Move { path, cost }),
                None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("{to} cannot be reached with {budget} movement left")
                })),
            }
        }
        (Command::Step { dir, roll }, Some(Stage::Turn { .. })) => {
            let who = moving(s, at, say)?;
            let from = s
                .ch(who)
                .pos
                .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
            let to = from.step(*dir);
            let disoriented = calc::has(s, who, Cond::Disoriented);
            if let Some(a) = roll {
                if !matches!(a, Attr::End | Attr::Ref) {
                    return Err(no(say, codes::BAD_PICK, || "the drop roll uses END or REF"));
                }
                if !step_may_roll(s, who, from, *dir) {
                    return Err(no(
                        say,
                        codes::BAD_PICK,
                        || "a roll is only possible when stepping down 2 or more levels",
                    ));
                }
            }
            let (cost, weaves) = weave(step_price(s, who, from, to, roll.is_some(), say)?, exemption(s, who));
            if !can_stop(s, who, to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is occupied; use move to pass through allies")
                }));
            }
            let left = movement_left(s);
            if cost > left && !(s.options.partial_steps && left > 0) && !disoriented {
                return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("that step costs {cost} and {left} movement is left")
                }));
            }
            if disoriented && left <= 0 {
                return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || "no movement left"));
            }
            // A Disoriented character's step goes where its roll sends it, priced then.
            Ok(if disoriented {
                Plan::Plain
            } else {
                Plan::Step { cost, weaves }
            })
        }
        (Command::Act(a), Some(st @ &Stage::Turn { who, dash: false })) => check_action(s, st, who, a, say),
        (Command::Act(_), Some(Stage::Slot { .. })) => Err(no(say, codes::NOT_NOW, || {
            format!("{}'s turn has not begun: type begin (or delay) first", s.name(who))
        })),
        (Command::Act(_), Some(Stage::Place { .. })) => Err(no(say, codes::NOT_NOW, || {
            format!(
                "{} must pick a starting square first (no Actions in Round Zero)",
                s.name(who)
            )
        })),
        (Command::Act(_), _) => Err(no(
            say,
            codes::NOT_NOW,
            || "the Action has already been taken or skipped this turn",
        )),
        (Command::Stance(id), Some(st @ (Stage::Turn { .. } | Stage::Stance { .. }))) => {
            check_stop_here(s, st, who, say)?;
            let a = s.setup.book.get(*id);
            if a.kind != Kind::Stance || !has_ability(s, who, *id) {
                return Err(no(say, codes::UNKNOWN_ABILITY, || {
                    format!("{} has no stance '{}'", s.name(who), a.id)
                }));
            }
            if s.phase == Phase::RoundZero && !s.is_pc(who) && !s.options.npc_round_zero_stance {
                return Err(no(say, codes::NOT_NOW, || "NPCs take no Stance in Round Zero"));
            }
            if !s.options.reenter_ended_stance && s.ch(who).stance_ended == Some(*id) {
                return Err(no(
                    say,
                    codes::NOT_NOW,
                    || "that Stance ended since the last turn and cannot be entered again yet",
                ));
            }
            if !s.ch(who).able() {
                return Err(no(
                    say,
                    codes::NOT_NOW,
                    || "an Incapacitated character cannot take a Stance",
                ));
            }
            if s.ch(who).stance == Some(*id) {
                return Err(no(
                    say,
                    codes::INVALID_TARGET,
                    || "already in that Stance (use end to keep it)",
                ));
            }
            no_action_ok(s, st, say).map(|()| Plan::Plain)
        }
        (Command::EndTurn, Some(st @ (Stage::Turn { .. } | Stage::Stance { .. }))) => {
            check_stop_here(s, st, who, say)?;
            no_action_ok(s, st, say).map(|()| Plan::Plain)
        }
        _ => Err(no(say, codes::NOT_NOW, || {
            format!("that command is not possible now ({})", step_name(at))
        })),
    }
}

/// Refuses a command whose combatant, ability, side or option index is out of range (a
/// command read from a record is untrusted input), before anything looks it up.
fn indices(s: &State, cmd: &Command, say: Say) -> Result<(), Reject> {
    let chars = s.chars.len();
    let abilities = s.setup.book.abilities.len();
    let who = |c: Cid| -> Result<(), Reject> {
        if (c as usize) < chars {
            Ok(())
        } else {
            Err(no(say, codes::INVALID_TARGET, || {
                format!("there is no combatant {c} ({chars} combatants)")
            }))
        }
    };
    let ability = |a: crate::ability::AbilityId| -> Result<(), Reject> {
        if (a as usize) < abilities {
            Ok(())
        } else {
            Err(no(say, codes::UNKNOWN_ABILITY, || {
                format!("there is no ability {a} ({abilities} abilities)")
            }))
        }
    };
    match cmd {
        Command::Delay(Some(c)) => who(*c),
        Command::Act(a) => {
            ability(a.ability)?;
            if let Target::Chars(l) = &a.target {
                l.iter().try_for_each(|c| who(*c))?;
            }
            Ok(())
        }
        Command::Stance(a) | Command::Trigger(a) | Command::DefendWith(_, a) => ability(*a),
        Command::Gm(r) => match r {
            Ruling::Adjust { who: c, .. }
            | Ruling::Other(ThrumRuling::Status { who: c, .. })
            | Ruling::Other(ThrumRuling::Incapacitate { who: c, .. })
            | Ruling::Move { who: c, .. }
            | Ruling::Remove { who: c } => who(*c).map_err(|r| no(say, codes::BAD_RULING, || r.reason)),
            Ruling::Add { side, .. } if *side as usize >= s.setup.sides.len() => {
                Err(no(say, codes::BAD_RULING, || "no such side"))
            }
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// What a turn's stage `at` asks, for a refusal (`None`: the turn is over).
fn step_name(at: Option<&Stage>) -> &'static str {
    match at {
        Some(Stage::Slot { .. }) => "the slot has come up: begin or delay",
        Some(Stage::Place { .. }) => "pick a starting square",
        Some(Stage::Turn { dash: false, .. }) => "move, act, take a stance or end the turn",
        Some(Stage::Turn { dash: true, .. }) => "move, take a stance or end the turn",
        Some(Stage::Stance { .. }) => "take a stance or end the turn",
        // Only a turn's stages come here.
        _ => "the turn is over",
    }
}

/// With `allow-no-action = false` an able character must take its Action before its Stance
/// step or the end of its turn, but only while it has a legal Action: one that can take none
/// (Stunned after moving, THR-R218, or nothing usable) goes on without it, so the turn can
/// always end.
fn no_action_ok(s: &State, st: &Stage, say: Say) -> Result<(), Reject> {
    // THR-R31: the requirement lapses when no Action is legal (THR-R218: Stunned and moved).
    if s.phase == Phase::Rounds
        && matches!(st, Stage::Turn { dash: false, .. })
        && !s.options.allow_no_action
        && s.ch(s.turn.who).able()
        && crate::legal::any_action(s, st, s.turn.who)
    {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "taking no Action is not allowed (allow-no-action = false)",
        ));
    }
    Ok(())
}

/// Refuses to end movement on a square another character fills (THR-R55) while the mover can
/// still move off it. Filling is the notion the moves offered use ([`can_stop`],
/// `State::occupant`): with `incapacitated-occupy = false` an Incapacitated character fills
/// nothing (THR-R182), so a move onto its square may be stopped on; if it then revives there,
/// both share the square, and one that can no longer move (its movement is over after its
/// Action, THR-R37, or it is Immobilized) stays rather than being left with nothing legal.
fn check_stop_here(s: &State, st: &Stage, who: Cid, say: Say) -> Result<(), Reject> {
    let fills = |c: &crate::state::Char| c.present() && (!c.incapacitated || s.options.incapacitated_occupy);
    // THR-R55, THR-R37: only while a move off the square is still possible.
    let can_leave = || {
        !with_scratch(|sc| moves(s, st, sc)).is_empty()
            || Dir::ALL
                .iter()
                .any(|d| allowed_in(s, st, &Command::Step { dir: *d, roll: None }))
    };
    if let Some(p) = s.ch(who).pos
        && s.chars
            .iter()
            .enumerate()
            .any(|(i, c)| i as Cid != who && c.pos == Some(p) && fills(c))
        && can_leave()
    {
        return Err(no(
            say,
            codes::CANNOT_STOP_HERE,
            || "a character cannot stop in an ally's square",
        ));
    }
    Ok(())
}

fn start_area_full(s: &State) -> bool {
    !s.setup
        .map
        .positions()
        .any(|p| s.setup.map.get(p).is_some_and(|c| c.start && !c.blocked) && s.occupant(p).is_none())
}

fn check_delay(s: &State, who: Cid, after: Option<Cid>, say: Say) -> Result<(), Reject> {
    let c = s.ch(who);
    if c.incapacitated && !s.options.incapacitated_may_delay {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "an Incapacitated character may not Delay",
        ));
    }
    if s.options.delay_limit == DelayLimit::OncePerCombat && c.delays > 0 {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "a character may Delay only once per combat (delay-limit)",
        ));
    }
    let explain = |e: DelayError| match e {
        DelayError::AlreadyDelayed => no(say, codes::CANNOT_DELAY, || {
            format!("{} has already delayed this round", s.name(who))
        }),
        DelayError::NothingLater => no(say, codes::CANNOT_DELAY, || "nobody acts later this round"),
        DelayError::NotLater => no(
            say,
            codes::CANNOT_DELAY,
            || "a Delay must name someone who acts later and has not acted this round",
        ),
        DelayError::NotCurrent => no(say, codes::CANNOT_DELAY, || "it is not this character's slot"),
    };
    s.order.can_delay(who).map_err(explain)?;
    match after {
        None if !s.options.delay_to_end => Err(no(
            say,
            codes::CANNOT_DELAY,
            || "delaying to the end of the round is off (delay-to-end)",
        )),
        None => Ok(()),
        Some(t) => {
            if s.order.later_waiting().any(|x| x == t) {
                Ok(())
            } else {
                Err(explain(DelayError::NotLater))
            }
        }
    }
}

/// The characters an action affects, in resolution order, or why it is illegal.
pub fn action_targets(s: &State, user: Cid, act: &Action) -> Result<CharList, Reject> {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Sentence,
    )
}

/// Whether [`action_targets`] finds the action's targets legal (nothing formatted).
pub fn can_target(s: &State, user: Cid, act: &Action) -> bool {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Code,
    )
    .is_ok()
}

/// [`action_targets`], its refusal said as `say` asks.
fn targets(s: &State, user: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    debug_assert_eq!(range, range_of(s, user, a), "the range passed in is the ability's");
    let upos = s
        .ch(user)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    let single = |t: Cid, ok: bool, what: &str| -> Result<CharList, Reject> {
        single_target(s, user, a, range, t, ok, what, say)
    };
    let one = |list: &[Cid]| -> Result<Cid, Reject> {
        match list {
            [t] => Ok(*t),
            _ => Err(no(say, codes::INVALID_TARGET, || {
                format!("{} takes exactly one target", a.id)
            })),
        }
    };
    match (&a.target, &act.target) {
        // Self is the user (THR-R88); the kinds of one character are in `of_kind`.
        (TargetSpec::SelfOnly, Target::None) => Ok(CharList::from_slice(&[user])),
        (TargetSpec::Ally, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally")
        }
        (TargetSpec::AllyOrSelf, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally or yourself")
        }
        (TargetSpec::Enemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an enemy")
        }
        (TargetSpec::Character, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "a character")
        }
        (TargetSpec::IncapacitatedAlly, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated ally")
        }
        (TargetSpec::IncapacitatedEnemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated enemy")
        }
        (TargetSpec::UpToEnemies(n), Target::Chars(l)) => {
            if l.is_empty() || l.len() > *n as usize {
                return Err(no(say, codes::INVALID_TARGET, || {
                    format!("{} takes 1 to {n} enemies", a.id)
                }));
            }
            let ordered = if s.options.distinct_targets {
                l.windows(2).all(|w| w[0] < w[1])
            } else {
                l.windows(2).all(|w| w[0] <= w[1])
            };
            if !ordered {
                return Err(no(
                    say,
                    codes::INVALID_TARGET,
                    || "list each target once, in the order the encounter lists them (the prompt shows the accepted form)",
                ));
            }
            for t in l {
                single(*t, of_kind(s, user, &a.target, *t), "an enemy")?;
            }
            Ok(l.clone())
        }
        (TargetSpec::AllEnemies, Target::None) => Ok(all_enemies(s, user, range)),
        (TargetSpec::Square, Target::Square(p)) => {
            if !in_range(s, user, range, *p) {
                return Err(no(say, codes::OUT_OF_RANGE, || format!("{p} is out of range")));
            }
            on_map(s, *p, say)?;
            let free = s.setup.map.get(*p).is_some_and(|c| !c.blocked);
            let occupant = s.occupant(*p);
            let swap_ok = !s.options.teleport_needs_empty && occupant.is_some_and(|o| s.allies(user, o));
            if !free || (occupant.is_some() && !swap_ok) {
                return Err(no(say, codes::OCCUPIED, || format!("{p} is not an empty square")));
            }
            // Lines of a square-targeted ability (a teleport) apply to the user.
            Ok(CharList::from_slice(&[user]))
        }
        (spec, target) if spec.is_shape() => {
            let squares = shape_squares(s, user, act, upos).ok_or_else(|| {
                no(say, codes::INVALID_TARGET, || {
                    format!("{} needs {}", a.id, shape_hint(spec))
                })
            })?;
            let _ = target;
            if squares.is_empty() {
                return Err(no(say, codes::INVALID_TARGET, || "the shape lies entirely off the map"));
            }
            // Auras sit on the user and Line ∞ starts next to it: neither needs a range check.
            if !matches!(spec, TargetSpec::Aura(_) | TargetSpec::LineToEdge) {
                // THR-R80, THR-R81: some square within range (the user's own for Range 0).
                let r = range.unwrap_or(0);
                let ok = if r == 0 {
                    squares.contains(&upos)
                } else {
                    squares.iter().any(|p| in_range(s, user, range, *p))
                };
                if !ok && r == 0 {
                    // THR-R48, THR-R80: Range 0 reaches only the user's own square.
                    return Err(no(say, codes::OUT_OF_RANGE, || {
                        format!(
                            "{} has Range 0: its area must include its user's square ({upos})",
                            a.name
                        )
                    }));
                }
                if !ok {
                    return Err(no(
                        say,
                        codes::OUT_OF_RANGE,
                        || "no square of the shape is within range",
                    ));
                }
            }
            if calc::rolls(s, a) {
                // THR-R129, THR-R130: the shape needs at least one square that is not Obstructed.
                if squares.iter().all(|p| obstructed(s, user, a, *p)) {
                    return Err(no(say, codes::OBSTRUCTED, || "every square of the shape is Obstructed"));
                }
            }
            Ok(shape_hits(s, user, spec, &squares))
        }
        (spec, _) => Err(no(say, codes::INVALID_TARGET, || {
            format!("{} needs {}", a.id, shape_hint(spec))
        })),
    }
}

/// The enemies of `user` an ability that targets all of them within `range` affects.
fn all_enemies(s: &State, user: Cid, range: Option<i16>) -> CharList {
    s.ids()
        .filter(|&t| s.enemies(user, t) && targetable(s, t))
        .filter(|&t| range.is_none() || s.ch(t).pos.is_some_and(|p| in_range(s, user, range, p)))
        .collect()
}

/// The characters on a shape's `squares` that an ability of target kind `spec` used by `user`
/// affects: in turn order (the first slot of each), those without a slot last, by id.
fn shape_hits(s: &State, user: Cid, spec: &TargetSpec, squares: &[Pos]) -> CharList {
    let aura = matches!(spec, TargetSpec::Aura(_));
    let on_shape = square_set(squares);
    let hit = s.in_turn_order(|t| {
        targetable(s, t) && s.ch(t).pos.is_some_and(|p| on_shape(&p)) && !(aura && t == user) // THR-R82
    });
    hit.into_iter().collect()
}

fn shape_hint(spec: &TargetSpec) -> &'static str {
    match spec {
        TargetSpec::SelfOnly | TargetSpec::AllEnemies | TargetSpec::Aura(_) => "no target",
        TargetSpec::Area(_) => "an area: area x,y (its south-west corner)",
        TargetSpec::Line(_) => "a line: line x,y <dir>",
        TargetSpec::LineToEdge => "a direction: toward <dir>",
        TargetSpec::Square => "a square: at x,y",
        TargetSpec::UpToEnemies(_) => "one or more enemy ids separated by commas",
        _ => "one target id",
    }
}

/// Whether [`action_targets`] may accept the one character `t` as the target of an ability
/// aimed as `spec` by `user`: `false` only where it refuses `t` whatever else holds (a
/// character off the map or out of the fight, of the wrong side, not Incapacitated where that
/// is asked, or not targetable). The legal list, which tries every character, passes over
/// those first.
pub fn may_target(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    let one_character = matches!(
        spec,
        TargetSpec::Ally
            | TargetSpec::AllyOrSelf
            | TargetSpec::Enemy
            | TargetSpec::UpToEnemies(_)
            | TargetSpec::Character
            | TargetSpec::IncapacitatedAlly
            | TargetSpec::IncapacitatedEnemy
    );
    if !one_character {
        return true;
    }
    (t as usize) < s.chars.len() && of_kind(s, user, spec, t) && aimable(s, spec, t)
}

/// Whether `t` is of the kind of character `spec` asks for, seen from `user`: Ally and Enemy
/// follow `State::allies` and `State::enemies` (THR-R89, THR-R90); a Character is Self, an
/// Ally or an Enemy (THR-R91); the Incapacitated kinds ask for that too.
fn of_kind(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    match spec {
        TargetSpec::Ally => s.allies(user, t),
        TargetSpec::AllyOrSelf => t == user || s.allies(user, t),
        TargetSpec::Enemy | TargetSpec::UpToEnemies(_) => s.enemies(user, t),
        TargetSpec::Character => true,
        TargetSpec::IncapacitatedAlly => s.allies(user, t) && s.ch(t).incapacitated,
        TargetSpec::IncapacitatedEnemy => s.enemies(user, t) && s.ch(t).incapacitated,
        _ => false,
    }
}

/// Whether a character of the right kind can be aimed at as `spec`'s target at all: in the
/// fight, on the map and targetable (THR-R93; an Incapacitated kind asks for one anyway).
fn aimable(s: &State, spec: &TargetSpec, t: Cid) -> bool {
    let needs_incap = matches!(spec, TargetSpec::IncapacitatedAlly | TargetSpec::IncapacitatedEnemy);
    s.ch(t).present() && s.ch(t).pos.is_some() && (needs_incap || targetable(s, t))
}

/// Whether a character can be picked as a target at all (THR-R93).
pub fn targetable(s: &State, t: Cid) -> bool {
    let c = s.ch(t);
    c.present() && c.pos.is_some() && (!c.incapacitated || s.options.incapacitated_targetable)
}

#[allow(clippy::too_many_arguments)] // the target's facts, and how to say a refusal
fn single_target(
    s: &State,
    user: Cid,
    a: &Ability,
    range: Option<i16>,
    t: Cid,
    ok: bool,
    what: &str,
    say: Say,
) -> Result<CharList, Reject> {
    if t as usize >= s.chars.len() {
        return Err(no(say, codes::INVALID_TARGET, || "no such combatant"));
    }
    if !ok || !aimable(s, &a.target, t) {
        return Err(no(say, codes::INVALID_TARGET, || {
            format!("{} must target {what}", a.id)
        }));
    }
    let Some(from) = s.ch(user).pos else {
        return Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        }));
    };
    match calc::aim_from(s, user, a, range, t, from) {
        Ok(()) => Ok(CharList::from_slice(&[t])),
        Err(AimFail::Range) => Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        })),
        Err(AimFail::Obstructed) => Err(no(say, codes::OBSTRUCTED, || {
            format!("{} is Obstructed from {}", s.name(t), s.name(user))
        })),
        Err(AimFail::Wall) => Err(no(say, codes::OBSTRUCTED, || {
            format!("a wall blocks the line to {}", s.name(t))
        })),
    }
}

/// The size of an area after Overexert.
pub fn area_size(s: &State, user: Cid, act: &Action) -> i16 {
    let a = s.setup.book.get(act.ability);
    if let Some(o) = act.overexert.and_then(|i| a.overexert.get(i as usize))
        && let Some(size) = &o.area
    {
        return calc::eval(s, user, size);
    }
    match &a.target {
        TargetSpec::Area(x) | TargetSpec::Line(x) | TargetSpec::Aura(x) => calc::eval(s, user, x),
        _ => 0,
    }
}

/// Whether a square is one of `squares` (a shape's), tested for many characters: the first 16
/// are packed into a fixed array compared all at once, the rest (rare) one by one.
fn square_set(squares: &[Pos]) -> impl Fn(&Pos) -> bool + '_ {
    let pack = |p: &Pos| u32::from(p.x as u16) << 16 | u32::from(p.y as u16);
    // `u32::MAX` packs (-1, -1), which no shape square is (shapes are clipped to the map), and
    // stands for "no square" in the unused slots.
    let mut first = [u32::MAX; 16];
    for (slot, p) in first.iter_mut().zip(squares) {
        *slot = pack(p);
    }
    let rest = squares.get(16..).unwrap_or(&[]);
    move |p: &Pos| {
        let k = pack(p);
        let found = k != u32::MAX && first.iter().fold(false, |any, &q| any | (q == k)) || rest.contains(p);
        debug_assert_eq!(found, squares.contains(p));
        found
    }
}

/// The squares of a shape, as [`shape_squares`] gives them.
pub type ShapeSquares = smallvec::SmallVec<[Pos; 16]>;

/// The squares of a shape (clipped to the map), or `None` if the target kind does not fit.
/// Shapes of up to 16 squares are held inline: the legal list tries hundreds of placements per
/// decision.
pub fn shape_squares(s: &State, user: Cid, act: &Action, upos: Pos) -> Option<ShapeSquares> {
    let a = s.setup.book.get(act.ability);
    let map = &s.setup.map;
    let size = area_size(s, user, act).max(1) as u16;
    let on_map = |p: &Pos| map.contains(*p);
    let v: ShapeSquares = match (&a.target, &act.target) {
        // THR-R78: Area X is the X-by-X block on the grid (from its south-west corner).
        (TargetSpec::Area(_), Target::Area(anchor)) => fray_space::area(*anchor, size).filter(on_map).collect(),
        // THR-R79: Line X is X consecutive squares along a row, a column or a diagonal.
        (TargetSpec::Line(_), Target::Line(start, dir)) => {
            fray_space::line(*start, *dir, size).filter(on_map).collect()
        }
        (TargetSpec::LineToEdge, Target::Toward(dir)) => {
            let start = match s.options.infinite_line {
                InfiniteLine::Adjacent => upos.step(*dir),
                InfiniteLine::UserSquare => upos,
            };
            if !map.contains(start) {
                return Some(ShapeSquares::new());
            }
            fray_space::line_to_edge(map, start, *dir).filter(on_map).collect()
        }
        // THR-R82, THR-R84: Aura X is every square within X of the user but its own (Aura 1:
        // 8 squares, Aura 2: 24).
        (TargetSpec::Aura(_), Target::None) => fray_space::aura(upos, size).filter(on_map).collect(),
        _ => return None,
    };
    Some(v)
}

/// An Action of `who` under the stage `st` (its turn's Move step).
fn check_action(s: &State, st: &Stage, who: Cid, act: &Action, say: Say) -> Result<Plan, Reject> {
    action_use(s, st, who, act.ability, act.overexert, say)?;
    let range = range_of(s, who, s.setup.book.get(act.ability));
    let targets = action_aim(s, who, act, range, say)?;
    check_pick(s, who, s.setup.book.get(act.ability), act, &targets, say)?;
    Ok(Plan::Act { targets })
}

/// Whether [`check`] may accept an Action of the current character with this ability and
/// Overexert option, under the stage `st` (the [`stage`] of `s`), for some target and pick:
/// every part of its check that depends on neither. With [`action_aimed`] and [`pick_allowed`]
/// it is the check of an Action in three pieces, for the legal list, which tries many targets
/// and picks of one ability: [`allowed`] accepts an Action exactly when `action_open` holds,
/// `action_aimed` gives its targets and `pick_allowed` accepts its pick with them.
pub fn action_open(s: &State, st: &Stage, ability: AbilityId, overexert: Option<u8>) -> bool {
    s.outcome.is_none()
        && matches!(st, Stage::Turn { dash: false, .. })
        && (ability as usize) < s.setup.book.abilities.len()
        && action_use(s, st, s.turn.who, ability, overexert, Say::Code).is_ok()
}

/// For an Action whose [`action_open`] holds, the characters it affects (its [`Plan::Act`]) when
/// [`check`] may accept it with some pick: the part of its check that depends on its target and
/// not on its pick.
pub fn action_aimed(s: &State, act: &Action) -> Option<CharList> {
    let range = range_of(s, s.turn.who, s.setup.book.get(act.ability));
    action_aimed_in_range(s, act, range)
}

/// [`action_aimed`] with the ability's range for the current character (`calc::range_of`)
/// worked out by the caller, once for the many targets it tries.
pub fn action_aimed_in_range(s: &State, act: &Action, range: Option<i16>) -> Option<CharList> {
    if let Target::Chars(l) = &act.target
        && l.iter().any(|&c| c as usize >= s.chars.len())
    {
        return None;
    }
    action_aim(s, s.turn.who, act, range, Say::Code).ok()
}

/// For an Action whose [`action_aimed`] gave `targets`, whether [`check`] accepts its pick.
pub fn pick_allowed(s: &State, act: &Action, targets: &[Cid]) -> bool {
    let a = s.setup.book.get(act.ability);
    check_pick(s, s.turn.who, a, act, targets, Say::Code).is_ok()
}

/// The part of an Action's check that depends on neither its target nor its pick: the turn,
/// the ability and its user, Nova and Overexert.
fn action_use(
    s: &State,
    st: &Stage,
    who: Cid,
    ability: AbilityId,
    overexert: Option<u8>,
    say: Say,
) -> Result<(), Reject> {
    if s.phase != Phase::Rounds {
        return Err(no(say, codes::NOT_NOW, || "no Actions in Round Zero")); // THR-R21
    }
    if !s.ch(who).able() {
        return Err(no(say, codes::NOT_NOW, || "an Incapacitated character cannot act"));
    }
    if ability as usize >= s.setup.book.abilities.len() {
        return Err(no(say, codes::UNKNOWN_ABILITY, || "no such ability"));
    }
    let a = s.setup.book.get(ability);
    // THR-R30: the one Action of the turn (only in the Move step, see `check`) is a Basic
    // Combat Ability or an Action the character picked from a Combat Art.
    if a.kind != Kind::Action || !has_ability(s, who, ability) {
        return Err(no(say, codes::UNKNOWN_ABILITY, || {
            format!("{} cannot use '{}' as an Action", s.name(who), a.id)
        }));
    }
    // THR-R218: a Stunned character that moved may not also take its Action.
    if s.turn.stunned && s.options.draft_stunned && s.turn.moved {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    // Nova: enough Potential, spent at most once per combat (THR-R226).
    if let Some(nv) = a.nova {
        match s.ch(who).nova.iter().find(|n| n.ability == ability) {
            Some(n) if n.used => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} was already used this combat", a.name)
                }));
            }
            Some(n) if n.potential >= nv.cost => {}
            Some(n) => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} needs {} Potential and has {}", a.name, nv.cost, n.potential)
                }));
            }
            None => {
                return Err(no(say, codes::UNKNOWN_ABILITY, || {
                    format!("{} has no Potential for {}", s.name(who), a.name)
                }));
            }
        }
    }
    check_stop_here(s, st, who, say)?;
    // Overexert (THR-R132 to THR-R134).
    if let Some(o) = overexert {
        let Some(ov) = a.overexert.get(o as usize) else {
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} has no such Overexert option", a.id)
            }));
        };
        let cost = ov.stress.unwrap_or(s.options.overexert_stress);
        if !s.options.overexert_may_fray && s.ch(who).stress + cost > s.ch(who).st {
            return Err(no(
                say,
                codes::WOULD_FRAY,
                || "Overexert would make this character Frayed (overexert-may-fray = false)",
            ));
        }
    }
    Ok(())
}

/// The part of an Action's check that depends on its target and not on its pick: the
/// characters it affects, and for a teleport that uses movement, that much movement left.
fn action_aim(s: &State, who: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    let targets = targets(s, who, act, range, say)?;
    // A teleport that uses movement needs that much movement left (THR-R60).
    let uses_movement = a
        .effect
        .iter()
        .chain(&a.success)
        .any(|l| matches!(l.op, Op::Teleport { uses_movement: true }));
    if uses_movement && let (Some(from), Target::Square(to)) = (s.ch(who).pos, &act.target) {
        let cost = teleport_cost(s, from, *to);
        let left = movement_left(s);
        if cost > left {
            return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                format!("the teleport costs {cost} movement and {left} is left")
            }));
        }
    }
    Ok(targets)
}

/// Checks the user's picks for the ability's choices.
fn check_pick(s: &State, who: Cid, a: &Ability, act: &Action, targets: &[Cid], say: Say) -> Result<(), Reject> {
    let choose = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => Some(c),
        _ => None,
    });
    let pick = act.pick;
    let mut needs_dir = false;
    let mut needs_status = false;
    let mut scan = |ops: &[crate::ability::Line]| {
        for l in ops {
            match l.op {
                Op::Shift(_) => needs_dir = true,
                Op::EndStatus => needs_status = true,
                _ => {}
            }
        }
    };
    scan(&a.effect);
    scan(&a.success);
    scan(&a.critical);
    match (choose, pick.option) {
        (Some(c), Some(i)) => {
            let Some(choice) = c.get(i as usize) else {
                return Err(no(say, codes::BAD_PICK, || "no such option"));
            };
            scan(&choice.ops);
        }
        (Some(c), None) => {
            let labels: Vec<&str> = c.iter().map(|c| c.label.as_str()).collect();
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} needs: option {}", a.id, labels.join("|"))
            }));
        }
        (None, Some(_)) => return Err(no(say, codes::BAD_PICK, || format!("{} has no options", a.id))),
        (None, None) => {}
    }
    match (needs_dir, pick.dir) {
        (true, None) => {
            return Err(no(
                say,
                codes::BAD_PICK,
                || "that needs a direction: dir <n|ne|e|se|s|sw|w|nw>",
            ));
        }
        (false, Some(_)) => return Err(no(say, codes::BAD_PICK, || "no direction is needed")),
        (true, Some(d)) => {
            // The shifted target must be able to land there now.
            for &t in targets {
                let Some(p) = s.ch(t).pos else { continue };
                let to = p.step(d);
                if !can_stop(s, t, to) || s.occupant(to).is_some() {
                    return Err(no(say, codes::BLOCKED, || {
                        format!("{} cannot be moved to {to}", s.name(t))
                    }));
                }
            }
        }
        (false, None) => {}
    }
    match (needs_status, pick.status) {
        (true, None) => Err(no(say, codes::BAD_PICK, || "that needs a status: status <name>")),
        (false, Some(_)) => Err(no(say, codes::BAD_PICK, || "no status is needed")),
        (true, Some(st)) => {
            let t = targets.first().copied().unwrap_or(who);
            if is_negative(s, st) && status_on(s, t, st) {
                Ok(())
            } else {
                Err(no(say, codes::BAD_PICK, || {
                    format!("{} has no negative status '{}' to end", s.name(t), st.name())
                }))
            }
        }
        (false, None) => Ok(()),
    }
}

/// Whether a status counts as negative (THR-R193).
pub fn is_negative(s: &State, st: StatusRef) -> bool {
    match st {
        StatusRef::X(_) => true,
        StatusRef::Cond(c) => {
            c.is_negative() && s.options.negative_statuses == crate::options::NegativeStatuses::AllHarmful
        }
    }
}

/// Whether a character has a status or condition now.
pub fn status_on(s: &State, c: Cid, st: StatusRef) -> bool {
    match st {
        StatusRef::X(x) => s.ch(c).status(x) > 0,
        StatusRef::Cond(k) => s.ch(c).has(k),
    }
}

/// The decisions asked inside resolution, under their stage `st` (one whose
/// [`Stage::in_resolution`] holds).
fn check_in_frame(s: &State, st: &Stage, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    let plain = Ok(Plan::Plain);
    match (*st, cmd) {
        (Stage::Defence { defender, ability, .. }, Command::Defend(d)) => {
            check_defence(s, defender, ability, *d, say).map(|()| Plan::Plain)
        }
        (Stage::Trigger { holder, ability }, Command::Trigger(id)) => {
            let allowed = if s.options.controller_orders_own_triggers {
                crate::stage::offered(s, holder).any(|a| a == *id)
            } else {
                ability == *id
            };
            if allowed {
                plain
            } else {
                Err(no(say, codes::UNKNOWN_ABILITY, || "that trigger is not on offer"))
            }
        }
        (Stage::Defence { defender, ability, .. }, Command::DefendWith(d, b)) => {
            check_defence(s, defender, ability, *d, say)?;
            match s.ch(defender).buff {
                Some(buff) if buff.ability == *b && buff.uses > 0 => {
                    let spec = s.setup.book.get(buff.ability).buff_spec.as_ref();
                    if spec.is_some_and(|x| x.defence_bonus.is_some() || x.reduce_damage > 0) {
                        plain
                    } else {
                        Err(no(say, codes::BAD_PICK, || "that Buff does not help defence rolls"))
                    }
                }
                _ => Err(no(say, codes::BAD_PICK, || {
                    format!("{} has no usable Buff '{}'", s.name(defender), s.setup.book.get(*b).id)
                })),
            }
        }
        (Stage::Trigger { .. }, Command::Pass) => plain,
        (Stage::Reroll { .. }, Command::Reroll | Command::Pass) => plain,
        (Stage::MovePrompt { .. }, Command::Pass) => plain,
        (Stage::MovePrompt { who, budget, toward }, Command::Move(to)) => {
            let from = prompt_move_start(s, who, say)?;
            if *to == from {
                return Err(no(say, codes::INVALID_TARGET, || "already there (use pass to stay)"));
            }
            on_map(s, *to, say)?;
            if !can_stop(s, who, *to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is not an empty square")
                }));
            }
            if let Some(t) = toward
                && !toward_ok(s, from, *to, Some(t))
            {
                return Err(no(say, codes::INVALID_TARGET, || {
                    format!("{to} is farther from {} than where {} stands", s.name(t), s.name(who))
                }));
            }
            match path_for(s, who, from, *to, budget) {
                Some((path, cost)) => Ok(Plan::Move { path, cost }),
                None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("{to} cannot be reached with {budget} movement")
                })),
            }
        }
        (Stage::BuffReplace { .. }, Command::Accept | Command::Decline) => plain,
        (Stage::Keep { .. } | Stage::Upkeep { .. }, Command::Keep | Command::Release) => plain,
        _ => Err(another_decision(say)),
    }
}

/// Whether `defender` may defend with `d` against `ability`.
fn check_defence(s: &State, defender: Cid, ability: AbilityId, d: Defence, say: Say) -> Result<(), Reject> {
    let a = s.setup.book.get(ability);
    if calc::defences(s, defender, a).contains(&d) {
        Ok(())
    } else {
        Err(no(say, codes::BAD_PICK, || {
            format!(
                "{} cannot defend with {} against {}",
                s.name(defender),
                d.name(),
                a.name
            )
        }))
    }
}

/// The refusal of a command that answers nothing asked inside resolution.
fn another_decision(say: Say) -> Reject {
    no(say, codes::NOT_NOW, || "another decision is pending (see the prompt)")
}

fn check_ruling(s: &State, r: &Ruling, say: Say) -> Result<(), Reject> {
    let known = |c: Cid| (c as usize) < s.chars.len();
    match r {
        Ruling::Adjust { who, gauge, by } => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let v = by.apply(crate::event::gauge(s.ch(*who), *gauge));
            let min = match gauge {
                Gauge::FatigueTolerance | Gauge::StressTolerance => s.options.tolerance_floor,
                Gauge::Initiative => i16::MIN,
                _ => 0,
            };
            if v < min {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} cannot go below {min}", gauge.name())
                }));
            }
            if *gauge == Gauge::Wounds && v > 3 {
                return Err(no(say, codes::BAD_RULING, || "wounds go from 0 to 3"));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Status { who, status, by }) => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let old = if status_on(s, *who, *status) {
                match status {
                    StatusRef::X(x) => s.ch(*who).status(*x) as i16,
                    StatusRef::Cond(_) => 1,
                }
            } else {
                0
            };
            let v = by.apply(old);
            let max = if matches!(status, StatusRef::Cond(_)) { 1 } else { 255 };
            if !(0..=max).contains(&v) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} must end between 0 and {max}", status.name())
                }));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Incapacitate { who, on }) => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if s.ch(*who).incapacitated == *on {
                return Err(no(say, codes::BAD_RULING, || {
                    if *on {
                        "already Incapacitated"
                    } else {
                        "not Incapacitated"
                    }
                }));
            }
            Ok(())
        }
        Ruling::Move { who, to } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if !can_stop(s, *who, *to) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{to} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Add { id, template, side, at } => {
            if s.find(id).is_some()
                || id.is_empty()
                || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("'{id}' is taken or not a valid id")
                }));
            }
            if !s.setup.templates.contains_key(template) {
                let names: Vec<&str> = s.setup.templates.keys().map(String::as_str).collect();
                return Err(no(say, codes::BAD_RULING, || {
                    format!("no template '{template}' (templates: {})", names.join(", "))
                }));
            }
            if *side as usize >= s.setup.sides.len() {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            if s.chars.len() >= 64 {
                return Err(no(say, codes::BAD_RULING, || "at most 64 combatants"));
            }
            if s.setup.map.get(*at).is_none_or(|c| c.blocked) || s.occupant(*at).is_some() {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{at} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Remove { who } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            Ok(())
        }
        Ruling::End { winner } => {
            if winner.is_some_and(|w| w as usize >= s.setup.sides.len()) {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            Ok(())
        }
    }
}

/// Negative statuses a character has now (Recover's and Resuscitate's targets, THR-R193).
pub fn negative_statuses(s: &State, c: Cid) -> Vec<StatusRef> {
    let all = XStatus::ALL
        .iter()
        .map(|x| StatusRef::X(*x))
        .chain(Cond::ALL.iter().map(|k| StatusRef::Cond(*k)));
    all.filter(|st| is_negative(s, *st) && status_on(s, c, *st)).collect()
}

/// Distance helper re-exported for the AI.
pub fn dist(s: &State, a: Pos, b: Pos) -> i16 {
    distance(s, a, b)
}
