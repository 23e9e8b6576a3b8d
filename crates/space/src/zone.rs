//! Zone maps: the abstract battlefields of zone-based games.
//!
//! Some games divide a battlefield into a handful of named zones (a road, a
//! ditch, the old mill) joined by links, and measure range as the fewest
//! links crossed. A [`ZoneMap`] holds such a map as facts only: each
//! [`Zone`] has an id, an optional display name, a number of cover spots, an
//! `exit` flag (an edge of the battlefield through which one may leave the
//! fight) and free tags; each [`Link`] joins two zones and may carry an
//! obstacle label. What cover, exits, tags and obstacles do is for the
//! ruleset to decide; this module stores them and never interprets them.
//!
//! Key decisions:
//!
//! * **At most [`MAX_ZONES`] (64) zones**, so a [`ZoneId`] is a `u8` below
//!   64 and a set of zones is one `u64` ([`ZoneSet`], `Copy`, never
//!   allocates).
//! * **Distances are a table.** [`ZoneMap::distance`] (fewest link
//!   crossings) is worked out for every pair once, by breadth-first search
//!   when the map is built, so on the hot path it is one bounds check and
//!   one lookup. A map need not be connected: zones with no route between
//!   them have no distance (`None`).
//! * **Stable order.** [`ZoneMap::neighbours`] lists a zone's neighbours in
//!   the order its links were declared, and the path search
//!   ([`ZoneMap::path_avoiding`]) is a breadth-first search that takes them
//!   in that order, so among equally short paths the one chosen depends only
//!   on the map (records replay the same). The search uses fixed arrays and
//!   returns a [`ZonePath`] held inline, so it does not allocate either.
//! * **Validated on every way in.** [`ZoneMap::new`] refuses a broken map
//!   with a typed [`ZoneError`] ([`ZoneMap::problems`] lists every problem,
//!   for loaders that report them all), and deserialising goes through the
//!   same check, so a record cannot smuggle in a broken map. No input makes
//!   the module panic; an id from another map is answered with `None` or an
//!   empty result.
//! * Ids, tags and obstacle labels are words ([`is_word`]); ids are looked up
//!   ignoring ASCII case, as every id typed in fray is, so two zones may not
//!   differ only by case.

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};
use std::ops::Deref;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The most zones a map may have (a [`ZoneSet`] is one `u64`).
pub const MAX_ZONES: usize = 64;

/// Marks "no route" in the distance table.
const UNREACHABLE: u8 = u8::MAX;

/// One word of ASCII letters, digits, `-` and `_`: the form of zone ids,
/// tags and obstacle labels (and of every other id in fray).
#[must_use]
pub fn is_word(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
}

/// A zone of a [`ZoneMap`]: its position in the map's list of zones, always
/// below [`MAX_ZONES`].
///
/// The serde form is the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct ZoneId(u8);

impl ZoneId {
    /// The zone at position `index`, if that is below [`MAX_ZONES`].
    #[must_use]
    pub const fn new(index: u8) -> Option<ZoneId> {
        if (index as usize) < MAX_ZONES {
            Some(ZoneId(index))
        } else {
            None
        }
    }

    /// The position in the map's list of zones.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The position as a `u8`.
    #[must_use]
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The zone at position `i`, for positions the caller knows are below
    /// [`MAX_ZONES`].
    #[inline]
    fn at(i: usize) -> ZoneId {
        debug_assert!(i < MAX_ZONES);
        ZoneId((i % MAX_ZONES) as u8)
    }
}

impl TryFrom<u8> for ZoneId {
    type Error = String;

    fn try_from(index: u8) -> Result<ZoneId, String> {
        ZoneId::new(index).ok_or_else(|| format!("zone {index} is beyond the last possible zone ({})", MAX_ZONES - 1))
    }
}

impl From<ZoneId> for u8 {
    fn from(z: ZoneId) -> u8 {
        z.0
    }
}

/// A set of zones: one bit per [`ZoneId`]. `Copy`; no operation allocates.
///
/// Iteration is in ascending id order. The serde form is the bits as one
/// number.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ZoneSet(u64);

impl ZoneSet {
    /// No zones.
    pub const EMPTY: ZoneSet = ZoneSet(0);

    /// The set whose bit `i` is set for each zone `i` it holds.
    #[must_use]
    #[inline]
    pub const fn from_bits(bits: u64) -> ZoneSet {
        ZoneSet(bits)
    }

    /// The bits, bit `i` for zone `i`.
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set holding only `z`.
    #[must_use]
    #[inline]
    pub const fn single(z: ZoneId) -> ZoneSet {
        ZoneSet(1 << z.0)
    }

    /// The zones `0..n` (all of them from 64 on).
    #[must_use]
    #[inline]
    pub(crate) const fn below(n: usize) -> ZoneSet {
        if n >= MAX_ZONES {
            ZoneSet(u64::MAX)
        } else {
            ZoneSet((1 << n) - 1)
        }
    }

    /// Adds `z`; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, z: ZoneId) -> bool {
        let new = !self.contains(z);
        self.0 |= 1 << z.0;
        new
    }

    /// Takes `z` out; returns whether it was in.
    #[inline]
    pub fn remove(&mut self, z: ZoneId) -> bool {
        let was = self.contains(z);
        self.0 &= !(1 << z.0);
        was
    }

    /// Whether `z` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, z: ZoneId) -> bool {
        self.0 & (1 << z.0) != 0
    }

    /// How many zones the set holds.
    #[must_use]
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no zone.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The zones in either set.
    #[must_use]
    #[inline]
    pub const fn union(self, other: ZoneSet) -> ZoneSet {
        ZoneSet(self.0 | other.0)
    }

    /// The zones in both sets.
    #[must_use]
    #[inline]
    pub const fn intersection(self, other: ZoneSet) -> ZoneSet {
        ZoneSet(self.0 & other.0)
    }

    /// The zones in this set and not in `other`.
    #[must_use]
    #[inline]
    pub const fn difference(self, other: ZoneSet) -> ZoneSet {
        ZoneSet(self.0 & !other.0)
    }

    /// The zones, in ascending id order.
    #[inline]
    pub fn iter(self) -> ZoneSetIter {
        ZoneSetIter(self.0)
    }
}

impl fmt::Debug for ZoneSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(ZoneId::get)).finish()
    }
}

impl From<ZoneId> for ZoneSet {
    #[inline]
    fn from(z: ZoneId) -> ZoneSet {
        ZoneSet::single(z)
    }
}

impl FromIterator<ZoneId> for ZoneSet {
    fn from_iter<I: IntoIterator<Item = ZoneId>>(iter: I) -> ZoneSet {
        let mut s = ZoneSet::EMPTY;
        for z in iter {
            s.insert(z);
        }
        s
    }
}

impl IntoIterator for ZoneSet {
    type Item = ZoneId;
    type IntoIter = ZoneSetIter;

    fn into_iter(self) -> ZoneSetIter {
        self.iter()
    }
}

/// The zones of a [`ZoneSet`], in ascending id order.
#[derive(Clone, Debug)]
pub struct ZoneSetIter(u64);

impl Iterator for ZoneSetIter {
    type Item = ZoneId;

    #[inline]
    fn next(&mut self) -> Option<ZoneId> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(ZoneId(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for ZoneSetIter {}

/// One zone: facts the ruleset interprets.
///
/// The serde form leaves out a missing name, zero cover, `exit = false` and
/// empty tags, and takes the same defaults when they are missing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// The id, one word ([`is_word`]), unique in its map ignoring case.
    pub id: String,
    /// A display name, if the zone has one (one line of text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How many cover spots the zone has (0 = none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cover: u8,
    /// The zone is an edge of the battlefield through which one may leave
    /// the fight.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exit: bool,
    /// Free words such as `dark` or `water`, each one word and none twice
    /// (ignoring case).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Zone {
    /// A zone with this id and nothing else: no name, no cover, no exit, no
    /// tags.
    #[must_use]
    pub fn new(id: impl Into<String>) -> Zone {
        Zone {
            id: id.into(),
            ..Zone::default()
        }
    }

    /// The display name, or the id when there is none.
    #[must_use]
    pub fn display_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }

    /// Whether the zone has the tag `tag` (ignoring ASCII case).
    #[must_use]
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t.eq_ignore_ascii_case(tag))
    }
}

/// A link as given to [`ZoneMap::new`] and as serialised: the ids of its two
/// zones (in either order; links are undirected) and an optional obstacle
/// label.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// One end's zone id (matched ignoring case).
    pub a: String,
    /// The other end's zone id (matched ignoring case).
    pub b: String,
    /// What crossing needs, as a word the ruleset interprets (`rubble`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obstacle: Option<String>,
}

impl LinkSpec {
    /// A link between the zones `a` and `b` without an obstacle.
    #[must_use]
    pub fn new(a: impl Into<String>, b: impl Into<String>) -> LinkSpec {
        LinkSpec {
            a: a.into(),
            b: b.into(),
            obstacle: None,
        }
    }

    /// This link with the obstacle `label`.
    #[must_use]
    pub fn with_obstacle(mut self, label: impl Into<String>) -> LinkSpec {
        self.obstacle = Some(label.into());
        self
    }
}

/// A link of a built [`ZoneMap`]: two different zones, in the order they
/// were given, and an optional obstacle label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// One end.
    pub a: ZoneId,
    /// The other end.
    pub b: ZoneId,
    /// The obstacle label, if crossing needs something.
    pub obstacle: Option<String>,
}

impl Link {
    /// The end that is not `z`, if `z` is one of the ends.
    #[must_use]
    pub fn other(&self, z: ZoneId) -> Option<ZoneId> {
        if z == self.a {
            Some(self.b)
        } else if z == self.b {
            Some(self.a)
        } else {
            None
        }
    }
}

/// Why a zone map could not be built. Positions (`zone`, `tag`, `link`) are
/// 0-based indices into the lists given to [`ZoneMap::new`], so a loader can
/// point at the place in its own file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ZoneError {
    /// The map has no zones.
    #[error("a zone map needs at least one zone")]
    NoZones,
    /// More than [`MAX_ZONES`] zones.
    #[error("a zone map has at most {MAX_ZONES} zones, not {count}")]
    TooManyZones {
        /// How many zones were given.
        count: usize,
    },
    /// A zone id is not one word.
    #[error("zone id '{id}' must be one word of letters, digits, '-' and '_'")]
    BadId {
        /// The zone's position.
        zone: usize,
        /// The id as given.
        id: String,
    },
    /// A zone id repeats an earlier one, or differs from it only by case.
    #[error("{}", if id == earlier {
        format!("zone '{id}' is defined twice")
    } else {
        format!("zone id '{id}' differs from '{earlier}' only by case")
    })]
    DuplicateId {
        /// The later zone's position.
        zone: usize,
        /// The later zone's id.
        id: String,
        /// The earlier zone's id.
        earlier: String,
    },
    /// A display name is empty or not a single line of text.
    #[error("zone '{id}' has an empty name or one with control characters")]
    BadName {
        /// The zone's position.
        zone: usize,
        /// The zone's id.
        id: String,
    },
    /// A tag is not one word.
    #[error("tag '{tag}' of zone '{id}' must be one word of letters, digits, '-' and '_'")]
    BadTag {
        /// The zone's position.
        zone: usize,
        /// The tag's position in the zone's tags.
        tag_index: usize,
        /// The zone's id.
        id: String,
        /// The tag as given.
        tag: String,
    },
    /// A zone has the same tag twice (ignoring case).
    #[error("zone '{id}' has the tag '{tag}' twice")]
    DuplicateTag {
        /// The zone's position.
        zone: usize,
        /// The later tag's position in the zone's tags.
        tag_index: usize,
        /// The zone's id.
        id: String,
        /// The later tag.
        tag: String,
    },
    /// A link names a zone the map does not have.
    #[error("a link names the unknown zone '{name}'")]
    UnknownZone {
        /// The link's position.
        link: usize,
        /// The name as given.
        name: String,
    },
    /// A link joins a zone to itself.
    #[error("zone '{id}' is linked to itself")]
    SelfLink {
        /// The link's position.
        link: usize,
        /// The zone's id.
        id: String,
    },
    /// A link joins the same two zones as an earlier one (in either order).
    #[error("zones '{a}' and '{b}' are linked twice")]
    DuplicateLink {
        /// The later link's position.
        link: usize,
        /// One end's id.
        a: String,
        /// The other end's id.
        b: String,
    },
    /// An obstacle label is not one word.
    #[error("obstacle '{label}' must be one word of letters, digits, '-' and '_'")]
    BadObstacle {
        /// The link's position.
        link: usize,
        /// The label as given.
        label: String,
    },
}

/// The zones of a path from its start to its end, both included, held inline
/// (no allocation). Dereferences to the slice of zones.
#[derive(Clone, Copy)]
pub struct ZonePath {
    zones: [ZoneId; MAX_ZONES],
    len: u8,
}

impl ZonePath {
    /// The zones from start to end.
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[ZoneId] {
        &self.zones[..usize::from(self.len)]
    }

    /// Where the path starts.
    #[must_use]
    #[inline]
    pub fn start(&self) -> ZoneId {
        self.zones[0]
    }

    /// Where the path ends.
    #[must_use]
    #[inline]
    pub fn end(&self) -> ZoneId {
        self.zones[usize::from(self.len.max(1)) - 1]
    }

    /// How many links the path crosses (its zones less one).
    #[must_use]
    #[inline]
    pub fn steps(&self) -> u8 {
        self.len.saturating_sub(1)
    }

    /// The zone the path enters first, or `None` when it stays where it
    /// starts.
    #[must_use]
    #[inline]
    pub fn first_step(&self) -> Option<ZoneId> {
        self.as_slice().get(1).copied()
    }
}

impl Deref for ZonePath {
    type Target = [ZoneId];

    fn deref(&self) -> &[ZoneId] {
        self.as_slice()
    }
}

impl PartialEq for ZonePath {
    fn eq(&self, other: &ZonePath) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for ZonePath {}

impl fmt::Debug for ZonePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice().iter().map(|z| z.0)).finish()
    }
}

/// A validated map of zones and links with every distance worked out.
///
/// Build one with [`ZoneMap::new`] (or deserialise one; the serde form is
/// `{ "zones": [Zone...], "links": [LinkSpec...] }`, links by zone id, and it
/// is checked the same way).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ZoneMapData", into = "ZoneMapData")]
pub struct ZoneMap {
    zones: Vec<Zone>,
    links: Vec<Link>,
    /// Neighbours of zone `i` are `neighbours[offsets[i]..offsets[i + 1]]`,
    /// in link declaration order; `via[k]` is the link to `neighbours[k]`.
    offsets: Vec<u16>,
    neighbours: Vec<ZoneId>,
    via: Vec<u16>,
    /// The neighbours of each zone as a set.
    adjacent: Vec<ZoneSet>,
    /// `dist[a * n + b]`: fewest links crossed from `a` to `b`, or
    /// [`UNREACHABLE`].
    dist: Vec<u8>,
    exits: ZoneSet,
}

/// The unchecked serde form of a [`ZoneMap`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ZoneMapData {
    zones: Vec<Zone>,
    #[serde(default)]
    links: Vec<LinkSpec>,
}

impl TryFrom<ZoneMapData> for ZoneMap {
    type Error = ZoneError;

    fn try_from(data: ZoneMapData) -> Result<ZoneMap, ZoneError> {
        ZoneMap::new(data.zones, data.links)
    }
}

impl From<ZoneMap> for ZoneMapData {
    fn from(map: ZoneMap) -> ZoneMapData {
        let links = map
            .links
            .iter()
            .map(|l| LinkSpec {
                a: map.zones[l.a.index()].id.clone(),
                b: map.zones[l.b.index()].id.clone(),
                obstacle: l.obstacle.clone(),
            })
            .collect();
        ZoneMapData {
            zones: map.zones,
            links,
        }
    }
}

/// The position of the zone called `name` (ignoring case) among `zones`.
fn position(zones: &[Zone], name: &str) -> Option<usize> {
    zones.iter().position(|z| z.id.eq_ignore_ascii_case(name))
}

/// Checks `zones` and `links`, reporting each problem to `report` in the
/// order of [`ZoneMap::problems`]; returns each link's ends as positions
/// (`None` for a link with an unknown end).
fn check(zones: &[Zone], links: &[LinkSpec], report: &mut dyn FnMut(ZoneError)) -> Vec<Option<(usize, usize)>> {
    if zones.is_empty() {
        report(ZoneError::NoZones);
    }
    if zones.len() > MAX_ZONES {
        // Nothing else is checked: the map cannot be built anyway, and a
        // huge list would make the other checks slow.
        report(ZoneError::TooManyZones { count: zones.len() });
        return Vec::new();
    }
    for (i, z) in zones.iter().enumerate() {
        if !is_word(&z.id) {
            report(ZoneError::BadId {
                zone: i,
                id: z.id.clone(),
            });
        } else if let Some(earlier) = position(&zones[..i], &z.id) {
            report(ZoneError::DuplicateId {
                zone: i,
                id: z.id.clone(),
                earlier: zones[earlier].id.clone(),
            });
        }
        if z.name
            .as_deref()
            .is_some_and(|n| n.trim().is_empty() || n.chars().any(char::is_control))
        {
            report(ZoneError::BadName {
                zone: i,
                id: z.id.clone(),
            });
        }
        let mut tags = BTreeSet::new();
        for (t, tag) in z.tags.iter().enumerate() {
            let error = if !is_word(tag) {
                ZoneError::BadTag {
                    zone: i,
                    tag_index: t,
                    id: z.id.clone(),
                    tag: tag.clone(),
                }
            } else if !tags.insert(tag.to_ascii_lowercase()) {
                ZoneError::DuplicateTag {
                    zone: i,
                    tag_index: t,
                    id: z.id.clone(),
                    tag: tag.clone(),
                }
            } else {
                continue;
            };
            report(error);
        }
    }
    let mut ends = Vec::with_capacity(links.len());
    let mut pairs = BTreeSet::new();
    for (k, l) in links.iter().enumerate() {
        if let Some(label) = &l.obstacle
            && !is_word(label)
        {
            report(ZoneError::BadObstacle {
                link: k,
                label: label.clone(),
            });
        }
        let (a, b) = (position(zones, &l.a), position(zones, &l.b));
        for (end, name) in [(a, &l.a), (b, &l.b)] {
            if end.is_none() {
                report(ZoneError::UnknownZone {
                    link: k,
                    name: name.clone(),
                });
            }
        }
        let (Some(a), Some(b)) = (a, b) else {
            ends.push(None);
            continue;
        };
        if a == b {
            report(ZoneError::SelfLink {
                link: k,
                id: zones[a].id.clone(),
            });
        } else if !pairs.insert((a.min(b), a.max(b))) {
            report(ZoneError::DuplicateLink {
                link: k,
                a: zones[a].id.clone(),
                b: zones[b].id.clone(),
            });
        }
        ends.push(Some((a, b)));
    }
    ends
}

impl ZoneMap {
    /// Builds a map from its zones (a zone's [`ZoneId`] is its position in
    /// `zones`) and links (their order is the declaration order
    /// [`neighbours`](ZoneMap::neighbours) and the path search follow), or
    /// the first problem [`problems`](ZoneMap::problems) would list.
    ///
    /// # Errors
    ///
    /// A [`ZoneError`]: no zones or more than [`MAX_ZONES`], an id that is
    /// not a word or repeats an earlier one (also by case), a bad name or
    /// tag, a link to an unknown zone, to its own zone or repeating an
    /// earlier link, a bad obstacle label.
    pub fn new(zones: Vec<Zone>, links: Vec<LinkSpec>) -> Result<ZoneMap, ZoneError> {
        let mut first = None;
        let ends = check(&zones, &links, &mut |e| {
            first.get_or_insert(e);
        });
        if let Some(e) = first {
            return Err(e);
        }
        let links: Vec<Link> = links
            .into_iter()
            .zip(ends)
            .filter_map(|(l, e)| {
                let (a, b) = e?;
                Some(Link {
                    a: ZoneId::at(a),
                    b: ZoneId::at(b),
                    obstacle: l.obstacle,
                })
            })
            .collect();
        Ok(ZoneMap::from_checked(zones, links))
    }

    /// Every problem of `zones` and `links` that [`new`](ZoneMap::new)
    /// would refuse, in order: the zone count, then each zone's id, name
    /// and tags in zone order, then each link's obstacle, ends, and self or
    /// repeated link in link order. More than [`MAX_ZONES`] zones is the
    /// only problem listed when it happens. Empty when the map is fine.
    #[must_use]
    pub fn problems(zones: &[Zone], links: &[LinkSpec]) -> Vec<ZoneError> {
        let mut all = Vec::new();
        check(zones, links, &mut |e| all.push(e));
        all
    }

    /// Builds the neighbour lists and the distance table of a checked map.
    fn from_checked(zones: Vec<Zone>, links: Vec<Link>) -> ZoneMap {
        let n = zones.len();
        let mut per_zone: Vec<Vec<(ZoneId, u16)>> = vec![Vec::new(); n];
        for (k, l) in links.iter().enumerate() {
            // At most 64 * 63 / 2 distinct links, so k fits.
            let k = u16::try_from(k).unwrap_or(u16::MAX);
            per_zone[l.a.index()].push((l.b, k));
            per_zone[l.b.index()].push((l.a, k));
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut neighbours = Vec::with_capacity(2 * links.len());
        let mut via = Vec::with_capacity(2 * links.len());
        let mut adjacent = Vec::with_capacity(n);
        offsets.push(0);
        for list in &per_zone {
            neighbours.extend(list.iter().map(|&(z, _)| z));
            via.extend(list.iter().map(|&(_, k)| k));
            adjacent.push(list.iter().map(|&(z, _)| z).collect());
            offsets.push(u16::try_from(neighbours.len()).unwrap_or(u16::MAX));
        }
        let exits = zones
            .iter()
            .enumerate()
            .filter(|(_, z)| z.exit)
            .map(|(i, _)| ZoneId::at(i))
            .collect();
        let mut map = ZoneMap {
            zones,
            links,
            offsets,
            neighbours,
            via,
            adjacent,
            dist: vec![UNREACHABLE; n * n],
            exits,
        };
        let mut queue = [ZoneId(0); MAX_ZONES];
        for from in 0..n {
            let row = from * n;
            map.dist[row + from] = 0;
            queue[0] = ZoneId::at(from);
            let (mut head, mut tail) = (0, 1);
            while head < tail {
                let z = queue[head];
                head += 1;
                let d = map.dist[row + z.index()];
                let (lo, hi) = map.range(z);
                for k in lo..hi {
                    let next = map.neighbours[k];
                    if map.dist[row + next.index()] == UNREACHABLE {
                        map.dist[row + next.index()] = d + 1;
                        queue[tail] = next;
                        tail += 1;
                    }
                }
            }
        }
        map
    }

    /// The span of `neighbours` (and `via`) that belongs to `z`, which must
    /// be on the map.
    #[inline]
    fn range(&self, z: ZoneId) -> (usize, usize) {
        let i = z.index();
        (usize::from(self.offsets[i]), usize::from(self.offsets[i + 1]))
    }

    /// How many zones the map has (1 to [`MAX_ZONES`]).
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.zones.len()
    }

    /// Always `false`: a map has at least one zone.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    /// Whether `z` is a zone of this map.
    #[must_use]
    #[inline]
    pub fn contains(&self, z: ZoneId) -> bool {
        z.index() < self.zones.len()
    }

    /// The zone `z`, if it is on this map.
    #[must_use]
    #[inline]
    pub fn zone(&self, z: ZoneId) -> Option<&Zone> {
        self.zones.get(z.index())
    }

    /// The id of zone `z`, or `""` if it is not on this map.
    #[must_use]
    #[inline]
    pub fn id(&self, z: ZoneId) -> &str {
        self.zone(z).map_or("", |zone| zone.id.as_str())
    }

    /// The zones in id order.
    #[must_use]
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }

    /// Every zone's id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = ZoneId> + Clone + use<> {
        (0..self.zones.len()).map(ZoneId::at)
    }

    /// All the map's zones as a set.
    #[must_use]
    #[inline]
    pub fn all(&self) -> ZoneSet {
        ZoneSet::below(self.zones.len())
    }

    /// The zone whose id is `name`, ignoring ASCII case.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<ZoneId> {
        position(&self.zones, name).map(ZoneId::at)
    }

    /// The links in declaration order.
    #[must_use]
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The link between `a` and `b`, if they are linked.
    #[must_use]
    pub fn link(&self, a: ZoneId, b: ZoneId) -> Option<&Link> {
        if !self.contains(a) {
            return None;
        }
        let (lo, hi) = self.range(a);
        let k = (lo..hi).find(|&k| self.neighbours[k] == b)?;
        self.links.get(usize::from(self.via[k]))
    }

    /// The zones linked to `z`, in the order their links were declared
    /// (empty if `z` is not on this map).
    #[must_use]
    #[inline]
    pub fn neighbours(&self, z: ZoneId) -> &[ZoneId] {
        if !self.contains(z) {
            return &[];
        }
        let (lo, hi) = self.range(z);
        &self.neighbours[lo..hi]
    }

    /// The zones linked to `z` as a set (empty if `z` is not on this map).
    #[must_use]
    #[inline]
    pub fn adjacent(&self, z: ZoneId) -> ZoneSet {
        self.adjacent.get(z.index()).copied().unwrap_or_default()
    }

    /// The zones that are exits.
    #[must_use]
    #[inline]
    pub fn exits(&self) -> ZoneSet {
        self.exits
    }

    /// The fewest links crossed from `a` to `b` (0 from a zone to itself);
    /// `None` if there is no route or either zone is not on this map. A
    /// table lookup.
    #[must_use]
    #[inline]
    pub fn distance(&self, a: ZoneId, b: ZoneId) -> Option<u8> {
        let n = self.zones.len();
        if a.index() >= n || b.index() >= n {
            return None;
        }
        let d = self.dist[a.index() * n + b.index()];
        (d != UNREACHABLE).then_some(d)
    }

    /// The zones whose distance from `z` is from `min` to `max`, both
    /// included (a weapon's range band "0–1" is `within(z, 0, 1)`). Empty if
    /// `z` is not on this map or `min > max`.
    #[must_use]
    pub fn within(&self, z: ZoneId, min: u8, max: u8) -> ZoneSet {
        let n = self.zones.len();
        if z.index() >= n {
            return ZoneSet::EMPTY;
        }
        let row = &self.dist[z.index() * n..(z.index() + 1) * n];
        let mut bits = 0u64;
        for (i, &d) in row.iter().enumerate() {
            if d != UNREACHABLE && d >= min && d <= max {
                bits |= 1 << i;
            }
        }
        ZoneSet(bits)
    }

    /// A shortest route from `from` to the nearest zone of `goal`, never
    /// entering a zone of `blocked`, or `None` if there is none (or `from`
    /// is not on this map).
    ///
    /// `from` never counts as blocked: one may leave a zone that is in
    /// `blocked` (a fleeing character may leave the zone its enemies share
    /// with it) but may not pass through or end in any other. If `from` is
    /// in `goal` the path is just `[from]`. Otherwise the path is the first
    /// one found by a breadth-first search from `from` that takes each
    /// zone's neighbours in the order their links were declared, and ends at
    /// the first zone of `goal` it reaches; every zone on it is recorded as
    /// reached from the zone that reached it first. The result therefore
    /// depends only on the map and the arguments.
    ///
    /// `goal` may be one zone (`map.path_avoiding(a, b, blocked)`) or a set
    /// (`map.path_avoiding(a, map.exits(), blocked)`). Uses fixed arrays;
    /// does not allocate.
    #[must_use]
    pub fn path_avoiding(&self, from: ZoneId, goal: impl Into<ZoneSet>, blocked: ZoneSet) -> Option<ZonePath> {
        self.path_through(from, goal, blocked, |_, _| true)
    }

    /// [`path_avoiding`](ZoneMap::path_avoiding) over the links `open(a, b)` lets one cross
    /// from `a` to `b` only (a rule's closed door, rubble not yet cleared): the same search,
    /// with the other links left out. Does not allocate.
    #[must_use]
    pub fn path_through(
        &self,
        from: ZoneId,
        goal: impl Into<ZoneSet>,
        blocked: ZoneSet,
        open: impl Fn(ZoneId, ZoneId) -> bool,
    ) -> Option<ZonePath> {
        if !self.contains(from) {
            return None;
        }
        let goal = goal.into();
        if goal.contains(from) {
            return Some(ZonePath {
                zones: [from; MAX_ZONES],
                len: 1,
            });
        }
        let goal = goal.intersection(self.all()).difference(blocked);
        if goal.is_empty() {
            return None;
        }
        let mut parent = [from; MAX_ZONES];
        let mut queue = [from; MAX_ZONES];
        let mut seen = blocked.union(ZoneSet::single(from));
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let z = queue[head];
            head += 1;
            for &next in self.neighbours(z) {
                if !open(z, next) || !seen.insert(next) {
                    continue;
                }
                parent[next.index()] = z;
                if goal.contains(next) {
                    return Some(trace(from, next, &parent));
                }
                queue[tail] = next;
                tail += 1;
            }
        }
        None
    }

    /// [`path_avoiding`](ZoneMap::path_avoiding) with nothing blocked.
    #[must_use]
    pub fn path(&self, from: ZoneId, goal: impl Into<ZoneSet>) -> Option<ZonePath> {
        self.path_avoiding(from, goal, ZoneSet::EMPTY)
    }

    /// The next zone on [`path_avoiding`](ZoneMap::path_avoiding)'s route
    /// (one zone further towards `goal`); `None` if there is no route or
    /// `from` is already in `goal`. Does not allocate.
    #[must_use]
    pub fn step_toward(&self, from: ZoneId, goal: impl Into<ZoneSet>, blocked: ZoneSet) -> Option<ZoneId> {
        self.path_avoiding(from, goal, blocked)?.first_step()
    }

    /// One line about zone `z` for a map listing, or `None` if it is not on
    /// this map: the id, the name in brackets, its facts (`exit`, `cover N`
    /// when it has cover, then its tags) and its links in declaration order,
    /// each with its obstacle in square brackets:
    ///
    /// `road (Old road)  exit, cover 1, dark  — links: ditch, woods [rubble]`
    ///
    /// A zone without facts has no middle part, one without links ends
    /// `— no links`. Callers append what they know (who stands there).
    #[must_use]
    pub fn describe(&self, z: ZoneId) -> Option<String> {
        let zone = self.zone(z)?;
        let mut s = zone.id.clone();
        if let Some(name) = &zone.name {
            let _ = write!(s, " ({name})");
        }
        let mut facts: Vec<String> = Vec::new();
        if zone.exit {
            facts.push("exit".into());
        }
        if zone.cover > 0 {
            facts.push(format!("cover {}", zone.cover));
        }
        facts.extend(zone.tags.iter().cloned());
        if !facts.is_empty() {
            let _ = write!(s, "  {}", facts.join(", "));
        }
        let (lo, hi) = self.range(z);
        if lo == hi {
            s.push_str("  — no links");
            return Some(s);
        }
        s.push_str("  — links: ");
        for k in lo..hi {
            if k > lo {
                s.push_str(", ");
            }
            s.push_str(self.id(self.neighbours[k]));
            if let Some(label) = self
                .links
                .get(usize::from(self.via[k]))
                .and_then(|l| l.obstacle.as_deref())
            {
                let _ = write!(s, " [{label}]");
            }
        }
        Some(s)
    }
}

/// The path from `from` to `end` along `parent` links.
fn trace(from: ZoneId, end: ZoneId, parent: &[ZoneId; MAX_ZONES]) -> ZonePath {
    let mut zones = [from; MAX_ZONES];
    let mut len = 0;
    let mut z = end;
    // A path has at most MAX_ZONES zones; the bound only guards the loop.
    while len < MAX_ZONES {
        zones[len] = z;
        len += 1;
        if z == from {
            break;
        }
        z = parent[z.index()];
    }
    zones[..len].reverse();
    ZonePath { zones, len: len as u8 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z(i: u8) -> ZoneId {
        ZoneId::new(i).expect("below 64")
    }

    #[test]
    fn zone_sets_are_bit_sets() {
        let mut s = ZoneSet::EMPTY;
        assert!(s.is_empty());
        assert!(s.insert(z(63)));
        assert!(s.insert(z(0)));
        assert!(!s.insert(z(0)), "already in");
        assert_eq!(s.len(), 2);
        assert!(s.contains(z(63)) && !s.contains(z(5)));
        assert_eq!(s.iter().collect::<Vec<_>>(), [z(0), z(63)]);
        assert_eq!(s.iter().len(), 2);
        let t: ZoneSet = [z(5), z(63)].into_iter().collect();
        assert_eq!(s.union(t).len(), 3);
        assert_eq!(s.intersection(t), ZoneSet::single(z(63)));
        assert_eq!(s.difference(t), ZoneSet::from(z(0)));
        assert!(s.remove(z(63)) && !s.remove(z(63)));
        assert_eq!(s.bits(), 1);
        assert_eq!(ZoneSet::below(3).bits(), 0b111);
        assert_eq!(ZoneSet::below(64).len(), 64);
        assert_eq!(ZoneSet::below(0), ZoneSet::EMPTY);
        assert_eq!(format!("{:?}", t), "{5, 63}");
    }

    #[test]
    fn zone_ids_stay_below_64() {
        assert_eq!(ZoneId::new(63).map(ZoneId::get), Some(63));
        assert_eq!(ZoneId::new(64), None);
        assert_eq!(ZoneId::try_from(200u8).map_err(|e| e.contains("beyond")), Err(true));
    }

    #[test]
    fn words() {
        assert!(is_word("old-mill") && is_word("a_1") && !is_word("") && !is_word("old mill") && !is_word("é"));
    }
}
