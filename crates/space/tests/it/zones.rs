//! Zone maps through the public API: distances, range bands, blocked paths,
//! validation, text, serde, and properties checked against a brute-force
//! reference (Floyd–Warshall).

// The reference works on adjacency matrices, where index loops read plainest.
#![allow(clippy::needless_range_loop)]

use fray_space::{LinkSpec, MAX_ZONES, Zone, ZoneError, ZoneId, ZoneMap, ZoneSet};
use proptest::prelude::*;

/// ```text
///   [woods] --- [road] --- [ditch]        [island]
///                  |  rubble
///               [mill] --- [yard]
/// ```
/// `ditch` and `yard` are exits; `island` is linked to nothing.
fn sample() -> ZoneMap {
    let zones = vec![
        Zone {
            name: Some("Old road".into()),
            cover: 1,
            tags: vec!["dark".into()],
            ..Zone::new("road")
        },
        Zone::new("woods"),
        Zone {
            exit: true,
            ..Zone::new("ditch")
        },
        Zone {
            cover: 2,
            ..Zone::new("mill")
        },
        Zone {
            exit: true,
            tags: vec!["hard".into(), "water".into()],
            ..Zone::new("yard")
        },
        Zone::new("island"),
    ];
    let links = vec![
        LinkSpec::new("road", "ditch"),
        LinkSpec::new("woods", "road"),
        LinkSpec::new("Road", "MILL").with_obstacle("rubble"),
        LinkSpec::new("mill", "yard"),
    ];
    ZoneMap::new(zones, links).expect("a valid map")
}

fn id(map: &ZoneMap, name: &str) -> ZoneId {
    map.find(name).expect("a zone of the sample")
}

fn set(map: &ZoneMap, names: &[&str]) -> ZoneSet {
    names.iter().map(|n| id(map, n)).collect()
}

fn names(map: &ZoneMap, zones: impl IntoIterator<Item = ZoneId>) -> Vec<&str> {
    zones.into_iter().map(|z| map.id(z)).collect()
}

#[test]
fn zones_are_found_ignoring_case_and_keep_their_facts() {
    let m = sample();
    assert_eq!(m.len(), 6);
    assert_eq!(m.find("ROAD"), m.find("road"));
    assert_eq!(m.find("road").map(ZoneId::index), Some(0));
    assert_eq!(m.find("nowhere"), None);
    let road = m.zone(id(&m, "road")).expect("on the map");
    assert_eq!((road.display_name(), road.cover, road.exit), ("Old road", 1, false));
    assert!(road.has_tag("DARK") && !road.has_tag("water"));
    assert_eq!(m.zone(id(&m, "woods")).map(Zone::display_name), Some("woods"));
    assert_eq!(m.exits(), set(&m, &["ditch", "yard"]));
    assert_eq!(m.all().len(), 6);
    assert_eq!(names(&m, m.ids()), ["road", "woods", "ditch", "mill", "yard", "island"]);
}

#[test]
fn neighbours_follow_link_declaration_order() {
    let m = sample();
    assert_eq!(
        names(&m, m.neighbours(id(&m, "road")).iter().copied()),
        ["ditch", "woods", "mill"]
    );
    assert_eq!(
        names(&m, m.neighbours(id(&m, "mill")).iter().copied()),
        ["road", "yard"]
    );
    assert!(m.neighbours(id(&m, "island")).is_empty());
    assert_eq!(m.adjacent(id(&m, "road")), set(&m, &["ditch", "woods", "mill"]));
    let rubble = m.link(id(&m, "mill"), id(&m, "road")).expect("linked");
    assert_eq!(rubble.obstacle.as_deref(), Some("rubble"));
    assert_eq!(rubble.other(id(&m, "mill")), Some(id(&m, "road")));
    assert_eq!(rubble.other(id(&m, "yard")), None);
    assert_eq!(
        m.link(id(&m, "road"), id(&m, "woods")).map(|l| l.obstacle.clone()),
        Some(None)
    );
    assert!(m.link(id(&m, "woods"), id(&m, "mill")).is_none());
}

#[test]
fn distances_count_link_crossings() {
    let m = sample();
    let d = |a: &str, b: &str| m.distance(id(&m, a), id(&m, b));
    assert_eq!(d("road", "road"), Some(0));
    assert_eq!(d("road", "woods"), Some(1));
    assert_eq!(d("woods", "ditch"), Some(2));
    assert_eq!(d("woods", "yard"), Some(3));
    assert_eq!(d("yard", "woods"), Some(3));
    assert_eq!(d("island", "road"), None, "not connected");
    assert_eq!(d("island", "island"), Some(0));
    let beyond = ZoneId::new(40).expect("below 64");
    assert_eq!(m.distance(beyond, id(&m, "road")), None, "not a zone of this map");
}

#[test]
fn range_bands_select_zones_by_distance() {
    let m = sample();
    let road = id(&m, "road");
    assert_eq!(m.within(road, 0, 0), set(&m, &["road"]));
    assert_eq!(m.within(road, 0, 1), set(&m, &["road", "woods", "ditch", "mill"]));
    assert_eq!(m.within(road, 1, 3), set(&m, &["woods", "ditch", "mill", "yard"]));
    assert_eq!(m.within(id(&m, "woods"), 2, 2), set(&m, &["ditch", "mill"]));
    assert_eq!(m.within(road, 2, 1), ZoneSet::EMPTY);
    assert_eq!(m.within(id(&m, "island"), 0, 9), set(&m, &["island"]));
    assert_eq!(m.within(ZoneId::new(63).expect("below 64"), 0, 9), ZoneSet::EMPTY);
}

#[test]
fn paths_avoid_blocked_zones_but_may_leave_the_start() {
    let m = sample();
    let (road, woods, ditch, mill, yard) = (
        id(&m, "road"),
        id(&m, "woods"),
        id(&m, "ditch"),
        id(&m, "mill"),
        id(&m, "yard"),
    );

    let p = m.path(woods, yard).expect("connected");
    assert_eq!(names(&m, p.iter().copied()), ["woods", "road", "mill", "yard"]);
    assert_eq!(
        (p.start(), p.end(), p.steps(), p.first_step()),
        (woods, yard, 3, Some(road))
    );

    // Fleeing from the road towards an exit: the nearest is the ditch.
    assert_eq!(m.step_toward(road, m.exits(), ZoneSet::EMPTY), Some(ditch));
    // Enemies on the road (the start: it does not count) and in the ditch.
    let p = m
        .path_avoiding(road, m.exits(), set(&m, &["road", "ditch"]))
        .expect("round by the mill");
    assert_eq!(names(&m, p.iter().copied()), ["road", "mill", "yard"]);
    // From the woods every route passes the road.
    assert_eq!(m.path_avoiding(woods, m.exits(), ZoneSet::from(road)), None);
    // A blocked goal is not reached, unless it is where one starts.
    assert_eq!(m.path_avoiding(mill, ditch, ZoneSet::from(ditch)), None);
    let here = m
        .path_avoiding(ditch, ditch, ZoneSet::from(ditch))
        .expect("already there");
    assert_eq!(
        (here.as_slice(), here.steps(), here.first_step()),
        (&[ditch][..], 0, None)
    );
    assert_eq!(m.step_toward(ditch, ditch, ZoneSet::EMPTY), None);
    // No route at all, and zones that are not on the map.
    assert_eq!(m.path(road, id(&m, "island")), None);
    assert_eq!(m.path(road, ZoneSet::EMPTY), None);
    assert_eq!(m.path(ZoneId::new(50).expect("below 64"), road), None);
    assert_eq!(m.path(road, ZoneId::new(50).expect("below 64")), None);
}

#[test]
fn equal_paths_are_chosen_by_link_declaration_order() {
    // a -- b -- d and a -- c -- d: the first declared link from `a` wins.
    let zones = || ["a", "b", "c", "d"].map(Zone::new).to_vec();
    let route = |links: &[(&str, &str)]| {
        let m = ZoneMap::new(zones(), links.iter().map(|&(a, b)| LinkSpec::new(a, b)).collect()).expect("valid");
        let p = m.path(id(&m, "a"), id(&m, "d")).expect("connected");
        names(&m, p.iter().copied()).join(" ")
    };
    assert_eq!(route(&[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]), "a b d");
    assert_eq!(route(&[("a", "c"), ("a", "b"), ("b", "d"), ("c", "d")]), "a c d");
    assert_eq!(route(&[("d", "c"), ("a", "c"), ("a", "b"), ("b", "d")]), "a c d");
}

#[test]
fn broken_maps_are_refused_with_a_typed_error() {
    let new = |zones: Vec<Zone>, links: Vec<LinkSpec>| ZoneMap::new(zones, links).err();
    let two = || vec![Zone::new("a"), Zone::new("b")];
    assert_eq!(new(vec![], vec![]), Some(ZoneError::NoZones));
    let many: Vec<Zone> = (0..=MAX_ZONES).map(|i| Zone::new(format!("z{i}"))).collect();
    assert_eq!(new(many, vec![]), Some(ZoneError::TooManyZones { count: 65 }));
    let full: Vec<Zone> = (0..MAX_ZONES).map(|i| Zone::new(format!("z{i}"))).collect();
    assert!(
        ZoneMap::new(full, vec![LinkSpec::new("z0", "z63")]).is_ok(),
        "64 zones are fine"
    );
    assert_eq!(
        new(vec![Zone::new("a"), Zone::new("A")], vec![]),
        Some(ZoneError::DuplicateId {
            zone: 1,
            id: "A".into(),
            earlier: "a".into()
        })
    );
    assert!(matches!(
        new(vec![Zone::new("a b")], vec![]),
        Some(ZoneError::BadId { zone: 0, .. })
    ));
    assert!(matches!(
        new(vec![Zone::new("")], vec![]),
        Some(ZoneError::BadId { zone: 0, .. })
    ));
    let named = |name: &str| Zone {
        name: Some(name.into()),
        ..Zone::new("a")
    };
    assert!(matches!(
        new(vec![named(" ")], vec![]),
        Some(ZoneError::BadName { zone: 0, .. })
    ));
    assert!(matches!(
        new(vec![named("a\nb")], vec![]),
        Some(ZoneError::BadName { .. })
    ));
    let tagged = |tags: &[&str]| Zone {
        tags: tags.iter().map(|t| t.to_string()).collect(),
        ..Zone::new("a")
    };
    assert!(matches!(
        new(vec![tagged(&["x y"])], vec![]),
        Some(ZoneError::BadTag { tag_index: 0, .. })
    ));
    assert!(matches!(
        new(vec![tagged(&["dark", "Dark"])], vec![]),
        Some(ZoneError::DuplicateTag { tag_index: 1, .. })
    ));
    assert_eq!(
        new(two(), vec![LinkSpec::new("a", "c")]),
        Some(ZoneError::UnknownZone {
            link: 0,
            name: "c".into()
        })
    );
    assert_eq!(
        new(two(), vec![LinkSpec::new("a", "b"), LinkSpec::new("b", "B")]),
        Some(ZoneError::SelfLink {
            link: 1,
            id: "b".into()
        })
    );
    assert_eq!(
        new(two(), vec![LinkSpec::new("a", "b"), LinkSpec::new("B", "a")]),
        Some(ZoneError::DuplicateLink {
            link: 1,
            a: "b".into(),
            b: "a".into()
        })
    );
    assert!(matches!(
        new(two(), vec![LinkSpec::new("a", "b").with_obstacle("")]),
        Some(ZoneError::BadObstacle { link: 0, .. })
    ));
    // A disconnected map is fine.
    assert!(ZoneMap::new(two(), vec![]).is_ok());
}

#[test]
fn every_problem_is_listed_in_order() {
    let zones = vec![Zone::new("a"), Zone::new("a"), Zone::new("b c")];
    let links = vec![
        LinkSpec::new("a", "x").with_obstacle("two words"),
        LinkSpec::new("a", "a"),
    ];
    let all: Vec<String> = ZoneMap::problems(&zones, &links)
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        all,
        [
            "zone 'a' is defined twice",
            "zone id 'b c' must be one word of letters, digits, '-' and '_'",
            "obstacle 'two words' must be one word of letters, digits, '-' and '_'",
            "a link names the unknown zone 'x'",
            "zone 'a' is linked to itself",
        ]
    );
    assert!(ZoneMap::problems(&[Zone::new("a")], &[]).is_empty());
}

#[test]
fn each_zone_is_described_on_one_line() {
    let m = sample();
    let lines: Vec<String> = m.ids().filter_map(|z| m.describe(z)).collect();
    assert_eq!(
        lines,
        [
            "road (Old road)  cover 1, dark  — links: ditch, woods, mill [rubble]",
            "woods  — links: road",
            "ditch  exit  — links: road",
            "mill  cover 2  — links: road [rubble], yard",
            "yard  exit, hard, water  — links: mill",
            "island  — no links",
        ]
    );
    assert_eq!(m.describe(ZoneId::new(6).expect("below 64")), None);
}

#[test]
fn serde_round_trips_and_refuses_a_broken_map() {
    let m = sample();
    let json = serde_json::to_string(&m).expect("serialises");
    assert!(
        json.starts_with(r#"{"zones":[{"id":"road","name":"Old road","cover":1,"tags":["dark"]},{"id":"woods"}"#),
        "{json}"
    );
    assert!(
        json.contains(r#"{"a":"road","b":"mill","obstacle":"rubble"}"#),
        "links by id: {json}"
    );
    let back: ZoneMap = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, m);
    assert_eq!(back.distance(id(&back, "woods"), id(&back, "yard")), Some(3));

    let refused = |json: &str| serde_json::from_str::<ZoneMap>(json).expect_err("refused").to_string();
    assert!(refused(r#"{"zones":[{"id":"a"}],"links":[{"a":"a","b":"b"}]}"#).contains("unknown zone 'b'"));
    assert!(refused(r#"{"zones":[]}"#).contains("at least one zone"));
    assert!(refused(r#"{"zones":[{"id":"a"},{"id":"A"}]}"#).contains("differs from 'a' only by case"));
    assert!(refused(r#"{"zones":[{"id":"a","colour":"red"}]}"#).contains("unknown field"));
    let sixty_five: Vec<String> = (0..65).map(|i| format!(r#"{{"id":"z{i}"}}"#)).collect();
    assert!(refused(&format!(r#"{{"zones":[{}]}}"#, sixty_five.join(","))).contains("at most 64"));

    // Zone ids and sets keep their forms; an id beyond 63 is refused.
    let road = id(&m, "road");
    assert_eq!(serde_json::to_string(&road).expect("serialises"), "0");
    assert!(serde_json::from_str::<ZoneId>("64").is_err());
    let s = set(&m, &["woods", "yard"]);
    assert_eq!(
        serde_json::from_str::<ZoneSet>(&serde_json::to_string(&s).expect("serialises")).ok(),
        Some(s)
    );
}

/// A random map: `n` zones `z0..`, links from a random upper-triangle mask
/// (in a random declaration order), and a random blocked set.
fn random_map() -> impl Strategy<Value = (ZoneMap, Vec<Vec<bool>>, ZoneSet)> {
    (1usize..=10).prop_flat_map(|n| {
        (
            prop::collection::vec(prop::bool::weighted(0.3), n * n),
            any::<u64>(),
            any::<u64>(),
        )
            .prop_map(move |(mask, order, blocked)| {
                let mut adj = vec![vec![false; n]; n];
                let mut links = Vec::new();
                for a in 0..n {
                    for b in a + 1..n {
                        if mask[a * n + b] {
                            adj[a][b] = true;
                            adj[b][a] = true;
                            // Declare some links backwards, so order and direction vary.
                            if mask[b * n + a] {
                                links.push(LinkSpec::new(format!("z{b}"), format!("z{a}")));
                            } else {
                                links.push(LinkSpec::new(format!("z{a}"), format!("z{b}")));
                            }
                        }
                    }
                }
                let shift = (order as usize) % links.len().max(1);
                links.rotate_left(shift);
                let zones = (0..n).map(|i| Zone::new(format!("z{i}"))).collect();
                let map = ZoneMap::new(zones, links).expect("a valid random map");
                let blocked = ZoneSet::from_bits(blocked).intersection(map.all());
                (map, adj, blocked)
            })
    })
}

/// All-pairs shortest link counts by Floyd–Warshall over the zones `allowed`
/// lets through (`None` = no route).
fn floyd(adj: &[Vec<bool>], allowed: impl Fn(usize) -> bool) -> Vec<Vec<Option<u32>>> {
    let n = adj.len();
    let mut d = vec![vec![None; n]; n];
    for a in 0..n {
        d[a][a] = Some(0);
        for b in 0..n {
            if adj[a][b] && allowed(a) && allowed(b) {
                d[a][b] = Some(1);
            }
        }
    }
    for k in 0..n {
        for a in 0..n {
            for b in 0..n {
                if let (Some(x), Some(y)) = (d[a][k], d[k][b])
                    && d[a][b].is_none_or(|z| x + y < z)
                {
                    d[a][b] = Some(x + y);
                }
            }
        }
    }
    d
}

fn zid(i: usize) -> ZoneId {
    ZoneId::new(i as u8).expect("below 64")
}

proptest! {
    #[test]
    fn distance_is_a_metric_and_paths_are_shortest((m, adj, _) in random_map()) {
        let n = m.len();
        let reference = floyd(&adj, |_| true);
        for a in 0..n {
            for b in 0..n {
                let d = m.distance(zid(a), zid(b));
                prop_assert_eq!(d.map(u32::from), reference[a][b]);
                prop_assert_eq!(d, m.distance(zid(b), zid(a)), "symmetric");
                for c in 0..n {
                    if let (Some(x), Some(y)) = (d, m.distance(zid(b), zid(c))) {
                        let z = m.distance(zid(a), zid(c));
                        prop_assert!(z.is_some_and(|z| z <= x + y), "triangle inequality");
                    }
                }
                let p = m.path(zid(a), zid(b));
                prop_assert_eq!(p.map(|p| p.steps()), d, "path length is the distance");
                if let Some(p) = p {
                    prop_assert_eq!((p.start(), p.end()), (zid(a), zid(b)));
                    for w in p.windows(2) {
                        prop_assert!(m.adjacent(w[0]).contains(w[1]), "consecutive zones are linked");
                    }
                }
                let band: ZoneSet = (0..n).filter(|&c| reference[a][c].is_some_and(|d| (1..=2).contains(&d))).map(zid).collect();
                prop_assert_eq!(m.within(zid(a), 1, 2), band);
            }
        }
    }

    #[test]
    fn blocked_paths_are_shortest_among_unblocked_routes((m, adj, blocked) in random_map()) {
        let n = m.len();
        for a in 0..n {
            // From `a`, every zone but `a` itself in `blocked` is closed.
            let reference = floyd(&adj, |z| z == a || !blocked.contains(zid(z)));
            for b in 0..n {
                let p = m.path_avoiding(zid(a), zid(b), blocked);
                prop_assert_eq!(p.map(|p| u32::from(p.steps())), reference[a][b], "from {} to {}", a, b);
                if let Some(p) = p {
                    prop_assert!(p[1..].iter().all(|&z| !blocked.contains(z)) || a == b);
                    prop_assert_eq!(m.step_toward(zid(a), zid(b), blocked), p.first_step());
                }
            }
            // A set goal ends at one of its nearest reachable zones.
            let goal = ZoneSet::from_bits(0b1010_1010).intersection(m.all());
            let nearest = goal.iter().filter_map(|g| reference[a][g.index()]).min();
            let p = m.path_avoiding(zid(a), goal, blocked);
            prop_assert_eq!(p.map(|p| u32::from(p.steps())), nearest);
            if let Some(p) = p {
                prop_assert!(goal.contains(p.end()));
            }
        }
    }
}
