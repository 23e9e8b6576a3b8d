//! The table harness on a toy text ruleset (a dice race): scripted dice, commands typed by
//! seat, rejections checked by code with nothing changed, log lines and legal commands.

use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{Loaded, ReadFile, TextRuleset};
use fray_engine::{Cx, EngineError, FirstLegal, Outcome, Pending, Policy, Reject, Ruleset, Seat, SubmitError};
use fray_testkit::Table;
use serde::{Deserialize, Serialize};

/// Two players take turns: roll a d6 and add it, or hold. First to the target wins. The GM
/// may set a score.
struct Race;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
struct St {
    target: u8,
    scores: [u8; 2],
    turn: u8,
    winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Roll,
    Hold,
    SetScore(u8, u8),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Ev {
    Rolled(u8, u16),
    Passed(u8),
    Score(u8, u8),
    Won(u8),
}

/// The race's one decision: the player to move rolls or holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn;

impl fray_engine::Stage for Turn {
    fn kind(&self) -> &'static str {
        "turn"
    }
    fn actor(&self) -> Option<u16> {
        None
    }
}

impl Ruleset for Race {
    const ID: &'static str = "race";
    const VERSION: &'static str = "1";
    type Options = ();
    type Setup = u8;
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Turn;

    fn new_state(target: &u8, _: &()) -> Result<St, EngineError> {
        Ok(St {
            target: *target,
            ..St::default()
        })
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Turn>> {
        s.winner.is_none().then(|| Pending::one(Seat(s.turn + 1), Turn))
    }
    fn is_ruling(c: &Cmd) -> bool {
        matches!(c, Cmd::SetScore(..))
    }
    fn legal(_: &St, _: &Turn, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.push(fray_engine::Answer::new(Cmd::Roll, ()));
        out.push(fray_engine::Answer::new(Cmd::Hold, ()));
    }
    fn check(_: &St, _: &Turn, _: Seat, c: &Cmd) -> Result<(), Reject> {
        match c {
            Cmd::SetScore(p, _) if *p > 1 => Err(Reject::new("no-such-player", "players are 0 and 1")),
            _ => Ok(()),
        }
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Turn, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        match c {
            Cmd::Roll => {
                let r = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &"a race roll")?;
                let p = cx.s.turn;
                cx.emit(Ev::Rolled(p, r.faces.as_slice()[0]));
                if cx.s.scores[p as usize] >= cx.s.target {
                    cx.emit(Ev::Won(p));
                }
            }
            Cmd::Hold => {
                let p = cx.s.turn;
                cx.emit(Ev::Passed(p));
            }
            Cmd::SetScore(p, v) => cx.emit(Ev::Score(*p, *v)),
        }
        Ok(())
    }
    fn apply(s: &mut St, e: &Ev) {
        match e {
            Ev::Rolled(p, f) => {
                s.scores[*p as usize] += *f as u8;
                s.turn = 1 - s.turn;
            }
            Ev::Passed(_) => s.turn = 1 - s.turn,
            Ev::Score(p, v) => s.scores[*p as usize] = *v,
            Ev::Won(p) => s.winner = Some(*p),
        }
    }
    fn outcome(s: &St) -> Option<Outcome> {
        s.winner.map(|w| Outcome {
            winner: Some(w),
            reason: "reached the target".into(),
        })
    }
    type View<'a> = &'a St;
    fn view(s: &St, _: Seat) -> &St {
        s
    }
}

impl TextRuleset for Race {
    const EVENT_COMBATANTS: &'static [&'static str] = &["who"];
    const REJECTION_CODES: &'static [&'static str] = &["no-such-player"];

    /// The encounter is the target score.
    fn load(source: &SourceFile, _: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        let target = source
            .text
            .trim()
            .parse()
            .map_err(|_| vec![Diagnostic::at(source, 0, "expected a target score")])?;
        Ok(Loaded {
            setup: target,
            options: (),
            title: "race".into(),
        })
    }
    fn parse_command(_: &St, text: &str) -> Result<Cmd, Reject> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["roll"] => Ok(Cmd::Roll),
            ["hold"] => Ok(Cmd::Hold),
            ["gm", "set", p, v] => match (p.parse(), v.parse()) {
                (Ok(p), Ok(v)) => Ok(Cmd::SetScore(p, v)),
                _ => Err(Reject::unreadable("expected gm set PLAYER SCORE")),
            },
            _ => Err(Reject::unreadable("expected roll or hold")),
        }
    }
    fn format_command(_: &St, c: &Cmd) -> String {
        match c {
            Cmd::Roll => "roll".into(),
            Cmd::Hold => "hold".into(),
            Cmd::SetScore(p, v) => format!("gm set {p} {v}"),
        }
    }
    fn describe_event(s: &St, e: &Ev) -> Option<String> {
        match e {
            Ev::Rolled(p, f) => Some(format!("player {p} rolls {f} (now {})", s.scores[*p as usize])),
            Ev::Passed(_) => None,
            Ev::Score(p, v) => Some(format!("player {p} now has {v}")),
            Ev::Won(p) => Some(format!("player {p} wins")),
        }
    }
    fn describe_pending(s: &St, _: &Pending<Turn>) -> String {
        format!("player {}'s turn", s.turn)
    }
    fn seat_name(_: &St, seat: Seat) -> String {
        seat.0.to_string()
    }
    fn seat_by_name(_: &St, name: &str) -> Option<Seat> {
        name.parse().ok().map(Seat)
    }
    fn summary(s: &St) -> String {
        format!("{:?}", s.scores)
    }
    // No combatants: the players' scores are in the ruleset's own view.
    fn table(_: &St, _: Seat) -> fray_engine::view::Table {
        fray_engine::view::Table::default()
    }
    fn title(_: &St) -> String {
        "race".into()
    }
    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(FirstLegal::<Race>::new())
    }
}

#[test]
fn scripted_dice_drive_commands_typed_by_the_pending_seat() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    assert_eq!(t.legal(), ["roll", "hold"]);
    t.dice(&[5]).cmd("roll");
    assert_eq!(t.log(), ["player 0 rolls 5 (now 5)"]);
    t.cmd("hold");
    assert!(t.log().is_empty());
    t.dice(&[4]).cmd("roll");
    t.assert_dice_used();
    assert_eq!(t.log(), ["player 0 rolls 4 (now 9)", "player 0 wins"]);
    assert_eq!(t.state().winner, Some(0));
    assert_eq!(t.all_events().len(), 4);
    t.assert_replays();
}

#[test]
fn typed_commands_name_their_seat_and_gm_commands_go_to_the_gm() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    assert_eq!(t.seat_for("roll"), Seat(1));
    assert_eq!(t.seat_for("gm set 1 3"), Seat::GM);
    t.cmd("gm set 1 3");
    assert_eq!(t.state().scores, [0, 3]);
    t.type_as(Seat(1), "hold");
    let ev = t.submit(Seat(2), "hold").expect("player 1's turn");
    assert_eq!(ev, [Ev::Passed(1)]);
    assert!(matches!(t.submit(Seat(2), "hold"), Err(SubmitError::Rejected(_))));
    assert!(
        matches!(t.submit(Seat(1), "roll"), Err(SubmitError::Engine(_))),
        "no die was scripted"
    );
}

#[test]
fn a_rejection_is_checked_by_code_and_changes_nothing() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    let r = t.expect_rejection(Seat(2), "hold", "not-your-decision");
    assert!(!r.reason.is_empty());
    t.expect_rejection(Seat::GM, "gm set 2 1", "no-such-player");
    assert_eq!(t.reject("dance").code, "unknown-command");
    assert!(t.game.record().entries.is_empty());
}

#[test]
#[should_panic(expected = "refused for another reason")]
fn a_rejection_with_another_code_fails() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    t.expect_rejection(Seat::GM, "gm set 2 1", "not-your-decision");
}

#[test]
#[should_panic(expected = "was accepted")]
fn an_accepted_command_is_not_a_rejection() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    t.expect_rejection(Seat(1), "hold", "not-your-decision");
}

#[test]
#[should_panic(expected = "scripted dice left unused: [6]")]
fn unused_faces_fail_the_test() {
    let mut t = Table::<Race>::load("8", &[], &[]);
    t.dice(&[3, 6]).cmd("roll");
    t.assert_dice_used();
}

#[test]
#[should_panic(expected = "test.toml:1:1: error: expected a target score")]
fn a_bad_encounter_panics_with_its_diagnostics() {
    Table::<Race>::load("eight", &[], &[]);
}
