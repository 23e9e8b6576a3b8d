//! A record is untrusted input: `new_state` names what is wrong in an edited setup, and `check`
//! refuses commands whose indices name nothing (that every record replays and that edited records never panic is the shared conformance
//! suite's, crates/rulesets/tests/it/suite.rs).

use fray_engine::{EngineError, Game, Ruleset, Seat};
use fray_ingenuity::Ingenuity;

use crate::examples;
use examples::load;

/// The setup of the ambush example as JSON, edited by `edit`, checked by `new_state`.
fn edited_setup(edit: impl FnOnce(&mut serde_json::Value)) -> Result<(), String> {
    let (setup, options) = load("ambush.toml");
    let mut v = serde_json::to_value(&setup).expect("serialises");
    edit(&mut v);
    let setup: fray_ingenuity::setup::Setup = serde_json::from_value(v).map_err(|e| format!("json: {e}"))?;
    match Ingenuity::new_state(&setup, &options) {
        Ok(_) => Ok(()),
        Err(EngineError::Invalid(m)) => Err(m),
        Err(e) => panic!("not an Invalid error: {e}"),
    }
}

/// One edit of a setup's JSON.
type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;

#[test]
fn new_state_names_what_is_wrong_in_an_edited_setup() {
    assert_eq!(edited_setup(|_| {}), Ok(()));
    let cases: [(&str, Edit); 8] = [
        ("team 9 does not exist", Box::new(|v| v["chars"][0]["team"] = 9.into())),
        (
            "seat 40 does not exist",
            Box::new(|v| v["chars"][0]["seat"] = 40.into()),
        ),
        (
            "an item index",
            Box::new(|v| v["chars"][0]["start"]["items"][0] = 5000.into()),
        ),
        (
            "armour 77 does not exist",
            Box::new(|v| v["chars"][1]["armour"] = 77.into()),
        ),
        (
            "opening action names combatant 99",
            Box::new(|v| v["opening"]["who"] = 99.into()),
        ),
        (
            "not an open square",
            Box::new(|v| v["chars"][0]["at"] = serde_json::json!([300, 0])),
        ),
        ("the team order names team 5", Box::new(|v| v["order"][0] = 5.into())),
        (
            "dice are d4",
            Box::new(|v| v["chars"][0]["stats"]["attrs"][0] = 7.into()),
        ),
    ];
    for (want, edit) in cases {
        let got = edited_setup(edit).expect_err(want);
        assert!(got.contains(want), "wanted '{want}' in '{got}'");
    }
}

#[test]
fn check_refuses_commands_with_indices_that_name_nothing() {
    use fray_ingenuity::command::{Action, Adjust, Command, Ruling};
    use fray_ingenuity::state::{Readied, ReadyAction, Trigger};
    let (setup, options) = load("ambush.toml");
    let game = Game::<Ingenuity>::new_seeded(setup, options, 1).expect("starts");
    let mut s = game.state().clone();
    // Give the archer a turn so actions are checked as actions.
    s.turn = Some(fray_ingenuity::state::Turn { who: 4, opening: false });
    s.chars[4].econ.actions = 3;
    let nobody = 999;
    for c in [
        Command::Pick(nobody),
        Command::Intercept(nobody),
        Command::Parry(200),
        Command::Block(200),
        Command::Act(Action::Resuscitate(nobody)),
        Command::Act(Action::Kill {
            target: nobody,
            slot: 0,
        }),
        Command::Act(Action::Attack {
            target: nobody,
            slot: 0,
            attr: fray_ingenuity::data::Attr::Dex,
            prof: None,
        }),
        Command::Act(Action::Command {
            ally: nobody,
            action: Box::new(Action::StandUp),
        }),
        Command::Act(Action::Ready(Readied {
            action: ReadyAction::Attack {
                target: Some(nobody),
                slot: 0,
            },
            trigger: Trigger::Turn,
        })),
        Command::Act(Action::PickUp(400)),
        Command::Act(Action::Drop(200)),
        Command::Act(Action::Reload(200)),
        Command::Gm(Ruling::Durability(nobody, 0, Adjust::Set(1))),
        Command::Gm(Ruling::Set(0, "luck".into(), Adjust::Set(1))),
        Command::Gm(Ruling::End(Some(40))),
        Command::Gm(Ruling::Objective(40, None)),
        Command::Gm(Ruling::Objective(
            0,
            Some(fray_ingenuity::setup::Objective::Down { who: nobody }),
        )),
        Command::Gm(Ruling::Add {
            id: "x".into(),
            template: "none".into(),
            team: 40,
            at: "0,0".parse().expect("square"),
        }),
    ] {
        let stage = Ingenuity::pending(&s).expect("a decision").stage;
        assert!(
            Ingenuity::check(&s, &stage, Seat::GM, &c).is_err(),
            "{c:?} was accepted"
        );
    }
}
