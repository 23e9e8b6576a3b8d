//! Distances between squares.
//!
//! Two metrics are provided, both exact integer functions of the coordinate
//! differences so they never allocate and never overflow:
//!
//! * [`chebyshev`]: a diagonal step costs the same as an orthogonal one, so
//!   the distance is the larger of the two axis differences.
//! * [`alternating_diagonal`]: every second diagonal step costs two, the
//!   "5-10-5" convention some games use to approximate Euclidean distance.
//!
//! [`Metric`] selects one of them at run time for rulesets that are
//! configurable. Adjacency ([`is_adjacent`], [`neighbours`]) is always the
//! eight-neighbour Chebyshev kind.

use serde::{Deserialize, Serialize};

use crate::pos::{Dir, Pos};

/// Chebyshev distance: `max(|dx|, |dy|)`.
///
/// A square 7 to the west and 4 to the north is at distance 7. The result
/// always fits: the widest possible difference of two `i16` values is
/// `u16::MAX`.
#[inline]
#[must_use]
pub const fn chebyshev(a: Pos, b: Pos) -> u16 {
    let dx = a.x.abs_diff(b.x);
    let dy = a.y.abs_diff(b.y);
    if dx > dy { dx } else { dy }
}

/// Whether `a` and `b` are different squares sharing an edge or a corner.
/// A square is not adjacent to itself.
#[inline]
#[must_use]
pub const fn is_adjacent(a: Pos, b: Pos) -> bool {
    chebyshev(a, b) == 1
}

/// The eight squares around `p`, in [`Dir::ALL`] order (north first, then
/// clockwise).
///
/// Like [`Pos::step`] this saturates at the edge of the `i16` range, where
/// some entries may then repeat; no map reaches that far.
#[inline]
#[must_use]
pub fn neighbours(p: Pos) -> [Pos; 8] {
    Dir::ALL.map(|d| p.step(d))
}

/// Distance where every second diagonal step costs two.
///
/// With `d` the number of diagonal steps (the smaller axis difference) and
/// `s` the remaining straight steps, the cost is `s + d + d / 2` (rounded
/// down): `(0,0)→(1,1)` is 1, `(0,0)→(2,2)` is 3 and `(0,0)→(3,3)` is 4.
#[inline]
#[must_use]
pub const fn alternating_diagonal(a: Pos, b: Pos) -> u32 {
    let dx = a.x.abs_diff(b.x) as u32;
    let dy = a.y.abs_diff(b.y) as u32;
    let (diagonal, longer) = if dx < dy { (dx, dy) } else { (dy, dx) };
    let straight = longer - diagonal;
    straight + diagonal + diagonal / 2
}

/// A choice of distance function, for rulesets that pick one at run time.
///
/// The serde form is the snake-case name: `"chebyshev"` or
/// `"alternating_diagonal"`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// [`chebyshev`]: diagonal steps cost the same as orthogonal ones.
    #[default]
    Chebyshev,
    /// [`alternating_diagonal`]: every second diagonal step costs two.
    AlternatingDiagonal,
}

impl Metric {
    /// The distance from `a` to `b` under this metric.
    #[inline]
    #[must_use]
    pub const fn distance(&self, a: Pos, b: Pos) -> u32 {
        match self {
            Metric::Chebyshev => chebyshev(a, b) as u32,
            Metric::AlternatingDiagonal => alternating_diagonal(a, b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn chebyshev_takes_the_larger_axis() {
        assert_eq!(chebyshev(p(0, 0), p(-7, 4)), 7);
        assert_eq!(chebyshev(p(2, 2), p(2, 2)), 0);
        assert_eq!(chebyshev(p(1, -5), p(2, 5)), 10);
        assert_eq!(chebyshev(p(i16::MIN, 0), p(i16::MAX, 0)), u16::MAX);
    }

    #[test]
    fn adjacency_excludes_self_and_distance_two() {
        let c = p(3, 3);
        assert!(!is_adjacent(c, c));
        assert!(is_adjacent(c, p(4, 4)));
        assert!(is_adjacent(c, p(3, 2)));
        assert!(!is_adjacent(c, p(5, 3)));
    }

    #[test]
    fn neighbours_are_in_clockwise_order() {
        assert_eq!(
            neighbours(p(0, 0)),
            [
                p(0, 1),
                p(1, 1),
                p(1, 0),
                p(1, -1),
                p(0, -1),
                p(-1, -1),
                p(-1, 0),
                p(-1, 1)
            ]
        );
        assert!(neighbours(p(9, -9)).iter().all(|&n| is_adjacent(n, p(9, -9))));
    }

    #[test]
    fn alternating_diagonal_values() {
        assert_eq!(alternating_diagonal(p(0, 0), p(1, 1)), 1);
        assert_eq!(alternating_diagonal(p(0, 0), p(2, 2)), 3);
        assert_eq!(alternating_diagonal(p(0, 0), p(3, 3)), 4);
        assert_eq!(alternating_diagonal(p(0, 0), p(4, 4)), 6);
        assert_eq!(alternating_diagonal(p(0, 0), p(4, 1)), 4);
        assert_eq!(alternating_diagonal(p(0, 0), p(-1, 4)), 4);
        assert_eq!(alternating_diagonal(p(5, 5), p(0, 0)), 7);
        assert_eq!(alternating_diagonal(p(0, 0), p(6, 0)), 6);
        assert_eq!(
            alternating_diagonal(p(i16::MIN, i16::MIN), p(i16::MAX, i16::MAX)),
            65535 + 32767
        );
    }

    #[test]
    fn metric_dispatches() {
        assert_eq!(Metric::default(), Metric::Chebyshev);
        assert_eq!(Metric::Chebyshev.distance(p(0, 0), p(3, 3)), 3);
        assert_eq!(Metric::AlternatingDiagonal.distance(p(0, 0), p(3, 3)), 4);
    }
}
