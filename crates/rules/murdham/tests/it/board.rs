//! The battlefield a client draws (`TextRuleset::board`): the zones with their cover, exits and
//! tags, the links as borders, and the items lying on the ground.

use fray_engine::text::TextRuleset;
use fray_engine::view::{Board, LinkView, ZoneView};
use fray_engine::{Game, Ruleset, Seat};
use fray_murdham::Murdham;
use fray_murdham::place::Place;
use fray_murdham::state::Item;

fn parts(b: Option<Board>) -> (Vec<ZoneView>, Vec<LinkView>) {
    match b {
        Some(Board::Zones { zones, links }) => (zones, links),
        other => panic!("Murdham's board is a zone map: {other:?}"),
    }
}

fn mill() -> Game<Murdham> {
    let e = fray_testkit::example::<Murdham>("mill-ambush.toml");
    Game::<Murdham>::new_seeded(e.setup, e.options, 1).expect("starts")
}

#[test]
fn the_mill_board_has_its_zones_tags_and_borders() {
    let g = mill();
    let (zones, links) = parts(Murdham::board(g.state(), Seat::GM));
    let ids: Vec<&str> = zones.iter().map(|z| z.id.as_str()).collect();
    assert_eq!(ids, ["lane", "yard", "mill", "woodpile", "brook"]);
    let zone = |id: &str| zones.iter().find(|z| z.id == id).expect("a zone");
    assert_eq!(zone("mill").name, "the burnt mill");
    assert_eq!(
        (zone("mill").cover, zone("mill").tags.clone()),
        (3, vec!["cover".into(), "barrier".into()])
    );
    assert_eq!(zone("woodpile").tags, ["cover", "concealment"]);
    assert_eq!(zone("brook").tags, ["exit", "hazard-4"]);
    assert!(zone("lane").tags.is_empty());
    let pairs: Vec<[&str; 2]> = links
        .iter()
        .map(|l| [l.zones[0].as_str(), l.zones[1].as_str()])
        .collect();
    assert_eq!(
        pairs,
        [
            ["lane", "yard"],
            ["lane", "brook"],
            ["yard", "mill"],
            ["yard", "woodpile"],
            ["woodpile", "brook"]
        ]
    );
    assert!(links.iter().all(|l| l.tags == ["border"] && l.label.is_none()));
    for l in &links {
        assert!(l.zones.iter().all(|z| ids.contains(&z.as_str())), "{l:?}");
    }
}

#[test]
fn items_on_the_ground_lie_in_their_zone_or_on_their_border() {
    let g = mill();
    let mut s = g.state().clone();
    let zone = |id: &str| s.setup.zones.find(id).expect("a zone");
    let (lane, yard) = (zone("lane"), zone("yard"));
    let item = |id: &str| Item {
        id: id.into(),
        damaged: false,
        used: false,
        spent: None,
        gone: false,
    };
    s.ground.push((Place::zone(yard), item("healing-draught")));
    s.ground.push((Place::border(yard, lane), item("healing-draught")));
    let name = s.setup.item("healing-draught").expect("an item").name.clone();
    let (zones, links) = parts(Murdham::board(&s, Seat::GM));
    assert_eq!(zones[1].items, std::slice::from_ref(&name));
    assert!(zones[0].items.is_empty());
    assert_eq!(links[0].items, [name]);
    assert!(links[1..].iter().all(|l| l.items.is_empty()));
}

#[test]
fn concealed_outlaws_change_nothing_on_the_board() {
    let g = mill();
    let s = g.state();
    let mut compared = 0;
    for seat in (0..Murdham::seat_names(s).len() as u8).map(Seat) {
        let board = Murdham::board(s, seat);
        assert_eq!(board, Murdham::board(s, Seat::GM), "{seat}");
        let mut others = Vec::new();
        Murdham::indistinguishable(s, seat, &mut others);
        for other in &others {
            assert_eq!(Murdham::board(other, seat), board, "{seat}");
            compared += 1;
        }
    }
    assert!(compared > 0, "the outlaws are concealed from the escort");
}
