//! The optional chaos of combat (MUR-R55, MUR-R56): talk only through `say`, a bonus action,
//! and a declaration timer that table play keeps. The rules' side is tested here (what the
//! timer asks of the table, and the recorded `timed-out`); the clock itself is the `fray play`
//! test `murdham_chaos_timer_loses_a_late_turn` in the `fray` crate.

use fray_engine::Seat;
use fray_engine::text::TextRuleset;
use fray_murdham::Murdham;
use fray_murdham::codes;
use fray_murdham::command::Command;
use fray_murdham::state::Event;
use fray_testkit::Table;

const PCS: Seat = Seat(1);

fn enc(options: &str) -> String {
    format!(
        r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]
[options]
opener = "initiative"
{options}
[[zone]]
id = "a"
links = ["b"]
[[zone]]
id = "b"
[[side]]
id = "pcs"
seat = "players"
[[side]]
id = "foes"
seat = "gm"
[[combatant]]
id = "hero"
side = "pcs"
at = "a"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]
[[combatant]]
id = "brute"
side = "foes"
at = "b"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]
"#
    )
}

#[test]
fn mur_r56_a_player_turn_under_the_chaos_of_combat_has_a_timer_and_times_out_into_a_lost_turn() {
    let mut t = Table::<Murdham>::load(&enc("chaos = true\nchaos-seconds = 15"), &[], &[]);
    t.cmd("act hero");
    // The table is asked to keep a 15-second clock on the declaration, and to submit
    // `timed-out` when it runs out.
    assert_eq!(
        <Murdham as TextRuleset>::timer(t.state()),
        Some((15, Command::TimedOut))
    );
    let events = t.cmd("timed-out");
    assert!(
        events.contains(&Event::TurnLost {
            who: 0,
            timed_out: true
        }),
        "the lost turn is recorded as timed out: {events:?}"
    );
    assert!(t.log().iter().any(|l| l.contains("the turn is lost (timer)")));
    // The GM's characters are not on the clock.
    t.cmd("act brute");
    assert_eq!(<Murdham as TextRuleset>::timer(t.state()), None);
    t.assert_replays();
}

#[test]
fn mur_r56_the_timer_covers_only_the_declaration() {
    let mut t = Table::<Murdham>::load(&enc("chaos = true"), &[], &[]);
    t.cmd("act hero");
    // Once the turn is declared (a first step taken), resolving it has no clock.
    t.cmd("move a|b");
    assert_eq!(<Murdham as TextRuleset>::timer(t.state()), None);
    t.expect_rejection(PCS, "timed-out", codes::NOT_NOW);
}

#[test]
fn mur_r56_without_the_option_there_is_no_timer() {
    let mut t = Table::<Murdham>::load(&enc(""), &[], &[]);
    t.cmd("act hero");
    assert_eq!(<Murdham as TextRuleset>::timer(t.state()), None);
    t.expect_rejection(PCS, "timed-out", codes::NOT_NOW);
    assert!(!t.legal().iter().any(|c| c == "timed-out"));
}

#[test]
fn mur_r55_talk_is_a_bonus_action_and_the_prompt_says_so() {
    let mut t = Table::<Murdham>::load(&enc("chaos = true"), &[], &[]);
    t.cmd("act hero");
    let pending = <Murdham as fray_engine::Ruleset>::pending(t.state()).expect("a decision");
    let prompt = <Murdham as TextRuleset>::describe_pending(t.state(), &pending);
    assert!(prompt.contains("no talk but `say"), "{prompt}");
    t.cmd("say run for the gate");
    assert!(t.log().iter().any(|l| l.contains("says \"run for the gate\"")));
    assert_eq!(
        t.state().turn.as_ref().map(|x| x.actions),
        Some(1),
        "a bonus action is used"
    );
    t.cmd("say and keep low");
    // Both action slots are gone: no main action is left for an attack.
    assert_eq!(t.state().turn.as_ref().map(|x| x.actions), Some(0));
    t.expect_rejection(PCS, "say one more thing", codes::NO_ACTION);
    t.assert_replays();
}
