//! The battlefield a client draws (`TextRuleset::board`): the zones with their cover, exits and
//! circumstances, the links with their obstacles, and the weapons lying about.

use fray_einfelst::Einfelst;
use fray_engine::text::TextRuleset;
use fray_engine::view::{Board, LinkView, ZoneView};
use fray_engine::{Game, Seat};

fn parts(b: Option<Board>) -> (Vec<ZoneView>, Vec<LinkView>) {
    match b {
        Some(Board::Zones { zones, links }) => (zones, links),
        other => panic!("Einfelst's board is a zone map: {other:?}"),
    }
}

fn mill() -> Game<Einfelst> {
    let e = fray_testkit::example::<Einfelst>("mill.toml");
    Game::<Einfelst>::new_seeded(e.setup, e.options, 1).expect("starts")
}

#[test]
fn the_mill_board_has_its_zones_cover_exit_and_the_fallen_beam() {
    let g = mill();
    let (zones, links) = parts(Einfelst::board(g.state(), Seat::GM));
    let ids: Vec<&str> = zones.iter().map(|z| z.id.as_str()).collect();
    assert_eq!(ids, ["lane", "yard", "store", "wheel"]);
    assert_eq!(zones[0].name, "Mill lane");
    assert_eq!(zones[0].tags, ["exit"]);
    assert_eq!(
        (zones[2].cover, zones[2].tags.as_slice()),
        (1, &["cover".to_string()][..])
    );
    assert_eq!(zones[3].cover, 2);
    assert!(zones[1].tags.is_empty() && zones[1].items.is_empty());
    let beam = links
        .iter()
        .find(|l| l.zones == ["yard", "wheel"])
        .expect("the link from the yard to the wheel");
    assert_eq!(beam.label.as_deref(), Some("fallen-beam"));
    assert_eq!(beam.tags, ["obstacle", "slow", "force-test", "blocked"]);
    let plain: Vec<&LinkView> = links.iter().filter(|l| l.label.is_none()).collect();
    assert_eq!(plain.len(), 2);
    assert!(plain.iter().all(|l| l.tags.is_empty()));
    // Every zone a creature stands in is a zone of the board, every link joins two of them.
    for c in Einfelst::seat_view(g.state(), Seat::GM).combatants {
        if let Some(fray_engine::view::Place::Zone { zone }) = c.place {
            assert!(ids.contains(&zone.as_str()), "{zone}");
        }
    }
    for l in &links {
        assert!(l.zones.iter().all(|z| ids.contains(&z.as_str())), "{l:?}");
    }
}

#[test]
fn the_board_follows_what_changes_in_the_fight() {
    let g = mill();
    let mut s = g.state().clone();
    let yard = s.setup.zones.find("yard").expect("the yard");
    let wheel = s.setup.zones.find("wheel").expect("the wheel");
    // The beam heaved aside, darkness over the yard, a spear dropped there.
    s.cleared.push(s.link_index(yard, wheel).expect("a link"));
    s.circumstances.push(("dark".into(), Some(yard)));
    let spear = s
        .weapon_ids
        .iter()
        .position(|w| w == "wolfsbane-spear")
        .expect("the spear") as u8;
    s.dropped.push((spear, yard));
    let (zones, links) = parts(Einfelst::board(&s, Seat::GM));
    assert_eq!(zones[1].tags, ["dark"]);
    assert!(!zones[0].tags.contains(&"dark".to_string()));
    assert_eq!(zones[1].items, ["wolfsbane spear"]);
    let beam = links.iter().find(|l| l.zones == ["yard", "wheel"]).expect("the link");
    assert_eq!(beam.tags, ["obstacle", "slow", "force-test", "cleared"]);
    s.circumstances.push(("dark".into(), None));
    let (zones, _) = parts(Einfelst::board(&s, Seat::GM));
    assert!(
        zones.iter().all(|z| z.tags.contains(&"dark".to_string())),
        "dark everywhere"
    );
    assert_eq!(
        zones[1].tags.iter().filter(|t| *t == "dark").count(),
        1,
        "each tag once"
    );
    for seat in 1..Einfelst::seat_names(&s).len() as u8 {
        assert_eq!(Einfelst::board(&s, Seat(seat)), Einfelst::board(&s, Seat::GM));
    }
}
