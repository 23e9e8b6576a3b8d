//! Commands, typed and as text. The printed form of every command parses back to it, so a
//! person or a script can type what the prompt lists.

use crate::data::Ability;
use crate::place::Place;
pub use crate::ruling::{Gauge, OwnRuling, Pace, Ruling};
use crate::setup::Cid;
use crate::state::{Influence, Mode, State, With};
use fray_engine::Reject;
use fray_engine::diag::suggestion;
use fray_engine::gm::{self, Vocabulary};
use serde::{Deserialize, Serialize};

/// What an attack is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aim {
    /// A character.
    At(Cid),
    /// A place (a blast, MUR-R29).
    Place(Place),
}

/// What a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Command {
    /// The initiative faction names the faction that acts first (MUR-R6).
    Open(u8),
    /// A faction gives the turn to one of its characters (MUR-R1).
    Act(Cid),
    /// A faction passes (MUR-R1).
    Pass,
    /// One step of movement (MUR-R7); `sneak` while concealed (MUR-R42).
    Move {
        /// Where.
        to: Place,
        /// Sneaking.
        sneak: bool,
    },
    /// Full movement, a main action (MUR-R8, MUR-H2).
    Run,
    /// Take a free cover spot in the zone (half a zone of movement).
    Cover,
    /// Attack (MUR-R12): damage, a final blow, a disarm or a grapple; `stunt` proposes an
    /// effect instead of damage (MUR-R32).
    Attack {
        /// At whom or where.
        aim: Aim,
        /// With what.
        with: With,
        /// What it does.
        mode: Mode,
        /// A melee sweep (MUR-R58).
        sweep: bool,
        /// A stunt proposed instead of damage.
        stunt: Option<String>,
    },
    /// Distract, intimidate or taunt (MUR-R8).
    Influence {
        /// Which.
        kind: Influence,
        /// At whom.
        target: Cid,
    },
    /// Shove the grabbed character half a zone and/or into its zone's hazard (MUR-R37).
    Shove {
        /// Who.
        target: Cid,
        /// Where to, if it is moved.
        to: Option<Place>,
        /// Into the hazard.
        hazard: bool,
    },
    /// A larger grabber throws the grabbed character up to range 2 (MUR-R59).
    Throw {
        /// Who.
        target: Cid,
        /// Where to.
        to: Place,
    },
    /// Free a nearby entangled character: a main action and a STR save (MUR-R39).
    Free(Cid),
    /// Spend the turn on a STR save to break free (MUR-R39).
    BreakFree,
    /// Let go of the grabbed character.
    Release,
    /// Put an item in a hand (`off`: the other hand), a bonus action (MUR-R9).
    Equip {
        /// The item.
        item: u8,
        /// The other hand.
        off: bool,
    },
    /// Put an item away, a bonus action.
    Stow(u8),
    /// Put an item down, a bonus action.
    Drop(u8),
    /// Pick up an item lying here, a bonus action (index on the ground).
    PickUp(u16),
    /// Use a consumable on oneself or a nearby character, a bonus action.
    Use {
        /// The item.
        item: u8,
        /// On whom (oneself if `None`).
        on: Option<Cid>,
    },
    /// Reload a reload weapon: a main action a round (MUR-R.. Items: ten rounds).
    Reload(u8),
    /// Interact with the surroundings; `main` when the GM rules it takes a main action.
    Interact {
        /// A main action.
        main: bool,
    },
    /// Say a few words, a bonus action (MUR-R9, MUR-R55): the words are kept in the record.
    Say(String),
    /// Give up (MUR-R46): spends the turn.
    Surrender,
    /// End the turn.
    End,
    /// No reaction to the attack.
    Take,
    /// Dodge: an AGI save (MUR-R20).
    Dodge,
    /// Counter (MUR-R21).
    Counter {
        /// With what.
        with: With,
        /// What it does.
        mode: Mode,
    },
    /// Hide behind a nearby character (MUR-R23) or the grabbed enemy (MUR-R38).
    HideBehind(Cid),
    /// Guard the target (MUR-R24).
    Guard,
    /// Do not guard, do not stand in, do not make an opportunity attack.
    Decline,
    /// Agree to stand in for the target (MUR-R23).
    Agree,
    /// The GM approves a stunt (MUR-R32).
    Approve,
    /// The GM refuses a stunt.
    Veto,
    /// The target accepts a stunt.
    Accept,
    /// The target refuses a stunt: the attack resolves normally.
    Refuse,
    /// An opportunity attack on the enemy moving away (MUR-R25).
    Opportunity(With),
    /// After a failed morale check: withdraw from the fight (MUR-R44).
    Retreat,
    /// The chaos of combat's timer ran out: the turn is lost (MUR-R56).
    TimedOut,
    /// A GM ruling.
    Gm(Ruling),
}

/// The names rulings use, read against a state.
struct Words<'a>(&'a State);

impl Vocabulary for Words<'_> {
    type Who = Cid;
    type Gauge = Gauge;
    type Pos = Place;
    type Other = OwnRuling;
    fn who(&self, word: &str) -> Result<Cid, Reject> {
        self.0
            .find(word)
            .ok_or_else(|| Reject::unreadable(format!("no character '{word}'{}", suggest_who(self.0, word))))
    }
    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        match word {
            "health" => Ok(Gauge::Health),
            "str" => Ok(Gauge::Ability(Ability::Str)),
            "agi" => Ok(Gauge::Ability(Ability::Agi)),
            "wit" => Ok(Gauge::Ability(Ability::Wit)),
            _ => Err(Reject::unreadable(format!(
                "'{word}' cannot be set: the gauges are health, str, agi and wit"
            ))),
        }
    }
    fn pos(&self, word: &str) -> Result<Place, Reject> {
        Place::parse(word, &self.0.setup.zones).map_err(Reject::unreadable)
    }
    fn side(&self, word: &str) -> Result<u8, Reject> {
        let sides = &self.0.setup.sides;
        let i = sides.iter().position(|s| s.id.eq_ignore_ascii_case(word));
        i.map(|i| i as u8).ok_or_else(|| {
            Reject::unreadable(format!(
                "no faction '{word}'{}",
                suggestion(word, sides.iter().map(|x| x.id.as_str()))
            ))
        })
    }
    fn other(&self, words: &[&str]) -> Option<Result<OwnRuling, Reject>> {
        let on_off = |w: &str| match w {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(Reject::unreadable(format!("expected on or off, not '{w}'"))),
        };
        let r = (|| {
            Ok(match words {
                ["conceal", who, v] => OwnRuling::Conceal {
                    who: self.who(who)?,
                    on: on_off(v)?,
                },
                ["hinder", who] => OwnRuling::Hinder { who: self.who(who)? },
                ["penetrate", who] => OwnRuling::Penetrate { who: self.who(who)? },
                ["overwhelm", who] => OwnRuling::Overwhelm { who: self.who(who)? },
                ["frighten", who, of] => OwnRuling::Frighten {
                    who: self.who(who)?,
                    of: self.who(of)?,
                },
                ["calm", who] => OwnRuling::Calm { who: self.who(who)? },
                ["poison", who, v] => OwnRuling::Poison {
                    who: self.who(who)?,
                    on: on_off(v)?,
                },
                ["stun", who] => OwnRuling::Stun { who: self.who(who)? },
                ["enhance", who] => OwnRuling::Enhance { who: self.who(who)? },
                ["impair", who] => OwnRuling::Impair { who: self.who(who)? },
                ["heal", who, n] => OwnRuling::Heal {
                    who: self.who(who)?,
                    amount: n
                        .parse()
                        .map_err(|_| Reject::unreadable(format!("'{n}' is not an amount of health (0 to 255)")))?,
                },
                ["chase", side, pace] => OwnRuling::Chase {
                    side: self.side(side)?,
                    pace: match *pace {
                        "even" => Pace::Even,
                        "faster" => Pace::Faster,
                        "slower" => Pace::Slower,
                        _ => {
                            return Err(Reject::unreadable(format!(
                                "'{pace}': the fleeing faction is even, faster or slower"
                            )));
                        }
                    },
                },
                _ => return Err(Reject::unreadable(String::new())),
            })
        })();
        match r {
            Err(e) if e.reason.is_empty() => None,
            other => Some(other),
        }
    }
    fn verbs(&self) -> &'static str {
        "set, move, add, remove, end, conceal, hinder, penetrate, overwhelm, frighten, calm, poison, stun, enhance, impair, heal or chase"
    }
}

/// " (did you mean 'x'?)" for a mistyped character id, among the characters every seat sees:
/// a concealed one is never offered, as the parse does not know who typed (MUR-R57).
fn suggest_who(s: &State, word: &str) -> String {
    suggestion(word, s.chars.iter().filter(|c| !c.concealed).map(|c| c.id.as_str()))
}

/// The character whose decision it is, if any: the one whose items `with <item>` names.
pub fn actor(s: &State) -> Option<Cid> {
    crate::pending_actor(s)
}

/// Reads an item of `who`: `id` (the one in hand first) or `id@N` (its index).
fn item_of(s: &State, who: Option<Cid>, word: &str) -> Result<u8, Reject> {
    let Some(who) = who else {
        return Err(Reject::unreadable("nobody is deciding now, so no item can be named"));
    };
    let c = s.ch(who);
    if let Some((id, n)) = word.split_once('@') {
        let n: u8 = n
            .parse()
            .map_err(|_| Reject::unreadable(format!("'{word}': expected item@number")))?;
        return match c.item(n) {
            Some(i) if i.id.eq_ignore_ascii_case(id) => Ok(n),
            _ => Err(Reject::unreadable(format!("{} has no item '{word}'", c.name))),
        };
    }
    let matching = |i: &(u8, &crate::state::Item)| i.1.id.eq_ignore_ascii_case(word);
    let in_hand = c.live_items().filter(matching).find(|(i, _)| c.hand_of(*i).is_some());
    let any = c.live_items().find(matching);
    in_hand.or(any).map(|(i, _)| i).ok_or_else(|| {
        let have: Vec<&str> = c.live_items().map(|(_, i)| i.id.as_str()).collect();
        Reject::unreadable(format!(
            "{} has no item '{word}'{} (it has: {})",
            c.name,
            suggestion(word, have.iter().copied()),
            if have.is_empty() {
                "nothing".to_string()
            } else {
                have.join(", ")
            }
        ))
    })
}

/// How an item of `who` is typed: its id, or `id@N` when its id alone names another.
fn item_word(s: &State, who: Option<Cid>, i: u8) -> String {
    let Some(c) = who.and_then(|w| s.chars.get(w as usize)) else {
        return format!("#{i}");
    };
    let Some(it) = c.item(i) else {
        return format!("#{i}");
    };
    if item_of(s, who, &it.id) == Ok(i) {
        it.id.clone()
    } else {
        format!("{}@{i}", it.id)
    }
}

/// Reads `with X` (an item, `unarmed`, or `power P`) from words.
fn with_of(s: &State, who: Option<Cid>, w: &str) -> Result<With, Reject> {
    if w == crate::data::UNARMED {
        return Ok(With::Unarmed);
    }
    if let Some(p) = w.strip_prefix("power:") {
        let Some(c) = who.map(|x| s.ch(x)) else {
            return Err(Reject::unreadable("nobody is deciding now"));
        };
        return c
            .stats
            .powers
            .iter()
            .position(|x| x.eq_ignore_ascii_case(p))
            .map(|i| With::Power(i as u8))
            .ok_or_else(|| {
                Reject::unreadable(format!(
                    "{} has no power '{p}'{}",
                    c.name,
                    suggestion(p, c.stats.powers.iter().map(String::as_str))
                ))
            });
    }
    item_of(s, who, w).map(With::Item)
}

fn with_word(s: &State, who: Option<Cid>, w: With) -> String {
    match w {
        With::Unarmed => crate::data::UNARMED.into(),
        With::Item(i) => item_word(s, who, i),
        With::Power(i) => {
            let name = who
                .and_then(|x| s.chars.get(x as usize))
                .and_then(|c| c.stats.powers.get(i as usize))
                .cloned()
                .unwrap_or_else(|| format!("#{i}"));
            format!("power:{name}")
        }
    }
}

/// The weapon a character attacks with when it names none: the main hand's, else the other
/// hand's, else bare hands.
pub fn default_with(s: &State, who: Cid) -> With {
    let c = s.ch(who);
    let weapon = |h: usize| {
        c.hands[h].filter(|&i| {
            c.item(i)
                .and_then(|it| s.setup.items.get(&it.id))
                .is_some_and(|d| d.is_weapon())
        })
    };
    weapon(0).or_else(|| weapon(1)).map_or(With::Unarmed, With::Item)
}

const GRAMMAR: &str = "expected open <faction>, act <id>, pass, move <place> [sneak], run, cover, attack <id|place> [with <item>] [hold] [sweep] [stunt <words>], final-blow <id>, disarm <id> <item>, grapple <id>, invoke <power> <id|place>, distract|intimidate|taunt <id>, shove <id> [<place>] [hazard], throw <id> <place>, free <id>, break-free, release, equip <item> [off], stow <item>, drop <item>, pickup <item>, use <item> [<id>], reload <item>, interact [main], say [<words>], surrender, end; answers: take, dodge, counter [with <item>] [hold|grapple|disarm <item>], hide-behind <id>, guard, decline, agree, approve, veto, accept, refuse, opportunity [with <item>], retreat, timed-out; or gm <ruling>";

/// Reads a typed command.
pub fn parse(s: &State, text: &str) -> Result<Command, Reject> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let w = Words(s);
    let me = actor(s);
    let unreadable = || Reject::unreadable(format!("'{text}' is not a command: {GRAMMAR}"));
    let place = |p: &str| w.pos(p);
    // `with X` and flags after an attack's target.
    let attack_tail = |rest: &[&str], mut mode: Mode| -> Result<(With, Mode, bool, Option<String>), Reject> {
        let mut with = None;
        let mut sweep = false;
        let mut i = 0;
        while i < rest.len() {
            match rest[i] {
                "with" if i + 1 < rest.len() => {
                    with = Some(with_of(s, me, rest[i + 1])?);
                    i += 2;
                }
                "hold" => {
                    mode = Mode::Harm { hold: true };
                    i += 1;
                }
                "sweep" => {
                    sweep = true;
                    i += 1;
                }
                "stunt" if i + 1 < rest.len() => {
                    return Ok((
                        with.unwrap_or_else(|| me.map_or(With::Unarmed, |m| default_with(s, m))),
                        mode,
                        sweep,
                        Some(rest[i + 1..].join(" ")),
                    ));
                }
                _ => return Err(unreadable()),
            }
        }
        let with = with.unwrap_or_else(|| me.map_or(With::Unarmed, |m| default_with(s, m)));
        Ok((with, mode, sweep, None))
    };
    let aim = |word: &str| -> Result<Aim, Reject> {
        match s.find(word) {
            Some(c) => Ok(Aim::At(c)),
            None => place(word).map(Aim::Place).map_err(|_| {
                let zones = s.setup.zones.zones().iter().map(|z| z.id.as_str());
                let seen = s.chars.iter().filter(|c| !c.concealed).map(|c| c.id.as_str());
                Reject::unreadable(format!(
                    "'{word}' is neither a character nor a place{}",
                    suggestion(word, seen.chain(zones))
                ))
            }),
        }
    };
    Ok(match words.as_slice() {
        ["gm", rest @ ..] => Command::Gm(gm::parse(&w, rest)?),
        ["open", side] => Command::Open(w.side(side)?),
        ["act", who] => Command::Act(w.who(who)?),
        ["pass"] => Command::Pass,
        ["move", p] => Command::Move {
            to: place(p)?,
            sneak: false,
        },
        ["move", p, "sneak"] => Command::Move {
            to: place(p)?,
            sneak: true,
        },
        ["run"] => Command::Run,
        ["cover"] => Command::Cover,
        ["attack", t, rest @ ..] => {
            let (with, mode, sweep, stunt) = attack_tail(rest, Mode::Harm { hold: false })?;
            Command::Attack {
                aim: aim(t)?,
                with,
                mode,
                sweep,
                stunt,
            }
        }
        ["final-blow", t, rest @ ..] => {
            let (with, _, _, _) = attack_tail(rest, Mode::FinalBlow)?;
            Command::Attack {
                aim: Aim::At(w.who(t)?),
                with,
                mode: Mode::FinalBlow,
                sweep: false,
                stunt: None,
            }
        }
        ["disarm", t, item, rest @ ..] => {
            let target = w.who(t)?;
            let item = item_of(s, Some(target), item)?;
            let (with, _, _, _) = attack_tail(rest, Mode::Disarm { item })?;
            Command::Attack {
                aim: Aim::At(target),
                with,
                mode: Mode::Disarm { item },
                sweep: false,
                stunt: None,
            }
        }
        ["grapple", t, rest @ ..] => {
            let (with, _, _, _) = attack_tail(rest, Mode::Grapple)?;
            Command::Attack {
                aim: Aim::At(w.who(t)?),
                with,
                mode: Mode::Grapple,
                sweep: false,
                stunt: None,
            }
        }
        ["invoke", p, t, rest @ ..] => {
            let with = with_of(s, me, &format!("power:{p}"))?;
            let (_, _, _, stunt) = attack_tail(rest, Mode::Harm { hold: false })?;
            Command::Attack {
                aim: aim(t)?,
                with,
                mode: Mode::Harm { hold: false },
                sweep: false,
                stunt,
            }
        }
        ["distract", t] => Command::Influence {
            kind: Influence::Distract,
            target: w.who(t)?,
        },
        ["intimidate", t] => Command::Influence {
            kind: Influence::Intimidate,
            target: w.who(t)?,
        },
        ["taunt", t] => Command::Influence {
            kind: Influence::Taunt,
            target: w.who(t)?,
        },
        ["shove", t, rest @ ..] => {
            let target = w.who(t)?;
            let (to, hazard) = match rest {
                [] => (None, false),
                ["hazard"] => (None, true),
                [p] => (Some(place(p)?), false),
                [p, "hazard"] => (Some(place(p)?), true),
                _ => return Err(unreadable()),
            };
            Command::Shove { target, to, hazard }
        }
        ["throw", t, p] => Command::Throw {
            target: w.who(t)?,
            to: place(p)?,
        },
        ["free", t] => Command::Free(w.who(t)?),
        ["break-free"] => Command::BreakFree,
        ["release"] => Command::Release,
        ["equip", i] => Command::Equip {
            item: item_of(s, me, i)?,
            off: false,
        },
        ["equip", i, "off"] => Command::Equip {
            item: item_of(s, me, i)?,
            off: true,
        },
        ["stow", i] => Command::Stow(item_of(s, me, i)?),
        ["drop", i] => Command::Drop(item_of(s, me, i)?),
        ["pickup", i] => {
            let at = me.map(|m| s.ch(m).at);
            let g = s
                .ground
                .iter()
                .position(|(p, it)| Some(*p) == at && it.id.eq_ignore_ascii_case(i))
                .ok_or_else(|| Reject::unreadable(format!("no '{i}' lies here")))?;
            Command::PickUp(g as u16)
        }
        ["use", i] => Command::Use {
            item: item_of(s, me, i)?,
            on: None,
        },
        ["use", i, t] => Command::Use {
            item: item_of(s, me, i)?,
            on: Some(w.who(t)?),
        },
        ["reload", i] => Command::Reload(item_of(s, me, i)?),
        ["interact"] => Command::Interact { main: false },
        ["interact", "main"] => Command::Interact { main: true },
        ["say", rest @ ..] => Command::Say(rest.join(" ")),
        ["surrender"] => Command::Surrender,
        ["end"] => Command::End,
        ["take"] => Command::Take,
        ["dodge"] => Command::Dodge,
        ["counter", rest @ ..] => {
            let (mode, rest) = match rest {
                ["grapple", r @ ..] => (Mode::Grapple, r),
                ["disarm", item, r @ ..] => {
                    let foe = crate::countered_attacker(s)
                        .ok_or_else(|| Reject::unreadable("there is no attack to counter now"))?;
                    (
                        Mode::Disarm {
                            item: item_of(s, Some(foe), item)?,
                        },
                        r,
                    )
                }
                r => (Mode::Harm { hold: false }, r),
            };
            let (with, mode, sweep, stunt) = attack_tail(rest, mode)?;
            if sweep || stunt.is_some() {
                return Err(Reject::unreadable("a counter has no sweep and no stunt"));
            }
            Command::Counter { with, mode }
        }
        ["hide-behind", t] => Command::HideBehind(w.who(t)?),
        ["guard"] => Command::Guard,
        ["decline"] => Command::Decline,
        ["agree"] => Command::Agree,
        ["approve"] => Command::Approve,
        ["veto"] => Command::Veto,
        ["accept"] => Command::Accept,
        ["refuse"] => Command::Refuse,
        ["opportunity"] => Command::Opportunity(me.map_or(With::Unarmed, |m| default_with(s, m))),
        ["opportunity", "with", i] => Command::Opportunity(with_of(s, me, i)?),
        ["retreat"] => Command::Retreat,
        ["timed-out"] => Command::TimedOut,
        _ => return Err(unreadable()),
    })
}

/// Prints a command as [`parse`] reads it (an index that names nobody, from an edited record,
/// prints as `#N`).
pub fn format(s: &State, c: &Command) -> String {
    let id = |w: &Cid| {
        s.chars
            .get(*w as usize)
            .map_or_else(|| format!("#{w}"), |c| c.id.clone())
    };
    let place = |p: &Place| {
        if p.valid(&s.setup.zones) {
            p.word(&s.setup.zones)
        } else {
            p.to_string()
        }
    };
    let me = actor(s);
    let side = |i: u8| {
        s.setup
            .sides
            .get(i as usize)
            .map_or_else(|| format!("#{i}"), |x| x.id.clone())
    };
    let with = |w: With| {
        if me.is_some_and(|m| default_with(s, m) == w) {
            String::new()
        } else {
            format!(" with {}", with_word(s, me, w))
        }
    };
    match c {
        Command::Open(x) => format!("open {}", side(*x)),
        Command::Act(w) => format!("act {}", id(w)),
        Command::Pass => "pass".into(),
        Command::Move { to, sneak } => format!("move {}{}", place(to), if *sneak { " sneak" } else { "" }),
        Command::Run => "run".into(),
        Command::Cover => "cover".into(),
        Command::Attack {
            aim,
            with: w,
            mode,
            sweep,
            stunt,
        } => {
            let target = match aim {
                Aim::At(t) => id(t),
                Aim::Place(p) => place(p),
            };
            let tail = format!(
                "{}{}{}",
                if *sweep { " sweep" } else { "" },
                if matches!(mode, Mode::Harm { hold: true }) {
                    " hold"
                } else {
                    ""
                },
                stunt.as_ref().map(|x| format!(" stunt {x}")).unwrap_or_default()
            );
            match (mode, w) {
                (Mode::Harm { .. }, With::Power(_)) => {
                    let p = with_word(s, me, *w);
                    format!(
                        "invoke {} {target}{}",
                        p.trim_start_matches("power:"),
                        stunt.as_ref().map(|x| format!(" stunt {x}")).unwrap_or_default()
                    )
                }
                (Mode::Harm { .. }, _) => format!("attack {target}{}{tail}", with(*w)),
                (Mode::FinalBlow, _) => format!("final-blow {target}{}", with(*w)),
                (Mode::Disarm { item }, _) => {
                    let t = match aim {
                        Aim::At(t) => Some(*t),
                        Aim::Place(_) => None,
                    };
                    format!("disarm {target} {}{}", item_word(s, t, *item), with(*w))
                }
                (Mode::Grapple, _) => format!("grapple {target}{}", with(*w)),
            }
        }
        Command::Influence { kind, target } => {
            let verb = match kind {
                Influence::Distract => "distract",
                Influence::Intimidate => "intimidate",
                Influence::Taunt => "taunt",
            };
            format!("{verb} {}", id(target))
        }
        Command::Shove { target, to, hazard } => format!(
            "shove {}{}{}",
            id(target),
            to.map(|p| format!(" {}", place(&p))).unwrap_or_default(),
            if *hazard { " hazard" } else { "" }
        ),
        Command::Throw { target, to } => format!("throw {} {}", id(target), place(to)),
        Command::Free(t) => format!("free {}", id(t)),
        Command::BreakFree => "break-free".into(),
        Command::Release => "release".into(),
        Command::Equip { item, off } => {
            format!("equip {}{}", item_word(s, me, *item), if *off { " off" } else { "" })
        }
        Command::Stow(i) => format!("stow {}", item_word(s, me, *i)),
        Command::Drop(i) => format!("drop {}", item_word(s, me, *i)),
        Command::PickUp(g) => format!(
            "pickup {}",
            s.ground
                .get(*g as usize)
                .map_or_else(|| format!("#{g}"), |(_, it)| it.id.clone())
        ),
        Command::Use { item, on } => format!(
            "use {}{}",
            item_word(s, me, *item),
            on.map(|o| format!(" {}", id(&o))).unwrap_or_default()
        ),
        Command::Reload(i) => format!("reload {}", item_word(s, me, *i)),
        Command::Interact { main } => format!("interact{}", if *main { " main" } else { "" }),
        Command::Say(words) if words.is_empty() => "say".into(),
        Command::Say(words) => format!("say {words}"),
        Command::Surrender => "surrender".into(),
        Command::End => "end".into(),
        Command::Take => "take".into(),
        Command::Dodge => "dodge".into(),
        Command::Counter { with: w, mode } => {
            let m = match mode {
                Mode::Harm { hold: true } => " hold".to_string(),
                Mode::Grapple => " grapple".into(),
                Mode::Disarm { item } => {
                    format!(" disarm {}", item_word(s, crate::countered_attacker(s), *item))
                }
                _ => String::new(),
            };
            // `counter disarm <item>` reads its own flags first, then `with`.
            format!("counter{m}{}", with(*w))
        }
        Command::HideBehind(t) => format!("hide-behind {}", id(t)),
        Command::Guard => "guard".into(),
        Command::Decline => "decline".into(),
        Command::Agree => "agree".into(),
        Command::Approve => "approve".into(),
        Command::Veto => "veto".into(),
        Command::Accept => "accept".into(),
        Command::Refuse => "refuse".into(),
        Command::Opportunity(w) => format!("opportunity{}", with(*w)),
        Command::Retreat => "retreat".into(),
        Command::TimedOut => "timed-out".into(),
        Command::Gm(r) => {
            let gauge = |g: &Gauge| match g {
                Gauge::Health => "health".to_string(),
                Gauge::Ability(a) => a.word().to_ascii_lowercase(),
            };
            let other = |o: &OwnRuling| match *o {
                OwnRuling::Conceal { who, on } => format!("conceal {} {}", id(&who), if on { "on" } else { "off" }),
                OwnRuling::Hinder { who } => format!("hinder {}", id(&who)),
                OwnRuling::Penetrate { who } => format!("penetrate {}", id(&who)),
                OwnRuling::Overwhelm { who } => format!("overwhelm {}", id(&who)),
                OwnRuling::Frighten { who, of } => format!("frighten {} {}", id(&who), id(&of)),
                OwnRuling::Calm { who } => format!("calm {}", id(&who)),
                OwnRuling::Poison { who, on } => format!("poison {} {}", id(&who), if on { "on" } else { "off" }),
                OwnRuling::Stun { who } => format!("stun {}", id(&who)),
                OwnRuling::Enhance { who } => format!("enhance {}", id(&who)),
                OwnRuling::Impair { who } => format!("impair {}", id(&who)),
                OwnRuling::Heal { who, amount } => format!("heal {} {amount}", id(&who)),
                OwnRuling::Chase { side: x, pace } => format!(
                    "chase {} {}",
                    side(x),
                    match pace {
                        Pace::Even => "even",
                        Pace::Faster => "faster",
                        Pace::Slower => "slower",
                    }
                ),
            };
            let ruling = gm::format(r, id, gauge, place, side, other);
            format!("gm {ruling}")
        }
    }
}
