//! Where from: the squares a turn could act from, found a cost at a time
//! (`check::LevelReach`) only as far as the decision asks, with per-decision tables (who stands
//! where, each target's facts, each square's safety) and the buffers passed from one turn to the
//! next ([`ScanMemory`]).
//!
//! Apart from the turn's plan because it is the search the plan asks of, with memory of its own.

use super::aim::*;
use super::*;

/// What one turn decision knows about the squares it could act from, so that the many candidate
/// actions it weighs share the work: the reachable squares in the order they are tried (cheapest
/// first, the current square before others of the same cost), one copy of the state to try them
/// on, and each square's safety, worked out the first time it is asked for.
pub(super) struct Scan<'a> {
    pub(super) here: Pos,
    /// No square of the scan is more than this many king steps from `here`: every step costs
    /// at least 1 (THR-R51) and the scan lists squares within the movement left.
    pub(super) radius: i16,
    /// The search that finds the rest, a cost at a time (kept once all are found: the path
    /// of a move to the square chosen is read off it, [`Scan::move_to`]).
    pub(super) reach: Option<check::LevelReach<'a>>,
    /// Whether every reachable square has been found.
    pub(super) reach_done: bool,
    /// Debug builds: every reachable square in order, from [`check::reachable`], which the
    /// squares found a cost at a time must match.
    #[cfg(debug_assertions)]
    pub(super) expect: Vec<(Pos, u32)>,
    pub(super) tmp: Option<State>,
    /// The squares found so far and the scan's tables and lists, in buffers kept between turns.
    pub(super) mem: ScanMemory,
}

/// The buffers of a [`Scan`], kept by the policy from one turn to the next so a turn allocates
/// nothing once they have grown (each is cleared or refilled when a scan starts).
#[derive(Default)]
pub(super) struct ScanMemory {
    /// The memory of the search of the reachable squares.
    pub(super) levels: check::LevelMemory,
    /// The reachable squares found so far, in the order they are tried.
    pub(super) squares: Vec<(Pos, u32)>,
    /// Per grid square: unknown (`u16::MAX`), or enemies it has cover against in the low byte and
    /// adjacent enemies in the high byte.
    pub(super) safety: Vec<u16>,
    /// Per (target, grid square): what [`calc::aim_from`] needs about the line from the square
    /// to the target where it stands: bit 0 set once known, bit 1 Obstructed, bit 2 a wall.
    pub(super) aim: Vec<u8>,
    /// Who stands where, for the many cover checks.
    pub(super) occ: calc::Occupancy,
    /// Per character: the occupied squares around it for cover checks against the deciding
    /// character ([`calc::around_mask`]), once asked for.
    pub(super) arounds: Vec<Option<u32>>,
    /// The squares [`from_square`] chose for actions aimed at characters, by what the choice
    /// depends on.
    pub(super) picked: Vec<(AimKey, crate::command::CharList, Option<Pos>)>,
    /// The able enemies of the deciding character that stand on the map, and where.
    pub(super) foes: Vec<(Cid, Pos, Option<usize>)>,
    /// Net Boons of the deciding character's attack rolls from where it stands, by target and
    /// by what of the ability they depend on (Ranged, Physical).
    pub(super) nets: Vec<(Cid, bool, bool, i16)>,
    /// What of the deciding character's attack rolls depends on it alone, for abilities that
    /// are not Ranged and for Ranged ones ([`calc::user_tally`]).
    pub(super) users: [Option<calc::UserTally>; 2],
    /// Net Boons and modifier of each target's defence rolls against the deciding character,
    /// by target and defence.
    pub(super) defences: Vec<(Cid, Defence, i16, i16)>,
    /// The odds of the deciding character's attacks from where it stands against the target's
    /// best defence ([`Scan::odds`]), by target, attack roll and defences open.
    pub(super) odds: Vec<(Cid, AttackRoll, &'static [Defence], ContestOdds)>,
}

/// What the choice of a square for an action aimed at characters depends on besides the
/// targets (see [`from_square`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AimKey {
    pub(super) range: Option<i16>,
    pub(super) ranged: bool,
    pub(super) here_ok: bool,
    pub(super) obstruction: bool,
}

impl<'a> Scan<'a> {
    /// The scan of `me`'s turn on `here`; `can_move`: whether other squares count at all.
    pub(super) fn new(
        s: &'a State,
        me: Cid,
        here: Pos,
        can_move: bool,
        scratch: &mut PathScratch,
        mut memory: ScanMemory,
    ) -> Scan<'a> {
        let m = &mut memory;
        m.squares.clear();
        m.squares.push((here, 0));
        let reach = if can_move {
            let reach = check::LevelReach::new(s, me, &mut m.levels);
            if reach.is_none() {
                m.squares.extend(check::reachable(s, me, scratch));
                sort_squares(&mut m.squares, here);
            }
            reach
        } else {
            None
        };
        #[cfg(debug_assertions)]
        let expect = {
            let mut all = vec![(here, 0)];
            if can_move {
                all.extend(check::reachable(s, me, scratch));
            }
            sort_squares(&mut all, here);
            all
        };
        m.safety.clear();
        m.safety.resize(s.setup.map.len(), u16::MAX);
        m.aim.clear();
        m.aim.resize(s.setup.map.len() * s.chars.len(), 0);
        m.occ.fill(s);
        m.arounds.clear();
        m.arounds.resize(s.chars.len(), None);
        m.picked.clear();
        m.foes.clear();
        m.foes.extend(
            s.ids()
                .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                .filter_map(|e| s.ch(e).pos.map(|q| (e, q, s.setup.map.index(q)))),
        );
        m.nets.clear();
        m.users = [None; 2];
        m.defences.clear();
        m.odds.clear();
        Scan {
            here,
            radius: if can_move { check::movement_left(s).max(0) } else { 0 },
            reach,
            reach_done: false,
            #[cfg(debug_assertions)]
            expect,
            tmp: None,
            mem: memory,
        }
    }

    /// The scan's buffers, for the next turn's scan.
    pub(super) fn into_memory(mut self) -> ScanMemory {
        if let Some(reach) = self.reach.take() {
            self.mem.levels = reach.into_memory();
        }
        self.mem
    }

    /// The `i`-th square to try (cheapest first, the current square first), searching further
    /// only when the squares found so far run out.
    pub(super) fn square(&mut self, i: usize) -> Option<(Pos, u32)> {
        while i >= self.mem.squares.len() {
            if self.reach_done {
                return None;
            }
            let reach = self.reach.as_mut()?;
            if !reach.next_level(&mut self.mem.squares) {
                self.reach_done = true;
            }
            #[cfg(debug_assertions)]
            {
                let n = self.mem.squares.len();
                assert_eq!(
                    self.mem.squares[..],
                    self.expect[..n],
                    "the squares found a cost at a time"
                );
                if self.reach_done {
                    assert_eq!(self.mem.squares, self.expect, "every square found a cost at a time");
                }
            }
        }
        let sq = self.mem.squares[i];
        debug_assert!(
            chebyshev(self.here, sq.0) as i16 <= self.radius,
            "{sq:?} beyond the scan's radius"
        );
        Some(sq)
    }

    /// The `move` to `to`, one of the squares found: with the plan read off this scan's search
    /// ([`check::LevelReach::move_plan`]) when a `move` is open now at all ([`check::may_move`]:
    /// then the rest of its check holds for every square the search lists), otherwise left to
    /// the check (which refuses it, or finds the path itself where the scan had no search of
    /// costs: a budget beyond it).
    pub(super) fn move_to(&self, s: &State, to: Pos) -> Choice {
        let plan = self.reach.as_ref().and_then(|r| r.move_plan(to));
        match plan {
            Some(plan) if check::may_move(s) => Choice::Planned(Answer::new(Command::Move(to), plan)),
            _ => Command::Move(to).into(),
        }
    }

    /// Every reachable square, in the order they are tried.
    pub(super) fn all_squares(&mut self) -> &[(Pos, u32)] {
        let mut i = self.mem.squares.len();
        while self.square(i).is_some() {
            i += 1;
        }
        &self.mem.squares
    }

    /// [`calc::around_mask`] of `t` where it stands against `me`, worked out once per decision
    /// (`None` when `t` is off the map).
    pub(super) fn around(&mut self, s: &State, me: Cid, t: Cid) -> Option<u32> {
        let at = s.ch(t).pos?;
        Some(*self.mem.arounds[t as usize].get_or_insert_with(|| calc::around_mask(s, me, at)))
    }

    /// The net Boons of `me`'s attack roll with `a` against `t` from where `me` stands
    /// ([`calc::attack_tally`]), worked out once per target for all abilities alike in what the
    /// tally reads of them: whether they are Ranged and whether they are Physical.
    pub(super) fn attack_net(&mut self, s: &State, me: Cid, a: &Ability, t: Cid) -> i16 {
        let key = (t, a.ranged, a.is_physical());
        let net = match self.mem.nets.iter().find(|n| (n.0, n.1, n.2) == key) {
            Some(n) => n.3,
            None => {
                let user =
                    *self.mem.users[usize::from(a.ranged)].get_or_insert_with(|| calc::user_tally(s, me, a.ranged));
                let around = self.around(s, me, t);
                let net = calc::attack_tally_with(s, me, &user, a.is_physical(), t, around).net(s);
                self.mem.nets.push((key.0, key.1, key.2, net));
                net
            }
        };
        debug_assert_eq!(net, calc::attack_tally(s, me, a, t).net(s));
        net
    }

    /// The odds of `me`'s attack with `a` on `t` from where `me` stands, against the defence
    /// `t` would choose ([`best_defence_odds_by`] with [`Scan::attack_net`] and the defence
    /// rolls worked out once per target and defence), remembered for the decision by what they
    /// depend on: the target, the attack roll and the defences open to the target. Abilities
    /// alike in those share them, and area placements catch the same targets again and again.
    pub(super) fn odds(&mut self, s: &State, me: Cid, a: &Ability, t: Cid) -> ContestOdds {
        let roll = AttackRoll::of(s, me, a, self.attack_net(s, me, a, t));
        let options = calc::defences(s, t, a);
        if let Some(&(_, _, _, o)) = self.mem.odds.iter().find(|x| x.0 == t && x.1 == roll && x.2 == options) {
            debug_assert_eq!(o, best_defence_odds(s, t, me, a).1);
            return o;
        }
        let defs = &mut self.mem.defences;
        let (_, o) = best_defence_odds_by(s, t, me, a, roll, options, |d| {
            if let Some(&(_, _, net, modifier)) = defs.iter().find(|x| (x.0, x.1) == (t, d)) {
                return (net, modifier);
            }
            let (tally, modifier) = calc::defence_roll(s, t, d, me);
            let net = tally.net(s);
            defs.push((t, d, net, modifier));
            (net, modifier)
        });
        self.mem.odds.push((t, roll, options, o));
        o
    }

    /// [`calc::aim_from`] for `me` standing on `p`, with the facts about the target worked out
    /// once (`aim`, from [`calc::aim_at`]) and the line facts remembered for the rest of the
    /// decision (the state does not change while it is made).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn aim(
        &mut self,
        s: &State,
        me: Cid,
        a: &Ability,
        range: Option<i16>,
        t: Cid,
        aim: &calc::AimAt,
        p: Pos,
    ) -> bool {
        let n = s.setup.map.len();
        let Some(k) = s.setup.map.index(p) else {
            return calc::aim_from(s, me, a, range, t, p).is_ok();
        };
        let memo = &mut self.mem.aim[t as usize * n + k];
        let around = &mut self.mem.arounds[t as usize];
        aim.from(s, p, &mut |at| {
            if *memo == 0 {
                let around = *around.get_or_insert_with(|| calc::around_mask(s, me, at));
                let obstructed = calc::cover_check_around(s, p, at, around).obstructed;
                debug_assert_eq!(obstructed, calc::cover_check(s, me, p, at).obstructed);
                let wall = calc::sight_blocked(s, p, at);
                *memo = 1 | u8::from(obstructed) << 1 | u8::from(wall) << 2;
            }
            (*memo & 2 != 0, *memo & 4 != 0)
        })
        .is_ok()
    }

    /// How safe a square is for `me`: +0.25 per enemy it has cover against, −0.4 per adjacent
    /// enemy for a Ranged user (each gives its attacks a Bane).
    pub(super) fn position_score(&mut self, s: &State, p: Pos, ranged: bool) -> f64 {
        let Some(k) = s.setup.map.index(p) else { return 0.0 };
        if self.mem.safety[k] == u16::MAX {
            let (mut covered, mut adjacent) = (0u16, 0u16);
            // The map's cover masks when it has them: one look-up per foe.
            let masks = s.setup.cover_masks(s).map(|m| (m.row(s, k), self.mem.occ.around(s, k)));
            for &(e, q, fk) in &self.mem.foes {
                let has = match (masks, fk) {
                    (Some((row, occupied)), Some(fk)) => {
                        let has = row.sources(fk, occupied) != 0;
                        debug_assert_eq!(
                            has,
                            calc::has_cover_with(s, &self.mem.occ, e, q, p),
                            "cover from {q} at {p}"
                        );
                        has
                    }
                    _ => calc::has_cover_with(s, &self.mem.occ, e, q, p),
                };
                if has {
                    covered += 1;
                }
                if chebyshev(p, q) == 1 {
                    adjacent += 1;
                }
            }
            self.mem.safety[k] = covered.min(255) | (adjacent.min(255) << 8);
        }
        let v = self.mem.safety[k];
        let mut score = 0.25 * f64::from(v & 0xff);
        if ranged {
            score -= 0.4 * f64::from(v >> 8);
        }
        score
    }
}

/// Sorts squares by cost, the current square before others of the same cost, keeping the
/// given order otherwise: the stable sort by `(cost, square != here)`, done as a counting sort
/// when the costs are small (movement costs are).
pub(super) fn sort_squares(squares: &mut Vec<(Pos, u32)>, here: Pos) {
    let key = |(p, c): &(Pos, u32)| 2 * *c as usize + usize::from(*p != here);
    let max = squares.iter().map(key).max().unwrap_or(0);
    if max > 256 {
        squares.sort_by_key(key);
        return;
    }
    let mut start = [0u32; 258];
    for sq in squares.iter() {
        start[key(sq) + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut out = vec![(here, 0); squares.len()];
    for sq in squares.iter() {
        let slot = &mut start[key(sq)];
        out[*slot as usize] = *sq;
        *slot += 1;
    }
    *squares = out;
}

/// The cheapest reachable square from which the action would be legal (the current square
/// first), checking range and Obstruction with the user moved there; when that is the current
/// square, with the plan the check of the action there gave.
///
/// For actions aimed at characters, whether the action is legal from another square depends
/// only on range, Obstruction and walls as long as the check from the current square fails for
/// one of those reasons or none: the other squares are tried with [`calc::aim_from`] alone and
/// the chosen one is confirmed with the full check (falling back to full checks if it fails).
pub(super) fn from_square(s: &State, me: Cid, scan: &mut Scan, action: &Action) -> Option<(Pos, Option<Plan>)> {
    let cmd = Command::Act(action.clone());
    let checked = check::check_code(s, &cmd);
    let here_ok = checked.as_ref().map(|_| ()).map_err(|code| *code);
    let p = square_for(s, me, scan, action, &cmd, here_ok)?;
    // The current square is chosen only when the check there passed.
    Some((p, if p == scan.here { checked.ok() } else { None }))
}

/// [`from_square`], with the action as a command and what its check on the current square said.
pub(super) fn square_for(
    s: &State,
    me: Cid,
    scan: &mut Scan,
    action: &Action,
    cmd: &Command,
    here_ok: Result<(), &'static str>,
) -> Option<Pos> {
    // Refusals that no square can change (not the time for an Action, an ability the user
    // lacks or cannot use, a Stunned user that moved: the copy the other squares are checked
    // on has moved too): every other square would be refused as well.
    if here_ok
        .as_ref()
        .is_err_and(|code| matches!(*code, codes::NOT_NOW | codes::UNKNOWN_ABILITY | codes::STUNNED))
    {
        return None;
    }
    let a = s.setup.book.get(action.ability);
    let stunned_stop = s.turn.stunned && s.options.draft_stunned;
    if stunned_stop {
        // A Stunned character that moves may not take its Action (THR-R218): every other
        // square is refused (they are checked on a copy that has moved), so the current
        // square is the only one.
        return here_ok.is_ok().then_some(scan.here);
    }
    if let Target::Chars(targets) = &action.target
        && !stunned_stop
        && here_ok
            .as_ref()
            .err()
            .is_none_or(|code| *code == codes::OUT_OF_RANGE || *code == codes::OBSTRUCTED)
    {
        let range = range_of(s, me, a);
        // The square chosen depends only on the targets, the range, whether the user is Ranged,
        // whether Obstruction applies and whether the current square works: actions alike in
        // those share one search of the squares.
        let key = AimKey {
            range,
            ranged: a.ranged,
            here_ok: here_ok.is_ok(),
            obstruction: calc::obstruction_applies(s, a),
        };
        let pick = match scan.mem.picked.iter().find(|(k, t, _)| *k == key && t == targets) {
            Some((_, _, p)) => *p,
            None => {
                let aims: smallvec::SmallVec<[(Cid, Option<calc::AimAt>); 4]> =
                    targets.iter().map(|&t| (t, calc::aim_at(s, me, a, range, t))).collect();
                let aimed = |scan: &mut Scan, p: Pos| {
                    aims.iter()
                        .all(|(t, aim)| aim.as_ref().is_some_and(|aim| scan.aim(s, me, a, range, *t, aim, p)))
                };
                // A target out of range of every square the scan could list: no square but the
                // current one can pass, so the squares are not searched.
                let beyond = aims.iter().any(|(_, aim)| {
                    aim.as_ref()
                        .is_none_or(|aim| !aim.may_reach_within(scan.here, scan.radius))
                });
                let p = if beyond {
                    key.here_ok.then_some(scan.here)
                } else {
                    best_square(s, scan, a.ranged, key.here_ok, aimed)
                };
                scan.mem.picked.push((key, targets.clone(), p));
                p
            }
        };
        match pick {
            Some(p) if p == scan.here => return Some(p),
            Some(p) => {
                if aim_decides(s, action, targets, here_ok.is_ok()) {
                    debug_assert!(
                        try_from(s, me, scan, p, cmd),
                        "the full check refuses {cmd:?} from {p}, which aiming alone accepted"
                    );
                    return Some(p);
                }
                if try_from(s, me, scan, p, cmd) {
                    return Some(p);
                }
            }
            None => return None,
        }
    }
    let area_decides = area_decides(s, a, action, &here_ok);
    let here_ok = here_ok.is_ok();
    let range = range_of(s, me, a);
    let chars = match &action.target {
        Target::Chars(l) => Some(l.clone()),
        _ => None,
    };
    // An area must have a square within range of where the user stands (THR-R80): a square
    // failing that fails the full check too, so it is passed over without one.
    let area = match &action.target {
        Target::Area(_) => check::shape_squares(s, me, action, scan.here),
        _ => None,
    };
    let area_in_range = |p: Pos| match (&area, range.unwrap_or(0)) {
        (None, _) => true,
        (Some(sq), 0) => sq.contains(&p),
        (Some(sq), _) => sq.iter().any(|q| calc::in_range_from(s, range, p, *q)),
    };
    // The full check from another square, or for an area that [`area_decides`] covers, what
    // of it depends on the square: some square of the area not Obstructed from it (THR-R129).
    let rolls = calc::rolls(s, a);
    let works_from = |scan: &mut Scan, p: Pos| -> bool {
        if !area_in_range(p) {
            return false;
        }
        match &area {
            Some(sq) if area_decides => {
                let ok = !rolls || sq.iter().any(|q| !calc::obstructed_from(s, me, a, p, *q));
                debug_assert_eq!(ok, try_from(s, me, scan, p, cmd), "{cmd:?} from {p}");
                ok
            }
            _ => try_from(s, me, scan, p, cmd),
        }
    };
    best_square(s, scan, a.ranged, here_ok, |_, p| {
        // A quick range pre-check before the full check on a moved copy.
        if let (Some(r), Some(l)) = (range, &chars)
            && l.iter()
                .any(|t| s.ch(*t).pos.is_none_or(|tp| calc::distance(s, p, tp) > r.max(1)))
        {
            return false;
        }
        true
    })
    .filter(|p| *p == scan.here || works_from(scan, *p))
    .or_else(|| {
        // The quick pass found a square the full check refuses: check every square fully.
        let mut best: Option<(f64, Pos)> = None;
        let mut found = 0;
        let mut i = 0;
        while let Some((p, cost)) = scan.square(i) {
            i += 1;
            let ok = if p == scan.here { here_ok } else { works_from(scan, p) };
            if !ok {
                continue;
            }
            let score = scan.position_score(s, p, a.ranged) - 0.05 * cost as f64;
            if best.is_none_or(|(b, _)| score > b + 1e-9) {
                best = Some((score, p));
            }
            found += 1;
            if found >= FROM_SQUARES {
                break;
            }
        }
        best.map(|(_, p)| p)
    })
}

/// How many squares the action works from are weighed before choosing among them.
pub(super) const FROM_SQUARES: usize = 6;

/// Among the first [`FROM_SQUARES`] squares (in the scan's order) that pass `ok` (the current
/// square passes when `here_ok`), the safest: cover against more enemies, and (for Ranged
/// users) no enemy next to it; moving costs a little.
pub(super) fn best_square(
    s: &State,
    scan: &mut Scan,
    ranged: bool,
    here_ok: bool,
    mut ok: impl FnMut(&mut Scan, Pos) -> bool,
) -> Option<Pos> {
    let mut best: Option<(f64, Pos)> = None;
    let mut found = 0;
    let mut i = 0;
    while let Some((p, cost)) = scan.square(i) {
        i += 1;
        let pass = if p == scan.here { here_ok } else { ok(scan, p) };
        if !pass {
            continue;
        }
        let score = scan.position_score(s, p, ranged) - 0.05 * cost as f64;
        if best.is_none_or(|(b, _)| score > b + 1e-9) {
            best = Some((score, p));
        }
        found += 1;
        if found >= FROM_SQUARES {
            break;
        }
    }
    best.map(|(_, p)| p)
}

/// The full check of an action with the user moved to `p`.
pub(super) fn try_from(s: &State, me: Cid, scan: &mut Scan, p: Pos, cmd: &Command) -> bool {
    let tmp = scan.tmp.get_or_insert_with(|| {
        let mut t = s.clone();
        t.turn.moved = true;
        t
    });
    tmp.chars[me as usize].pos = Some(p);
    check::allowed(tmp, cmd)
}
