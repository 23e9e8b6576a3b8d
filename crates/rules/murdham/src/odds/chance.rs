//! Exact chances: [`Chance`], a fraction of two exact counts in lowest terms, and its JSON form.
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// An exact probability (or, inside computations, any non-negative fraction): `num / den` in
/// lowest terms, `den` never zero. Serialised as `{"num", "den", "p"}`, the counts as decimal
/// strings and `p` their ratio as a float.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chance {
    /// The numerator.
    pub(super) num: Count,
    /// The denominator, never zero.
    pub(super) den: Count,
}

impl Chance {
    /// `num / den` in lowest terms; a zero `den` gives 0 (no outcomes, nothing happens).
    pub fn new(num: Count, den: Count) -> Chance {
        if den.is_zero() || num.is_zero() {
            return Chance::zero();
        }
        let g = num.gcd(&den);
        if g == count(1) {
            return Chance { num, den };
        }
        let cut = |c: &Count| c.div_rem(&g).map_or_else(|| c.clone(), |(q, _)| q);
        Chance {
            num: cut(&num),
            den: cut(&den),
        }
    }

    /// `num / den` for small numbers.
    pub fn of(num: u64, den: u64) -> Chance {
        Chance::new(Count::from(num), Count::from(den))
    }

    /// Never.
    pub fn zero() -> Chance {
        Chance {
            num: Count::zero(),
            den: Count::from(1u64),
        }
    }

    /// Certainly.
    pub fn one() -> Chance {
        Chance::of(1, 1)
    }

    /// The numerator (lowest terms).
    pub fn num(&self) -> &Count {
        &self.num
    }

    /// The denominator (lowest terms, never zero).
    pub fn den(&self) -> &Count {
        &self.den
    }

    /// The value as a float (relative error below 1e-15).
    pub fn to_f64(&self) -> f64 {
        self.num.ratio(&self.den)
    }

    /// The value as a percentage rounded exactly to one decimal (see [`percent`]).
    pub fn percent(&self) -> String {
        percent(&self.num, &self.den)
    }

    /// `1 - self`, or 0 if `self` is above 1.
    pub fn complement(&self) -> Chance {
        let rest = self.den.checked_sub(&self.num).unwrap_or_default();
        Chance::new(rest, self.den.clone())
    }

    /// `self + other`.
    pub(super) fn plus(&self, other: &Chance) -> Chance {
        Chance::new(
            &(&self.num * &other.den) + &(&other.num * &self.den),
            &self.den * &other.den,
        )
    }

    /// `self * k`.
    pub(super) fn times(&self, k: &Count) -> Chance {
        Chance::new(&self.num * k, self.den.clone())
    }

    /// `self / k` (0 if `k` is zero).
    pub(super) fn over(&self, k: &Count) -> Chance {
        Chance::new(self.num.clone(), &self.den * k)
    }
}

/// A [`Chance`] in JSON.
#[derive(Serialize)]
pub(super) struct ChanceJson<'a> {
    pub(super) num: &'a Count,
    pub(super) den: &'a Count,
    pub(super) p: f64,
}

impl Serialize for Chance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ChanceJson {
            num: &self.num,
            den: &self.den,
            p: self.to_f64(),
        }
        .serialize(s)
    }
}

/// `a + b` for counts.
pub(super) fn add(a: &Count, b: &Count) -> Count {
    a + b
}

/// A small number as a count.
pub(super) fn count(v: u64) -> Count {
    Count::from(v)
}
