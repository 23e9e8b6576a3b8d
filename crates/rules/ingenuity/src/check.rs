//! Legality: the one place that decides whether a command is allowed now.
//!
//! [`check`] returns a typed [`Reject`] with a stable code and a sentence, or the command's
//! [`Plan`] (what it found out that resolving needs), and never changes anything; the
//! legal-command listing filters candidates through it and the resolver relies on it. It is
//! handed the pending decision ([`crate::stage::Stage`]) and matches on it; a command that
//! answers no decision of that stage is refused `not-now`. Stable codes (docs/ingenuity.md,
//! "Refusal codes"): `not-now`, `bad-command`,
//! `unknown-combatant`, `unknown-item`, `no-weapon`, `no-proficiency`, `no-actions`,
//! `no-reaction`, `no-stamina`, `no-focus`, `out-of-range`, `invalid-target`, `blocked`,
//! `already-moved`, `prone`, `not-loaded`, `hands`, `broken`, `bad-ruling`. Text that is not a
//! command never gets here: parsing refuses it with the engine's `unknown-command`.

use crate::calc::{self, distance};
use crate::codes;
use crate::command::{Action, Command, Ruling};
use crate::data::{Cond, EffectDefence};
use crate::event::AutoWhy;
use crate::options::{FortifyWithout, InterceptReach, KillingStrikeWeapons, TeamOrderRule};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Attack, Ext, Frame, ReadyAction, State, Trigger};
use fray_engine::Reject;
use fray_space::{Pos, chebyshev};

fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// The checked plan of a command: what [`check`] found out that [`crate::resolve::resolve`]
/// needs, so the resolver does not work it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs.
    Plain,
    /// A move, a sprint or a step (a commanded one, a step after a dodge, a readied move set off
    /// too): the way the movement search finds to the square named, the squares after the start.
    Walk(Vec<Pos>),
}

/// What an action costs in actions; `extendable` if it may be started with fewer left
/// (ING-R34).
pub fn action_cost(s: &State, who: Cid, a: &Action) -> (u8, bool) {
    match a {
        Action::Step(_) | Action::Drop(_) | Action::DropProne | Action::End => (0, false),
        Action::Resuscitate(_) => (2, true),
        Action::Task { seconds, .. } => (task_cost(s, *seconds), true),
        Action::Reload(slot) => (s.item(who, *slot).map_or(1, |i| i.reload.max(1)), true),
        Action::Kill { .. } => (s.options.killing_strike_actions.max(1), true),
        _ => (1, false),
    }
}

/// Actions a task costs: 3 for a Short Task, or its seconds ÷ seconds-per-action rounded up
/// (ING-R27, ING-R68).
pub fn task_cost(s: &State, seconds: Option<u16>) -> u8 {
    match seconds {
        None => 3,
        Some(t) => {
            let per = u16::from(s.options.seconds_per_action.max(1));
            t.div_ceil(per).clamp(1, 255) as u8
        }
    }
}

/// Why a reaction cannot be taken now: what [`reaction_ok`] turns into its rejection. Kept
/// apart from the message so that the many yes-or-no questions of the AI, the listings and
/// resolution ([`can_react`]) build no text.
#[derive(Clone, Copy)]
enum NoReaction {
    Cannot,
    NoneLeft,
    NoStamina,
    NoFocus,
}

fn reaction_fault(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> Option<NoReaction> {
    let c = s.ch(who);
    if !c.able() {
        return Some(NoReaction::Cannot);
    }
    if !free && !s.can_react(who) {
        return Some(NoReaction::NoneLeft);
    }
    let pays = !free || s.options.free_reaction_pays;
    if pays && s.options.reactions_need_resources {
        if c.stamina < stamina {
            return Some(NoReaction::NoStamina);
        }
        if c.focus < focus {
            return Some(NoReaction::NoFocus);
        }
    }
    None
}

/// Whether a reaction with this cost can be taken now (ING-R30 to ING-R32): [`reaction_ok`]
/// without the reason.
pub fn can_react(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> bool {
    reaction_fault(s, who, free, stamina, focus).is_none()
}

/// Whether a reaction with this cost can be taken now (ING-R30 to ING-R32), and if not, why.
pub fn reaction_ok(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> Result<(), Reject> {
    let Some(fault) = reaction_fault(s, who, free, stamina, focus) else {
        return Ok(());
    };
    let n = s.name(who);
    Err(match fault {
        NoReaction::Cannot => no(codes::NOT_NOW, format!("{n} cannot react")),
        NoReaction::NoneLeft => no(codes::NO_REACTION, format!("{n} has no reaction left")),
        NoReaction::NoStamina => no(codes::NO_STAMINA, format!("{n} has no stamina left")),
        NoReaction::NoFocus => no(codes::NO_FOCUS, format!("{n} has no focus left")),
    })
}

/// Characters who may intercept an attack on `a.target` (ING-R33, ING-H21).
pub fn intercept_candidates(s: &State, a: &Attack) -> Vec<Cid> {
    let Some(tp) = s.ch(a.target).pos else {
        return Vec::new();
    };
    let able = s
        .ids()
        .filter(|&c| c != a.attacker && s.allies(c, a.target))
        .filter(|&c| can_react(s, c, false, 1, 0))
        // Intercepting is a move: a prone character would have to stand up first.
        .filter(|&c| !(s.options.prone_blocks_movement && s.ch(c).has(Cond::Prone)));
    match s.options.intercept_reach {
        InterceptReach::Adjacent => able
            .filter(|&c| s.ch(c).pos.is_some_and(|cp| chebyshev(cp, tp) <= 1))
            .collect(),
        InterceptReach::Speed => calc::with_scratch(|sc| {
            // Who stands where is the same for every ally: mapped once for the attack.
            let mut m = sc.map(s);
            able.filter(|&c| {
                let Some(cp) = s.ch(c).pos else { return false };
                let speed = s.info(c).stats.speed;
                // No path is shorter than open ground: an ally that far away needs no search.
                distance(s, cp, tp) <= speed.max(0) && m.can_end_on(c, cp, tp, speed, Some(tp))
            })
            .collect()
        }),
    }
}

/// Why `who` cannot take a reaction now (for the log of a step taken without asking):
/// unconscious or stunned, surprised (with `surprised-can-react = false`), no reaction left, or
/// not enough stamina or focus. `free`: a free reaction (after Intercept) is available.
pub fn why_no_reaction(s: &State, who: Cid, free: bool) -> AutoWhy {
    let c = s.ch(who);
    if c.unconscious || !c.present() {
        return AutoWhy::Unconscious;
    }
    if c.has(Cond::Stunned) {
        return AutoWhy::Stunned;
    }
    if !free && s.surprised_without_reactions(who) {
        return AutoWhy::Surprised;
    }
    if !free && c.econ.reactions_left() == 0 {
        return AutoWhy::NoReaction;
    }
    if c.stamina < 1 {
        AutoWhy::NoStamina
    } else {
        AutoWhy::NotLegal
    }
}

/// Why the target of an attack cannot take any defence against it (ING-R30, ING-R32): what
/// stops every reaction (see [`why_no_reaction`]), else what each defence was refused for:
/// stamina or focus it lacks, defences already taken against this attack, or none that
/// answers it.
pub fn why_no_defence(s: &State, a: &Attack) -> AutoWhy {
    let t = a.target;
    let general = why_no_reaction(s, t, free(a));
    if !matches!(general, AutoWhy::NoStamina | AutoWhy::NotLegal) {
        return general;
    }
    let items = 0..s.ch(t).items.len() as u8;
    let (mut stamina, mut focus) = (false, false);
    for c in [Command::Dodge, Command::Fortify, Command::Resist]
        .into_iter()
        .chain(items.map(Command::Parry))
    {
        if let Err(r) = check_defence(s, a, &c) {
            stamina |= r.code == codes::NO_STAMINA;
            focus |= r.code == codes::NO_FOCUS;
        }
    }
    let d = &a.defences;
    if stamina {
        AutoWhy::NoStamina
    } else if focus {
        AutoWhy::NoFocus
    } else if d.dodge.is_some() || d.parry.is_some() || d.fortify.is_some() || d.resist.is_some() {
        AutoWhy::DefencesTaken
    } else {
        AutoWhy::NoDefenceOpen
    }
}

/// Whether `who` holds an unbroken item that can block.
pub fn holds_blocker(s: &State, who: Cid) -> bool {
    s.ch(who)
        .items
        .iter()
        .any(|k| k.held && k.durability > 0 && s.setup.armoury.item(k.item).block.is_some())
}

/// Whether the target of an attack could take any defence now.
pub fn can_defend(s: &State, a: &Attack) -> bool {
    [Command::Dodge, Command::Fortify, Command::Resist]
        .iter()
        .any(|c| check_defence(s, a, c).is_ok())
        || (0..s.ch(a.target).items.len() as u8).any(|k| check_defence(s, a, &Command::Parry(k)).is_ok())
}

/// Whether the target of an attack could block now.
pub fn can_block(s: &State, a: &Attack) -> bool {
    (0..s.ch(a.target).items.len() as u8).any(|k| check_block(s, a, k).is_ok())
}

fn free(a: &Attack) -> bool {
    a.defences.free > 0
}

fn check_defence(s: &State, a: &Attack, cmd: &Command) -> Result<(), Reject> {
    let t = a.target;
    let effect = s.item(a.attacker, a.slot).and_then(|i| i.effect.as_ref());
    match cmd {
        Command::Dodge => {
            if a.defences.dodge.is_some() {
                return Err(no(codes::NOT_NOW, "already dodging this attack"));
            }
            reaction_ok(s, t, free(a), 1, 0)
        }
        Command::Parry(slot) => {
            if a.defences.parry.is_some() {
                return Err(no(codes::NOT_NOW, "already parrying this attack"));
            }
            let Some(k) = s.carried(t, *slot) else {
                return Err(no(codes::UNKNOWN_ITEM, "no such item"));
            };
            if !k.held {
                return Err(no(codes::HANDS, "parrying needs an item in hand"));
            }
            if k.durability <= 0 {
                return Err(no(codes::BROKEN, "a broken item cannot parry (ING-R55)"));
            }
            reaction_ok(s, t, free(a), 1, 0)
        }
        Command::Fortify | Command::Resist => {
            let (want, done) = match cmd {
                Command::Fortify => (EffectDefence::Constitution, a.defences.fortify.is_some()),
                _ => (EffectDefence::Willpower, a.defences.resist.is_some()),
            };
            if done {
                return Err(no(codes::NOT_NOW, "already declared against this attack"));
            }
            match effect {
                Some(e) if e.defence == want => {}
                _ => {
                    return Err(no(
                        codes::NOT_NOW,
                        "this attack carries no effect that this defence resists",
                    ));
                }
            }
            let (st, fo) = if want == EffectDefence::Constitution {
                (1, 0)
            } else {
                (0, 1)
            };
            reaction_ok(s, t, free(a), st, fo)
        }
        _ => Err(no(codes::NOT_NOW, "choose a defence or pass")),
    }
}

fn check_block(s: &State, a: &Attack, slot: u8) -> Result<(), Reject> {
    let t = a.target;
    let Some(k) = s.carried(t, slot) else {
        return Err(no(codes::UNKNOWN_ITEM, "no such item"));
    };
    let item = s.setup.armoury.item(k.item);
    if item.block.is_none() {
        return Err(no(codes::BAD_COMMAND, format!("{} cannot block", item.name)));
    }
    if !k.held {
        return Err(no(codes::HANDS, "blocking needs the item in hand"));
    }
    if k.durability <= 0 {
        return Err(no(codes::BROKEN, "a broken item cannot block (ING-R55)"));
    }
    reaction_ok(s, t, free(a), 1, 0)
}

/// Whether the consciousness fortify can be made (ING-R60, ING-H8).
pub fn fortify_to_stay_ok(s: &State, who: Cid) -> bool {
    match s.options.fortify_without {
        FortifyWithout::Unconscious => can_react(s, who, false, 1, 0),
        FortifyWithout::Allowed => s.ch(who).present() && !s.ch(who).unconscious,
    }
}

/// Readied characters a trigger sets off: enemies of `subject` with that trigger whose action
/// could be taken now. For [`Trigger::Approach`], `from` is where the subject came from: the
/// subject must have come within reach with this step.
pub fn ready_candidates(s: &State, trigger: Trigger, subject: Cid, from: Option<Pos>) -> Vec<Cid> {
    ready_triggered(s, trigger, subject, from)
        .into_iter()
        .filter(|&c| !s.options.ready_uses_reaction || s.can_react(c))
        .collect()
}

/// Readied characters whose trigger this is, whether or not they have a reaction left to act
/// on it (see [`ready_candidates`]). The approach of a `hidden` character triggers nobody.
pub fn ready_triggered(s: &State, trigger: Trigger, subject: Cid, from: Option<Pos>) -> Vec<Cid> {
    // ING-R24: a readied action waits for something its character sees; a `hidden` subject is
    // unseen by its enemies, so its approach sets nothing off (and its seat's squares stay
    // secret).
    if trigger == Trigger::Approach && s.ch(subject).has(crate::data::Cond::Hidden) {
        return Vec::new();
    }
    s.ids()
        .filter(|&c| s.enemies(c, subject))
        .filter(|&c| s.ch(c).ready.as_ref().is_some_and(|r| r.trigger == trigger))
        .filter(|&c| s.ch(c).able())
        .filter(|&c| {
            let Some(r) = &s.ch(c).ready else { return false };
            match (&r.action, trigger) {
                (ReadyAction::Attack { target: Some(t), .. }, _) if *t != subject => false,
                (ReadyAction::Attack { slot, .. }, Trigger::Approach) => {
                    let range = s.item(c, *slot).map_or(1, |i| i.range);
                    let (Some(cp), Some(sp), Some(f)) = (s.ch(c).pos, s.ch(subject).pos, from) else {
                        return false;
                    };
                    distance(s, cp, sp) <= range && distance(s, cp, f) > range
                }
                (ReadyAction::Move { .. }, Trigger::Approach) => {
                    let (Some(cp), Some(sp), Some(f)) = (s.ch(c).pos, s.ch(subject).pos, from) else {
                        return false;
                    };
                    distance(s, cp, sp) <= 1 && distance(s, cp, f) > 1
                }
                _ => true,
            }
        })
        .collect()
}

/// Checks a command against the rules, and gives its plan.
pub fn check(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    check_in(s, stage(s).as_ref(), cmd)
}

/// [`check`] under `stage`, the [`crate::stage::stage`] of `s` that the caller has computed
/// (the ruleset's entry point, and the legal list for all its candidates).
pub fn check_in(s: &State, stage: Option<&Stage>, cmd: &Command) -> Result<Plan, Reject> {
    check_with(s, stage, cmd, None)
}

/// [`check`] of a `move` or `sprint` of the turn whose way to its square the caller has found
/// with the search of the whole move ([`crate::calc::Mapped::reach`] from where the character
/// stands, within its Speed): the legal list, which lists the squares that search reaches. The
/// way is the one [`check`]'s own search would find, and every other condition is checked.
pub(crate) fn check_listed_move(s: &State, stage: Option<&Stage>, cmd: &Command, way: &[Pos]) -> Result<Plan, Reject> {
    check_with(s, stage, cmd, Some(way))
}

/// [`check`] under `stage`, with the way of a move or sprint of the turn when the caller has
/// found it ([`check_listed_move`]). GM rulings are no stage: they are checked whatever the
/// game waits for.
fn check_with(s: &State, stage: Option<&Stage>, cmd: &Command, listed: Option<&[Pos]>) -> Result<Plan, Reject> {
    if s.outcome.is_some() {
        return Err(no(Reject::GAME_OVER, "the combat is over"));
    }
    if let Command::Gm(r) = cmd {
        return check_ruling(s, r).map(|()| Plan::Plain);
    }
    let Some(&stage) = stage else {
        return check_unasked(s, cmd);
    };
    match stage {
        Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. } => check_attack_decision(s, stage, cmd),
        Stage::Ready { who, subject } => match cmd {
            Command::Hold => Ok(Plan::Plain),
            Command::Fire => fire_ok(s, who, subject),
            _ => Err(no(codes::NOT_NOW, "fire or hold")),
        },
        Stage::Fortify { who, .. } => match cmd {
            Command::Fall => Ok(Plan::Plain),
            Command::Fortify if fortify_to_stay_ok(s, who) => Ok(Plan::Plain),
            Command::Fortify => Err(no(codes::NO_REACTION, "no reaction or stamina left to fortify")),
            _ => Err(no(codes::NOT_NOW, "fortify or fall")),
        },
        Stage::AfterDodge { who, used } => match cmd {
            Command::Pass => Ok(Plan::Plain),
            Command::Act(Action::DropProne) if used & 1 == 0 && !s.ch(who).has(Cond::Prone) => Ok(Plan::Plain),
            Command::Act(Action::SeekCover) if used & 2 == 0 => seek_cover_ok(s, who).map(|()| Plan::Plain),
            Command::Act(Action::Step(p)) if used & 4 == 0 => step_ok(s, who, *p, true).map(Plan::Walk),
            _ => Err(no(
                codes::NOT_NOW,
                "after a dodge: prone, seek-cover, step x,y (each once) or pass",
            )),
        },
        Stage::Pick { team } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            check_pick_stage(s, Some(team), cmd)
        }
        Stage::Extended { .. } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            match cmd {
                Command::Continue | Command::Abandon => Ok(Plan::Plain),
                _ => Err(no(
                    codes::NOT_NOW,
                    "an extended action is in progress: continue it or abandon it first (ING-R34)",
                )),
            }
        }
        Stage::Turn { who, opening } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            match cmd {
                Command::Act(a) => {
                    if opening
                        && let Some(op) = opening_action(s)
                        && *a != op
                    {
                        return Err(no(
                            codes::NOT_NOW,
                            "the action that started the fight comes first (ING-R69)",
                        ));
                    }
                    action_plan(s, who, a, None, listed)
                }
                // ING-R35: an extended action in progress may be abandoned at any time during the turn.
                Command::Abandon if s.ch(who).econ.extended.is_some() => Ok(Plan::Plain),
                Command::Continue | Command::Abandon => Err(no(codes::NOT_NOW, "no extended action is in progress")),
                _ => Err(no(
                    codes::NOT_NOW,
                    format!("it is {}'s turn: take an action or end", s.name(who)),
                )),
            }
        }
    }
}

/// A command when no decision is asked ([`crate::stage::stage`] is `None` though the combat
/// goes on): between an attack's decisions, during a move, in a ready window with nobody left to
/// ask, or when nobody is left to pick. Refused, with what is going on.
fn check_unasked(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    match s.stack.last() {
        Some(Frame::Attack(_)) => Err(no(codes::NOT_NOW, "an attack is being resolved")),
        Some(Frame::Walk(_)) => Err(no(codes::NOT_NOW, "a move is being resolved")),
        Some(Frame::Ready(_)) => match cmd {
            Command::Fire | Command::Hold => Err(no(codes::NOT_NOW, "nobody is asked")),
            _ => Err(no(codes::NOT_NOW, "fire or hold")),
        },
        // Never: these frames always ask their character.
        Some(Frame::Conscious { .. } | Frame::AfterDodge { .. }) => Err(no(codes::NOT_NOW, "nothing is asked now")),
        // No turn and no team with anyone left to pick: a pick is refused as the round over.
        None => {
            if let Some(r) = after_automatic(s, None, cmd) {
                return Err(r);
            }
            check_pick_stage(s, None, cmd)
        }
    }
}

/// A command when no turn is in progress: only a pick; `team` is the team whose pick it is.
fn check_pick_stage(s: &State, team: Option<u8>, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Pick(c) => check_pick(s, team, *c).map(|()| Plan::Plain),
        Command::Act(_) => Err(no(
            codes::NOT_NOW,
            "no turn has begun: the team whose slot it is must first pick who acts (pick <combatant>)",
        )),
        _ => Err(no(codes::NOT_NOW, "a team must pick who acts next: pick <combatant>")),
    }
}

/// A decision about an attack (`stage` is an intercept, a defence or a block), against the
/// attack frame on top of the stack.
fn check_attack_decision(s: &State, stage: Stage, cmd: &Command) -> Result<Plan, Reject> {
    let plain = |r: Result<(), Reject>| r.map(|()| Plan::Plain);
    let Some(a) = crate::stage::attack(s) else {
        return Err(no(codes::NOT_NOW, "an attack is being resolved"));
    };
    match stage {
        // ING-R33: any of the allies asked may intercept.
        Stage::Intercept { .. } => match cmd {
            Command::Intercept(w) => {
                if !a.intercept.contains(w) {
                    return Err(no(
                        codes::INVALID_TARGET,
                        "only an ally who can reach the attacked character may intercept",
                    ));
                }
                plain(reaction_ok(s, *w, false, 1, 0))
            }
            Command::Pass => Ok(Plan::Plain),
            _ => Err(no(codes::NOT_NOW, "intercept <ally> or pass")),
        },
        Stage::Defend { .. } => match cmd {
            Command::Pass => Ok(Plan::Plain),
            c => plain(check_defence(s, a, c)),
        },
        Stage::Block { .. } => match cmd {
            Command::Pass => Ok(Plan::Plain),
            Command::Block(slot) => plain(check_block(s, a, *slot)),
            _ => Err(no(codes::NOT_NOW, "block <item> or pass")),
        },
        _ => Err(no(codes::NOT_NOW, "an attack is being resolved")),
    }
}

/// A decision typed when nothing asks for it, for a step the rules just took by themselves
/// (the defence, block or fortify nobody could take): refused with what happened and why.
fn after_automatic(s: &State, stage: Option<&Stage>, cmd: &Command) -> Option<Reject> {
    use crate::event::AutoStep;
    let fits = |step: AutoStep| match step {
        AutoStep::NoDefence => matches!(
            cmd,
            Command::Dodge | Command::Parry(_) | Command::Fortify | Command::Resist
        ),
        AutoStep::NoBlock => matches!(cmd, Command::Block(_)),
        AutoStep::NoFortify => matches!(cmd, Command::Fortify | Command::Fall),
        AutoStep::ReadyNotFired => matches!(cmd, Command::Fire | Command::Hold),
        AutoStep::OpeningDropped => false,
    };
    let &(who, step, why) = s.last_auto.iter().rev().find(|(_, step, _)| fits(*step))?;
    // Only when no decision of that kind is pending now.
    let asked_now = matches!(
        (stage, cmd),
        (
            Some(Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. }),
            Command::Dodge | Command::Parry(_) | Command::Fortify | Command::Resist | Command::Block(_)
        ) | (Some(Stage::Fortify { .. }), Command::Fortify | Command::Fall)
            | (Some(Stage::Ready { .. }), Command::Fire | Command::Hold)
    );
    if asked_now {
        return None;
    }
    let name = s.setup.chars.get(who as usize).map_or("?", |c| c.name.as_str());
    let what = match step {
        AutoStep::NoDefence if why == AutoWhy::DefencesTaken => {
            "had no other defence to take against the last attack, which went on"
        }
        AutoStep::NoDefence => "could not defend against the last attack, which went on without a defence",
        AutoStep::NoBlock => "could not block the last hit, which was dealt at once",
        AutoStep::NoFortify => "could not fortify to stay conscious and fell unconscious",
        AutoStep::ReadyNotFired => "could not act on the readied action",
        AutoStep::OpeningDropped => "could not take the opening action",
    };
    Some(no(
        codes::NOT_NOW,
        format!("{name} {what} ({}): nothing is asked now", why.text()),
    ))
}

/// The opening action (ING-R69), parsed against the state.
pub fn opening_action(s: &State) -> Option<Action> {
    let o = s.setup.opening.as_ref()?;
    let words: Vec<&str> = o.action.split_whitespace().collect();
    crate::command::parse_action(s, o.who, &words).ok()
}

/// Whether the opening action (ING-R69) reads as an action of its character's; the reason if
/// not. Checked when an encounter or a record is loaded.
pub fn opening_action_ok(s: &State) -> Result<(), String> {
    let Some(o) = s.setup.opening.as_ref() else {
        return Ok(());
    };
    let words: Vec<&str> = o.action.split_whitespace().collect();
    crate::command::parse_action(s, o.who, &words)
        .map(|_| ())
        .map_err(|r| format!("not an action ({})", r.reason))
}

fn check_pick(s: &State, team: Option<u8>, c: Cid) -> Result<(), Reject> {
    if c as usize >= s.chars.len() {
        return Err(no(codes::UNKNOWN_COMBATANT, "no such combatant"));
    }
    // ING-R69 with trigger-acts-first: the starting team's first pick is the opener.
    if s.options.trigger_acts_first
        && !s.opening_done
        && let Some(o) = &s.setup.opening
        && s.team(c) == s.team(o.who)
        && c != o.who
        && s.can_take_turn(o.who)
        && !s.order.has_acted(o.who)
    {
        return Err(no(
            codes::NOT_NOW,
            format!(
                "{} started the fight and acts first (trigger-acts-first)",
                s.name(o.who)
            ),
        ));
    }
    // The picking team may choose any member who has not acted this round, so its order can
    // differ every round (ING-R8); one who has acted is refused: one turn per round (ING-R6).
    s.order.can_pick(c, |w| s.can_take_turn(w)).map_err(|e| {
        use fray_engine::teams::PickError::*;
        match e {
            NotThisTeam => no(
                codes::NOT_NOW,
                format!(
                    "it is {}'s turn to pick",
                    team.and_then(|t| s.setup.teams.get(t as usize))
                        .map_or("nobody", |t| t.name.as_str())
                ),
            ),
            AlreadyActed => no(codes::NOT_NOW, format!("{} has already acted this round", s.name(c))),
            CannotAct => no(codes::NOT_NOW, format!("{} cannot act now", s.name(c))),
            RoundOver => no(codes::NOT_NOW, "the round is over"),
            Unknown => no(codes::UNKNOWN_COMBATANT, "no such combatant"),
        }
    })
}

/// Whether a readied action can be taken against `subject` now, and its plan.
pub fn fire_ok(s: &State, who: Cid, subject: Cid) -> Result<Plan, Reject> {
    if s.options.ready_uses_reaction && !s.can_react(who) {
        return Err(no(codes::NO_REACTION, "no reaction left to act on the readied action"));
    }
    let Some(r) = &s.ch(who).ready else {
        return Err(no(codes::NOT_NOW, "nothing is readied"));
    };
    match &r.action {
        ReadyAction::Attack { target, slot } => {
            let t = target.unwrap_or(subject);
            attack_ok(s, who, t, *slot).map(|()| Plan::Plain)
        }
        ReadyAction::Move { to } => {
            let from = s.ch(who).pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))?;
            if s.options.prone_blocks_movement && s.ch(who).has(Cond::Prone) {
                return Err(no(codes::PRONE, "stand up before moving"));
            }
            way(s, who, from, *to, s.info(who).stats.speed, None).map(Plan::Walk)
        }
    }
}

fn seek_cover_ok(s: &State, who: Cid) -> Result<(), Reject> {
    let p = s.ch(who).pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))?;
    if s.options.seek_cover_needs_obstacle && calc::obstacles(s, p).next().is_none() {
        return Err(no(
            codes::INVALID_TARGET,
            "no cover here: seeking cover needs a wall or higher ground next to you",
        ));
    }
    Ok(())
}

/// A step's way: the square `to` itself, when it may be stepped to.
fn step_ok(s: &State, who: Cid, to: Pos, after_dodge: bool) -> Result<Vec<Pos>, Reject> {
    let from = s.ch(who).pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))?;
    if chebyshev(from, to) != 1 {
        return Err(no(codes::OUT_OF_RANGE, "a step is to a square next to you (1 m)"));
    }
    if !after_dodge && s.options.prone_blocks_movement && s.ch(who).has(Cond::Prone) {
        return Err(no(codes::PRONE, "stand up before moving"));
    }
    way(s, who, from, to, 1, None)
}

/// The way `who` takes from `from` to end a move of at most `budget` metres on `to` (the
/// squares after `from`), or why it cannot. `listed`: the way, when the caller found it with
/// the search of the whole move from `from` within `budget` and `to` is one of the squares it
/// may end on (the legal list): nothing else is asked then.
fn way(s: &State, who: Cid, from: Pos, to: Pos, budget: i16, listed: Option<&[Pos]>) -> Result<Vec<Pos>, Reject> {
    if let Some(way) = listed {
        return Ok(way.to_vec());
    }
    if to == from {
        return Err(no(codes::INVALID_TARGET, "already there"));
    }
    if !s.setup.map.contains(to) {
        return Err(no(codes::INVALID_TARGET, format!("{to} is off the map")));
    }
    if s.setup.map.get(to).is_some_and(|c| c.blocked) {
        return Err(no(codes::BLOCKED, format!("{to} is blocked")));
    }
    if s.occupant(to).is_some_and(|o| o != who) {
        return Err(no(codes::BLOCKED, format!("someone stands on {to}")));
    }
    calc::with_scratch(|sc| sc.map(s).way_to(who, from, to, budget)).ok_or_else(|| {
        no(
            codes::OUT_OF_RANGE,
            format!("{to} cannot be reached with {budget} m of movement"),
        )
    })
}

/// The refusal for a slot that holds nothing: no weapon to default to (`NO_SLOT`), or an index
/// beyond the character's items.
fn missing_item(s: &State, who: Cid, slot: u8) -> Reject {
    if slot == crate::command::NO_SLOT {
        no(codes::NO_WEAPON, format!("{} holds no weapon", s.name(who)))
    } else {
        no(codes::UNKNOWN_ITEM, "no such item")
    }
}

/// Whether `who` can attack `target` with the item in `slot` now (ignoring the action cost).
pub fn attack_ok(s: &State, who: Cid, target: Cid, slot: u8) -> Result<(), Reject> {
    let Some(k) = s.carried(who, slot) else {
        return Err(missing_item(s, who, slot));
    };
    let item = s.setup.armoury.item(k.item);
    if !item.weapon {
        return Err(no(codes::NO_WEAPON, format!("{} is not a weapon", item.name)));
    }
    if !k.held {
        return Err(no(
            codes::HANDS,
            format!("{} is not in hand (brandish it first)", item.name),
        ));
    }
    if item.reload > 0 && !k.loaded {
        return Err(no(codes::NOT_LOADED, format!("{} must be reloaded first", item.name)));
    }
    if target as usize >= s.chars.len() || target == who {
        return Err(no(codes::INVALID_TARGET, "choose another combatant"));
    }
    let t = s.ch(target);
    if !t.present() || t.pos.is_none() {
        return Err(no(
            codes::INVALID_TARGET,
            format!("{} is not in the fight", s.name(target)),
        ));
    }
    let d = calc::distance_between(s, who, target);
    if d > item.range {
        return Err(no(
            codes::OUT_OF_RANGE,
            format!(
                "{} is {d} m away; {} reaches {} m",
                s.name(target),
                item.name,
                item.range
            ),
        ));
    }
    Ok(())
}

/// Checks an action by `who`, and gives its plan; `via` is the commander when it was given by
/// Command.
pub fn check_action(s: &State, who: Cid, a: &Action, via: Option<Cid>) -> Result<Plan, Reject> {
    action_plan(s, who, a, via, None)
}

/// [`check_action`], with the way of a move or sprint of the turn when the caller has found it
/// (see [`way`]).
fn action_plan(s: &State, who: Cid, a: &Action, via: Option<Cid>, listed: Option<&[Pos]>) -> Result<Plan, Reject> {
    // The way is known only for the turn's own move.
    let listed = listed.filter(|_| via.is_none());
    let c = s.ch(who);
    if !c.able() {
        return Err(no(codes::NOT_NOW, format!("{} cannot act", s.name(who))));
    }
    let (cost, extendable) = action_cost(s, who, a);
    if via.is_none() && cost > 0 {
        let left = c.econ.actions;
        let enough = if extendable { left >= 1 } else { left >= cost };
        if !enough {
            return Err(no(
                codes::NO_ACTIONS,
                format!("{} has {left} action(s) left; this needs {cost}", s.name(who)),
            ));
        }
    }
    if via.is_some() {
        match a {
            Action::Command { .. }
            | Action::Guard
            | Action::Wait
            | Action::Ready(_)
            | Action::End
            | Action::Resuscitate(_)
            | Action::Task { .. }
            | Action::Kill { .. }
            | Action::Sprint(_) => {
                return Err(no(
                    codes::BAD_COMMAND,
                    "Command gives an ally one single action (ING-R20)",
                ));
            }
            Action::Reload(_) if cost > 1 => {
                return Err(no(
                    codes::BAD_COMMAND,
                    "Command gives one action; this reload takes more",
                ));
            }
            _ => {}
        }
    }
    let here = c.pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))?;
    let prone = c.has(Cond::Prone);
    let speed = s.info(who).stats.speed;
    let verdict: Result<(), Reject> = match a {
        Action::Move(p) => {
            if via.is_none() && c.moved {
                return Err(no(codes::ALREADY_MOVED, "Move is once per turn (Sprint moves again)"));
            }
            if s.options.prone_blocks_movement && prone {
                return Err(no(codes::PRONE, "stand up before moving"));
            }
            return way(s, who, here, *p, speed, listed).map(Plan::Walk);
        }
        Action::Step(p) => {
            if via.is_none() && (c.stepped || (s.options.step_uses_move && c.moved)) {
                return Err(no(
                    codes::ALREADY_MOVED,
                    "a Step is once per turn, instead of a move (ING-H13)",
                ));
            }
            return step_ok(s, who, *p, false).map(Plan::Walk);
        }
        Action::Sprint(p) => {
            if !c.moved {
                return Err(no(codes::NOT_NOW, "Sprint needs a move first this turn (ING-R23)"));
            }
            if let Some(limit) = s.options.sprint_limit
                && c.sprints >= limit
            {
                return Err(no(codes::NOT_NOW, format!("at most {limit} Sprint(s) per turn")));
            }
            if c.stamina < 1 {
                return Err(no(codes::NO_STAMINA, "Sprint costs 1 stamina"));
            }
            if s.options.prone_blocks_movement && prone {
                return Err(no(codes::PRONE, "stand up before moving"));
            }
            return way(s, who, here, *p, speed, listed).map(Plan::Walk);
        }
        Action::Attack {
            target,
            slot,
            attr,
            prof,
        } => {
            attack_ok(s, who, *target, *slot)?;
            let item = s
                .item(who, *slot)
                .ok_or_else(|| no(codes::UNKNOWN_ITEM, "no such item"))?;
            if !item.attributes.contains(attr) {
                return Err(no(
                    codes::BAD_COMMAND,
                    format!(
                        "{} attacks use {}",
                        item.name,
                        item.attributes
                            .iter()
                            .map(|a| a.name())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ),
                ));
            }
            if let Some(p) = prof {
                if !item.proficiencies.contains(p) {
                    return Err(no(
                        codes::BAD_COMMAND,
                        format!(
                            "{} takes the proficiencies {}",
                            item.name,
                            item.proficiencies.join(", ")
                        ),
                    ));
                }
                // ING-R37: a proficiency is added only if the attacker has it.
                if s.info(who).stats.prof(p) <= 0 {
                    return Err(no(
                        codes::NO_PROFICIENCY,
                        format!("{} has no {p} proficiency: attack with prof none", s.name(who)),
                    ));
                }
            }
            Ok(())
        }
        Action::Brandish(slots) => {
            let mut hands = 0;
            for (i, x) in slots.iter().enumerate() {
                let Some(k) = s.carried(who, *x) else {
                    return Err(no(codes::UNKNOWN_ITEM, "no such item"));
                };
                if slots[..i].contains(x) {
                    return Err(no(codes::BAD_COMMAND, "an item is listed twice"));
                }
                hands += s.setup.armoury.item(k.item).hands;
            }
            if hands > 2 {
                return Err(no(codes::HANDS, "that needs more than two hands"));
            }
            let now: Vec<u8> = (0..c.items.len() as u8).filter(|k| c.items[*k as usize].held).collect();
            let mut want = slots.clone();
            want.sort_unstable();
            if want == now {
                return Err(no(codes::BAD_COMMAND, "those are already in hand"));
            }
            Ok(())
        }
        Action::Interact(_) => Ok(()),
        Action::PickUp(i) => match s.ground.get(*i as usize) {
            Some((p, _)) if chebyshev(*p, here) <= 1 => Ok(()),
            _ => Err(no(codes::OUT_OF_RANGE, "nothing to pick up within reach")),
        },
        Action::Guard | Action::Wait | Action::End => Ok(()),
        Action::Ready(r) => match &r.action {
            ReadyAction::Attack { target, slot } => {
                let Some(k) = s.carried(who, *slot) else {
                    return Err(missing_item(s, who, *slot));
                };
                let item = s.setup.armoury.item(k.item);
                if !item.weapon || !k.held {
                    return Err(no(codes::NO_WEAPON, "a readied attack needs a weapon in hand"));
                }
                if let Some(t) = target
                    && (!known(s, *t) || *t == who || !s.enemies(who, *t) || !s.ch(*t).present())
                {
                    return Err(no(
                        codes::INVALID_TARGET,
                        "a readied attack names an enemy in the fight",
                    ));
                }
                Ok(())
            }
            ReadyAction::Move { to } => {
                if !s.setup.map.contains(*to) || s.setup.map.get(*to).is_some_and(|c| c.blocked) {
                    return Err(no(codes::INVALID_TARGET, format!("{to} cannot be moved to")));
                }
                Ok(())
            }
        },
        Action::Resuscitate(t) => {
            if !known(s, *t) {
                return Err(no(codes::UNKNOWN_COMBATANT, "no such combatant"));
            }
            let tc = s.ch(*t);
            if !tc.present() || !tc.unconscious || tc.dead {
                return Err(no(codes::INVALID_TARGET, format!("{} is not unconscious", s.name(*t))));
            }
            if tc.pos.is_none_or(|p| chebyshev(p, here) > 1) {
                return Err(no(
                    codes::OUT_OF_RANGE,
                    format!("{} is not next to {}", s.name(*t), s.name(who)),
                ));
            }
            Ok(())
        }
        Action::SeekCover => seek_cover_ok(s, who),
        Action::Task { difficulty, .. } => {
            if *difficulty < 0 {
                return Err(no(codes::BAD_COMMAND, "a difficulty is 0 or more"));
            }
            Ok(())
        }
        Action::StandUp => {
            if !prone {
                return Err(no(codes::NOT_NOW, format!("{} is not prone", s.name(who))));
            }
            Ok(())
        }
        Action::Drop(slot) => match s.carried(who, *slot) {
            Some(k) if k.held => Ok(()),
            Some(_) => Err(no(codes::HANDS, "only an item in hand can be dropped")),
            None => Err(no(codes::UNKNOWN_ITEM, "no such item")),
        },
        Action::DropProne => {
            if prone {
                return Err(no(codes::PRONE, "already prone"));
            }
            Ok(())
        }
        Action::Reload(slot) => match s.item(who, *slot) {
            Some(i) if i.reload == 0 => Err(no(codes::BAD_COMMAND, format!("{} needs no reloading", i.name))),
            Some(i) if s.carried(who, *slot).is_some_and(|k| k.loaded) => {
                Err(no(codes::BAD_COMMAND, format!("{} is already loaded", i.name)))
            }
            Some(_) => {
                if c.econ
                    .extended
                    .as_ref()
                    .is_some_and(|e| matches!(e.action, Ext::Reload { slot: x } if x == *slot))
                {
                    return Err(no(codes::NOT_NOW, "already reloading it"));
                }
                Ok(())
            }
            None => Err(no(codes::UNKNOWN_ITEM, "no such item")),
        },
        Action::Kill { target, slot } => {
            if !known(s, *target) {
                return Err(no(codes::UNKNOWN_COMBATANT, "no such combatant"));
            }
            let tc = s.ch(*target);
            if !tc.present() || !tc.unconscious || tc.dead {
                return Err(no(
                    codes::INVALID_TARGET,
                    "a killing strike needs an unconscious target (ING-R64)",
                ));
            }
            let Some(k) = s.carried(who, *slot) else {
                return Err(missing_item(s, who, *slot));
            };
            let item = s.setup.armoury.item(k.item);
            if !item.weapon || !k.held {
                return Err(no(codes::NO_WEAPON, "a killing strike needs a weapon in hand"));
            }
            match s.options.killing_strike_weapons {
                KillingStrikeWeapons::LethalOnly if item.nonlethal => {
                    return Err(no(
                        codes::NO_WEAPON,
                        "killing strikes need a lethal weapon (killing-strike-weapons)",
                    ));
                }
                KillingStrikeWeapons::NonlethalOnly if !item.nonlethal => {
                    return Err(no(
                        codes::NO_WEAPON,
                        "killing strikes need a nonlethal weapon (killing-strike-weapons)",
                    ));
                }
                _ => {}
            }
            if calc::distance_between(s, who, *target) > item.range {
                return Err(no(codes::OUT_OF_RANGE, format!("{} is out of reach", s.name(*target))));
            }
            Ok(())
        }
        Action::Command { ally, action } => {
            if via.is_some() {
                return Err(no(codes::BAD_COMMAND, "a commanded ally cannot command"));
            }
            if !known(s, *ally) || *ally == who || !s.allies(who, *ally) {
                return Err(no(codes::INVALID_TARGET, "Command gives an action to an ally"));
            }
            if c.commanded & (1u64 << (*ally as u64 % 64)) != 0 {
                return Err(no(
                    codes::NOT_NOW,
                    format!("{} was already commanded this turn", s.name(*ally)),
                ));
            }
            if c.focus < 2 {
                return Err(no(codes::NO_FOCUS, "Command costs 2 focus"));
            }
            let (inner, _) = action_cost(s, *ally, action);
            if inner > 1 {
                return Err(no(codes::BAD_COMMAND, "Command gives one single action (ING-R20)"));
            }
            return check_action(s, *ally, action, Some(who));
        }
    };
    verdict.map(|()| Plan::Plain)
}

/// Whether a combatant index names a combatant (commands from records are untrusted).
fn known(s: &State, c: Cid) -> bool {
    (c as usize) < s.chars.len()
}

fn check_ruling(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let known = |c: Cid| known(s, c);
    let team_known = |t: u8| (t as usize) < s.setup.teams.len();
    match r {
        Ruling::Set(c, _, _)
        | Ruling::KnockOut(c)
        | Ruling::Revive(c)
        | Ruling::Kill(c)
        | Ruling::Remove(c)
        | Ruling::Durability(c, _, _)
            if !known(*c) =>
        {
            bad("no such combatant".into())
        }
        Ruling::Set(_, what, _)
            if !matches!(
                what.as_str(),
                "health" | "endurance" | "stamina" | "focus" | "death-difficulty"
            ) =>
        {
            bad(format!("cannot set '{what}'"))
        }
        Ruling::Add { team, .. } | Ruling::Objective(team, _) | Ruling::End(Some(team)) if !team_known(*team) => {
            bad("no such team".into())
        }
        Ruling::Objective(_, Some(crate::setup::Objective::Down { who }))
        | Ruling::Objective(_, Some(crate::setup::Objective::Reach { who: Some(who), .. }))
            if !known(*who) =>
        {
            bad("no such combatant".into())
        }
        Ruling::Objective(_, Some(crate::setup::Objective::Reach { squares, .. }))
            if squares.is_empty() || squares.iter().any(|p| !s.setup.map.contains(*p)) =>
        {
            bad("an objective's squares must be on the map".into())
        }
        Ruling::Set(c, what, adj) => {
            let st = &s.info(*c).stats;
            let ch = s.ch(*c);
            let (old, max) = match what.as_str() {
                "health" => (ch.health, st.health),
                "endurance" => (ch.endurance, st.endurance),
                "stamina" => (ch.stamina, st.stamina),
                "focus" => (ch.focus, st.focus),
                _ => (ch.death_difficulty, 99),
            };
            let v = adj.apply(old);
            if !(0..=max).contains(&v) {
                return bad(format!("{what} must stay between 0 and {max}"));
            }
            Ok(())
        }
        Ruling::Durability(c, slot, adj) => match s.carried(*c, *slot) {
            Some(k) => {
                let max = s.setup.armoury.item(k.item).durability;
                let v = adj.apply(k.durability);
                if (0..=max).contains(&v) {
                    Ok(())
                } else {
                    bad(format!("durability must stay between 0 and {max}"))
                }
            }
            None => bad("no such item".into()),
        },
        Ruling::Condition(c, _, _) if !known(*c) => bad("no such combatant".into()),
        Ruling::Condition(..) => Ok(()),
        Ruling::KnockOut(c) => {
            if s.ch(*c).unconscious || !s.ch(*c).present() {
                bad(format!("{} is not conscious and in the fight", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Revive(c) => {
            if !s.ch(*c).unconscious || !s.ch(*c).present() {
                bad(format!("{} is not unconscious", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Kill(c) | Ruling::Remove(c) => {
            if !s.ch(*c).present() {
                bad(format!("{} is already out of the fight", s.name(*c)))
            } else {
                Ok(())
            }
        }
        Ruling::Move(c, p) => {
            if !known(*c) {
                return bad("no such combatant".into());
            }
            if !s.setup.map.contains(*p) || s.setup.map.get(*p).is_some_and(|x| x.blocked) {
                return bad(format!("{p} is not an open square"));
            }
            if s.occupant(*p).is_some_and(|o| o != *c) {
                return bad(format!("someone stands on {p}"));
            }
            Ok(())
        }
        Ruling::Add { id, template, at, .. } => {
            if !crate::setup::is_word(id) {
                return bad(format!("'{id}' is not an id: one word of letters, digits and '-'"));
            }
            if s.find(id).is_some() {
                return bad(format!("a combatant '{id}' already exists"));
            }
            if !s.setup.templates.contains_key(template) {
                return bad(format!(
                    "no template '{template}' (known: {})",
                    s.setup.templates.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
            if s.chars.len() >= crate::setup::MAX_COMBATANTS {
                return bad("too many combatants".into());
            }
            if !s.setup.map.contains(*at)
                || s.setup.map.get(*at).is_some_and(|x| x.blocked)
                || s.occupant(*at).is_some()
            {
                return bad(format!("{at} is not an empty square"));
            }
            Ok(())
        }
        Ruling::End(_) | Ruling::Objective(..) => Ok(()),
        Ruling::Order(v) => {
            if s.options.team_order == TeamOrderRule::Fixed {
                return bad("the team order is fixed (team-order = \"fixed\", ING-R5)".into());
            }
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let mut have = s.order.slots().to_vec();
            have.sort_unstable();
            if sorted != have {
                return bad("list every team with a slot exactly once".into());
            }
            Ok(())
        }
    }
}
