//! Records: a whole seeded fight replays to the same state, and a record is untrusted input: an
//! edited one is refused with what is wrong, or replays, but never panics.

use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, Game, Record, Ruleset, choose_first};
use fray_murdham::Murdham;
use fray_testkit::example;

/// The duel played to the end by the built-in AI.
fn duel(seed: u64) -> Game<Murdham> {
    let e = example::<Murdham>("duel.toml");
    let mut game = Game::<Murdham>::new_seeded(e.setup, e.options, seed).expect("starts");
    let (mut ai, mut rng) = (Murdham::heuristic(), Prng::for_stream(seed, 0));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    assert!(game.outcome().is_some(), "the duel ends");
    game
}

#[test]
fn a_whole_fight_replays_from_its_json_record() {
    let game = duel(7);
    let back = Record::<Murdham>::from_json(&game.record().to_json()).expect("reads back");
    assert_eq!(Game::replay(&back).expect("replays").state(), game.state());
}

#[test]
fn edited_records_never_panic() {
    let tried = fray_engine::conformance::edited_records_never_panic::<Murdham>(&duel(3).record().to_json(), 3_000)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(tried > 1_000, "only {tried} edits tried");
}

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    let e = example::<Murdham>("duel.toml");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit); 4] = [
        ("not an open square", |v| {
            v["combatants"][0]["at"] = serde_json::json!([3, 1])
        }),
        ("bad id or side", |v| v["combatants"][1]["side"] = 9.into()),
        ("health must be within", |v| {
            v["combatants"][0]["stats"]["health"] = 0.into()
        }),
        ("names seat 7", |v| v["sides"][0]["seat"] = 7.into()),
    ];
    for (says, edit) in cases {
        let mut v = serde_json::to_value(&e.setup).expect("serialises");
        edit(&mut v);
        let setup = serde_json::from_value(v).expect("still a setup");
        match Murdham::new_state(&setup, &e.options) {
            Err(EngineError::Invalid(m)) => assert!(m.contains(says), "{says}: {m}"),
            other => panic!("{says}: {other:?}"),
        }
    }
}
