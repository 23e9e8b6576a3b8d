//! Records of Einfelst rules version 0.1.0 still replay on 0.2.0. 0.1.0 played a group's members
//! in encounter order (0.2.0's `group-order = "encounter"`, which `earlier_options` sets in such a
//! record), and its events lack the faces of rolls and how a turn ended. Replayed, a 0.1.0 record
//! comes out as the 0.2.0 record of the same fight: the same commands and dice, every event
//! standing for the one recorded, the faces filled in.

use fray_einfelst::Einfelst;
use fray_einfelst::options::GroupOrder;
use fray_einfelst::state::Event;
use fray_engine::{EngineError, Game, Record, Ruleset};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/tests/fixtures/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The 0.1.0 records kept: the ambush on the Tollwood road (a group of archers) and the wolves
/// at the ford (a pack of three on one card), both written by fray before 0.2.0.
const OLD: [&str; 2] = [
    "einfelst-tollwood-seed-7-v0.1.0.json",
    "einfelst-ford-seed-1-v0.1.0.json",
];

fn old_record(name: &str) -> Record<Einfelst> {
    let r = Record::<Einfelst>::from_json(&fixture(name)).expect("the 0.1.0 record reads");
    assert_eq!(r.version, "0.1.0", "{name}");
    r
}

fn all_events(r: &Record<Einfelst>) -> Vec<&Event> {
    r.start
        .events
        .iter()
        .chain(r.entries.iter().flat_map(|e| e.events.iter()))
        .collect()
}

#[test]
fn ein_r2_a_0_1_0_record_replays_in_its_group_order_and_becomes_the_0_2_0_record_of_the_same_fight() {
    for name in OLD {
        let old = old_record(name);
        // 0.1.0 wrote no faces, and its options say nothing of a group's order.
        assert!(all_events(&old).iter().all(|e| match e {
            Event::Tested { faces, .. } => faces.is_empty(),
            _ => true,
        }));
        assert_eq!(
            old.options.group_order,
            GroupOrder::Director,
            "{name}: the default read"
        );
        let game = Game::<Einfelst>::replay(&old).unwrap_or_else(|e| panic!("{name}: {e}"));
        let now = game.record();
        assert_eq!(now.version, Einfelst::VERSION);
        // EIN-R2: it played on in encounter order, as 0.1.0 did, with no group-turn decision.
        assert_eq!(now.options.group_order, GroupOrder::Encounter, "{name}");
        assert_eq!(now.seed, old.seed);
        assert_eq!(now.start.dice, old.start.dice);
        assert_eq!(now.entries.len(), old.entries.len());
        for (a, b) in old.entries.iter().zip(&now.entries) {
            assert_eq!((&a.command, &a.dice), (&b.command, &b.dice), "{name}");
        }
        // Every event stands for the one recorded: equal but for the faces and how a turn ended.
        let (was, is) = (all_events(&old), all_events(now));
        assert_eq!(was.len(), is.len(), "{name}");
        for (a, b) in was.iter().zip(&is) {
            assert!(Einfelst::same_as_earlier(a, b), "{name}: {a:?} against {b:?}");
        }
        // The faces are filled in, and they are the roll's: its pool, its successes.
        let faces = |e: &Event| match e {
            Event::Tested {
                pool, successes, faces, ..
            } => Some((*pool, *successes, faces.as_slice().to_vec())),
            _ => None,
        };
        let rolled: Vec<_> = is.iter().filter_map(|e| faces(e)).collect();
        assert!(rolled.len() > 20, "{name}: few tests");
        for (pool, successes, f) in rolled {
            assert_eq!(f.len(), usize::from(pool), "{name}");
            assert_eq!(f.iter().filter(|&&x| x == 6).count(), usize::from(successes), "{name}");
        }
        assert!(is.iter().any(|e| matches!(
            e,
            Event::TurnEnded {
                how: fray_einfelst::state::TurnEnd::Spent,
                ..
            }
        )));
        // It is a 0.2.0 record now: it replays as one, to the same state and the same record.
        let back = Record::<Einfelst>::from_json(&now.to_json()).expect("reads");
        let again = Game::<Einfelst>::replay(&back).expect("replays as 0.2.0");
        assert_eq!(again.state(), game.state(), "{name}");
        assert_eq!(again.record().to_json(), now.to_json(), "{name}");
        assert!(game.outcome().is_some(), "{name}: the whole fight");
    }
}

#[test]
fn a_0_1_0_record_is_still_checked_event_by_event() {
    // One more success in a 0.1.0 test than its dice gave: the replay must notice.
    let mut old = old_record(OLD[1]);
    let (i, j) = old
        .entries
        .iter()
        .enumerate()
        .find_map(|(i, e)| {
            e.events
                .iter()
                .position(|ev| matches!(ev, Event::Tested { .. }))
                .map(|j| (i, j))
        })
        .expect("the fight rolls a test");
    if let Event::Tested { successes, .. } = &mut old.entries[i].events[j] {
        *successes += 1;
    }
    match Game::<Einfelst>::replay(&old) {
        Err(EngineError::Diverged { at, what }) => {
            assert_eq!(at, format!("command {}", i + 1));
            assert!(what.contains("differs") && what.contains("0.1.0"), "{what}");
        }
        other => panic!("a changed 0.1.0 record replayed: {:?}", other.is_ok()),
    }
    // A 0.2.0 record is compared whole: a face taken out of an event is a difference.
    let game = Game::<Einfelst>::replay(&old_record(OLD[1])).expect("replays");
    let mut now = game.record().clone();
    let e = now
        .entries
        .iter_mut()
        .flat_map(|e| e.events.iter_mut())
        .find(|e| matches!(e, Event::Tested { .. }))
        .expect("a test");
    if let Event::Tested { faces, .. } = e {
        *faces = fray_dice::Faces::new();
    }
    match Game::<Einfelst>::replay(&now) {
        Err(EngineError::Diverged { what, .. }) => assert!(what.starts_with("event "), "{what}"),
        other => panic!("a 0.2.0 record without a face replayed: {:?}", other.is_ok()),
    }
}

#[test]
fn a_fresh_record_is_of_0_2_0() {
    let now = Record::<Einfelst>::from_json(&fixture("einfelst-tollwood-seed-7.json")).expect("reads");
    assert_eq!(now.version, "0.2.0");
    Game::<Einfelst>::replay(&now).expect("replays");
}

#[test]
fn a_record_from_before_seats_of_their_own_plays_every_creature_from_its_sides_seat() {
    // Written before a creature could name a seat: no combatant has one, each is played by its
    // side's seat, and the record written again has no `seat` key for a combatant either.
    for name in OLD.iter().chain(["einfelst-tollwood-seed-7.json"].iter()) {
        let r = Record::<Einfelst>::from_json(&fixture(name)).expect("reads");
        assert!(r.setup.combatants.iter().all(|c| c.seat.is_none()), "{name}");
        let game = Game::<Einfelst>::replay(&r).unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = game.state();
        for c in s.ids() {
            assert_eq!(s.seat_of(c), s.setup.sides[s.ch(c).side as usize].seat, "{name}");
        }
        let v: serde_json::Value = serde_json::from_str(&game.record().to_json()).expect("JSON");
        let combatants = v["setup"]["combatants"].as_array().expect("combatants");
        assert!(combatants.iter().all(|c| c.get("seat").is_none()), "{name}");
    }
}
