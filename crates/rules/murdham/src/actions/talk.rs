//! Interacting with something and speaking: a main or bonus action to interact, a bonus
//! action for a brief in-character line (MUR-R55), which gives a concealed speaker away
//! (MUR-R42); checked and resolved, with their legal list.

use crate::Murdham;
use crate::actions::{Offer, Plan, bonus_left, main_left, no, reveal};
use crate::codes;
use crate::command::Command;
use crate::setup::Cid;
use crate::state::{Event, Turn};
use fray_engine::{Cx, Reject};

/// The check of interacting with something (`main`: as the main action, else a bonus one).
pub fn check_interact(t: &Turn, main: bool) -> Result<Plan, Reject> {
    // MUR-R9: interacting is a bonus action, or a main one when the GM asks for it.
    if main {
        main_left(t)?;
    } else {
        bonus_left(t)?;
    }
    Ok(Plan::Plain)
}

/// The check of a few words (MUR-R55): a bonus action, at most 200 characters.
pub fn check_say(t: &Turn, words: &str) -> Result<Plan, Reject> {
    if words.len() > 200 {
        return Err(no(codes::NOT_ALLOWED, "a few words: at most 200 characters"));
    }
    // MUR-R9: saying a few words is a bonus action.
    bonus_left(t)?;
    Ok(Plan::Plain)
}

/// What `who` may say or do besides in its turn, in the legal list's order.
pub fn legal(offer: &mut dyn Offer) {
    offer.checked(Command::Interact { main: false });
    offer.checked(Command::Interact { main: true });
    offer.checked(Command::Say(String::new()));
}

/// `who` interacts with something.
pub fn interact(cx: &mut Cx<'_, Murdham>, who: Cid, main: bool) {
    cx.emit(Event::Acted {
        who,
        main,
        what: "interact".into(),
    });
}

/// `who` says `words` (none: a few words).
pub fn say(cx: &mut Cx<'_, Murdham>, who: Cid, words: &str) {
    let what = if words.is_empty() {
        "says a few words".to_string()
    } else {
        format!("says \"{words}\"")
    };
    cx.emit(Event::Acted { who, main: false, what });
    // MUR-R42: talking reveals.
    reveal(cx, who);
}
