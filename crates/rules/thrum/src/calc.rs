//! Derived numbers: Speed, range, distance, roll modifiers, Boons and Banes, Cover.
//!
//! Pure functions of the state. The checker, the resolver, the legal-command enumeration and
//! the AI all use these, so every part of the program computes a rule the same way.

use crate::ability::{Ability, AbilityId, Cond, Defence, Kind, Reach, RollKind, Var, XStatus};
use crate::options::{BoonStacking, FrayedRolls, LineOfSight, RangeZero};
use crate::setup::Cid;
use crate::state::State;
use fray_space::{Pos, chebyshev};

/// Evaluates an amount for a user.
pub fn eval(s: &State, user: Cid, a: &crate::ability::Amount) -> i16 {
    let st = &s.info(user).stats;
    a.eval(
        |v| match v {
            Var::Tier => st.tier,
            Var::Level => st.level,
            Var::Attr(at) => st.attr(at),
            Var::Training(art) => st.training(art),
        },
        |v| s.options.half(v),
    )
}

/// Distance between two squares (THR-R43, THR-R47), counted in squares of the grid
/// (THR-R41): 7 west and 4 north is 7 (THR-R44); the rings around a square are at 1, 2, 3
/// (THR-R45).
pub fn distance(s: &State, a: Pos, b: Pos) -> i16 {
    // THR-R43: the larger of the column and row differences, so 7 west and 4 north is 7
    // (THR-R44) and the rings around a square lie at 1, 2, 3 (THR-R45).
    let flat = chebyshev(a, b) as i16;
    // THR-R47: by default elevation plays no part (bird's-eye view).
    if s.options.distance_ignores_elevation {
        flat
    } else {
        let ea = s.setup.map.elevation(a).unwrap_or(0) as i16;
        let eb = s.setup.map.elevation(b).unwrap_or(0) as i16;
        flat.max((ea - eb).abs())
    }
}

/// Distance between two combatants (`None` if either is not on the map).
pub fn dist_between(s: &State, a: Cid, b: Cid) -> Option<i16> {
    Some(distance(s, s.ch(a).pos?, s.ch(b).pos?))
}

/// Whether a status is active and how strongly (1, or X when effects scale, THR-R212).
pub fn status_weight(s: &State, c: Cid, x: XStatus) -> i16 {
    let v = s.ch(c).status(x) as i16;
    if v == 0 {
        0
    } else if s.options.status_effect_scales {
        v
    } else {
        1
    }
}

/// Whether a condition is in force (Dazed as a status counts when X > 0).
pub fn has(s: &State, c: Cid, cond: Cond) -> bool {
    s.ch(c).has(cond)
}

/// Current Speed (THR-R52, THR-R208, THR-R220), with the Weaver's exemption this turn.
pub fn speed(s: &State, c: Cid) -> i16 {
    let info = s.info(c);
    let mut v = info.stats.speed;
    let slowed = status_weight(s, c, XStatus::Slowed);
    let weaver_ignores = s.turn.who == c && (info.traits.weaver >= 2 || s.turn.weaver_slow);
    // THR-R208: Slowed takes 2 off Speed (THR-R52: the Speed a turn may spend).
    if slowed > 0 && !weaver_ignores {
        v -= 2 * slowed;
    }
    if s.options.draft_hastened && has(s, c, Cond::Hastened) {
        v += 2;
    }
    // THR-R208: never below the floor (0 by default).
    v.max(s.options.speed_floor)
}

/// The range of an ability for a user, after Long Reach and Blinded (THR-R49, THR-R204).
/// `None` means "Self only".
pub fn range_of(s: &State, user: Cid, ability: &Ability) -> Option<i16> {
    let Reach::Squares(a) = &ability.reach else {
        return None;
    };
    let mut r = eval(s, user, a).max(0);
    // THR-R49: Long Reach makes Range 1 reach 2 (Range 1 takes in the diagonals by distance).
    if r == 1 && s.info(user).traits.long_reach {
        r = 2;
    }
    if s.ch(user).status(XStatus::Blinded) > 0 {
        r = (r + 1) / 2;
    }
    Some(r)
}

/// Whether a square is within an ability's range of the user (THR-R46, THR-R48).
pub fn in_range(s: &State, user: Cid, range: Option<i16>, p: Pos) -> bool {
    s.ch(user).pos.is_some_and(|from| in_range_from(s, range, from, p))
}

/// Whether a square is within range of a user standing on `from`.
pub fn in_range_from(s: &State, range: Option<i16>, from: Pos, p: Pos) -> bool {
    match range {
        None => p == from,
        Some(0) => match s.options.range_zero {
            RangeZero::OwnSquare => p == from,
            RangeZero::Touch => chebyshev(p, from) <= 1,
        },
        // THR-R46: a square at exactly the range is in it; one further is not.
        Some(r) => distance(s, from, p) <= r,
    }
}

/// Whether blocked squares stand on the straight line between two squares (the
/// `line-of-sight = "blocked-squares"` option; THR-R50).
pub fn sight_blocked(s: &State, a: Pos, b: Pos) -> bool {
    // THR-R50: by default there is no line-of-sight test: only Obstruction takes a target in
    // range away.
    if s.options.line_of_sight == LineOfSight::ObstructionOnly {
        return false;
    }
    let (dx, dy) = ((b.x - a.x) as i32, (b.y - a.y) as i32);
    let n = dx.abs().max(dy.abs());
    (1..n).any(|i| {
        // Round to the nearest square along the segment.
        let x = a.x as i32 + (2 * dx * i + n).div_euclid(2 * n);
        let y = a.y as i32 + (2 * dy * i + n).div_euclid(2 * n);
        s.setup.map.get(Pos::new(x as i16, y as i16)).is_some_and(|c| c.blocked)
    })
}

/// The attack modifier of a user for an ability (THR-R94, THR-R95).
pub fn attack_modifier(s: &State, user: Cid, ability: &Ability) -> i16 {
    let st = &s.info(user).stats;
    if let Some(a) = st.attack {
        return a;
    }
    match ability.art {
        // THR-R94: the modifier of the Combat Art that grants the attack.
        Some(art) if !ability.basic => st.arts[art.index()],
        // THR-R95: a basic ability (Basic Attack, THR-R189) rolls the highest trained Art
        // modifier, or the `untrained-attack-modifier` (0) without a trained Art.
        _ => st
            .arts
            .iter()
            .copied()
            .zip(st.training)
            .filter(|(_, t)| *t > 0)
            .map(|(m, _)| m)
            .max()
            .unwrap_or(s.options.untrained_attack_modifier),
    }
}

/// The Stance and Passive abilities whose modifiers apply to a combatant now.
fn standing(s: &State, c: Cid) -> impl Iterator<Item = &Ability> + '_ {
    let info = s.info(c);
    let stance = s.ch(c).stance.map(|a| s.setup.book.get(a));
    let passives = info
        .abilities
        .iter()
        .map(|a| s.setup.book.get(*a))
        .filter(|a| a.kind == Kind::Passive);
    stance.into_iter().chain(passives)
}

/// Boons (negative: Banes) and flat bonus from Stances and Passives for a kind of roll.
pub fn standing_mods(s: &State, c: Cid, kind: RollKind) -> (i16, i16) {
    standing_mods_against(s, c, kind, None)
}

/// Like [`standing_mods`], for a roll against `target` (height-based Boons need it).
pub fn standing_mods_against(s: &State, c: Cid, kind: RollKind, target: Option<Cid>) -> (i16, i16) {
    let (boons, flat, per_height) = standing_mods_apart(s, c, kind);
    (boons + per_height * height_boons(s, c, target), flat)
}

/// The Boons a modifier with a Boon per level of height advantage beyond the first (High
/// Perch) adds to a roll of `c` against `target`: none without a target or off the map.
fn height_boons(s: &State, c: Cid, target: Option<Cid>) -> i16 {
    let Some(t) = target else { return 0 };
    let (Some(a), Some(b)) = (s.ch(c).pos, s.ch(t).pos) else {
        return 0;
    };
    let up = s.setup.map.elevation(a).unwrap_or(0) as i16 - s.setup.map.elevation(b).unwrap_or(0) as i16;
    (up - 1).max(0)
}

/// [`standing_mods_against`] before any target is known: the Boons and flat bonus, and how
/// many of the modifiers that apply add [`height_boons`] on top.
fn standing_mods_apart(s: &State, c: Cid, kind: RollKind) -> (i16, i16, i16) {
    let tier = s.info(c).stats.tier;
    let mut boons = 0;
    let mut flat = 0;
    let mut per_height = 0;
    let buff = s
        .ch(c)
        .buff
        .and_then(|b| s.setup.book.get(b.ability).buff_spec.as_ref());
    let all = standing(s, c)
        .flat_map(|a| a.modifiers.iter())
        .chain(buff.into_iter().flat_map(|b| b.modifiers.iter()));
    for m in all {
        let applies = m.roll == kind || (m.roll == RollKind::AnyDefence && matches!(kind, RollKind::Defence(_)));
        let tiered = tier >= m.min_tier as i16 && m.max_tier.is_none_or(|t| tier <= t as i16);
        if !applies || !tiered || !m.when.iter().all(|w| holds(s, c, w)) {
            continue;
        }
        boons += m.boons;
        flat += eval(s, c, &m.flat);
        // One Boon per level of height advantage beyond the first (High Perch).
        per_height += i16::from(m.per_height);
    }
    (boons, flat, per_height)
}

/// Whether a modifier's condition holds for its holder.
fn holds(s: &State, c: Cid, w: &crate::ability::When) -> bool {
    match w {
        crate::ability::When::Hidden => has(s, c, Cond::Hidden),
        crate::ability::When::NoFoeWithin(d) => {
            let d = eval(s, c, d);
            let Some(p) = s.ch(c).pos else { return true };
            !s.ids()
                .any(|o| s.enemies(c, o) && counts_as_foe(s, o) && s.ch(o).pos.is_some_and(|q| distance(s, p, q) <= d))
        }
    }
}

/// Banes a character has on its rolls for the rest of its own turn (Jittery).
pub fn turn_banes(s: &State, c: Cid) -> i16 {
    if s.turn.who == c { s.turn.banes } else { 0 }
}

/// Whether a character cannot be moved involuntarily now (Stand Firm at Tier 1+).
pub fn immovable(s: &State, c: Cid) -> bool {
    let tier = s.info(c).stats.tier;
    standing(s, c).any(|a| a.immovable.is_some_and(|t| tier >= t as i16))
}

/// Whether a combatant is a Minion (THR-R222).
pub fn is_minion(s: &State, c: Cid) -> bool {
    s.info(c).minion_of.is_some()
}

/// Boons and Banes tallied separately, combined by the stacking option (THR-R114).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Boons from every source.
    pub boons: i16,
    /// Banes from every source.
    pub banes: i16,
}

impl Tally {
    /// Adds a signed count (positive: Boons).
    pub fn add(&mut self, n: i16) {
        if n > 0 {
            self.boons += n;
        } else {
            self.banes -= n;
        }
    }

    /// The net count after cancelling (THR-R111).
    pub fn net(&self, s: &State) -> i16 {
        // THR-R111: Boons and Banes cancel one for one (2 Boons and 1 Bane leave 1 Boon).
        // THR-R114: by default every source counts, all added up before they cancel.
        match s.options.boon_stacking {
            BoonStacking::Sum => self.boons - self.banes,
            BoonStacking::OneEach => self.boons.min(1) - self.banes.min(1),
        }
    }
}

/// Cover and Obstruction of a target square against an attacker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoverInfo {
    /// Cover sources that give the target cover against this attacker.
    pub sources: u8,
    /// Whether the attacker is Obstructed from the target square.
    pub obstructed: bool,
}

/// Cover and Obstruction for an attack from `attacker` (standing on `from`) against a target
/// square `at` (THR-R119 to THR-R131). A cover source is an adjacent square holding terrain
/// 2+ levels above the target's square, or another character (counting as its square +
/// `character-cover-height`); it gives cover when the attacker is beyond its dividing line
/// and lower than it. Obstruction needs both flanks of such a source to qualify as sources.
pub fn cover_check(s: &State, attacker: Cid, from: Pos, at: Pos) -> CoverInfo {
    cover_check_around(s, from, at, around_mask(s, attacker, at))
}

/// The squares within two of `at` that count as occupied for [`cover_check`] against
/// `attacker`, as a 5x5 mask (bit `(dy + 2) * 5 + dx + 2` for the offset from `at`). Another
/// character standing on a square makes it a cover source (THR-R119); every square the check
/// looks at (sources and their flanks) is within two of the target, so one pass over the
/// characters marks them all. It does not depend on where the attacker stands, so a caller
/// checking many squares against one target works it out once.
pub fn around_mask(s: &State, attacker: Cid, at: Pos) -> u32 {
    let opts = &s.options;
    let mut around = 0u32;
    for (i, c) in s.chars.iter().enumerate() {
        let Some(q) = c.pos else { continue };
        let (dx, dy) = (q.x - at.x, q.y - at.y);
        if dx.abs() <= 2
            && dy.abs() <= 2
            && i as Cid != attacker
            && c.present()
            // THR-R182: an Incapacitated character is still a cover source (by default).
            && (!c.incapacitated || opts.incapacitated_occupy)
        {
            around |= 1 << ((dy + 2) * 5 + dx + 2);
        }
    }
    around
}

/// [`cover_check`] with the occupied squares around the target given ([`around_mask`]).
pub fn cover_check_around(s: &State, from: Pos, at: Pos, around: u32) -> CoverInfo {
    let map = &s.setup.map;
    // The map's cover masks, when it has them: a look-up and a few bit operations.
    if let (Some(masks), Some(tk), Some(fk)) = (s.setup.cover_masks(s), map.index(at), map.index(from)) {
        let info = masks.row(s, tk).cover(fk, around);
        debug_assert_eq!(info, cover_walk(s, from, at, around), "cover from {from} at {at}");
        return info;
    }
    cover_walk(s, from, at, around)
}

/// [`cover_check`] by walking the target's neighbours, with the occupied squares around it in
/// `around`.
fn cover_walk(s: &State, from: Pos, at: Pos, around: u32) -> CoverInfo {
    let map = &s.setup.map;
    let opts = &s.options;
    let target_elev = map.elevation(at).unwrap_or(0) as i16;
    let attacker_elev = map.elevation(from).unwrap_or(0) as i16;
    let occupied = |p: Pos| {
        let (dx, dy) = (p.x - at.x, p.y - at.y);
        debug_assert!(dx.abs() <= 2 && dy.abs() <= 2, "cover looks only near the target");
        dx.abs() <= 2 && dy.abs() <= 2 && around & (1 << ((dy + 2) * 5 + dx + 2)) != 0
    };
    // THR-R119: a neighbour of the target is a cover source when a character stands on it, or
    // when its terrain is 2+ levels above the target's square; THR-R121: a character counts as
    // its square + `character-cover-height` (2).
    let height = |p: Pos| -> Option<i16> {
        let elev = map.elevation(p)? as i16;
        if occupied(p) {
            return Some(elev + opts.character_cover_height);
        }
        (elev >= target_elev + 2).then_some(elev)
    };
    let neighbour = |p: Pos, d: usize| p.checked_step(fray_space::Dir::ALL[d]);
    cover_sources(
        (from.x - at.x, from.y - at.y),
        from,
        at,
        attacker_elev,
        opts.cover_on_line,
        false,
        neighbour,
        height,
    )
}

/// The walk over the target's neighbours shared by [`cover_check`] and [`cover_check_with`],
/// with squares named as the caller names them (positions or grid indices): `neighbour(q, d)`
/// is the square next to `q` in direction `Dir::ALL[d]`, `height(q)` how tall `q` stands as a
/// cover source (`None`: it is none, THR-R119). `delta` is the attacker's offset from the target.
/// With `first_only` it stops at the first cover source (then only `sources > 0` is meaningful).
#[inline]
#[allow(clippy::too_many_arguments)]
fn cover_sources<Q: Copy + PartialEq>(
    delta: (i16, i16),
    from: Q,
    at: Q,
    attacker_elev: i16,
    cover_on_line: bool,
    first_only: bool,
    neighbour: impl Fn(Q, usize) -> Option<Q>,
    height: impl Fn(Q) -> Option<i16>,
) -> CoverInfo {
    let mut info = CoverInfo::default();
    // The attacker must be beyond the source's dividing line (or on it, with the option):
    // (A − S)·(T − S) < 0 (THR-R122). Checked first, for all eight neighbours at once, as it
    // is the cheapest test. High ground at (0,0), target at (1,0): only attackers with x < 0
    // (THR-R124); target at (1,−1): only attackers north-west of the diagonal, y > x (THR-R125).
    let (beyond_mask, on_line) = fray_space::dividing_masks(delta);
    // THR-R123: an attacker exactly on a source's dividing line takes no Bane from it, unless
    // `cover-on-line` says it does.
    let mut dirs = beyond_mask | if cover_on_line { on_line } else { 0 };
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let Some(src) = neighbour(at, d) else { continue };
        if src == from {
            continue;
        }
        let Some(h) = height(src) else { continue };
        // THR-R121: the source covers only against an attacker standing lower than it.
        if attacker_elev >= h {
            continue;
        }
        info.sources += 1;
        if first_only {
            break;
        }
        // Obstruction: both flanks of the source, a quarter turn either way along its dividing
        // line (`fray_space::flanks`), are cover sources too (THR-R128). THR-R131: so walls on
        // (0,1), (0,0), (0,−1) Obstruct (1,0) from a lower (−4,0), but not (2,0), not next to them.
        if beyond_mask & (1 << d) != 0
            && let (Some(f1), Some(f2)) = (neighbour(src, (d + 2) % 8), neighbour(src, (d + 6) % 8))
            && height(f1).is_some()
            && height(f2).is_some()
        {
            info.obstructed = true;
        }
    }
    info
}

/// Who stands where, gathered once for many cover checks against one state: per grid square,
/// how many characters make it a cover source (present, and not Incapacitated unless
/// `incapacitated-occupy`; THR-R119, THR-R182). [`cover_check_with`] then needs no pass over the
/// characters. The buffer is reused between fills.
#[derive(Clone, Debug, Default)]
pub struct Occupancy {
    count: Vec<u8>,
    /// Per grid square: which of its eight neighbours (bit `d` for `Dir::ALL[d]`) someone
    /// counted stands on.
    near: Vec<u8>,
}

impl Occupancy {
    /// Counts the characters of `s`, forgetting the previous fill.
    pub fn fill(&mut self, s: &State) {
        let map = &s.setup.map;
        self.count.clear();
        self.count.resize(map.len(), 0);
        self.near.clear();
        self.near.resize(map.len(), 0);
        let steps = s.setup.steps();
        for c in &s.chars {
            if let Some(j) = Self::counted(s, c) {
                self.count[j] = self.count[j].saturating_add(1);
                // Square `k` one step from `j` the opposite way has `j` as its neighbour in
                // direction `d` (the step table is the grid's geometry: `Dir::ALL[d + 4]` is
                // the opposite of `Dir::ALL[d]`).
                for d in 0..8 {
                    if let Some(k) = steps.neighbour(j, (d + 4) % 8) {
                        self.near[k] |= 1 << d;
                    }
                }
            }
        }
    }

    /// The square a character is counted on, if it is counted at all.
    #[inline]
    fn counted(s: &State, c: &crate::state::Char) -> Option<usize> {
        let p = c.pos?;
        if !c.present() || (c.incapacitated && !s.options.incapacitated_occupy) {
            return None;
        }
        s.setup.map.index(p)
    }
}

/// [`cover_check`] with the occupied squares taken from `occ` (filled from this `s`) and the
/// neighbours from the map's step table: the same answer, without a pass over the characters
/// per check. Used by the AI, which asks it thousands of times per decision.
pub fn cover_check_with(s: &State, occ: &Occupancy, attacker: Cid, from: Pos, at: Pos) -> CoverInfo {
    let map = &s.setup.map;
    let (Some(tk), Some(fk)) = (map.index(at), map.index(from)) else {
        return cover_check(s, attacker, from, at);
    };
    let info = cover_geometry(s, occ, attacker, from, fk, at, tk, false);
    debug_assert_eq!(info, cover_check(s, attacker, from, at), "cover from {from} at {at}");
    info
}

/// Whether `at` has cover against `attacker` standing on `from` (`cover_check(..).sources > 0`),
/// stopping at the first cover source, with the occupied squares taken from `occ`.
pub fn has_cover_with(s: &State, occ: &Occupancy, attacker: Cid, from: Pos, at: Pos) -> bool {
    let map = &s.setup.map;
    let (Some(tk), Some(fk)) = (map.index(at), map.index(from)) else {
        return cover_check(s, attacker, from, at).sources > 0;
    };
    let covered = cover_geometry(s, occ, attacker, from, fk, at, tk, true).sources > 0;
    debug_assert_eq!(
        covered,
        cover_check(s, attacker, from, at).sources > 0,
        "cover from {from} at {at}"
    );
    covered
}

/// Maps with more squares than this have no [`CoverMasks`] (a row holds one entry per square,
/// so the table could reach `n²` entries); the AI then walks the neighbours every time.
pub const COVER_MASKS_MAX_SQUARES: usize = 2500;

/// For every target square and every attacker square of a map, which of the target's eight
/// neighbours (bit `d` for `Dir::ALL[d]`) make it covered (THR-R119 to THR-R125): those that do
/// when nobody stands on them (high ground), those that do when a character does (THR-R119),
/// and those the attacker is beyond the dividing line of (the ones that can Obstruct,
/// THR-R128); and per target square, which of its neighbours have both flanks on the map, and
/// which flanks are high ground. [`cover_check`] and [`has_cover_with`] then need a look-up and
/// a few bit operations instead of a walk over the neighbours and their heights. Built per
/// target square on first use, for one value of `character-cover-height` and `cover-on-line`;
/// shared by every combat of an encounter through its [`crate::setup::Setup`].
#[derive(Clone, Debug)]
pub struct CoverMasks {
    height: i16,
    on_line: bool,
    rows: Vec<std::sync::OnceLock<CoverRow>>,
}

/// The masks of one target square (see [`CoverMasks`]).
#[derive(Clone, Debug)]
pub struct CoverRow {
    /// Per attacker square: the neighbours that cover the target when empty, when occupied,
    /// and those beyond whose dividing line the attacker stands.
    by_attacker: Box<[[u8; 3]]>,
    /// The neighbours whose two flanks are on the map, whose first flank (a quarter turn
    /// clockwise) is high ground, and whose second is.
    flanks: [u8; 3],
}

/// Bit of the offset `(dx, dy)` (each within 2) in the mask of the squares around a target
/// that [`cover_check`] fills.
const fn around_bit(dx: i16, dy: i16) -> u32 {
    ((dy + 2) * 5 + dx + 2) as u32
}

/// Per direction `d`: the [`around_bit`] of the target's neighbour that way, and of that
/// neighbour's two flanks (`d + 2` and `d + 6` eighth turns from it).
const AROUND_BITS: [(u32, u32, u32); 8] = {
    let mut out = [(0, 0, 0); 8];
    let mut d = 0;
    while d < 8 {
        let (x, y) = fray_space::Dir::ALL[d].delta();
        let (x1, y1) = fray_space::Dir::ALL[(d + 2) % 8].delta();
        let (x2, y2) = fray_space::Dir::ALL[(d + 6) % 8].delta();
        out[d] = (around_bit(x, y), around_bit(x + x1, y + y1), around_bit(x + x2, y + y2));
        d += 1;
    }
    out
};

impl CoverMasks {
    /// An empty table for a map of `n` squares and these two options.
    pub fn new(n: usize, height: i16, on_line: bool) -> CoverMasks {
        CoverMasks {
            height,
            on_line,
            rows: (0..n).map(|_| std::sync::OnceLock::new()).collect(),
        }
    }

    /// Whether the table was built for the options of `s`.
    pub fn fits(&self, s: &State) -> bool {
        self.height == s.options.character_cover_height && self.on_line == s.options.cover_on_line
    }

    /// The masks of target square `tk`.
    pub fn row(&self, s: &State, tk: usize) -> &CoverRow {
        self.rows[tk].get_or_init(|| {
            let map = &s.setup.map;
            let cells = map.cells();
            let steps = s.setup.steps();
            let at = map.pos_of(tk);
            let target_elev = cells[tk].elevation as i16;
            let high = |k: usize| cells[k].elevation as i16 >= target_elev + 2;
            let by_attacker = (0..map.len())
                .map(|fk| {
                    let from = map.pos_of(fk);
                    let attacker_elev = cells[fk].elevation as i16;
                    // The walk of `cover_sources`, one bit per source.
                    let (beyond, on_line) = fray_space::dividing_masks((from.x - at.x, from.y - at.y));
                    let mut dirs = beyond | if self.on_line { on_line } else { 0 };
                    let mut m = [0u8, 0u8, beyond];
                    while dirs != 0 {
                        let d = dirs.trailing_zeros() as usize;
                        dirs &= dirs - 1;
                        let Some(src) = steps.neighbour(tk, d) else { continue };
                        if src == fk {
                            continue;
                        }
                        let elev = cells[src].elevation as i16;
                        if high(src) && attacker_elev < elev {
                            m[0] |= 1 << d;
                        }
                        if attacker_elev < elev + self.height {
                            m[1] |= 1 << d;
                        }
                    }
                    m
                })
                .collect();
            let mut flanks = [0u8; 3];
            for d in 0..8 {
                let Some(src) = steps.neighbour(tk, d) else { continue };
                if let (Some(f1), Some(f2)) = (steps.neighbour(src, (d + 2) % 8), steps.neighbour(src, (d + 6) % 8)) {
                    flanks[0] |= 1 << d;
                    flanks[1] |= u8::from(high(f1)) << d;
                    flanks[2] |= u8::from(high(f2)) << d;
                }
            }
            CoverRow { by_attacker, flanks }
        })
    }
}

impl CoverRow {
    /// The neighbours of the target that are cover sources against an attacker on square
    /// `fk`, given which neighbours are occupied (`occupied`, bit `d` for `Dir::ALL[d]`).
    #[inline]
    pub fn sources(&self, fk: usize, occupied: u8) -> u8 {
        let [alone, taken, _] = self.by_attacker[fk];
        (occupied & taken) | (!occupied & alone)
    }

    /// [`cover_check`] against an attacker on square `fk`, with the squares within two of the
    /// target that count as occupied in `around` (bit [`around_bit`] of each offset).
    #[inline]
    fn cover(&self, fk: usize, around: u32) -> CoverInfo {
        let mut occupied = 0u8;
        for (d, &(bit, _, _)) in AROUND_BITS.iter().enumerate() {
            occupied |= u8::from(around & (1 << bit) != 0) << d;
        }
        let sources = self.sources(fk, occupied);
        // Obstruction (THR-R128): a source beyond whose line the attacker stands, with both
        // flanks cover sources too (occupied, or high ground).
        let mut can_obstruct = sources & self.by_attacker[fk][2] & self.flanks[0];
        let mut obstructed = false;
        while can_obstruct != 0 {
            let d = can_obstruct.trailing_zeros() as usize;
            can_obstruct &= can_obstruct - 1;
            let (_, b1, b2) = AROUND_BITS[d];
            if (around & (1 << b1) != 0 || self.flanks[1] & (1 << d) != 0)
                && (around & (1 << b2) != 0 || self.flanks[2] & (1 << d) != 0)
            {
                obstructed = true;
                break;
            }
        }
        CoverInfo {
            sources: sources.count_ones() as u8,
            obstructed,
        }
    }
}

impl Occupancy {
    /// Which of square `k`'s eight neighbours (bit `d` for `Dir::ALL[d]`) someone stands on.
    pub fn around(&self, s: &State, k: usize) -> u8 {
        debug_assert_eq!(self.near[k], {
            let steps = s.setup.steps();
            let mut m = 0u8;
            for d in 0..fray_space::Dir::ALL.len() {
                if steps.neighbour(k, d).is_some_and(|j| self.count[j] > 0) {
                    m |= 1 << d;
                }
            }
            m
        });
        self.near[k]
    }
}

/// The body of [`cover_check_with`], over grid indices: `fk` is `from`'s, `tk` is `at`'s. With
/// `first_only` it stops at the first cover source (then only `sources > 0` is meaningful).
#[inline]
#[allow(clippy::too_many_arguments)]
fn cover_geometry(
    s: &State,
    occ: &Occupancy,
    attacker: Cid,
    from: Pos,
    fk: usize,
    at: Pos,
    tk: usize,
    first_only: bool,
) -> CoverInfo {
    let map = &s.setup.map;
    let cells = map.cells();
    let steps = s.setup.steps();
    let opts = &s.options;
    let target_elev = cells[tk].elevation as i16;
    let attacker_elev = cells[fk].elevation as i16;
    // The attacker never shelters its own target: its square does not count as occupied by it.
    let own = Occupancy::counted(s, s.ch(attacker));
    let occupied = |k: usize| occ.count[k] > u8::from(own == Some(k));
    let height = |k: usize| -> Option<i16> {
        let elev = cells[k].elevation as i16;
        if occupied(k) {
            return Some(elev + opts.character_cover_height);
        }
        (elev >= target_elev + 2).then_some(elev)
    };
    let neighbour = |k: usize, d: usize| steps.neighbour(k, d);
    let delta = (from.x - at.x, from.y - at.y);
    cover_sources(
        delta,
        fk,
        tk,
        attacker_elev,
        opts.cover_on_line,
        first_only,
        neighbour,
        height,
    )
}

/// Whether `attacker` may not target the square `at` with this ability because of
/// Obstruction (THR-R128, THR-R129; Physical Attacks only unless the option says otherwise).
pub fn obstructed(s: &State, attacker: Cid, ability: &Ability, at: Pos) -> bool {
    s.ch(attacker)
        .pos
        .is_some_and(|from| obstructed_from(s, attacker, ability, from, at))
}

/// [`obstructed`] for an attacker standing on `from`.
pub fn obstructed_from(s: &State, attacker: Cid, ability: &Ability, from: Pos, at: Pos) -> bool {
    obstruction_applies(s, ability) && cover_check(s, attacker, from, at).obstructed
}

/// Whether Obstruction stops this ability (Physical Attacks, and Mental ones with the
/// `obstruction-for-mental` option).
pub fn obstruction_applies(s: &State, ability: &Ability) -> bool {
    ability.is_physical() || (s.options.obstruction_for_mental && ability.is_attack())
}

/// Why a character cannot be aimed at from a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AimFail {
    /// Out of range (half range against a Hidden foe).
    Range,
    /// Obstructed (THR-R128).
    Obstructed,
    /// A wall on the line (the `line-of-sight` option).
    Wall,
}

/// Whether `user`, standing on `from`, can aim `a` (with its `range`) at `t`: the
/// position-dependent part of targeting one character (THR-R46, THR-R128, THR-R219).
pub fn aim_from(s: &State, user: Cid, a: &Ability, range: Option<i16>, t: Cid, from: Pos) -> Result<(), AimFail> {
    let Some(aim) = aim_at(s, user, a, range, t) else {
        return Err(AimFail::Range);
    };
    aim.from(s, from, &mut |p| {
        let obstructed = obstruction_applies(s, a) && cover_check(s, user, from, p).obstructed;
        (obstructed, !obstructed && sight_blocked(s, from, p))
    })
}

/// What aiming an ability at one character depends on besides the square it is aimed from:
/// where the character stands, the range that applies to it and whether Obstruction stops the
/// ability. Worked out once by [`aim_at`] for the many squares the AI tries; [`aim_from`] is
/// built on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AimAt {
    at: Pos,
    range: Option<i16>,
    obstruction: bool,
}

/// The facts of aiming `a` (with its `range`) from `user` at `t`; `None` when `t` is off the
/// map (then no square is in range).
pub fn aim_at(s: &State, user: Cid, a: &Ability, range: Option<i16>, t: Cid) -> Option<AimAt> {
    let at = s.ch(t).pos?;
    // An ability aimed at a Hidden foe works at half range, rounding up (THR-R219).
    let range = match range {
        Some(r) if s.options.draft_hidden && has(s, t, Cond::Hidden) && s.enemies(user, t) => Some((r + 1) / 2),
        r => r,
    };
    Some(AimAt {
        at,
        range,
        obstruction: obstruction_applies(s, a),
    })
}

impl AimAt {
    /// Whether some square within `radius` king steps of `center` could be in range of the
    /// character (a bound, not an answer: `false` only when none is). Every square within range
    /// is within `range` king steps of it, or one for Range 0 ([`in_range_from`]): distance
    /// is never shorter than the king-step count ([`distance`]).
    #[inline]
    pub fn may_reach_within(&self, center: Pos, radius: i16) -> bool {
        let reach = match self.range {
            None => 0,
            Some(r) => r.max(1),
        };
        (chebyshev(center, self.at) as i16) <= radius.saturating_add(reach)
    }

    /// Whether the user standing on `from` can aim at the character: in range, then not
    /// Obstructed (when Obstruction applies) and no wall on the line. `facts(at)` gives whether
    /// the line from `from` to the character's square `at` is Obstructed for the user and
    /// whether a wall blocks it; it is asked only when the character is in range, so the AI can
    /// answer from a memo shared by the many candidate actions of one decision.
    #[inline]
    pub fn from(&self, s: &State, from: Pos, facts: &mut impl FnMut(Pos) -> (bool, bool)) -> Result<(), AimFail> {
        if !in_range_from(s, self.range, from, self.at) {
            return Err(AimFail::Range);
        }
        let (obstructed, wall) = facts(self.at);
        if self.obstruction && obstructed {
            return Err(AimFail::Obstructed);
        }
        if wall {
            return Err(AimFail::Wall);
        }
        Ok(())
    }
}

/// The Critical margins of a contest with `a` used by `user`: the attacker's (the ability's
/// own margin, if it sets one) and the defender's (the `critical-margin` option, unless
/// `ability-critical-margin = "both-sides"`).
pub fn margins(s: &State, user: Cid, a: &Ability) -> (i16, i16) {
    let game = s.options.critical_margin;
    let own = a.critical_margin.as_ref().map_or(game, |m| eval(s, user, m));
    match s.options.ability_critical_margin {
        crate::options::AbilityMargin::AttackerOnly => (own, game),
        crate::options::AbilityMargin::BothSides => (own, own),
    }
}

/// Whether an enemy counts as a foe near someone (Ranged Banes, nearby-foe conditions): on the
/// map, in the fight and, unless the `incapacitated-foes` option counts them, able to act.
pub fn counts_as_foe(s: &State, o: Cid) -> bool {
    let c = s.ch(o);
    c.present()
        && c.pos.is_some()
        && (!c.incapacitated || s.options.incapacitated_foes == crate::options::IncapacitatedFoes::Count)
}

/// Number of enemies adjacent to a combatant (for Ranged, THR-R115).
pub fn adjacent_enemies(s: &State, c: Cid) -> i16 {
    let Some(p) = s.ch(c).pos else { return 0 };
    s.ids()
        .filter(|&o| s.enemies(c, o) && counts_as_foe(s, o))
        .filter(|&o| s.ch(o).pos.is_some_and(|q| chebyshev(p, q) == 1))
        .count() as i16
}

/// Boons and Banes on an attack roll, without trigger changes (THR-R114 and the sources it lists).
/// Of the ability it reads only whether it is Ranged and whether it is Physical (the AI shares
/// one tally between abilities alike in those; debug builds check it).
pub fn attack_tally(s: &State, user: Cid, ability: &Ability, target: Cid) -> Tally {
    attack_tally_with(
        s,
        user,
        &user_tally(s, user, ability.ranged),
        ability.is_physical(),
        target,
        None,
    )
}

/// The sources of an attack roll's Boons and Banes that depend on its user alone (and on
/// whether the ability is Ranged), for [`attack_tally_with`]: the AI weighs one user's attacks
/// on many targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserTally {
    /// Boons from the user's Stance, Passives and Buff, before height.
    standing: i16,
    /// How many of those add Boons for height over the target.
    per_height: i16,
    /// Turn Banes, Exhausted, Weakened, and adjacent enemies for a Ranged ability.
    rest: Tally,
    /// How many Banes Blinded gives beyond adjacent targets.
    blinded: i16,
}

/// The [`UserTally`] of `user`'s attacks, Ranged or not.
pub fn user_tally(s: &State, user: Cid, ranged: bool) -> UserTally {
    let (standing, _, per_height) = standing_mods_apart(s, user, RollKind::Attack);
    let mut rest = Tally::default();
    rest.add(-turn_banes(s, user));
    if s.ch(user).exhausted() {
        rest.add(-1); // THR-R165
    }
    rest.add(-status_weight(s, user, XStatus::Weakened)); // THR-R210
    if ranged {
        // THR-R115; Basic Attack carries the Ranged tag, so it pays this in melee (THR-R116).
        rest.add(-adjacent_enemies(s, user));
    }
    UserTally {
        standing,
        per_height,
        rest,
        blinded: status_weight(s, user, XStatus::Blinded),
    }
}

/// [`attack_tally`] with the user's part given (`u`, from [`user_tally`] for this ability's
/// Ranged tag); `physical`: whether the ability is Physical; `around`: the target's
/// [`around_mask`] against the user when the caller has it.
pub fn attack_tally_with(
    s: &State,
    user: Cid,
    u: &UserTally,
    physical: bool,
    target: Cid,
    around: Option<u32>,
) -> Tally {
    let mut t = u.rest;
    t.add(u.standing + u.per_height * height_boons(s, user, Some(target)));
    if let (Some(from), Some(at)) = (s.ch(user).pos, s.ch(target).pos) {
        // THR-R120: cover Banes only against Physical Attacks.
        if physical {
            let around = around.unwrap_or_else(|| around_mask(s, user, at));
            debug_assert_eq!(around, around_mask(s, user, at));
            let sources = cover_check_around(s, from, at, around).sources as i16;
            t.add(-sources.min(s.options.max_cover_banes as i16)); // THR-R126, THR-R127
        }
        if chebyshev(from, at) > 1 {
            t.add(-u.blinded); // THR-R204, THR-R212
        }
        if s.options.draft_hidden && has(s, target, Cond::Hidden) && chebyshev(from, at) > 1 {
            t.add(-1); // THR-R219
        }
    }
    t
}

/// The defence modifier (flat part) for a defence: its attribute, plus flat bonuses (THR-R113).
pub fn defence_modifier(s: &State, defender: Cid, d: Defence, attacker: Cid) -> i16 {
    if let Some(ctl) = s.info(defender).minion_of {
        // A Minion is defended by its controller's Resolve (THR-R222).
        return s.info(ctl).stats.resolve;
    }
    let (_, flat) = standing_mods(s, defender, RollKind::Defence(d));
    defence_modifier_with(s, defender, d, attacker, flat)
}

/// [`defence_modifier`] of a defender that is not a Minion, with its standing flat bonus to
/// this defence (`flat`) already looked up.
fn defence_modifier_with(s: &State, defender: Cid, d: Defence, attacker: Cid, flat: i16) -> i16 {
    let st = &s.info(defender).stats;
    let base = match d {
        Defence::Resilience => st.resilience,
        Defence::Evasion => st.evasion,
        Defence::Resolve => st.resolve,
        Defence::Decline => 0,
    };
    // THR-R113: The Quill's +1 against attackers 3+ squares away is flat: it joins the
    // modifier, not the dice.
    let quill = if s.info(defender).traits.quill && dist_between(s, defender, attacker).is_some_and(|r| r >= 3) {
        1
    } else {
        0
    };
    base + flat + quill
}

/// [`defence_tally`] and [`defence_modifier`] of one defence roll, with the defender's standing
/// modifiers looked up once (what the AI weighs for every defence of every attack it considers).
pub fn defence_roll(s: &State, defender: Cid, d: Defence, attacker: Cid) -> (Tally, i16) {
    if is_minion(s, defender) {
        return (Tally::default(), defence_modifier(s, defender, d, attacker));
    }
    let (boons, flat) = standing_mods(s, defender, RollKind::Defence(d));
    let roll = (
        defence_tally_with(s, defender, d, boons),
        defence_modifier_with(s, defender, d, attacker, flat),
    );
    debug_assert_eq!(
        roll,
        (
            defence_tally(s, defender, d),
            defence_modifier(s, defender, d, attacker)
        )
    );
    roll
}

/// Boons and Banes on a defence roll, without trigger changes.
pub fn defence_tally(s: &State, defender: Cid, d: Defence) -> Tally {
    if is_minion(s, defender) {
        return Tally::default(); // A Minion ignores all conditions.
    }
    let (b, _) = standing_mods(s, defender, RollKind::Defence(d));
    defence_tally_with(s, defender, d, b)
}

/// [`defence_tally`] of a defender that is not a Minion, with its standing Boons for this
/// defence (`stance_boons`) already looked up.
fn defence_tally_with(s: &State, defender: Cid, d: Defence, stance_boons: i16) -> Tally {
    let mut t = Tally::default();
    // Stance Boons for this defence only: Brace on Resilience (THR-R195), Dodge on Evasion,
    // on top of Evasion's own Boon below (THR-R196), Concentrate on Resolve (THR-R197).
    t.add(stance_boons);
    t.add(-turn_banes(s, defender));
    // THR-R209: a Vulnerable defender gets no automatic Evasion Boon.
    if d == Defence::Evasion && s.ch(defender).status(XStatus::Vulnerable) == 0 {
        t.add(1); // THR-R103
    }
    if s.ch(defender).frayed() {
        t.add(-1); // THR-R156; a defence roll is what THR-R228 calls a defensive roll
    }
    if dazed(s, defender) {
        t.add(-1); // THR-R214
    }
    if d == Defence::Evasion && s.options.draft_hastened && has(s, defender, Cond::Hastened) {
        t.add(1); // THR-R220
    }
    t
}

/// Whether Dazed is in force.
pub fn dazed(s: &State, c: Cid) -> bool {
    has(s, c, Cond::Dazed)
}

/// Boons and Banes on an Incapacity Roll (THR-R168, THR-R203, THR-R198, THR-R228).
pub fn incapacity_tally(s: &State, c: Cid) -> (Tally, i16) {
    let mut t = Tally::default();
    // THR-R203: Bleed's Bane on Incapacity Rolls.
    t.add(-status_weight(s, c, XStatus::Bleed));
    let (b, flat) = standing_mods(s, c, RollKind::Incapacity);
    t.add(b);
    let mut flat = flat;
    // THR-R198: Brace's Resilience help reaches the Incapacity Roll only with the option.
    if s.options.stances_help_fixed_rolls {
        let (b2, f2) = standing_mods(s, c, RollKind::Defence(Defence::Resilience));
        t.add(b2);
        flat += f2;
    }
    // THR-R228: an Incapacity Roll is no defensive roll, so Frayed's Bane comes only with the
    // option that counts every END, REF or FOC roll.
    if s.options.frayed_rolls == FrayedRolls::DefensiveAttributes && s.ch(c).frayed() {
        t.add(-1);
    }
    // THR-R168: 2d6 + Resilience.
    (t, s.info(c).stats.resilience + flat)
}

/// Boons and Banes on a Panic Roll (THR-R158, THR-R207).
pub fn panic_tally(s: &State, c: Cid) -> (Tally, i16) {
    let mut t = Tally::default();
    // THR-R207: Shocked's Bane on Panic Rolls.
    t.add(-status_weight(s, c, XStatus::Shocked));
    let (b, flat) = standing_mods(s, c, RollKind::Panic);
    t.add(b);
    let mut flat = flat;
    // THR-R198: Concentrate's Resolve help reaches the Panic Roll only with the option.
    if s.options.stances_help_fixed_rolls {
        let (b2, f2) = standing_mods(s, c, RollKind::Defence(Defence::Resolve));
        t.add(b2);
        flat += f2;
    }
    // THR-R228: nor is a Panic Roll, unless the option says so.
    if s.options.frayed_rolls == FrayedRolls::DefensiveAttributes && s.ch(c).frayed() {
        t.add(-1);
    }
    // THR-R158: 2d6 + Resolve.
    (t, s.info(c).stats.resolve + flat)
}

/// The defences a target may pick against an ability (THR-R97, THR-R98, THR-R100, THR-R101).
pub fn defences(s: &State, target: Cid, ability: &Ability) -> &'static [Defence] {
    use crate::ability::AttackKind::*;
    let slowed = s.ch(target).status(XStatus::Slowed) > 0;
    if is_minion(s, target) && ability.attack.is_some() {
        return &[Defence::Resolve];
    }
    // THR-R97: Resilience or Evasion against a Physical Attack; THR-R98: Resolve or Evasion
    // against a Mental one; THR-R100: only Evasion or declining against a Special one; and
    // THR-R101, THR-R208: a Slowed target loses Evasion.
    match (ability.attack, slowed) {
        (Some(Physical), false) => &[Defence::Resilience, Defence::Evasion],
        (Some(Physical), true) => &[Defence::Resilience],
        (Some(Mental), false) => &[Defence::Resolve, Defence::Evasion],
        (Some(Mental), true) => &[Defence::Resolve],
        (Some(Special), false) => &[Defence::Evasion, Defence::Decline],
        (Some(Special), true) => &[Defence::Decline],
        (None, _) => &[],
    }
}

/// Whether a combatant can use an ability at all (owns it, basic, or an enabled option).
pub fn has_ability(s: &State, c: Cid, id: AbilityId) -> bool {
    let a = s.setup.book.get(id);
    // THR-R38: every character has every Basic Combat Ability, on top of its own.
    if a.basic {
        return match a.requires_option.as_deref() {
            // THR-R194: Coup de Grace is a Basic Combat Ability while its option is on (the
            // default).
            Some("coup-de-grace") => s.options.coup_de_grace,
            Some(_) => false,
            None => true,
        };
    }
    s.info(c).abilities.contains(&id)
}

/// Whether a use of this ability makes attack rolls: it has an Attack type, unless it is a
/// Terrain Effect and the `terrain-effect-attacks` option says they never roll (THR-R136).
pub fn rolls(s: &State, a: &Ability) -> bool {
    // THR-R136: a Terrain Effect targets nobody: it rolls only when its record has an Attack
    // type and the option does not rule that out.
    a.is_attack() && !(a.terrain.is_some() && s.options.terrain_effect_attacks == crate::options::TerrainAttacks::Never)
}
