//! Initiative cards (EIN-R1, EIN-H12, EIN-H25): drawing from the seeded or physical deck (and a
//! second deck), dealing before round 1 (the side with the extra card first, which keeps one of
//! its two), and the card a turn is on.
//!
//! The card choice of EIN-H25 is a decision like any other: its check, its legal answers and its
//! resolution are here with the dealing that opens it. Swapping cards between player characters
//! at the start of a round is a topic of its own (`actions::swaps`).

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::plan::{Plan, Say, no, not_checked};
use crate::setup::Cid;
use crate::state::{Card, Event, Frame, KeepFrame, State};
use fray_engine::{Cx, EngineError, Reject};

/// The card the turn's creature holds for the turn under way (its `n`-th lowest).
pub fn turn_card(s: &State, who: Cid, n: u8) -> Option<Card> {
    // Sorted on the stack: no allocation.
    let cards = s.ch(who).cards.cards();
    let mut sorted = [Card::default(); crate::state::MAX_CARDS];
    sorted[..cards.len()].copy_from_slice(cards);
    sorted[..cards.len()].sort_unstable_by_key(|c| c.key(false));
    sorted[..cards.len()].get(n as usize).copied()
}

/// Draws one card for `who` from the seeded or physical deck (EIN-R1), opening a second deck
/// when the first runs out (EIN-H12); past both, a joiner takes the highest value + 1.
pub(crate) fn draw(cx: &mut Cx<'_, Einfelst>, who: Cid) -> Result<Card, EngineError> {
    let s = &*cx.s;
    if s.deck.is_empty() {
        let top = s
            .chars
            .iter()
            .flat_map(|c| c.cards.cards().iter().map(|k| k.value))
            .max()
            .unwrap_or(10);
        let opened = s.chars.iter().any(|c| c.cards.cards().iter().any(|k| k.deck >= 1));
        if opened || s.round > 0 {
            return Ok(Card {
                value: top.saturating_add(1).min(60),
                deck: 2,
            });
        }
        cx.emit(Event::NewDeck);
    }
    let why = format!("{}'s initiative card", cx.s.ch(who).name);
    // EIN-R1: the card comes out of what is left of the deck, so no value is dealt twice.
    let code = cx.dice.draw(cx.s.deck.cards(), &why)?;
    let card = Card::from_code(code);
    cx.emit(Event::Drew { who, card });
    Ok(card)
}

/// The next creature to be dealt a card before round 1, if any: one short of its cards, not in
/// a group that shares one, the side with the extra card first (EIN-H25).
pub(crate) fn next_to_draw(s: &State) -> Option<Cid> {
    // EIN-H25: whoever gets the extra card draws first.
    let lacks = |i: usize| {
        let c = &s.chars[i];
        let grouped = c
            .group
            .is_some_and(|g| s.chars.iter().any(|o| o.group == Some(g) && o.shares));
        // EIN-R46: a creature is dealt cards until it holds as many as its stats give.
        !c.out() && !grouped && c.cards.len() < s.blocks[c.block as usize].cards as usize
    };
    let extra = s.extra_card_side;
    let next = (0..s.chars.len())
        .find(|&i| lacks(i) && Some(s.chars[i].side) == extra)
        .or_else(|| (0..s.chars.len()).find(|&i| lacks(i)));
    next.map(|i| i as Cid)
}

/// Deals `who` its card: one, or for the side with the extra card two, of which it keeps the
/// lower (or chooses, with `ask-card-choice`) and puts the other back (EIN-H25).
pub(crate) fn deal(cx: &mut Cx<'_, Einfelst>, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let i = who as usize;
    let extra = s.extra_card_side;
    let two = Some(s.chars[i].side) == extra && s.chars[i].cards.is_empty();
    let first = draw(cx, who)?;
    if !two {
        cx.emit(Event::Kept {
            who,
            card: first,
            back: None,
        });
        return Ok(());
    }
    let second = draw(cx, who)?;
    let (lo, hi) = if first.key(false) <= second.key(false) {
        (first, second)
    } else {
        (second, first)
    };
    if cx.s.options.ask_card_choice {
        cx.push(Frame::Keep(KeepFrame { who, drawn: [lo, hi] }))?;
    } else {
        cx.emit(Event::Kept {
            who,
            card: lo,
            back: Some(hi),
        });
    }
    Ok(())
}

/// A `keep <card>` answer: one of the two drawn.
pub(crate) fn check_keep(drawn: [Card; 2], card: &Card, say: Say) -> Result<Plan, Reject> {
    if drawn.contains(card) {
        Ok(Plan::Plain)
    } else {
        Err(no(say, codes::BAD_CARD, || {
            format!("keep {} or {}", drawn[0], drawn[1])
        }))
    }
}

/// The cards that may be kept (one, when the two are alike).
pub(crate) fn list_keep(drawn: [Card; 2], push: &mut impl FnMut(Command) -> bool) {
    push(Command::Keep(drawn[0]));
    if drawn[1] != drawn[0] {
        push(Command::Keep(drawn[1]));
    }
}

/// Resolves `keep`: the card kept, the other back in the deck.
pub(crate) fn resolve_keep(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    drawn: [Card; 2],
    c: &Command,
) -> Result<(), EngineError> {
    let Command::Keep(card) = c else {
        return Err(not_checked(c));
    };
    let back = if drawn[0] == *card { drawn[1] } else { drawn[0] };
    cx.pop();
    cx.emit(Event::Kept {
        who,
        card: *card,
        back: Some(back),
    });
    Ok(())
}
