//! The questions this ruleset asks of the `space` crate's zone map, in its own words.

use fray_space::{ZoneId, ZoneMap, ZoneSet};

/// Zone-map lookups the rules use.
pub trait MapExt {
    /// Cover spots of a zone.
    fn cover(&self, z: ZoneId) -> u8;
    /// Whether a zone is an exit.
    fn is_exit(&self, z: ZoneId) -> bool;
    /// Whether a zone carries a tag (a circumstance, EIN-R14).
    fn has_tag(&self, z: ZoneId, tag: &str) -> bool;
    /// The obstacle on the link between two zones, if any (EIN-R15).
    fn obstacle(&self, a: ZoneId, b: ZoneId) -> Option<&str>;
    /// The first zone of the shortest way from `from` to one of `goal` avoiding `blocked` (the
    /// starting zone never counts as blocked).
    fn first_step(&self, from: ZoneId, goal: ZoneSet, blocked: ZoneSet) -> Option<ZoneId>;
    /// [`MapExt::first_step`], crossing only the links `open` accepts (EIN-R15: an obstacle
    /// that blocks the way until cleared).
    fn first_step_open(
        &self,
        from: ZoneId,
        goal: ZoneSet,
        blocked: ZoneSet,
        open: impl Fn(ZoneId, ZoneId) -> bool,
    ) -> Option<ZoneId>;
    /// A zone's id, if it exists.
    fn get_id(&self, z: ZoneId) -> Option<&str>;
    /// Every obstacle label on the map.
    fn obstacle_labels(&self) -> impl Iterator<Item = &str>;
    /// Every tag on the map.
    fn all_tags(&self) -> impl Iterator<Item = &str>;
    /// The zone ids as words.
    fn words(&self) -> Vec<&str>;
}

impl MapExt for ZoneMap {
    fn cover(&self, z: ZoneId) -> u8 {
        self.zone(z).map_or(0, |x| x.cover)
    }
    fn is_exit(&self, z: ZoneId) -> bool {
        self.zone(z).is_some_and(|x| x.exit)
    }
    fn has_tag(&self, z: ZoneId, tag: &str) -> bool {
        self.zone(z).is_some_and(|x| x.has_tag(tag))
    }
    fn obstacle(&self, a: ZoneId, b: ZoneId) -> Option<&str> {
        self.link(a, b).and_then(|l| l.obstacle.as_deref())
    }
    fn first_step(&self, from: ZoneId, goal: ZoneSet, blocked: ZoneSet) -> Option<ZoneId> {
        self.path_avoiding(from, goal, blocked).and_then(|p| p.first_step())
    }
    fn first_step_open(
        &self,
        from: ZoneId,
        goal: ZoneSet,
        blocked: ZoneSet,
        open: impl Fn(ZoneId, ZoneId) -> bool,
    ) -> Option<ZoneId> {
        self.path_through(from, goal, blocked, open)
            .and_then(|p| p.first_step())
    }
    fn get_id(&self, z: ZoneId) -> Option<&str> {
        self.zone(z).map(|x| x.id.as_str())
    }
    fn obstacle_labels(&self) -> impl Iterator<Item = &str> {
        self.links().iter().filter_map(|l| l.obstacle.as_deref())
    }
    fn all_tags(&self) -> impl Iterator<Item = &str> {
        self.zones().iter().flat_map(|z| z.tags.iter().map(String::as_str))
    }
    fn words(&self) -> Vec<&str> {
        self.zones().iter().map(|z| z.id.as_str()).collect()
    }
}
