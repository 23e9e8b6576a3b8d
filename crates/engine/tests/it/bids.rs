//! The contracts the next rulesets need, on a toy game of secret bids: a decision with several
//! deciders who answer in any order, each once (the step resolves with the last answer), a
//! typed per-seat view, events redacted per seat until the reveal, policies that decide from
//! their seat's view, and the conformance suite's hidden-information check (which must catch a
//! ruleset that leaks).

use fray_dice::Prng;
use fray_engine::conformance::{Config, hidden_information, run};
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::text::{AnyGame, Loaded, ReadFile, TextGame, TextRuleset};
use fray_engine::{
    Cx, Decision, EngineError, Game, Outcome, Pending, Policy, RandomLegal, Reject, Ruleset, Seat, Seats, Shown,
    SubmitError,
};
use serde::{Deserialize, Serialize};

/// Two players bid 1 to 3 in secret each round; when both have bid, the bids are revealed and
/// the higher bid scores its value (a tie scores nothing). First to 6 points wins.
struct Bids;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
struct St {
    scores: [u8; 2],
    /// This round's bids, hidden from the other player until both are in.
    bids: [Option<u8>; 2],
    winner: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Cmd {
    Bid(u8),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Ev {
    /// Player `p` bid; `None` in the copy shown to the other player.
    Bid(u8, Option<u8>),
    Reveal([u8; 2]),
    Won(u8),
}

/// What one seat may know: the scores, its own bid, and only whether the other has bid.
#[derive(Serialize)]
struct View {
    scores: [u8; 2],
    mine: Option<u8>,
    other_has_bid: bool,
}

fn player(seat: Seat) -> Option<usize> {
    matches!(seat.0, 1 | 2).then(|| usize::from(seat.0 - 1))
}

/// The bids' resolution, shared by the leaking variants below.
fn bids_resolve<R: Ruleset<State = St, Event = Ev>>(
    cx: &mut Cx<'_, R>,
    seat: Seat,
    c: &Cmd,
) -> Result<(), EngineError> {
    let Cmd::Bid(b) = *c;
    let p = player(seat).ok_or_else(|| EngineError::Bug("a bid from a non-player".into()))?;
    cx.emit(Ev::Bid(p as u8, Some(b)));
    if let [Some(a), Some(b)] = cx.s.bids {
        cx.emit(Ev::Reveal([a, b]));
        if let Some(w) = (0..2u8).find(|&p| cx.s.scores[usize::from(p)] >= 6) {
            cx.emit(Ev::Won(w));
        }
    }
    Ok(())
}

/// The one decision: the players who have not bid yet bid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bid;

impl fray_engine::Stage for Bid {
    fn kind(&self) -> &'static str {
        "bid"
    }
    fn actor(&self) -> Option<u16> {
        None
    }
}

impl Ruleset for Bids {
    const ID: &'static str = "bids";
    const VERSION: &'static str = "1";
    type Options = ();
    type Setup = ();
    type State = St;
    type Command = Cmd;
    type Event = Ev;
    type Checked = ();
    type Stage = Bid;
    type View<'a> = View;
    const HIDDEN_INFORMATION: bool = true;

    fn new_state(_: &(), _: &()) -> Result<St, EngineError> {
        Ok(St::default())
    }
    fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
        Ok(())
    }
    fn pending(s: &St) -> Option<Pending<Bid>> {
        if s.winner.is_some() {
            return None;
        }
        let seats: Seats = (0..2u8)
            .filter(|&p| s.bids[usize::from(p)].is_none())
            .map(|p| Seat(p + 1))
            .collect();
        Some(Pending { seats, stage: Bid })
    }
    fn is_ruling(_: &Cmd) -> bool {
        false
    }
    fn legal(_: &St, _: &Bid, _: Seat, out: &mut Vec<fray_engine::Answer<Self>>) {
        out.extend((1..=3).map(|b| fray_engine::Answer::new(Cmd::Bid(b), ())));
    }
    fn check(s: &St, _: &Bid, seat: Seat, c: &Cmd) -> Result<(), Reject> {
        let Cmd::Bid(b) = c;
        let Some(p) = player(seat) else {
            return Err(Reject::new("not-a-player", "only players bid"));
        };
        if s.bids[p].is_some() {
            return Err(Reject::new("already-bid", "this seat has already bid this round"));
        }
        if !(1..=3).contains(b) {
            return Err(Reject::new("bad-bid", "a bid is 1, 2 or 3"));
        }
        Ok(())
    }
    fn resolve(cx: &mut Cx<'_, Self>, _: &Bid, seat: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
        bids_resolve(cx, seat, c)
    }
    fn apply(s: &mut St, e: &Ev) {
        match *e {
            Ev::Bid(p, b) => s.bids[usize::from(p)] = b.or(Some(0)),
            Ev::Reveal([a, b]) => {
                if a > b {
                    s.scores[0] += a;
                } else if b > a {
                    s.scores[1] += b;
                }
                s.bids = [None, None];
            }
            Ev::Won(p) => s.winner = Some(p),
        }
    }
    fn outcome(s: &St) -> Option<Outcome> {
        s.winner.map(|w| Outcome {
            winner: Some(w),
            reason: "reached 6".into(),
        })
    }
    fn view(s: &St, seat: Seat) -> View {
        let me = player(seat);
        View {
            scores: s.scores,
            mine: me.and_then(|p| s.bids[p]),
            other_has_bid: me.is_some_and(|p| s.bids[1 - p].is_some()),
        }
    }
    fn hides_from(s: &St, seat: Seat) -> bool {
        player(seat).is_some_and(|p| s.bids[1 - p].is_some())
    }
    /// The other player's bid stands as 0: it has bid, nobody knows what.
    fn seen(s: &St, seat: Seat) -> std::borrow::Cow<'_, St> {
        if !Self::hides_from(s, seat) {
            return std::borrow::Cow::Borrowed(s);
        }
        let mut v = s.clone();
        if let Some(p) = player(seat) {
            v.bids[1 - p] = Some(0);
        }
        std::borrow::Cow::Owned(v)
    }
    fn redact(_: &St, seat: Seat, e: &Ev) -> Shown<Ev> {
        match *e {
            Ev::Bid(p, _) if !seat.is_gm() && player(seat) != Some(usize::from(p)) => Shown::As(Ev::Bid(p, None)),
            _ => Shown::All,
        }
    }
    fn redact_command(_: &St, seat: Seat, _: &Cmd) -> Shown<Cmd> {
        // Only the bidder's seat is asked, so any other seat is shown no bid at all.
        if seat.is_gm() { Shown::All } else { Shown::Nothing }
    }
    fn indistinguishable(s: &St, seat: Seat, out: &mut Vec<St>) {
        let Some(p) = player(seat) else { return };
        if let Some(theirs) = s.bids[1 - p] {
            for b in (1..=3).filter(|&b| b != theirs) {
                let mut v = s.clone();
                v.bids[1 - p] = Some(b);
                out.push(v);
            }
        }
    }
}

impl TextRuleset for Bids {
    const EVENT_COMBATANTS: &'static [&'static str] = &["who"];
    fn load(source: &SourceFile, _: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
        Err(vec![Diagnostic::at(source, 0, "bids has no encounter files")])
    }
    fn parse_command(_: &St, text: &str) -> Result<Cmd, Reject> {
        match text.trim().strip_prefix("bid ").map(str::parse) {
            Some(Ok(b)) => Ok(Cmd::Bid(b)),
            _ => Err(Reject::unreadable("bid 1, bid 2 or bid 3")),
        }
    }
    fn format_command(_: &St, c: &Cmd) -> String {
        let Cmd::Bid(b) = c;
        format!("bid {b}")
    }
    fn describe_event(s: &St, e: &Ev) -> Option<String> {
        Some(match e {
            Ev::Bid(p, Some(b)) => format!("player {} bids {b}", p + 1),
            Ev::Bid(p, None) => format!("player {} bids in secret", p + 1),
            Ev::Reveal([a, b]) => format!("the bids are {a} and {b}; scores {:?}", s.scores),
            Ev::Won(p) => format!("player {} wins", p + 1),
        })
    }
    fn describe_pending(_: &St, p: &Pending<Bid>) -> String {
        format!("bids from {}", p.seats)
    }
    fn seat_name(_: &St, seat: Seat) -> String {
        format!("player {}", seat.0)
    }
    fn seat_by_name(_: &St, name: &str) -> Option<Seat> {
        name.strip_prefix("player ")?.parse().ok().map(Seat)
    }
    fn summary(s: &St) -> String {
        format!("scores {:?}", s.scores)
    }
    fn tracker(s: &St, seat: Seat) -> String {
        serde_json::to_string(&Self::view(s, seat)).unwrap_or_default()
    }
    // No combatants: the bids are in the ruleset's own view.
    fn table(_: &St, _: Seat) -> fray_engine::view::Table {
        fray_engine::view::Table::default()
    }
    fn title(_: &St) -> String {
        "bids".into()
    }
    fn heuristic() -> Box<dyn Policy<Self>> {
        Box::new(Outbid)
    }
}

/// Bids one more than it guesses the other bid, from what its seat knows: 3 when the other
/// has not bid yet, else 2. It cannot see the other's bid.
struct Outbid;

impl Policy<Bids> for Outbid {
    fn choose(&mut self, d: &Decision<'_, Bids>, _: &mut Prng) -> Option<fray_engine::Answer<Bids>> {
        let v = d.view();
        let other_has_bid = player(d.seat()).is_some_and(|p| v.bids[1 - p].is_some());
        d.answer(Cmd::Bid(if other_has_bid { 2 } else { 3 })).ok()
    }
    fn name(&self) -> &str {
        "outbid"
    }
}

#[test]
fn several_deciders_answer_in_any_order_each_once_and_the_step_resolves_with_the_last() {
    for first in [Seat(1), Seat(2)] {
        let second = Seat(3 - first.0);
        let mut g = Game::<Bids>::new_seeded((), (), 1).unwrap();
        let p = g.pending().unwrap();
        assert_eq!(p.seats.iter().collect::<Vec<_>>(), vec![Seat(1), Seat(2)]);
        let events = g.submit(first, Cmd::Bid(3)).unwrap().to_vec();
        assert_eq!(events.len(), 1, "nothing resolves before the last bid: {events:?}");
        // The seat that answered is no longer a decider; a second answer is refused.
        assert_eq!(g.pending().unwrap().seats, Seats::one(second));
        match g.submit(first, Cmd::Bid(1)) {
            Err(SubmitError::Rejected(r)) => assert_eq!(r.code, Reject::NOT_YOUR_DECISION),
            other => panic!("{other:?}"),
        }
        assert!(g.legal_commands(first).is_empty());
        let events = g.submit(second, Cmd::Bid(1)).unwrap().to_vec();
        assert!(matches!(events[1], Ev::Reveal(_)), "{events:?}");
        assert_eq!(g.state().scores, if first == Seat(1) { [3, 0] } else { [0, 3] });
        // The record keeps who answered what, and replays.
        let seats: Vec<Seat> = g.record().entries.iter().map(|e| e.seat).collect();
        assert_eq!(seats, vec![first, second]);
        let replayed = Game::<Bids>::replay(g.record()).unwrap();
        assert_eq!(replayed.state(), g.state());
    }
}

#[test]
fn a_secret_bid_reaches_neither_the_other_seats_view_nor_its_log_until_the_reveal() {
    let mut g = TextGame::new(Game::<Bids>::new_seeded((), (), 1).unwrap());
    g.submit_text(Seat(1), "bid 2").unwrap();
    let theirs = g.log_for(Seat(2));
    assert_eq!(theirs[0].text.as_deref(), Some("player 1 bids in secret"));
    assert!(!theirs[0].json.to_string().contains('2'), "{:?}", theirs[0].json);
    assert_eq!(g.log_for(Seat(1))[0].text.as_deref(), Some("player 1 bids 2"));
    assert_eq!(
        g.full_log()[0].text.as_deref(),
        Some("player 1 bids 2"),
        "the GM sees everything"
    );
    assert_eq!(g.view_json(Seat(2))["extra"]["mine"], serde_json::Value::Null);
    assert_eq!(g.view_json(Seat(2))["extra"]["other_has_bid"], true);
    assert_eq!(g.view_json(Seat(1))["extra"]["mine"], 2);
    g.submit_text(Seat(2), "bid 1").unwrap();
    let after = g.log_for(Seat(2));
    assert_eq!(after[2].text.as_deref(), Some("the bids are 2 and 1; scores [2, 0]"));
}

#[test]
fn the_pending_text_asks_each_seat_in_turn() {
    let mut g = TextGame::new(Game::<Bids>::new_seeded((), (), 1).unwrap());
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.deciders.clone()), (Seat(1), vec![Seat(1), Seat(2)]));
    g.submit_text(Seat(1), "bid 1").unwrap();
    let p = g.pending().unwrap();
    assert_eq!((p.seat, p.deciders), (Seat(2), vec![Seat(2)]));
    assert_eq!(p.choices, vec!["bid 1", "bid 2", "bid 3"]);
    let typed = g.ai_step(&mut Prng::from_seed(1)).unwrap().command;
    assert_eq!(typed, "bid 2", "the AI saw that the other had bid, not what");
}

#[test]
fn the_ai_answering_for_another_seat_is_shown_to_the_viewer_as_that_seat_may_see_it() {
    // Seat 1 watches (the table's viewer) while the AI bids for seat 2 after seat 1's own bid.
    let mut g = TextGame::new(Game::<Bids>::new_seeded((), (), 1).unwrap());
    g.set_viewer(Seat(1));
    assert_eq!(g.viewer(), Seat(1));
    let own = g.submit_text(Seat(1), "bid 3").unwrap();
    assert!(own.iter().any(|l| l.json.to_string().contains('3')), "{own:?}");
    let m = g.ai_step(&mut Prng::from_seed(1)).unwrap();
    assert_eq!(m.seat, Seat(2));
    assert!(m.command.starts_with("bid "));
    assert_eq!(m.shown, None, "seat 1 is not shown seat 2's bid");
    let json: Vec<String> = m.log.iter().map(|l| l.json.to_string()).collect();
    let full: Vec<String> = g.full_log().iter().map(|l| l.json.to_string()).collect();
    // The log of the AI's bid is the one seat 1 is shown, not the GM's.
    let for_seat: Vec<String> = g.log_for(Seat(1)).iter().map(|l| l.json.to_string()).collect();
    assert!(for_seat.ends_with(&json), "{for_seat:?} / {json:?}");
    assert_ne!(for_seat, full);
}

#[test]
fn bids_pass_the_conformance_suite_and_its_hidden_information_check() {
    let report = run::<Bids>(
        &(),
        &(),
        &Config {
            seeds: 0..30,
            ..Config::default()
        },
        |_| Box::new(RandomLegal::<Bids>::new()) as Box<dyn Policy<Bids>>,
    )
    .unwrap();
    assert_eq!(report.playouts, 30);
    let hidden = hidden_information::<Bids>(&(), &(), 0..30, &[Seat::GM, Seat(1), Seat(2)], 1000, |_| {
        Box::new(RandomLegal::<Bids>::new())
    })
    .unwrap();
    assert!(
        hidden.variants_compared > 30 && hidden.commands_compared > 30,
        "{hidden:?}"
    );
}

/// Bids whose view shows the other player's bid: the hidden-information check must fail.
struct LeakyView;

/// Bids whose log shows every bid to everyone: the check must fail too.
struct LeakyLog;

/// Bids whose board (a zone per player) is tagged with each player's bid: the check must
/// fail as well.
struct LeakyBoard;

macro_rules! like_bids {
    ($name:ident, $view:ty, $viewfn:expr, $redact:expr $(, $board:expr)?) => {
        impl Ruleset for $name {
            const ID: &'static str = "leaky";
            const VERSION: &'static str = "1";
            type Options = ();
            type Setup = ();
            type State = St;
            type Command = Cmd;
            type Event = Ev;
            type Checked = ();
            type Stage = Bid;
            type View<'a> = $view;
            const HIDDEN_INFORMATION: bool = true;
            fn new_state(a: &(), b: &()) -> Result<St, EngineError> {
                Bids::new_state(a, b)
            }
            fn start(_: &mut Cx<'_, Self>) -> Result<(), EngineError> {
                Ok(())
            }
            fn pending(s: &St) -> Option<Pending<Bid>> {
                Bids::pending(s)
            }
            fn is_ruling(c: &Cmd) -> bool {
                Bids::is_ruling(c)
            }
            fn legal(s: &St, st: &Bid, seat: Seat, o: &mut Vec<fray_engine::Answer<Self>>) {
                let mut inner = Vec::new();
                Bids::legal(s, st, seat, &mut inner);
                o.extend(inner.into_iter().map(|a| fray_engine::Answer::new(a.command, ())));
            }
            fn check(s: &St, st: &Bid, seat: Seat, c: &Cmd) -> Result<(), Reject> {
                Bids::check(s, st, seat, c)
            }
            fn resolve(cx: &mut Cx<'_, Self>, _: &Bid, seat: Seat, c: &Cmd, (): ()) -> Result<(), EngineError> {
                bids_resolve(cx, seat, c)
            }
            fn apply(s: &mut St, e: &Ev) {
                Bids::apply(s, e)
            }
            fn outcome(s: &St) -> Option<Outcome> {
                Bids::outcome(s)
            }
            fn view(s: &St, seat: Seat) -> Self::View<'_> {
                $viewfn(s, seat)
            }
            fn hides_from(s: &St, seat: Seat) -> bool {
                Bids::hides_from(s, seat)
            }
            fn redact(s: &St, seat: Seat, e: &Ev) -> Shown<Ev> {
                $redact(s, seat, e)
            }
            fn redact_command(s: &St, seat: Seat, c: &Cmd) -> Shown<Cmd> {
                Bids::redact_command(s, seat, c)
            }
            fn indistinguishable(s: &St, seat: Seat, out: &mut Vec<St>) {
                Bids::indistinguishable(s, seat, out)
            }
        }
        impl TextRuleset for $name {
            const EVENT_COMBATANTS: &'static [&'static str] = &["who"];
            fn load(source: &SourceFile, _: &mut ReadFile<'_>) -> Result<Loaded<Self>, Vec<Diagnostic>> {
                Err(vec![Diagnostic::at(source, 0, "no files")])
            }
            fn parse_command(s: &St, text: &str) -> Result<Cmd, Reject> {
                Bids::parse_command(s, text)
            }
            fn format_command(s: &St, c: &Cmd) -> String {
                Bids::format_command(s, c)
            }
            fn describe_event(s: &St, e: &Ev) -> Option<String> {
                Bids::describe_event(s, e)
            }
            fn describe_pending(s: &St, p: &Pending<Bid>) -> String {
                Bids::describe_pending(s, p)
            }
            fn seat_name(s: &St, seat: Seat) -> String {
                Bids::seat_name(s, seat)
            }
            fn seat_by_name(s: &St, name: &str) -> Option<Seat> {
                Bids::seat_by_name(s, name)
            }
            fn summary(s: &St) -> String {
                Bids::summary(s)
            }
            fn table(s: &St, seat: Seat) -> fray_engine::view::Table {
                Bids::table(s, seat)
            }
            fn title(s: &St) -> String {
                Bids::title(s)
            }
            fn heuristic() -> Box<dyn Policy<Self>> {
                Box::new(RandomLegal::<Self>::new())
            }
            $(
                fn board(s: &St, seat: Seat) -> Option<fray_engine::view::Board> {
                    $board(s, seat)
                }
            )?
        }
    };
}

fn whole(s: &St, _: Seat) -> &St {
    s
}

like_bids!(LeakyView, &'a St, whole, Bids::redact);
like_bids!(LeakyLog, View, Bids::view, |_: &St, _: Seat, _: &Ev| Shown::All);
like_bids!(LeakyBoard, View, Bids::view, Bids::redact, leaky_board);

/// A zone per player, tagged with the bid it has made.
fn leaky_board(s: &St, _: Seat) -> Option<fray_engine::view::Board> {
    let zones = (0..2)
        .map(|p| fray_engine::view::ZoneView {
            id: format!("player-{}", p + 1),
            name: format!("Player {}", p + 1),
            cover: 0,
            tags: s.bids[p].iter().map(|b| format!("bid-{b}")).collect(),
            items: Vec::new(),
        })
        .collect();
    Some(fray_engine::view::Board::Zones {
        zones,
        links: Vec::new(),
    })
}

#[test]
fn the_hidden_information_check_catches_a_view_a_log_or_a_board_that_leaks() {
    let seats = [Seat(1), Seat(2)];
    let f = hidden_information::<LeakyView>(&(), &(), 0..5, &seats, 1000, |_| {
        Box::new(RandomLegal::<LeakyView>::new())
    })
    .unwrap_err();
    assert!(f.what.contains("view"), "{f}");
    let f = hidden_information::<LeakyLog>(&(), &(), 0..5, &seats, 1000, |_| {
        Box::new(RandomLegal::<LeakyLog>::new())
    })
    .unwrap_err();
    assert!(f.what.contains("log of"), "{f}");
    assert!(
        f.what.contains("which it is shown alike"),
        "the command comparison caught it: {f}"
    );
    let f = hidden_information::<LeakyBoard>(&(), &(), 0..5, &seats, 1000, |_| {
        Box::new(RandomLegal::<LeakyBoard>::new())
    })
    .unwrap_err();
    assert!(f.what.contains("board"), "{f}");
}

// Bids whose screens and log hide the other bid, but which gives its seats' AIs the whole
// state (`Ruleset::seen` left at its default).
like_bids!(PeekingAi, View, Bids::view, Bids::redact);

/// Bids whose AIs are given the whole state.
struct PeekingAi;

/// Bids one more than the other player's bid, which it reads off the state it is given (2
/// when the other has not bid yet).
struct Peek;

fn peek<R: Ruleset<State = St, Command = Cmd>>(d: &Decision<'_, R>) -> Option<fray_engine::Answer<R>> {
    let v = d.view();
    let other = player(d.seat()).map_or(0, |p| v.bids[1 - p].unwrap_or(1));
    d.answer(Cmd::Bid((other + 1).min(3))).ok()
}

impl Policy<PeekingAi> for Peek {
    fn choose(&mut self, d: &Decision<'_, PeekingAi>, _: &mut Prng) -> Option<fray_engine::Answer<PeekingAi>> {
        peek(d)
    }
    fn name(&self) -> &str {
        "peek"
    }
}

impl Policy<Bids> for Peek {
    fn choose(&mut self, d: &Decision<'_, Bids>, _: &mut Prng) -> Option<fray_engine::Answer<Bids>> {
        peek(d)
    }
    fn name(&self) -> &str {
        "peek"
    }
}

#[test]
fn the_hidden_information_check_catches_a_ruleset_that_gives_its_ai_what_its_seat_may_not_see() {
    let seats = [Seat(1), Seat(2)];
    // The screens and the log are right, but what the AI reads is not: it fails whatever the AI.
    for policy in [
        || Box::new(RandomLegal::<PeekingAi>::new()) as Box<dyn Policy<PeekingAi>>,
        || Box::new(Peek) as Box<dyn Policy<PeekingAi>>,
    ] {
        let f = hidden_information::<PeekingAi>(&(), &(), 0..5, &seats, 1000, |_| policy()).unwrap_err();
        assert!(
            f.what.contains("what seat 1's AI reads") || f.what.contains("what seat 2's AI reads"),
            "{f}"
        );
        assert!(f.what.contains("bids"), "it names where: {f}");
    }
}

#[test]
fn an_ai_that_tries_to_peek_reads_only_what_its_seat_knows() {
    let seats = [Seat(1), Seat(2)];
    // The real Bids masks the other bid in what its AIs read: the peeking AI sees 0 and bids 1.
    let report = hidden_information::<Bids>(&(), &(), 0..5, &seats, 1000, |_| Box::new(Peek)).unwrap();
    assert!(report.ai_compared > 0, "{report:?}");
    let mut g = Game::<Bids>::new_seeded((), (), 3).unwrap();
    g.submit(Seat(1), Cmd::Bid(3)).unwrap();
    let d = Decision::<Bids>::new(g.state(), Seat(2)).unwrap();
    assert!(d.view().masked());
    assert_eq!(d.view().bids[0], Some(0), "seat 2's AI does not know seat 1 bid 3");
    assert!(d.full_state().is_none());
    assert_eq!(
        Peek.choose(&d, &mut Prng::from_seed(1)).map(|a| a.command),
        Some(Cmd::Bid(1))
    );
}
