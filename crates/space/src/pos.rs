//! Grid positions and the eight compass directions.
//!
//! A [`Pos`] names one square of an unbounded square lattice: `x` grows to the
//! east and `y` grows to the **north**, so "up" on a printed map is `+y`. A
//! position carries no reference to any particular [`Grid`](crate::Grid);
//! whether it lies on a map is the map's business (`Grid::contains`).
//!
//! Key decisions:
//!
//! * Coordinates are `i16`. Maps are at most 256 squares a side, so every
//!   square of a map and a generous margin around it is representable while a
//!   position stays four bytes.
//! * [`Pos::step`] saturates at the edge of the `i16` range instead of
//!   overflowing, so no input can make it panic; [`Pos::checked_step`] reports
//!   the overflow instead for callers who care.
//! * Text form is `"x,y"`. Parsing also accepts surrounding parentheses and
//!   spaces (`"(3, -2)"`) and reports malformed input through
//!   [`ParsePosError`] rather than panicking.
//! * The serde form is a two-element array `[x, y]`. Human-readable formats
//!   (JSON, TOML, ...) also accept the `"x,y"` string form when reading.
//! * [`Dir`] lists directions clockwise from north; that order ([`Dir::ALL`])
//!   is the iteration order used everywhere in this crate, which keeps
//!   pathfinding and cover results reproducible.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use thiserror::Error;

/// One square of the lattice: `x` grows east, `y` grows north.
///
/// The derived ordering compares `x` first and then `y`; it exists so that
/// positions can be kept in ordered collections and is *not* the order in
/// which a grid lists its squares (that is `y` first, see
/// [`Grid::positions`](crate::Grid::positions)). The default is the origin `(0, 0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Column; grows to the east.
    pub x: i16,
    /// Row; grows to the north.
    pub y: i16,
}

impl Pos {
    /// Creates the position `(x, y)`.
    #[inline]
    #[must_use]
    pub const fn new(x: i16, y: i16) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring square in direction `d`.
    ///
    /// At the very edge of the `i16` range the coordinate saturates instead of
    /// overflowing, so the result may equal `self` there; no map reaches that
    /// far. Use [`Pos::checked_step`] to detect that case.
    #[inline]
    #[must_use]
    pub const fn step(self, d: Dir) -> Pos {
        let (dx, dy) = d.delta();
        Pos {
            x: self.x.saturating_add(dx),
            y: self.y.saturating_add(dy),
        }
    }

    /// The neighbouring square in direction `d`, or `None` if it is not
    /// representable with `i16` coordinates.
    #[inline]
    #[must_use]
    pub const fn checked_step(self, d: Dir) -> Option<Pos> {
        let (dx, dy) = d.delta();
        self.checked_offset(dx, dy)
    }

    /// The position `dx` squares east and `dy` squares north of `self`, or
    /// `None` if it is not representable with `i16` coordinates.
    #[inline]
    #[must_use]
    pub const fn checked_offset(self, dx: i16, dy: i16) -> Option<Pos> {
        match (self.x.checked_add(dx), self.y.checked_add(dy)) {
            (Some(x), Some(y)) => Some(Pos { x, y }),
            _ => None,
        }
    }
}

impl fmt::Display for Pos {
    /// Formats as `x,y`, the form [`FromStr`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a string could not be read as a [`Pos`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot read {input:?} as a position: {reason}")]
pub struct ParsePosError {
    input: String,
    reason: String,
}

impl ParsePosError {
    fn new(input: &str, reason: impl Into<String>) -> ParsePosError {
        ParsePosError {
            input: input.to_owned(),
            reason: reason.into(),
        }
    }

    /// The text that failed to parse.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// What was wrong with it, phrased as what was expected.
    #[must_use]
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl FromStr for Pos {
    type Err = ParsePosError;

    /// Reads `"x,y"`, optionally wrapped in parentheses and with spaces
    /// around either number: `"3,-2"`, `"(3, -2)"` and `" 3 , -2 "` are all
    /// the same position.
    fn from_str(s: &str) -> Result<Pos, ParsePosError> {
        let trimmed = s.trim();
        let inner = match (trimmed.strip_prefix('('), trimmed.ends_with(')')) {
            (Some(rest), true) => rest.strip_suffix(')').unwrap_or(rest),
            (Some(_), false) => {
                return Err(ParsePosError::new(s, "expected a closing ')'"));
            }
            (None, true) => {
                return Err(ParsePosError::new(
                    s,
                    "expected an opening '(' to match the closing ')'",
                ));
            }
            (None, false) => trimmed,
        };
        let mut parts = inner.split(',');
        let (Some(x_text), Some(y_text)) = (parts.next(), parts.next()) else {
            return Err(ParsePosError::new(
                s,
                "expected two integers separated by a comma, like \"3,-2\"",
            ));
        };
        if parts.next().is_some() {
            return Err(ParsePosError::new(
                s,
                "expected exactly two coordinates, found more than one comma",
            ));
        }
        let x = parse_coordinate(s, "x", x_text)?;
        let y = parse_coordinate(s, "y", y_text)?;
        Ok(Pos { x, y })
    }
}

fn parse_coordinate(input: &str, axis: &str, text: &str) -> Result<i16, ParsePosError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ParsePosError::new(
            input,
            format!("expected an integer for the {axis} coordinate, found nothing"),
        ));
    }
    text.parse::<i16>().map_err(|_| {
        ParsePosError::new(
            input,
            format!(
                "expected the {axis} coordinate to be an integer in {}..={}, found {text:?}",
                i16::MIN,
                i16::MAX
            ),
        )
    })
}

impl Serialize for Pos {
    /// Writes the position as the two-element array `[x, y]`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.x, self.y).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Pos {
    /// Reads `[x, y]`; human-readable formats may also give the string
    /// `"x,y"` (any form [`FromStr`] accepts).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Pos, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_any(PosVisitor)
        } else {
            deserializer.deserialize_tuple(2, PosVisitor)
        }
    }
}

struct PosVisitor;

impl<'de> Visitor<'de> for PosVisitor {
    type Value = Pos;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a position as an array [x, y] or a string \"x,y\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Pos, E> {
        v.parse().map_err(E::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pos, A::Error> {
        let x = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let y = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &self));
        }
        Ok(Pos { x, y })
    }
}

/// One of the eight compass directions, listed clockwise from north.
///
/// Diagonals are steps of one square along both axes. The serde form is the
/// lowercase short name (`"n"`, `"ne"`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    /// North: `+y`.
    N,
    /// North-east: `+x`, `+y`.
    NE,
    /// East: `+x`.
    E,
    /// South-east: `+x`, `-y`.
    SE,
    /// South: `-y`.
    S,
    /// South-west: `-x`, `-y`.
    SW,
    /// West: `-x`.
    W,
    /// North-west: `-x`, `+y`.
    NW,
}

impl Dir {
    /// All directions in clockwise order starting at north. Every search and
    /// scan in this crate visits neighbours in this order.
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

    /// The `(dx, dy)` of one step in this direction (north is `(0, 1)`).
    #[inline]
    #[must_use]
    pub const fn delta(self) -> (i16, i16) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }

    /// Position of this direction in [`Dir::ALL`] (north is 0, north-west 7).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Turns clockwise by `steps` eighths of a circle; negative values turn
    /// counter-clockwise. Any number of steps is accepted and wraps around.
    #[inline]
    #[must_use]
    pub const fn rotate_cw(self, steps: i32) -> Dir {
        // `rem_euclid` keeps the turn in 0..8, so the sum stays below 16.
        let turned = (self as i32 + steps.rem_euclid(8)) % 8;
        Dir::ALL[turned as usize]
    }

    /// Whether this is one of the four diagonal directions.
    #[inline]
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        matches!(self, Dir::NE | Dir::SE | Dir::SW | Dir::NW)
    }

    /// The direction pointing the other way.
    #[inline]
    #[must_use]
    pub const fn opposite(self) -> Dir {
        self.rotate_cw(4)
    }

    /// The direction of the single step from `from` to `to`, or `None` if the
    /// two squares are not adjacent (including when they are the same square).
    #[inline]
    #[must_use]
    pub const fn between(from: Pos, to: Pos) -> Option<Dir> {
        let dx = to.x as i32 - from.x as i32;
        let dy = to.y as i32 - from.y as i32;
        match (dx, dy) {
            (0, 1) => Some(Dir::N),
            (1, 1) => Some(Dir::NE),
            (1, 0) => Some(Dir::E),
            (1, -1) => Some(Dir::SE),
            (0, -1) => Some(Dir::S),
            (-1, -1) => Some(Dir::SW),
            (-1, 0) => Some(Dir::W),
            (-1, 1) => Some(Dir::NW),
            _ => None,
        }
    }

    /// The lowercase short name: `"n"`, `"ne"`, ..., `"nw"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::NE => "ne",
            Dir::E => "e",
            Dir::SE => "se",
            Dir::S => "s",
            Dir::SW => "sw",
            Dir::W => "w",
            Dir::NW => "nw",
        }
    }
}

impl fmt::Display for Dir {
    /// Formats as the lowercase short name (`"ne"`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a string could not be read as a [`Dir`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "cannot read {input:?} as a direction: expected one of n, ne, e, se, s, sw, w, nw \
     or a full name such as \"north\" or \"north-east\""
)]
pub struct ParseDirError {
    input: String,
}

impl ParseDirError {
    /// The text that failed to parse.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl FromStr for Dir {
    type Err = ParseDirError;

    /// Reads a short name (`"ne"`) or a full name (`"northeast"`,
    /// `"north-east"`, `"north_east"`, `"North East"`), ignoring case and
    /// surrounding whitespace.
    fn from_str(s: &str) -> Result<Dir, ParseDirError> {
        let key: String = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let dir = match key.as_str() {
            "n" | "north" => Dir::N,
            "ne" | "northeast" => Dir::NE,
            "e" | "east" => Dir::E,
            "se" | "southeast" => Dir::SE,
            "s" | "south" => Dir::S,
            "sw" | "southwest" => Dir::SW,
            "w" | "west" => Dir::W,
            "nw" | "northwest" => Dir::NW,
            _ => {
                return Err(ParseDirError { input: s.to_owned() });
            }
        };
        Ok(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_follow_north_is_plus_y() {
        assert_eq!(Dir::N.delta(), (0, 1));
        assert_eq!(Dir::E.delta(), (1, 0));
        assert_eq!(Dir::SE.delta(), (1, -1));
        assert_eq!(Dir::NW.delta(), (-1, 1));
        assert_eq!(Pos::new(2, 3).step(Dir::SW), Pos::new(1, 2));
    }

    #[test]
    fn all_is_clockwise_and_indexed() {
        for (i, d) in Dir::ALL.iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(d.rotate_cw(1), Dir::ALL[(i + 1) % 8]);
        }
    }

    #[test]
    fn rotation_wraps_both_ways() {
        assert_eq!(Dir::N.rotate_cw(2), Dir::E);
        assert_eq!(Dir::N.rotate_cw(-1), Dir::NW);
        assert_eq!(Dir::SW.rotate_cw(-13), Dir::N);
        assert_eq!(Dir::E.rotate_cw(8), Dir::E);
        assert_eq!(Dir::E.rotate_cw(i32::MAX), Dir::NE);
        assert_eq!(Dir::E.rotate_cw(i32::MIN), Dir::E);
    }

    #[test]
    fn opposite_and_diagonal() {
        assert_eq!(Dir::N.opposite(), Dir::S);
        assert_eq!(Dir::NE.opposite(), Dir::SW);
        assert_eq!(Dir::W.opposite(), Dir::E);
        let diagonals: Vec<Dir> = Dir::ALL.into_iter().filter(|d| d.is_diagonal()).collect();
        assert_eq!(diagonals, vec![Dir::NE, Dir::SE, Dir::SW, Dir::NW]);
    }

    #[test]
    fn between_finds_adjacent_steps_only() {
        let p = Pos::new(5, 5);
        for d in Dir::ALL {
            assert_eq!(Dir::between(p, p.step(d)), Some(d));
        }
        assert_eq!(Dir::between(p, p), None);
        assert_eq!(Dir::between(p, Pos::new(7, 5)), None);
        assert_eq!(Dir::between(Pos::new(i16::MIN, 0), Pos::new(i16::MAX, 0)), None);
    }

    #[test]
    fn step_saturates_at_the_edge_of_the_range() {
        let edge = Pos::new(i16::MAX, 0);
        assert_eq!(edge.step(Dir::E), edge);
        assert_eq!(edge.checked_step(Dir::E), None);
        assert_eq!(edge.checked_step(Dir::W), Some(Pos::new(i16::MAX - 1, 0)));
        assert_eq!(Pos::new(0, i16::MIN).checked_offset(0, -1), None);
    }

    #[test]
    fn dir_names_round_trip_and_aliases_parse() {
        for d in Dir::ALL {
            assert_eq!(d.to_string().parse::<Dir>(), Ok(d));
        }
        assert_eq!("north".parse::<Dir>(), Ok(Dir::N));
        assert_eq!("North-East".parse::<Dir>(), Ok(Dir::NE));
        assert_eq!("southwest".parse::<Dir>(), Ok(Dir::SW));
        assert_eq!(" south_east ".parse::<Dir>(), Ok(Dir::SE));
        assert_eq!("NW".parse::<Dir>(), Ok(Dir::NW));
        let err = "up".parse::<Dir>().unwrap_err();
        assert_eq!(err.input(), "up");
        assert!(err.to_string().contains("expected one of n, ne"));
    }

    #[test]
    fn pos_display_and_parse() {
        assert_eq!(Pos::new(-3, 12).to_string(), "-3,12");
        assert_eq!("-3,12".parse(), Ok(Pos::new(-3, 12)));
        assert_eq!("(4, 5)".parse(), Ok(Pos::new(4, 5)));
        assert_eq!("  ( -4 ,+5 ) ".parse(), Ok(Pos::new(-4, 5)));
        assert_eq!("32767,-32768".parse(), Ok(Pos::new(i16::MAX, i16::MIN)));
    }

    #[test]
    fn pos_parse_errors_say_what_was_expected() {
        let cases = [
            ("", "two integers separated by a comma"),
            ("3", "two integers separated by a comma"),
            ("1,2,3", "exactly two coordinates"),
            ("(1,2", "closing ')'"),
            ("1,2)", "opening '('"),
            (",2", "integer for the x coordinate, found nothing"),
            ("1, ", "integer for the y coordinate, found nothing"),
            ("a,2", "x coordinate to be an integer"),
            ("1,40000", "y coordinate to be an integer in -32768..=32767"),
        ];
        for (input, expected) in cases {
            let err = input.parse::<Pos>().unwrap_err();
            assert_eq!(err.input(), input);
            assert!(
                err.reason().contains(expected),
                "{input:?} gave {:?}, wanted it to mention {expected:?}",
                err.reason()
            );
        }
    }
}
