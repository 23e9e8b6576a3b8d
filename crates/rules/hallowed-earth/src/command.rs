//! Commands, typed and as text. The printed form of every command parses back to it, so a
//! person or a script can type what the prompt lists.
//!
//! ```text
//! declare <who> attack <target> [with <weapon>]      declare <who> full-defense
//! declare <who> defensive [<target>] [with <weapon>] declare <who> cast <spell> <target> [pay mana <M> stress <S>]
//! declare <who> use <item> [<target>]                declare <who> throw <weapon> <target>
//! declare <who> heal <target>                        declare <who> intimidate <target>
//! declare <who> move                                 declare <who> flee
//! declare <who> free step|draw <weapon>|drop <weapon>|speak
//! move <x,y>    act [<new-target>]    free    step <x,y>    end
//! reposte [with <weapon>]    pass    injury <type>
//! ```

use crate::setup::Cid;
use crate::state::{Action, Free, State};
use fray_engine::Reject;
use fray_engine::gm::{self, Vocabulary};
use fray_space::Pos;
use serde::{Deserialize, Serialize};

/// What a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Command {
    /// Declare a creature's action for the round (HAL-R6).
    Declare { who: Cid, action: Action },
    /// Declare a creature's Free action for the round, before its action (HAL-R17).
    DeclareFree { who: Cid, free: Free },
    /// Take the declared Free action now (a draw, a drop, speech).
    Free,
    /// Take the declared Free action, a short move, to this square.
    Step(Pos),
    /// Move to a square on the creature's count (HAL-R18, HAL-H17).
    Move(Pos),
    /// Take the declared action now; with a creature, aimed at a new target (HAL-H16).
    Act(Option<Cid>),
    /// End the turn (giving up the declared action if it was not taken).
    End,
    /// Answer a Reposte chance with an attack, with a named weapon or the first that reaches
    /// (HAL-R14, HAL-R16).
    Reposte(Option<u8>),
    /// Let a Reposte chance go.
    Pass,
    /// Pick the injury table of a critical hit with several damage types (HAL-R39).
    Injury(String),
    /// A GM ruling.
    Gm(Ruling),
}

/// The gauges a GM may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gauge {
    /// Stress now.
    Stress,
    /// Wound Points now.
    Wp,
    /// Mana now.
    Mana,
}

impl Gauge {
    /// Its name in commands.
    pub fn name(self) -> &'static str {
        match self {
            Gauge::Stress => "stress",
            Gauge::Wp => "wp",
            Gauge::Mana => "mana",
        }
    }
}

/// Hallowed Earth's own rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnRuling {
    /// `gm unaware <id>`: the creature is Surprised this round (HAL-R2, HAL-H21): a newcomer
    /// before it declares, or anyone before round 1's declarations.
    Unaware(Cid),
    /// `gm obvious <id>`: the outcome is obvious to this monster, so its morale checks fail
    /// (HAL-R22); typed again, it no longer is.
    Obvious(Cid),
    /// `gm blind <id>`: the creature is Blinded, or no longer (HAL-H6).
    Blind(Cid),
}

/// A GM ruling in the shared vocabulary.
pub type Ruling = gm::Ruling<Cid, Gauge, Pos, OwnRuling>;

/// The names rulings use, read against a state.
struct Words<'a>(&'a State);

impl Vocabulary for Words<'_> {
    type Who = Cid;
    type Gauge = Gauge;
    type Pos = Pos;
    type Other = OwnRuling;
    fn who(&self, word: &str) -> Result<Cid, Reject> {
        self.0.find(word).ok_or_else(|| {
            let ids = self.0.chars.iter().map(|c| c.id.as_ref());
            Reject::unreadable(format!(
                "no combatant '{word}'{}",
                fray_engine::diag::suggestion(word, ids)
            ))
        })
    }
    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        match word {
            "stress" => Ok(Gauge::Stress),
            "wp" => Ok(Gauge::Wp),
            "mana" => Ok(Gauge::Mana),
            _ => Err(Reject::unreadable(format!(
                "'{word}' cannot be set: the gauges are stress, wp and mana"
            ))),
        }
    }
    fn pos(&self, word: &str) -> Result<Pos, Reject> {
        word.parse()
            .map_err(|_| Reject::unreadable(format!("'{word}' is not a square: expected x,y")))
    }
    fn side(&self, word: &str) -> Result<u8, Reject> {
        let sides = &self.0.setup.sides;
        let i = sides.iter().position(|s| s.id == word);
        i.map(|i| i as u8).ok_or_else(|| {
            let ids = sides.iter().map(|s| s.id.as_str());
            Reject::unreadable(format!("no side '{word}'{}", fray_engine::diag::suggestion(word, ids)))
        })
    }
    fn other(&self, words: &[&str]) -> Option<Result<OwnRuling, Reject>> {
        let make: fn(Cid) -> OwnRuling = match *words.first()? {
            "unaware" => OwnRuling::Unaware,
            "obvious" => OwnRuling::Obvious,
            "blind" => OwnRuling::Blind,
            _ => return None,
        };
        Some(match words {
            [_, who] => self.who(who).map(make),
            [verb, ..] => Err(Reject::unreadable(format!("'gm {verb}' needs one combatant id"))),
            [] => return None,
        })
    }
    fn verbs(&self) -> &'static str {
        "set, move, add, remove, end, unaware, obvious or blind"
    }
}

/// Reads a weapon, spell or item name of a creature's stat block.
fn named(list: impl Iterator<Item = String>, word: &str, what: &str, who: &str) -> Result<u8, Reject> {
    let names: Vec<String> = list.collect();
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(word))
        .map(|i| i as u8)
        .ok_or_else(|| {
            let known = if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            };
            let hint = fray_engine::diag::suggestion(word, names.iter().map(String::as_str));
            Reject::unreadable(format!("{who} has no {what} '{word}'{hint} (known: {known})"))
        })
}

/// Reads the words after `pay` (`mana M stress S`, either order, or one of the two) into the
/// Stress part of a spell's cost (HAL-R26); the parts must add up to the cost.
fn split(words: &[&str], spell: &str, cost: i16) -> Result<i16, Reject> {
    let usage = || {
        Reject::unreadable(format!(
            "pay mana <M> stress <S>: the parts of {spell}'s cost of {cost}, in Mana and in Stress (either may be left out)"
        ))
    };
    let (mut mana, mut stress) = (None, None);
    for pair in words.chunks(2) {
        let [what, n] = pair else { return Err(usage()) };
        let n: i16 = n.parse().ok().filter(|n| (0..=999).contains(n)).ok_or_else(usage)?;
        let slot = match *what {
            "mana" => &mut mana,
            "stress" => &mut stress,
            _ => return Err(usage()),
        };
        if slot.replace(n).is_some() {
            return Err(usage());
        }
    }
    let paid = match (mana, stress) {
        (None, None) => return Err(usage()),
        (Some(m), Some(s)) if m + s != cost => {
            return Err(Reject::unreadable(format!(
                "{spell} costs {cost}: mana {m} and stress {s} make {}",
                m + s
            )));
        }
        (_, Some(s)) => s,
        (Some(m), None) => cost - m,
    };
    if !(0..=cost).contains(&paid) {
        return Err(Reject::unreadable(format!("{spell} costs {cost}: that pays more")));
    }
    Ok(paid)
}

/// Reads a Free action's words (after `declare <who> free`).
fn free_action(s: &State, who: Cid, words: &[&str]) -> Result<Free, Reject> {
    let st = s.stats(who);
    let name = &s.ch(who).name;
    let weapon = |word: &str| named(st.weapons.iter().map(|x| x.name.clone()), word, "weapon", name);
    Ok(match words {
        ["step"] => Free::Step,
        ["draw", x] => Free::Draw { weapon: weapon(x)? },
        ["drop", x] => Free::Drop { weapon: weapon(x)? },
        ["speak"] => Free::Speak,
        _ => {
            return Err(Reject::unreadable(
                "declare <who> free followed by: step, draw <weapon>, drop <weapon> or speak",
            ));
        }
    })
}

/// Prints a Free action as [`parse`] reads it after `declare <who> free`.
pub fn format_free(s: &State, who: Cid, f: &Free) -> String {
    let weapon = |i: u8| {
        s.chars
            .get(usize::from(who))
            .and_then(|_| s.stats(who).weapons.get(usize::from(i)))
            .map_or_else(|| format!("#{i}"), |x| x.name.clone())
    };
    match *f {
        Free::Step => "step".into(),
        Free::Draw { weapon: w } => format!("draw {}", weapon(w)),
        Free::Drop { weapon: w } => format!("drop {}", weapon(w)),
        Free::Speak => "speak".into(),
    }
}

/// Reads a declaration's action words (after `declare <who>`).
fn action(s: &State, who: Cid, words: &[&str]) -> Result<Action, Reject> {
    let w = Words(s);
    let st = s.stats(who);
    let name = &s.ch(who).name;
    let weapon = |word: &str| named(st.weapons.iter().map(|x| x.name.clone()), word, "weapon", name);
    let first_weapon = || {
        if st.weapons.is_empty() {
            Err(Reject::unreadable(format!("{name} has no weapon")))
        } else {
            Ok(0)
        }
    };
    Ok(match words {
        ["attack", t] => Action::Attack {
            target: w.who(t)?,
            weapon: first_weapon()?,
        },
        ["attack", t, "with", x] => Action::Attack {
            target: w.who(t)?,
            weapon: weapon(x)?,
        },
        ["defensive"] => Action::Defensive {
            target: None,
            weapon: first_weapon().unwrap_or(0),
        },
        ["defensive", "with", x] => Action::Defensive {
            target: None,
            weapon: weapon(x)?,
        },
        ["defensive", t] => Action::Defensive {
            target: Some(w.who(t)?),
            weapon: first_weapon()?,
        },
        ["defensive", t, "with", x] => Action::Defensive {
            target: Some(w.who(t)?),
            weapon: weapon(x)?,
        },
        ["full-defense"] => Action::FullDefense,
        ["cast", sp, t, rest @ ..] if rest.is_empty() || rest[0] == "pay" => {
            let spell = named(st.spells.iter().map(|x| x.name.clone()), sp, "spell", name)?;
            let cost = st.spells[usize::from(spell)].mana;
            Action::Cast {
                spell,
                target: w.who(t)?,
                stress: match rest {
                    [] => None,
                    [_, pay @ ..] => Some(split(pay, &st.spells[usize::from(spell)].name, cost)?),
                },
            }
        }
        ["use", it] => Action::Use {
            item: named(st.items.iter().map(|x| x.name.clone()), it, "item", name)?,
            target: who,
        },
        ["use", it, t] => Action::Use {
            item: named(st.items.iter().map(|x| x.name.clone()), it, "item", name)?,
            target: w.who(t)?,
        },
        ["throw", x, t] => Action::Throw {
            weapon: weapon(x)?,
            target: w.who(t)?,
        },
        ["heal", t] => Action::Heal { target: w.who(t)? },
        ["intimidate", t] => Action::Intimidate { target: w.who(t)? },
        ["move"] => Action::Move,
        ["flee"] => Action::Flee,
        _ => {
            return Err(Reject::unreadable(
                "declare <who> followed by: attack <target> [with <weapon>], defensive [<target>] [with <weapon>], \
                 full-defense, cast <spell> <target> [pay mana <M> stress <S>], use <item> [<target>], throw <weapon> <target>, heal <target>, \
                 intimidate <target>, move or flee",
            ));
        }
    })
}

/// Reads a typed command.
pub fn parse(s: &State, text: &str) -> Result<Command, Reject> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let w = Words(s);
    Ok(match words.as_slice() {
        ["gm", rest @ ..] => Command::Gm(gm::parse(&w, rest)?),
        ["declare", who, "free", rest @ ..] => {
            let who = w.who(who)?;
            Command::DeclareFree {
                who,
                free: free_action(s, who, rest)?,
            }
        }
        ["declare", who, rest @ ..] => {
            let who = w.who(who)?;
            Command::Declare {
                who,
                action: action(s, who, rest)?,
            }
        }
        ["move", p] => Command::Move(w.pos(p)?),
        ["act"] => Command::Act(None),
        ["act", t] => Command::Act(Some(w.who(t)?)),
        ["end"] => Command::End,
        ["free"] => Command::Free,
        ["step", p] => Command::Step(w.pos(p)?),
        ["reposte"] => Command::Reposte(None),
        ["reposte", "with", x] => {
            let Some(f) = s.frames.last() else {
                return Err(Reject::unreadable("there is no Reposte to make now"));
            };
            let crate::state::Frame::Reposte { by, .. } = f else {
                return Err(Reject::unreadable("there is no Reposte to make now"));
            };
            let st = s.stats(*by);
            Command::Reposte(Some(named(
                st.weapons.iter().map(|x| x.name.clone()),
                x,
                "weapon",
                &s.ch(*by).name,
            )?))
        }
        ["pass"] => Command::Pass,
        ["injury", t] => Command::Injury((*t).to_string()),
        _ => {
            return Err(Reject::unreadable(format!(
                "'{text}' is not a command: expected declare <who> <action>, declare <who> free <free action>, \
                 move x,y, act [<target>], free, step x,y, end, reposte [with <weapon>], pass, injury <type> or gm <ruling>"
            )));
        }
    })
}

/// Prints a declared action as [`parse`] reads it after `declare <who>`.
pub fn format_action(s: &State, who: Cid, a: &Action) -> String {
    let id = |w: Cid| {
        s.chars
            .get(usize::from(w))
            .map_or_else(|| format!("#{w}"), |c| c.id.to_string())
    };
    let stats = s.chars.get(usize::from(who)).map(|_| s.stats(who));
    let weapon = |i: u8| {
        stats
            .and_then(|st| st.weapons.get(usize::from(i)))
            .map_or_else(|| format!("#{i}"), |x| x.name.clone())
    };
    match *a {
        Action::Attack { target, weapon: x } => format!("attack {} with {}", id(target), weapon(x)),
        Action::Defensive {
            target: Some(t),
            weapon: x,
        } => format!("defensive {} with {}", id(t), weapon(x)),
        Action::Defensive {
            target: None,
            weapon: x,
        } => match stats.and_then(|st| st.weapons.get(usize::from(x))) {
            Some(w) => format!("defensive with {}", w.name),
            None => "defensive".into(),
        },
        Action::FullDefense => "full-defense".into(),
        Action::Cast { spell, target, stress } => {
            let sp = stats.and_then(|st| st.spells.get(usize::from(spell)));
            let name = sp.map_or_else(|| format!("#{spell}"), |x| x.name.clone());
            match (stress, sp) {
                (None, _) => format!("cast {name} {}", id(target)),
                (Some(paid), Some(sp)) => {
                    format!("cast {name} {} pay mana {} stress {paid}", id(target), sp.mana - paid)
                }
                (Some(paid), None) => format!("cast {name} {} pay stress {paid}", id(target)),
            }
        }
        Action::Use { item, target } => {
            let it = stats
                .and_then(|st| st.items.get(usize::from(item)))
                .map_or_else(|| format!("#{item}"), |x| x.name.clone());
            format!("use {it} {}", id(target))
        }
        Action::Throw { weapon: x, target } => format!("throw {} {}", weapon(x), id(target)),
        Action::Heal { target } => format!("heal {}", id(target)),
        Action::Intimidate { target } => format!("intimidate {}", id(target)),
        Action::Move => "move".into(),
        Action::Flee => "flee".into(),
    }
}

/// Prints a command as [`parse`] reads it (an index that names nobody, from an edited record,
/// prints as `#N`).
pub fn format(s: &State, c: &Command) -> String {
    let id = |w: &Cid| {
        s.chars
            .get(usize::from(*w))
            .map_or_else(|| format!("#{w}"), |c| c.id.to_string())
    };
    match c {
        Command::Declare { who, action } => format!("declare {} {}", id(who), format_action(s, *who, action)),
        Command::DeclareFree { who, free } => format!("declare {} free {}", id(who), format_free(s, *who, free)),
        Command::Free => "free".into(),
        Command::Step(p) => format!("step {p}"),
        Command::Move(p) => format!("move {p}"),
        Command::Act(None) => "act".into(),
        Command::Act(Some(t)) => format!("act {}", id(t)),
        Command::End => "end".into(),
        Command::Reposte(None) => "reposte".into(),
        Command::Reposte(Some(x)) => {
            let by = match s.frames.last() {
                Some(crate::state::Frame::Reposte { by, .. }) => Some(*by),
                _ => None,
            };
            let name = by
                .and_then(|b| s.stats(b).weapons.get(usize::from(*x)))
                .map_or_else(|| format!("#{x}"), |w| w.name.clone());
            format!("reposte with {name}")
        }
        Command::Pass => "pass".into(),
        Command::Injury(t) => format!("injury {t}"),
        Command::Gm(r) => {
            let side = |i: u8| {
                s.setup
                    .sides
                    .get(usize::from(i))
                    .map_or_else(|| format!("#{i}"), |x| x.id.clone())
            };
            let ruling = gm::format(
                r,
                id,
                |g| g.name().into(),
                Pos::to_string,
                side,
                |x| match x {
                    OwnRuling::Unaware(w) => format!("unaware {}", id(w)),
                    OwnRuling::Obvious(w) => format!("obvious {}", id(w)),
                    OwnRuling::Blind(w) => format!("blind {}", id(w)),
                },
            );
            format!("gm {ruling}")
        }
    }
}
