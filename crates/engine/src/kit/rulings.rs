//! The GM rulings every ruleset shares ([`crate::gm`]: set a gauge, move, add from a
//! template, remove, end), read, checked, printed and applied in one place.
//!
//! A ruleset implements [`GmTable`] for its state (what its gauges, positions and templates
//! are, and its own rulings, if any) and [`GmApply`] (how a ruling changes the state); then
//! [`Words`] is its vocabulary, [`check`] its rulings' check (in the skeleton's sentences),
//! [`format`] prints them and [`apply`] applies them.

use super::roster::{Member, Roster};
use crate::gm::{Adjust, Ruling, Vocabulary};
use crate::sides::Side;
use crate::{Outcome, Reject};
use std::fmt::Display;

/// What the shared rulings read of a state.
pub trait GmTable {
    /// A combatant.
    type Member: Member;
    /// A gauge the GM may set.
    type Gauge: Copy;
    /// A position (a square, a zone).
    type Pos: Copy + Display;
    /// The ruleset's own rulings (an empty enum when it has none).
    type Own;
    /// The most combatants a fight may hold, GM additions included.
    const LIMIT: usize;
    /// Every verb, the shared ones included, for the message when a verb is unknown.
    const VERBS: &'static str;
    /// The combatants.
    fn roster(&self) -> &Roster<Self::Member>;
    /// The sides.
    fn sides(&self) -> &[Side];
    /// Whether the GM may bring in a combatant from the template with this name.
    fn has_template(&self, name: &str) -> bool;
    /// Whether a combatant may be put on `at` (moved there, or brought in there).
    fn room(&self, at: Self::Pos) -> bool;
    /// The gauge called `word`.
    fn gauge(&self, word: &str) -> Result<Self::Gauge, Reject>;
    /// The name of a gauge, as [`GmTable::gauge`] reads it.
    fn gauge_name(&self, gauge: Self::Gauge) -> String;
    /// The position written `word`.
    fn pos(&self, word: &str) -> Result<Self::Pos, Reject>;
    /// Whether `by` may change the gauge of `who`, who is in the fight.
    fn check_adjust(&self, who: u16, gauge: Self::Gauge, by: Adjust) -> Result<(), String>;
    /// The ruleset's own ruling whose verb is `words[0]`; `None` when the verb is not one.
    fn own(&self, words: &[&str]) -> Option<Result<Self::Own, Reject>>;
    /// Whether the ruleset's own ruling may apply.
    fn check_own(&self, own: &Self::Own) -> Result<(), String>;
    /// The ruleset's own ruling as [`GmTable::own`] reads it.
    fn format_own(&self, own: &Self::Own) -> String;
}

/// How the shared rulings change a state.
pub trait GmApply: GmTable {
    /// Changes a gauge.
    fn adjust(&mut self, who: u16, gauge: Self::Gauge, by: Adjust);
    /// Puts a combatant on `to`.
    fn put(&mut self, who: u16, to: Self::Pos);
    /// Brings in a new combatant `id` from `template` on `side` at `at`.
    fn add(&mut self, id: &str, template: &str, side: u8, at: Self::Pos);
    /// Takes a combatant out of the fight.
    fn remove(&mut self, who: u16);
    /// Where the state keeps how the combat ended.
    fn outcome_mut(&mut self) -> &mut Option<Outcome>;
    /// Applies the ruleset's own ruling.
    fn apply_own(&mut self, own: &Self::Own);
}

/// A ruling of a [`GmTable`].
pub type RulingOf<S> = Ruling<u16, <S as GmTable>::Gauge, <S as GmTable>::Pos, <S as GmTable>::Own>;

/// The names rulings use, read against a state: combatants by typed id, sides by id, the rest
/// as the state's [`GmTable`] says.
pub struct Words<'a, S>(pub &'a S);

impl<S: GmTable> Vocabulary for Words<'_, S> {
    type Who = u16;
    type Gauge = S::Gauge;
    type Pos = S::Pos;
    type Other = S::Own;
    fn who(&self, word: &str) -> Result<u16, Reject> {
        self.0
            .roster()
            .find(word)
            .ok_or_else(|| Reject::unreadable(format!("no combatant '{word}'")))
    }
    fn gauge(&self, word: &str) -> Result<S::Gauge, Reject> {
        self.0.gauge(word)
    }
    fn pos(&self, word: &str) -> Result<S::Pos, Reject> {
        self.0.pos(word)
    }
    fn side(&self, word: &str) -> Result<u8, Reject> {
        let i = self.0.sides().iter().position(|s| s.id == word);
        i.map(|i| i as u8)
            .ok_or_else(|| Reject::unreadable(format!("no side '{word}'")))
    }
    fn other(&self, words: &[&str]) -> Option<Result<S::Own, Reject>> {
        self.0.own(words)
    }
    fn verbs(&self) -> &'static str {
        S::VERBS
    }
}

/// Whether a ruling may apply now: its combatant is in the fight, its square has room, a
/// newcomer has a new one-word id, a template, a side and room, a winner is a side. The
/// sentence says why not.
pub fn check<S: GmTable>(s: &S, r: &RulingOf<S>) -> Result<(), String> {
    let live = |w: u16| match s.roster().get(usize::from(w)) {
        Some(c) if c.out() => Err(format!("{} is out of the fight", c.name())),
        Some(_) => Ok(()),
        None => Err(format!("no combatant #{w}")),
    };
    let sides = s.sides().len();
    match r {
        Ruling::Adjust { who, gauge, by } => {
            live(*who)?;
            s.check_adjust(*who, *gauge, *by)
        }
        Ruling::Move { who, to } if s.room(*to) => live(*who),
        Ruling::Move { to, .. } => Err(format!("{to} is not an open square")),
        Ruling::Add { id, template, side, at } => {
            if !crate::encounter::is_word(id) || s.roster().find(id).is_some() {
                Err(format!("'{id}' is not a new one-word id"))
            } else if !s.has_template(template) {
                Err(format!("no template '{template}'"))
            } else if usize::from(*side) >= sides || !s.room(*at) || s.roster().len() >= S::LIMIT {
                Err(format!(
                    "no room for '{id}' on {at} (or no such side, or {} combatants already)",
                    S::LIMIT
                ))
            } else {
                Ok(())
            }
        }
        Ruling::Remove { who } => live(*who),
        Ruling::End { winner: Some(w) } if usize::from(*w) >= sides => Err(format!("no side #{w}")),
        Ruling::End { .. } => Ok(()),
        Ruling::Other(x) => s.check_own(x),
    }
}

/// Prints a ruling as [`crate::gm::parse`] reads it with [`Words`] (without `gm`); an index
/// that names nobody, from an edited record, prints as `#N`.
pub fn format<S: GmTable>(s: &S, r: &RulingOf<S>) -> String {
    let id = |w: &u16| {
        s.roster()
            .get(usize::from(*w))
            .map_or_else(|| format!("#{w}"), |c| c.id().to_string())
    };
    let side = |i: u8| {
        s.sides()
            .get(usize::from(i))
            .map_or_else(|| format!("#{i}"), |x| x.id.clone())
    };
    crate::gm::format(
        r,
        id,
        |g| s.gauge_name(*g),
        |p| p.to_string(),
        side,
        |x| s.format_own(x),
    )
}

/// Applies a ruling that [`check`] accepted. `gm end` ends the combat with the reason
/// `gm-ended`.
pub fn apply<S: GmApply>(s: &mut S, r: &RulingOf<S>) {
    match r {
        Ruling::Adjust { who, gauge, by } => s.adjust(*who, *gauge, *by),
        Ruling::Move { who, to } => s.put(*who, *to),
        Ruling::Add { id, template, side, at } => s.add(id, template, *side, *at),
        Ruling::Remove { who } => s.remove(*who),
        Ruling::End { winner } => {
            *s.outcome_mut() = Some(Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            })
        }
        Ruling::Other(x) => s.apply_own(x),
    }
}
