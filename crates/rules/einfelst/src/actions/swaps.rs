//! Card swaps at the start of a round (EIN-R5): two player characters of one side may swap
//! their cards when both seats agree; the seats that could swap are asked at once, each until it
//! is ready (or has nothing left to do but wait on a seat that is done).
//!
//! The check of a swap ([`trade_ok`]) is asked by the swap stage's check, by the legal list, by
//! the flow when it opens the stage and when it sees a seat that can only wait: one verdict for
//! all of them. The swap a defender takes after beating an attack (EIN-R7) is a defence, in
//! `actions::defence`.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::plan::{Say, no, not_checked, not_now};
use crate::setup::Cid;
use crate::state::{Event, State};
use fray_engine::{Cx, EngineError, Reject, Seat, Seats};

/// Whether two player characters may swap cards now (EIN-R5).
pub fn trade_ok(s: &State, seat: Seat, a: Cid, b: Cid) -> Result<(), Reject> {
    trade_in(s, seat, a, b, Say::Sentence)
}

/// Whether [`trade_ok`] accepts the swap, without formatting a refusal.
pub fn may_trade(s: &State, seat: Seat, a: Cid, b: Cid) -> bool {
    trade_in(s, seat, a, b, Say::Code).is_ok()
}

/// [`trade_ok`], saying why it refuses as `say` asks.
fn trade_in(s: &State, seat: Seat, a: Cid, b: Cid, say: Say) -> Result<(), Reject> {
    let (Some(x), Some(y)) = (s.chars.get(a as usize), s.chars.get(b as usize)) else {
        return Err(no(say, codes::BAD_TARGET, || "no such creature"));
    };
    if a >= b {
        return Err(no(say, codes::BAD_TRADE, || "name the two in encounter order"));
    }
    if !x.pc || !y.pc || x.out() || y.out() || x.side != y.side {
        return Err(no(
            say,
            codes::BAD_TRADE,
            || "two player characters of one side, both in the fight, swap cards",
        ));
    }
    let (sa, sb) = (s.seat_of(a), s.seat_of(b));
    if sa != seat && sb != seat {
        // EIN-R5: each seat proposes and agrees for its own characters only.
        return Err(no(say, codes::BAD_TRADE, || {
            let whose = if sa == sb {
                format!("{} and {} are {}'s", x.name, y.name, s.seat_name(sa))
            } else {
                format!(
                    "{} is {}'s and {} is {}'s",
                    x.name,
                    s.seat_name(sa),
                    y.name,
                    s.seat_name(sb)
                )
            };
            format!("{whose}: {} swaps cards only for its own characters", s.seat_name(seat))
        }));
    }
    if x.silenced || y.silenced {
        return Err(no(
            say,
            codes::BAD_TRADE,
            || "a silenced character cannot agree to a swap",
        ));
    }
    if let Some(r) = s.options.swap_range
        && s.distance(a, b) > r
    {
        return Err(no(say, codes::BAD_TRADE, || {
            format!("{} and {} are too far apart to talk", x.name, y.name)
        }));
    }
    if x.cards.best() == y.cards.best() {
        return Err(no(say, codes::BAD_TRADE, || "they hold the same card"));
    }
    Ok(())
}

pub(crate) fn swap_stage(s: &State, seat: Seat, c: &Command, say: Say) -> Result<(), Reject> {
    match c {
        Command::Ready if s.swapping.contains(seat) => Ok(()),
        Command::Trade(a, b) if s.swapping.contains(seat) => {
            trade_in(s, seat, *a, *b, say)?;
            let pair = (*a, *b);
            if s.proposals.iter().any(|p| p.pair == pair && p.agreed.contains(seat)) {
                return Err(no(
                    say,
                    codes::BAD_TRADE,
                    || "this seat has already agreed to that swap",
                ));
            }
            // EIN-R5: a swap of two players' characters needs both seats; one that is done
            // swapping for the round and has not agreed to this one never will.
            if let Some(done) = waits_on_done(s, seat, pair) {
                let x = [*a, *b].into_iter().find(|&w| s.seat_of(w) == done).unwrap_or(*a);
                return Err(no(say, codes::BAD_TRADE, || {
                    format!(
                        "{} is {}'s, and {} is done swapping this round",
                        s.ch(x).name,
                        s.seat_name(done),
                        s.seat_name(done)
                    )
                }));
            }
            Ok(())
        }
        _ => Err(not_now(say)),
    }
}

/// The seat other than `seat` that a swap of `pair` needs, if it is done swapping this round
/// (it answered `ready`) without having agreed to this swap.
fn waits_on_done(s: &State, seat: Seat, pair: (Cid, Cid)) -> Option<Seat> {
    let agreed = s.proposals.iter().find(|p| p.pair == pair).map(|p| p.agreed);
    [s.seat_of(pair.0), s.seat_of(pair.1)]
        .into_iter()
        .find(|&o| o != seat && !s.swapping.contains(o) && !agreed.is_some_and(|g| g.contains(o)))
}

/// Whether `seat`, still deciding at the swap stage, has swaps it may make but every one of
/// them waits on another seat that is done swapping (EIN-R5): then nothing it answers but
/// `ready` can change a card, and it is done too. A seat that has no swap it may make at all
/// stays asked, as it always was, until it answers `ready`; so a seat that plays a whole side
/// is never done by itself.
pub fn swaps_blocked(s: &State, seat: Seat) -> bool {
    let n = s.chars.len() as Cid;
    let mut any = false;
    for a in 0..n {
        for b in a + 1..n {
            if may_trade(s, seat, a, b) {
                if waits_on_done(s, seat, (a, b)).is_none() {
                    return false;
                }
                any = true;
            }
        }
    }
    any
}

/// The seats of player characters who could swap now, asked at the swap stage.
pub(crate) fn seats(s: &State) -> Seats {
    // EIN-R5: the seats of player characters who could swap.
    let mut seats = Seats::EMPTY;
    let n = s.chars.len() as Cid;
    for a in 0..n {
        for b in a + 1..n {
            for seat in [s.seat_of(a), s.seat_of(b)] {
                if may_trade(s, seat, a, b) {
                    seats.insert(s.seat_of(a));
                    seats.insert(s.seat_of(b));
                }
            }
        }
    }
    seats
}

/// The swap stage's candidates: every pair, then `ready`.
pub(crate) fn list(s: &State, push: &mut impl FnMut(Command) -> bool) {
    let n = s.chars.len() as Cid;
    for a in 0..n {
        for b in a + 1..n {
            push(Command::Trade(a, b));
        }
    }
    push(Command::Ready);
}

/// Resolves an answer at the swap stage: `ready`, or a proposal, which swaps the cards once
/// every seat the pair needs has agreed.
pub(crate) fn resolve(cx: &mut Cx<'_, Einfelst>, seat: Seat, command: &Command) -> Result<(), EngineError> {
    match command {
        Command::Ready => cx.emit(Event::Ready { seat: seat.0 }),
        Command::Trade(a, b) => {
            let pair = (*a, *b);
            cx.emit(Event::Proposed { seat: seat.0, pair });
            let mut need = Seats::one(cx.s.seat_of(*a));
            need.insert(cx.s.seat_of(*b));
            let agreed = cx.s.proposals.iter().find(|p| p.pair == pair).map(|p| p.agreed);
            if agreed.is_some_and(|g| need.iter().all(|x| g.contains(x))) {
                let (ca, cb) = (cx.s.ch(*a).cards.best(), cx.s.ch(*b).cards.best());
                if let (Some(card_a), Some(card_b)) = (ca, cb) {
                    cx.emit(Event::Swapped {
                        a: *a,
                        card_a,
                        b: *b,
                        card_b,
                        forced: false,
                    });
                }
            }
        }
        _ => return Err(not_checked(command)),
    }
    Ok(())
}
