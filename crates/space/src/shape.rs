//! Areas of effect: blocks, lines and auras of squares.
//!
//! Each shape is a lazy iterator of positions, so producing one allocates
//! nothing and a caller can stream it into whatever it needs. Shapes are not
//! clipped to a map (only [`line_to_edge`] consults one); callers filter with
//! [`Grid::contains`] where that matters. Squares that would fall outside the
//! `i16` coordinate range are silently left out, which cannot affect any
//! map.
//!
//! Two-dimensional shapes list their squares in grid order (`y` ascending,
//! then `x` ascending) so results are reproducible; lines list them from the
//! start outwards.

use crate::grid::{Grid, within};
use crate::metric::chebyshev;
use crate::pos::{Dir, Pos};

/// The `i16` range covered by `len` squares starting at `from`, clipped to
/// what `i16` can hold, as an exclusive `i32` range.
fn span(from: i16, len: u16) -> std::ops::Range<i32> {
    let start = i32::from(from);
    let end = (start + i32::from(len)).min(i32::from(i16::MAX) + 1);
    start..end
}

/// Converts a coordinate already clipped to the `i16` range.
#[inline]
fn narrow(v: i32) -> i16 {
    i16::try_from(v).unwrap_or(if v < 0 { i16::MIN } else { i16::MAX })
}

/// Every square of the rectangle covered by `xs` and `ys`, in grid order.
fn block(xs: std::ops::Range<i32>, ys: std::ops::Range<i32>) -> impl Iterator<Item = Pos> + Clone {
    ys.flat_map(move |y| xs.clone().map(move |x| Pos::new(narrow(x), narrow(y))))
}

/// An "Area X" block: the `size` by `size` square whose south-west corner is
/// `anchor`, covering `anchor.x .. anchor.x + size` and
/// `anchor.y .. anchor.y + size`. Area 2 is 4 squares, Area 3 is 9; size 0 is
/// empty. Squares come in grid order.
pub fn area(anchor: Pos, size: u16) -> impl Iterator<Item = Pos> + Clone {
    block(span(anchor.x, size), span(anchor.y, size))
}

/// `len` consecutive squares from `start` (included) in direction `dir`: a
/// row, a column or a diagonal. Length 0 is empty.
pub fn line(start: Pos, dir: Dir, len: u16) -> impl Iterator<Item = Pos> + Clone {
    let (dx, dy) = dir.delta();
    (0..i32::from(len)).map_while(move |k| {
        let x = i16::try_from(i32::from(start.x) + k * i32::from(dx)).ok()?;
        let y = i16::try_from(i32::from(start.y) + k * i32::from(dy)).ok()?;
        Some(Pos::new(x, y))
    })
}

/// The squares from `start` (included) in direction `dir` up to the last one
/// on `grid`. Empty if `start` is off the grid. The iterator does not borrow
/// the grid.
pub fn line_to_edge(grid: &Grid, start: Pos, dir: Dir) -> impl Iterator<Item = Pos> + Clone + use<> {
    let (width, height) = (grid.width(), grid.height());
    let first = within(start, width, height).then_some(start);
    std::iter::successors(first, move |p| {
        p.checked_step(dir).filter(|&q| within(q, width, height))
    })
}

/// Every square at Chebyshev distance `1..=radius` from `center`; the centre
/// itself is excluded. Aura 1 is the 8 surrounding squares, Aura 2 is 24;
/// radius 0 is empty. Squares come in grid order.
pub fn aura(center: Pos, radius: u16) -> impl Iterator<Item = Pos> + Clone {
    let side = |c: i16| {
        let lowest = (i32::from(c) - i32::from(radius)).max(i32::from(i16::MIN));
        let highest = (i32::from(c) + i32::from(radius)).min(i32::from(i16::MAX));
        lowest..highest + 1
    };
    // With radius 0 the block is just the centre, which the filter drops.
    block(side(center.x), side(center.y)).filter(move |&p| p != center)
}

/// Whether at least one of `squares` is within `range` of `user`
/// (Chebyshev distance, so range 1 means adjacent or the same square).
pub fn in_range(user: Pos, squares: impl IntoIterator<Item = Pos>, range: u16) -> bool {
    squares.into_iter().any(|s| chebyshev(user, s) <= range)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i16, y: i16) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn area_extends_north_east_from_the_anchor() {
        let squares: Vec<Pos> = area(p(2, 3), 2).collect();
        assert_eq!(squares, vec![p(2, 3), p(3, 3), p(2, 4), p(3, 4)]);
        assert_eq!(area(p(0, 0), 3).count(), 9);
        assert_eq!(area(p(0, 0), 1).collect::<Vec<_>>(), vec![p(0, 0)]);
        assert_eq!(area(p(0, 0), 0).count(), 0);
        assert_eq!(
            area(p(i16::MAX, i16::MAX), 3).collect::<Vec<_>>(),
            vec![p(i16::MAX, i16::MAX)]
        );
    }

    #[test]
    fn lines_run_from_the_start() {
        assert_eq!(
            line(p(1, 1), Dir::E, 3).collect::<Vec<_>>(),
            vec![p(1, 1), p(2, 1), p(3, 1)]
        );
        assert_eq!(
            line(p(0, 0), Dir::SW, 3).collect::<Vec<_>>(),
            vec![p(0, 0), p(-1, -1), p(-2, -2)]
        );
        assert_eq!(line(p(0, 0), Dir::N, 0).count(), 0);
        assert_eq!(line(p(0, i16::MAX - 1), Dir::N, 10).count(), 2);
    }

    #[test]
    fn line_to_edge_stops_at_the_last_square() {
        let g = Grid::new(4, 3).unwrap();
        assert_eq!(
            line_to_edge(&g, p(1, 0), Dir::NE).collect::<Vec<_>>(),
            vec![p(1, 0), p(2, 1), p(3, 2)]
        );
        assert_eq!(
            line_to_edge(&g, p(2, 2), Dir::W).collect::<Vec<_>>(),
            vec![p(2, 2), p(1, 2), p(0, 2)]
        );
        assert_eq!(line_to_edge(&g, p(3, 2), Dir::N).collect::<Vec<_>>(), vec![p(3, 2)]);
        assert_eq!(line_to_edge(&g, p(4, 0), Dir::W).count(), 0);
    }

    #[test]
    fn aura_surrounds_the_centre() {
        let one: Vec<Pos> = aura(p(0, 0), 1).collect();
        assert_eq!(
            one,
            vec![
                p(-1, -1),
                p(0, -1),
                p(1, -1),
                p(-1, 0),
                p(1, 0),
                p(-1, 1),
                p(0, 1),
                p(1, 1)
            ]
        );
        assert_eq!(aura(p(5, 5), 2).count(), 24);
        assert!(aura(p(5, 5), 2).all(|q| (1..=2).contains(&chebyshev(q, p(5, 5)))));
        assert_eq!(aura(p(5, 5), 0).count(), 0);
        assert_eq!(aura(p(i16::MIN, i16::MIN), 1).count(), 3);
    }

    #[test]
    fn in_range_checks_any_square() {
        let block: Vec<Pos> = area(p(3, 3), 2).collect();
        assert!(in_range(p(0, 0), block.iter().copied(), 3));
        assert!(!in_range(p(0, 0), block.iter().copied(), 2));
        assert!(in_range(p(5, 5), [p(4, 4)], 1));
        assert!(!in_range(p(5, 5), [], 10));
    }
}
