//! Rectangular maps of squares with elevation and terrain flags.
//!
//! A [`Grid`] covers the squares `(0, 0)` to `(width - 1, height - 1)` and
//! stores one [`Cell`] per square in a flat row-major vector starting at the
//! southern row (`y = 0`). That layout gives every square a dense index
//! ([`Grid::index`]) which the pathfinder uses for its scratch arrays, and it
//! fixes the canonical square order used across the crate: `y` ascending,
//! then `x` ascending.
//!
//! Key decisions:
//!
//! * Each side is 1 to 256 squares ([`MAX_SIDE`]), so indices fit in `u32`
//!   and coordinates comfortably fit in `i16`. Sizes come from users, so they
//!   are checked and rejected with [`GridError`] rather than asserted.
//! * Every lookup by [`Pos`] returns an `Option`; positions off the map are
//!   ordinary input, not a bug.
//! * Deserialising a grid re-checks the size and the cell count, so a
//!   hand-edited file cannot produce an inconsistent grid.
//! * Maps have a compact text form, one string per row, listed north to
//!   south as a printed map reads. See [`Grid::parse_rows`] for the grammar;
//!   [`Grid::render_rows`] writes the same form back.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::pos::Pos;

/// The largest permitted width or height of a grid.
pub const MAX_SIDE: u16 = 256;

/// The terrain of one square.
///
/// Missing fields take their defaults when deserialising, so `{}` is a flat,
/// open, ordinary square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Cell {
    /// Height of the ground in levels; 0 is the base level.
    pub elevation: i8,
    /// Difficult terrain. What that costs is up to the ruleset (its pricing
    /// function, see [`StepTable`](crate::StepTable)).
    pub difficult: bool,
    /// Impassable, like a wall or pillar. A blocked square still has an
    /// elevation, which matters for cover.
    pub blocked: bool,
    /// Part of the starting area where combatants may be placed.
    pub start: bool,
}

/// Why a grid could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    /// A side is zero or larger than [`MAX_SIDE`].
    #[error("a {width}x{height} grid is not allowed: each side must be 1..={MAX_SIDE} squares")]
    InvalidSize {
        /// The requested width.
        width: u16,
        /// The requested height.
        height: u16,
    },
    /// The number of cells supplied does not match the size.
    #[error("a {width}x{height} grid needs {expected} cells, found {found}")]
    CellCount {
        /// The requested width.
        width: u16,
        /// The requested height.
        height: u16,
        /// `width * height`.
        expected: usize,
        /// The number of cells supplied.
        found: usize,
    },
}

/// Why a text map could not be read.
///
/// `row` is the 0-based index into the slice given to
/// [`Grid::parse_rows`] (so row 0 is the northernmost row) and `column` is the
/// 1-based character position within that row, pointing at the offending
/// character or just past the end of the row when something is missing.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("map row {row}, column {column}: {message}")]
pub struct MapError {
    /// 0-based index of the row in the input slice.
    pub row: usize,
    /// 1-based character column within that row.
    pub column: usize,
    /// What was expected there.
    pub message: String,
}

/// A rectangular map of [`Cell`]s.
///
/// Squares run from `(0, 0)` in the south-west corner to
/// `(width - 1, height - 1)` in the north-east corner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GridData")]
pub struct Grid {
    width: u16,
    height: u16,
    /// Row-major, starting with the southern row (`y = 0`).
    cells: Vec<Cell>,
}

/// The unchecked serde form of a [`Grid`], validated on the way in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridData {
    width: u16,
    height: u16,
    cells: Vec<Cell>,
}

impl TryFrom<GridData> for Grid {
    type Error = GridError;

    fn try_from(data: GridData) -> Result<Grid, GridError> {
        Grid::from_cells(data.width, data.height, data.cells)
    }
}

/// Whether `p` lies on a `width` by `height` grid.
#[inline]
pub(crate) fn within(p: Pos, width: u16, height: u16) -> bool {
    p.x >= 0 && p.y >= 0 && i32::from(p.x) < i32::from(width) && i32::from(p.y) < i32::from(height)
}

/// Converts an on-grid coordinate (at most 255) to `i16`.
#[inline]
fn coordinate(v: usize) -> i16 {
    i16::try_from(v).unwrap_or(i16::MAX)
}

fn check_size(width: u16, height: u16) -> Result<(), GridError> {
    if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height) {
        Ok(())
    } else {
        Err(GridError::InvalidSize { width, height })
    }
}

impl Grid {
    /// A `width` by `height` grid of default (flat, open) cells.
    ///
    /// # Errors
    ///
    /// [`GridError::InvalidSize`] unless both sides are in `1..=256`.
    pub fn new(width: u16, height: u16) -> Result<Grid, GridError> {
        check_size(width, height)?;
        let len = usize::from(width) * usize::from(height);
        Ok(Grid {
            width,
            height,
            cells: vec![Cell::default(); len],
        })
    }

    /// A grid built from cells listed row-major from the southern row.
    ///
    /// # Errors
    ///
    /// [`GridError::InvalidSize`] unless both sides are in `1..=256`;
    /// [`GridError::CellCount`] unless there are exactly `width * height`
    /// cells.
    pub fn from_cells(width: u16, height: u16, cells: Vec<Cell>) -> Result<Grid, GridError> {
        check_size(width, height)?;
        let expected = usize::from(width) * usize::from(height);
        if cells.len() != expected {
            return Err(GridError::CellCount {
                width,
                height,
                expected,
                found: cells.len(),
            });
        }
        Ok(Grid { width, height, cells })
    }

    /// Number of columns (squares along `x`).
    #[inline]
    #[must_use]
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Number of rows (squares along `y`).
    #[inline]
    #[must_use]
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Number of squares, `width * height`.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always `false`: a grid has at least one square. Provided because
    /// [`Grid::len`] is.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether `p` is a square of this grid.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Pos) -> bool {
        within(p, self.width, self.height)
    }

    /// The dense index of `p` (`y * width + x`), or `None` off the grid.
    #[inline]
    #[must_use]
    pub fn index(&self, p: Pos) -> Option<usize> {
        if self.contains(p) {
            // Both coordinates are non-negative here, so `unsigned_abs` is
            // the value itself.
            let x = usize::from(p.x.unsigned_abs());
            let y = usize::from(p.y.unsigned_abs());
            Some(y * usize::from(self.width) + x)
        } else {
            None
        }
    }

    /// The square with dense index `index`; the inverse of [`Grid::index`].
    ///
    /// For `index >= len()` the result is a position north of the grid (which
    /// [`Grid::contains`] rejects), saturating at `i16::MAX`; it never panics.
    #[inline]
    #[must_use]
    pub fn pos_of(&self, index: usize) -> Pos {
        let width = usize::from(self.width);
        Pos::new(coordinate(index % width), coordinate(index / width))
    }

    /// The cell at `p`, or `None` off the grid.
    #[inline]
    #[must_use]
    pub fn get(&self, p: Pos) -> Option<&Cell> {
        self.cells.get(self.index(p)?)
    }

    /// The up to eight squares around `at` that are on the grid and not blocked: the four
    /// orthogonal ones first (east, west, north, south), then the diagonals.
    pub fn open_neighbours(&self, at: Pos) -> impl Iterator<Item = Pos> + '_ {
        const AROUND: [(i16, i16); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];
        AROUND
            .into_iter()
            .map(move |(dx, dy)| Pos::new(at.x + dx, at.y + dy))
            .filter(|&p| self.get(p).is_some_and(|c| !c.blocked))
    }

    /// The cell at `p` for editing, or `None` off the grid.
    #[inline]
    pub fn get_mut(&mut self, p: Pos) -> Option<&mut Cell> {
        let index = self.index(p)?;
        self.cells.get_mut(index)
    }

    /// The elevation at `p`, or `None` off the grid.
    #[inline]
    #[must_use]
    pub fn elevation(&self, p: Pos) -> Option<i8> {
        self.get(p).map(|c| c.elevation)
    }

    /// All cells in index order (row-major from the southern row).
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Every square of the grid in index order: `y` ascending, then `x`
    /// ascending. The iterator does not borrow the grid.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let width = usize::from(self.width);
        (0..usize::from(self.height)).flat_map(move |y| (0..width).map(move |x| Pos::new(coordinate(x), coordinate(y))))
    }

    /// Reads a map from text rows.
    ///
    /// Rows are listed from **north to south**, as a printed map reads: the
    /// first row has the highest `y` and the last row is `y = 0`. Within a
    /// row, cells run west to east, separated by whitespace. Every row must
    /// have the same number of cells, and there may be at most 256 rows and
    /// 256 cells per row.
    ///
    /// Cell grammar:
    ///
    /// ```text
    /// cell      = "." | elevation [flags] | flags
    /// elevation = ["+" | "-"] digit {digit}      (must fit -128..=127)
    /// flags     = one or more of "d", "s", "x", in any order, each at most once
    /// ```
    ///
    /// `.` is a plain cell at elevation 0; `d` marks difficult terrain, `s`
    /// the starting area and `x` a blocked (impassable) square. So `2d` is
    /// difficult ground two levels up, `-1s` is a starting square one level
    /// down and `3x` is a wall three levels high.
    ///
    /// ```
    /// # use fray_space::{Grid, Pos};
    /// let grid = Grid::parse_rows(&["2x .  .", " s 1d ."]).unwrap();
    /// assert_eq!(grid.width(), 3);
    /// assert!(grid.get(Pos::new(0, 1)).unwrap().blocked);
    /// assert_eq!(grid.elevation(Pos::new(1, 0)), Some(1));
    /// ```
    ///
    /// # Errors
    ///
    /// A [`MapError`] locating the first problem and saying what was
    /// expected.
    pub fn parse_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, MapError> {
        if rows.is_empty() {
            return Err(MapError {
                row: 0,
                column: 1,
                message: "expected at least one row of cells".to_owned(),
            });
        }
        if rows.len() > usize::from(MAX_SIDE) {
            return Err(MapError {
                row: usize::from(MAX_SIDE),
                column: 1,
                message: format!("expected at most {MAX_SIDE} rows, found {}", rows.len()),
            });
        }
        let height = rows.len();
        let mut width: Option<usize> = None;
        let mut cells = Vec::new();
        // Rows arrive north first; collect them in that order and flip the
        // row order afterwards so that the storage starts at y = 0.
        for (row_index, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let fail = |column: usize, message: String| MapError {
                row: row_index,
                column,
                message,
            };
            let mut count = 0usize;
            for (column, token) in tokens(row) {
                if count == usize::from(MAX_SIDE) {
                    return Err(fail(column, format!("expected at most {MAX_SIDE} cells in a row")));
                }
                if width == Some(count) {
                    return Err(fail(
                        column,
                        format!("expected {count} cells, as in row 0, but the row goes on"),
                    ));
                }
                let cell = parse_cell(token).map_err(|(offset, message)| fail(column + offset, message))?;
                cells.push(cell);
                count += 1;
            }
            let end_column = row.chars().count() + 1;
            if count == 0 {
                return Err(fail(end_column, "expected at least one cell in the row".to_owned()));
            }
            match width {
                None => width = Some(count),
                Some(w) if count < w => {
                    return Err(fail(
                        end_column,
                        format!("expected {w} cells, as in row 0, found only {count}"),
                    ));
                }
                Some(_) => {}
            }
        }
        let width = width.unwrap_or(1);
        let mut south_first = Vec::with_capacity(cells.len());
        for chunk in cells.chunks(width).rev() {
            south_first.extend_from_slice(chunk);
        }
        let to_side = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        Grid::from_cells(to_side(width), to_side(height), south_first).map_err(|e| MapError {
            row: 0,
            column: 1,
            message: e.to_string(),
        })
    }

    /// Writes the map as text rows, north first, in the form
    /// [`Grid::parse_rows`] reads.
    ///
    /// Tokens are right-aligned to a common width so the columns line up;
    /// `Grid::parse_rows(&grid.render_rows())` gives back an equal grid.
    #[must_use]
    pub fn render_rows(&self) -> Vec<String> {
        let tokens: Vec<String> = self.cells.iter().map(render_cell).collect();
        let cell_width = tokens.iter().map(String::len).max().unwrap_or(1);
        let width = usize::from(self.width);
        tokens
            .chunks(width)
            .rev()
            .map(|row| {
                let mut line = String::with_capacity(row.len() * (cell_width + 1));
                for (i, token) in row.iter().enumerate() {
                    if i > 0 {
                        line.push(' ');
                    }
                    // Writing into a String cannot fail.
                    let _ = write!(line, "{token:>cell_width$}");
                }
                line
            })
            .collect()
    }
}

/// Splits a row into whitespace-separated tokens, each with the 1-based
/// character column where it starts.
fn tokens(row: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = row.char_indices().peekable();
    let mut column = 0usize;
    std::iter::from_fn(move || {
        // Skip whitespace, counting characters.
        let (start_byte, start_column) = loop {
            let &(byte, c) = rest.peek()?;
            column += 1;
            if !c.is_whitespace() {
                break (byte, column);
            }
            rest.next();
        };
        let mut end_byte = row.len();
        rest.next();
        while let Some(&(byte, c)) = rest.peek() {
            if c.is_whitespace() {
                end_byte = byte;
                break;
            }
            column += 1;
            rest.next();
        }
        row.get(start_byte..end_byte).map(|token| (start_column, token))
    })
}

/// Parses one cell token. On failure returns the 0-based character offset
/// within the token and a message.
fn parse_cell(token: &str) -> Result<Cell, (usize, String)> {
    if token == "." {
        return Ok(Cell::default());
    }
    let chars: Vec<char> = token.chars().collect();
    let mut at = 0usize;
    let mut cell = Cell::default();

    // Optional signed elevation.
    let sign_len = usize::from(matches!(chars.first(), Some('+' | '-')));
    let digits = chars.iter().skip(sign_len).take_while(|c| c.is_ascii_digit()).count();
    if sign_len == 1 && digits == 0 {
        return Err((
            1,
            format!(
                "expected digits after the sign {:?}",
                chars.first().copied().unwrap_or('-')
            ),
        ));
    }
    if digits > 0 {
        let text: String = chars.iter().take(sign_len + digits).collect();
        cell.elevation = text.parse::<i8>().map_err(|_| {
            (
                0,
                format!("expected an elevation in {}..={}, found {text}", i8::MIN, i8::MAX),
            )
        })?;
        at = sign_len + digits;
    }

    // Flags.
    for (offset, &c) in chars.iter().enumerate().skip(at) {
        let flag = match c {
            'd' => &mut cell.difficult,
            's' => &mut cell.start,
            'x' => &mut cell.blocked,
            '.' => {
                return Err((offset, "expected '.' to stand alone as a plain cell".to_owned()));
            }
            c if c.is_ascii_digit() || c == '+' || c == '-' => {
                return Err((
                    offset,
                    format!("expected a flag (d, s or x) but found {c:?}: the elevation comes before the flags"),
                ));
            }
            c => {
                return Err((
                    offset,
                    format!(
                        "expected an elevation or a flag (d = difficult, s = starting area, x = blocked), found {c:?}"
                    ),
                ));
            }
        };
        if *flag {
            return Err((offset, format!("expected each flag at most once, but {c:?} repeats")));
        }
        *flag = true;
    }
    Ok(cell)
}

/// The canonical text token for a cell.
fn render_cell(cell: &Cell) -> String {
    if *cell == Cell::default() {
        return ".".to_owned();
    }
    let mut token = String::new();
    if cell.elevation != 0 {
        token.push_str(&cell.elevation.to_string());
    }
    for (set, flag) in [(cell.difficult, 'd'), (cell.start, 's'), (cell.blocked, 'x')] {
        if set {
            token.push(flag);
        }
    }
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_neighbours_leave_out_blocked_and_off_grid_squares() {
        let g = Grid::parse_rows(&[". x .", ". . ."]).unwrap();
        let blocked = g.positions().find(|&p| g.get(p).is_some_and(|c| c.blocked)).unwrap();
        let corner = Pos::new(0, 0);
        let around: Vec<Pos> = g.open_neighbours(corner).collect();
        // Of the corner's three neighbours on the grid, one is blocked.
        assert_eq!(around.len(), 2, "{around:?}");
        assert!(!around.contains(&blocked) && around.iter().all(|&p| g.contains(p) && p != corner));
        assert_eq!(
            g.open_neighbours(Pos::new(1, 0)).count() + g.open_neighbours(Pos::new(1, 1)).count(),
            4 + 5
        );
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Grid::new(1, 1).is_ok());
        assert!(Grid::new(256, 256).is_ok());
        assert_eq!(Grid::new(0, 5), Err(GridError::InvalidSize { width: 0, height: 5 }));
        assert_eq!(Grid::new(5, 257), Err(GridError::InvalidSize { width: 5, height: 257 }));
        assert_eq!(
            Grid::from_cells(2, 2, vec![Cell::default(); 3]),
            Err(GridError::CellCount {
                width: 2,
                height: 2,
                expected: 4,
                found: 3
            })
        );
    }

    #[test]
    fn indexing_and_bounds() {
        let g = Grid::new(4, 3).unwrap();
        assert_eq!(g.len(), 12);
        assert!(!g.is_empty());
        assert_eq!(g.index(Pos::new(0, 0)), Some(0));
        assert_eq!(g.index(Pos::new(3, 0)), Some(3));
        assert_eq!(g.index(Pos::new(1, 2)), Some(9));
        assert_eq!(g.index(Pos::new(4, 0)), None);
        assert_eq!(g.index(Pos::new(0, 3)), None);
        assert_eq!(g.index(Pos::new(-1, 0)), None);
        assert_eq!(g.index(Pos::new(0, i16::MIN)), None);
        assert_eq!(g.pos_of(9), Pos::new(1, 2));
        assert!(!g.contains(g.pos_of(12)));
        assert!(!g.contains(g.pos_of(usize::MAX)));
        assert!(g.get(Pos::new(7, 7)).is_none());
        assert_eq!(g.elevation(Pos::new(3, 2)), Some(0));
        assert_eq!(g.elevation(Pos::new(3, 3)), None);
    }

    #[test]
    fn positions_run_south_to_north_then_west_to_east() {
        let g = Grid::new(2, 2).unwrap();
        let all: Vec<Pos> = g.positions().collect();
        assert_eq!(
            all,
            vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(0, 1), Pos::new(1, 1)]
        );
        for (i, p) in g.positions().enumerate() {
            assert_eq!(g.index(p), Some(i));
            assert_eq!(g.pos_of(i), p);
        }
    }

    #[test]
    fn get_mut_edits_the_right_square() {
        let mut g = Grid::new(3, 3).unwrap();
        if let Some(cell) = g.get_mut(Pos::new(2, 1)) {
            cell.elevation = -4;
            cell.blocked = true;
        }
        assert!(g.get_mut(Pos::new(3, 1)).is_none());
        assert_eq!(g.cells()[5].elevation, -4);
        assert!(g.get(Pos::new(2, 1)).unwrap().blocked);
    }

    #[test]
    fn parse_puts_the_first_row_north() {
        let g = Grid::parse_rows(&["2x  .  .  +3", " s 1d  . -1ds"]).unwrap();
        assert_eq!((g.width(), g.height()), (4, 2));
        let at = |x, y| *g.get(Pos::new(x, y)).unwrap();
        assert_eq!(
            at(0, 1),
            Cell {
                elevation: 2,
                blocked: true,
                ..Cell::default()
            }
        );
        assert_eq!(at(3, 1).elevation, 3);
        assert_eq!(
            at(0, 0),
            Cell {
                start: true,
                ..Cell::default()
            }
        );
        assert_eq!(
            at(1, 0),
            Cell {
                elevation: 1,
                difficult: true,
                ..Cell::default()
            }
        );
        assert_eq!(
            at(3, 0),
            Cell {
                elevation: -1,
                difficult: true,
                start: true,
                blocked: false
            }
        );
        assert_eq!(at(2, 0), Cell::default());
        assert_eq!(
            Grid::parse_rows(&["xsd"]).unwrap().cells()[0],
            Cell {
                elevation: 0,
                difficult: true,
                start: true,
                blocked: true
            }
        );
        assert_eq!(Grid::parse_rows(&["-128 127"]).unwrap().cells()[0].elevation, -128);
    }

    #[test]
    fn render_aligns_and_round_trips() {
        let rows = ["2x . . 3", "s 1d . -1ds"];
        let g = Grid::parse_rows(&rows).unwrap();
        let rendered = g.render_rows();
        assert_eq!(rendered, vec!["  2x    .    .    3", "   s   1d    . -1ds"]);
        assert_eq!(Grid::parse_rows(&rendered).unwrap(), g);
    }

    fn error(rows: &[&str]) -> MapError {
        Grid::parse_rows(rows).unwrap_err()
    }

    #[test]
    fn parse_errors_point_at_the_problem() {
        let e = error(&[]);
        assert_eq!((e.row, e.column), (0, 1));
        assert!(e.message.contains("at least one row"));

        let e = error(&[". .", "   "]);
        assert_eq!((e.row, e.column), (1, 4));
        assert!(e.message.contains("at least one cell"));

        let e = error(&[". .", ". . ."]);
        assert_eq!((e.row, e.column), (1, 5));
        assert!(e.message.contains("expected 2 cells"));

        let e = error(&[". . .", ". ."]);
        assert_eq!((e.row, e.column), (1, 4));
        assert!(e.message.contains("found only 2"));

        let e = error(&[". 2q ."]);
        assert_eq!((e.row, e.column), (0, 4));
        assert!(e.message.contains("found 'q'"));

        let e = error(&["  dd"]);
        assert_eq!((e.row, e.column), (0, 4));
        assert!(e.message.contains("at most once"));

        let e = error(&["200"]);
        assert_eq!((e.row, e.column), (0, 1));
        assert!(e.message.contains("-128..=127"));

        let e = error(&[". -"]);
        assert_eq!((e.row, e.column), (0, 4));
        assert!(e.message.contains("digits after the sign"));

        let e = error(&["d2"]);
        assert_eq!((e.row, e.column), (0, 2));
        assert!(e.message.contains("elevation comes before the flags"));

        let e = error(&[".d"]);
        assert_eq!((e.row, e.column), (0, 1));
        assert!(e.message.contains("stand alone"));

        let e = error(&["é 3d"]);
        assert_eq!((e.row, e.column), (0, 1));

        let e = error(&[" . é"]);
        assert_eq!((e.row, e.column), (0, 4));
    }

    #[test]
    fn parse_rejects_oversized_maps() {
        let wide = vec!["."; 257].join(" ");
        let e = error(&[wide.as_str()]);
        assert_eq!((e.row, e.column), (0, 513));
        assert!(e.message.contains("at most 256 cells"));

        let tall = vec!["."; 257];
        let e = error(&tall);
        assert_eq!(e.row, 256);
        assert!(e.message.contains("at most 256 rows"));

        let max = vec![wide.get(..511).unwrap_or_default(); 256];
        let g = Grid::parse_rows(&max).unwrap();
        assert_eq!((g.width(), g.height()), (256, 256));
    }

    #[test]
    fn serde_round_trip_and_validation() {
        let g = Grid::parse_rows(&["1 x", "s ."]).unwrap();
        let json = serde_json::to_string(&g).unwrap();
        let back: Grid = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g);

        let short = r#"{"width":2,"height":2,"cells":[{},{},{}]}"#;
        let err = serde_json::from_str::<Grid>(short).unwrap_err();
        assert!(err.to_string().contains("needs 4 cells, found 3"));

        let empty = r#"{"width":0,"height":2,"cells":[]}"#;
        assert!(serde_json::from_str::<Grid>(empty).is_err());

        let partial = r#"{"width":1,"height":1,"cells":[{"elevation":2}]}"#;
        let g: Grid = serde_json::from_str(partial).unwrap();
        assert_eq!(g.elevation(Pos::new(0, 0)), Some(2));
    }
}
