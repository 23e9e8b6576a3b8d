//! Legality: the one place that decides whether a command is allowed now.
//!
//! [`check`] returns a typed [`Reject`] with a stable code and a sentence; it never changes
//! anything. The legal-command enumeration filters candidates through it, and the resolver
//! relies on it, so "listed as legal", "accepted" and "resolved" cannot drift apart. It does
//! not work out which decision is open: it matches on the [`Stage`] ([`stage`], worked out once
//! per call, or handed in by a caller that has it: [`check_in`], [`plan_in`], [`allowed_in`]).
//!
//! Stable rejection codes: `not-now`, `unknown-ability`, `out-of-range`, `invalid-target`,
//! `obstructed`, `blocked`, `occupied`, `not-enough-movement`, `immobilized`, `stunned`,
//! `cannot-delay`, `bad-pick`, `not-in-start-area`, `cannot-stop-here`, `would-fray`,
//! `bad-ruling`.

use crate::Thrum;
use crate::ability::{Ability, AbilityId, Attr, Cond, Defence, Kind, Op, TargetSpec, XStatus};
use crate::calc::{self, AimFail, distance, has_ability, in_range, obstructed, range_of};
use crate::codes;
use crate::command::{Action, CharList, Command, Gauge, Ruling, Target, ThrumRuling};
use crate::options::{DelayLimit, InfiniteLine, StartAreaTooSmall};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{AutoStep, Phase, State, StatusRef};
use fray_engine::order::DelayError;
use fray_engine::{Answer, Reject};
use fray_space::{Dir, PathScratch, Pos};

use crate::codes::{Say, no, on_map};
pub use crate::plan::{Path, Plan};
pub use crate::reach::{
    Exemption, LevelMemory, LevelReach, MoveCtx, NO_STEP, can_stop, exemption, loomed, movement_left, paid_step_cost,
    path_for, reach_for, reachable, step_cost, step_prices, teleport_cost, terrain_difficult, weave, with_scratch,
};
use crate::reach::{step_price, terrain_step_cost};

/// Who makes a normal move now, under the stage `at`, when anyone may.
fn moving(s: &State, at: Option<&Stage>, say: Say) -> Result<Cid, Reject> {
    // No normal moves in Round Zero (THR-R21), nor outside the Move step or Dash's allowance.
    let Some(&Stage::Turn { who, dash }) = at.filter(|_| s.phase == Phase::Rounds) else {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "moving is only possible in the Move step of a turn",
        ));
    };
    if s.turn.move_ended {
        // THR-R67: a failed drop roll ends the character's movement for the turn.
        return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!(
                "{}'s movement ended for this turn (a failed drop roll): no movement is left",
                s.name(who)
            )
        }));
    }
    if calc::has(s, who, Cond::Immobilized) {
        return Err(no(say, codes::IMMOBILIZED, || {
            format!("{} is Immobilized", s.name(who))
        }));
    }
    // THR-R218: a Stunned character that took its Action may not also Move.
    if s.turn.stunned && s.options.draft_stunned && s.turn.acted && !dash {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    Ok(who)
}

/// Whether the current character may make a normal `move` now, whatever the destination: the
/// parts of the `move` check that do not depend on where it goes. A destination [`reachable`]
/// listed for this same state then passes the whole check (its path is within the movement
/// left, it is not the start and the mover may stop there), so a caller holding that list needs
/// no second path search per destination.
pub fn may_move(s: &State) -> bool {
    moving(s, stage(s).as_ref(), Say::Code).is_ok()
        && !calc::has(s, s.turn.who, Cond::Disoriented)
        && s.ch(s.turn.who).pos.is_some()
}

/// Whether a `step` of `who` from `from` in direction `dir` may carry a drop roll: when it
/// drops 2 or more levels (THR-R67), or always for a Disoriented character, which does not know
/// where its step goes: its roll is declared in advance and used if the step it really takes
/// drops 2+ levels. [`check`] refuses a rolled step otherwise, and the legal list offers one
/// only then.
pub fn step_may_roll(s: &State, who: Cid, from: Pos, dir: Dir) -> bool {
    calc::has(s, who, Cond::Disoriented)
        || terrain_step_cost(&s.setup.map, from, from.step(dir)).map_or(0, |c| c.drop) >= 2
}

/// Who moves and from where, when a `move` is possible now at all: everything [`check`] asks
/// of a `move` in the Move step before it looks at the square and the path.
fn move_start(s: &State, at: Option<&Stage>, say: Say) -> Result<(Cid, Pos), Reject> {
    let who = moving(s, at, say)?;
    if calc::has(s, who, Cond::Disoriented) {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "a Disoriented character moves one step at a time (use step)",
        ));
    }
    let from = s
        .ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    Ok((who, from))
}

/// Every square a `move` of the Move step may go to now (`st` is the [`stage`]), with its cost,
/// in the order of [`reachable`]: exactly the squares `p` whose `Move(p)` [`check`] accepts,
/// found with one reachability search where checking each square runs a path search of its own
/// (the cheapest path to a square exists within the budget exactly when the search reaches it).
pub fn moves(s: &State, st: &Stage, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return Vec::new();
    };
    // The search's destinations are squares other than `from` the mover may stop on, the rest
    // of the check (`MoveCtx` agrees with `can_stop`, checked in debug builds).
    let v = reachable(s, who, scratch);
    debug_assert!(v.iter().all(|&(p, _)| p != from && can_stop(s, who, p)));
    v
}

/// Every `move` of the Move step [`check`] accepts now (`st` is the [`stage`]), each with the
/// plan it gives, in the order of [`moves`]: found with one reachability search, each path read
/// off it.
pub fn move_answers(s: &State, st: &Stage, scratch: &mut PathScratch, out: &mut Vec<Answer<Thrum>>) {
    if s.outcome.is_some() {
        return;
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, movement_left(s), scratch, |_| true, out);
}

/// Every `move` answering a move prompt ([`Stage::MovePrompt`]: `who`, `budget`, `toward`)
/// [`check`] accepts, each with the plan it gives, in the order of [`reach_for`]: found with one
/// reachability search, each path read off it.
pub fn prompt_move_answers(
    s: &State,
    who: Cid,
    budget: i16,
    toward: Option<Cid>,
    scratch: &mut PathScratch,
    out: &mut Vec<Answer<Thrum>>,
) {
    if s.outcome.is_some() {
        return;
    }
    let Ok(from) = prompt_move_start(s, who, Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, budget, scratch, |p| toward_ok(s, from, p, toward), out);
}

/// Where the mover answering a move prompt stands, when it may move at all.
fn prompt_move_start(s: &State, who: Cid, say: Say) -> Result<Pos, Reject> {
    if calc::has(s, who, Cond::Immobilized) {
        return Err(no(say, codes::IMMOBILIZED, || {
            format!("{} is Immobilized", s.name(who))
        }));
    }
    s.ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))
}

/// Whether a prompted move from `from` to `to` keeps to its direction: a move toward a
/// character may not end farther from it than the mover stands now.
fn toward_ok(s: &State, from: Pos, to: Pos, toward: Option<Cid>) -> bool {
    match toward.and_then(|t| s.ch(t).pos) {
        Some(tp) => dist(s, to, tp) <= dist(s, from, tp),
        None => true,
    }
}

/// Checks a command against the rules: its [`Plan`], or why it is refused, in a sentence.
pub fn check(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    check_in(s, stage(s).as_ref(), cmd)
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, st: Option<&Stage>, cmd: &Command) -> Result<Plan, Reject> {
    check_rules(s, st, cmd, Say::Sentence).map_err(|r| already_done(s, st, cmd, &r, Say::Sentence).unwrap_or(r))
}

/// [`check`] without the sentence: the same plan, or the refusal's code only, the same code
/// [`check`] gives, and nothing formatted.
pub fn check_code(s: &State, cmd: &Command) -> Result<Plan, &'static str> {
    let st = stage(s);
    check_rules(s, st.as_ref(), cmd, Say::Code)
        .map_err(|r| already_done(s, st.as_ref(), cmd, &r, Say::Code).unwrap_or(r).code)
}

/// Whether [`check`] accepts a command, without formatting a refusal.
pub fn allowed(s: &State, cmd: &Command) -> bool {
    check_rules(s, stage(s).as_ref(), cmd, Say::Code).is_ok()
}

/// [`allowed`] under the stage `st` of `s` the caller has already worked out.
pub fn allowed_in(s: &State, st: &Stage, cmd: &Command) -> bool {
    check_rules(s, Some(st), cmd, Say::Code).is_ok()
}

/// The plan [`check`] gives a command it accepts, `None` for one it refuses (nothing formatted).
pub fn plan_of(s: &State, cmd: &Command) -> Option<Plan> {
    check_rules(s, stage(s).as_ref(), cmd, Say::Code).ok()
}

/// [`plan_of`] under the stage `st` of `s` the caller has already worked out: what the legal
/// list asks of each candidate, the stage worked out once for the whole list.
pub fn plan_in(s: &State, st: &Stage, cmd: &Command) -> Option<Plan> {
    check_rules(s, Some(st), cmd, Say::Code).ok()
}

/// A refused command typed for a step fray took by itself while resolving the last command (a
/// defence that was the only choice, a trigger not offered) is refused with what happened
/// instead of the usual reason. Only refusals change: what is legal stays the same.
fn already_done(s: &State, st: Option<&Stage>, cmd: &Command, r: &Reject, say: Say) -> Option<Reject> {
    if s.auto.is_empty() || !matches!(r.code, "not-now" | "unknown-ability") {
        return None;
    }
    match cmd {
        // While a defence is being asked, `defend` answers that question.
        Command::Defend(_) | Command::DefendWith(..) if !matches!(st, Some(Stage::Defence { .. })) => {
            s.auto.iter().rev().find_map(|a| match a {
                AutoStep::Defence { who, defence, why } => Some(no(say, codes::NOT_NOW, || {
                    format!(
                        "{}'s defence was already taken for it: {}, the only choice ({})",
                        s.name(*who),
                        crate::text::cap(defence.name()),
                        crate::text::only_defence_why(s, *who, *why)
                    )
                })),
                _ => None,
            })
        }
        Command::Trigger(id) => s.auto.iter().rev().find_map(|a| match a {
            AutoStep::NotOffered {
                who,
                ability,
                about,
                why,
            } if ability == id => Some(no(say, codes::NOT_NOW, || {
                format!(
                    "{}'s {} was not offered (about {}): {}",
                    s.name(*who),
                    s.setup.book.get(*ability).name,
                    s.name(*about),
                    crate::text::not_offered_why(s, *who, *why)
                )
            })),
            _ => None,
        }),
        _ => None,
    }
}

/// The rules under the stage `st` ([`stage`] of `s`): the one dispatch on what is asked.
fn check_rules(s: &State, st: Option<&Stage>, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    if s.outcome.is_some() {
        return Err(no(say, Reject::GAME_OVER, || "the combat is over"));
    }
    indices(s, cmd, say)?;
    // GM rulings are no stage: accepted whatever the game waits for.
    if let Command::Gm(r) = cmd {
        return check_ruling(s, r, say).map(|()| Plan::Plain);
    }
    match st {
        Some(st) if st.in_resolution() => check_in_frame(s, st, cmd, say),
        Some(st) => check_turn(s, Some(st), cmd, say),
        // Nothing is asked: a frame on the stack goes on by itself, or the turn is over (the
        // refusals of a turn's commands then say so).
        None if !s.stack.is_empty() => Err(another_decision(say)),
        None => check_turn(s, None, cmd, say),
    }
}

/// The commands of a turn, under its stage `at` (a [`Stage::Slot`], [`Stage::Place`],
/// [`Stage::Turn`] or [`Stage::Stance`]; `None` once the turn is over).
fn check_turn(s: &State, at: Option<&Stage>, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    // The turn's combatant, for the refusals (the stages that accept name it too).
    let who = s.turn.who;
    match (cmd, at) {
        (Command::Begin, Some(Stage::Slot { .. })) => Ok(Plan::Plain),
        (Command::Begin, _) if s.turn.began_by_itself => Err(no(say, codes::NOT_NOW, || {
            format!("{}'s turn already began by itself (the only choice)", s.name(who))
        })),
        (Command::Begin, Some(Stage::Turn { .. } | Stage::Stance { .. } | Stage::Place { .. })) => {
            Err(no(say, codes::NOT_NOW, || {
                format!("{}'s turn has already begun", s.name(who))
            }))
        }
        (Command::Delay(after), Some(&Stage::Slot { who })) => check_delay(s, who, *after, say).map(|()| Plan::Plain),
        (Command::Delay(_), _) if s.phase == Phase::Rounds => {
            if s.order.slot(who).is_some_and(|sl| sl.delayed) {
                Err(no(say, codes::CANNOT_DELAY, || {
                    format!("{} has already delayed this round and must act now", s.name(who))
                }))
            } else {
                Err(no(
                    say,
                    codes::CANNOT_DELAY,
                    || "a Delay must be declared when the slot comes up, before the turn begins",
                ))
            }
        }
        (Command::Place(p), Some(Stage::Place { .. })) => {
            let cell = s
                .setup
                .map
                .get(*p)
                .ok_or_else(|| no(say, codes::BLOCKED, || format!("{p} is off the map")))?;
            if cell.blocked {
                return Err(no(say, codes::BLOCKED, || format!("{p} is blocked")));
            }
            if s.occupant(*p).is_some() {
                return Err(no(say, codes::OCCUPIED, || format!("{p} is occupied")));
            }
            let fallback = s.options.start_area_too_small == StartAreaTooSmall::AnyEmptySquare && start_area_full(s);
            if !(cell.start || fallback) {
                return Err(no(say, codes::NOT_IN_START_AREA, || {
                    format!("{p} is not in the Starting Area")
                }));
            }
            Ok(Plan::Plain)
        }
        (Command::Move(to), Some(Stage::Turn { .. })) => {
            let (who, from) = move_start(s, at, say)?;
            if *to == from {
                return Err(no(say, codes::INVALID_TARGET, || "already there"));
            }
            on_map(s, *to, say)?;
            if !can_stop(s, who, *to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is not an empty square")
                }));
            }
            let budget = movement_left(s).max(0);
            match path_for(s, who, from, *to, budget) {
                Some((path, cost)) => Ok(Plan::Move { path, cost }),
                None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("{to} cannot be reached with {budget} movement left")
                })),
            }
        }
        (Command::Step { dir, roll }, Some(Stage::Turn { .. })) => {
            let who = moving(s, at, say)?;
            let from = s
                .ch(who)
                .pos
                .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
            let to = from.step(*dir);
            let disoriented = calc::has(s, who, Cond::Disoriented);
            if let Some(a) = roll {
                if !matches!(a, Attr::End | Attr::Ref) {
                    return Err(no(say, codes::BAD_PICK, || "the drop roll uses END or REF"));
                }
                if !step_may_roll(s, who, from, *dir) {
                    return Err(no(
                        say,
                        codes::BAD_PICK,
                        || "a roll is only possible when stepping down 2 or more levels",
                    ));
                }
            }
            let (cost, weaves) = weave(step_price(s, who, from, to, roll.is_some(), say)?, exemption(s, who));
            if !can_stop(s, who, to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is occupied; use move to pass through allies")
                }));
            }
            let left = movement_left(s);
            if cost > left && !(s.options.partial_steps && left > 0) && !disoriented {
                return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("that step costs {cost} and {left} movement is left")
                }));
            }
            if disoriented && left <= 0 {
                return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || "no movement left"));
            }
            // A Disoriented character's step goes where its roll sends it, priced then.
            Ok(if disoriented {
                Plan::Plain
            } else {
                Plan::Step { cost, weaves }
            })
        }
        (Command::Act(a), Some(st @ &Stage::Turn { who, dash: false })) => check_action(s, st, who, a, say),
        (Command::Act(_), Some(Stage::Slot { .. })) => Err(no(say, codes::NOT_NOW, || {
            format!("{}'s turn has not begun: type begin (or delay) first", s.name(who))
        })),
        (Command::Act(_), Some(Stage::Place { .. })) => Err(no(say, codes::NOT_NOW, || {
            format!(
                "{} must pick a starting square first (no Actions in Round Zero)",
                s.name(who)
            )
        })),
        (Command::Act(_), _) => Err(no(
            say,
            codes::NOT_NOW,
            || "the Action has already been taken or skipped this turn",
        )),
        (Command::Stance(id), Some(st @ (Stage::Turn { .. } | Stage::Stance { .. }))) => {
            check_stop_here(s, st, who, say)?;
            let a = s.setup.book.get(*id);
            if a.kind != Kind::Stance || !has_ability(s, who, *id) {
                return Err(no(say, codes::UNKNOWN_ABILITY, || {
                    format!("{} has no stance '{}'", s.name(who), a.id)
                }));
            }
            if s.phase == Phase::RoundZero && !s.is_pc(who) && !s.options.npc_round_zero_stance {
                return Err(no(say, codes::NOT_NOW, || "NPCs take no Stance in Round Zero"));
            }
            if !s.options.reenter_ended_stance && s.ch(who).stance_ended == Some(*id) {
                return Err(no(
                    say,
                    codes::NOT_NOW,
                    || "that Stance ended since the last turn and cannot be entered again yet",
                ));
            }
            if !s.ch(who).able() {
                return Err(no(
                    say,
                    codes::NOT_NOW,
                    || "an Incapacitated character cannot take a Stance",
                ));
            }
            if s.ch(who).stance == Some(*id) {
                return Err(no(
                    say,
                    codes::INVALID_TARGET,
                    || "already in that Stance (use end to keep it)",
                ));
            }
            no_action_ok(s, st, say).map(|()| Plan::Plain)
        }
        (Command::EndTurn, Some(st @ (Stage::Turn { .. } | Stage::Stance { .. }))) => {
            check_stop_here(s, st, who, say)?;
            no_action_ok(s, st, say).map(|()| Plan::Plain)
        }
        _ => Err(no(say, codes::NOT_NOW, || {
            format!("that command is not possible now ({})", step_name(at))
        })),
    }
}

/// Refuses a command whose combatant, ability, side or option index is out of range (a
/// command read from a record is untrusted input), before anything looks it up.
fn indices(s: &State, cmd: &Command, say: Say) -> Result<(), Reject> {
    let chars = s.chars.len();
    let abilities = s.setup.book.abilities.len();
    let who = |c: Cid| -> Result<(), Reject> {
        if (c as usize) < chars {
            Ok(())
        } else {
            Err(no(say, codes::INVALID_TARGET, || {
                format!("there is no combatant {c} ({chars} combatants)")
            }))
        }
    };
    let ability = |a: crate::ability::AbilityId| -> Result<(), Reject> {
        if (a as usize) < abilities {
            Ok(())
        } else {
            Err(no(say, codes::UNKNOWN_ABILITY, || {
                format!("there is no ability {a} ({abilities} abilities)")
            }))
        }
    };
    match cmd {
        Command::Delay(Some(c)) => who(*c),
        Command::Act(a) => {
            ability(a.ability)?;
            if let Target::Chars(l) = &a.target {
                l.iter().try_for_each(|c| who(*c))?;
            }
            Ok(())
        }
        Command::Stance(a) | Command::Trigger(a) | Command::DefendWith(_, a) => ability(*a),
        Command::Gm(r) => match r {
            Ruling::Adjust { who: c, .. }
            | Ruling::Other(ThrumRuling::Status { who: c, .. })
            | Ruling::Other(ThrumRuling::Incapacitate { who: c, .. })
            | Ruling::Move { who: c, .. }
            | Ruling::Remove { who: c } => who(*c).map_err(|r| no(say, codes::BAD_RULING, || r.reason)),
            Ruling::Add { side, .. } if *side as usize >= s.setup.sides.len() => {
                Err(no(say, codes::BAD_RULING, || "no such side"))
            }
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// What a turn's stage `at` asks, for a refusal (`None`: the turn is over).
fn step_name(at: Option<&Stage>) -> &'static str {
    match at {
        Some(Stage::Slot { .. }) => "the slot has come up: begin or delay",
        Some(Stage::Place { .. }) => "pick a starting square",
        Some(Stage::Turn { dash: false, .. }) => "move, act, take a stance or end the turn",
        Some(Stage::Turn { dash: true, .. }) => "move, take a stance or end the turn",
        Some(Stage::Stance { .. }) => "take a stance or end the turn",
        // Only a turn's stages come here.
        _ => "the turn is over",
    }
}

/// With `allow-no-action = false` an able character must take its Action before its Stance
/// step or the end of its turn, but only while it has a legal Action: one that can take none
/// (Stunned after moving, THR-R218, or nothing usable) goes on without it, so the turn can
/// always end.
fn no_action_ok(s: &State, st: &Stage, say: Say) -> Result<(), Reject> {
    // THR-R31: the requirement lapses when no Action is legal (THR-R218: Stunned and moved).
    if s.phase == Phase::Rounds
        && matches!(st, Stage::Turn { dash: false, .. })
        && !s.options.allow_no_action
        && s.ch(s.turn.who).able()
        && crate::legal::any_action(s, st, s.turn.who)
    {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "taking no Action is not allowed (allow-no-action = false)",
        ));
    }
    Ok(())
}

/// Refuses to end movement on a square another character fills (THR-R55) while the mover can
/// still move off it. Filling is the notion the moves offered use ([`can_stop`],
/// `State::occupant`): with `incapacitated-occupy = false` an Incapacitated character fills
/// nothing (THR-R182), so a move onto its square may be stopped on; if it then revives there,
/// both share the square, and one that can no longer move (its movement is over after its
/// Action, THR-R37, or it is Immobilized) stays rather than being left with nothing legal.
fn check_stop_here(s: &State, st: &Stage, who: Cid, say: Say) -> Result<(), Reject> {
    let fills = |c: &crate::state::Char| c.present() && (!c.incapacitated || s.options.incapacitated_occupy);
    // THR-R55, THR-R37: only while a move off the square is still possible.
    let can_leave = || {
        !with_scratch(|sc| moves(s, st, sc)).is_empty()
            || Dir::ALL
                .iter()
                .any(|d| allowed_in(s, st, &Command::Step { dir: *d, roll: None }))
    };
    if let Some(p) = s.ch(who).pos
        && s.chars
            .iter()
            .enumerate()
            .any(|(i, c)| i as Cid != who && c.pos == Some(p) && fills(c))
        && can_leave()
    {
        return Err(no(
            say,
            codes::CANNOT_STOP_HERE,
            || "a character cannot stop in an ally's square",
        ));
    }
    Ok(())
}

fn start_area_full(s: &State) -> bool {
    !s.setup
        .map
        .positions()
        .any(|p| s.setup.map.get(p).is_some_and(|c| c.start && !c.blocked) && s.occupant(p).is_none())
}

fn check_delay(s: &State, who: Cid, after: Option<Cid>, say: Say) -> Result<(), Reject> {
    let c = s.ch(who);
    if c.incapacitated && !s.options.incapacitated_may_delay {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "an Incapacitated character may not Delay",
        ));
    }
    if s.options.delay_limit == DelayLimit::OncePerCombat && c.delays > 0 {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "a character may Delay only once per combat (delay-limit)",
        ));
    }
    let explain = |e: DelayError| match e {
        DelayError::AlreadyDelayed => no(say, codes::CANNOT_DELAY, || {
            format!("{} has already delayed this round", s.name(who))
        }),
        DelayError::NothingLater => no(say, codes::CANNOT_DELAY, || "nobody acts later this round"),
        DelayError::NotLater => no(
            say,
            codes::CANNOT_DELAY,
            || "a Delay must name someone who acts later and has not acted this round",
        ),
        DelayError::NotCurrent => no(say, codes::CANNOT_DELAY, || "it is not this character's slot"),
    };
    s.order.can_delay(who).map_err(explain)?;
    match after {
        None if !s.options.delay_to_end => Err(no(
            say,
            codes::CANNOT_DELAY,
            || "delaying to the end of the round is off (delay-to-end)",
        )),
        None => Ok(()),
        Some(t) => {
            if s.order.later_waiting().any(|x| x == t) {
                Ok(())
            } else {
                Err(explain(DelayError::NotLater))
            }
        }
    }
}

/// The characters an action affects, in resolution order, or why it is illegal.
pub fn action_targets(s: &State, user: Cid, act: &Action) -> Result<CharList, Reject> {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Sentence,
    )
}

/// Whether [`action_targets`] finds the action's targets legal (nothing formatted).
pub fn can_target(s: &State, user: Cid, act: &Action) -> bool {
    targets(
        s,
        user,
        act,
        range_of(s, user, s.setup.book.get(act.ability)),
        Say::Code,
    )
    .is_ok()
}

/// [`action_targets`], its refusal said as `say` asks.
fn targets(s: &State, user: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    debug_assert_eq!(range, range_of(s, user, a), "the range passed in is the ability's");
    let upos = s
        .ch(user)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    let single = |t: Cid, ok: bool, what: &str| -> Result<CharList, Reject> {
        single_target(s, user, a, range, t, ok, what, say)
    };
    let one = |list: &[Cid]| -> Result<Cid, Reject> {
        match list {
            [t] => Ok(*t),
            _ => Err(no(say, codes::INVALID_TARGET, || {
                format!("{} takes exactly one target", a.id)
            })),
        }
    };
    match (&a.target, &act.target) {
        // Self is the user (THR-R88); the kinds of one character are in `of_kind`.
        (TargetSpec::SelfOnly, Target::None) => Ok(CharList::from_slice(&[user])),
        (TargetSpec::Ally, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally")
        }
        (TargetSpec::AllyOrSelf, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an ally or yourself")
        }
        (TargetSpec::Enemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an enemy")
        }
        (TargetSpec::Character, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "a character")
        }
        (TargetSpec::IncapacitatedAlly, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated ally")
        }
        (TargetSpec::IncapacitatedEnemy, Target::Chars(l)) => {
            let t = one(l)?;
            single(t, of_kind(s, user, &a.target, t), "an Incapacitated enemy")
        }
        (TargetSpec::UpToEnemies(n), Target::Chars(l)) => {
            if l.is_empty() || l.len() > *n as usize {
                return Err(no(say, codes::INVALID_TARGET, || {
                    format!("{} takes 1 to {n} enemies", a.id)
                }));
            }
            let ordered = if s.options.distinct_targets {
                l.windows(2).all(|w| w[0] < w[1])
            } else {
                l.windows(2).all(|w| w[0] <= w[1])
            };
            if !ordered {
                return Err(no(
                    say,
                    codes::INVALID_TARGET,
                    || "list each target once, in the order the encounter lists them (the prompt shows the accepted form)",
                ));
            }
            for t in l {
                single(*t, of_kind(s, user, &a.target, *t), "an enemy")?;
            }
            Ok(l.clone())
        }
        (TargetSpec::AllEnemies, Target::None) => Ok(all_enemies(s, user, range)),
        (TargetSpec::Square, Target::Square(p)) => {
            if !in_range(s, user, range, *p) {
                return Err(no(say, codes::OUT_OF_RANGE, || format!("{p} is out of range")));
            }
            on_map(s, *p, say)?;
            let free = s.setup.map.get(*p).is_some_and(|c| !c.blocked);
            let occupant = s.occupant(*p);
            let swap_ok = !s.options.teleport_needs_empty && occupant.is_some_and(|o| s.allies(user, o));
            if !free || (occupant.is_some() && !swap_ok) {
                return Err(no(say, codes::OCCUPIED, || format!("{p} is not an empty square")));
            }
            // Lines of a square-targeted ability (a teleport) apply to the user.
            Ok(CharList::from_slice(&[user]))
        }
        (spec, target) if spec.is_shape() => {
            let squares = shape_squares(s, user, act, upos).ok_or_else(|| {
                no(say, codes::INVALID_TARGET, || {
                    format!("{} needs {}", a.id, shape_hint(spec))
                })
            })?;
            let _ = target;
            if squares.is_empty() {
                return Err(no(say, codes::INVALID_TARGET, || "the shape lies entirely off the map"));
            }
            // Auras sit on the user and Line ∞ starts next to it: neither needs a range check.
            if !matches!(spec, TargetSpec::Aura(_) | TargetSpec::LineToEdge) {
                // THR-R80, THR-R81: some square within range (the user's own for Range 0).
                let r = range.unwrap_or(0);
                let ok = if r == 0 {
                    squares.contains(&upos)
                } else {
                    squares.iter().any(|p| in_range(s, user, range, *p))
                };
                if !ok && r == 0 {
                    // THR-R48, THR-R80: Range 0 reaches only the user's own square.
                    return Err(no(say, codes::OUT_OF_RANGE, || {
                        format!(
                            "{} has Range 0: its area must include its user's square ({upos})",
                            a.name
                        )
                    }));
                }
                if !ok {
                    return Err(no(
                        say,
                        codes::OUT_OF_RANGE,
                        || "no square of the shape is within range",
                    ));
                }
            }
            if calc::rolls(s, a) {
                // THR-R129, THR-R130: the shape needs at least one square that is not Obstructed.
                if squares.iter().all(|p| obstructed(s, user, a, *p)) {
                    return Err(no(say, codes::OBSTRUCTED, || "every square of the shape is Obstructed"));
                }
            }
            Ok(shape_hits(s, user, spec, &squares))
        }
        (spec, _) => Err(no(say, codes::INVALID_TARGET, || {
            format!("{} needs {}", a.id, shape_hint(spec))
        })),
    }
}

/// The enemies of `user` an ability that targets all of them within `range` affects.
fn all_enemies(s: &State, user: Cid, range: Option<i16>) -> CharList {
    s.ids()
        .filter(|&t| s.enemies(user, t) && targetable(s, t))
        .filter(|&t| range.is_none() || s.ch(t).pos.is_some_and(|p| in_range(s, user, range, p)))
        .collect()
}

/// The characters on a shape's `squares` that an ability of target kind `spec` used by `user`
/// affects: in turn order (the first slot of each), those without a slot last, by id.
fn shape_hits(s: &State, user: Cid, spec: &TargetSpec, squares: &[Pos]) -> CharList {
    let aura = matches!(spec, TargetSpec::Aura(_));
    let on_shape = square_set(squares);
    let hit = s.in_turn_order(|t| {
        targetable(s, t) && s.ch(t).pos.is_some_and(|p| on_shape(&p)) && !(aura && t == user) // THR-R82
    });
    hit.into_iter().collect()
}

fn shape_hint(spec: &TargetSpec) -> &'static str {
    match spec {
        TargetSpec::SelfOnly | TargetSpec::AllEnemies | TargetSpec::Aura(_) => "no target",
        TargetSpec::Area(_) => "an area: area x,y (its south-west corner)",
        TargetSpec::Line(_) => "a line: line x,y <dir>",
        TargetSpec::LineToEdge => "a direction: toward <dir>",
        TargetSpec::Square => "a square: at x,y",
        TargetSpec::UpToEnemies(_) => "one or more enemy ids separated by commas",
        _ => "one target id",
    }
}

/// Whether [`action_targets`] may accept the one character `t` as the target of an ability
/// aimed as `spec` by `user`: `false` only where it refuses `t` whatever else holds (a
/// character off the map or out of the fight, of the wrong side, not Incapacitated where that
/// is asked, or not targetable). The legal list, which tries every character, passes over
/// those first.
pub fn may_target(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    let one_character = matches!(
        spec,
        TargetSpec::Ally
            | TargetSpec::AllyOrSelf
            | TargetSpec::Enemy
            | TargetSpec::UpToEnemies(_)
            | TargetSpec::Character
            | TargetSpec::IncapacitatedAlly
            | TargetSpec::IncapacitatedEnemy
    );
    if !one_character {
        return true;
    }
    (t as usize) < s.chars.len() && of_kind(s, user, spec, t) && aimable(s, spec, t)
}

/// Whether `t` is of the kind of character `spec` asks for, seen from `user`: Ally and Enemy
/// follow `State::allies` and `State::enemies` (THR-R89, THR-R90); a Character is Self, an
/// Ally or an Enemy (THR-R91); the Incapacitated kinds ask for that too.
fn of_kind(s: &State, user: Cid, spec: &TargetSpec, t: Cid) -> bool {
    match spec {
        TargetSpec::Ally => s.allies(user, t),
        TargetSpec::AllyOrSelf => t == user || s.allies(user, t),
        TargetSpec::Enemy | TargetSpec::UpToEnemies(_) => s.enemies(user, t),
        TargetSpec::Character => true,
        TargetSpec::IncapacitatedAlly => s.allies(user, t) && s.ch(t).incapacitated,
        TargetSpec::IncapacitatedEnemy => s.enemies(user, t) && s.ch(t).incapacitated,
        _ => false,
    }
}

/// Whether a character of the right kind can be aimed at as `spec`'s target at all: in the
/// fight, on the map and targetable (THR-R93; an Incapacitated kind asks for one anyway).
fn aimable(s: &State, spec: &TargetSpec, t: Cid) -> bool {
    let needs_incap = matches!(spec, TargetSpec::IncapacitatedAlly | TargetSpec::IncapacitatedEnemy);
    s.ch(t).present() && s.ch(t).pos.is_some() && (needs_incap || targetable(s, t))
}

/// Whether a character can be picked as a target at all (THR-R93).
pub fn targetable(s: &State, t: Cid) -> bool {
    let c = s.ch(t);
    c.present() && c.pos.is_some() && (!c.incapacitated || s.options.incapacitated_targetable)
}

#[allow(clippy::too_many_arguments)] // the target's facts, and how to say a refusal
fn single_target(
    s: &State,
    user: Cid,
    a: &Ability,
    range: Option<i16>,
    t: Cid,
    ok: bool,
    what: &str,
    say: Say,
) -> Result<CharList, Reject> {
    if t as usize >= s.chars.len() {
        return Err(no(say, codes::INVALID_TARGET, || "no such combatant"));
    }
    if !ok || !aimable(s, &a.target, t) {
        return Err(no(say, codes::INVALID_TARGET, || {
            format!("{} must target {what}", a.id)
        }));
    }
    let Some(from) = s.ch(user).pos else {
        return Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        }));
    };
    match calc::aim_from(s, user, a, range, t, from) {
        Ok(()) => Ok(CharList::from_slice(&[t])),
        Err(AimFail::Range) => Err(no(say, codes::OUT_OF_RANGE, || {
            format!("{} is out of range of {}", s.name(t), a.id)
        })),
        Err(AimFail::Obstructed) => Err(no(say, codes::OBSTRUCTED, || {
            format!("{} is Obstructed from {}", s.name(t), s.name(user))
        })),
        Err(AimFail::Wall) => Err(no(say, codes::OBSTRUCTED, || {
            format!("a wall blocks the line to {}", s.name(t))
        })),
    }
}

/// The size of an area after Overexert.
pub fn area_size(s: &State, user: Cid, act: &Action) -> i16 {
    let a = s.setup.book.get(act.ability);
    if let Some(o) = act.overexert.and_then(|i| a.overexert.get(i as usize))
        && let Some(size) = &o.area
    {
        return calc::eval(s, user, size);
    }
    match &a.target {
        TargetSpec::Area(x) | TargetSpec::Line(x) | TargetSpec::Aura(x) => calc::eval(s, user, x),
        _ => 0,
    }
}

/// Whether a square is one of `squares` (a shape's), tested for many characters: the first 16
/// are packed into a fixed array compared all at once, the rest (rare) one by one.
fn square_set(squares: &[Pos]) -> impl Fn(&Pos) -> bool + '_ {
    let pack = |p: &Pos| u32::from(p.x as u16) << 16 | u32::from(p.y as u16);
    // `u32::MAX` packs (-1, -1), which no shape square is (shapes are clipped to the map), and
    // stands for "no square" in the unused slots.
    let mut first = [u32::MAX; 16];
    for (slot, p) in first.iter_mut().zip(squares) {
        *slot = pack(p);
    }
    let rest = squares.get(16..).unwrap_or(&[]);
    move |p: &Pos| {
        let k = pack(p);
        let found = k != u32::MAX && first.iter().fold(false, |any, &q| any | (q == k)) || rest.contains(p);
        debug_assert_eq!(found, squares.contains(p));
        found
    }
}

/// The squares of a shape, as [`shape_squares`] gives them.
pub type ShapeSquares = smallvec::SmallVec<[Pos; 16]>;

/// The squares of a shape (clipped to the map), or `None` if the target kind does not fit.
/// Shapes of up to 16 squares are held inline: the legal list tries hundreds of placements per
/// decision.
pub fn shape_squares(s: &State, user: Cid, act: &Action, upos: Pos) -> Option<ShapeSquares> {
    let a = s.setup.book.get(act.ability);
    let map = &s.setup.map;
    let size = area_size(s, user, act).max(1) as u16;
    let on_map = |p: &Pos| map.contains(*p);
    let v: ShapeSquares = match (&a.target, &act.target) {
        // THR-R78: Area X is the X-by-X block on the grid (from its south-west corner).
        (TargetSpec::Area(_), Target::Area(anchor)) => fray_space::area(*anchor, size).filter(on_map).collect(),
        // THR-R79: Line X is X consecutive squares along a row, a column or a diagonal.
        (TargetSpec::Line(_), Target::Line(start, dir)) => {
            fray_space::line(*start, *dir, size).filter(on_map).collect()
        }
        (TargetSpec::LineToEdge, Target::Toward(dir)) => {
            let start = match s.options.infinite_line {
                InfiniteLine::Adjacent => upos.step(*dir),
                InfiniteLine::UserSquare => upos,
            };
            if !map.contains(start) {
                return Some(ShapeSquares::new());
            }
            fray_space::line_to_edge(map, start, *dir).filter(on_map).collect()
        }
        // THR-R82, THR-R84: Aura X is every square within X of the user but its own (Aura 1:
        // 8 squares, Aura 2: 24).
        (TargetSpec::Aura(_), Target::None) => fray_space::aura(upos, size).filter(on_map).collect(),
        _ => return None,
    };
    Some(v)
}

/// An Action of `who` under the stage `st` (its turn's Move step).
fn check_action(s: &State, st: &Stage, who: Cid, act: &Action, say: Say) -> Result<Plan, Reject> {
    action_use(s, st, who, act.ability, act.overexert, say)?;
    let range = range_of(s, who, s.setup.book.get(act.ability));
    let targets = action_aim(s, who, act, range, say)?;
    check_pick(s, who, s.setup.book.get(act.ability), act, &targets, say)?;
    Ok(Plan::Act { targets })
}

/// Whether [`check`] may accept an Action of the current character with this ability and
/// Overexert option, under the stage `st` (the [`stage`] of `s`), for some target and pick:
/// every part of its check that depends on neither. With [`action_aimed`] and [`pick_allowed`]
/// it is the check of an Action in three pieces, for the legal list, which tries many targets
/// and picks of one ability: [`allowed`] accepts an Action exactly when `action_open` holds,
/// `action_aimed` gives its targets and `pick_allowed` accepts its pick with them.
pub fn action_open(s: &State, st: &Stage, ability: AbilityId, overexert: Option<u8>) -> bool {
    s.outcome.is_none()
        && matches!(st, Stage::Turn { dash: false, .. })
        && (ability as usize) < s.setup.book.abilities.len()
        && action_use(s, st, s.turn.who, ability, overexert, Say::Code).is_ok()
}

/// For an Action whose [`action_open`] holds, the characters it affects (its [`Plan::Act`]) when
/// [`check`] may accept it with some pick: the part of its check that depends on its target and
/// not on its pick.
pub fn action_aimed(s: &State, act: &Action) -> Option<CharList> {
    let range = range_of(s, s.turn.who, s.setup.book.get(act.ability));
    action_aimed_in_range(s, act, range)
}

/// [`action_aimed`] with the ability's range for the current character (`calc::range_of`)
/// worked out by the caller, once for the many targets it tries.
pub fn action_aimed_in_range(s: &State, act: &Action, range: Option<i16>) -> Option<CharList> {
    if let Target::Chars(l) = &act.target
        && l.iter().any(|&c| c as usize >= s.chars.len())
    {
        return None;
    }
    action_aim(s, s.turn.who, act, range, Say::Code).ok()
}

/// For an Action whose [`action_aimed`] gave `targets`, whether [`check`] accepts its pick.
pub fn pick_allowed(s: &State, act: &Action, targets: &[Cid]) -> bool {
    let a = s.setup.book.get(act.ability);
    check_pick(s, s.turn.who, a, act, targets, Say::Code).is_ok()
}

/// The part of an Action's check that depends on neither its target nor its pick: the turn,
/// the ability and its user, Nova and Overexert.
fn action_use(
    s: &State,
    st: &Stage,
    who: Cid,
    ability: AbilityId,
    overexert: Option<u8>,
    say: Say,
) -> Result<(), Reject> {
    if s.phase != Phase::Rounds {
        return Err(no(say, codes::NOT_NOW, || "no Actions in Round Zero")); // THR-R21
    }
    if !s.ch(who).able() {
        return Err(no(say, codes::NOT_NOW, || "an Incapacitated character cannot act"));
    }
    if ability as usize >= s.setup.book.abilities.len() {
        return Err(no(say, codes::UNKNOWN_ABILITY, || "no such ability"));
    }
    let a = s.setup.book.get(ability);
    // THR-R30: the one Action of the turn (only in the Move step, see `check`) is a Basic
    // Combat Ability or an Action the character picked from a Combat Art.
    if a.kind != Kind::Action || !has_ability(s, who, ability) {
        return Err(no(say, codes::UNKNOWN_ABILITY, || {
            format!("{} cannot use '{}' as an Action", s.name(who), a.id)
        }));
    }
    // THR-R218: a Stunned character that moved may not also take its Action.
    if s.turn.stunned && s.options.draft_stunned && s.turn.moved {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    // Nova: enough Potential, spent at most once per combat (THR-R226).
    if let Some(nv) = a.nova {
        match s.ch(who).nova.iter().find(|n| n.ability == ability) {
            Some(n) if n.used => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} was already used this combat", a.name)
                }));
            }
            Some(n) if n.potential >= nv.cost => {}
            Some(n) => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} needs {} Potential and has {}", a.name, nv.cost, n.potential)
                }));
            }
            None => {
                return Err(no(say, codes::UNKNOWN_ABILITY, || {
                    format!("{} has no Potential for {}", s.name(who), a.name)
                }));
            }
        }
    }
    check_stop_here(s, st, who, say)?;
    // Overexert (THR-R132 to THR-R134).
    if let Some(o) = overexert {
        let Some(ov) = a.overexert.get(o as usize) else {
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} has no such Overexert option", a.id)
            }));
        };
        let cost = ov.stress.unwrap_or(s.options.overexert_stress);
        if !s.options.overexert_may_fray && s.ch(who).stress + cost > s.ch(who).st {
            return Err(no(
                say,
                codes::WOULD_FRAY,
                || "Overexert would make this character Frayed (overexert-may-fray = false)",
            ));
        }
    }
    Ok(())
}

/// The part of an Action's check that depends on its target and not on its pick: the
/// characters it affects, and for a teleport that uses movement, that much movement left.
fn action_aim(s: &State, who: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    let targets = targets(s, who, act, range, say)?;
    // A teleport that uses movement needs that much movement left (THR-R60).
    let uses_movement = a
        .effect
        .iter()
        .chain(&a.success)
        .any(|l| matches!(l.op, Op::Teleport { uses_movement: true }));
    if uses_movement && let (Some(from), Target::Square(to)) = (s.ch(who).pos, &act.target) {
        let cost = teleport_cost(s, from, *to);
        let left = movement_left(s);
        if cost > left {
            return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                format!("the teleport costs {cost} movement and {left} is left")
            }));
        }
    }
    Ok(targets)
}

/// Checks the user's picks for the ability's choices.
fn check_pick(s: &State, who: Cid, a: &Ability, act: &Action, targets: &[Cid], say: Say) -> Result<(), Reject> {
    let choose = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => Some(c),
        _ => None,
    });
    let pick = act.pick;
    let mut needs_dir = false;
    let mut needs_status = false;
    let mut scan = |ops: &[crate::ability::Line]| {
        for l in ops {
            match l.op {
                Op::Shift(_) => needs_dir = true,
                Op::EndStatus => needs_status = true,
                _ => {}
            }
        }
    };
    scan(&a.effect);
    scan(&a.success);
    scan(&a.critical);
    match (choose, pick.option) {
        (Some(c), Some(i)) => {
            let Some(choice) = c.get(i as usize) else {
                return Err(no(say, codes::BAD_PICK, || "no such option"));
            };
            scan(&choice.ops);
        }
        (Some(c), None) => {
            let labels: Vec<&str> = c.iter().map(|c| c.label.as_str()).collect();
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} needs: option {}", a.id, labels.join("|"))
            }));
        }
        (None, Some(_)) => return Err(no(say, codes::BAD_PICK, || format!("{} has no options", a.id))),
        (None, None) => {}
    }
    match (needs_dir, pick.dir) {
        (true, None) => {
            return Err(no(
                say,
                codes::BAD_PICK,
                || "that needs a direction: dir <n|ne|e|se|s|sw|w|nw>",
            ));
        }
        (false, Some(_)) => return Err(no(say, codes::BAD_PICK, || "no direction is needed")),
        (true, Some(d)) => {
            // The shifted target must be able to land there now.
            for &t in targets {
                let Some(p) = s.ch(t).pos else { continue };
                let to = p.step(d);
                if !can_stop(s, t, to) || s.occupant(to).is_some() {
                    return Err(no(say, codes::BLOCKED, || {
                        format!("{} cannot be moved to {to}", s.name(t))
                    }));
                }
            }
        }
        (false, None) => {}
    }
    match (needs_status, pick.status) {
        (true, None) => Err(no(say, codes::BAD_PICK, || "that needs a status: status <name>")),
        (false, Some(_)) => Err(no(say, codes::BAD_PICK, || "no status is needed")),
        (true, Some(st)) => {
            let t = targets.first().copied().unwrap_or(who);
            if is_negative(s, st) && status_on(s, t, st) {
                Ok(())
            } else {
                Err(no(say, codes::BAD_PICK, || {
                    format!("{} has no negative status '{}' to end", s.name(t), st.name())
                }))
            }
        }
        (false, None) => Ok(()),
    }
}

/// Whether a status counts as negative (THR-R193).
pub fn is_negative(s: &State, st: StatusRef) -> bool {
    match st {
        StatusRef::X(_) => true,
        StatusRef::Cond(c) => {
            c.is_negative() && s.options.negative_statuses == crate::options::NegativeStatuses::AllHarmful
        }
    }
}

/// Whether a character has a status or condition now.
pub fn status_on(s: &State, c: Cid, st: StatusRef) -> bool {
    match st {
        StatusRef::X(x) => s.ch(c).status(x) > 0,
        StatusRef::Cond(k) => s.ch(c).has(k),
    }
}

/// The decisions asked inside resolution, under their stage `st` (one whose
/// [`Stage::in_resolution`] holds).
fn check_in_frame(s: &State, st: &Stage, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    let plain = Ok(Plan::Plain);
    match (*st, cmd) {
        (Stage::Defence { defender, ability, .. }, Command::Defend(d)) => {
            check_defence(s, defender, ability, *d, say).map(|()| Plan::Plain)
        }
        (Stage::Trigger { holder, ability }, Command::Trigger(id)) => {
            let allowed = if s.options.controller_orders_own_triggers {
                crate::stage::offered(s, holder).any(|a| a == *id)
            } else {
                ability == *id
            };
            if allowed {
                plain
            } else {
                Err(no(say, codes::UNKNOWN_ABILITY, || "that trigger is not on offer"))
            }
        }
        (Stage::Defence { defender, ability, .. }, Command::DefendWith(d, b)) => {
            check_defence(s, defender, ability, *d, say)?;
            match s.ch(defender).buff {
                Some(buff) if buff.ability == *b && buff.uses > 0 => {
                    let spec = s.setup.book.get(buff.ability).buff_spec.as_ref();
                    if spec.is_some_and(|x| x.defence_bonus.is_some() || x.reduce_damage > 0) {
                        plain
                    } else {
                        Err(no(say, codes::BAD_PICK, || "that Buff does not help defence rolls"))
                    }
                }
                _ => Err(no(say, codes::BAD_PICK, || {
                    format!("{} has no usable Buff '{}'", s.name(defender), s.setup.book.get(*b).id)
                })),
            }
        }
        (Stage::Trigger { .. }, Command::Pass) => plain,
        (Stage::Reroll { .. }, Command::Reroll | Command::Pass) => plain,
        (Stage::MovePrompt { .. }, Command::Pass) => plain,
        (Stage::MovePrompt { who, budget, toward }, Command::Move(to)) => {
            let from = prompt_move_start(s, who, say)?;
            if *to == from {
                return Err(no(say, codes::INVALID_TARGET, || "already there (use pass to stay)"));
            }
            on_map(s, *to, say)?;
            if !can_stop(s, who, *to) {
                return Err(no(say, codes::CANNOT_STOP_HERE, || {
                    format!("{to} is not an empty square")
                }));
            }
            if let Some(t) = toward
                && !toward_ok(s, from, *to, Some(t))
            {
                return Err(no(say, codes::INVALID_TARGET, || {
                    format!("{to} is farther from {} than where {} stands", s.name(t), s.name(who))
                }));
            }
            match path_for(s, who, from, *to, budget) {
                Some((path, cost)) => Ok(Plan::Move { path, cost }),
                None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                    format!("{to} cannot be reached with {budget} movement")
                })),
            }
        }
        (Stage::BuffReplace { .. }, Command::Accept | Command::Decline) => plain,
        (Stage::Keep { .. } | Stage::Upkeep { .. }, Command::Keep | Command::Release) => plain,
        _ => Err(another_decision(say)),
    }
}

/// Whether `defender` may defend with `d` against `ability`.
fn check_defence(s: &State, defender: Cid, ability: AbilityId, d: Defence, say: Say) -> Result<(), Reject> {
    let a = s.setup.book.get(ability);
    if calc::defences(s, defender, a).contains(&d) {
        Ok(())
    } else {
        Err(no(say, codes::BAD_PICK, || {
            format!(
                "{} cannot defend with {} against {}",
                s.name(defender),
                d.name(),
                a.name
            )
        }))
    }
}

/// The refusal of a command that answers nothing asked inside resolution.
fn another_decision(say: Say) -> Reject {
    no(say, codes::NOT_NOW, || "another decision is pending (see the prompt)")
}

fn check_ruling(s: &State, r: &Ruling, say: Say) -> Result<(), Reject> {
    let known = |c: Cid| (c as usize) < s.chars.len();
    match r {
        Ruling::Adjust { who, gauge, by } => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let v = by.apply(crate::event::gauge(s.ch(*who), *gauge));
            let min = match gauge {
                Gauge::FatigueTolerance | Gauge::StressTolerance => s.options.tolerance_floor,
                Gauge::Initiative => i16::MIN,
                _ => 0,
            };
            if v < min {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} cannot go below {min}", gauge.name())
                }));
            }
            if *gauge == Gauge::Wounds && v > 3 {
                return Err(no(say, codes::BAD_RULING, || "wounds go from 0 to 3"));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Status { who, status, by }) => {
            if !known(*who) {
                return Err(no(say, codes::BAD_RULING, || "no such combatant"));
            }
            let old = if status_on(s, *who, *status) {
                match status {
                    StatusRef::X(x) => s.ch(*who).status(*x) as i16,
                    StatusRef::Cond(_) => 1,
                }
            } else {
                0
            };
            let v = by.apply(old);
            let max = if matches!(status, StatusRef::Cond(_)) { 1 } else { 255 };
            if !(0..=max).contains(&v) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{} must end between 0 and {max}", status.name())
                }));
            }
            Ok(())
        }
        Ruling::Other(ThrumRuling::Incapacitate { who, on }) => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if s.ch(*who).incapacitated == *on {
                return Err(no(say, codes::BAD_RULING, || {
                    if *on {
                        "already Incapacitated"
                    } else {
                        "not Incapacitated"
                    }
                }));
            }
            Ok(())
        }
        Ruling::Move { who, to } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            if !can_stop(s, *who, *to) {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{to} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Add { id, template, side, at } => {
            if s.find(id).is_some()
                || id.is_empty()
                || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("'{id}' is taken or not a valid id")
                }));
            }
            if !s.setup.templates.contains_key(template) {
                let names: Vec<&str> = s.setup.templates.keys().map(String::as_str).collect();
                return Err(no(say, codes::BAD_RULING, || {
                    format!("no template '{template}' (templates: {})", names.join(", "))
                }));
            }
            if *side as usize >= s.setup.sides.len() {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            if s.chars.len() >= 64 {
                return Err(no(say, codes::BAD_RULING, || "at most 64 combatants"));
            }
            if s.setup.map.get(*at).is_none_or(|c| c.blocked) || s.occupant(*at).is_some() {
                return Err(no(say, codes::BAD_RULING, || {
                    format!("{at} is not an empty square on the map")
                }));
            }
            Ok(())
        }
        Ruling::Remove { who } => {
            if !known(*who) || s.ch(*who).removed {
                return Err(no(say, codes::BAD_RULING, || "no such combatant in the fight"));
            }
            Ok(())
        }
        Ruling::End { winner } => {
            if winner.is_some_and(|w| w as usize >= s.setup.sides.len()) {
                return Err(no(say, codes::BAD_RULING, || "no such side"));
            }
            Ok(())
        }
    }
}

/// Negative statuses a character has now (Recover's and Resuscitate's targets, THR-R193).
pub fn negative_statuses(s: &State, c: Cid) -> Vec<StatusRef> {
    let all = XStatus::ALL
        .iter()
        .map(|x| StatusRef::X(*x))
        .chain(Cond::ALL.iter().map(|k| StatusRef::Cond(*k)));
    all.filter(|st| is_negative(s, *st) && status_on(s, c, *st)).collect()
}

/// Distance helper re-exported for the AI.
pub fn dist(s: &State, a: Pos, b: Pos) -> i16 {
    distance(s, a, b)
}
