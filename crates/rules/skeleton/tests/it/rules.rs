//! Rule tests: tiny encounters, scripted dice, commands typed as a player would, through the
//! test kit's `Table`. Each test names the rules it checks (`skl_r5_...`, or `// SKL-R5`).

use fray_engine::{Reject, Seat};
use fray_skeleton::Skeleton;
use fray_skeleton::codes;
use fray_skeleton::state::Event;
use fray_testkit::Table;

/// A 5 × 3 yard (a wall at 2,1), sides `red` and `blue` (each its own seat), and `rest`.
fn enc(rest: &str) -> String {
    format!(
        r#"ruleset = "skeleton"
[map]
rows = [". . . . .", ". . x . .", ". . . . ."]
[[side]]
id = "red"
[[side]]
id = "blue"
[template.guard]
health = 5
attack = 1
defence = 10
speed = 2
{rest}"#
    )
}

/// A combatant table: health 10, attack 3, defence 12, speed 3, unless `extra` sets them.
fn who(id: &str, side: &str, at: &str, extra: &str) -> String {
    let defaults = [("health", 10), ("attack", 3), ("defence", 12), ("speed", 3)];
    let stats: String = defaults
        .iter()
        .filter(|(k, _)| !extra.contains(&format!("{k} =")))
        .map(|(k, v)| format!("{k} = {v}\n"))
        .collect();
    format!("[[combatant]]\nid = \"{id}\"\nside = \"{side}\"\nat = \"{at}\"\n{stats}{extra}\n")
}

const RED: Seat = Seat(1);

#[test]
fn skl_r1_initiative_is_d6_plus_speed_once_highest_first_ties_in_encounter_order() {
    let toml = enc(&[
        who("ash", "red", "0,0", ""),
        who("bo", "blue", "4,0", "speed = 4"),
        who("cy", "red", "0,2", "speed = 2"),
    ]
    .concat());
    // ash 4 + 3 = 7, bo 3 + 4 = 7, cy 6 + 2 = 8.
    let t = Table::<Skeleton>::load(&toml, &[], &[4, 3, 6]);
    assert!(
        t.log().contains(&"Round 1 (order: cy, ash, bo)".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().and_then(|p| p.actor()), Some(2));
    t.assert_replays();
}

#[test]
fn skl_r2_r5_r6_a_dodge_raises_defence_once_a_round_and_is_not_asked_again() {
    let toml = enc(&[
        who("ash", "red", "1,0", ""),
        who("bo", "blue", "2,0", ""),
        who("cy", "red", "3,0", ""),
    ]
    .concat());
    // ash 5 + 3 = 8, bo 1 + 3 = 4, cy 3 + 3 = 6: ash, cy, bo.
    let mut t = Table::<Skeleton>::load(&toml, &[], &[5, 1, 3]);
    t.cmd("attack bo");
    let p = t.game.pending().expect("a decision");
    assert_eq!(
        (p.kind(), p.first(), t.seat_name()),
        ("defence", Seat(2), "blue".to_string())
    );
    assert_eq!(t.legal(), ["dodge", "take"]);
    // SKL-R6: d20 11 + 3 = 14 against 12 + 2 (dodging) hits; d6 4 damage.
    t.dice(&[11, 4]).cmd("dodge");
    assert_eq!(
        t.log(),
        [
            "d20 11 + 3 = 14 against defence 14 (dodging): hit",
            "bo takes 4 damage: health 6"
        ]
    );
    t.cmds(&["end"]);
    // SKL-R5: bo has dodged this round, so cy's attack is rolled at once: 8 + 3 = 11 misses 12.
    t.dice(&[8]).cmd("attack bo");
    assert!(
        t.log().contains(&"d20 8 + 3 = 11 against defence 12: miss".to_string()),
        "{:?}",
        t.log()
    );
    assert_eq!(t.game.pending().map(|p| p.kind()), Some("turn"));
    t.expect_rejection(RED, "dodge", codes::NOT_NOW);
    // SKL-R2: once everyone has had a turn the next round begins, and dodges come back.
    t.cmds(&["end", "end", "attack bo"]);
    assert_eq!(t.state().round, 2);
    assert_eq!(t.legal(), ["dodge", "take"]);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn skl_r3_r4_refused_moves_and_attacks_change_nothing() {
    let toml = enc(&[
        who("ash", "red", "0,1", ""),
        who("bo", "blue", "4,2", ""),
        who("cy", "red", "0,0", ""),
    ]
    .concat());
    let mut t = Table::<Skeleton>::load(&toml, &[], &[6, 1, 1]);
    t.expect_rejection(RED, "move 2,1", codes::BLOCKED); // the wall
    t.expect_rejection(RED, "move 0,0", codes::BLOCKED); // cy stands there
    t.expect_rejection(RED, "move 4,1", codes::TOO_FAR); // 4 squares, speed 3
    t.expect_rejection(RED, "attack bo", codes::NOT_ADJACENT);
    t.expect_rejection(RED, "attack cy", codes::BAD_TARGET); // an ally
    assert_eq!(t.reject_as(RED, "fly 2,2").code, Reject::UNKNOWN_COMMAND);
    t.cmd("move 3,2"); // 3 squares: none left
    t.expect_rejection(RED, "move 3,1", codes::TOO_FAR);
    t.cmd("attack bo");
    t.expect_rejection(RED, "end", Reject::NOT_YOUR_DECISION); // blue decides now
    t.expect_rejection(Seat(2), "end", codes::NOT_NOW);
    t.assert_replays();
}

#[test]
fn gm_rulings_set_health_move_add_remove_and_end() {
    let toml = enc(&[who("ash", "red", "0,0", ""), who("bo", "blue", "4,0", "")].concat());
    let mut t = Table::<Skeleton>::load(&toml, &[], &[6, 1]);
    t.expect_rejection(RED, "gm set bo health -3", Reject::GM_ONLY);
    t.cmd("gm set bo health -3");
    assert_eq!(t.log(), ["Ruling: gm set bo health -3"]);
    t.expect_rejection(Seat::GM, "gm set bo health +993", codes::BAD_RULING);
    t.expect_rejection(Seat::GM, "gm move bo 2,1", codes::BAD_RULING); // the wall
    t.cmds(&["gm move bo 1,0", "gm add gus guard blue 4,2"]);
    let gus = t.state().find("gus").expect("gus joined");
    assert_eq!(t.state().ch(gus).health, 5);
    t.cmds(&["gm remove bo"]);
    assert!(t.state().outcome.is_none(), "gus is still in the fight");
    t.cmd("gm set gus health =0");
    assert_eq!(
        t.log(),
        [
            "Ruling: gm set gus health =0",
            "The combat ends: red win (last-side-standing)"
        ]
    );
    t.expect_rejection(Seat::GM, "gm end none", Reject::GAME_OVER);
    t.assert_replays();
    let mut t = Table::<Skeleton>::load(&toml, &[], &[6, 1]);
    t.cmd("gm end blue");
    assert_eq!(t.log(), ["Ruling: gm end blue: the combat ends, blue win (gm-ended)"]);
}

#[test]
fn skl_r7_r8_at_0_health_a_combatant_is_out_and_the_last_side_standing_wins() {
    let toml = enc(&[who("ash", "red", "0,0", ""), who("bo", "blue", "1,0", "health = 3")].concat());
    let mut t = Table::<Skeleton>::load(&toml, &[], &[6, 1]);
    t.cmd("attack bo");
    t.dice(&[20, 6]).cmd("take");
    assert!(matches!(t.last.last(), Some(Event::Ended { winner: Some(0) })));
    assert_eq!(t.state().ch(1).health, 0);
    assert!(t.game.pending().is_none());
    t.assert_replays();
}

trait SeatName {
    fn seat_name(&self) -> String;
}

impl SeatName for Table<Skeleton> {
    fn seat_name(&self) -> String {
        use fray_engine::text::TextRuleset;
        let seat = self.game.pending().map_or(Seat::GM, |p| p.first());
        Skeleton::seat_name(self.state(), seat)
    }
}

#[test]
fn the_map_the_tracker_and_the_odds_of_an_attack() {
    use fray_engine::text::TextRuleset;
    let toml = enc(&[who("ash", "red", "0,0", ""), who("bo", "blue", "1,0", "")].concat());
    let t = Table::<Skeleton>::load(&toml, &[], &[6, 1]);
    let now = "Round 1: ash's turn (3 of 3 movement left): move, attack or end\n";
    let map = "2 . . . . .\n1 . . # . .\n0 A B . . .\n  0 1 2 3 4\nKey: # blocked, A ash, B bo\n";
    assert_eq!(Skeleton::map(t.state(), RED), Some(format!("{now}{map}")));
    let tracker = "> ash (red): health 10/10 at 0,0\n  bo (blue): health 10/10 at 1,0\n";
    assert_eq!(Skeleton::tracker(t.state(), RED), format!("{now}{tracker}"));
    // SKL-R6: d20 + 3 reaches 12 on 12 faces of 20, and 12 + 2 (a dodge) on 10.
    let attack = t.parse("attack bo").expect("a command");
    assert_eq!(
        Skeleton::note(t.state(), &attack).as_deref(),
        Some("hit 60% (50% if it dodges)")
    );
    let args: Vec<String> = ["--attack", "3", "--defence", "12", "--dodge", "2"]
        .map(String::from)
        .to_vec();
    let (text, json) = Skeleton::odds(&args).expect("odds");
    assert_eq!(
        text,
        "d20 + 3 against defence 14: hit on 10 of 20 faces (50.0%), expected damage 1.750\n"
    );
    assert_eq!(
        (json["hit_faces"].as_u64(), json["expected_damage"].as_f64()),
        (Some(10), Some(1.75))
    );
    assert!(
        Skeleton::odds(&["--attack".to_string()])
            .unwrap_err()
            .contains("needs a value")
    );
}
