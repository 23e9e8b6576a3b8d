//! Ingenuity's hidden characters: no shipped example starts anyone hidden, so besides the shared
//! conformance suite's check of every seat of every example (crates/rulesets/tests/it/suite),
//! the ambush is played here with the GM's characters hidden from the start.

use fray_engine::conformance::hidden_information;
use fray_engine::text::TextRuleset;
use fray_engine::{Policy, RandomLegal, Seat};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::data::Cond;

use crate::examples;
use examples::load;

/// Nothing hidden from a seat reaches its view, map, tracker or log: a `hidden` character's
/// square and steps are not shown to other seats. The ambush's bandits start hidden; the check
/// compares every seat's screen and log with them standing elsewhere, and after
/// moves they are shown alike.
#[test]
fn hidden_squares_reach_no_other_seat() {
    let (mut setup, options) = load("ambush.toml");
    // The GM's characters start hidden: the players' seat may not see where they are.
    for c in setup.chars.iter_mut().filter(|c| c.seat == Seat::GM) {
        c.start.conditions |= Cond::Hidden.bit();
    }
    let seats: Vec<Seat> = (0..setup.seats.len() as u8).map(Seat).collect();
    let ai = hidden_information::<Ingenuity>(&setup, &options, 0..8, &seats, 20_000, |_| Ingenuity::heuristic())
        .unwrap_or_else(|f| panic!("ambush, heuristic: {f}"));
    // The built-in AI's hidden characters strike from hiding rather than walk; random play
    // moves them, so the comparison of moves shown alike gets exercised.
    let random = hidden_information::<Ingenuity>(&setup, &options, 0..4, &seats, 100_000, |_| {
        Box::new(RandomLegal::<Ingenuity>::new()) as Box<dyn Policy<Ingenuity>>
    })
    .unwrap_or_else(|f| panic!("ambush, random: {f}"));
    assert!(
        ai.variants_compared + random.variants_compared > 0 && random.commands_compared > 0,
        "nothing hidden was checked: {ai:?} {random:?}"
    );
}
