//! Thrum's hidden information (THR-R219) on the ruins, where the Plinkers hide: the shared
//! conformance suite (crates/rulesets/tests/it/suite) checks every seat of every example; this
//! test also insists that something was hidden and compared.

use fray_engine::Seat;
use fray_engine::conformance::hidden_information;
use fray_engine::text::TextRuleset;
use fray_thrum::Thrum;

use crate::examples;
use examples::load;

/// Nothing hidden from a seat reaches its view, map, tracker or log (fray's reading of Hidden,
/// THR-R219: a foe's seat is not shown where a Hidden combatant stands, nor its steps). The
/// Plinkers of the ruins slip away into hiding; the check compares every seat's screen and log
/// with the Plinker standing elsewhere, and after moves it is shown alike.
#[test]
fn thr_r219_hidden_squares_reach_no_other_seat() {
    let (setup, options) = load("ruins.toml");
    let seats: Vec<Seat> = (0..setup.seats.len() as u8).map(Seat).collect();
    let report = hidden_information::<Thrum>(&setup, &options, 0..12, &seats, 20_000, |_| Thrum::heuristic())
        .unwrap_or_else(|f| panic!("ruins: {f}"));
    assert!(
        report.variants_compared > 0 && report.commands_compared > 0,
        "no Plinker hid, so nothing was checked: {report:?}"
    );
}
