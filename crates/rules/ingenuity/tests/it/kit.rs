//! Ingenuity on the engine's resolution kit: its frame events behind the kit's stack operations
//! (their JSON as records hold it), and its GM rulings read through the shared vocabulary
//! (`fray_engine::gm`) with its own words and verbs beside the shared ones.

use fray_dice::SeededDice;
use fray_engine::text::TextRuleset;
use fray_engine::{Cx, Game};
use fray_ingenuity::Ingenuity;
use fray_ingenuity::command::{Adjust, Command, Ruling};
use fray_ingenuity::state::{Frame, State};

use crate::examples;
use examples::load;

/// The ambush example at its first decision (teams `caravan` and `bandits`; hild carries a
/// buckler; the `bandit` template).
fn ambush() -> State {
    let (setup, options) = load("ambush.toml");
    Game::<Ingenuity>::new_seeded(setup, options, 1)
        .expect("starts")
        .state()
        .clone()
}

fn dodged(who: u16, used: u8) -> Frame {
    Frame::AfterDodge { who, used }
}

#[test]
fn the_kits_frame_operations_are_ingenuitys_frame_events() {
    let mut s = ambush();
    assert!(s.stack.is_empty());
    let mut out = Vec::new();
    let mut dice = SeededDice::new(0);
    let mut cx = Cx::<Ingenuity>::new(&mut s, &mut dice, &mut out);
    cx.push(dodged(0, 0)).expect("fits");
    cx.push(dodged(1, 0)).expect("fits");
    cx.update(dodged(1, 2));
    // Replacing a frame below the top leaves the top alone.
    cx.set_frame(0, dodged(2, 1));
    assert_eq!(cx.s.stack, vec![dodged(2, 1), dodged(1, 2)]);
    cx.pop();
    assert_eq!(cx.s.stack, vec![dodged(2, 1)]);
    // One depth limit: the kit's.
    while cx.depth() < 64 {
        cx.push(dodged(0, 0)).expect("fits");
    }
    let err = cx.push(dodged(0, 0)).expect_err("too deep");
    assert!(err.to_string().contains("beyond 64 frames"), "{err}");
    // The frame events keep the form records hold.
    let json: Vec<String> = out[..5]
        .iter()
        .map(|e| serde_json::to_string(e).expect("serialises"))
        .collect();
    assert_eq!(
        json,
        [
            r#"{"event":"push","frame":{"AfterDodge":{"who":0,"used":0}}}"#,
            r#"{"event":"push","frame":{"AfterDodge":{"who":1,"used":0}}}"#,
            r#"{"event":"update","frame":{"AfterDodge":{"who":1,"used":2}}}"#,
            r#"{"event":"set-frame","index":0,"frame":{"AfterDodge":{"who":2,"used":1}}}"#,
            r#"{"event":"pop"}"#,
        ]
    );
    assert!(
        out.iter().all(|e| Ingenuity::describe_event(&ambush(), e).is_none()),
        "frame events are bookkeeping, not log lines"
    );
}

#[test]
fn every_ruling_reads_back_as_it_is_written() {
    let s = ambush();
    for text in [
        "gm set hild health -3",
        "gm set orrin death-difficulty =12",
        "gm set marta focus +1",
        "gm durability hild buckler =2",
        "gm condition hild prone on",
        "gm condition hild prone off",
        "gm knockout orrin",
        "gm revive orrin",
        "gm kill archer",
        "gm move hild 1,1",
        "gm add bandit-3 bandit bandits 2,2",
        "gm remove archer",
        "gm end caravan",
        "gm end none",
        "gm objective bandits survive 3",
        "gm order bandits,caravan",
    ] {
        let c = Ingenuity::parse_command(&s, text).unwrap_or_else(|r| panic!("{text}: {}", r.reason));
        assert!(matches!(c, Command::Gm(_)), "{text}");
        assert_eq!(Ingenuity::format_command(&s, &c), text);
    }
}

#[test]
fn rulings_keep_their_json_form() {
    let s = ambush();
    let hild = s.find("hild").expect("hild");
    let c = Ingenuity::parse_command(&s, "gm set hild health -3").expect("reads");
    assert_eq!(c, Command::Gm(Ruling::Set(hild, "health".into(), Adjust::Add(-3))));
    let json = serde_json::to_string(&c).expect("serialises");
    assert_eq!(json, format!(r#"{{"Gm":{{"Set":[{hild},"health",{{"Add":-3}}]}}}}"#));
    let back: Command = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, c);
    let c = Ingenuity::parse_command(&s, "gm durability hild buckler =2").expect("reads");
    assert!(
        serde_json::to_string(&c)
            .expect("serialises")
            .ends_with(r#",{"Set":2}]}}"#)
    );
    let c = Ingenuity::parse_command(&s, "gm end none").expect("reads");
    assert_eq!(serde_json::to_string(&c).expect("serialises"), r#"{"Gm":{"End":null}}"#);
}

#[test]
fn rulings_that_do_not_read_say_why_with_the_engine_code() {
    let s = ambush();
    for (text, says) in [
        ("gm", "expected a ruling: set <id>"),
        ("gm frobnicate hild", "unknown ruling 'frobnicate'"),
        ("gm set hild luck +1", "cannot set 'luck'"),
        ("gm set hild health 3", "'3' is not a change"),
        ("gm set nobody health +1", "no combatant 'nobody'"),
        ("gm durability hild buckler 3", "'3' is not a change"),
        ("gm durability hild axe =1", "carries no 'axe'"),
        ("gm move hild here", "'here' is not a square"),
        ("gm add bandit-3 bandit elves 2,2", "no team 'elves'"),
        ("gm remove hild now", "unexpected 'now'"),
        ("gm end elves", "no team 'elves'"),
        ("gm knockout", "gm rulings: set <id>"),
        ("gm condition hild prone maybe", "on|off"),
        ("gm condition hild sleepy on", "unknown condition 'sleepy'"),
        ("gm objective bandits survive x", "survive N"),
        ("gm order bandits,elves", "no team 'elves'"),
    ] {
        let r = match Ingenuity::parse_command(&s, text) {
            Ok(c) => panic!("'{text}' read as {c:?}"),
            Err(r) => r,
        };
        assert_eq!(r.code, "unknown-command", "{text}");
        assert!(r.reason.contains(says), "{text}: {}", r.reason);
    }
}
