//! A record is untrusted input: a changed die face is noticed on replay, `new_state` names what
//! is wrong in an edited setup, and an edited blast aimed at nobody is refused (that every record replays and that edited records never panic is the shared conformance
//! suite's, crates/rulesets/tests/it/suite.rs).

use fray_dice::Prng;
use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, Game, Record, Ruleset, choose_first};
use fray_murdham::Murdham;
use fray_murdham::options::Options;
use fray_testkit::example;

/// An example played to the end by the built-in AI.
fn fight(name: &str, seed: u64) -> Game<Murdham> {
    let e = example::<Murdham>(name);
    let mut game = Game::<Murdham>::new_seeded(e.setup, e.options, seed).expect("starts");
    let (mut ai, mut rng) = (Murdham::heuristic(), Prng::for_stream(seed, 0));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    assert!(game.outcome().is_some(), "{name} ends");
    game
}

#[test]
fn a_record_with_a_changed_face_is_refused() {
    let game = fight("mill-ambush.toml", 7);
    let mut v: serde_json::Value = serde_json::from_str(&game.record().to_json()).expect("JSON");
    // The first face drawn after the start: a d20 save or a damage die. Another face changes
    // what the save or the hit does, and the replay must notice.
    let entries = v["entries"].as_array_mut().expect("entries");
    let face = entries
        .iter_mut()
        .find_map(|e| e["dice"].as_array_mut().filter(|d| !d.is_empty()))
        .map(|d| &mut d[0])
        .expect("some command drew a die");
    let first = face.as_u64().expect("a face");
    *face = if first == 1 { 2 } else { 1 }.into();
    let back = Record::<Murdham>::from_json(&v.to_string()).expect("still a record");
    assert!(Game::replay(&back).is_err(), "a changed face replayed");
}

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    // mill-ambush: 0 collector, 1 sergeant, 2 crossbow (escort, in the lane), 3 red-meg (in cover
    // behind the woodpile), 4 outlaw-1 (yard), 5 outlaw-2 (mill, in cover), 6 outlaw-3 (brook);
    // zones 0 lane, 1 yard, 2 mill, 3 woodpile, 4 brook.
    let e = example::<Murdham>("mill-ambush.toml");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit); 16] = [
        ("'collector' stands nowhere on the map", |v| {
            v["combatants"][0]["at"] = serde_json::json!({ "a": 9 })
        }),
        // The lane and the mill are not linked: no border between them.
        ("'sergeant' stands nowhere on the map", |v| {
            v["combatants"][1]["at"] = serde_json::json!({ "a": 0, "b": 2 })
        }),
        ("bad id or side", |v| v["combatants"][1]["side"] = 9.into()),
        ("STR, AGI and WIT are scores from 1 to 19", |v| {
            v["combatants"][2]["stats"]["abilities"][1] = 0.into()
        }),
        ("'crossbow' starts with health out of range", |v| {
            v["combatants"][2]["health"] = 99.into()
        }),
        ("unknown item 'halberd'", |v| {
            v["combatants"][3]["stats"]["wield"][0] = "halberd".into()
        }),
        ("unknown power 'hex'", |v| {
            v["combatants"][3]["stats"]["powers"] = serde_json::json!(["hex"])
        }),
        ("bare hands are not an item to hold or carry", |v| {
            v["combatants"][0]["stats"]["carry"] = serde_json::json!(["unarmed"])
        }),
        ("the item 'unarmed' (bare hands) is missing", |v| {
            v["items"].as_object_mut().expect("items").remove("unarmed");
        }),
        ("item 'shield': damage = 7", |v| {
            v["items"]["shield"]["damage"] = 7.into()
        }),
        ("power 'hex': a power needs damage or an effect", |v| {
            v["powers"] = serde_json::json!({ "hex": {
                "name": "hex", "damage": 0, "range": 0, "keywords": [],
                "effect": "none", "save": "wit", "dodge": false
            }})
        }),
        (
            "'outlaw-1' starts in cover, but the mill yard has no free cover spot",
            |v| v["combatants"][4]["cover"] = true.into(),
        ),
        (
            "does not fit: the border of the mill lane and the mill yard holds at most 2",
            |v| {
                for i in 0..3 {
                    v["combatants"][i]["at"] = serde_json::json!({ "a": 0, "b": 1 });
                }
            },
        ),
        ("template 'outlaw': unknown item 'halberd'", |v| {
            v["templates"]["outlaw"]["wield"][0] = "halberd".into()
        }),
        ("player-sides or initiative names a side", |v| {
            v["initiative"] = 7.into()
        }),
        ("player-sides or initiative names a side", |v| {
            v["player_sides"][0] = 7.into()
        }),
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
    // The options come with the setup in a record, and are checked as strictly as in a file.
    let options = Options {
        break_face: 0,
        ..e.options.clone()
    };
    match Murdham::new_state(&e.setup, &options) {
        Err(EngineError::Invalid(m)) => assert!(m.contains("break-face = 0 is outside 1..=20"), "{m}"),
        other => panic!("break-face = 0: {other:?}"),
    }
    assert!(
        Murdham::new_state(&e.setup, &e.options).is_ok(),
        "the example itself is good"
    );
}

/// A flask thrown at one large character (a blast aimed at a character, MUR-R58), then the AI
/// to the end: a record whose commands name a character by index in an attack with a blast.
fn flask_fight() -> Game<Murdham> {
    let text = "ruleset = \"murdham\"\ninitiative = \"a\"\n\
        [[zone]]\nid = \"yard\"\nlinks = [\"road\"]\n[[zone]]\nid = \"road\"\n\
        [[side]]\nid = \"a\"\n[[side]]\nid = \"b\"\n\
        [[combatant]]\nid = \"ann\"\nside = \"a\"\nat = \"road\"\nstr = 10\nagi = 10\nwit = 10\n\
        wield = [\"martial-hand\"]\ncarry = [\"alchemists-fire\"]\n\
        [[combatant]]\nid = \"ogre\"\nside = \"b\"\nat = \"yard\"\nstr = 9\nagi = 6\nwit = 5\nsize = \"large\"\n";
    let src = fray_engine::diag::SourceFile {
        name: "flask.toml".into(),
        text: text.into(),
    };
    let (setup, options) = fray_murdham::setup::load(&src).expect("loads");
    let mut game = Game::<Murdham>::new_seeded(setup, options, 5).expect("starts");
    for line in ["open a", "act ann", "attack ogre with alchemists-fire"] {
        let seat = Murdham::pending(game.state()).expect("a decision").first();
        let c = Murdham::parse_command(game.state(), line).expect("reads");
        game.submit(seat, c).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    let (mut ai, mut rng) = (Murdham::heuristic(), Prng::for_stream(5, 0));
    while let Some((seat, c)) = choose_first(&mut *ai, game.state(), &mut rng) {
        game.submit(seat, c).expect("the AI's command is accepted");
    }
    game
}

#[test]
fn an_edited_blast_aimed_at_nobody_is_refused_not_a_panic() {
    let tried =
        fray_engine::conformance::edited_records_never_panic::<Murdham>(&flask_fight().record().to_json(), 3_000)
            .unwrap_or_else(|e| panic!("{e}"));
    assert!(tried > 100, "only {tried} edits tried");
}
