//! GM rulings are the engine's shared vocabulary (`fray_engine::gm`) plus Thrum's own
//! (`status`, `incapacitate`, `revive`): records written before the shared vocabulary keep
//! reading and writing byte for byte, every ruling prints back in the form it is read, and a bad
//! ruling is refused with Thrum's sentence.

use crate::common;
use common::*;
use fray_engine::gm::Adjust;
use fray_engine::text::TextRuleset;
use fray_space::Pos;
use fray_thrum::Thrum;
use fray_thrum::ability::{Cond, XStatus};
use fray_thrum::command::{Command, Gauge, Ruling, ThrumRuling};
use fray_thrum::state::StatusRef;

/// Ann (a PC) and an ogre, placed.
fn table() -> T {
    T::new(
        &enc(
            &[". . . . . .", "s s . . . ."],
            &format!("{}{}", who("ann", "pcs", "0,1", ""), who("ogre", "npcs", "5,1", "")),
        ),
        &[6, 6, 1, 1],
    )
}

#[test]
fn every_kind_of_ruling_keeps_its_json_byte_for_byte() {
    // The JSON of each kind of ruling as records stored it before the shared vocabulary.
    let cases: Vec<(&str, Ruling)> = vec![
        (
            r#"{"Gm":{"Adjust":{"who":1,"gauge":"Fatigue","by":{"Add":-2}}}}"#,
            Ruling::Adjust {
                who: 1,
                gauge: Gauge::Fatigue,
                by: Adjust::Add(-2),
            },
        ),
        (
            r#"{"Gm":{"Adjust":{"who":0,"gauge":"StressTolerance","by":{"Set":3}}}}"#,
            Ruling::Adjust {
                who: 0,
                gauge: Gauge::StressTolerance,
                by: Adjust::Set(3),
            },
        ),
        (
            r#"{"Gm":{"Status":{"who":0,"status":{"X":"bleed"},"by":{"Set":2}}}}"#,
            Ruling::Other(ThrumRuling::Status {
                who: 0,
                status: StatusRef::X(XStatus::Bleed),
                by: Adjust::Set(2),
            }),
        ),
        (
            r#"{"Gm":{"Status":{"who":1,"status":{"Cond":"dazed"},"by":{"Add":1}}}}"#,
            Ruling::Other(ThrumRuling::Status {
                who: 1,
                status: StatusRef::Cond(Cond::Dazed),
                by: Adjust::Add(1),
            }),
        ),
        (
            r#"{"Gm":{"Incapacitate":{"who":3,"on":true}}}"#,
            Ruling::Other(ThrumRuling::Incapacitate { who: 3, on: true }),
        ),
        (
            r#"{"Gm":{"Incapacitate":{"who":0,"on":false}}}"#,
            Ruling::Other(ThrumRuling::Incapacitate { who: 0, on: false }),
        ),
        (
            r#"{"Gm":{"Move":{"who":1,"to":[4,0]}}}"#,
            Ruling::Move {
                who: 1,
                to: Pos { x: 4, y: 0 },
            },
        ),
        (
            r#"{"Gm":{"Add":{"id":"g2","template":"goblin","side":1,"at":[2,3]}}}"#,
            Ruling::Add {
                id: "g2".into(),
                template: "goblin".into(),
                side: 1,
                at: Pos { x: 2, y: 3 },
            },
        ),
        (r#"{"Gm":{"Remove":{"who":2}}}"#, Ruling::Remove { who: 2 }),
        (r#"{"Gm":{"End":{"winner":null}}}"#, Ruling::End { winner: None }),
        (r#"{"Gm":{"End":{"winner":0}}}"#, Ruling::End { winner: Some(0) }),
    ];
    for (json, ruling) in cases {
        let read: Command = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(read, Command::Gm(ruling), "{json}");
        assert_eq!(serde_json::to_string(&read).unwrap(), json);
    }
}

#[test]
fn every_ruling_prints_back_in_the_form_it_is_read() {
    let t = table();
    for text in [
        "gm set ann fatigue +2",
        "gm set ogre stress-tolerance =1",
        "gm set ann initiative -3",
        "gm status ogre bleed =2",
        "gm status ann dazed +1",
        "gm incapacitate ogre",
        "gm revive ann",
        "gm move ann 2,0",
        "gm add ogre2 brute npcs 3,0",
        "gm remove ogre",
        "gm end pcs",
        "gm end none",
    ] {
        let c = Thrum::parse_command(t.s(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(Thrum::format_command(t.s(), &c), text);
    }
    // The other accepted forms: gauge abbreviations, on/off, a draw, upper-case words.
    for (text, canonical) in [
        ("gm set ann ft =2", "gm set ann fatigue-tolerance =2"),
        ("gm set ann st +1", "gm set ann stress-tolerance +1"),
        ("gm status ann dazed on", "gm status ann dazed =1"),
        ("gm status ann dazed off", "gm status ann dazed =0"),
        ("gm end draw", "gm end none"),
        ("gm end", "gm end none"),
        ("GM END PCS", "gm end pcs"),
    ] {
        let c = Thrum::parse_command(t.s(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(Thrum::format_command(t.s(), &c), canonical, "{text}");
    }
}

#[test]
fn a_bad_ruling_is_refused_with_thrums_sentence() {
    let t = table();
    for (text, says) in [
        (
            "gm",
            "expected a ruling: set, status, incapacitate, revive, move, add, remove or end",
        ),
        (
            "gm heal ann",
            "unknown ruling 'heal': expected set, status, incapacitate, revive, move, add, remove or end",
        ),
        ("gm set zed fatigue +1", "no combatant 'zed' (known: ann, ogre)"),
        (
            "gm set ann mana +1",
            "'mana' cannot be set: expected fatigue, stress, fatigue-tolerance, stress-tolerance, wounds, initiative, mark or scouted",
        ),
        ("gm set ann fatigue 2", "'2' is not a change: expected +N, -N or =N"),
        ("gm move ann here", "'here' is not a square: expected x,y such as 3,4"),
        ("gm add o2 brute elves 1,1", "no side 'elves'"),
        ("gm end elves", "no side 'elves'"),
        ("gm remove ann now", "unexpected 'now' at the end of the ruling"),
        ("gm status ann", "expected a status or condition"),
        ("gm status ann glowing on", "'glowing' is not a status or condition"),
        ("gm status ann dazed", "expected +N, -N, =N, on or off"),
        (
            "gm status ann dazed maybe",
            "'maybe' is not a change: expected +N, -N, =N, on or off",
        ),
        (
            "gm status ann dazed on now",
            "unexpected 'now' at the end of the ruling",
        ),
        ("gm revive", "expected a combatant id"),
        ("gm incapacitate ann ogre", "unexpected 'ogre' at the end of the ruling"),
    ] {
        let e = Thrum::parse_command(t.s(), text).expect_err(text);
        assert_eq!(e.reason, says, "{text}");
        assert_eq!(e.code, fray_engine::Reject::UNKNOWN_COMMAND, "{text}");
    }
}
