//! Records of Thrum rules version 0.2.0 still replay on 0.3.0. The two play the same; 0.2.0 kept
//! whole-frame `SetTop`/`SetFrame` events where 0.3.0 keeps small `FrameChanged` ones, so such a
//! record is compared with those left out, and comes out as a 0.3.0 record.

use fray_engine::{EngineError, Game, Record, Ruleset};
use fray_thrum::Thrum;
use fray_thrum::event::Event;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/tests/fixtures/records")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn old_record() -> Record<Thrum> {
    let r = Record::<Thrum>::from_json(&fixture("thrum-duel-seed-7-v0.2.0.json")).expect("the 0.2.0 record reads");
    assert_eq!(r.version, "0.2.0");
    r
}

fn all_events(r: &Record<Thrum>) -> impl Iterator<Item = &Event> {
    r.start
        .events
        .iter()
        .chain(r.entries.iter().flat_map(|e| e.events.iter()))
}

#[test]
fn a_0_2_0_record_replays_and_becomes_the_0_3_0_record_of_the_same_fight() {
    let old = old_record();
    assert!(all_events(&old).any(|e| matches!(e, Event::SetTop { .. })));
    let game = Game::<Thrum>::replay(&old).expect("0.2.0 records replay");
    let now = game.record();
    assert_eq!(now.version, Thrum::VERSION);
    assert!(!all_events(now).any(|e| matches!(e, Event::SetTop { .. } | Event::SetFrame { .. })));
    // The same fight recorded by 0.3.0 itself (`fray run examples/thrum/duel.toml --seed 7`).
    let fresh = fixture("thrum-duel-seed-7.json");
    assert_eq!(now.to_json(), fresh.trim_end());
    // Every event but the bookkeeping is the same as 0.2.0 recorded, in the same order.
    let kept =
        |r: &Record<Thrum>| -> Vec<Event> { all_events(r).filter(|e| !Thrum::is_bookkeeping(e)).cloned().collect() };
    assert_eq!(kept(&old), kept(now));
}

#[test]
fn a_0_2_0_record_is_still_checked_event_by_event_outside_the_bookkeeping() {
    // Taking out one event that is not bookkeeping: the replay notices.
    fray_testkit::versions::a_missing_event_is_noticed(old_record(), "damage dealt in the duel", |ev| {
        matches!(ev, Event::Damage { .. })
    });
}

#[test]
fn bookkeeping_is_left_out_of_the_event_lists_but_not_out_of_the_state() {
    // A 0.2.0 record with its frame snapshots stripped matches event for event once
    // bookkeeping is left out, but its own events no longer leave the state the replay
    // reaches: refused for that.
    let mut old = old_record();
    for e in &mut old.entries {
        e.events
            .retain(|ev| !matches!(ev, Event::SetTop { .. } | Event::SetFrame { .. }));
    }
    match Game::<Thrum>::replay(&old) {
        Err(EngineError::Diverged { what, .. }) => assert!(what.contains("leave a different state"), "{what}"),
        other => panic!("a stripped 0.2.0 record replayed: {:?}", other.is_ok()),
    }
    // A record of 0.3.0 is compared whole: the same strip there is an event that differs.
    let mut now = Record::<Thrum>::from_json(&fixture("thrum-duel-seed-7.json")).expect("reads");
    for e in &mut now.entries {
        e.events.retain(|ev| !matches!(ev, Event::FrameChanged { .. }));
    }
    match Game::<Thrum>::replay(&now) {
        Err(EngineError::Diverged { what, .. }) => assert!(what.starts_with("event "), "{what}"),
        other => panic!("a stripped 0.3.0 record replayed: {:?}", other.is_ok()),
    }
}

#[test]
fn a_record_of_a_version_not_listed_is_refused_with_the_versions_that_replay() {
    let mut old = old_record();
    old.version = "0.1.0".into();
    match Game::<Thrum>::replay(&old) {
        Err(EngineError::Invalid(m)) => assert_eq!(
            m,
            "the record was written by thrum rules version 0.1.0, this is version 0.3.0, which replays records of 0.2.0 too"
        ),
        other => panic!("a 0.1.0 record was not refused: {:?}", other.is_ok()),
    }
}

#[test]
fn a_0_2_0_record_whose_frame_snapshots_were_changed_is_refused_by_the_state_they_leave() {
    // Bookkeeping is compared out of the event lists, yet the recorded events must still leave
    // the state the replay reaches. Change the last snapshot of the attack in the command before
    // the first trigger (the attack then waits under the trigger window) and stop there.
    let mut old = old_record();
    let i = old
        .entries
        .iter()
        .position(|e| matches!(e.command, fray_thrum::command::Command::Trigger(_)))
        .expect("the duel has a trigger")
        - 1;
    let last = old.entries[i]
        .events
        .iter_mut()
        .rev()
        .find_map(|e| match e {
            Event::SetTop { frame } => match &mut **frame {
                fray_thrum::state::Frame::Use(u) => Some(u),
                _ => None,
            },
            _ => None,
        })
        .expect("the attack moved on");
    last.moved ^= 1 << 5;
    old.entries.truncate(i + 1);
    match Game::<Thrum>::replay(&old) {
        Err(EngineError::Diverged { at, what }) => {
            assert_eq!(at, format!("command {}", i + 1));
            assert!(what.contains("leave a different state"), "{what}");
        }
        other => panic!("a changed snapshot replayed: {:?}", other.is_ok()),
    }
    // Unchanged, the same cut record replays.
    let mut cut = old_record();
    cut.entries.truncate(i + 1);
    Game::<Thrum>::replay(&cut).expect("the cut record replays");
}
