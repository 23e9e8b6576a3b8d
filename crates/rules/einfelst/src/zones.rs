//! The questions this ruleset asks of the `space` crate's zone map, in its own words, and the
//! map as a client draws it ([`board`]).

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

/// The battlefield, the same for every seat (Einfelst hides nothing), for a client to draw:
/// every zone with its name, cover spots, `exit` and tags, and the circumstances in force in it
/// now (EIN-R14: those in force everywhere on every zone), with the weapons lying in it; every
/// link with its obstacle (EIN-R15) as the label and tags `obstacle`, `slow` (crossing takes
/// the slow manoeuvre), `<action>-test` (the test it takes) and, for one that must be
/// cleared, `blocked` until it is and `cleared` after.
pub fn board(s: &crate::state::State) -> fray_engine::view::Board {
    use fray_engine::view::Board;
    let map = &s.setup.zones;
    let mut board = Board::zones(map);
    let Board::Zones { zones, links } = &mut board else {
        return board;
    };
    for (z, view) in map.ids().zip(zones.iter_mut()) {
        for (name, at) in &s.circumstances {
            if at.is_none_or(|a| a == z) {
                view.tag(name);
            }
        }
        for &(w, at) in &s.dropped {
            if at == z {
                view.items
                    .push(s.weapon(w).map_or_else(|| "weapon".to_string(), |x| x.name.clone()));
            }
        }
    }
    for (l, view) in map.links().iter().zip(links.iter_mut()) {
        let Some((_, o)) = s.obstacle(l.a, l.b) else {
            continue;
        };
        if o.slow {
            view.tag("slow");
        }
        if let Some(a) = o.action {
            let word = serde_json::to_value(a).ok();
            if let Some(w) = word.as_ref().and_then(|w| w.as_str()) {
                view.tag(&format!("{w}-test"));
            }
        }
        if o.clear {
            view.tag(if s.open(l.a, l.b) { "cleared" } else { "blocked" });
        }
    }
    board
}
