//! Records of an earlier rules version that a later one still replays
//! ([`Ruleset::REPLAYS_VERSIONS`]): the later version plays them by the readings the earlier one
//! played by ([`Ruleset::earlier_options`]), compares their events with
//! [`Ruleset::same_as_earlier`], and hands back its own record of the same fight.

use fray_engine::{Cx, EngineError, Game, Outcome, Pending, Reject, Ruleset, Seat};
use serde::{Deserialize, Serialize};

/// A dice race to 10. Version 2 added a rule (a rolled 6 scores one more, `bonus`, on by
/// default; version 1 had no bonus) and the reason a turn passed (version 1 recorded none, 0).
struct Race;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Opts {
    bonus: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts { bonus: true }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
struct St {
    scores: [u8; 2],
    turn: u8,
    bonus: bool,
    /// Why the last turn passed; kept in the state, so the shadow of an earlier record must
    /// take the replayed reason where `same_as_earlier` matched a different one.
    why: u8,
    winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Roll,
    Hold,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Ev {
    Rolled(u8, u8),
    Passed(u8, u8),
    Won(u8),
}

/// The toy's decision: its kind and the combatant it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Asked {
    kind: &'static str,
    actor: Option<u16>,
}

impl fray_engine::Stage for Asked {
    fn kind(&self) -> &'static str {
        self.kind
    }
    fn actor(&self) -> Option<u16> {
        self.actor
    }
}

impl Ruleset for Race {
    const ID: &'static str = "race";
    const VERSION: &'static str = "2";
    const REPLAYS_VERSIONS: &'static [&'static str] = &["1"];
    type Options = Opts;
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Asked;

    fn new_state(_: &(), o: &Opts) -> Result<St, EngineError> {
        Ok(St {
            bonus: o.bonus,
            ..St::default()
        })
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Asked>> {
        s.winner.is_none().then(|| {
            Pending::one(
                Seat(s.turn + 1),
                Asked {
                    kind: "turn",
                    actor: None,
                },
            )
        })
    }
    fn is_ruling(_: &Cmd) -> bool {
        false
    }
    fn legal(_: &St, _: &Asked, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.extend(
            ([Cmd::Roll, Cmd::Hold])
                .into_iter()
                .map(|c| fray_engine::Answer::new(c, ())),
        );
    }
    fn check(_: &St, _: &Asked, _: Seat, _: &Cmd) -> Result<(), Reject> {
        Ok(())
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Asked, _: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        let p = cx.s.turn;
        match c {
            Cmd::Roll => {
                let r = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &"a race roll")?;
                let f = r.faces.as_slice()[0] as u8;
                let bonus = u8::from(f == 6 && cx.s.bonus);
                cx.emit(Ev::Rolled(p, f + bonus));
            }
            Cmd::Hold => cx.emit(Ev::Passed(p, 1)),
        }
        if cx.s.scores[p as usize] >= 10 {
            cx.emit(Ev::Won(p));
        }
        Ok(())
    }
    fn apply(s: &mut St, e: &Ev) {
        match e {
            Ev::Rolled(p, n) => {
                s.scores[*p as usize] += n;
                s.turn = 1 - s.turn;
            }
            Ev::Passed(_, why) => {
                s.why = s.why.max(*why);
                s.turn = 1 - s.turn;
            }
            Ev::Won(p) => s.winner = Some(*p),
        }
    }
    fn earlier_options(version: &str, options: &mut Opts) {
        if version == "1" {
            options.bonus = false;
        }
    }
    fn same_as_earlier(recorded: &Ev, replayed: &Ev) -> bool {
        match (recorded, replayed) {
            (Ev::Passed(a, 0), Ev::Passed(b, _)) => a == b,
            _ => recorded == replayed,
        }
    }
    fn outcome(s: &St) -> Option<Outcome> {
        s.winner.map(|w| Outcome {
            winner: Some(w),
            reason: "reached 10".into(),
        })
    }
    type View<'a> = &'a St;
    fn view(s: &St, _: Seat) -> &St {
        s
    }
}

/// What version 1 recorded for a fight of 6, hold, 6: no bonus, and passes without a reason.
fn version_one_record() -> fray_engine::Record<Race> {
    let faces = [6u16, 6];
    let mut g =
        Game::<Race>::new_with_dice((), Opts { bonus: false }, Box::new(fray_dice::ScriptedDice::new(faces))).unwrap();
    for (seat, c) in [(1, Cmd::Roll), (2, Cmd::Hold), (1, Cmd::Roll)] {
        g.submit(Seat(seat), c).unwrap();
    }
    let mut r = g.record().clone();
    r.version = "1".into();
    r.options = Opts::default(); // version 1 had no such option: a missing field reads as today's default
    for e in r.entries.iter_mut().flat_map(|e| e.events.iter_mut()) {
        if let Ev::Passed(_, why) = e {
            *why = 0;
        }
    }
    r
}

#[test]
fn an_earlier_record_replays_by_its_own_readings_and_becomes_this_versions_record() {
    let old = version_one_record();
    let game = Game::<Race>::replay(&old).expect("a version 1 record replays on version 2");
    // Played without the bonus, as version 1 played it: 6 + 6 for the first player.
    assert_eq!(game.state().scores, [12, 0]);
    let now = game.record();
    assert_eq!(now.version, "2");
    assert_eq!(now.options, Opts { bonus: false }, "the earlier readings stay in force");
    assert_eq!(now.entries[1].events, vec![Ev::Passed(1, 1)], "this version's events");
    // And it is a record of this version now: it replays as it is.
    assert_eq!(Game::<Race>::replay(now).unwrap().state(), game.state());
}

#[test]
fn an_earlier_record_still_fails_on_an_event_the_hook_does_not_match() {
    let mut old = version_one_record();
    old.entries[1].events[0] = Ev::Passed(0, 0);
    match Game::<Race>::replay(&old) {
        Err(EngineError::Diverged { at, .. }) => assert_eq!(at, "command 2"),
        other => panic!("{:?}", other.map(|g| g.state().clone())),
    }
    // Without the earlier readings the dice would not fit: a record of an unknown version is
    // refused outright.
    let mut unknown = version_one_record();
    unknown.version = "0".into();
    assert!(matches!(Game::<Race>::replay(&unknown), Err(EngineError::Invalid(_))));
}
