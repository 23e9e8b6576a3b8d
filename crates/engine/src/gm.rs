//! The GM-ruling vocabulary every ruleset shares.
//!
//! A GM at the table overrides the rules with a handful of rulings: change a gauge, put a
//! combatant somewhere, bring in a new one from a template, take one out, end the fight. Each
//! ruleset names its own gauges, combatants, positions and sides (its [`Vocabulary`]) and may add
//! rulings of its own ([`Ruling::Other`]); the words and their order are the same everywhere:
//!
//! ```text
//! gm set <who> <gauge> +N|-N|=N
//! gm move <who> <position>
//! gm add <new-id> <template> <side> <position>
//! gm remove <who>
//! gm end <side>|none
//! ```

use crate::Reject;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A change of a number: add (or subtract) an amount, or set a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Adjust {
    /// Add this amount (negative: subtract).
    Add(i16),
    /// Set to this value.
    Set(i16),
}

impl Adjust {
    /// The new value from the old (adding saturates).
    pub fn apply(self, old: i16) -> i16 {
        match self {
            Adjust::Add(d) => old.saturating_add(d),
            Adjust::Set(v) => v,
        }
    }

    /// Reads `+N`, `-N` or `=N`.
    pub fn parse(s: &str) -> Option<Adjust> {
        if let Some(v) = s.strip_prefix('=') {
            return v.parse().ok().map(Adjust::Set);
        }
        if let Some(v) = s.strip_prefix('+') {
            return v.parse().ok().map(Adjust::Add);
        }
        if s.starts_with('-') {
            return s.parse().ok().map(Adjust::Add);
        }
        None
    }
}

impl fmt::Display for Adjust {
    /// Writes the form [`Adjust::parse`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Adjust::Add(d) if *d >= 0 => write!(f, "+{d}"),
            Adjust::Add(d) => write!(f, "{d}"),
            Adjust::Set(v) => write!(f, "={v}"),
        }
    }
}

/// A GM ruling: `W` names a combatant, `G` a gauge, `P` a position, `X` the ruleset's own
/// rulings. It serialises with the variant name as the tag; [`Ruling::Other`] serialises as `X`
/// alone, so a ruleset's own rulings keep their own tags.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruling<W, G, P, X> {
    /// Change a gauge of a combatant.
    Adjust {
        /// Who.
        who: W,
        /// Which gauge.
        gauge: G,
        /// How.
        by: Adjust,
    },
    /// Put a combatant somewhere, without the movement rules.
    Move {
        /// Who.
        who: W,
        /// Where.
        to: P,
    },
    /// A new combatant made from a template joins a side.
    Add {
        /// Its id.
        id: String,
        /// The template it is made from.
        template: String,
        /// Its side (index).
        side: u8,
        /// Where it starts.
        at: P,
    },
    /// Take a combatant out of the fight (fled, surrendered...).
    Remove {
        /// Who.
        who: W,
    },
    /// End the fight now, with this side (index) winning, or none.
    End {
        /// The winner.
        winner: Option<u8>,
    },
    /// A ruling of the ruleset's own.
    #[serde(untagged)]
    Other(X),
}

/// What a ruleset's rulings are about: how it reads and writes combatants, gauges, positions,
/// sides and its own rulings.
pub trait Vocabulary {
    /// A combatant.
    type Who;
    /// A gauge the GM may set.
    type Gauge;
    /// A position.
    type Pos;
    /// The ruleset's own rulings.
    type Other;
    /// The combatant with this id.
    fn who(&self, word: &str) -> Result<Self::Who, Reject>;
    /// The gauge with this name.
    fn gauge(&self, word: &str) -> Result<Self::Gauge, Reject>;
    /// A position.
    fn pos(&self, word: &str) -> Result<Self::Pos, Reject>;
    /// The side with this id (its index).
    fn side(&self, word: &str) -> Result<u8, Reject>;
    /// The ruleset's own ruling whose verb is `words[0]`, or `None` when the verb is not one
    /// of its own.
    fn other(&self, words: &[&str]) -> Option<Result<Self::Other, Reject>>;
    /// Every verb, the shared ones included, for the message when a verb is unknown.
    fn verbs(&self) -> &'static str;
}

/// A ruling of vocabulary `V`.
pub type RulingOf<V> =
    Ruling<<V as Vocabulary>::Who, <V as Vocabulary>::Gauge, <V as Vocabulary>::Pos, <V as Vocabulary>::Other>;

fn reject(text: impl Into<String>) -> Reject {
    Reject::unreadable(text)
}

/// Reads a ruling (the words after `gm`).
pub fn parse<V: Vocabulary>(v: &V, words: &[&str]) -> Result<RulingOf<V>, Reject> {
    let Some(&verb) = words.first() else {
        return Err(reject(format!("expected a ruling: {}", v.verbs())));
    };
    let arg = |i: usize, what: &str| -> Result<&str, Reject> {
        words
            .get(i)
            .copied()
            .ok_or_else(|| reject(format!("'gm {verb}' needs {what}")))
    };
    let (ruling, used) = match verb {
        "set" => {
            let who = v.who(arg(1, "a combatant")?)?;
            let gauge = v.gauge(arg(2, "what to change")?)?;
            let t = arg(3, "+N, -N or =N")?;
            let by = Adjust::parse(t).ok_or_else(|| reject(format!("'{t}' is not a change: expected +N, -N or =N")))?;
            (Ruling::Adjust { who, gauge, by }, 4)
        }
        "move" => (
            Ruling::Move {
                who: v.who(arg(1, "a combatant")?)?,
                to: v.pos(arg(2, "a position")?)?,
            },
            3,
        ),
        "add" => (
            Ruling::Add {
                id: arg(1, "a new id, a template, a side and a position")?.to_string(),
                template: arg(2, "a template")?.to_string(),
                side: v.side(arg(3, "a side")?)?,
                at: v.pos(arg(4, "a position")?)?,
            },
            5,
        ),
        "remove" => (
            Ruling::Remove {
                who: v.who(arg(1, "a combatant")?)?,
            },
            2,
        ),
        "end" => {
            let winner = match words.get(1).copied() {
                None | Some("none") | Some("draw") => None,
                Some(s) => Some(v.side(s)?),
            };
            (Ruling::End { winner }, 2)
        }
        _ => match v.other(words) {
            Some(r) => return r.map(Ruling::Other),
            None => return Err(reject(format!("unknown ruling '{verb}': expected {}", v.verbs()))),
        },
    };
    if let Some(x) = words.get(used) {
        return Err(reject(format!("unexpected '{x}' at the end of the ruling")));
    }
    Ok(ruling)
}

/// Writes a shared ruling in the form [`parse`] reads (without `gm`), given how to name
/// combatants, gauges, positions and sides; `other` writes the ruleset's own.
pub fn format<W, G, P, X>(
    r: &Ruling<W, G, P, X>,
    who: impl Fn(&W) -> String,
    gauge: impl Fn(&G) -> String,
    pos: impl Fn(&P) -> String,
    side: impl Fn(u8) -> String,
    other: impl Fn(&X) -> String,
) -> String {
    match r {
        Ruling::Adjust { who: w, gauge: g, by } => format!("set {} {} {by}", who(w), gauge(g)),
        Ruling::Move { who: w, to } => format!("move {} {}", who(w), pos(to)),
        Ruling::Add {
            id,
            template,
            side: s,
            at,
        } => format!("add {id} {template} {} {}", side(*s), pos(at)),
        Ruling::Remove { who: w } => format!("remove {}", who(w)),
        Ruling::End { winner: None } => "end none".into(),
        Ruling::End { winner: Some(s) } => format!("end {}", side(*s)),
        Ruling::Other(x) => other(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Own {
        Shout { who: u8 },
    }

    impl Vocabulary for Toy {
        type Who = u8;
        type Gauge = String;
        type Pos = (i16, i16);
        type Other = Own;
        fn who(&self, w: &str) -> Result<u8, Reject> {
            match w {
                "ann" => Ok(0),
                "bob" => Ok(1),
                _ => Err(reject(format!("no combatant '{w}'"))),
            }
        }
        fn gauge(&self, w: &str) -> Result<String, Reject> {
            match w {
                "hp" | "luck" => Ok(w.to_string()),
                _ => Err(reject(format!("'{w}' cannot be set"))),
            }
        }
        fn pos(&self, w: &str) -> Result<(i16, i16), Reject> {
            let (x, y) = w.split_once(',').ok_or_else(|| reject("x,y"))?;
            Ok((x.parse().map_err(|_| reject("x"))?, y.parse().map_err(|_| reject("y"))?))
        }
        fn side(&self, w: &str) -> Result<u8, Reject> {
            match w {
                "heroes" => Ok(0),
                "foes" => Ok(1),
                _ => Err(reject(format!("no side '{w}'"))),
            }
        }
        fn other(&self, words: &[&str]) -> Option<Result<Own, Reject>> {
            match words {
                ["shout", w] => Some(self.who(w).map(|who| Own::Shout { who })),
                ["shout", ..] => Some(Err(reject("gm shout <who>"))),
                _ => None,
            }
        }
        fn verbs(&self) -> &'static str {
            "set, move, add, remove, end or shout"
        }
    }

    fn p(s: &str) -> Result<RulingOf<Toy>, Reject> {
        parse(&Toy, &s.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn the_shared_verbs_read_and_write_back() {
        for text in [
            "set ann hp -3",
            "set bob luck =2",
            "set ann hp +1",
            "move bob 3,4",
            "add cat wolf foes 1,1",
            "remove ann",
            "end heroes",
            "end none",
            "shout bob",
        ] {
            let r = p(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let back = format(
                &r,
                |w| ["ann", "bob"][*w as usize].to_string(),
                |g| g.clone(),
                |(x, y)| format!("{x},{y}"),
                |s| ["heroes", "foes"][s as usize].to_string(),
                |Own::Shout { who }| format!("shout {}", ["ann", "bob"][*who as usize]),
            );
            assert_eq!(back, text);
        }
        assert_eq!(p("end draw").unwrap(), Ruling::End { winner: None });
    }

    #[test]
    fn bad_rulings_say_what_is_wrong() {
        for (text, says) in [
            ("", "expected a ruling: set, move"),
            ("frob ann", "unknown ruling 'frob'"),
            ("set ann", "'gm set' needs what to change"),
            ("set ann mana +1", "'mana' cannot be set"),
            ("set ann hp 3", "'3' is not a change"),
            ("move zed 1,1", "no combatant 'zed'"),
            ("remove ann now", "unexpected 'now'"),
            ("end elves", "no side 'elves'"),
            ("shout", "gm shout <who>"),
        ] {
            let e = p(text).expect_err(text);
            assert!(e.reason.contains(says), "{text}: {}", e.reason);
        }
    }

    #[test]
    fn own_rulings_keep_their_own_tag_in_json() {
        let r: RulingOf<Toy> = Ruling::Other(Own::Shout { who: 1 });
        let j = serde_json::to_string(&r).unwrap();
        assert_eq!(j, r#"{"Shout":{"who":1}}"#);
        let back: RulingOf<Toy> = serde_json::from_str(&j).unwrap();
        assert_eq!(back, r);
        let m: RulingOf<Toy> = serde_json::from_str(r#"{"Move":{"who":0,"to":[2,3]}}"#).unwrap();
        assert_eq!(m, Ruling::Move { who: 0, to: (2, 3) });
        assert_eq!(
            serde_json::to_string(&Ruling::<u8, String, u8, Own>::Adjust {
                who: 0,
                gauge: "hp".into(),
                by: Adjust::Add(-2)
            })
            .unwrap(),
            r#"{"Adjust":{"who":0,"gauge":"hp","by":{"Add":-2}}}"#
        );
    }
}
