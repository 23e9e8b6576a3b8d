//! Streaming statistics that merge exactly.
//!
//! Every accumulator is made of integer counts (histograms of integer values, win counters), so
//! merging the partial results of parallel workers is exact and order-independent: a batch gives
//! bit-identical results whatever the number of threads. Memory does not grow with the number of
//! combats: a histogram holds one counter per distinct value.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A histogram of integer values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hist {
    /// Count of each value seen.
    pub counts: BTreeMap<i64, u64>,
}

impl Hist {
    /// Adds one observation.
    pub fn add(&mut self, v: i64) {
        *self.counts.entry(v).or_insert(0) += 1;
    }

    /// Adds every observation of another histogram.
    pub fn merge(&mut self, other: &Hist) {
        for (v, c) in &other.counts {
            *self.counts.entry(*v).or_insert(0) += c;
        }
    }

    /// Number of observations.
    pub fn n(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The mean (0 when empty).
    pub fn mean(&self) -> f64 {
        let n = self.n();
        if n == 0 {
            return 0.0;
        }
        let sum: i128 = self.counts.iter().map(|(v, c)| *v as i128 * *c as i128).sum();
        sum as f64 / n as f64
    }

    /// The sample standard deviation (0 with fewer than two observations).
    pub fn std_dev(&self) -> f64 {
        let n = self.n();
        if n < 2 {
            return 0.0;
        }
        let m = self.mean();
        let ss: f64 = self
            .counts
            .iter()
            .map(|(v, c)| (*v as f64 - m).powi(2) * *c as f64)
            .sum();
        (ss / (n - 1) as f64).sqrt()
    }

    /// The nearest-rank quantile `q` in (0, 1] (the smallest value with at least q of the
    /// observations at or below it); 0 when empty.
    pub fn quantile(&self, q: f64) -> i64 {
        let n = self.n();
        if n == 0 {
            return 0;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (v, c) in &self.counts {
            seen += c;
            if seen >= rank {
                return *v;
            }
        }
        self.counts.keys().next_back().copied().unwrap_or(0)
    }

    /// Smallest and largest values.
    pub fn range(&self) -> Option<(i64, i64)> {
        Some((*self.counts.keys().next()?, *self.counts.keys().next_back()?))
    }
}

/// Counts for one combatant across combats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantTally {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: u8,
    /// Combats in which it ended Incapacitated.
    pub incapacitated: u64,
    /// Combats in which it was removed.
    pub removed: u64,
    /// Combats in which it died.
    pub killed: u64,
    /// End resources, by name.
    pub resources: BTreeMap<String, Hist>,
}

/// Everything a batch of combats counted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Combats played.
    pub combats: u64,
    /// Wins per side.
    pub wins: Vec<u64>,
    /// Combats that ended with no winner.
    pub draws: u64,
    /// Combats stopped by the round cap.
    pub cutoffs: u64,
    /// Rounds played per combat.
    pub rounds: Hist,
    /// Per combatant, in encounter order.
    pub combatants: Vec<CombatantTally>,
}

impl Tally {
    /// Adds another tally (from another worker).
    pub fn merge(mut self, other: Tally) -> Tally {
        self.combats += other.combats;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (i, w) in other.wins.iter().enumerate() {
            self.wins[i] += w;
        }
        self.draws += other.draws;
        self.cutoffs += other.cutoffs;
        self.rounds.merge(&other.rounds);
        for o in other.combatants {
            match self.combatants.iter_mut().find(|c| c.id == o.id) {
                Some(c) => {
                    c.incapacitated += o.incapacitated;
                    c.removed += o.removed;
                    c.killed += o.killed;
                    for (k, h) in &o.resources {
                        c.resources.entry(k.clone()).or_default().merge(h);
                    }
                }
                None => self.combatants.push(o),
            }
        }
        self
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub of: u64,
    /// count / of.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            count: k,
            of: n,
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, nf) = (k as f64, n as f64);
    let p = k / nf;
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt();
    Rate {
        count: k as u64,
        of: n,
        rate: p,
        // At the ends the bound is exactly 0 or 1; the formula leaves rounding dust there.
        low: if k == 0.0 { 0.0 } else { (centre - half).max(0.0) },
        high: if k == nf { 1.0 } else { (centre + half).min(1.0) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 50 of 100: p = 0.5, interval ≈ [0.4038, 0.5962].
        let r = wilson(50, 100);
        assert!(
            (r.low - 0.40383).abs() < 1e-4 && (r.high - 0.59617).abs() < 1e-4,
            "{r:?}"
        );
        // 0 of 10: [0, 0.2775].
        let r = wilson(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.27753).abs() < 1e-4);
        let r = wilson(10, 10);
        assert!((r.low - 0.72247).abs() < 1e-4 && (r.high - 1.0).abs() < 1e-12);
        // Exactly 0 and 1 at the ends, whatever the sample size.
        for n in [3, 100, 1000, 12345] {
            assert_eq!(wilson(0, n).low, 0.0);
            assert_eq!(wilson(n, n).high, 1.0);
        }
    }

    #[test]
    fn histograms_give_exact_summaries_and_merge_in_any_order() {
        let mut a = Hist::default();
        for v in [1, 2, 2, 3, 10] {
            a.add(v);
        }
        assert_eq!(a.n(), 5);
        assert!((a.mean() - 3.6).abs() < 1e-12);
        assert_eq!(a.quantile(0.5), 2);
        assert_eq!(a.quantile(0.9), 10);
        assert_eq!(a.range(), Some((1, 10)));
        let mut b = Hist::default();
        b.add(4);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
    }
}
