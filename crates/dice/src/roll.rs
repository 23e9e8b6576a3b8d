//! Roll records and keep rules.
//!
//! A [`Roll`] is what a game event stores about one roll: the die size,
//! every face in the order rolled, a bit mask of the faces that count, and
//! their total. Keeping all faces (not just the total) lets a log show
//! exactly what happened and lets a replay be checked face by face.
//!
//! Keep rules choose faces deterministically: among equal faces the
//! earliest ones are kept, so the same faces always produce the same mask.
//! Choosing uses a fixed-size index array sorted in place, so [`roll()`]
//! and [`Roll::from_faces`] never allocate.

use std::cmp::Reverse;
use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};

use crate::faces::{Faces, MAX_DICE};
use crate::source::{Dice, DiceError};

/// Which faces of a roll count towards its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Keep {
    /// Every face counts.
    All,
    /// Only the given number of highest faces count (all of them if fewer
    /// were rolled).
    Highest(u8),
    /// Only the given number of lowest faces count (all of them if fewer
    /// were rolled).
    Lowest(u8),
}

/// One roll as it appears in an event: every face, which were kept, the
/// total of the kept faces.
///
/// It serialises as, for example,
/// `{"sides":6,"faces":[3,4,6],"kept":6,"total":10}`. Deserialising checks
/// that the mask only names rolled faces and that the total is their sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawRoll")]
pub struct Roll {
    /// The number of sides of each die.
    pub sides: u16,
    /// Every face, in the order rolled.
    pub faces: Faces,
    /// Bit `i` set means `faces[i]` was kept.
    pub kept: u32,
    /// The sum of the kept faces, without any modifier.
    pub total: i32,
}

/// The serialised form of [`Roll`], checked before it becomes one.
#[derive(Deserialize)]
struct RawRoll {
    sides: u16,
    faces: Faces,
    kept: u32,
    total: i32,
}

impl TryFrom<RawRoll> for Roll {
    type Error = String;

    fn try_from(raw: RawRoll) -> Result<Roll, String> {
        let roll = Roll {
            sides: raw.sides,
            faces: raw.faces,
            kept: raw.kept,
            total: raw.total,
        };
        if raw.kept & !all_mask(raw.faces.len()) != 0 {
            return Err(format!(
                "the kept mask {:#x} names faces beyond the {} rolled",
                raw.kept,
                raw.faces.len()
            ));
        }
        let sum: i32 = roll.kept_faces().map(i32::from).sum();
        if sum != raw.total {
            return Err(format!(
                "the total {} is not the sum of the kept faces ({sum})",
                raw.total
            ));
        }
        Ok(roll)
    }
}

/// The mask with the lowest `n` bits set (all 32 for `n >= 32`).
fn all_mask(n: usize) -> u32 {
    match n {
        0 => 0,
        n if n >= 32 => u32::MAX,
        // Here 1 <= n <= 31, so the shift is in range.
        n => u32::MAX >> (32 - n),
    }
}

impl Roll {
    /// Whether `faces[i]` was kept (false for any `i` past the faces).
    pub fn is_kept(&self, i: usize) -> bool {
        i < self.faces.len() && i < 32 && self.kept & (1 << i) != 0
    }

    /// The kept faces, in the order rolled.
    pub fn kept_faces(&self) -> impl Iterator<Item = u16> + '_ {
        self.faces
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.is_kept(i))
            .map(|(_, face)| face)
    }

    /// Applies a keep rule to given faces.
    ///
    /// Ties are broken deterministically: among equal faces the earliest
    /// ones are kept. For example faces `[6, 3, 6]` keeping the highest 2
    /// keep indices 0 and 2, and `[3, 3, 3]` keeping the lowest 2 keep
    /// indices 0 and 1. Asking to keep more faces than were rolled keeps
    /// them all. The faces are not checked against `sides`.
    pub fn from_faces(sides: u16, faces: Faces, keep: Keep) -> Roll {
        let n = faces.len();
        let kept = match keep {
            Keep::All => all_mask(n),
            Keep::Highest(k) => choose(&faces, usize::from(k), |i, f| (Reverse(f), i)),
            Keep::Lowest(k) => choose(&faces, usize::from(k), |i, f| (f, i)),
        };
        let mut roll = Roll {
            sides,
            faces,
            kept,
            total: 0,
        };
        roll.total = roll.kept_faces().map(i32::from).sum();
        roll
    }

    /// Human text for game logs.
    ///
    /// The format lists every face in the order rolled, puts dropped faces
    /// in parentheses, and ends with the total of the kept faces:
    /// `"[2, 5] = 7"` keeps everything, `"[(3), 4, 6] = 10"` dropped the 3.
    /// An empty roll reads `"[] = 0"`.
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

/// Returns the mask of the `k` faces that sort first under `key`, which
/// receives (index, face). Keys include the index, so the order is total
/// and the unstable (allocation-free) sort is deterministic.
fn choose<K: Ord>(faces: &Faces, k: usize, key: impl Fn(usize, u16) -> K) -> u32 {
    let slice = faces.as_slice();
    let mut order = [0usize; MAX_DICE];
    for (i, slot) in order.iter_mut().enumerate() {
        *slot = i;
    }
    let order = &mut order[..slice.len()];
    order.sort_unstable_by_key(|&i| key(i, slice.get(i).copied().unwrap_or(0)));
    order.iter().take(k).fold(0u32, |mask, &i| mask | (1u32 << i))
}

/// Formats the roll as described in [`Roll::describe`].
impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for (i, face) in self.faces.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if self.is_kept(i) {
                write!(f, "{face}")?;
            } else {
                write!(f, "({face})")?;
            }
        }
        write!(f, "] = {}", self.total)
    }
}

/// Draws `count` d`sides` from `dice` and applies `keep`. No heap
/// allocation (unless the source itself allocates, as interactive ones do).
pub fn roll(
    dice: &mut dyn Dice,
    count: usize,
    sides: u16,
    keep: Keep,
    why: &dyn fmt::Display,
) -> Result<Roll, DiceError> {
    if count > MAX_DICE {
        return Err(DiceError::TooManyDice { max: MAX_DICE });
    }
    let mut faces = Faces::new();
    dice.roll(count, sides, why, &mut faces)?;
    Ok(Roll::from_faces(sides, faces, keep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{ScriptedDice, SeededDice};
    use proptest::prelude::*;

    fn faces(f: &[u16]) -> Faces {
        Faces::from_slice(f).unwrap()
    }

    #[test]
    fn keep_all() {
        let r = Roll::from_faces(6, faces(&[2, 5]), Keep::All);
        assert_eq!(r.kept, 0b11);
        assert_eq!(r.total, 7);
        assert_eq!(r.describe(), "[2, 5] = 7");
    }

    #[test]
    fn keep_highest_ties_keep_earliest() {
        let r = Roll::from_faces(6, faces(&[6, 3, 6]), Keep::Highest(2));
        assert_eq!(r.kept, 0b101);
        assert_eq!(r.total, 12);
        assert!(r.is_kept(0) && !r.is_kept(1) && r.is_kept(2));
        assert!(!r.is_kept(3) && !r.is_kept(100));
        assert_eq!(r.describe(), "[6, (3), 6] = 12");

        let r = Roll::from_faces(6, faces(&[4, 4, 4, 4]), Keep::Highest(3));
        assert_eq!(r.kept, 0b0111);
    }

    #[test]
    fn keep_lowest_ties_keep_earliest() {
        let r = Roll::from_faces(6, faces(&[3, 3, 3]), Keep::Lowest(2));
        assert_eq!(r.kept, 0b011);
        assert_eq!(r.total, 6);
        let r = Roll::from_faces(6, faces(&[5, 1, 6, 1]), Keep::Lowest(2));
        assert_eq!(r.kept, 0b1010);
        assert_eq!(r.kept_faces().collect::<Vec<_>>(), [1, 1]);
        assert_eq!(r.describe(), "[(5), 1, (6), 1] = 2");
    }

    #[test]
    fn keep_more_than_rolled_keeps_all_and_zero_keeps_none() {
        let r = Roll::from_faces(6, faces(&[3, 4]), Keep::Highest(5));
        assert_eq!((r.kept, r.total), (0b11, 7));
        let r = Roll::from_faces(6, faces(&[3, 4]), Keep::Lowest(0));
        assert_eq!((r.kept, r.total), (0, 0));
        assert_eq!(r.describe(), "[(3), (4)] = 0");
        let r = Roll::from_faces(6, Faces::new(), Keep::All);
        assert_eq!(r.describe(), "[] = 0");
    }

    #[test]
    fn thirty_two_dice_mask() {
        let r = Roll::from_faces(6, faces(&[1; 32]), Keep::All);
        assert_eq!(r.kept, u32::MAX);
        assert_eq!(r.total, 32);
        let r = Roll::from_faces(6, faces(&[2; 32]), Keep::Lowest(31));
        assert_eq!(r.kept, u32::MAX >> 1);
        assert_eq!(r.total, 62);
    }

    #[test]
    fn roll_draws_and_keeps() {
        let mut dice = ScriptedDice::new([3, 4, 6, 2]);
        let r = roll(&mut dice, 3, 6, Keep::Highest(2), &"ability").unwrap();
        assert_eq!(r.faces.as_slice(), &[3, 4, 6]);
        assert_eq!(r.total, 10);
        assert_eq!(r.describe(), "[(3), 4, 6] = 10");
        assert_eq!(
            roll(&mut dice, 33, 6, Keep::All, &"x"),
            Err(DiceError::TooManyDice { max: 32 })
        );
        let mut seeded = SeededDice::new(42);
        let r = roll(&mut seeded, 4, 6, Keep::Highest(3), &"stats").unwrap();
        assert_eq!(r.faces.as_slice(), &[1, 3, 5, 6]);
        assert_eq!(r.total, 14);
    }

    proptest! {
        /// Checks keep rules against their definition: the right number of
        /// faces is kept, no dropped face beats a kept one, equal faces are
        /// kept earliest first, and the total is the sum of the kept faces.
        #[test]
        fn keep_rules_follow_their_definition(
            raw in proptest::collection::vec(1u16..=6, 0..=MAX_DICE),
            k in 0u8..=40,
            highest in any::<bool>(),
        ) {
            let keep = if highest { Keep::Highest(k) } else { Keep::Lowest(k) };
            let r = Roll::from_faces(6, faces(&raw), keep);
            let kept: Vec<usize> = (0..raw.len()).filter(|&i| r.is_kept(i)).collect();
            prop_assert_eq!(kept.len(), usize::from(k).min(raw.len()));
            prop_assert_eq!(r.kept.count_ones() as usize, kept.len());
            for i in 0..raw.len() {
                for j in 0..raw.len() {
                    if r.is_kept(i) && !r.is_kept(j) {
                        let better = if highest { raw[i] >= raw[j] } else { raw[i] <= raw[j] };
                        prop_assert!(better, "kept {} at {i}, dropped {} at {j}", raw[i], raw[j]);
                        if raw[i] == raw[j] {
                            prop_assert!(i < j, "tie at {i} and {j} kept the later one");
                        }
                    }
                }
            }
            let mut sorted = raw.clone();
            sorted.sort_unstable();
            if highest {
                sorted.reverse();
            }
            let expected: i32 = sorted.iter().take(usize::from(k)).map(|&f| i32::from(f)).sum();
            prop_assert_eq!(r.total, expected);
            let json = serde_json::to_string(&r).unwrap();
            prop_assert_eq!(serde_json::from_str::<Roll>(&json).unwrap(), r);
        }
    }

    #[test]
    fn serialises_compactly_and_checks_on_load() {
        let r = Roll::from_faces(6, faces(&[3, 4, 6]), Keep::All);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"sides":6,"faces":[3,4,6],"kept":7,"total":13}"#);
        assert_eq!(serde_json::from_str::<Roll>(&json).unwrap(), r);
        let bad_total = r#"{"sides":6,"faces":[3,4,6],"kept":7,"total":12}"#;
        assert!(serde_json::from_str::<Roll>(bad_total).is_err());
        let bad_mask = r#"{"sides":6,"faces":[3,4,6],"kept":15,"total":13}"#;
        assert!(serde_json::from_str::<Roll>(bad_mask).is_err());
        assert_eq!(serde_json::to_string(&Keep::Highest(2)).unwrap(), r#"{"Highest":2}"#);
    }
}
