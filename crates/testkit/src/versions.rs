//! Checks every ruleset's tests of older records make alike.

use fray_engine::{EngineError, Game, Record, Ruleset};

/// Takes out of `record` (an earlier version's record, kept as a fixture) the first event
/// `pick` chooses, and asserts that its replay stops at that command, saying the events were
/// compared with bookkeeping left out and naming the record's version: an older record is
/// still checked event by event, only bookkeeping aside. `what` names the event in the panic
/// message when there is none to take out.
pub fn a_missing_event_is_noticed<R: Ruleset>(mut record: Record<R>, what: &str, pick: impl Fn(&R::Event) -> bool) {
    let version = record.version.clone();
    let (i, j) = record
        .entries
        .iter()
        .enumerate()
        .find_map(|(i, e)| e.events.iter().position(&pick).map(|j| (i, j)))
        .unwrap_or_else(|| panic!("the record has no {what} to take out"));
    record.entries[i].events.remove(j);
    match Game::<R>::replay(&record) {
        Err(EngineError::Diverged { at, what }) => {
            assert_eq!(at, format!("command {}", i + 1));
            assert!(
                what.contains("bookkeeping left out") && what.contains(&version),
                "{what}"
            );
        }
        other => panic!(
            "a changed {version} record replayed: {:?}",
            other.map(|g| g.record().entries.len())
        ),
    }
}
