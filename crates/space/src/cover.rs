//! Cover as pure geometry: dividing lines through squares next to a target.
//!
//! A square `S` adjacent to the target `T` may shelter it. The *dividing
//! line* passes through `S` perpendicular to the step from `S` to `T`, which
//! may be orthogonal or diagonal. An attacker `A` is *beyond* that line, on
//! the far side from the target, when the integer dot product
//! `(A − S)·(T − S)` is negative; an attacker exactly on the line (dot
//! product 0) is not beyond it. The two squares *flanking* `S` along the line
//! are `S + p` and `S − p`, where `p = (−dy, dx)` is the step `d = T − S`
//! turned a quarter. They need not be adjacent to the target.
//!
//! Which squares count as cover sources, and how tall they are, is a rule
//! (terrain two levels above the target, any character, ...). The caller
//! answers that through a callback, and this module only does the geometry,
//! with integer arithmetic and no allocation.
//!
//! The attacker's own square never shelters the target from that attacker.
//! It is skipped explicitly, though the formula would reject it anyway: for
//! `S = A` the dot product is 0, which is not beyond.

use serde::{Deserialize, Serialize};

use crate::metric::is_adjacent;
use crate::pos::{Dir, Pos};

/// The outcome of [`cover`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CoverCheck {
    /// The target has cover against this attacker.
    pub cover: bool,
    /// The attack is obstructed: some square giving cover is flanked on both
    /// sides of its dividing line by further cover sources. Implies `cover`.
    pub obstructed: bool,
    /// The square giving cover: the first in [`Dir::ALL`] order around the
    /// target that obstructs, or, if none obstructs, the first that gives
    /// cover at all. `None` when there is no cover.
    pub source: Option<Pos>,
}

/// Whether `attacker` is beyond the dividing line through `source` that
/// faces `target`: `(attacker − source)·(target − source) < 0`.
///
/// The line is meant for a `source` adjacent to `target`, but the formula is
/// evaluated for any squares. An attacker on the line is not beyond it, and
/// a `source` equal to `target` has no line, so nothing is beyond it.
#[inline]
#[must_use]
pub fn beyond_dividing_line(target: Pos, source: Pos, attacker: Pos) -> bool {
    // Differences of i16 values fit i32, but their products need i64.
    let d = |a: i16, b: i16| i64::from(a) - i64::from(b);
    let dot = d(attacker.x, source.x) * d(target.x, source.x) + d(attacker.y, source.y) * d(target.y, source.y);
    dot < 0
}

/// For an attacker `delta = attacker − target` away from a target, which of the target's eight
/// neighbours (bit `d` for `Dir::ALL[d]`) have the attacker beyond their dividing line, and which
/// have it exactly on the line: the answers of [`beyond_dividing_line`] (and of its dot product
/// being 0) for every neighbour at once. They depend only on where the attacker stands relative
/// to the target, not on the map, so no table is needed: with `u` the step from the target to a
/// neighbour, the attacker is beyond when `delta·u > |u|²` and on the line when they are equal.
#[inline]
#[must_use]
pub fn dividing_masks(delta: (i16, i16)) -> (u8, u8) {
    let (x, y) = (i32::from(delta.0), i32::from(delta.1));
    // delta·u for N, NE, E, SE, S, SW, W, NW (the order of `Dir::ALL`), and |u|².
    let dots = [y, x + y, x, x - y, -y, -x - y, -x, y - x];
    let mut beyond = 0u8;
    let mut on_line = 0u8;
    for (d, dot) in dots.into_iter().enumerate() {
        let n2 = 1 + (d as i32 & 1);
        beyond |= u8::from(dot > n2) << d;
        on_line |= u8::from(dot == n2) << d;
    }
    (beyond, on_line)
}

/// The two squares flanking `source` along its dividing line: `source + p`
/// and `source − p` with `p = (−dy, dx)` for `(dx, dy) = target − source`.
///
/// For a target directly east of the source the flanks are the squares north
/// and south of the source; for a target to the south-east they are the
/// source's north-east and south-west neighbours. `None` if the squares are
/// not adjacent or a flank falls outside the `i16` range.
#[inline]
#[must_use]
pub fn flanks(target: Pos, source: Pos) -> Option<(Pos, Pos)> {
    if !is_adjacent(target, source) {
        return None;
    }
    // Adjacent squares differ by at most one on each axis.
    let dx = target.x.checked_sub(source.x)?;
    let dy = target.y.checked_sub(source.y)?;
    let first = source.checked_offset(-dy, dx)?;
    let second = source.checked_offset(dy, -dx)?;
    Some((first, second))
}

/// Checks whether the target at `target` has cover against an attacker at
/// `attacker` whose elevation is `attacker_elevation`.
///
/// `source_height(p)` says whether `p` qualifies as a cover source (`Some`)
/// and, if so, its effective height to compare with the attacker's
/// elevation. The target has cover when some square `S` adjacent to it,
/// other than the attacker's own, qualifies, the attacker is beyond `S`'s
/// dividing line and `attacker_elevation < height(S)`. The attack is also
/// obstructed when, for such an `S`, both of its [`flanks`] qualify as
/// sources too (their heights are not compared with the attacker's).
///
/// Neighbours are examined in [`Dir::ALL`] order; see
/// [`CoverCheck::source`] for which one is reported. `source_height` is only
/// called for squares that could matter: neighbours with the attacker beyond
/// their line, and the flanks of those that give cover. The flanks lie on the
/// dividing line, so they are never the attacker's square.
pub fn cover(
    target: Pos,
    attacker: Pos,
    attacker_elevation: i16,
    mut source_height: impl FnMut(Pos) -> Option<i16>,
) -> CoverCheck {
    let mut found = CoverCheck::default();
    for d in Dir::ALL {
        let Some(source) = target.checked_step(d) else {
            continue;
        };
        if source == attacker || !beyond_dividing_line(target, source, attacker) {
            continue;
        }
        let Some(height) = source_height(source) else {
            continue;
        };
        if attacker_elevation >= height {
            continue;
        }
        let obstructs =
            flanks(target, source).is_some_and(|(a, b)| source_height(a).is_some() && source_height(b).is_some());
        if obstructs {
            return CoverCheck {
                cover: true,
                obstructed: true,
                source: Some(source),
            };
        }
        if !found.cover {
            found = CoverCheck {
                cover: true,
                obstructed: false,
                source: Some(source),
            };
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::neighbours;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    /// A height map where the listed squares are cover sources of the given
    /// height and nothing else is.
    fn sources(list: &[(Pos, i16)]) -> impl Fn(Pos) -> Option<i16> + '_ {
        move |q| list.iter().find(|(s, _)| *s == q).map(|&(_, h)| h)
    }

    fn attackers() -> impl Iterator<Item = Pos> {
        (-6..=6).flat_map(|y| (-6..=6).map(move |x| p(x, y)))
    }

    #[test]
    fn dividing_masks_agree_with_the_dot_product() {
        for tx in -2..=2i16 {
            for ty in -2..=2i16 {
                let target = p(tx, ty);
                for ax in -9..=9i16 {
                    for ay in -9..=9i16 {
                        let attacker = p(ax, ay);
                        let (beyond, on_line) = dividing_masks((ax - tx, ay - ty));
                        for (d, dir) in Dir::ALL.iter().enumerate() {
                            let source = target.step(*dir);
                            let dot = (i64::from(ax) - i64::from(source.x)) * (i64::from(tx) - i64::from(source.x))
                                + (i64::from(ay) - i64::from(source.y)) * (i64::from(ty) - i64::from(source.y));
                            assert_eq!(beyond & (1 << d) != 0, beyond_dividing_line(target, source, attacker));
                            assert_eq!(on_line & (1 << d) != 0, dot == 0, "{target} {attacker} {dir:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flanks_are_perpendicular_to_the_step() {
        assert_eq!(flanks(p(1, 0), p(0, 0)), Some((p(0, 1), p(0, -1))));
        assert_eq!(flanks(p(1, -1), p(0, 0)), Some((p(1, 1), p(-1, -1))));
        assert_eq!(flanks(p(2, 0), p(0, 0)), None);
        assert_eq!(flanks(p(0, 0), p(0, 0)), None);
        assert_eq!(flanks(p(i16::MAX, 1), p(i16::MAX, 0)), None);
    }

    #[test]
    fn beyond_uses_a_strict_dot_product() {
        let (t, s) = (p(1, 0), p(0, 0));
        assert!(beyond_dividing_line(t, s, p(-1, 5)));
        assert!(!beyond_dividing_line(t, s, p(0, 5)));
        assert!(!beyond_dividing_line(t, s, p(3, 0)));
        assert!(!beyond_dividing_line(s, s, p(-3, 0)));
        assert!(!beyond_dividing_line(
            p(i16::MIN + 1, 0),
            p(i16::MIN, 0),
            p(i16::MAX, 0)
        ));
        assert!(beyond_dividing_line(
            p(i16::MAX, i16::MAX),
            p(i16::MAX - 1, i16::MAX - 1),
            p(i16::MIN, i16::MIN)
        ));
    }

    /// Worked example 1: high ground directly west of the target.
    #[test]
    fn high_ground_to_the_west_covers_against_attackers_west_of_it() {
        let target = p(1, 0);
        let high = [(p(0, 0), 2)];
        for attacker in attackers().filter(|&a| a != target) {
            let check = cover(target, attacker, 0, sources(&high));
            let expected = attacker.x < 0;
            assert_eq!(check.cover, expected, "attacker at {attacker}");
            assert!(!check.obstructed);
            assert_eq!(check.source, expected.then_some(p(0, 0)));
        }
    }

    /// Worked example 2: high ground north-west of the target, so the
    /// dividing line is the south-west to north-east diagonal through it.
    #[test]
    fn diagonal_high_ground_covers_against_attackers_north_west_of_the_diagonal() {
        let target = p(1, -1);
        let high = [(p(0, 0), 2)];
        let mut covered = 0;
        for attacker in attackers().filter(|&a| a != target) {
            let check = cover(target, attacker, 0, sources(&high));
            let expected = attacker.y > attacker.x;
            assert_eq!(check.cover, expected, "attacker at {attacker}");
            assert_eq!(expected, (attacker.x - attacker.y) < 0, "the dot-product form agrees");
            covered += usize::from(check.cover);
        }
        // 13 x 13 squares; the 13 on the diagonal and the 78 below it do not
        // get cover.
        assert_eq!(covered, 78);
        assert!(!cover(target, p(-3, -3), 0, sources(&high)).cover);
        assert!(cover(target, p(-3, -2), 0, sources(&high)).cover);
    }

    /// Worked example 3: a wall with both flanks obstructs.
    #[test]
    fn a_wall_with_both_flanks_obstructs() {
        let walls = [(p(0, 1), 2), (p(0, 0), 2), (p(0, -1), 2)];
        let check = cover(p(1, 0), p(-4, 0), 0, sources(&walls));
        // (0,-1) to the south-west gives cover first in Dir::ALL order, but
        // (0,0) obstructs and is preferred.
        assert_eq!(
            check,
            CoverCheck {
                cover: true,
                obstructed: true,
                source: Some(p(0, 0))
            }
        );
        // One square further east the walls are no longer adjacent.
        let check = cover(p(2, 0), p(-4, 0), 0, sources(&walls));
        assert_eq!(check, CoverCheck::default());
        // Without the northern flank there is cover but no obstruction; the
        // first source in Dir::ALL order is reported.
        let check = cover(p(1, 0), p(-4, 0), 0, sources(&walls[1..]));
        assert_eq!(
            check,
            CoverCheck {
                cover: true,
                obstructed: false,
                source: Some(p(0, -1))
            }
        );
    }

    /// Worked example 4: an attacker above the source is not hindered.
    #[test]
    fn higher_attackers_get_no_cover_penalty() {
        let walls = [(p(0, 1), 2), (p(0, 0), 2), (p(0, -1), 2)];
        for elevation in [2, 3, 10] {
            assert_eq!(
                cover(p(1, 0), p(-4, 0), elevation, sources(&walls)),
                CoverCheck::default(),
                "attacker at elevation {elevation}"
            );
        }
        assert!(cover(p(1, 0), p(-4, 0), 1, sources(&walls)).obstructed);
        assert!(cover(p(1, 0), p(-4, 0), -3, sources(&walls)).cover);
    }

    #[test]
    fn the_attacker_is_never_its_own_cover() {
        // Every square is a tall cover source, including the attacker's.
        let everywhere = |_: Pos| Some(5);
        let target = p(0, 0);
        for attacker in neighbours(target) {
            // For S = A the dot product (A - S)·(T - S) is 0, so the
            // attacker's square would not count even without the explicit
            // exclusion, and an adjacent attacker is never strictly beyond
            // another neighbour's line either.
            assert!(!beyond_dividing_line(target, attacker, attacker));
            assert_eq!(
                cover(target, attacker, 0, everywhere),
                CoverCheck::default(),
                "adjacent attacker at {attacker}"
            );
        }
        // Two squares away, the square in between shelters the target.
        assert_eq!(
            cover(target, p(-2, 0), 0, everywhere),
            CoverCheck {
                cover: true,
                obstructed: true,
                source: Some(p(-1, 0))
            }
        );
    }

    #[test]
    fn callback_is_only_asked_about_relevant_squares() {
        let mut asked = Vec::new();
        let _ = cover(p(1, 0), p(5, 0), 0, |q| {
            asked.push(q);
            None
        });
        // An attacker due east is beyond only the eastern neighbours' lines.
        assert_eq!(asked, vec![p(2, 1), p(2, 0), p(2, -1)]);
    }
}
