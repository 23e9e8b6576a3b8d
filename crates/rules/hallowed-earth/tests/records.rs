//! Records: a whole seeded fight replays to the same state, and a record is untrusted input: an
//! edited one is refused with what is wrong, or replays, but never panics.

use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, Game, Record, Ruleset, choose_first};
use fray_hallowed_earth::HallowedEarth;
use fray_testkit::example;

/// The roadside ambush played to the end by the built-in AI.
fn duel(seed: u64) -> Game<HallowedEarth> {
    let e = example::<HallowedEarth>("roadside.toml");
    let mut game = Game::<HallowedEarth>::new_seeded(e.setup, e.options, seed).expect("starts");
    let (mut ai, mut rng) = (HallowedEarth::heuristic(), Prng::for_stream(seed, 0));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    assert!(game.outcome().is_some(), "the fight ends");
    game
}

#[test]
fn a_whole_fight_replays_from_its_json_record() {
    let game = duel(7);
    let back = Record::<HallowedEarth>::from_json(&game.record().to_json()).expect("reads back");
    assert_eq!(Game::replay(&back).expect("replays").state(), game.state());
}

#[test]
fn edited_records_never_panic() {
    let tried =
        fray_engine::conformance::edited_records_never_panic::<HallowedEarth>(&duel(3).record().to_json(), 3_000)
            .unwrap_or_else(|e| panic!("{e}"));
    assert!(tried > 1_000, "only {tried} edits tried");
}

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    let e = example::<HallowedEarth>("roadside.toml");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit); 5] = [
        ("not an open square", |v| {
            v["combatants"][0]["at"] = serde_json::json!([3, 1])
        }),
        ("bad id or side", |v| v["combatants"][1]["side"] = 9.into()),
        ("strength = 0 is outside", |v| v["blocks"][0]["abilities"][0] = 0.into()),
        ("names seat 7", |v| v["sides"][0]["seat"] = 7.into()),
        // A combatant's own seat must be one of the setup's seats.
        ("combatant 'oda' names seat 9, which does not exist", |v| {
            v["combatants"][0]["seat"] = 9.into()
        }),
    ];
    for (says, edit) in cases {
        let mut v = serde_json::to_value(&e.setup).expect("serialises");
        edit(&mut v);
        let setup = serde_json::from_value(v).expect("still a setup");
        match HallowedEarth::new_state(&setup, &e.options) {
            Err(EngineError::Invalid(m)) => assert!(m.contains(says), "{says}: {m}"),
            other => panic!("{says}: {other:?}"),
        }
    }
}
