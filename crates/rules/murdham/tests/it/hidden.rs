//! Murdham's concealment (MUR-R57) on the ambush and the chapel road: besides the shared
//! conformance suite's check of every seat of every example (crates/rulesets/tests/it/suite),
//! these insist that something concealed was compared.

use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal};
use fray_murdham::Murdham;
use fray_testkit::example;

fn random(_: u64) -> Box<dyn Policy<Murdham>> {
    Box::new(RandomLegal::<Murdham>::new())
}

/// MUR-R57: nothing about a concealed outlaw reaches the escort's view, map, tracker or log
/// while it stays concealed: every screen is compared with the outlaw standing elsewhere.
#[test]
fn mur_r57_concealed_places_reach_no_other_seat() {
    use fray_engine::Seat;
    use fray_engine::conformance::hidden_information;
    let e = example::<Murdham>("mill-ambush.toml");
    let seats: Vec<Seat> = (0..e.setup.seats.len() as u8).map(Seat).collect();
    let report = hidden_information::<Murdham>(&e.setup, &e.options, 0..40, &seats, 20_000, |_| Murdham::heuristic())
        .unwrap_or_else(|f| panic!("mill-ambush: {f}"));
    assert!(report.variants_compared > 0, "nothing hidden was checked: {report:?}");
}

/// MUR-R57 with a seat for each player: the grave-robbers' concealed lookout reaches none of
/// the three players' seats, and Lio, concealed, reaches no seat that plays none of the
/// travellers (their faction's own seat), while his allies' players see him. Every seat of the
/// encounter is compared.
#[test]
fn mur_r57_concealed_places_reach_no_other_seat_with_a_seat_for_each_player() {
    use fray_engine::Seat;
    use fray_engine::conformance::hidden_information;
    use fray_murdham::view::hides_from;
    let e = example::<Murdham>("chapel-road.toml");
    assert_eq!(e.setup.seats, ["gm", "travellers", "ines", "oskar", "pia"]);
    let seats: Vec<Seat> = (0..e.setup.seats.len() as u8).map(Seat).collect();
    let start = fray_engine::Game::<Murdham>::new_seeded(e.setup.clone(), e.options.clone(), 0).expect("starts");
    let hidden: Vec<bool> = seats.iter().map(|&s| hides_from(start.state(), s)).collect();
    assert_eq!(hidden, [false, true, true, true, true], "the GM alone sees everyone");
    let report = hidden_information::<Murdham>(&e.setup, &e.options, 0..40, &seats, 20_000, |_| Murdham::heuristic())
        .unwrap_or_else(|f| panic!("chapel-road: {f}"));
    assert!(report.variants_compared > 0, "nothing hidden was checked: {report:?}");
    let report = hidden_information::<Murdham>(&e.setup, &e.options, 0..4, &seats, 100_000, random)
        .unwrap_or_else(|f| panic!("chapel-road, random: {f}"));
    assert!(report.variants_compared > 0, "nothing hidden was checked: {report:?}");
}
