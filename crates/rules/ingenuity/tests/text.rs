//! The text layer: which typed lines are unreadable (the engine-wide `unknown-command`) and
//! which are commands the rules refuse; the battlefield map, the tracker and the JSON view.

mod common;
use common::*;
use fray_engine::text::TextRuleset;
use fray_ingenuity::Ingenuity;

fn duel() -> String {
    enc(
        &[". . . . . .", ". . . . . ."],
        &format!(
            "{}{}",
            who(
                "hero",
                "pcs",
                "0,0",
                "items = [\"spear\", \"shield\"]\nheld = [\"shield\"]"
            ),
            who("foe", "foes", "1,0", "items = [\"spear\"]"),
        ),
    )
}

/// The refusal of a line that does not parse.
fn unreadable(t: &T, text: &str) -> fray_engine::Reject {
    match Ingenuity::parse_command(t.s(), text) {
        Ok(c) => panic!("'{text}' parsed as {c:?}"),
        Err(r) => r,
    }
}

#[test]
fn text_that_is_not_a_command_is_unreadable_with_the_engine_code() {
    let t = T::new(&duel());
    for line in [
        "blah",
        "gm frobnicate",
        "gm set hero luck +1",
        "pick nobody",
        "move 3",
        "attack",
        "intercept",
        "",
    ] {
        let r = unreadable(&t, line);
        assert_eq!(r.code, "unknown-command", "'{line}': {}", r.reason);
        assert!(r.is_unreadable(), "'{line}'");
    }
    let mut t = T::turn_of(&duel(), "hero");
    for line in ["attack nobody", "brandish sword", "attack foe with axe", "step here"] {
        assert_eq!(unreadable(&t, line).code, "unknown-command", "'{line}'");
    }
    // A readable command the rules refuse keeps its own code and kind.
    let r = t.reject("stand");
    assert_eq!(r.code, "not-now");
    assert!(!r.is_unreadable());
}

#[test]
fn commands_the_rules_refuse_parse_and_are_refused_by_check() {
    let mut t = T::new(&duel());
    // An action before any turn has begun: the turn must begin first.
    let r = t.reject("attack foe");
    assert_eq!(r.code, "not-now");
    assert!(r.reason.contains("no turn has begun"), "{}", r.reason);
    // Parry and block with no attack to meet.
    t.cmd("pick hero");
    assert_eq!(t.reject("parry spear").code, "not-now");
    assert_eq!(t.reject("block shield").code, "not-now");
    // An attack with nothing in hand that can attack: no-weapon, a rule refusal.
    let r = t.reject("attack foe");
    assert_eq!(r.code, "no-weapon");
    assert!(!r.is_unreadable());
    assert_eq!(t.reject("ready attack when approach").code, "no-weapon");
    assert!(!t.reject("kill foe").is_unreadable());
}
