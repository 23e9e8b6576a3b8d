//! Derived numbers: distances, defences with their modifiers, advantage, penalties, and
//! movement searches.

use crate::data::{Attr, Cond, DamageClass, EffectDefence, Item};
use crate::options::{Diagonals, Flanking, HarmedRounding, MapCounts, PassThrough};
use crate::setup::Cid;
use crate::state::State;
use fray_space::{
    DiagonalScratch, Pos, alternating_diagonal, cheapest_diagonal, chebyshev, reach_diagonal, reach_diagonal_to,
};

/// Distance in metres between two squares (ING-R36).
pub fn distance(s: &State, a: Pos, b: Pos) -> i16 {
    match s.options.diagonals {
        // ING-R36: one square is 1 m, and every second diagonal step counts 2 m.
        Diagonals::Alternating => alternating_diagonal(a, b) as i16,
        Diagonals::Chebyshev => chebyshev(a, b) as i16,
    }
}

/// Distance between two combatants (a large number if either is off the map).
pub fn distance_between(s: &State, a: Cid, b: Cid) -> i16 {
    match (s.ch(a).pos, s.ch(b).pos) {
        (Some(p), Some(q)) => distance(s, p, q),
        _ => i16::MAX,
    }
}

/// The Guard bonus a character has now (ING-R21).
pub fn guard(s: &State, c: Cid) -> i16 {
    i16::from(s.ch(c).has(Cond::Guarding))
}

/// Evasion with Guard (before size and dodge).
pub fn evasion(s: &State, c: Cid) -> i16 {
    s.info(c).stats.evasion + guard(s, c)
}

/// Constitution with Guard.
pub fn constitution(s: &State, c: Cid) -> i16 {
    s.info(c).stats.constitution + guard(s, c)
}

/// Willpower with Guard.
pub fn willpower(s: &State, c: Cid) -> i16 {
    s.info(c).stats.willpower + guard(s, c)
}

/// The defence that resists an effect.
pub fn effect_defence(s: &State, c: Cid, d: EffectDefence) -> i16 {
    match d {
        EffectDefence::Constitution => constitution(s, c),
        EffectDefence::Willpower => willpower(s, c),
    }
}

/// The deflection that reduces a family of damage (with Guard when the option says so).
pub fn deflection(s: &State, c: Cid, class: DamageClass) -> i16 {
    let st = &s.info(c).stats;
    let g = if s.options.guard_covers_deflection {
        guard(s, c)
    } else {
        0
    };
    match class {
        DamageClass::Physical => st.deflection + g,
        DamageClass::Elemental => st.elemental_deflection + g,
        DamageClass::Typeless => 0,
    }
}

/// How much larger the attacker is than the target (negative when smaller) (ING-R46).
pub fn size_difference(s: &State, attacker: Cid, target: Cid) -> i16 {
    s.info(attacker).stats.size - s.info(target).stats.size
}

/// Maximum endurance and whether the character is Harmed (ING-R58).
pub fn harmed(s: &State, c: Cid) -> bool {
    let max = s.info(c).stats.endurance;
    let half = match s.options.harmed_rounding {
        HarmedRounding::Up => (max + 1) / 2,
        HarmedRounding::Down => max / 2,
    };
    // ING-R58: Harmed while endurance is at most half of its maximum (rounded up by default).
    s.ch(c).endurance <= half
}

/// Bloodied: below maximum health (ING-R59).
pub fn bloodied(s: &State, c: Cid) -> bool {
    // ING-R59: Bloodied while health is below its maximum.
    s.ch(c).health < s.info(c).stats.health
}

/// The multiple attack penalty for the next attack (ING-R40, ING-H10).
pub fn attack_penalty(s: &State, attacker: Cid) -> i16 {
    let c = s.ch(attacker);
    let n = match s.options.map_counts {
        MapCounts::AllAttacks => c.attacks_round,
        MapCounts::OwnTurn => c.attacks_own,
    };
    // At most ±9,999: with every other number within ±999 no test total can overflow.
    let p = i32::from(s.options.multiple_attack_penalty) * i32::from(n);
    -(p.clamp(-9_999, 9_999) as i16)
}

/// Bonuses from the older weapon properties for an attack now.
pub fn property_bonus(s: &State, attacker: Cid, slot: u8, target: Cid) -> i16 {
    if !s.options.older_properties {
        return 0;
    }
    let Some(item) = s.item(attacker, slot) else { return 0 };
    let c = s.ch(attacker);
    let bit = 1u64 << (target as u64 % 64);
    let mut b = 0;
    if item.swift && c.swings.get(slot as usize).is_some_and(|n| *n > 0) {
        b += 1;
    }
    if item.cleave && c.attacked_mask != 0 && c.attacked_mask & bit == 0 {
        b += 2;
    }
    if item.backswing && c.missed_with == Some(slot) {
        b += 2;
    }
    if item.momentum && c.hit_mask & bit != 0 {
        b += 1;
    }
    b
}

/// Whether the target is flanked: two of its enemies on opposite squares next to it, or the
/// GM says so (ING-R44, ING-H20).
pub fn flanked(s: &State, target: Cid) -> bool {
    if s.ch(target).has(Cond::Flanked) {
        return true;
    }
    if s.options.flanking == Flanking::GmOnly {
        return false;
    }
    let Some(p) = s.ch(target).pos else { return false };
    // ING-R44: two of the target's enemies on opposite sides of it; the attacker need not be
    // one of them, and nothing here asks whether the attack is melee or ranged.
    let enemy_at = |q: Pos| s.occupant(q).is_some_and(|o| s.enemies(o, target) && s.ch(o).able());
    [(0, 1), (1, 1), (1, 0), (1, -1)]
        .into_iter()
        .any(|(dx, dy)| enemy_at(Pos::new(p.x + dx, p.y + dy)) && enemy_at(Pos::new(p.x - dx, p.y - dy)))
}

/// Whether the target cannot see the attacker (ING-R43): the attacker is Hidden, or the target
/// is Blinded or unconscious.
pub fn unseen(s: &State, attacker: Cid, target: Cid) -> bool {
    s.ch(attacker).has(Cond::Hidden) || s.ch(target).has(Cond::Blinded) || s.ch(target).unconscious
}

/// An obstacle next to `p`: a blocked square or one at least a level higher.
pub fn obstacles(s: &State, p: Pos) -> impl Iterator<Item = Pos> + '_ {
    let here = s.setup.map.elevation(p).unwrap_or(0);
    fray_space::neighbours(p)
        .into_iter()
        .filter(move |q| s.setup.map.get(*q).is_some_and(|c| c.blocked || c.elevation > here))
}

/// Whether a character who sought cover is behind it against an attacker: an obstacle next to
/// it whose dividing line the attacker is beyond (ING-R26; fray's geometry ruling).
pub fn behind_cover(s: &State, target: Cid, attacker: Cid) -> bool {
    if !s.ch(target).has(Cond::Cover) {
        return false;
    }
    let (Some(t), Some(a)) = (s.ch(target).pos, s.ch(attacker).pos) else {
        return false;
    };
    if !s.options.seek_cover_needs_obstacle {
        return true;
    }
    obstacles(s, t).any(|o| fray_space::beyond_dividing_line(t, o, a))
}

/// Whether an attack with a Thrown weapon throws it: always beyond 1 m; within 1 m only with
/// `thrown-adjacent = "thrown"` (by default it is then wielded in melee).
pub fn throws(s: &State, attacker: Cid, target: Cid, item: &Item) -> bool {
    item.thrown
        && (distance_between(s, attacker, target) > 1
            || s.options.thrown_adjacent == crate::options::ThrownAdjacent::Thrown)
}

/// Whether an attack with `item` is ranged: a Thrown weapon wielded in melee is not, whatever
/// its range (see [`throws`]).
pub fn ranged_attack(s: &State, attacker: Cid, target: Cid, item: &Item) -> bool {
    if item.thrown && !item.projectile && !throws(s, attacker, target, item) {
        return false;
    }
    item.ranged
}

/// Net advantage of an attack and the reasons (ING-R43 to ING-R47, ING-R26).
pub fn advantage(s: &State, attacker: Cid, target: Cid, item: &Item) -> (i8, Vec<String>) {
    let mut net = 0i8;
    let mut why = Vec::new();
    if unseen(s, attacker, target) {
        net += 1;
        why.push("sneak attack".to_string());
    }
    // Each source counts on its own: a sneak attack that also flanks has double advantage
    // (ING-R45).
    if flanked(s, target) {
        // ING-R44: a flanked target gives the attack advantage.
        net += 1;
        why.push("flanking".to_string());
    }
    let ranged = ranged_attack(s, attacker, target, item);
    if s.ch(target).has(Cond::Prone) {
        if ranged {
            net -= 1;
            why.push("prone target (ranged)".to_string());
        } else {
            net += 1;
            why.push("prone target (melee)".to_string());
        }
    }
    if ranged && behind_cover(s, target, attacker) {
        net -= 1;
        why.push("target behind cover".to_string());
    }
    (net, why)
}

/// A proficiency's bonus for a character (0 if it has none).
pub fn prof_bonus(s: &State, c: Cid, prof: Option<&str>) -> i16 {
    prof.map_or(0, |p| s.info(c).stats.prof(p))
}

/// The attribute die of a character.
pub fn attr_die(s: &State, c: Cid, a: Attr) -> u8 {
    s.info(c).stats.attr(a)
}

/// The expected gain of rerolling a die showing `face` and keeping the better result.
pub fn reroll_gain(sides: u8, face: u16) -> f64 {
    let n = f64::from(sides);
    let f = f64::from(face).min(n);
    // E[max(f, X)] for X uniform on 1..n, minus f.
    let above: f64 = ((face as u32 + 1)..=(sides as u32)).map(f64::from).sum();
    (f * f + above) / n - f
}

/// Whether a mover may pass through a square held by `o` (fray's `pass-through` option).
pub fn passable(s: &State, mover: Cid, o: Cid) -> bool {
    if o == mover || !s.ch(o).present() {
        return true;
    }
    // Unconscious bodies do not block.
    if s.ch(o).unconscious {
        return true;
    }
    match s.options.pass_through {
        PassThrough::Allies => !s.enemies(mover, o),
        PassThrough::Nobody => false,
        PassThrough::Anyone => true,
    }
}

/// Reusable memory for movement searches: the search's own, and who stands on each square.
#[derive(Default)]
pub struct Scratch {
    diag: DiagonalScratch,
    /// Per square of the map, the combatant [`State::occupant`] names there, or [`NOBODY`].
    occupants: Vec<Cid>,
}

/// No combatant (in [`Scratch`]'s map of who stands where).
const NOBODY: Cid = Cid::MAX;

impl Scratch {
    /// Maps who stands on each square of the map now, as [`State::occupant`] says (the first
    /// present combatant listed there), so that searches read a table instead of scanning the
    /// combatants at every step; the searches go through the returned [`Mapped`], which
    /// borrows `s`, so it cannot outlive the position it mapped.
    pub fn map<'a>(&'a mut self, s: &'a State) -> Mapped<'a> {
        let grid = &s.setup.map;
        self.occupants.clear();
        self.occupants.resize(grid.len(), NOBODY);
        for (c, ch) in s.chars.iter().enumerate() {
            if !ch.present() {
                continue;
            }
            if let Some(i) = ch.pos.and_then(|p| grid.index(p))
                && self.occupants[i] == NOBODY
            {
                self.occupants[i] = c as Cid;
            }
        }
        Mapped {
            s,
            occupants: &self.occupants,
            diag: &mut self.diag,
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's reusable search memory (searches never nest). It is working
/// memory only: every search fills what it reads, so no answer depends on earlier searches or
/// on the thread.
pub fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|sc| f(&mut sc.borrow_mut()))
}

/// Movement searches over one position, with who stands where mapped once
/// ([`Scratch::map`]): the alternating-diagonal (or Chebyshev) search with the rules for
/// occupied squares. `end_on` is a square the mover may end on even though someone stands
/// there (Intercept).
pub struct Mapped<'a> {
    s: &'a State,
    occupants: &'a [Cid],
    diag: &'a mut DiagonalScratch,
}

impl Mapped<'_> {
    /// Squares `who` can reach from `from` within `budget` metres, with their cost, and a way
    /// to get paths.
    pub fn reach(&mut self, who: Cid, from: Pos, budget: i16, end_on: Option<Pos>) -> fray_space::DiagonalReach<'_> {
        let (s, occupants) = (self.s, self.occupants);
        let (enter, can_stop) = rules(s, occupants, who, end_on);
        // ING-R36: movement is priced with the alternating diagonal (every second one 2 m).
        let alternating = s.options.diagonals == Diagonals::Alternating;
        reach_diagonal(
            &s.setup.map,
            from,
            metres(budget),
            alternating,
            enter,
            can_stop,
            self.diag,
        )
    }

    /// The way `who` takes to end a move of at most `budget` metres from `from` on `to`: the
    /// squares after `from`, the path [`Mapped::reach`] gives to `to`, found by a search that
    /// stops there (`reach_diagonal_to`); `None` when it cannot end there (what
    /// [`Mapped::can_end_on`] says without an `end_on`).
    pub fn way_to(&mut self, who: Cid, from: Pos, to: Pos, budget: i16) -> Option<Vec<Pos>> {
        let (s, occupants) = (self.s, self.occupants);
        let (enter, can_stop) = rules(s, occupants, who, None);
        let alternating = s.options.diagonals == Diagonals::Alternating;
        let r = reach_diagonal_to(
            &s.setup.map,
            from,
            to,
            metres(budget),
            alternating,
            enter,
            can_stop,
            self.diag,
        );
        if r.can_end_on(to) { r.path_to(to) } else { None }
    }

    /// Whether `who` may end a move of at most `budget` metres from `from` on `to`, as
    /// [`Mapped::reach`] would say: reached within the budget (a goal-first search,
    /// `cheapest_diagonal`) and a square it may stop on.
    pub fn can_end_on(&mut self, who: Cid, from: Pos, to: Pos, budget: i16, end_on: Option<Pos>) -> bool {
        let (s, occupants) = (self.s, self.occupants);
        let (enter, mut can_stop) = rules(s, occupants, who, end_on);
        let alternating = s.options.diagonals == Diagonals::Alternating;
        let grid = &s.setup.map;
        cheapest_diagonal(grid, from, to, metres(budget), alternating, enter, self.diag).is_some()
            && (to == from || can_stop(to))
    }
}

/// A movement allowance as the search's budget (nothing when negative).
fn metres(budget: i16) -> u32 {
    budget.max(0) as u32
}

/// The search's rules for occupied squares: `who` may step into a square only if nobody there
/// blocks it (`end_on` excepted), and end only on an empty square, its own, or `end_on`.
fn rules<'a>(
    s: &'a State,
    occupants: &'a [Cid],
    who: Cid,
    end_on: Option<Pos>,
) -> (impl FnMut(Pos, Pos) -> Option<u32> + 'a, impl FnMut(Pos) -> bool + 'a) {
    let grid = &s.setup.map;
    let at = move |p: Pos| grid.index(p).map_or(NOBODY, |i| occupants[i]);
    let enter = move |_: Pos, b: Pos| -> Option<u32> {
        let o = at(b);
        if o != NOBODY && !passable(s, who, o) && Some(b) != end_on {
            None
        } else {
            Some(0)
        }
    };
    // `occupant` names present combatants only.
    let can_stop = move |p: Pos| Some(p) == end_on || at(p) == NOBODY || at(p) == who;
    (enter, can_stop)
}

/// The metres each step of a path costs, in order (every second diagonal counts 2).
pub fn step_costs(s: &State, from: Pos, path: &[Pos]) -> Vec<u8> {
    let alternating = s.options.diagonals == Diagonals::Alternating;
    let mut at = from;
    let mut diagonals = 0u32;
    path.iter()
        .map(|&q| {
            let diag = q.x != at.x && q.y != at.y;
            at = q;
            if diag {
                diagonals += 1;
                if alternating && diagonals.is_multiple_of(2) {
                    2
                } else {
                    1
                }
            } else {
                1
            }
        })
        .collect()
}
