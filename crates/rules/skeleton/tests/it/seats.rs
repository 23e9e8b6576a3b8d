//! Seats of players' own: a combatant may name `seat = "<name>"`, and then every decision
//! about it goes to that seat, not to its side's. Two heroes of one side played by `ana` and
//! `ben`, against a rat of the GM's.

use fray_engine::conformance::{Config, run};
use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_engine::{EngineError, RandomLegal, Reject, Ruleset, Seat};
use fray_skeleton::Skeleton;
use fray_testkit::Table;

/// The side `party` (its own seat `party`) and the GM's `vermin`; Wren (ana's) and Brom
/// (ben's) of the party, the rat of the vermin.
const ENC: &str = r#"ruleset = "skeleton"
[map]
rows = [". . . . .", ". . . . .", ". . . . ."]
[[side]]
id = "party"
policy = "heuristic"
[[side]]
id = "vermin"
seat = "gm"
[[combatant]]
id = "wren"
side = "party"
seat = "ana"
at = "0,0"
health = 10
attack = 3
defence = 12
speed = 3
[[combatant]]
id = "brom"
side = "party"
seat = "ben"
at = "1,0"
health = 10
attack = 3
defence = 12
speed = 3
[[combatant]]
id = "rat"
side = "vermin"
at = "2,0"
health = 4
attack = 2
defence = 8
speed = 1
"#;

const PARTY: Seat = Seat(1);
const ANA: Seat = Seat(2);
const BEN: Seat = Seat(3);

/// The seats the pending decision names, by name.
fn asked(t: &Table<Skeleton>) -> Vec<String> {
    let p = t.game.pending().expect("a decision");
    p.seats.iter().map(|s| Skeleton::seat_name(t.state(), s)).collect()
}

#[test]
fn each_heros_turn_and_defence_go_to_its_players_seat() {
    // Initiative: wren 6 + 3, brom 5 + 3, rat 1 + 1.
    let mut t = Table::<Skeleton>::load(ENC, &[], &[6, 5, 1]);
    assert_eq!(t.state().setup.seats, ["gm", "party", "ana", "ben"]);
    assert_eq!(asked(&t), ["ana"]);
    // Ben cannot command ana's hero, nor the party's own seat.
    let r = t.expect_rejection(BEN, "end", Reject::NOT_YOUR_DECISION);
    assert_eq!(r.reason, format!("the game is waiting for {ANA} to decide (turn)"));
    t.expect_rejection(PARTY, "end", Reject::NOT_YOUR_DECISION);
    t.type_as(ANA, "end");
    // Brom's turn is ben's: ana is refused, naming whose decision it is.
    assert_eq!(asked(&t), ["ben"]);
    let r = t.expect_rejection(ANA, "move 1,1", Reject::NOT_YOUR_DECISION);
    assert!(r.reason.contains(&BEN.to_string()), "{}", r.reason);
    t.type_as(BEN, "end");
    // The rat is the GM's; its attack on brom is answered by ben, brom's player.
    t.type_as(Seat::GM, "attack brom");
    assert_eq!(
        (t.game.pending().map(|p| p.kind()), asked(&t)),
        (Some("defence"), vec!["ben".to_string()])
    );
    t.expect_rejection(ANA, "dodge", Reject::NOT_YOUR_DECISION);
    t.expect_rejection(Seat::GM, "dodge", Reject::NOT_YOUR_DECISION);
    // d20 3 + 2 = 5 misses brom's 12 + 2.
    t.dice(&[3]).type_as(BEN, "dodge");
    assert_eq!(t.log(), ["d20 3 + 2 = 5 against defence 14 (dodging): miss"]);
    t.type_as(Seat::GM, "end");
    // Round 2: wren first again, for ana.
    assert_eq!((t.state().round, asked(&t)), (2, vec!["ana".to_string()]));
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn the_shared_view_gives_each_combatant_its_own_seat() {
    let t = Table::<Skeleton>::load(ENC, &[], &[6, 5, 1]);
    for seat in [Seat::GM, ANA, BEN] {
        let v = Skeleton::seat_view(t.state(), seat);
        let seats: Vec<(&str, &str)> = v.combatants.iter().map(|c| (c.id.as_str(), c.seat.as_str())).collect();
        assert_eq!(seats, [("wren", "ana"), ("brom", "ben"), ("rat", "gm")]);
    }
    let s = t.state();
    assert_eq!((s.seat_of(0), s.seat_of(1), s.seat_of(2)), (ANA, BEN, Seat::GM));
}

#[test]
fn seats_of_their_own_are_reported_to_simulations_after_the_sides() {
    use fray_engine::Summarize;
    let t = Table::<Skeleton>::load(ENC, &[], &[6, 5, 1]);
    let seats: Vec<(String, Option<String>)> = Skeleton::seats(t.state())
        .into_iter()
        .map(|p| (p.name, p.policy))
        .collect();
    assert_eq!(
        seats,
        [
            ("party".to_string(), Some("heuristic".to_string())),
            ("gm".to_string(), None),
            ("ana".to_string(), None),
            ("ben".to_string(), None),
        ]
    );
}

#[test]
fn a_fight_with_seats_of_their_own_passes_the_conformance_suite() {
    let (setup, options) = fray_skeleton::setup::load(&SourceFile {
        name: "seats.toml".into(),
        text: ENC.into(),
    })
    .expect("loads");
    let config = Config {
        seeds: 0..40,
        ..Config::default()
    };
    let report =
        run::<Skeleton>(&setup, &options, &config, |_| Skeleton::heuristic()).unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(report.playouts, 40);
    run::<Skeleton>(&setup, &options, &config, |_| Box::new(RandomLegal::<Skeleton>::new()))
        .unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn a_record_naming_a_seat_that_does_not_exist_is_refused() {
    let (setup, options) = fray_skeleton::setup::load(&SourceFile {
        name: "seats.toml".into(),
        text: ENC.into(),
    })
    .expect("loads");
    let mut v = serde_json::to_value(&setup).expect("serialises");
    assert_eq!(v["combatants"][1]["seat"], 3);
    assert!(
        v["combatants"][2].get("seat").is_none(),
        "the rat's seat is its side's: not written"
    );
    v["combatants"][1]["seat"] = 4.into();
    let edited = serde_json::from_value(v).expect("still a setup");
    match Skeleton::new_state(&edited, &options) {
        Err(EngineError::Invalid(m)) => assert_eq!(m, "combatant 'brom' names seat 4, which does not exist"),
        other => panic!("{other:?}"),
    }
}
