//! A record is untrusted input: a setup with an index out of range is refused by `new_state` (that every record replays and that edited records never panic is the shared conformance
//! suite's, crates/rulesets/tests/it/suite.rs).

use fray_engine::Ruleset;
use fray_thrum::Thrum;

use crate::examples;
use examples::load;

#[test]
fn new_state_refuses_a_setup_with_a_bad_index() {
    let (mut setup, options) = load("duel.toml");
    setup.chars[0].side = 200;
    match Thrum::new_state(&setup, &options) {
        Err(fray_engine::EngineError::Invalid(m)) => assert!(m.contains("side"), "{m}"),
        other => panic!("expected Invalid, got {:?}", other.map(|_| ())),
    }
}
