//! A record is untrusted input: a changed die face is noticed on replay, and `new_state` names
//! what is wrong in an edited setup (that every record replays and that edited records never panic is the shared conformance
//! suite's, crates/rulesets/tests/it/suite.rs).

use fray_dice::Prng;
use fray_einfelst::Einfelst;
use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, Game, Record, Ruleset, choose_first};
use fray_testkit::example;

/// An example played to the end by the built-in AI.
fn fight(name: &str, seed: u64) -> Game<Einfelst> {
    let e = example::<Einfelst>(name);
    let mut game = Game::<Einfelst>::new_seeded(e.setup, e.options, seed).expect("starts");
    let (mut ai, mut rng) = (Einfelst::heuristic(), Prng::for_stream(seed, 0));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    assert!(game.outcome().is_some(), "{name} ends");
    game
}

#[test]
fn a_record_with_a_changed_face_is_refused() {
    let game = fight("tollwood.toml", 7);
    let mut v: serde_json::Value = serde_json::from_str(&game.record().to_json()).expect("JSON");
    // The first die of the opening ambush test (a Sneak die): a six where there was none, or
    // the other way round, changes the test's successes, and the replay must notice.
    let face = &mut v["start"]["dice"][0];
    let first = face.as_u64().expect("a face");
    *face = if first == 6 { 5 } else { 6 }.into();
    let back = Record::<Einfelst>::from_json(&v.to_string()).expect("still a record");
    assert!(Game::replay(&back).is_err(), "a changed face replayed");
}

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    let e = example::<Einfelst>("tollwood.toml");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit); 11] = [
        ("is in no zone of the map", |v| v["combatants"][0]["zone"] = 9.into()),
        ("has a bad id or side", |v| v["combatants"][1]["side"] = 9.into()),
        ("attributes are rated 0 to 6 and Actions 0 to 5", |v| {
            v["combatants"][0]["stats"]["attrs"][0] = 9.into()
        }),
        ("cards must be 1..=3", |v| {
            v["combatants"][0]["stats"]["cards"] = 0.into()
        }),
        ("unknown weapon 'halberd'", |v| {
            v["combatants"][2]["stats"]["weapons"][0] = "halberd".into()
        }),
        ("unknown spell 'hex'", |v| {
            v["combatants"][1]["stats"]["spells"][0] = "hex".into()
        }),
        ("no obstacle 'brambles'", |v| v["obstacles"] = serde_json::json!({})),
        ("need must be 1..=5", |v| v["obstacles"]["brambles"]["need"] = 0.into()),
        ("the ambush names no side", |v| v["ambush"]["side"] = 5.into()),
        ("roller is not on the ambushing side", |v| {
            v["ambush"]["roller"] = 0.into()
        }),
        ("player-sides names a side", |v| v["player_sides"][0] = 7.into()),
    ];
    for (says, edit) in cases {
        let mut v = serde_json::to_value(&e.setup).expect("serialises");
        edit(&mut v);
        let setup = serde_json::from_value(v).expect("still a setup");
        match Einfelst::new_state(&setup, &e.options) {
            Err(EngineError::Invalid(m)) => assert!(m.contains(says), "{says}: {m}"),
            other => panic!("{says}: {other:?}"),
        }
    }
}
