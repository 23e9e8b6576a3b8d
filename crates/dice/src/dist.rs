//! Exact distributions of dice outcomes.
//!
//! A [`Dist`] counts, for every integer outcome, how many of a finite set of
//! equally likely ways produce it. Counts are `u128` and every operation
//! that can grow them uses checked arithmetic: when a count or the total
//! would not fit, the operation returns [`DistError::TooLarge`] instead of
//! wrapping or panicking. The total of a dice pool is `sides^count`, so
//! this is checked first and a hopeless request such as `100d1000` fails at
//! once, before any work.
//!
//! Keep-highest and keep-lowest pools are computed without enumerating the
//! `sides^count` outcomes: a dynamic programme walks the face values from
//! high to low, choosing how many dice show each value (counted with
//! binomial coefficients), and tracks only the dice above the keep cut-off.
//! Once `K` dice are placed, the rest are dropped and counted in closed
//! form. The cost is roughly `sides^2 * keep^3` steps.
//!
//! Every call is also bounded in time: a computation estimated at more than
//! [`WORK_LIMIT`] elementary steps returns [`DistError::TooLarge`] too.
//! Only pools with thousands of sides reach that; anything whose total fits
//! and that the dice notation accepts (at most 1000 sides) stays far below.
//!
//! Probabilities are `count / total` converted to `f64`: the two
//! conversions and the division each round once, so the relative error is
//! below 1e-15. Means and variances use exact integer sums where they fit in
//! `u128` and fall back to a numerically stable floating-point pass when
//! they do not.

use crate::notation::{DiceExpr, Term, kept_count};
use crate::roll::Keep;

/// An exact distribution of an integer outcome: `counts[i]` ways to get
/// `min + i`, out of `total` equally likely ways.
///
/// Invariants: `counts` is not empty, its first and last entries are not
/// zero, `total` is the sum of `counts`, and `min + counts.len() - 1` fits
/// in an `i64`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dist {
    /// The smallest possible outcome.
    min: i64,
    /// Ways to get each outcome from `min` upwards.
    counts: Vec<u128>,
    /// The number of equally likely ways in all.
    total: u128,
}

/// Why a distribution could not be computed.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DistError {
    /// A count, the total or an outcome would not fit.
    #[error("the distribution is too large to compute exactly")]
    TooLarge,
    /// The request makes no sense (for example a die with no sides).
    #[error("{0}")]
    Invalid(String),
}

/// The most elementary steps (multiply-adds of counts) one operation may
/// take before it gives up with [`DistError::TooLarge`]; about a few
/// seconds of work.
pub const WORK_LIMIT: u128 = 1 << 30;

/// Fails with [`DistError::TooLarge`] if `steps` (`None` meaning
/// uncountably many) exceeds [`WORK_LIMIT`].
fn check_work(steps: Option<u128>) -> Result<(), DistError> {
    match steps {
        Some(steps) if steps <= WORK_LIMIT => Ok(()),
        _ => Err(DistError::TooLarge),
    }
}

/// The error for a zero-sided die.
fn no_sides() -> DistError {
    DistError::Invalid("a die needs at least one side".to_string())
}

/// Adds `a * b` to `acc`, failing instead of overflowing.
fn mul_add(acc: &mut u128, a: u128, b: u128) -> Result<(), DistError> {
    *acc = a
        .checked_mul(b)
        .and_then(|p| acc.checked_add(p))
        .ok_or(DistError::TooLarge)?;
    Ok(())
}

/// `sides^count`, the number of equally likely outcomes of a pool.
fn pool_total(count: u16, sides: u16) -> Result<u128, DistError> {
    u128::from(sides)
        .checked_pow(u32::from(count))
        .ok_or(DistError::TooLarge)
}

impl Dist {
    /// Builds a distribution from raw counts starting at `min`, trimming
    /// zero counts at both ends and computing the total.
    fn from_counts(min: i64, mut counts: Vec<u128>) -> Result<Dist, DistError> {
        let first = counts.iter().position(|&c| c != 0);
        let last = counts.iter().rposition(|&c| c != 0);
        let (Some(first), Some(last)) = (first, last) else {
            return Err(DistError::Invalid(
                "a distribution needs at least one possible outcome".to_string(),
            ));
        };
        let offset = i64::try_from(first).map_err(|_| DistError::TooLarge)?;
        let span = i64::try_from(last - first).map_err(|_| DistError::TooLarge)?;
        let min = min.checked_add(offset).ok_or(DistError::TooLarge)?;
        min.checked_add(span).ok_or(DistError::TooLarge)?;
        counts.truncate(last + 1);
        counts.drain(..first);
        let total = counts
            .iter()
            .try_fold(0u128, |acc, &c| acc.checked_add(c))
            .ok_or(DistError::TooLarge)?;
        Ok(Dist { min, counts, total })
    }

    /// The distribution that is always `v`.
    pub fn constant(v: i64) -> Dist {
        Dist {
            min: v,
            counts: vec![1],
            total: 1,
        }
    }

    /// One die, uniform over `1..=sides`. A zero-sided die has no faces to
    /// add, so `die(0)` is the constant 0 (the fallible constructors reject
    /// zero sides instead).
    pub fn die(sides: u16) -> Dist {
        if sides == 0 {
            return Dist::constant(0);
        }
        Dist {
            min: 1,
            counts: vec![1; usize::from(sides)],
            total: u128::from(sides),
        }
    }

    /// The sum of `count` dice with `sides` sides (`NdM`), by repeated
    /// convolution with one die (a sliding-window sum, so each step is
    /// linear in the range).
    pub fn sum_of(count: u16, sides: u16) -> Result<Dist, DistError> {
        if sides == 0 {
            return Err(no_sides());
        }
        if count == 0 {
            return Ok(Dist::constant(0));
        }
        if sides == 1 {
            return Ok(Dist::constant(i64::from(count)));
        }
        pool_total(count, sides)?;
        let s = usize::from(sides);
        // Start from the sum of zero dice, which is 0 in one way.
        let mut counts = vec![1u128];
        for _ in 0..count {
            let mut next = vec![0u128; counts.len() + s - 1];
            let mut window = 0u128;
            for (i, slot) in next.iter_mut().enumerate() {
                if let Some(&entering) = counts.get(i) {
                    window = window.checked_add(entering).ok_or(DistError::TooLarge)?;
                }
                if let Some(&leaving) = i.checked_sub(s).and_then(|j| counts.get(j)) {
                    window = window.checked_sub(leaving).ok_or(DistError::TooLarge)?;
                }
                *slot = window;
            }
            counts = next;
        }
        Dist::from_counts(i64::from(count), counts)
    }

    /// The sum of the `keep` highest of `count` dice with `sides` sides.
    ///
    /// Exact, without enumerating outcomes (see the module documentation).
    /// `keep == 0` gives the constant 0, and a `keep` above `count` keeps
    /// every die, as [`crate::Roll::from_faces`] does.
    pub fn keep_highest(count: u16, sides: u16, keep: u16) -> Result<Dist, DistError> {
        if sides == 0 {
            return Err(no_sides());
        }
        let keep = keep.min(count);
        if keep == 0 {
            return Ok(Dist::constant(0));
        }
        if keep == count {
            return Dist::sum_of(count, sides);
        }
        if sides == 1 {
            return Ok(Dist::constant(i64::from(keep)));
        }
        // Every count below is at most the total, so once the total fits
        // nothing can overflow; the checks stay as a safety net.
        pool_total(count, sides)?;
        // The transitions take about sides^2 * (keep^3 - keep) / 12 steps
        // and the closed-form sums about sides * keep * count.
        let (n128, k128, s128) = (u128::from(count), u128::from(keep), u128::from(sides));
        check_work((s128 * s128 * (k128 * k128 * k128 - k128) / 12).checked_add(s128 * k128 * n128))?;
        let n = usize::from(count);
        let k = usize::from(keep);
        let s = usize::from(sides);

        // binom[r][c] = C(r, c) for r <= n, by Pascal's triangle.
        let mut binom: Vec<Vec<u128>> = Vec::with_capacity(n + 1);
        for r in 0..=n {
            let mut row = vec![1u128; r + 1];
            if let Some(prev) = binom.last() {
                for c in 1..r {
                    row[c] = prev[c - 1].checked_add(prev[c]).ok_or(DistError::TooLarge)?;
                }
            }
            binom.push(row);
        }

        // ways[j * width + sum]: the ways to have placed exactly j dice
        // (j < k), all showing faces above the current value, whose faces
        // add up to `sum`. While the current value is at least 1, each
        // partial placement stands for a non-empty set of full outcomes,
        // disjoint from the others, so no count exceeds the total.
        let width = k * s + 1;
        let mut ways = vec![0u128; k * width];
        ways[0] = 1;
        // result[sum]: the ways whose kept faces add up to `sum`.
        let mut result = vec![0u128; width];
        // powers[r] = (v - 1)^r: the ways for r dice to show faces below v.
        let mut powers = vec![1u128; n + 1];

        for v in (1..=s).rev() {
            let below = u128::try_from(v - 1).map_err(|_| DistError::TooLarge)?;
            for r in 1..=n {
                powers[r] = powers[r - 1].checked_mul(below).ok_or(DistError::TooLarge)?;
            }
            // Descending j: transitions only go to larger j, which this
            // round has already visited, so updating in place is sound.
            for j in (0..k).rev() {
                let free = n - j;
                let needed = k - j;
                // If c >= needed of the free dice show v, the kept set is
                // complete: needed of them are kept, and the remaining
                // free - c dice show anything below v. Summed over c:
                let mut complete = 0u128;
                for c in needed..=free {
                    mul_add(&mut complete, binom[free][c], powers[free - c])?;
                }
                // With j dice placed above v, their sum lies in
                // j*(v+1) ..= j*s.
                for sum in j * (v + 1)..=j * s {
                    let w = ways[j * width + sum];
                    if w == 0 {
                        continue;
                    }
                    mul_add(&mut result[sum + v * needed], w, complete)?;
                    // Placements that are still short of k dice after v = 1
                    // would need faces below 1; skipping them is not just
                    // faster but keeps every count within the total.
                    if v == 1 {
                        continue;
                    }
                    for c in 1..needed {
                        let slot = &mut ways[(j + c) * width + sum + v * c];
                        mul_add(slot, w, binom[free][c])?;
                    }
                }
            }
        }
        Dist::from_counts(0, result)
    }

    /// The sum of the `keep` lowest of `count` dice with `sides` sides.
    ///
    /// Mirrors [`Dist::keep_highest`]: turning every face f into
    /// `sides + 1 - f` turns the lowest faces into the highest, so the
    /// result is `keep * (sides + 1) - H` where `H` is the keep-highest sum.
    pub fn keep_lowest(count: u16, sides: u16, keep: u16) -> Result<Dist, DistError> {
        if sides == 0 {
            return Err(no_sides());
        }
        let keep = keep.min(count);
        let mirrored = Dist::keep_highest(count, sides, keep)?;
        let offset = i64::from(keep) * (i64::from(sides) + 1);
        mirrored.neg().checked_shift(offset)
    }

    /// The sum of `count` dice with `sides` sides under a keep rule.
    pub fn of_keep(count: u16, sides: u16, keep: Keep) -> Result<Dist, DistError> {
        match keep {
            Keep::All => Dist::sum_of(count, sides),
            Keep::Highest(k) => Dist::keep_highest(count, sides, u16::from(k)),
            Keep::Lowest(k) => Dist::keep_lowest(count, sides, u16::from(k)),
        }
    }

    /// The distribution of a dice expression: the convolution of its terms,
    /// with subtracted dice terms negated and constants as shifts.
    ///
    /// The combined total is checked before any term is computed, so an
    /// expression that is too large fails at once.
    pub fn of_expr(expr: &DiceExpr) -> Result<Dist, DistError> {
        let mut total = 1u128;
        for term in &expr.terms {
            if let Term::Dice { count, sides, keep, .. } = *term {
                if sides == 0 {
                    return Err(no_sides());
                }
                if kept_count(count, keep) > 0 && sides > 1 {
                    total = total
                        .checked_mul(pool_total(count, sides)?)
                        .ok_or(DistError::TooLarge)?;
                }
            }
        }
        let mut acc = Dist::constant(0);
        for term in &expr.terms {
            acc = match *term {
                Term::Const(c) => acc.checked_shift(i64::from(c))?,
                Term::Dice {
                    sign,
                    count,
                    sides,
                    keep,
                } => {
                    let pool = Dist::of_keep(count, sides, keep)?;
                    if sign < 0 { acc.sub(&pool)? } else { acc.add(&pool)? }
                }
            };
        }
        Ok(acc)
    }

    /// The distribution of `X + Y` for independent `X` (self) and `Y`.
    pub fn add(&self, other: &Dist) -> Result<Dist, DistError> {
        self.total.checked_mul(other.total).ok_or(DistError::TooLarge)?;
        let min = self.min.checked_add(other.min).ok_or(DistError::TooLarge)?;
        check_work(
            u128::try_from(self.counts.len())
                .ok()
                .zip(u128::try_from(other.counts.len()).ok())
                .and_then(|(a, b)| a.checked_mul(b)),
        )?;
        let mut counts = vec![0u128; self.counts.len() + other.counts.len() - 1];
        for (i, &a) in self.counts.iter().enumerate() {
            if a == 0 {
                continue;
            }
            for (slot, &b) in counts[i..].iter_mut().zip(&other.counts) {
                mul_add(slot, a, b)?;
            }
        }
        Dist::from_counts(min, counts)
    }

    /// The distribution of `X - Y` for independent `X` (self) and `Y`.
    pub fn sub(&self, other: &Dist) -> Result<Dist, DistError> {
        self.add(&other.neg())
    }

    /// The distribution of `X + k`, failing with [`DistError::TooLarge`] if
    /// an outcome would leave the `i64` range.
    pub fn checked_shift(&self, k: i64) -> Result<Dist, DistError> {
        let min = self.min.checked_add(k).ok_or(DistError::TooLarge)?;
        min.checked_add(self.span()).ok_or(DistError::TooLarge)?;
        Ok(Dist {
            min,
            counts: self.counts.clone(),
            total: self.total,
        })
    }

    /// The distribution of `X + k`.
    ///
    /// Outcomes are clamped to stay within `i64` (the whole distribution is
    /// moved back inside the range); use [`Dist::checked_shift`] to get an
    /// error instead. No dice expression comes near that range.
    pub fn shift(&self, k: i64) -> Dist {
        Dist {
            min: self.min.saturating_add(k).min(i64::MAX - self.span()),
            counts: self.counts.clone(),
            total: self.total,
        }
    }

    /// The distribution of `-X`. For the one outcome that has no negation
    /// in `i64` (`i64::MIN`), the result is clamped as in [`Dist::shift`].
    pub fn neg(&self) -> Dist {
        let mut counts = self.counts.clone();
        counts.reverse();
        Dist {
            min: self.max().saturating_neg().min(i64::MAX - self.span()),
            counts,
            total: self.total,
        }
    }

    /// `max - min`, which fits in an `i64` by the invariant.
    fn span(&self) -> i64 {
        i64::try_from(self.counts.len().saturating_sub(1)).unwrap_or(i64::MAX)
    }

    /// The smallest possible outcome.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest possible outcome.
    pub fn max(&self) -> i64 {
        self.min.saturating_add(self.span())
    }

    /// The number of equally likely ways in all.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// The counts for every outcome from `min()` to `max()`.
    pub fn counts(&self) -> &[u128] {
        &self.counts
    }

    /// The index of outcome `x` in `counts`, if it is in range.
    fn index(&self, x: i64) -> Option<usize> {
        usize::try_from(i128::from(x) - i128::from(self.min))
            .ok()
            .filter(|&i| i < self.counts.len())
    }

    /// The ways to get exactly `x`.
    pub fn count_eq(&self, x: i64) -> u128 {
        self.index(x).and_then(|i| self.counts.get(i)).copied().unwrap_or(0)
    }

    /// The ways to get `x` or more.
    pub fn count_ge(&self, x: i64) -> u128 {
        if x <= self.min {
            return self.total;
        }
        match self.index(x) {
            Some(i) => sum(self.counts.get(i..).unwrap_or_default()),
            None => 0,
        }
    }

    /// The ways to get `x` or less.
    pub fn count_le(&self, x: i64) -> u128 {
        if x >= self.max() {
            return self.total;
        }
        match self.index(x) {
            Some(i) => sum(self.counts.get(..=i).unwrap_or_default()),
            None => 0,
        }
    }

    /// The ways to get more than `x`.
    pub fn count_gt(&self, x: i64) -> u128 {
        self.total.saturating_sub(self.count_le(x))
    }

    /// The ways to get less than `x`.
    pub fn count_lt(&self, x: i64) -> u128 {
        self.total.saturating_sub(self.count_ge(x))
    }

    /// `count / total` as an `f64` (relative error below 1e-15).
    fn ratio(&self, count: u128) -> f64 {
        count as f64 / self.total as f64
    }

    /// The probability of exactly `x`.
    pub fn p_eq(&self, x: i64) -> f64 {
        self.ratio(self.count_eq(x))
    }

    /// The probability of `x` or more.
    pub fn p_ge(&self, x: i64) -> f64 {
        self.ratio(self.count_ge(x))
    }

    /// The probability of `x` or less.
    pub fn p_le(&self, x: i64) -> f64 {
        self.ratio(self.count_le(x))
    }

    /// The probability of more than `x`.
    pub fn p_gt(&self, x: i64) -> f64 {
        self.ratio(self.count_gt(x))
    }

    /// The probability of less than `x`.
    pub fn p_lt(&self, x: i64) -> f64 {
        self.ratio(self.count_lt(x))
    }

    /// The exact sums `S1 = sum(c_i * i)` and `S2 = sum(c_i * i^2)` over
    /// offsets `i` from `min`, if they fit in `u128`.
    fn moment_sums(&self) -> (Option<u128>, Option<u128>) {
        let mut s1 = Some(0u128);
        let mut s2 = Some(0u128);
        for (i, &c) in self.counts.iter().enumerate() {
            let i = i as u128;
            s1 = s1.and_then(|s| c.checked_mul(i).and_then(|t| s.checked_add(t)));
            s2 = s2.and_then(|s| {
                c.checked_mul(i)
                    .and_then(|t| t.checked_mul(i))
                    .and_then(|t| s.checked_add(t))
            });
        }
        (s1, s2)
    }

    /// The mean of the outcomes in offset form (`E[X] - min`), computed in
    /// floating point from the counts.
    fn float_offset_mean(&self) -> f64 {
        let total = self.total as f64;
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 / total * i as f64)
            .sum()
    }

    /// The mean.
    ///
    /// Computed as `min + S1 / total` with `S1` an exact integer sum, so the
    /// integer part is exact and only the fraction is rounded. If `S1` does
    /// not fit in `u128`, a floating-point sum is used instead.
    pub fn mean(&self) -> f64 {
        match self.moment_sums().0 {
            Some(s1) => {
                // The quotient is below the number of outcomes, so it fits.
                let quotient = i128::try_from(s1 / self.total).unwrap_or(i128::MAX);
                let whole = i128::from(self.min).saturating_add(quotient);
                whole as f64 + (s1 % self.total) as f64 / self.total as f64
            }
            None => self.min as f64 + self.float_offset_mean(),
        }
    }

    /// The variance.
    ///
    /// Computed as `(S2 * total - S1^2) / total^2` with the numerator an
    /// exact integer when it fits in `u128`, so there is no cancellation.
    /// Otherwise it falls back to the two-pass floating-point formula
    /// `sum(p_i * (i - mean)^2)`, which is numerically stable.
    pub fn variance(&self) -> f64 {
        if let (Some(s1), Some(s2)) = self.moment_sums() {
            let numerator = s2
                .checked_mul(self.total)
                .and_then(|a| s1.checked_mul(s1).and_then(|b| a.checked_sub(b)));
            if let Some(numerator) = numerator {
                let total = self.total as f64;
                return numerator as f64 / total / total;
            }
        }
        let total = self.total as f64;
        let mean = self.float_offset_mean();
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let d = i as f64 - mean;
                c as f64 / total * d * d
            })
            .sum()
    }

    /// The standard deviation, the square root of [`Dist::variance`].
    pub fn std_dev(&self) -> f64 {
        self.variance().sqrt()
    }

    /// Every outcome from `min()` to `max()` with its count, including
    /// outcomes inside the range that cannot happen (count 0).
    pub fn iter(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.counts.iter().enumerate().map(|(i, &c)| {
            let offset = i64::try_from(i).unwrap_or(i64::MAX);
            (self.min.saturating_add(offset), c)
        })
    }
}

/// Sums counts that are known to add up to at most a distribution's total.
fn sum(counts: &[u128]) -> u128 {
    counts.iter().fold(0u128, |acc, &c| acc.saturating_add(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Enumerates all `sides^count` outcomes and tallies the sum of the
    /// kept faces, as a reference for the fast algorithms.
    fn brute_force(count: usize, sides: u16, keep: Keep) -> Dist {
        let mut faces = vec![1u16; count];
        let mut tally = std::collections::BTreeMap::<i64, u128>::new();
        loop {
            let mut sorted = faces.clone();
            sorted.sort_unstable();
            let kept: &[u16] = match keep {
                Keep::All => &sorted,
                Keep::Highest(k) => &sorted[count - usize::from(k).min(count)..],
                Keep::Lowest(k) => &sorted[..usize::from(k).min(count)],
            };
            let total: i64 = kept.iter().map(|&f| i64::from(f)).sum();
            *tally.entry(total).or_default() += 1;
            // Advance the odometer.
            let mut i = 0;
            loop {
                if i == count {
                    let min = *tally.keys().next().unwrap();
                    let max = *tally.keys().last().unwrap();
                    let counts = (min..=max).map(|x| tally.get(&x).copied().unwrap_or(0)).collect();
                    return Dist::from_counts(min, counts).unwrap();
                }
                if faces[i] < sides {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }

    fn expr(s: &str) -> DiceExpr {
        s.parse().unwrap()
    }

    #[test]
    fn two_d6() {
        let d = Dist::sum_of(2, 6).unwrap();
        assert_eq!((d.min(), d.max(), d.total()), (2, 12, 36));
        assert_eq!(d.counts(), &[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(d.count_eq(7), 6);
        assert_eq!(d.count_ge(10), 6);
        assert_eq!(d.count_le(4), 6);
        assert_eq!(d.count_gt(11), 1);
        assert_eq!(d.count_lt(3), 1);
        assert_eq!(d.p_eq(7), 1.0 / 6.0);
        assert_eq!(d.p_ge(2), 1.0);
        assert_eq!(d.p_gt(12), 0.0);
        assert_eq!(d.p_lt(2), 0.0);
        assert_eq!(d.p_le(12), 1.0);
        assert_eq!(d, brute_force(2, 6, Keep::All));
    }

    #[test]
    fn counts_outside_and_at_extremes() {
        let d = Dist::sum_of(3, 6).unwrap();
        assert_eq!(d.count_eq(2), 0);
        assert_eq!(d.count_eq(19), 0);
        assert_eq!(d.count_eq(i64::MIN), 0);
        assert_eq!(d.count_eq(i64::MAX), 0);
        assert_eq!(d.count_ge(i64::MIN), 216);
        assert_eq!(d.count_ge(i64::MAX), 0);
        assert_eq!(d.count_le(i64::MIN), 0);
        assert_eq!(d.count_le(i64::MAX), 216);
        assert_eq!(d.count_gt(i64::MAX), 0);
        assert_eq!(d.count_lt(i64::MIN), 0);
        assert_eq!(d.p_eq(10), 0.125);
    }

    #[test]
    fn one_die_moments() {
        let d = Dist::die(6);
        assert_eq!(d.mean(), 3.5);
        assert!((d.variance() - 35.0 / 12.0).abs() < 1e-15);
        assert!((d.std_dev() - (35.0f64 / 12.0).sqrt()).abs() < 1e-15);
        assert_eq!(Dist::sum_of(1, 6).unwrap(), d);
        assert_eq!(Dist::die(0), Dist::constant(0));
    }

    #[test]
    fn constants() {
        let c = Dist::constant(-4);
        assert_eq!((c.min(), c.max(), c.total()), (-4, -4, 1));
        assert_eq!(c.mean(), -4.0);
        assert_eq!(c.variance(), 0.0);
        assert_eq!(c.iter().collect::<Vec<_>>(), [(-4, 1)]);
        assert_eq!(Dist::sum_of(0, 6).unwrap(), Dist::constant(0));
        assert_eq!(Dist::sum_of(5, 1).unwrap(), Dist::constant(5));
    }

    #[test]
    fn keep_matches_brute_force_on_known_cases() {
        let d = Dist::keep_highest(3, 6, 2).unwrap();
        assert_eq!(d, brute_force(3, 6, Keep::Highest(2)));
        assert_eq!((d.min(), d.max(), d.total()), (2, 12, 216));
        // 3d6 keep highest 2 = 2: all three dice show 1.
        assert_eq!(d.count_eq(2), 1);
        // = 12: at least two sixes, 3 * 5 + 1 = 16 ways.
        assert_eq!(d.count_eq(12), 16);

        let d = Dist::keep_lowest(4, 6, 2).unwrap();
        assert_eq!(d, brute_force(4, 6, Keep::Lowest(2)));
        assert_eq!((d.min(), d.max(), d.total()), (2, 12, 1296));
        assert_eq!(d.count_eq(12), 1);
    }

    #[test]
    fn four_d6_keep_highest_three_mean() {
        let d = Dist::keep_highest(4, 6, 3).unwrap();
        assert_eq!(d.total(), 1296);
        let weighted: i128 = d.iter().map(|(v, c)| i128::from(v) * c as i128).sum();
        assert_eq!(weighted, 15_869);
        assert!((d.mean() - 15_869.0 / 1_296.0).abs() < 1e-12);
        assert!((d.mean() - 12.2446).abs() < 1e-4);
        assert_eq!(d, brute_force(4, 6, Keep::Highest(3)));
    }

    #[test]
    fn keep_edge_cases() {
        assert_eq!(Dist::keep_highest(4, 6, 0).unwrap(), Dist::constant(0));
        assert_eq!(Dist::keep_lowest(4, 6, 0).unwrap(), Dist::constant(0));
        assert_eq!(Dist::keep_highest(4, 6, 4).unwrap(), Dist::sum_of(4, 6).unwrap());
        assert_eq!(Dist::keep_lowest(4, 6, 9).unwrap(), Dist::sum_of(4, 6).unwrap());
        assert_eq!(Dist::keep_highest(5, 1, 2).unwrap(), Dist::constant(2));
        assert_eq!(Dist::keep_lowest(5, 1, 2).unwrap(), Dist::constant(2));
        assert_eq!(Dist::keep_highest(0, 6, 0).unwrap(), Dist::constant(0));
        // Advantage: 2d20 keep highest 1 is at least 11 with 1 - (10/20)^2.
        let adv = Dist::keep_highest(2, 20, 1).unwrap();
        assert_eq!(adv.count_ge(11), 300);
        assert_eq!(adv.p_ge(11), 0.75);
        let dis = Dist::of_keep(2, 20, Keep::Lowest(1)).unwrap();
        assert_eq!(dis.count_ge(11), 100);
    }

    #[test]
    fn zero_sides_are_invalid() {
        for result in [
            Dist::sum_of(2, 0),
            Dist::keep_highest(2, 0, 1),
            Dist::keep_lowest(2, 0, 1),
            Dist::of_expr(&DiceExpr {
                terms: vec![Term::Dice {
                    sign: 1,
                    count: 1,
                    sides: 0,
                    keep: Keep::All,
                }],
            }),
        ] {
            assert!(matches!(result, Err(DistError::Invalid(_))), "{result:?}");
        }
    }

    #[test]
    fn difference_of_equal_pools_is_symmetric() {
        let a = Dist::sum_of(2, 6).unwrap();
        let d = a.sub(&a).unwrap();
        assert_eq!((d.min(), d.max(), d.total()), (-10, 10, 1296));
        for x in 0..=10 {
            assert_eq!(d.count_eq(x), d.count_eq(-x), "at {x}");
        }
        assert_eq!(d.count_eq(0), 146);
        assert_eq!(d.mean(), 0.0);
        assert_eq!(d, d.neg());
        assert_eq!(d, Dist::of_expr(&expr("2d6-2d6")).unwrap(), "of_expr agrees with sub");
    }

    #[test]
    fn expression_matches_brute_force() {
        let d = Dist::of_expr(&expr("2d6+1d4-3")).unwrap();
        // Tally every outcome of 2d6+1d4, then subtract 3 from the index.
        let mut counts = [0u128; 14];
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=4 {
                    counts[a + b + c - 3] += 1;
                }
            }
        }
        let expected = Dist::from_counts(0, counts.to_vec()).unwrap();
        assert_eq!(d, expected);
        assert_eq!((d.min(), d.max(), d.total()), (0, 13, 144));
        assert_eq!(d.count_eq(0), 1);
        // 2d6+1d4 = 10 in 4 + 5 + 6 + 5 ways (2d6 = 9, 8, 7, 6).
        assert_eq!(d.count_eq(7), 20);
        assert_eq!(d.mean(), 6.5);
        // Var(2d6) + Var(1d4) = 35/6 + 15/12 = 85/12.
        assert!((d.variance() - 85.0 / 12.0).abs() < 1e-12);
        let e = expr("2d6+1d4-3");
        assert_eq!((e.min(), e.max()), (d.min(), d.max()));
    }

    #[test]
    fn shifting_and_negating() {
        let d = Dist::die(4);
        let s = d.shift(10);
        assert_eq!((s.min(), s.max()), (11, 14));
        let n = d.neg();
        assert_eq!((n.min(), n.max()), (-4, -1));
        assert_eq!(n.iter().collect::<Vec<_>>(), [(-4, 1), (-3, 1), (-2, 1), (-1, 1)]);
        let far = d.shift(i64::MAX);
        assert_eq!(far.max(), i64::MAX);
        assert_eq!(d.checked_shift(i64::MAX), Err(DistError::TooLarge));
        let low = Dist::constant(i64::MIN);
        assert_eq!(low.neg().min(), i64::MAX);
        assert_eq!(
            Dist::constant(i64::MAX).add(&Dist::constant(1)),
            Err(DistError::TooLarge)
        );
    }

    #[test]
    fn moments_fall_back_to_floating_point_for_huge_totals() {
        // S1 for 127d2 is 63.5 * 2^127, which does not fit in u128.
        let d = Dist::sum_of(127, 2).unwrap();
        assert_eq!(d.moment_sums().0, None);
        assert!((d.mean() - 190.5).abs() < 1e-12);
        assert!((d.variance() - 31.75).abs() < 1e-12);
        // A smaller pool takes the exact path.
        let d = Dist::sum_of(10, 6).unwrap();
        assert!(d.moment_sums().0.is_some());
        assert_eq!(d.mean(), 35.0);
        assert!((d.variance() - 350.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn iter_includes_inner_zeros() {
        let d = Dist::constant(0).add(&Dist::constant(2)).unwrap();
        assert_eq!(d.iter().collect::<Vec<_>>(), [(2, 1)]);
        let gap = Dist::from_counts(0, vec![0, 1, 0, 1, 0]).unwrap();
        assert_eq!(gap.iter().collect::<Vec<_>>(), [(1, 1), (2, 0), (3, 1)]);
        assert_eq!(gap.total(), 2);
        assert!(Dist::from_counts(0, vec![0, 0]).is_err());
    }

    #[test]
    fn too_large_is_an_error_not_a_panic() {
        assert_eq!(Dist::sum_of(100, 1000), Err(DistError::TooLarge));
        assert_eq!(Dist::keep_highest(200, 6, 3), Err(DistError::TooLarge));
        assert_eq!(Dist::keep_lowest(1000, 1000, 3), Err(DistError::TooLarge));
        assert_eq!(Dist::of_expr(&expr("100d1000")), Err(DistError::TooLarge));
        assert_eq!(Dist::of_expr(&expr("12d1000+12d1000")), Err(DistError::TooLarge));
        let big = Dist::sum_of(12, 1000).unwrap();
        assert_eq!(big.add(&big), Err(DistError::TooLarge));
        // These totals fit, but the work would take minutes.
        assert_eq!(Dist::keep_highest(8, 65_535, 7), Err(DistError::TooLarge));
        let wide = Dist::sum_of(4, 65_535).unwrap();
        assert_eq!(wide.add(&wide), Err(DistError::TooLarge));
        // Few kept dice are cheap even with many sides.
        let adv = Dist::keep_highest(2, 65_535, 1).unwrap();
        assert_eq!(adv.count_eq(65_535), 2 * 65_535 - 1);
        // 2^127 ways fit; 2^128 do not.
        assert_eq!(Dist::sum_of(127, 2).unwrap().total(), 1u128 << 127);
        assert_eq!(Dist::sum_of(128, 2), Err(DistError::TooLarge));
    }

    #[test]
    fn large_exact_pools_keep_their_invariants() {
        let d = Dist::sum_of(12, 1000).unwrap();
        assert_eq!(d.total(), 10u128.pow(36));
        assert_eq!((d.min(), d.max()), (12, 12_000));
        assert_eq!(d.count_eq(12), 1);
        assert!((d.mean() - 6006.0).abs() < 1e-9);
        // Var = 12 * (1000^2 - 1) / 12.
        let rel = (d.variance() - 999_999.0).abs() / 999_999.0;
        assert!(rel < 1e-12, "{}", d.variance());

        let d = Dist::keep_highest(10, 100, 3).unwrap();
        assert_eq!(d.total(), 100u128.pow(10));
        assert_eq!((d.min(), d.max()), (3, 300));
        assert_eq!(d.count_eq(3), 1);
        // The top three all 100: at least three hundreds among ten dice.
        let at_most_two: u128 = (0..=2u32)
            .map(|j| {
                let c = [1u128, 10, 45][j as usize];
                c * 99u128.pow(10 - j)
            })
            .sum();
        assert_eq!(d.count_eq(300), 100u128.pow(10) - at_most_two);

        // 127d2 has 2^127 outcomes, the most of any d2 pool that fits. For
        // keep highest k, a kept sum of k + t (t < k) means exactly t twos,
        // and 2k means k or more twos.
        let mut row = vec![1u128];
        for _ in 0..127 {
            let mut next = vec![1u128; row.len() + 1];
            for i in 1..row.len() {
                next[i] = row[i - 1] + row[i];
            }
            row = next;
        }
        let choose = |c: u32| row[c as usize];
        for k in [1u16, 5, 63, 64, 126] {
            let d = Dist::keep_highest(127, 2, k).unwrap();
            assert_eq!(d.total(), 1u128 << 127);
            let k_i64 = i64::from(k);
            assert_eq!((d.min(), d.max()), (k_i64, 2 * k_i64));
            for t in 0..u32::from(k) {
                assert_eq!(d.count_eq(k_i64 + i64::from(t)), choose(t), "k {k} t {t}");
            }
            let fewer: u128 = (0..u32::from(k)).map(choose).sum();
            assert_eq!(d.count_eq(2 * k_i64), (1u128 << 127) - fewer);
        }
    }

    proptest! {
        #[test]
        fn keep_rules_match_brute_force(
            count in 0usize..=5,
            sides in 1u16..=8,
            keep_seed in 0u8..=5,
            highest in any::<bool>(),
        ) {
            let k = keep_seed % (u8::try_from(count).unwrap() + 1);
            let keep = if highest { Keep::Highest(k) } else { Keep::Lowest(k) };
            let fast = Dist::of_keep(u16::try_from(count).unwrap(), sides, keep).unwrap();
            if k == 0 {
                // Keeping nothing is the constant 0, counted as one way.
                prop_assert_eq!(fast, Dist::constant(0));
            } else {
                prop_assert_eq!(&fast, &brute_force(count, sides, keep));
                prop_assert_eq!(fast.total(), u128::from(sides).pow(u32::try_from(count).unwrap()));
            }
        }

        #[test]
        fn sums_match_brute_force(count in 0usize..=5, sides in 1u16..=8) {
            let fast = Dist::sum_of(u16::try_from(count).unwrap(), sides).unwrap();
            prop_assert_eq!(fast, brute_force(count, sides, Keep::All));
        }

        #[test]
        fn add_and_sub_preserve_totals_and_means(
            a in 1u16..=6, b in 1u16..=10, c in 1u16..=6, d in 1u16..=10,
        ) {
            let x = Dist::sum_of(a, b).unwrap();
            let y = Dist::sum_of(c, d).unwrap();
            let s = x.add(&y).unwrap();
            prop_assert_eq!(s.total(), x.total() * y.total());
            prop_assert!((s.mean() - (x.mean() + y.mean())).abs() < 1e-9);
            prop_assert!((s.variance() - (x.variance() + y.variance())).abs() < 1e-9);
            let diff = x.sub(&y).unwrap();
            prop_assert_eq!(diff.min(), x.min() - y.max());
            prop_assert_eq!(diff.max(), x.max() - y.min());
            prop_assert!((diff.mean() - (x.mean() - y.mean())).abs() < 1e-9);
        }
    }
}

#[cfg(test)]
mod monte_carlo {
    use crate::{DiceExpr, Dist, SeededDice};

    /// Sampled totals of dice expressions match the exact distribution within 5 standard errors
    /// at every outcome.
    #[test]
    fn exact_distributions_match_200000_seeded_rolls() {
        for (i, text) in ["3d6kh2+1", "4d6kl2", "2d20kh1+1d8-3", "5d6"].iter().enumerate() {
            let expr: DiceExpr = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let exact = Dist::of_expr(&expr).unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut dice = SeededDice::new(100 + i as u64);
            let n = 200_000u64;
            let mut counts = std::collections::BTreeMap::new();
            for _ in 0..n {
                let (total, _) = expr.roll(&mut dice).unwrap_or_else(|e| panic!("{text}: {e}"));
                *counts.entry(total as i64).or_insert(0u64) += 1;
            }
            for (v, _) in exact.iter() {
                let p = exact.p_eq(v);
                let freq = *counts.get(&v).unwrap_or(&0) as f64 / n as f64;
                let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
                assert!((freq - p).abs() < 5.0 * se, "{text} = {v}: exact {p}, sampled {freq}");
            }
        }
    }
}
