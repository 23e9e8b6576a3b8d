//! A record is untrusted input: `new_state` names what is wrong in an edited setup (that every record replays and that edited records never panic is the shared conformance
//! suite's, crates/rulesets/tests/it/suite.rs).

use fray_engine::{EngineError, Ruleset};
use fray_skeleton::Skeleton;
use fray_testkit::example;

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    let e = example::<Skeleton>("duel.toml");
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
        match Skeleton::new_state(&setup, &e.options) {
            Err(EngineError::Invalid(m)) => assert!(m.contains(says), "{says}: {m}"),
            other => panic!("{says}: {other:?}"),
        }
    }
}
