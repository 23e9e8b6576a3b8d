//! Exact odds of Einfelst Wilds dice pools: a plain test, an attack against a dodge or parry
//! with weapon damage and armour, an opposed roll, a poison and a fall. `fray odds einfelst ...`
//! prints them ([`parse_and_run`]), and `fray play` shows [`attack_note`] beside each attack.
//!
//! A test rolls a pool of d6 and counts the dice that show a success face (EIN-H1: only the 6 by
//! default, so 1 face of 6; the `success-faces` option may name more). With `f` success faces
//! the successes of an `n`-die pool are binomial: `C(n, k) * f^k * (6 - f)^(n - k)` of the `6^n`
//! equally likely rolls give exactly `k`.
//!
//! Why not `fray_dice::Dist`: its counts are `u128`, which holds `6^32` (one full pool) but not
//! the joint rolls this module needs: an attack against a parry with a rolled armour pool has up
//! to `6^96` outcomes. So the counts here are [`Count`] (`fray_dice::count`, re-exported here), a
//! small exact natural number of any size, and every figure is a fraction of two of them.
//! Probabilities in the JSON are those fractions as `f64`; the text rounds each one exactly to one
//! decimal of a percent, and shows `<0.1%` or `>99.9%` rather than `0.0%` or `100.0%` for
//! outcomes that can or cannot happen.
//!
//! The readings, with the rules they come from:
//! - attack (EIN-R22, R23, R26, EIN-H6, EIN-H18): each defence success cancels one attack
//!   success; the attack hits when at least `need` successes are left; every success beyond that
//!   goes on damage, so Harm is `damage + extra`, less armour (a flat `armour` in `cancel` mode,
//!   or the successes of `armour` dice in `roll` mode), never below 0. A defence with more
//!   successes than the attack lets the defender swap cards (EIN-R7).
//! - opposed (EIN-R8, R27, R30, R33): compares success counts. "Needs strictly more" (break free
//!   against a hold) and "cancel, needs 1 left" (grapple, flee against a chase, ambush) are the
//!   same event, the first pool having more.
//! - poison (EIN-R41, R42, EIN-H27): the victim more → no Harm; a tie → 1 Harm (none for a 0-0
//!   tie if the `poison-zero-tie` option is `none`); the victim fewer → the poison's successes.
//!   Each later round deals 1 less, so a first dose of `h` totals `h (h + 1) / 2`.
//! - fall (EIN-R43, EIN-H5): whole 5 ft steps times the dice per step, no roll below the
//!   shortest fall that hurts; Harm is the Director's successes less the victim's Endure
//!   successes, never below 0. Armour does not protect.
//!
//! Every pool holds 1 to [`MAX_POOL`] dice (a pool never drops below 1 die, EIN-H2, and a roll
//! holds at most [`fray_dice::MAX_DICE`]); a rolled armour pool may be 0 dice (no armour). Bad
//! input is an `Err` with a sentence, never a panic.

use fray_dice::count::tenths;
pub use fray_dice::count::{Count, percent};
use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The most dice one pool may hold: as many as one roll can.
pub const MAX_POOL: u8 = fray_dice::MAX_DICE as u8;

/// The faces of a d6.
const SIDES: u32 = 6;

// ---------------------------------------------------------------------------------------------
// Exact distributions
// ---------------------------------------------------------------------------------------------

/// An exact distribution of a count (successes, Harm): `counts()[k]` of `total()` equally
/// likely outcomes give exactly `k`.
///
/// Invariants: `counts` is not empty, its last entry is not zero, and `total` is its sum (so
/// `total` is never zero). Serialised as `{"total", "mean", "outcomes": [{"value", "count",
/// "p_eq", "p_ge"}]}`, counts as decimal strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactDist {
    /// Outcomes giving each value from 0 up.
    counts: Vec<Count>,
    /// All outcomes.
    total: Count,
}

impl ExactDist {
    /// The value `v` for certain.
    fn constant(v: usize) -> ExactDist {
        let mut counts = vec![Count::zero(); v];
        counts.push(Count::from(1u64));
        ExactDist {
            counts,
            total: Count::from(1u64),
        }
    }

    /// Outcomes giving each value from 0 to the largest possible one.
    pub fn counts(&self) -> &[Count] {
        &self.counts
    }

    /// The number of equally likely outcomes.
    pub fn total(&self) -> &Count {
        &self.total
    }

    /// The largest possible value.
    pub fn max(&self) -> usize {
        self.counts.len().saturating_sub(1)
    }

    /// Outcomes giving exactly `k`.
    pub fn count_eq(&self, k: usize) -> Count {
        self.counts.get(k).cloned().unwrap_or_default()
    }

    /// Outcomes giving `k` or more.
    pub fn count_ge(&self, k: usize) -> Count {
        self.counts
            .get(k..)
            .unwrap_or_default()
            .iter()
            .fold(Count::zero(), |acc, c| &acc + c)
    }

    /// The chance of exactly `k`.
    pub fn p_eq(&self, k: usize) -> f64 {
        self.count_eq(k).ratio(&self.total)
    }

    /// The chance of `k` or more.
    pub fn p_ge(&self, k: usize) -> f64 {
        self.count_ge(k).ratio(&self.total)
    }

    /// The sum of every outcome's value: the mean is this over `total`.
    fn value_sum(&self) -> Count {
        self.counts.iter().enumerate().fold(Count::zero(), |acc, (k, c)| {
            &acc + &c.mul_small(u32::try_from(k).unwrap_or(u32::MAX))
        })
    }

    /// The mean value.
    pub fn mean(&self) -> f64 {
        self.value_sum().ratio(&self.total)
    }

    /// The mean rounded exactly to one decimal, as text.
    fn mean_text(&self) -> String {
        tenths(&self.value_sum(), &self.total)
    }

    /// The distribution of `f(X)`. `f` must return small values (they index a vector); every
    /// use here returns at most a few hundred.
    fn map(&self, f: impl Fn(usize) -> usize) -> ExactDist {
        let live: Vec<(usize, &Count)> = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_zero())
            .map(|(k, c)| (f(k), c))
            .collect();
        let len = live.iter().map(|&(v, _)| v + 1).max().unwrap_or(1);
        let mut counts = vec![Count::zero(); len];
        for (v, c) in live {
            if let Some(slot) = counts.get_mut(v) {
                *slot = &*slot + c;
            }
        }
        ExactDist {
            counts,
            total: self.total.clone(),
        }
    }

    /// The distribution of `f(X, Y)` for `X` (self) and an independent `Y`. `f` must return
    /// small values, as for `map`.
    fn combine(&self, other: &ExactDist, f: impl Fn(usize, usize) -> usize) -> ExactDist {
        let mut acc: BTreeMap<usize, Count> = BTreeMap::new();
        for (x, cx) in self.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            for (y, cy) in other.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
                let slot = acc.entry(f(x, y)).or_default();
                *slot = &*slot + &(cx * cy);
            }
        }
        let len = acc.keys().next_back().map_or(1, |&v| v + 1);
        let mut counts = vec![Count::zero(); len];
        for (v, c) in acc {
            if let Some(slot) = counts.get_mut(v) {
                *slot = c;
            }
        }
        ExactDist {
            counts,
            total: &self.total * &other.total,
        }
    }

    /// The distribution of `X - q` given `X >= q`, or `None` if `X` never reaches `q`.
    fn given_at_least(&self, q: usize) -> Option<ExactDist> {
        let counts = self.counts.get(q..).filter(|c| !c.is_empty())?.to_vec();
        let total = counts.iter().fold(Count::zero(), |acc, c| &acc + c);
        (!total.is_zero()).then_some(ExactDist { counts, total })
    }

    /// A table of P(exactly) and P(at least) for every value, headed by `label`.
    fn table(&self, label: &str) -> String {
        let width = label.len().max(5);
        let mut s = format!("  {label:>width$}  P(exactly)  P(at least)\n");
        let mut at_least = self.total.clone();
        for (k, c) in self.counts.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {k:>width$}  {:>10}  {:>11}",
                percent(c, &self.total),
                percent(&at_least, &self.total)
            );
            at_least = at_least.checked_sub(c).unwrap_or_default();
        }
        s
    }
}

/// One value of an [`ExactDist`] in JSON.
#[derive(Serialize)]
struct OutcomeJson<'a> {
    value: usize,
    count: &'a Count,
    p_eq: f64,
    p_ge: f64,
}

/// An [`ExactDist`] in JSON.
#[derive(Serialize)]
struct DistJson<'a> {
    total: &'a Count,
    mean: f64,
    outcomes: Vec<OutcomeJson<'a>>,
}

impl Serialize for ExactDist {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut at_least = self.total.clone();
        let mut outcomes = Vec::with_capacity(self.counts.len());
        for (value, count) in self.counts.iter().enumerate() {
            outcomes.push(OutcomeJson {
                value,
                count,
                p_eq: count.ratio(&self.total),
                p_ge: at_least.ratio(&self.total),
            });
            at_least = at_least.checked_sub(count).unwrap_or_default();
        }
        DistJson {
            total: &self.total,
            mean: self.mean(),
            outcomes,
        }
        .serialize(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// Refuses a number of success faces outside 1..=6.
fn check_faces(faces: u8) -> Result<(), String> {
    if (1..=6).contains(&faces) {
        Ok(())
    } else {
        Err(format!(
            "{faces} success faces: a d6 has 1 to 6 faces that can count as a success"
        ))
    }
}

/// Refuses a pool outside 1..=MAX_POOL; `what` names it.
fn check_pool(what: &str, n: u8) -> Result<(), String> {
    if (1..=MAX_POOL).contains(&n) {
        Ok(())
    } else {
        Err(format!("{what} of {n} dice: a pool holds 1 to {MAX_POOL} dice"))
    }
}

/// "1 die" or "N dice".
fn dice(n: u8) -> String {
    if n == 1 {
        "1 die".to_string()
    } else {
        format!("{n} dice")
    }
}

/// "1 success" or "N successes".
fn successes_word(n: u8) -> String {
    if n == 1 {
        "1 success".to_string()
    } else {
        format!("{n} successes")
    }
}

/// Which faces succeed, for the text.
fn faces_text(faces: u8) -> String {
    if faces == 1 {
        "a success on 1 face of 6".to_string()
    } else {
        format!("a success on {faces} faces of 6")
    }
}

// ---------------------------------------------------------------------------------------------
// A plain pool
// ---------------------------------------------------------------------------------------------

/// The successes of an `n`-die pool with `faces` success faces of 6: `6^n` equally likely rolls.
///
/// Errors: `n` outside 1..=[`MAX_POOL`], `faces` outside 1..=6.
pub fn successes(n: u8, faces: u8) -> Result<ExactDist, String> {
    check_faces(faces)?;
    check_pool("a pool", n)?;
    Ok(binomial(n, faces))
}

/// The successes of `n` dice (any `n`, 0 giving the constant 0), with `faces` in 1..=6.
fn binomial(n: u8, faces: u8) -> ExactDist {
    let hit = u32::from(faces).min(SIDES);
    let miss = SIDES - hit;
    // Add one die at a time: k successes come from k with a miss or k - 1 with a hit.
    let mut counts = vec![Count::from(1u64)];
    for _ in 0..n {
        let mut next = vec![Count::zero(); counts.len() + 1];
        for (k, c) in counts.iter().enumerate() {
            next[k] = &next[k] + &c.mul_small(miss);
            next[k + 1] = &next[k + 1] + &c.mul_small(hit);
        }
        counts = next;
    }
    let total = counts.iter().fold(Count::zero(), |acc, c| &acc + c);
    while counts.len() > 1 && counts.last().is_some_and(Count::is_zero) {
        counts.pop();
    }
    ExactDist { counts, total }
}

/// The odds of a plain test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolOdds {
    /// Dice in the pool.
    pub dice: u8,
    /// Success faces of 6.
    pub faces: u8,
    /// The successes.
    pub successes: ExactDist,
    /// The successes needed, if asked.
    pub need: Option<u8>,
    /// Rolls with at least `need` successes, if asked.
    pub passes: Option<Count>,
    /// The chance of at least `need` successes, if asked.
    pub p_pass: Option<f64>,
}

/// The odds of a test of `dice` dice, and of reaching `need` successes if given.
///
/// Errors: as [`successes`].
pub fn pool(dice: u8, need: Option<u8>, faces: u8) -> Result<PoolOdds, String> {
    let dist = successes(dice, faces)?;
    let passes = need.map(|k| dist.count_ge(usize::from(k)));
    let p_pass = passes.as_ref().map(|c| c.ratio(dist.total()));
    Ok(PoolOdds {
        dice,
        faces,
        successes: dist,
        need,
        passes,
        p_pass,
    })
}

/// [`PoolOdds`] as text.
pub fn pool_text(o: &PoolOdds) -> String {
    let d = &o.successes;
    let mut s = format!(
        "{}, {}: {} equally likely rolls, {} successes on average\n",
        dice(o.dice),
        faces_text(o.faces),
        d.total(),
        d.mean_text()
    );
    s.push_str(&d.table("successes"));
    if let (Some(k), Some(c)) = (o.need, &o.passes) {
        let _ = writeln!(s, "P(at least {}) = {}", successes_word(k), percent(c, d.total()));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// An attack
// ---------------------------------------------------------------------------------------------

/// How armour protects (EIN-H6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArmourMode {
    /// Armour N cancels N Harm.
    Cancel,
    /// Armour N rolls N dice; each success cancels 1 Harm.
    Roll,
}

/// One attack to work out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AttackSpec {
    /// The attack pool (Strike, Shoot or Force).
    pub attack: u8,
    /// The dodge or parry pool, if the defender reacts.
    pub defence: Option<u8>,
    /// Successes left after the defence that the attack needs: 1 plus any circumstances.
    pub need: u8,
    /// The weapon's damage.
    pub damage: u8,
    /// The target's armour.
    pub armour: u8,
    /// How armour protects.
    pub armour_mode: ArmourMode,
    /// Success faces of 6.
    pub faces: u8,
}

/// The odds of one attack when every extra success goes on damage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackOdds {
    /// What was worked out.
    pub spec: AttackSpec,
    /// Equally likely rolls of the attack and defence pools together.
    pub outcomes: Count,
    /// Rolls that hit.
    pub hits: Count,
    /// The chance of a hit.
    pub p_hit: f64,
    /// Rolls where the defence has more successes than the attack (0 without a defence).
    pub defender_swaps: Count,
    /// The chance that the defender may swap initiative cards (EIN-R7, EIN-H18).
    pub p_defender_swaps: f64,
    /// Successes left after the defence cancels (before `need`).
    pub net: ExactDist,
    /// Extra successes (beyond `need`) given a hit; `None` if the attack cannot hit.
    pub extra_on_hit: Option<ExactDist>,
    /// Harm per attack (a miss deals 0), over the attack, defence and armour rolls.
    pub harm: ExactDist,
    /// Harm given a hit; `None` if the attack cannot hit.
    pub harm_on_hit: Option<ExactDist>,
    /// The Harm to expect per attack.
    pub expected_harm: f64,
    /// The Harm to expect given a hit; `None` if the attack cannot hit.
    pub expected_harm_on_hit: Option<f64>,
}

/// The odds of the attack `spec` (EIN-R22, R23, R26, R7, EIN-H6, EIN-H18).
///
/// Errors: a pool outside 1..=[`MAX_POOL`], `need` 0, a rolled armour pool above
/// [`MAX_POOL`], `faces` outside 1..=6.
pub fn attack(spec: &AttackSpec) -> Result<AttackOdds, String> {
    check_faces(spec.faces)?;
    check_pool("an attack", spec.attack)?;
    if let Some(d) = spec.defence {
        check_pool("a defence", d)?;
    }
    if spec.need == 0 {
        return Err("need 0: an attack needs at least 1 success left to hit".to_string());
    }
    if spec.armour_mode == ArmourMode::Roll && spec.armour > MAX_POOL {
        return Err(format!(
            "armour {} in roll mode: a rolled pool holds at most {MAX_POOL} dice",
            spec.armour
        ));
    }
    let att = binomial(spec.attack, spec.faces);
    let def = spec
        .defence
        .map_or_else(|| ExactDist::constant(0), |d| binomial(d, spec.faces));
    let net = att.combine(&def, |a, d| a.saturating_sub(d));
    let swaps = att.combine(&def, |a, d| usize::from(d > a)).count_eq(1);
    let need = usize::from(spec.need);
    let damage = usize::from(spec.damage);
    let hits = net.count_ge(need);
    let armour = |raw: &ExactDist| -> ExactDist {
        let r = usize::from(spec.armour);
        match spec.armour_mode {
            ArmourMode::Cancel => raw.map(|h| h.saturating_sub(r)),
            ArmourMode::Roll => raw.combine(&binomial(spec.armour, spec.faces), |h, s| h.saturating_sub(s)),
        }
    };
    let harm = armour(&net.map(|n| if n >= need { damage + n - need } else { 0 }));
    let extra_on_hit = net.given_at_least(need);
    let harm_on_hit = extra_on_hit.as_ref().map(|e| armour(&e.map(|x| damage + x)));
    Ok(AttackOdds {
        spec: *spec,
        p_hit: hits.ratio(net.total()),
        p_defender_swaps: swaps.ratio(net.total()),
        outcomes: net.total().clone(),
        hits,
        defender_swaps: swaps,
        expected_harm: harm.mean(),
        expected_harm_on_hit: harm_on_hit.as_ref().map(ExactDist::mean),
        net,
        extra_on_hit,
        harm,
        harm_on_hit,
    })
}

/// [`AttackOdds`] as text.
pub fn attack_text(o: &AttackOdds) -> String {
    let a = &o.spec;
    let defence = match a.defence {
        Some(d) => format!("a defence of {}", dice(d)),
        None => "no defence".to_string(),
    };
    let armour = match (a.armour, a.armour_mode) {
        (0, _) => "no armour".to_string(),
        (r, ArmourMode::Cancel) => format!("armour {r} (cancels {r} Harm)"),
        (r, ArmourMode::Roll) => format!("armour {r} (rolls {}, each success cancels 1 Harm)", dice(r)),
    };
    let mut s = format!(
        "attack of {} against {}, needing {} left, damage {}, {}; {}\n",
        dice(a.attack),
        defence,
        successes_word(a.need),
        a.damage,
        armour,
        faces_text(a.faces)
    );
    let _ = write!(s, "hit: {}", percent(&o.hits, &o.outcomes));
    if a.defence.is_some() {
        let _ = write!(
            s,
            "; the defence beats the attack and may swap cards: {}",
            percent(&o.defender_swaps, &o.outcomes)
        );
    }
    s.push('\n');
    match (&o.harm_on_hit, &o.extra_on_hit) {
        (Some(on_hit), Some(extra)) => {
            let _ = writeln!(
                s,
                "Harm with every extra success on damage: {} on average per attack, {} on a hit",
                o.harm.mean_text(),
                on_hit.mean_text()
            );
            s.push_str(&o.harm.table("Harm"));
            s.push_str("extra successes, given a hit:\n");
            s.push_str(&extra.table("extra"));
        }
        _ => {
            let _ = writeln!(
                s,
                "the attack cannot hit: {} can never leave {}",
                dice(a.attack),
                successes_word(a.need)
            );
        }
    }
    s
}

/// A one-line summary of an attack for the table prompt, such as `hit 42.1%, harm 0.9 on
/// average (2.3 on a hit), defender swaps 8.0%` (the swap only with a defence). Bad input gives
/// a line saying why instead.
pub fn attack_note(a: u8, d: Option<u8>, need: u8, damage: u8, armour: u8, roll_armour: bool, faces: u8) -> String {
    let spec = AttackSpec {
        attack: a,
        defence: d,
        need,
        damage,
        armour,
        armour_mode: if roll_armour {
            ArmourMode::Roll
        } else {
            ArmourMode::Cancel
        },
        faces,
    };
    let o = match attack(&spec) {
        Ok(o) => o,
        Err(e) => return format!("no odds: {e}"),
    };
    let mut s = format!("hit {}", percent(&o.hits, &o.outcomes));
    match &o.harm_on_hit {
        Some(on_hit) => {
            let _ = write!(
                s,
                ", harm {} on average ({} on a hit)",
                o.harm.mean_text(),
                on_hit.mean_text()
            );
        }
        None => s.push_str(", no harm"),
    }
    if d.is_some() {
        let _ = write!(s, ", defender swaps {}", percent(&o.defender_swaps, &o.outcomes));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// An opposed roll
// ---------------------------------------------------------------------------------------------

/// The odds of an opposed roll between two pools.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpposedOdds {
    /// The first pool.
    pub first: u8,
    /// The second pool.
    pub second: u8,
    /// Success faces of 6.
    pub faces: u8,
    /// Equally likely rolls of both pools.
    pub outcomes: Count,
    /// Rolls where the first pool has more successes.
    pub first_more: Count,
    /// Rolls with equal successes.
    pub tie: Count,
    /// Rolls where the second pool has more successes.
    pub second_more: Count,
    /// The chance that the first pool has more: it breaks free of a hold (EIN-R30), or keeps at
    /// least 1 success after the second cancels (EIN-R8, R27, R33).
    pub p_first_more: f64,
    /// The chance of a tie.
    pub p_tie: f64,
    /// The chance that the second pool has more.
    pub p_second_more: f64,
    /// The first pool's successes left after the second cancels one for one.
    pub left: ExactDist,
}

/// The odds of `first` dice against `second` dice.
///
/// Errors: a pool outside 1..=[`MAX_POOL`], `faces` outside 1..=6.
pub fn opposed(first: u8, second: u8, faces: u8) -> Result<OpposedOdds, String> {
    check_faces(faces)?;
    check_pool("a first pool", first)?;
    check_pool("a second pool", second)?;
    let (x, y) = (binomial(first, faces), binomial(second, faces));
    let order = x.combine(&y, |a, b| match a.cmp(&b) {
        Ordering::Less => 0,
        Ordering::Equal => 1,
        Ordering::Greater => 2,
    });
    let left = x.combine(&y, |a, b| a.saturating_sub(b));
    let total = order.total().clone();
    let (second_more, tie, first_more) = (order.count_eq(0), order.count_eq(1), order.count_eq(2));
    Ok(OpposedOdds {
        first,
        second,
        faces,
        p_first_more: first_more.ratio(&total),
        p_tie: tie.ratio(&total),
        p_second_more: second_more.ratio(&total),
        outcomes: total,
        first_more,
        tie,
        second_more,
        left,
    })
}

/// [`OpposedOdds`] as text.
pub fn opposed_text(o: &OpposedOdds) -> String {
    let t = &o.outcomes;
    let mut s = format!(
        "{} against {}, {}: {} equally likely rolls\n",
        dice(o.first),
        dice(o.second),
        faces_text(o.faces),
        t
    );
    let _ = writeln!(
        s,
        "first more: {} (needs strictly more: breaks free of a hold; keeps 1 or more after cancelling)",
        percent(&o.first_more, t)
    );
    let _ = writeln!(s, "tie: {}", percent(&o.tie, t));
    let _ = writeln!(s, "second more: {}", percent(&o.second_more, t));
    s.push_str("first pool's successes left after the second cancels:\n");
    s.push_str(&o.left.table("left"));
    s
}

// ---------------------------------------------------------------------------------------------
// Poison
// ---------------------------------------------------------------------------------------------

/// What a 0-0 poison tie deals (EIN-H27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroTie {
    /// A tie is a tie: 1 Harm.
    OneHarm,
    /// No successes on either side: no Harm.
    #[serde(rename = "none")]
    NoHarm,
}

/// The odds of one exposure to a poison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoisonOdds {
    /// Toxicity dice the Director rolls.
    pub toxicity: u8,
    /// The victim's Endure pool.
    pub endure: u8,
    /// What a 0-0 tie deals.
    pub zero_tie: ZeroTie,
    /// Success faces of 6.
    pub faces: u8,
    /// Equally likely rolls of both pools.
    pub outcomes: Count,
    /// Rolls where the victim has more successes (no Harm).
    pub victim_more: Count,
    /// Rolls with equal successes.
    pub tie: Count,
    /// Rolls where neither side has a success (a tie too).
    pub zero_zero: Count,
    /// Rolls where the victim has fewer successes.
    pub victim_fewer: Count,
    /// The Harm of the exposure.
    pub harm: ExactDist,
    /// The Harm over every round with no antidote: each round 1 less (EIN-R42).
    pub harm_all_rounds: ExactDist,
}

/// The odds of `toxicity` poison dice against an Endure pool of `endure` (EIN-R41, R42,
/// EIN-H27).
///
/// Errors: a pool outside 1..=[`MAX_POOL`], `faces` outside 1..=6.
pub fn poison(toxicity: u8, endure: u8, zero_tie: ZeroTie, faces: u8) -> Result<PoisonOdds, String> {
    check_faces(faces)?;
    check_pool("a toxicity", toxicity)?;
    check_pool("an Endure pool", endure)?;
    let (p, v) = (binomial(toxicity, faces), binomial(endure, faces));
    // 0: victim more, 1: tie with successes, 2: 0-0 tie, 3: victim fewer.
    let kind = p.combine(&v, |p, v| match v.cmp(&p) {
        Ordering::Greater => 0,
        Ordering::Equal if p == 0 => 2,
        Ordering::Equal => 1,
        Ordering::Less => 3,
    });
    let harm = p.combine(&v, |p, v| match v.cmp(&p) {
        Ordering::Greater => 0,
        Ordering::Equal if p == 0 && zero_tie == ZeroTie::NoHarm => 0,
        Ordering::Equal => 1,
        Ordering::Less => p,
    });
    let harm_all_rounds = harm.map(|h| h * (h + 1) / 2);
    let zero_zero = kind.count_eq(2);
    Ok(PoisonOdds {
        toxicity,
        endure,
        zero_tie,
        faces,
        outcomes: kind.total().clone(),
        victim_more: kind.count_eq(0),
        tie: &kind.count_eq(1) + &zero_zero,
        zero_zero,
        victim_fewer: kind.count_eq(3),
        harm,
        harm_all_rounds,
    })
}

/// [`PoisonOdds`] as text.
pub fn poison_text(o: &PoisonOdds) -> String {
    let t = &o.outcomes;
    let tie_rule = match o.zero_tie {
        ZeroTie::OneHarm => "a 0-0 tie deals 1 Harm",
        ZeroTie::NoHarm => "a 0-0 tie deals no Harm",
    };
    let mut s = format!(
        "poison of toxicity {} against an Endure pool of {}, {}; {}\n",
        dice(o.toxicity),
        dice(o.endure),
        tie_rule,
        faces_text(o.faces)
    );
    let _ = writeln!(
        s,
        "victim more (no Harm): {}; tie: {} (0-0: {}); victim fewer: {}",
        percent(&o.victim_more, t),
        percent(&o.tie, t),
        percent(&o.zero_zero, t),
        percent(&o.victim_fewer, t)
    );
    let _ = writeln!(
        s,
        "Harm: {} on average this round, {} over every round without an antidote (1 less each round)",
        o.harm.mean_text(),
        o.harm_all_rounds.mean_text()
    );
    s.push_str(&o.harm.table("Harm"));
    s
}

// ---------------------------------------------------------------------------------------------
// Falling
// ---------------------------------------------------------------------------------------------

/// The Director's dice for a fall of `feet` onto a hard surface (EIN-H5): whole 5 ft steps times
/// `dice_per_5ft`, or 0 (no roll) below `min_feet`.
pub fn fall_dice(feet: u32, dice_per_5ft: u8, min_feet: u32) -> u64 {
    if feet < min_feet {
        0
    } else {
        u64::from(feet / 5) * u64::from(dice_per_5ft)
    }
}

/// The odds of a fall.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FallOdds {
    /// The height in feet.
    pub feet: u32,
    /// Dice per whole 5 ft.
    pub dice_per_5ft: u8,
    /// The shortest fall that is rolled.
    pub min_feet: u32,
    /// The victim's Endure pool.
    pub endure: u8,
    /// Success faces of 6.
    pub faces: u8,
    /// The Director's dice (0: no roll).
    pub dice: u8,
    /// Whether the fall is rolled at all.
    pub rolled: bool,
    /// The Physical Harm (armour does not protect).
    pub harm: ExactDist,
}

/// The odds of a fall of `feet` onto a hard surface against an Endure pool of `endure` (EIN-R43,
/// EIN-H5).
///
/// Errors: `dice_per_5ft` 0, an Endure pool outside 1..=[`MAX_POOL`], a fall that makes more
/// than [`MAX_POOL`] dice, `faces` outside 1..=6.
pub fn fall(feet: u32, dice_per_5ft: u8, min_feet: u32, endure: u8, faces: u8) -> Result<FallOdds, String> {
    check_faces(faces)?;
    check_pool("an Endure pool", endure)?;
    if dice_per_5ft == 0 {
        return Err("0 dice per 5 ft: a fall rolls at least 1 die per 5 ft".to_string());
    }
    let n = fall_dice(feet, dice_per_5ft, min_feet);
    let dice = u8::try_from(n).ok().filter(|&n| n <= MAX_POOL).ok_or_else(|| {
        format!("a fall of {feet} ft makes {n} dice ({dice_per_5ft} per 5 ft): a pool holds at most {MAX_POOL}")
    })?;
    let harm = if dice == 0 {
        ExactDist::constant(0)
    } else {
        binomial(dice, faces).combine(&binomial(endure, faces), |d, v| d.saturating_sub(v))
    };
    Ok(FallOdds {
        feet,
        dice_per_5ft,
        min_feet,
        endure,
        faces,
        dice,
        rolled: dice > 0,
        harm,
    })
}

/// [`FallOdds`] as text.
pub fn fall_text(o: &FallOdds) -> String {
    if !o.rolled {
        let why = if o.feet < o.min_feet {
            format!("falls under {} ft are not rolled", o.min_feet)
        } else {
            "it is less than one whole 5 ft step".to_string()
        };
        return format!("a fall of {} ft: no roll and no Harm ({why})\n", o.feet);
    }
    let mut s = format!(
        "a fall of {} ft onto a hard surface: the Director rolls {} against an Endure pool of {}, {}\n",
        o.feet,
        dice(o.dice),
        dice(o.endure),
        faces_text(o.faces)
    );
    let _ = writeln!(
        s,
        "Physical Harm (armour does not protect): {} on average, any Harm {}",
        o.harm.mean_text(),
        percent(&o.harm.count_ge(1), o.harm.total())
    );
    s.push_str(&o.harm.table("Harm"));
    s
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

/// The grammar of `fray odds einfelst`, for error messages.
pub const GRAMMAR: &str = "expected one of: pool N [need K] | attack N [vs D] [need Q] [damage W] \
[armour R] [armour-mode cancel|roll] | opposed A vs B | poison T vs V [zero-tie one-harm|none] | \
fall FEET vs V [dice-per-5ft K] [min-feet M]; each may add faces F (success faces of 6, default 1)";

/// Reads `value`, the number after `word`, as a whole number in `lo..=hi`; `what` says what it
/// is.
fn number(word: &str, value: &str, lo: u32, hi: u32, what: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("{word} {value}: {what} is a whole number from {lo} to {hi}; {GRAMMAR}"))
}

/// Reads a pool size after `word`.
fn pool_number(word: &str, value: &str) -> Result<u8, String> {
    let n = number(word, value, 1, u32::from(MAX_POOL), "a pool of dice")?;
    u8::try_from(n).map_err(|_| format!("{word} {value}: too many dice; {GRAMMAR}"))
}

/// Reads a small number (0..=99, or 1..=99 when `lo` is 1) after `word`.
fn small_number(word: &str, value: &str, lo: u32, what: &str) -> Result<u8, String> {
    let n = number(word, value, lo, 99, what)?;
    u8::try_from(n).map_err(|_| format!("{word} {value}: too large; {GRAMMAR}"))
}

/// Keyword-value pairs after the first number, each keyword at most once.
struct Words<'a> {
    /// The command word, for messages.
    command: &'a str,
    /// The pairs read.
    pairs: BTreeMap<&'a str, &'a str>,
}

impl<'a> Words<'a> {
    /// Reads `rest` as pairs of a keyword from `allowed` and its value.
    fn read(command: &'a str, rest: &[&'a str], allowed: &[&str]) -> Result<Words<'a>, String> {
        let mut pairs = BTreeMap::new();
        let mut it = rest.iter();
        while let Some(&word) = it.next() {
            if !allowed.contains(&word) {
                let expected = if allowed.is_empty() {
                    "nothing more".to_string()
                } else {
                    allowed.join(", ")
                };
                return Err(format!(
                    "'{word}' is not understood after '{command}' (expected {expected}); {GRAMMAR}"
                ));
            }
            let Some(&value) = it.next() else {
                return Err(format!("'{word}' needs a value; {GRAMMAR}"));
            };
            if pairs.insert(word, value).is_some() {
                return Err(format!("'{word}' is given twice; {GRAMMAR}"));
            }
        }
        Ok(Words { command, pairs })
    }

    /// The value of `word`, if given.
    fn get(&self, word: &str) -> Option<&'a str> {
        self.pairs.get(word).copied()
    }

    /// The value of `word`, which must be given.
    fn need(&self, word: &str) -> Result<&'a str, String> {
        self.get(word)
            .ok_or_else(|| format!("'{}' needs '{word}' and a number; {GRAMMAR}", self.command))
    }
}

/// Serialises a result and tags it with its kind.
fn to_json(kind: &str, value: &impl Serialize) -> Result<serde_json::Value, String> {
    let mut v = serde_json::to_value(value).map_err(|e| format!("cannot write the odds as JSON: {e}"))?;
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("kind".to_string(), serde_json::Value::from(kind));
    }
    Ok(v)
}

/// Runs `fray odds einfelst ARGS...`: reads the calculation (see [`GRAMMAR`]) and returns its
/// text and JSON. A `faces F` pair may stand anywhere.
pub fn parse_and_run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    run(args).map_err(|e| {
        if e.contains(GRAMMAR) {
            e
        } else {
            format!("{e}; {GRAMMAR}")
        }
    })
}

/// [`parse_and_run`], with errors that may lack the grammar.
fn run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    // Take out `faces F` wherever it stands; no other value is the word "faces".
    let mut faces = None;
    let mut words: Vec<&str> = Vec::with_capacity(args.len());
    let mut it = args.iter().map(String::as_str);
    while let Some(word) = it.next() {
        if word == "faces" {
            let Some(value) = it.next() else {
                return Err(format!("'faces' needs a number; {GRAMMAR}"));
            };
            let f = number("faces", value, 1, 6, "the number of success faces of a d6")?;
            if faces.replace(f).is_some() {
                return Err(format!("'faces' is given twice; {GRAMMAR}"));
            }
        } else {
            words.push(word);
        }
    }
    let faces = faces.map_or(1, |f| f as u8);
    let Some((&command, rest)) = words.split_first() else {
        return Err(format!("nothing to work out; {GRAMMAR}"));
    };
    let Some((&first, rest)) = rest.split_first() else {
        return Err(format!("'{command}' needs a number first; {GRAMMAR}"));
    };
    match command {
        "pool" => {
            let n = pool_number("pool", first)?;
            let w = Words::read(command, rest, &["need"])?;
            let need = w
                .get("need")
                .map(|v| small_number("need", v, 1, "the successes needed"))
                .transpose()?;
            let o = pool(n, need, faces)?;
            Ok((pool_text(&o), to_json("pool", &o)?))
        }
        "attack" => {
            let n = pool_number("attack", first)?;
            let w = Words::read(
                command,
                rest,
                &["vs", "need", "damage", "armour", "armor", "armour-mode", "armor-mode"],
            )?;
            let defence = w.get("vs").map(|v| pool_number("vs", v)).transpose()?;
            let need = match w.get("need") {
                Some(v) => small_number("need", v, 1, "the successes needed")?,
                None => 1,
            };
            let damage = match w.get("damage") {
                Some(v) => small_number("damage", v, 0, "the weapon's damage")?,
                None => 0,
            };
            let armour_value = match (w.get("armour"), w.get("armor")) {
                (Some(_), Some(_)) => return Err(format!("'armour' is given twice; {GRAMMAR}")),
                (Some(v), None) => small_number("armour", v, 0, "armour")?,
                (None, Some(v)) => small_number("armor", v, 0, "armour")?,
                (None, None) => 0,
            };
            let armour_mode = match (w.get("armour-mode"), w.get("armor-mode")) {
                (Some(_), Some(_)) => {
                    return Err(format!("'armour-mode' is given twice; {GRAMMAR}"));
                }
                (Some(v), None) | (None, Some(v)) => match v {
                    "cancel" => ArmourMode::Cancel,
                    "roll" => ArmourMode::Roll,
                    other => {
                        return Err(format!("armour-mode {other}: the mode is cancel or roll; {GRAMMAR}"));
                    }
                },
                (None, None) => ArmourMode::Cancel,
            };
            let spec = AttackSpec {
                attack: n,
                defence,
                need,
                damage,
                armour: armour_value,
                armour_mode,
                faces,
            };
            let o = attack(&spec)?;
            Ok((attack_text(&o), to_json("attack", &o)?))
        }
        "opposed" => {
            let a = pool_number("opposed", first)?;
            let w = Words::read(command, rest, &["vs"])?;
            let b = pool_number("vs", w.need("vs")?)?;
            let o = opposed(a, b, faces)?;
            Ok((opposed_text(&o), to_json("opposed", &o)?))
        }
        "poison" => {
            let t = pool_number("poison", first)?;
            let w = Words::read(command, rest, &["vs", "zero-tie"])?;
            let v = pool_number("vs", w.need("vs")?)?;
            let zero_tie = match w.get("zero-tie") {
                None | Some("one-harm") => ZeroTie::OneHarm,
                Some("none") => ZeroTie::NoHarm,
                Some(other) => {
                    return Err(format!("zero-tie {other}: a 0-0 tie deals one-harm or none; {GRAMMAR}"));
                }
            };
            let o = poison(t, v, zero_tie, faces)?;
            Ok((poison_text(&o), to_json("poison", &o)?))
        }
        "fall" => {
            let feet = number("fall", first, 0, 10_000, "the height in feet")?;
            let w = Words::read(command, rest, &["vs", "dice-per-5ft", "min-feet"])?;
            let v = pool_number("vs", w.need("vs")?)?;
            let per = match w.get("dice-per-5ft") {
                Some(value) => {
                    let n = number("dice-per-5ft", value, 1, u32::from(MAX_POOL), "dice per 5 ft")?;
                    u8::try_from(n).map_err(|_| format!("dice-per-5ft {value}: too many; {GRAMMAR}"))?
                }
                None => 1,
            };
            let min_feet = match w.get("min-feet") {
                Some(value) => number("min-feet", value, 0, 10_000, "the shortest fall rolled")?,
                None => 10,
            };
            let o = fall(feet, per, min_feet, v, faces)?;
            Ok((fall_text(&o), to_json("fall", &o)?))
        }
        other => Err(format!("'{other}' is not a calculation; {GRAMMAR}")),
    }
}
