//! Commands: what seats can submit, with their typed form.
//!
//! The text form is documented in docs/commands.md (Ingenuity section) and is stable: the prompt
//! of `fray play` prints every legal command in exactly the form [`parse`] reads back. Items are
//! named by id; a second copy of the same item is `id#2`.

use crate::data::{Attr, Cond};
use crate::setup::{Cid, Objective};
use crate::state::{Readied, ReadyAction, State, Trigger};
use fray_engine::{Reject, gm};
use fray_space::Pos;
use serde::{Deserialize, Serialize};

/// An action in a turn (or given by Command).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move up to Speed (ING-R22).
    Move(Pos),
    /// A free 1 m step (ING-R29).
    Step(Pos),
    /// Another move for 1 stamina after moving (ING-R23).
    Sprint(Pos),
    /// Attack (ING-R37).
    Attack {
        /// Target.
        target: Cid,
        /// Item slot.
        slot: u8,
        /// Attribute.
        attr: Attr,
        /// Proficiency (one of the weapon's).
        prof: Option<String>,
    },
    /// Choose what is held (ING-R19); slots.
    Brandish(Vec<u8>),
    /// Use something in the area (ING-R19): a narrative action the GM rules on.
    Interact(String),
    /// Pick an item up from the ground (an Interact).
    PickUp(u16),
    /// End the turn guarding (ING-R21).
    Guard,
    /// End the turn with an extra reaction (ING-R28).
    Wait,
    /// End the turn with a readied action (ING-R24).
    Ready(Readied),
    /// Two actions: go prone and test to wake someone (ING-R25).
    Resuscitate(Cid),
    /// Seek cover (ING-R26).
    SeekCover,
    /// A task with a test (ING-R27, ING-R68).
    Task {
        /// Attribute.
        attr: Attr,
        /// Skill.
        skill: String,
        /// Proficiency.
        prof: Option<String>,
        /// Difficulty.
        difficulty: i16,
        /// Its length in seconds, if not a 3-action Short Task.
        seconds: Option<u16>,
    },
    /// Stand up (ING-R19).
    StandUp,
    /// Drop an item (free, ING-R29).
    Drop(u8),
    /// Drop prone (free, ING-R29).
    DropProne,
    /// Reload an item.
    Reload(u8),
    /// A killing strike (ING-R64).
    Kill {
        /// The unconscious target.
        target: Cid,
        /// Item slot.
        slot: u8,
    },
    /// Give an ally one action (ING-R20).
    Command {
        /// The ally.
        ally: Cid,
        /// The action.
        action: Box<Action>,
    },
    /// End the turn.
    End,
}

/// A number a ruling changes: the engine's shared [`gm::Adjust`] (same JSON).
pub use fray_engine::gm::Adjust;

/// A GM ruling.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruling {
    /// Change a resource: `health`, `endurance`, `stamina`, `focus`, `death-difficulty`.
    Set(Cid, String, Adjust),
    /// Change an item's durability.
    Durability(Cid, u8, Adjust),
    /// A condition on or off.
    Condition(Cid, Cond, bool),
    /// Knock out.
    KnockOut(Cid),
    /// Wake up.
    Revive(Cid),
    /// Kill.
    Kill(Cid),
    /// Put on a square.
    Move(Cid, Pos),
    /// A combatant from a template joins a team.
    Add {
        /// New id.
        id: String,
        /// Template.
        template: String,
        /// Team index.
        team: u8,
        /// Square.
        at: Pos,
    },
    /// Out of the fight.
    Remove(Cid),
    /// End the combat with a winner, or none.
    End(Option<u8>),
    /// Replace a team's objective.
    Objective(u8, Option<Objective>),
    /// Reorder the teams: at once before anyone has acted in a round, otherwise from the next.
    Order(Vec<u8>),
}

/// A ruling read by the engine's shared vocabulary ([`gm::parse`]): a shared verb, or one of
/// Ingenuity's own (`Other`, already a [`Ruling`]).
pub type SharedRuling = gm::Ruling<Cid, String, Pos, Ruling>;

impl From<SharedRuling> for Ruling {
    fn from(r: SharedRuling) -> Ruling {
        match r {
            gm::Ruling::Adjust { who, gauge, by } => Ruling::Set(who, gauge, by),
            gm::Ruling::Move { who, to } => Ruling::Move(who, to),
            gm::Ruling::Add { id, template, side, at } => Ruling::Add {
                id,
                template,
                team: side,
                at,
            },
            gm::Ruling::Remove { who } => Ruling::Remove(who),
            gm::Ruling::End { winner } => Ruling::End(winner),
            gm::Ruling::Other(r) => r,
        }
    }
}

/// What a seat can submit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// A team picks the member who acts next (ING-R7).
    Pick(Cid),
    /// Pay toward the extended action in progress (ING-R34).
    Continue,
    /// Drop it (ING-R35).
    Abandon,
    /// An action (also the options after a dodge: `prone`, `cover`, `step`).
    Act(Action),
    /// This ally takes the attacked ally's place (ING-R33).
    Intercept(Cid),
    /// Dodge (ING-R48).
    Dodge,
    /// Parry with an item slot (ING-R53).
    Parry(u8),
    /// Fortify against an effect, or to stay conscious (ING-R49, ING-R60).
    Fortify,
    /// Resist a mental effect (ING-R50).
    Resist,
    /// Block with an item slot (ING-R51).
    Block(u8),
    /// Fall unconscious rather than fortify (ING-R60).
    Fall,
    /// Act on a readied action now.
    Fire,
    /// Keep it readied.
    Hold,
    /// Decline (no reaction, no more defences, done after a dodge).
    Pass,
    /// A GM ruling.
    Gm(Ruling),
}

/// Text that is not a command (unknown words, missing or malformed arguments, names that
/// match nothing): the engine-wide `unknown-command` refusal. Commands the rules refuse are
/// parsed and refused by `check` with their own codes.
fn no(reason: impl Into<String>) -> Reject {
    Reject::unreadable(reason)
}

/// The slot a parsed command names when its character holds no weapon to default to: `check`
/// refuses it with `no-weapon` (the text is a command; the rules refuse it).
pub const NO_SLOT: u8 = u8::MAX;

/// The words that start an action (a turn's commands).
const ACTION_WORDS: [&str; 21] = [
    "move",
    "step",
    "sprint",
    "attack",
    "brandish",
    "interact",
    "pickup",
    "guard",
    "wait",
    "ready",
    "resuscitate",
    "seek-cover",
    "cover",
    "stand",
    "drop",
    "prone",
    "reload",
    "kill",
    "task",
    "command",
    "end",
];

/// The name of an item slot as typed: the item id, `#n` for the nth copy.
pub fn slot_name(s: &State, who: Cid, slot: u8) -> String {
    let items = &s.ch(who).items;
    let Some(k) = items.get(slot as usize) else {
        return format!("#{slot}");
    };
    let id = &s.setup.armoury.item(k.item).id;
    let nth = items[..slot as usize].iter().filter(|o| o.item == k.item).count();
    if nth == 0 {
        id.clone()
    } else {
        format!("{id}#{}", nth + 1)
    }
}

/// The slot of an item named as typed.
pub fn slot_of(s: &State, who: Cid, name: &str) -> Result<u8, Reject> {
    let (id, nth) = match name.split_once('#') {
        Some((a, b)) => (
            a,
            b.parse::<usize>()
                .map_err(|_| no(format!("'{name}': expected item or item#N")))?,
        ),
        None => (name, 1),
    };
    s.ch(who)
        .items
        .iter()
        .enumerate()
        .filter(|(_, k)| s.setup.armoury.item(k.item).id == id)
        .nth(nth.saturating_sub(1))
        .map(|(i, _)| i as u8)
        .ok_or_else(|| no(format!("{} carries no '{name}'", s.name(who))))
}

fn who(s: &State, id: &str) -> Result<Cid, Reject> {
    s.find(id).ok_or_else(|| no(format!("no combatant '{id}'")))
}

fn pos(t: &str) -> Result<Pos, Reject> {
    t.parse::<Pos>()
        .map_err(|_| no(format!("'{t}' is not a square: expected x,y")))
}

fn team(s: &State, id: &str) -> Result<u8, Reject> {
    s.setup
        .teams
        .iter()
        .position(|t| t.id == id)
        .map(|i| i as u8)
        .ok_or_else(|| no(format!("no team '{id}'")))
}

/// The combatant who would perform an action typed now (the one taking the turn, or the one
/// asked after a dodge).
fn actor(s: &State) -> Option<Cid> {
    match s.stack.last() {
        Some(crate::state::Frame::AfterDodge { who, .. }) => Some(*who),
        _ => s.turn.as_ref().map(|t| t.who),
    }
}

/// Parses a typed command.
pub fn parse(s: &State, text: &str) -> Result<Command, Reject> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Err(no("empty command"));
    };
    let one = |rest: &[&str], what: &str| -> Result<String, Reject> {
        match rest {
            [x] => Ok((*x).to_string()),
            _ => Err(no(format!("expected: {head} {what}"))),
        }
    };
    Ok(match head {
        "pick" => Command::Pick(who(s, &one(rest, "<combatant>")?)?),
        "continue" if rest.is_empty() => Command::Continue,
        "abandon" if rest.is_empty() => Command::Abandon,
        "intercept" => Command::Intercept(who(s, &one(rest, "<ally>")?)?),
        "dodge" if rest.is_empty() => Command::Dodge,
        "fortify" if rest.is_empty() => Command::Fortify,
        "resist" if rest.is_empty() => Command::Resist,
        "fall" if rest.is_empty() => Command::Fall,
        "fire" if rest.is_empty() => Command::Fire,
        "hold" if rest.is_empty() => Command::Hold,
        "pass" if rest.is_empty() => Command::Pass,
        "parry" | "block" => {
            let item = one(rest, "<item>")?;
            // Outside an attack there is nothing to parry or block: `check` says so.
            let slot = match s.stack.last() {
                Some(crate::state::Frame::Attack(a)) => slot_of(s, a.target, &item)?,
                _ => NO_SLOT,
            };
            if head == "parry" {
                Command::Parry(slot)
            } else {
                Command::Block(slot)
            }
        }
        "gm" => Command::Gm(parse_ruling(s, rest)?),
        _ if !ACTION_WORDS.contains(&head) => {
            return Err(no(format!(
                "unknown command '{head}': type 'help' for the list, or 'choices' for what is legal now"
            )));
        }
        _ => match actor(s) {
            Some(me) => Command::Act(parse_action(s, me, &words)?),
            // No turn has begun: read the action for the first member the team could pick, so
            // `check` can say that a turn must begin first.
            None => {
                let me = s
                    .order
                    .team_to_pick(|w| s.can_take_turn(w))
                    .and_then(|t| s.order.candidates(t, |w| s.can_take_turn(w)).next())
                    .unwrap_or(0);
                if s.chars.is_empty() {
                    return Err(no("there are no combatants"));
                }
                Command::Act(
                    parse_action(s, me, &words)
                        .map_err(|r| no(format!("no turn has begun (pick who acts first); {}", r.reason)))?,
                )
            }
        },
    })
}

/// Parses an action for `me`.
pub fn parse_action(s: &State, me: Cid, words: &[&str]) -> Result<Action, Reject> {
    let Some((&head, rest)) = words.split_first() else {
        return Err(no("empty action"));
    };
    let one = |what: &str| -> Result<&str, Reject> {
        match rest {
            [x] => Ok(*x),
            _ => Err(no(format!("expected: {head} {what}"))),
        }
    };
    let bare = |a: Action| -> Result<Action, Reject> {
        if rest.is_empty() {
            Ok(a)
        } else {
            Err(no(format!("'{head}' takes nothing after it")))
        }
    };
    Ok(match head {
        "move" => Action::Move(pos(one("x,y")?)?),
        "step" => Action::Step(pos(one("x,y")?)?),
        "sprint" => Action::Sprint(pos(one("x,y")?)?),
        "attack" => {
            let (target, slot, attr, prof) = parse_attack(s, me, rest)?;
            Action::Attack {
                target,
                slot,
                attr,
                prof,
            }
        }
        "brandish" => match rest {
            ["nothing"] => Action::Brandish(Vec::new()),
            [list] => {
                let mut v = Vec::new();
                for n in list.split(',') {
                    v.push(slot_of(s, me, n)?);
                }
                Action::Brandish(v)
            }
            _ => return Err(no("expected: brandish <item>[,<item>] | brandish nothing")),
        },
        "interact" if !rest.is_empty() => Action::Interact(rest.join(" ")),
        "interact" => return Err(no("expected: interact <what>")),
        "pickup" => {
            let name = one("<item>")?;
            // The nearest one of that name lying anywhere; `check` refuses one out of reach.
            let here = s.ch(me).pos;
            let found = s
                .ground
                .iter()
                .enumerate()
                .filter(|(_, (_, k))| s.setup.armoury.item(k.item).id == name)
                .min_by_key(|(i, (p, _))| (here.map_or(0, |h| fray_space::chebyshev(h, *p)), *i))
                .map(|(i, _)| i as u16);
            Action::PickUp(found.ok_or_else(|| no(format!("no '{name}' lies on the ground")))?)
        }
        "guard" => bare(Action::Guard)?,
        "wait" => bare(Action::Wait)?,
        "ready" => Action::Ready(parse_ready(s, me, rest)?),
        "resuscitate" => Action::Resuscitate(who(s, one("<combatant>")?)?),
        "seek-cover" | "cover" => bare(Action::SeekCover)?,
        "stand" => bare(Action::StandUp)?,
        "drop" => Action::Drop(slot_of(s, me, one("<item>")?)?),
        "prone" => bare(Action::DropProne)?,
        "reload" => Action::Reload(slot_of(s, me, one("<item>")?)?),
        "kill" => match rest {
            [t] => {
                let target = who(s, t)?;
                Action::Kill {
                    target,
                    slot: default_weapon(s, me).unwrap_or(NO_SLOT),
                }
            }
            [t, "with", item] => Action::Kill {
                target: who(s, t)?,
                slot: slot_of(s, me, item)?,
            },
            _ => return Err(no("expected: kill <combatant> [with <item>]")),
        },
        "task" => parse_task(rest)?,
        "command" => {
            let Some((&ally, inner)) = rest.split_first() else {
                return Err(no("expected: command <ally> <action>"));
            };
            let ally = who(s, ally)?;
            let action = parse_action(s, ally, inner)?;
            Action::Command {
                ally,
                action: Box::new(action),
            }
        }
        "end" => bare(Action::End)?,
        other => {
            return Err(no(format!(
                "unknown command '{other}': type 'help' for the list, or 'choices' for what is legal now"
            )));
        }
    })
}

/// The item a character attacks with by default: the first held weapon.
pub fn default_weapon(s: &State, who: Cid) -> Option<u8> {
    let c = s.ch(who);
    c.items
        .iter()
        .enumerate()
        .find(|(_, k)| k.held && s.setup.armoury.item(k.item).weapon)
        .map(|(i, _)| i as u8)
}

/// The attribute an attack uses by default: the weapon's allowed attribute with the largest die.
pub fn default_attr(s: &State, who: Cid, slot: u8) -> Attr {
    let Some(item) = s.item(who, slot) else {
        return Attr::Str;
    };
    let st = &s.info(who).stats;
    item.attributes
        .iter()
        .copied()
        .max_by_key(|a| (st.attr(*a), std::cmp::Reverse(*a as u8)))
        .unwrap_or(Attr::Str)
}

/// The proficiency an attack uses by default: the weapon's proficiency with the largest bonus.
pub fn default_prof(s: &State, who: Cid, slot: u8) -> Option<String> {
    let item = s.item(who, slot)?;
    let st = &s.info(who).stats;
    item.proficiencies
        .iter()
        .filter(|p| st.prof(p) > 0)
        .max_by_key(|p| {
            (
                st.prof(p),
                std::cmp::Reverse(item.proficiencies.iter().position(|x| x == *p)),
            )
        })
        .cloned()
}

fn parse_attack(s: &State, me: Cid, rest: &[&str]) -> Result<(Cid, u8, Attr, Option<String>), Reject> {
    let Some((&t, mut tail)) = rest.split_first() else {
        return Err(no(
            "expected: attack <target> [with <item>] [using <attr>] [prof <name>|none]",
        ));
    };
    let target = who(s, t)?;
    let mut slot = None;
    let mut attr = None;
    let mut prof: Option<Option<String>> = None;
    while let [k, v, more @ ..] = tail {
        match *k {
            "with" => slot = Some(slot_of(s, me, v)?),
            "using" => attr = Some(Attr::parse(v).ok_or_else(|| no(format!("unknown attribute '{v}'")))?),
            "prof" if *v == "none" => prof = Some(None),
            "prof" => prof = Some(Some((*v).to_string())),
            _ => return Err(no(format!("unexpected '{k}': expected with, using or prof"))),
        }
        tail = more;
    }
    if !tail.is_empty() {
        return Err(no(format!("unexpected '{}'", tail.join(" "))));
    }
    let slot = slot.or_else(|| default_weapon(s, me)).unwrap_or(NO_SLOT);
    let attr = attr.unwrap_or_else(|| default_attr(s, me, slot));
    let prof = prof.unwrap_or_else(|| default_prof(s, me, slot));
    Ok((target, slot, attr, prof))
}

fn parse_ready(s: &State, me: Cid, rest: &[&str]) -> Result<Readied, Reject> {
    let Some(w) = rest.iter().position(|x| *x == "when") else {
        return Err(no(
            "expected: ready attack [<target>] [with <item>] when approach|attack|turn, or ready move x,y when ...",
        ));
    };
    let trigger = match rest.get(w + 1..) {
        Some(["approach"]) => Trigger::Approach,
        Some(["attack"]) => Trigger::Attack,
        Some(["turn"]) => Trigger::Turn,
        _ => return Err(no("the trigger must be approach, attack or turn")),
    };
    let action = match &rest[..w] {
        ["attack"] => ReadyAction::Attack {
            target: None,
            slot: default_weapon(s, me).unwrap_or(NO_SLOT),
        },
        ["attack", "with", item] => ReadyAction::Attack {
            target: None,
            slot: slot_of(s, me, item)?,
        },
        ["attack", t] => ReadyAction::Attack {
            target: Some(who(s, t)?),
            slot: default_weapon(s, me).unwrap_or(NO_SLOT),
        },
        ["attack", t, "with", item] => ReadyAction::Attack {
            target: Some(who(s, t)?),
            slot: slot_of(s, me, item)?,
        },
        ["move", p] => ReadyAction::Move { to: pos(p)? },
        _ => return Err(no("a readied action is attack [<target>] [with <item>] or move x,y")),
    };
    Ok(Readied { action, trigger })
}

fn parse_task(rest: &[&str]) -> Result<Action, Reject> {
    let usage = "expected: task <attr> <skill> [prof <name>] vs <difficulty> [time <seconds>]";
    let [a, skill, tail @ ..] = rest else {
        return Err(no(usage));
    };
    let attr = Attr::parse(a).ok_or_else(|| no(format!("unknown attribute '{a}'")))?;
    let mut prof = None;
    let mut difficulty = None;
    let mut seconds = None;
    let mut t = tail;
    while let [k, v, more @ ..] = t {
        match *k {
            "prof" => prof = Some((*v).to_string()),
            "vs" => difficulty = Some(v.parse::<i16>().map_err(|_| no(usage))?),
            "time" => seconds = Some(v.trim_end_matches('s').parse::<u16>().map_err(|_| no(usage))?),
            _ => return Err(no(usage)),
        }
        t = more;
    }
    if !t.is_empty() {
        return Err(no(usage));
    }
    Ok(Action::Task {
        attr,
        skill: (*skill).to_string(),
        prof,
        difficulty: difficulty.ok_or_else(|| no(usage))?,
        seconds,
    })
}

fn parse_objective(s: &State, words: &[&str]) -> Result<Option<Objective>, Reject> {
    Ok(Some(match words {
        ["none"] => return Ok(None),
        ["survive", n] => Objective::Survive {
            rounds: n.parse().map_err(|_| no("survive N"))?,
        },
        ["down", id] => Objective::Down { who: who(s, id)? },
        ["reach", squares] | ["reach", squares, "by", _] => {
            let mut v = Vec::new();
            for q in squares.split(';') {
                v.push(pos(q)?);
            }
            let w = match words {
                [_, _, "by", id] => Some(who(s, id)?),
                _ => None,
            };
            Objective::Reach { squares: v, who: w }
        }
        _ => {
            return Err(no(
                "objective: none | survive N | down <id> | reach x,y[;x,y...] [by <id>]",
            ));
        }
    }))
}

/// Every ruling and its words (the message for a ruling that does not read).
const RULINGS: &str = "set <id> <health|endurance|stamina|focus|death-difficulty> +N|-N|=N, durability <id> <item> +N|-N|=N, condition <id> <condition> on|off, knockout <id>, revive <id>, kill <id>, move <id> x,y, add <new-id> <template> <team> x,y, remove <id>, end <team>|none, objective <team> <objective>, order <team>,<team>,...";

/// Ingenuity's words for the shared GM rulings: combatants by id, the numbers `gm set` may
/// change, squares, teams by id; and its own rulings.
struct Words<'a>(&'a State);

impl gm::Vocabulary for Words<'_> {
    type Who = Cid;
    type Gauge = String;
    type Pos = Pos;
    type Other = Ruling;

    fn who(&self, word: &str) -> Result<Cid, Reject> {
        who(self.0, word)
    }

    fn gauge(&self, word: &str) -> Result<String, Reject> {
        match word {
            "health" | "endurance" | "stamina" | "focus" | "death-difficulty" => Ok(word.to_string()),
            other => Err(no(format!(
                "cannot set '{other}': health, endurance, stamina, focus or death-difficulty"
            ))),
        }
    }

    fn pos(&self, word: &str) -> Result<Pos, Reject> {
        pos(word)
    }

    fn side(&self, word: &str) -> Result<u8, Reject> {
        team(self.0, word)
    }

    fn other(&self, words: &[&str]) -> Option<Result<Ruling, Reject>> {
        own_ruling(self.0, words).transpose()
    }

    fn verbs(&self) -> &'static str {
        RULINGS
    }
}

/// The verbs of Ingenuity's own rulings (beside the shared `set`, `move`, `add`, `remove`, `end`).
const OWN_RULINGS: [&str; 7] = [
    "durability",
    "condition",
    "knockout",
    "revive",
    "kill",
    "objective",
    "order",
];

/// Ingenuity's own rulings; `None` when the verb is not one of them.
fn own_ruling(s: &State, w: &[&str]) -> Result<Option<Ruling>, Reject> {
    Ok(Some(match w {
        ["durability", id, item, v] => {
            let c = who(s, id)?;
            let slot = slot_of(s, c, item)?;
            let by = Adjust::parse(v).ok_or_else(|| no(format!("'{v}' is not a change: expected +N, -N or =N")))?;
            Ruling::Durability(c, slot, by)
        }
        ["condition", id, cond, on] => {
            let cond = Cond::parse(cond).ok_or_else(|| {
                no(format!(
                    "unknown condition '{cond}': {}",
                    Cond::ALL.map(|c| c.name()).join(", ")
                ))
            })?;
            let on = match *on {
                "on" => true,
                "off" => false,
                _ => return Err(no("condition ... on|off")),
            };
            Ruling::Condition(who(s, id)?, cond, on)
        }
        ["knockout", id] => Ruling::KnockOut(who(s, id)?),
        ["revive", id] => Ruling::Revive(who(s, id)?),
        ["kill", id] => Ruling::Kill(who(s, id)?),
        ["objective", t, rest @ ..] => Ruling::Objective(team(s, t)?, parse_objective(s, rest)?),
        ["order", list] => {
            let mut v = Vec::new();
            for t in list.split(',') {
                v.push(team(s, t)?);
            }
            Ruling::Order(v)
        }
        [verb, ..] if OWN_RULINGS.contains(verb) => return Err(no(format!("gm rulings: {RULINGS}"))),
        _ => return Ok(None),
    }))
}

/// Reads a GM ruling (the words after `gm`): the shared verbs through [`gm::parse`], with
/// Ingenuity's words and its own rulings.
fn parse_ruling(s: &State, w: &[&str]) -> Result<Ruling, Reject> {
    gm::parse(&Words(s), w).map(Ruling::from)
}

fn id(s: &State, c: Cid) -> &str {
    s.setup.chars.get(c as usize).map_or("?", |i| i.id.as_str())
}

/// Prints an action for `me` as [`parse_action`] reads it.
pub fn format_action(s: &State, me: Cid, a: &Action) -> String {
    match a {
        Action::Move(p) => format!("move {p}"),
        Action::Step(p) => format!("step {p}"),
        Action::Sprint(p) => format!("sprint {p}"),
        Action::Attack {
            target,
            slot,
            attr,
            prof,
        } => {
            let mut t = format!("attack {}", id(s, *target));
            if default_weapon(s, me) != Some(*slot) {
                t += &format!(" with {}", slot_name(s, me, *slot));
            }
            if default_attr(s, me, *slot) != *attr {
                t += &format!(" using {}", attr.name());
            }
            if default_prof(s, me, *slot) != *prof {
                t += &format!(" prof {}", prof.as_deref().unwrap_or("none"));
            }
            t
        }
        Action::Brandish(v) if v.is_empty() => "brandish nothing".into(),
        Action::Brandish(v) => format!(
            "brandish {}",
            v.iter().map(|x| slot_name(s, me, *x)).collect::<Vec<_>>().join(",")
        ),
        Action::Interact(t) => format!("interact {t}"),
        Action::PickUp(i) => format!(
            "pickup {}",
            s.ground
                .get(*i as usize)
                .map_or("?".to_string(), |(_, k)| s.setup.armoury.item(k.item).id.clone())
        ),
        Action::Guard => "guard".into(),
        Action::Wait => "wait".into(),
        Action::Ready(r) => {
            let what = match &r.action {
                ReadyAction::Attack { target, slot } => {
                    let mut t = "attack".to_string();
                    if let Some(x) = target {
                        t += &format!(" {}", id(s, *x));
                    }
                    if default_weapon(s, me) != Some(*slot) {
                        t += &format!(" with {}", slot_name(s, me, *slot));
                    }
                    t
                }
                ReadyAction::Move { to } => format!("move {to}"),
            };
            format!("ready {what} when {}", r.trigger.name())
        }
        Action::Resuscitate(t) => format!("resuscitate {}", id(s, *t)),
        Action::SeekCover => "seek-cover".into(),
        Action::Task {
            attr,
            skill,
            prof,
            difficulty,
            seconds,
        } => {
            let mut t = format!("task {} {skill}", attr.name());
            if let Some(p) = prof {
                t += &format!(" prof {p}");
            }
            t += &format!(" vs {difficulty}");
            if let Some(x) = seconds {
                t += &format!(" time {x}");
            }
            t
        }
        Action::StandUp => "stand".into(),
        Action::Drop(x) => format!("drop {}", slot_name(s, me, *x)),
        Action::DropProne => "prone".into(),
        Action::Reload(x) => format!("reload {}", slot_name(s, me, *x)),
        Action::Kill { target, slot } => {
            if default_weapon(s, me) == Some(*slot) {
                format!("kill {}", id(s, *target))
            } else {
                format!("kill {} with {}", id(s, *target), slot_name(s, me, *slot))
            }
        }
        Action::Command { ally, action } => format!("command {} {}", id(s, *ally), format_action(s, *ally, action)),
        Action::End => "end".into(),
    }
}

fn format_objective(s: &State, o: &Option<Objective>) -> String {
    match o {
        None => "none".into(),
        Some(Objective::Survive { rounds }) => format!("survive {rounds}"),
        Some(Objective::Down { who }) => format!("down {}", id(s, *who)),
        Some(Objective::Reach { squares, who }) => {
            let q = squares.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(";");
            match who {
                Some(w) => format!("reach {q} by {}", id(s, *w)),
                None => format!("reach {q}"),
            }
        }
    }
}

/// Prints a command as [`parse`] reads it.
pub fn format(s: &State, c: &Command) -> String {
    let target_of = || match s.stack.last() {
        Some(crate::state::Frame::Attack(a)) => a.target,
        _ => 0,
    };
    match c {
        Command::Pick(w) => format!("pick {}", id(s, *w)),
        Command::Continue => "continue".into(),
        Command::Abandon => "abandon".into(),
        Command::Act(a) => match actor(s) {
            Some(me) => format_action(s, me, a),
            None => format!("{a:?}"),
        },
        Command::Intercept(w) => format!("intercept {}", id(s, *w)),
        Command::Dodge => "dodge".into(),
        Command::Parry(x) => format!("parry {}", slot_name(s, target_of(), *x)),
        Command::Fortify => "fortify".into(),
        Command::Resist => "resist".into(),
        Command::Block(x) => format!("block {}", slot_name(s, target_of(), *x)),
        Command::Fall => "fall".into(),
        Command::Fire => "fire".into(),
        Command::Hold => "hold".into(),
        Command::Pass => "pass".into(),
        Command::Gm(r) => {
            let team = |t: u8| s.setup.teams.get(t as usize).map_or("?".to_string(), |x| x.id.clone());
            let body = match r {
                Ruling::Set(w, what, a) => format!("set {} {what} {a}", id(s, *w)),
                Ruling::Durability(w, slot, a) => {
                    format!("durability {} {} {a}", id(s, *w), slot_name(s, *w, *slot))
                }
                Ruling::Condition(w, c, on) => format!(
                    "condition {} {} {}",
                    id(s, *w),
                    c.name(),
                    if *on { "on" } else { "off" }
                ),
                Ruling::KnockOut(w) => format!("knockout {}", id(s, *w)),
                Ruling::Revive(w) => format!("revive {}", id(s, *w)),
                Ruling::Kill(w) => format!("kill {}", id(s, *w)),
                Ruling::Move(w, p) => format!("move {} {p}", id(s, *w)),
                Ruling::Add {
                    id: n,
                    template,
                    team: t,
                    at,
                } => format!("add {n} {template} {} {at}", team(*t)),
                Ruling::Remove(w) => format!("remove {}", id(s, *w)),
                Ruling::End(None) => "end none".into(),
                Ruling::End(Some(t)) => format!("end {}", team(*t)),
                Ruling::Objective(t, o) => format!("objective {} {}", team(*t), format_objective(s, o)),
                Ruling::Order(v) => format!("order {}", v.iter().map(|t| team(*t)).collect::<Vec<_>>().join(",")),
            };
            format!("gm {body}")
        }
    }
}
