//! Records of Hallowed Earth rules version 0.1.0 still replay on 0.2.0. 0.2.0 plays differently
//! by default in ways 0.1.0 records show: it draws no morale 3d6 for a monster whose outcome is
//! obvious (HAL-R22), has a Free action (HAL-R17), lets a seat declare its creatures in any order,
//! and logs the end of a round after its end-of-round steps. An 0.1.0 record is replayed with the
//! options that play as 0.1.0 did (`HallowedEarth::earlier_options`), compared event by event with
//! the moved `RoundEnded` left out (`HallowedEarth::is_bookkeeping`), and comes out as a 0.2.0
//! record of the same fight.

use fray_engine::{EngineError, Game, Record, Ruleset};
use fray_hallowed_earth::HallowedEarth;
use fray_hallowed_earth::state::Event;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/tests/fixtures/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn record(name: &str) -> Record<HallowedEarth> {
    Record::<HallowedEarth>::from_json(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn all_events(r: &Record<HallowedEarth>) -> impl Iterator<Item = &Event> {
    r.start
        .events
        .iter()
        .chain(r.entries.iter().flat_map(|e| e.events.iter()))
}

/// The events that are not bookkeeping, in order.
fn kept(r: &Record<HallowedEarth>) -> Vec<Event> {
    all_events(r)
        .filter(|e| !HallowedEarth::is_bookkeeping(e))
        .cloned()
        .collect()
}

#[test]
fn a_0_1_0_record_replays_and_becomes_the_0_2_0_record_of_the_same_fight() {
    let old = record("hallowed-earth-roadside-seed-5-v0.1.0.json");
    assert_eq!(old.version, "0.1.0");
    let game = Game::<HallowedEarth>::replay(&old).expect("0.1.0 records replay");
    let now = game.record();
    assert_eq!(now.version, HallowedEarth::VERSION);
    // The same fight recorded by 0.2.0 itself (`fray run examples/hallowed-earth/roadside.toml
    // --seed 5`): the same commands, dice and events. Only the options differ: the 0.1.0
    // record keeps those that play as 0.1.0 did.
    let fresh = record("hallowed-earth-roadside-seed-5.json");
    assert_eq!(fresh.version, HallowedEarth::VERSION);
    let mut options = fresh.options.clone();
    HallowedEarth::earlier_options("0.1.0", &mut options);
    assert_eq!(now.options, options);
    assert_ne!(now.options, fresh.options, "0.1.0 plays with its own readings");
    let (mut a, mut b) = (now.clone(), fresh.clone());
    a.options = Default::default();
    b.options = Default::default();
    assert_eq!(a.to_json(), b.to_json());
    // Every event but the bookkeeping is the same as 0.1.0 recorded, in the same order; the end
    // of each round now comes after its steps.
    assert_eq!(kept(&old), kept(now));
    let ends = |r: &Record<HallowedEarth>| all_events(r).filter(|e| matches!(e, Event::RoundEnded { .. })).count();
    assert_eq!(ends(&old), ends(now));
}

#[test]
fn a_0_1_0_record_of_an_obvious_morale_check_still_rolls_its_3d6() {
    // A 0.1.0 game in which the GM made warrior-1's outcome obvious before Oda intimidated it:
    // 0.1.0 rolled its morale 3d6 (and failed it). 0.2.0 draws none by default; the record
    // replays because it keeps `morale-roll-when-obvious`, and the game goes on so.
    let old = record("hallowed-earth-roadside-obvious-v0.1.0.json");
    assert_eq!(old.version, "0.1.0");
    assert!(!old.options.morale_roll_when_obvious);
    let checked = |r: &Record<HallowedEarth>| {
        all_events(r)
            .filter_map(|e| match e {
                Event::Checked {
                    kind: fray_hallowed_earth::state::CheckKind::Morale,
                    roll,
                    success,
                    ..
                } => Some((*roll, *success)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(checked(&old), [(10, false)]);
    let game = Game::<HallowedEarth>::replay(&old).expect("replays");
    assert!(game.record().options.morale_roll_when_obvious);
    assert_eq!(checked(game.record()), [(10, false)]);
    assert!(!all_events(game.record()).any(|e| matches!(e, Event::MoraleObvious { .. })));
    // Read as a 0.2.0 record with 0.2.0's options, the same commands draw no 3d6 at the end of
    // round 1: the record's faces and events no longer line up, and the replay says so.
    let mut as_new = old.clone();
    as_new.version = HallowedEarth::VERSION.into();
    assert!(matches!(
        Game::<HallowedEarth>::replay(&as_new),
        Err(EngineError::Diverged { .. })
    ));
}

#[test]
fn a_0_1_0_record_is_still_checked_event_by_event_outside_the_bookkeeping() {
    let old = record("hallowed-earth-roadside-seed-5-v0.1.0.json");
    // Taking out one event that is not bookkeeping: the replay notices.
    fray_testkit::versions::a_missing_event_is_noticed(old, "damage dealt in the ambush", |ev| {
        matches!(ev, Event::Damaged { .. })
    });
}

#[test]
fn records_from_before_seats_per_player_replay_with_every_creature_in_its_sides_seat() {
    // Their combatants name no seat of their own: each is its side's, as it was, and the setup
    // is written back without the new key.
    for name in [
        "hallowed-earth-roadside-seed-5.json",
        "hallowed-earth-roadside-seed-5-v0.1.0.json",
        "hallowed-earth-roadside-obvious-v0.1.0.json",
    ] {
        let old = record(name);
        assert!(old.setup.combatants.iter().all(|c| c.seat.is_none()), "{name}");
        let game = Game::<HallowedEarth>::replay(&old).unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = game.state();
        for c in s.ids() {
            assert_eq!(s.seat_of(c), s.setup.sides[usize::from(s.ch(c).side)].seat, "{name}");
        }
        let setup = serde_json::to_value(&game.record().setup).expect("serialises");
        assert!(
            setup["combatants"]
                .as_array()
                .expect("combatants")
                .iter()
                .all(|c| c.get("seat").is_none()),
            "{name}"
        );
    }
}
