//! Exact counts of equally likely outcomes, of any size.
//!
//! [`Dist`](crate::Dist) keeps its counts in `u128`, which is enough for one pool but not for
//! the joint rolls some odds need (several pools rolled together, or a die that explodes many
//! times). [`Count`] is a small exact natural number with no upper bound: addition,
//! subtraction, multiplication and long division, all exact, printed and serialised in decimal.
//! A probability is then a fraction of two counts; [`percent`] and [`tenths`] round such a
//! fraction exactly for display, so no floating point is involved until the very end, and
//! [`Count::gcd`] brings a fraction to lowest terms.

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt::{self, Write};
use std::ops::{Add, Mul};

/// An exact natural number of any size: a count of equally likely outcomes.
///
/// Stored as base-2^32 digits, least significant first, with no zero digit at the top (so zero
/// is the empty list and equal numbers have equal digits). Serialised as a decimal string, as
/// JSON numbers cannot hold it exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Count {
    /// Base-2^32 digits, least significant first, the last one never zero.
    limbs: Vec<u32>,
}

impl Count {
    /// Zero.
    pub fn zero() -> Count {
        Count::default()
    }

    /// Drops zero digits at the top.
    fn normalised(mut limbs: Vec<u32>) -> Count {
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        Count { limbs }
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The value as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.limbs.len() > 4 {
            return None;
        }
        Some(
            self.limbs
                .iter()
                .rev()
                .fold(0u128, |acc, &l| (acc << 32) | u128::from(l)),
        )
    }

    /// `self - other`, or `None` if `other` is larger.
    pub fn checked_sub(&self, other: &Count) -> Option<Count> {
        if *self < *other {
            return None;
        }
        let mut out = Vec::with_capacity(self.limbs.len());
        let mut borrow = 0i64;
        for (i, &a) in self.limbs.iter().enumerate() {
            let b = other.limbs.get(i).copied().unwrap_or(0);
            let mut d = i64::from(a) - i64::from(b) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            out.push(d as u32);
        }
        Some(Count::normalised(out))
    }

    /// `self * m` for a small factor.
    pub fn mul_small(&self, m: u32) -> Count {
        let mut out = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry = 0u64;
        for &a in &self.limbs {
            let t = u64::from(a) * u64::from(m) + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        out.push(carry as u32);
        Count::normalised(out)
    }

    /// `(self / d, self % d)` for a small non-zero divisor.
    fn div_rem_small(&self, d: u32) -> (Count, u32) {
        let d = u64::from(d.max(1));
        let mut out = vec![0u32; self.limbs.len()];
        let mut rem = 0u64;
        for (slot, &a) in out.iter_mut().zip(&self.limbs).rev() {
            let t = (rem << 32) | u64::from(a);
            *slot = (t / d) as u32;
            rem = t % d;
        }
        (Count::normalised(out), rem as u32)
    }

    /// The number of binary digits (0 for zero).
    fn bits(&self) -> usize {
        match self.limbs.last() {
            Some(&top) => 32 * self.limbs.len() - top.leading_zeros() as usize,
            None => 0,
        }
    }

    /// Binary digit `i`.
    fn bit(&self, i: usize) -> bool {
        self.limbs.get(i / 32).is_some_and(|&l| (l >> (i % 32)) & 1 == 1)
    }

    /// `2 * self + bit`.
    fn shl1_with(&self, bit: bool) -> Count {
        let mut out = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry = u32::from(bit);
        for &a in &self.limbs {
            out.push((a << 1) | carry);
            carry = a >> 31;
        }
        out.push(carry);
        Count::normalised(out)
    }

    /// `(self / d, self % d)`, or `None` when `d` is zero (binary long division).
    pub fn div_rem(&self, d: &Count) -> Option<(Count, Count)> {
        if d.is_zero() {
            return None;
        }
        let mut quotient = vec![0u32; self.limbs.len()];
        let mut rem = Count::zero();
        for i in (0..self.bits()).rev() {
            rem = rem.shl1_with(self.bit(i));
            if let Some(less) = rem.checked_sub(d) {
                rem = less;
                if let Some(slot) = quotient.get_mut(i / 32) {
                    *slot |= 1 << (i % 32);
                }
            }
        }
        Some((Count::normalised(quotient), rem))
    }

    /// The value as an `f64`, rounding at each of at most a few digits (relative error below
    /// 1e-15 for every count here).
    pub fn to_f64(&self) -> f64 {
        self.limbs
            .iter()
            .rev()
            .fold(0.0, |acc, &l| acc * 4_294_967_296.0 + f64::from(l))
    }

    /// `self / total` as an `f64`; 0 when `total` is zero.
    pub fn ratio(&self, total: &Count) -> f64 {
        if total.is_zero() {
            0.0
        } else {
            self.to_f64() / total.to_f64()
        }
    }

    /// The number of zero binary digits below the lowest one (0 for zero).
    fn trailing_zeros(&self) -> usize {
        self.limbs
            .iter()
            .position(|&l| l != 0)
            .map_or(0, |i| 32 * i + self.limbs[i].trailing_zeros() as usize)
    }

    /// `self / 2^n`, rounded down.
    fn shr(&self, n: usize) -> Count {
        let (whole, part) = (n / 32, n % 32);
        let rest = self.limbs.get(whole..).unwrap_or_default();
        let out = if part == 0 {
            rest.to_vec()
        } else {
            (0..rest.len())
                .map(|i| (rest[i] >> part) | rest.get(i + 1).map_or(0, |&h| h << (32 - part)))
                .collect()
        };
        Count::normalised(out)
    }

    /// `self * 2^n`.
    fn shl(&self, n: usize) -> Count {
        let (whole, part) = (n / 32, n % 32);
        let mut out = vec![0u32; whole];
        let mut carry = 0u32;
        for &a in &self.limbs {
            if part == 0 {
                out.push(a);
            } else {
                out.push((a << part) | carry);
                carry = a >> (32 - part);
            }
        }
        out.push(carry);
        Count::normalised(out)
    }

    /// The greatest common divisor of `self` and `other` (Stein's binary algorithm; the gcd of
    /// 0 and `x` is `x`). Dividing a fraction's two counts by it gives the fraction in lowest
    /// terms.
    pub fn gcd(&self, other: &Count) -> Count {
        if self.is_zero() {
            return other.clone();
        }
        if other.is_zero() {
            return self.clone();
        }
        let (za, zb) = (self.trailing_zeros(), other.trailing_zeros());
        let mut a = self.shr(za);
        let mut b = other.shr(zb);
        // Both odd from here on: the difference of two odd numbers is even.
        loop {
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            b = b.checked_sub(&a).unwrap_or_default();
            if b.is_zero() {
                return a.shl(za.min(zb));
            }
            b = b.shr(b.trailing_zeros());
        }
    }
}

impl From<u128> for Count {
    fn from(v: u128) -> Count {
        Count::normalised((0..4).map(|i| (v >> (32 * i)) as u32).collect())
    }
}

impl From<u64> for Count {
    fn from(v: u64) -> Count {
        Count::from(u128::from(v))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Count) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Count) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for &Count {
    type Output = Count;

    fn add(self, other: &Count) -> Count {
        let len = self.limbs.len().max(other.limbs.len());
        let mut out = Vec::with_capacity(len + 1);
        let mut carry = 0u64;
        for i in 0..len {
            let a = self.limbs.get(i).copied().unwrap_or(0);
            let b = other.limbs.get(i).copied().unwrap_or(0);
            let t = u64::from(a) + u64::from(b) + carry;
            out.push(t as u32);
            carry = t >> 32;
        }
        out.push(carry as u32);
        Count::normalised(out)
    }
}

impl Mul for &Count {
    type Output = Count;

    fn mul(self, other: &Count) -> Count {
        if self.is_zero() || other.is_zero() {
            return Count::zero();
        }
        let mut out = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (slot, &b) in out[i..].iter_mut().zip(&other.limbs) {
                // a * b + slot + carry < 2^64 for 32-bit digits.
                let t = u64::from(a) * u64::from(b) + u64::from(*slot) + carry;
                *slot = t as u32;
                carry = t >> 32;
            }
            if let Some(slot) = out.get_mut(i + other.limbs.len()) {
                *slot = carry as u32;
            }
        }
        Count::normalised(out)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Nine decimal digits at a time, least significant first.
        let mut chunks = Vec::new();
        let mut rest = self.clone();
        while !rest.is_zero() {
            let (q, r) = rest.div_rem_small(1_000_000_000);
            chunks.push(r);
            rest = q;
        }
        let mut text = String::new();
        match chunks.split_last() {
            None => text.push('0'),
            Some((top, lower)) => {
                let _ = write!(text, "{top}");
                for chunk in lower.iter().rev() {
                    let _ = write!(text, "{chunk:09}");
                }
            }
        }
        f.pad(&text)
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// `num / den` as a percentage rounded half up to one decimal, exactly: `<0.1%` and `>99.9%`
/// mark a chance that rounds to 0 or 100 but is not.
pub fn percent(num: &Count, den: &Count) -> String {
    let Some(per_mille) = rounded(num, den, 1000) else {
        return "-".to_string();
    };
    if per_mille == 0 && !num.is_zero() {
        return "<0.1%".to_string();
    }
    if per_mille == 1000 && num < den {
        return ">99.9%".to_string();
    }
    format!("{}.{}%", per_mille / 10, per_mille % 10)
}

/// `num / den` rounded half up to one decimal, exactly (`-` when `den` is zero).
pub fn tenths(num: &Count, den: &Count) -> String {
    match rounded(num, den, 10) {
        Some(t) => format!("{}.{}", t / 10, t % 10),
        None => "-".to_string(),
    }
}

/// `num * scale / den` rounded half up, or `None` if `den` is zero or the result is huge.
fn rounded(num: &Count, den: &Count, scale: u32) -> Option<u128> {
    // floor((2 * scale * num + den) / (2 * den)).
    let top = &num.mul_small(2 * scale) + den;
    let (q, _) = top.div_rem(&den.mul_small(2))?;
    q.to_u128()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: u128) -> Count {
        Count::from(v)
    }

    #[test]
    fn gcd_matches_euclid_on_small_numbers() {
        fn euclid(a: u128, b: u128) -> u128 {
            if b == 0 { a } else { euclid(b, a % b) }
        }
        for a in 0..60u128 {
            for b in 0..60u128 {
                assert_eq!(c(a).gcd(&c(b)), c(euclid(a, b)), "gcd({a}, {b})");
            }
        }
    }

    #[test]
    fn gcd_works_past_u128_and_across_digit_boundaries() {
        let mut six_100 = c(1);
        for _ in 0..100 {
            six_100 = &six_100 * &c(6);
        }
        let two_33 = c(1 << 33);
        // 6^100 = 2^100 * 3^100, so the gcd with 2^33 * 9 * 5 is 2^33 * 9.
        let g = six_100.gcd(&(&two_33 * &c(45)));
        assert_eq!(g, &two_33 * &c(9));
        assert_eq!(six_100.gcd(&six_100), six_100);
        let (q, r) = six_100.div_rem(&g).unwrap();
        assert_eq!((&q * &g, r), (six_100.clone(), Count::zero()));
        assert_eq!(c(u128::MAX).gcd(&c(3)), c(3));
    }

    #[test]
    fn shifts_cross_digits_exactly() {
        let v = c(0x1234_5678_9abc_def0_1122_3344_5566_7788);
        for n in [0, 1, 31, 32, 33, 64, 95, 127, 128, 200] {
            assert_eq!(v.shl(n).shr(n), v, "shift {n}");
        }
        assert_eq!(v.shr(4), c(0x1234_5678_9abc_def0_1122_3344_5566_7788 >> 4));
        assert_eq!(c(0b1000).trailing_zeros(), 3);
        assert_eq!(c(1 << 70).trailing_zeros(), 70);
    }
}
