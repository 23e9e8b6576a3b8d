//! Where a character stands: in a zone, or on the border between two linked zones, which counts
//! as both. Ranges, steps and their costs in half zones.

use fray_space::{ZoneId, ZoneMap};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most characters a zone holds.
pub const ZONE_CAPACITY: usize = 8;
/// The most characters a border holds.
pub const BORDER_CAPACITY: usize = 2;

/// A zone, or the border between two linked zones (`b` set, `a < b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Place {
    /// The zone, or the first zone of the border.
    pub a: ZoneId,
    /// The border's other zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<ZoneId>,
}

impl Place {
    /// A zone.
    pub fn zone(z: ZoneId) -> Place {
        Place { a: z, b: None }
    }

    /// The border between two zones (in either order).
    pub fn border(x: ZoneId, y: ZoneId) -> Place {
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        Place { a, b: Some(b) }
    }

    /// Whether this is a border.
    pub fn is_border(self) -> bool {
        self.b.is_some()
    }

    /// Whether the place is (or borders) zone `z`.
    pub fn touches(self, z: ZoneId) -> bool {
        self.a == z || self.b == Some(z)
    }

    /// The zones the place counts as.
    pub fn zones(self) -> impl Iterator<Item = ZoneId> {
        std::iter::once(self.a).chain(self.b)
    }

    /// Whether the place exists on `map`: a zone of it, or the border of one of its links.
    pub fn valid(self, map: &ZoneMap) -> bool {
        match self.b {
            None => map.contains(self.a),
            Some(b) => self.a < b && map.link(self.a, b).is_some(),
        }
    }

    /// Range in zones between two places: a border counts as both its zones. `None` when no
    /// way joins them.
    pub fn range(self, other: Place, map: &ZoneMap) -> Option<u8> {
        self.zones()
            .flat_map(|x| other.zones().filter_map(move |y| map.distance(x, y)))
            .min()
    }

    /// Whether two places are nearby (range 0).
    pub fn nearby(self, other: Place, map: &ZoneMap) -> bool {
        self.range(other, map) == Some(0)
    }

    /// Every single step from here and its cost in half zones: from a zone onto one of its
    /// borders (1) or across it into the next zone (2); from a border into either of its zones
    /// (1).
    pub fn steps(self, map: &ZoneMap) -> impl Iterator<Item = (Place, u8)> + '_ {
        let from_zone = match self.b {
            None => map.neighbours(self.a),
            Some(_) => &[],
        };
        let border_steps = from_zone
            .iter()
            .flat_map(move |&n| [(Place::border(self.a, n), 1), (Place::zone(n), 2)]);
        let zone_steps = self
            .b
            .into_iter()
            .flat_map(move |b| [(Place::zone(self.a), 1), (Place::zone(b), 1)]);
        border_steps.chain(zone_steps)
    }

    /// The cost in half zones of one step to `to`, if it is one.
    pub fn step_cost(self, to: Place, map: &ZoneMap) -> Option<u8> {
        self.steps(map).find(|(p, _)| *p == to).map(|(_, c)| c)
    }

    /// How many characters the place holds.
    pub fn capacity(self) -> usize {
        if self.is_border() {
            BORDER_CAPACITY
        } else {
            ZONE_CAPACITY
        }
    }

    /// Reads `zone` or `zone|zone`.
    pub fn parse(word: &str, map: &ZoneMap) -> Result<Place, String> {
        let zone = |w: &str| {
            map.find(w)
                .ok_or_else(|| fray_engine::encounter::unknown_zone(w, map.zones().iter().map(|z| z.id.as_str())))
        };
        match word.split_once('|') {
            None => Ok(Place::zone(zone(word)?)),
            Some((x, y)) => {
                let (x, y) = (zone(x)?, zone(y)?);
                if map.link(x, y).is_none() || x == y {
                    return Err(format!(
                        "'{word}' is no border: '{}' and '{}' are not linked",
                        map.id(x),
                        map.id(y)
                    ));
                }
                Ok(Place::border(x, y))
            }
        }
    }

    /// The place as typed (`zone` or `zone|zone`).
    pub fn word(self, map: &ZoneMap) -> String {
        match self.b {
            None => map.id(self.a).to_string(),
            Some(b) => format!("{}|{}", map.id(self.a), map.id(b)),
        }
    }

    /// The place for a log: display names, "the border of X and Y".
    pub fn describe(self, map: &ZoneMap) -> String {
        let name = |z: ZoneId| {
            map.zone(z)
                .map_or_else(|| format!("#{}", z.get()), |x| x.display_name().to_string())
        };
        match self.b {
            None => name(self.a),
            Some(b) => format!("the border of {} and {}", name(self.a), name(b)),
        }
    }
}

/// A place written with zone numbers (for debugging output without a map).
impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.b {
            None => write!(f, "zone #{}", self.a.get()),
            Some(b) => write!(f, "border #{}|#{}", self.a.get(), b.get()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_space::{LinkSpec, Zone};

    fn map() -> ZoneMap {
        let zones = ["yard", "gate", "road", "well"].map(Zone::new).to_vec();
        let links = vec![
            LinkSpec::new("yard", "gate"),
            LinkSpec::new("gate", "road"),
            LinkSpec::new("yard", "well"),
        ];
        ZoneMap::new(zones, links).unwrap()
    }

    #[test]
    fn a_border_counts_as_both_of_its_zones() {
        let m = map();
        let p = |w: &str| Place::parse(w, &m).unwrap();
        assert_eq!(p("yard|gate").range(p("road"), &m), Some(1));
        assert!(p("gate|yard").nearby(p("yard"), &m));
        assert!(p("gate|yard").nearby(p("gate"), &m));
        assert_eq!(p("yard").range(p("road"), &m), Some(2));
        assert_eq!(p("well").range(p("gate|road"), &m), Some(2));
        assert!(Place::parse("yard|road", &m).is_err());
        assert_eq!(p("gate|yard").word(&m), "yard|gate");
    }

    #[test]
    fn a_step_onto_a_border_costs_half_a_zone() {
        let m = map();
        let p = |w: &str| Place::parse(w, &m).unwrap();
        assert_eq!(p("yard").step_cost(p("yard|gate"), &m), Some(1));
        assert_eq!(p("yard").step_cost(p("gate"), &m), Some(2));
        assert_eq!(p("yard|gate").step_cost(p("gate"), &m), Some(1));
        assert_eq!(p("yard").step_cost(p("road"), &m), None);
    }
}
