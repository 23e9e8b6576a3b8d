//! Movement search: what a step costs, where a mover can go, and by which path.
//!
//! Thrum's step prices (THR-R51 to THR-R76: terrain, climbs and drops, Difficult Terrain, enemy
//! Loomers, Terrain Effects, the Weaver's exemption) and the searches over them: the squares a
//! move can reach with their costs, the cheapest path to one square, and the reachable squares
//! one cost at a time for the AI. The check of a `move` or `step` (`actions::movement`), the
//! legal list, the resolver and the AI all price steps here, so they cannot disagree.
//!
//! It is its own module, below both the check and the resolution, because both need it and it
//! needs neither: it reads the state and the setup's step tables and knows nothing of commands
//! but the [`Plan`] a found path becomes. The files: this one holds the step prices, the search
//! context [`MoveCtx`] with its per-square facts and their buffer pool, and the one-call entry
//! points ([`path_for`], [`reach_for`], [`reachable`]); `ctx` the searches of a [`MoveCtx`] and
//! the reading back of paths; `weave` the two-layer search of a Weaver whose once-per-turn
//! exemption is unused; `costs` the search of costs and its per-thread memory, and
//! [`LevelReach`], the same search a cost at a time. The thread-locals here are pure memory
//! pools: they hold no result, which goes to the resolver in the check's [`Plan`].
//!
//! The rules cited at the code here: THR-R29, THR-R42, THR-R51, THR-R54, THR-R55, THR-R57,
//! THR-R59, THR-R60, THR-R62 to THR-R65, THR-R69 to THR-R72, THR-R75, THR-R76, THR-R136.

use crate::calc;
use crate::codes::{self, Say, no};
use crate::options::TeleportCost;
use crate::plan::{Path, Plan};
use crate::setup::Cid;
use crate::state::{Phase, State, terrain_affects, terrain_covers};
use fray_engine::Reject;
use fray_space::{Dir, Grid, PathScratch, Pos, StepTable, is_adjacent};

mod costs;
mod ctx;
mod weave;

pub use self::costs::{LevelMemory, LevelReach};

/// The terrain price of one step, split into its parts, because the rules treat them
/// differently: the roll on a drop of 2+ levels replaces the climbing part (THR-R64, THR-R65),
/// and the `extra-costs` option adds up or takes the larger of the extra parts (THR-R71).
///
/// [`StepCost::total`] is what an ordinary walker pays. `drop` is not an extra cost; it reports
/// how far the step falls when that is two levels or more, the height at which `climb` starts
/// to charge and a drop roll becomes possible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StepCost {
    /// The cost of moving one square: always 1 (THR-R51).
    pub base: u32,
    /// Extra cost for a change of elevation: `|Δ| - 1` when the elevation changes by two levels
    /// or more (up or down), otherwise 0 (THR-R62, THR-R63).
    pub climb: u32,
    /// Extra cost for leaving Difficult Terrain: 1 if the square being left is difficult,
    /// otherwise 0 (THR-R70).
    pub leave_difficult: u32,
    /// Levels descended when the step goes down by two or more, otherwise 0 (THR-R64).
    pub drop: u8,
}

impl StepCost {
    /// `base + climb + leave_difficult`, saturating rather than overflowing: the extra costs add
    /// up (THR-R71).
    #[inline]
    #[must_use]
    pub const fn total(&self) -> u32 {
        self.base
            .saturating_add(self.climb)
            .saturating_add(self.leave_difficult)
    }
}

/// The terrain price of stepping from `from` to the adjacent square `to`: Thrum's step prices
/// from the map alone, before occupants, Loomers, Terrain Effects and the Weaver's exemption
/// (`check::step_cost` adds those).
///
/// Returns `None` when the squares are not adjacent (a step goes to one of the 8 neighbours,
/// THR-R42), either lies off the map, or `to` is blocked. Whether `from` is blocked is not
/// checked: the mover is already there.
#[must_use]
pub fn terrain_step_cost(map: &Grid, from: Pos, to: Pos) -> Option<StepCost> {
    if !is_adjacent(from, to) {
        return None;
    }
    let from_cell = map.get(from)?;
    let to_cell = map.get(to)?;
    if to_cell.blocked {
        return None;
    }
    let change = i16::from(to_cell.elevation) - i16::from(from_cell.elevation);
    // Two i8 values differ by at most 255, so the level count fits a u8.
    let levels = u8::try_from(change.unsigned_abs()).unwrap_or(u8::MAX);
    // THR-R62: a change of 0 or 1 level costs nothing extra; THR-R63: each level beyond the
    // first costs 1 more, up or down.
    let steep = levels >= 2;
    Some(StepCost {
        // THR-R51: a step costs 1 before terrain.
        base: 1,
        climb: if steep { u32::from(levels) - 1 } else { 0 },
        // THR-R70: leaving Difficult Terrain costs 1 more.
        leave_difficult: u32::from(from_cell.difficult),
        // THR-R69: only a descent is a drop (which may be rolled for); an ascent of 2+ levels
        // never is.
        drop: if steep && change < 0 { levels } else { 0 },
    })
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
pub(crate) fn step_price(s: &State, who: Cid, from: Pos, to: Pos, roll: bool, say: Say) -> Result<i16, Reject> {
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
    // THR-R71: the extra costs add up (leaving Difficult Terrain while climbing 3 levels:
    // 1 + 1 + 2), or with the option only the larger one counts.
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

thread_local! {
    /// A pure memory pool for `fray_space`'s searches, which the checks run only beyond the
    /// search of costs (maps above [`COST_PATH_MAX_SQUARES`], budgets above
    /// [`COSTS_MAX_BUDGET`]): each search starts afresh in it and nothing is read back later.
    static SCRATCH: std::cell::RefCell<PathScratch> = std::cell::RefCell::new(PathScratch::new());
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
        terrain_affects(s, t, who, affects) && terrain_covers(s, t, p)
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
        // THR-R75: the enemy Loomer's orthogonal neighbours are difficult for `who`; with the
        // upgrade its diagonal ones are too.
        (dx + dy == 1) || (t >= 2 && dx == 1 && dy == 1)
    })
}

/// The movement a teleport that uses movement spends (THR-R59, THR-R60): its distance, with no
/// extra cost for leaving or entering squares.
pub fn teleport_cost(s: &State, from: Pos, to: Pos) -> i16 {
    // THR-R59: only the distance is paid: no extra for leaving the origin (Difficult Terrain) or
    // for entering the destination (elevation).
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
    // THR-R29: the allowance is the current Speed less what this turn spent; spending none of it
    // is fine.
    calc::speed(s, s.turn.who) - s.turn.spent
}

/// Where the current character may `move` to, with the cost (the Weaver's exemption included).
pub fn reachable(s: &State, who: Cid, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
    let Some(start) = s.ch(who).pos else { return Vec::new() };
    MoveCtx::new(s, who).destinations(start, movement_left(s), scratch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn thr_r51_r62_a_flat_step_costs_one() {
        let g = Grid::new(3, 3).unwrap();
        let c = terrain_step_cost(&g, p(0, 0), p(1, 1)).unwrap();
        assert_eq!(
            c,
            StepCost {
                base: 1,
                ..StepCost::default()
            }
        );
        assert_eq!(c.total(), 1);
    }

    #[test]
    fn thr_r42_r62_r63_r70_r71_step_cost_parts() {
        let g = Grid::parse_rows(&["4 . x", "1d 3 -2"]).unwrap();
        // (0,0) is difficult at 1; (1,0) is at 3; (2,0) at -2; (0,1) at 4;
        // (2,1) is blocked.
        // THR-R71: leaving Difficult Terrain while climbing 2 levels: 1 + 1 + 1.
        let up = terrain_step_cost(&g, p(0, 0), p(1, 0)).unwrap();
        assert_eq!(
            up,
            StepCost {
                base: 1,
                climb: 1,
                leave_difficult: 1,
                drop: 0,
            }
        );
        assert_eq!(up.total(), 3);
        // THR-R63: down 5 levels costs 4 extra; the drop is reported for the roll (THR-R64).
        let down = terrain_step_cost(&g, p(1, 0), p(2, 0)).unwrap();
        assert_eq!(
            down,
            StepCost {
                base: 1,
                climb: 4,
                leave_difficult: 0,
                drop: 5,
            }
        );
        // THR-R62: one level costs nothing extra.
        let one_level = terrain_step_cost(&g, p(1, 1), p(0, 0)).unwrap();
        assert_eq!(
            one_level,
            StepCost {
                base: 1,
                ..StepCost::default()
            }
        );
        // An ascent of 2+ levels is no drop: no roll for it (THR-R69).
        let to_high = terrain_step_cost(&g, p(1, 1), p(0, 1)).unwrap();
        assert_eq!((to_high.climb, to_high.drop), (3, 0));
        // THR-R42: only the 8 neighbours are steps.
        assert_eq!(terrain_step_cost(&g, p(1, 1), p(2, 1)), None, "blocked");
        assert_eq!(terrain_step_cost(&g, p(0, 0), p(2, 0)), None, "not adjacent");
        assert_eq!(terrain_step_cost(&g, p(0, 0), p(0, 0)), None, "same square");
        assert_eq!(terrain_step_cost(&g, p(0, 0), p(-1, 0)), None, "off the grid");
        assert_eq!(terrain_step_cost(&g, p(-1, 0), p(0, 0)), None, "from off the grid");
    }

    #[test]
    fn thr_r63_extreme_elevations_do_not_overflow() {
        let g = Grid::parse_rows(&["-128 127"]).unwrap();
        let c = terrain_step_cost(&g, p(0, 0), p(1, 0)).unwrap();
        assert_eq!((c.climb, c.drop), (254, 0));
        let c = terrain_step_cost(&g, p(1, 0), p(0, 0)).unwrap();
        assert_eq!((c.climb, c.drop), (254, 255));
        let big = StepCost {
            base: u32::MAX,
            climb: 5,
            ..StepCost::default()
        };
        assert_eq!(big.total(), u32::MAX);
    }
}
