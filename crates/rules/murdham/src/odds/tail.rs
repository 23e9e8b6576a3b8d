//! Exact distributions with a tail: [`TailDist`], counts of each value up to a cap over a common
//! total, with everything above the cap one exact bucket; and its JSON and text forms.
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// An exact distribution of a damage value with a bucket for everything above a cap:
/// `counts()[v]` of `total()` equally likely outcomes give exactly `v` (for `v` up to
/// [`cap`](Self::cap)), and `tail()` of them give more than the cap.
///
/// Invariants: `counts` is not empty and `total` is the sum of `counts` and `tail`, so the
/// chances add up to exactly 1. Serialised as `{"total", "cap", "mean", "outcomes": [{"value",
/// "count", "p_eq", "p_ge"}], "more_than": {"value", "count", "p"}}`, counts as decimal strings;
/// outcomes list only values that can happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailDist {
    /// Outcomes giving each value from 0 to the cap.
    pub(super) counts: Vec<Count>,
    /// Outcomes giving more than the cap.
    pub(super) tail: Count,
    /// All outcomes.
    pub(super) total: Count,
}

impl TailDist {
    /// The value `v` for certain.
    pub(super) fn constant(v: usize) -> TailDist {
        let mut counts = vec![Count::zero(); v + 1];
        counts[v] = count(1);
        TailDist {
            counts,
            tail: Count::zero(),
            total: count(1),
        }
    }

    /// The largest value whose chance is known on its own.
    pub fn cap(&self) -> usize {
        self.counts.len() - 1
    }

    /// Outcomes giving each value from 0 to the cap.
    pub fn counts(&self) -> &[Count] {
        &self.counts
    }

    /// Outcomes giving more than the cap.
    pub fn tail(&self) -> &Count {
        &self.tail
    }

    /// All outcomes.
    pub fn total(&self) -> &Count {
        &self.total
    }

    /// Outcomes giving exactly `v`: `None` above the cap, unless nothing lies there.
    pub fn count_eq(&self, v: usize) -> Option<Count> {
        match self.counts.get(v) {
            Some(c) => Some(c.clone()),
            None => self.tail.is_zero().then(Count::zero),
        }
    }

    /// Outcomes giving `v` or more: `None` above the cap plus 1, unless nothing lies there.
    pub fn count_ge(&self, v: usize) -> Option<Count> {
        if v > self.counts.len() {
            return self.tail.is_zero().then(Count::zero);
        }
        Some(self.counts[v..].iter().fold(self.tail.clone(), |acc, c| add(&acc, c)))
    }

    /// The chance of `v` or more, as [`count_ge`](Self::count_ge).
    pub fn chance_ge(&self, v: usize) -> Option<Chance> {
        self.count_ge(v).map(|c| Chance::new(c, self.total.clone()))
    }

    /// The sum of every outcome's value, those above the cap counted as cap + 1.
    pub(super) fn value_sum_low(&self) -> Count {
        let body = self
            .counts
            .iter()
            .enumerate()
            .fold(Count::zero(), |acc, (v, c)| add(&acc, &c.mul_small(v as u32)));
        add(&body, &self.tail.mul_small(self.counts.len() as u32))
    }

    /// The mean value, counting the values above the cap as cap + 1: low by the tail's chance
    /// times its excess, below 1e-6 for every distribution this module builds.
    pub fn mean_low(&self) -> f64 {
        self.value_sum_low().ratio(&self.total)
    }

    /// [`mean_low`](Self::mean_low) rounded exactly to one decimal, as text.
    pub(super) fn mean_text(&self) -> String {
        tenths(&self.value_sum_low(), &self.total)
    }

    /// The distribution of `f(X)` for a non-decreasing `f`. Values above the cap go to the tail,
    /// so the new cap is `f(cap + 1) - 1`, or the largest `f(v)` if the tail is empty; `None` if
    /// nothing would be known (`f(cap + 1)` is 0).
    pub(super) fn map_up(&self, f: impl Fn(usize) -> usize) -> Option<TailDist> {
        let cap = if self.tail.is_zero() {
            (0..self.counts.len())
                .filter(|&v| !self.counts[v].is_zero())
                .map(&f)
                .max()?
        } else {
            f(self.counts.len()).checked_sub(1)?
        };
        let mut counts = vec![Count::zero(); cap + 1];
        let mut tail = self.tail.clone();
        for (v, c) in self.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            match counts.get_mut(f(v)) {
                Some(slot) => *slot = add(slot, c),
                None => tail = add(&tail, c),
            }
        }
        Some(TailDist {
            counts,
            tail,
            total: self.total.clone(),
        })
    }

    /// The same distribution with cap `k`: values above `k` join the tail, or zeros are added up
    /// to `k`; `None` if `k` is above the cap and the tail is not empty.
    pub(super) fn with_cap(&self, k: usize) -> Option<TailDist> {
        if k > self.cap() && !self.tail.is_zero() {
            return None;
        }
        let mut counts = self.counts.clone();
        counts.resize(k + 1, Count::zero());
        let moved = self
            .counts
            .get(k + 1..)
            .unwrap_or_default()
            .iter()
            .fold(Count::zero(), |a, c| add(&a, c));
        Some(TailDist {
            counts,
            tail: add(&self.tail, &moved),
            total: self.total.clone(),
        })
    }

    /// The value when it comes with chance `hits / outcomes`, and 0 otherwise.
    pub(super) fn with_hit_chance(&self, hits: u64, outcomes: u64) -> TailDist {
        let (h, o) = (count(hits), count(outcomes));
        let mut counts: Vec<Count> = self.counts.iter().map(|c| c * &h).collect();
        let misses = &self.total * &count(outcomes - hits.min(outcomes));
        counts[0] = add(&counts[0], &misses);
        TailDist {
            counts,
            tail: &self.tail * &h,
            total: &self.total * &o,
        }
    }

    /// A table of P(exactly) and P(at least) for every value that can happen, headed by `label`,
    /// ending with the rest in one row once it rounds below 0.1% (and always with what lies above
    /// the cap).
    pub(super) fn table(&self, label: &str) -> String {
        let width = label.len().max(9);
        let mut s = format!("  {label:>width$}  P(exactly)  P(at least)\n");
        let mut at_least = self.total.clone();
        for (v, c) in self.counts.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
            let _ = writeln!(
                s,
                "  {v:>width$}  {:>10}  {:>11}",
                percent(c, &self.total),
                percent(&at_least, &self.total)
            );
            at_least = at_least.checked_sub(c).unwrap_or_default();
            // Stop once what is left rounds below 0.1%: 2000 * rest < total.
            if !at_least.is_zero() && at_least.mul_small(2000) < self.total {
                let _ = writeln!(
                    s,
                    "  {:>width$}  {:>10}",
                    format!("more than {v}"),
                    percent(&at_least, &self.total)
                );
                return s;
            }
        }
        if !self.tail.is_zero() {
            let _ = writeln!(
                s,
                "  {:>width$}  {:>10}",
                format!("more than {}", self.cap()),
                percent(&self.tail, &self.total)
            );
        }
        s
    }
}

/// One value of a [`TailDist`] in JSON.
#[derive(Serialize)]
pub(super) struct OutcomeJson<'a> {
    pub(super) value: usize,
    pub(super) count: &'a Count,
    pub(super) p_eq: f64,
    pub(super) p_ge: f64,
}

/// The bucket above the cap in JSON.
#[derive(Serialize)]
pub(super) struct TailJson<'a> {
    pub(super) value: usize,
    pub(super) count: &'a Count,
    pub(super) p: f64,
}

/// A [`TailDist`] in JSON.
#[derive(Serialize)]
pub(super) struct TailDistJson<'a> {
    pub(super) total: &'a Count,
    pub(super) cap: usize,
    pub(super) mean: f64,
    pub(super) outcomes: Vec<OutcomeJson<'a>>,
    pub(super) more_than: TailJson<'a>,
}

impl Serialize for TailDist {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut at_least = self.total.clone();
        let mut outcomes = Vec::new();
        for (value, count) in self.counts.iter().enumerate() {
            if !count.is_zero() {
                outcomes.push(OutcomeJson {
                    value,
                    count,
                    p_eq: count.ratio(&self.total),
                    p_ge: at_least.ratio(&self.total),
                });
            }
            at_least = at_least.checked_sub(count).unwrap_or_default();
        }
        TailDistJson {
            total: &self.total,
            cap: self.cap(),
            mean: self.mean_low(),
            outcomes,
            more_than: TailJson {
                value: self.cap(),
                count: &self.tail,
                p: self.tail.ratio(&self.total),
            },
        }
        .serialize(s)
    }
}
