//! Legality: the one place that decides whether a command is allowed now.
//!
//! [`check`] returns a typed [`Reject`] with a stable code and a sentence; it never changes
//! anything. The legal-command enumeration filters candidates through it, and the resolver
//! relies on it, so "listed as legal", "accepted" and "resolved" cannot drift apart. It does
//! not work out which decision is open: it matches on the [`Stage`] ([`stage`], worked out once
//! per call, or handed in by a caller that has it: [`check_in`], [`plan_in`], [`allowed_in`]).
//!
//! This module is the dispatch: the entry points, the refusals that belong to no one action
//! (the combat is over, an index out of range, a step the game took by itself, a command that
//! answers nothing asked), and one match on (stage, command) that hands each command to the
//! check of its action in [`crate::actions`] (moves and steps in `actions::movement`, the
//! turn's own commands in `actions::turn`, Stances in `actions::stance`, Actions in
//! `actions::action` and `actions::targets`, defences in `actions::defence`, triggers in
//! `actions::trigger`, GM rulings in `actions::ruling`). The pieces other callers use are
//! re-exported here under their old names. The check functions live next to their resolution,
//! but they use only the state, the movement search ([`crate::reach`]) and each other: no check
//! code refers to `crate::resolve` or `crate::flow`, and nothing this dispatcher reaches calls
//! back into it (ending a turn asks the step's own check, not [`allowed_in`]).
//!
//! Stable rejection codes: `not-now`, `unknown-ability`, `out-of-range`, `invalid-target`,
//! `obstructed`, `blocked`, `occupied`, `not-enough-movement`, `immobilized`, `stunned`,
//! `cannot-delay`, `bad-pick`, `not-in-start-area`, `cannot-stop-here`, `would-fray`,
//! `bad-ruling`.

use crate::actions::{action, defence, movement, ruling, stance, trigger, turn};
use crate::calc::distance;
use crate::codes::{self, Say, no};
use crate::command::{Command, Ruling, Target, ThrumRuling};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{AutoStep, State};
use fray_engine::Reject;
use fray_space::Pos;

pub use crate::actions::action::{action_aimed, action_aimed_in_range, action_open, pick_allowed};
pub use crate::actions::movement::{may_move, move_answers, moves, prompt_move_answers, step_may_roll};
pub use crate::actions::targets::{
    ShapeSquares, action_targets, area_size, can_target, may_target, shape_squares, targetable,
};
pub use crate::plan::{Path, Plan};
pub use crate::reach::{
    Exemption, LevelMemory, LevelReach, MoveCtx, NO_STEP, can_stop, exemption, loomed, movement_left, paid_step_cost,
    path_for, reach_for, reachable, step_cost, step_prices, teleport_cost, terrain_difficult, weave, with_scratch,
};
pub use crate::state::{is_negative, negative_statuses, status_on};

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
        return ruling::check_ruling(s, r, say).map(|()| Plan::Plain);
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
        (Command::Delay(after), Some(&Stage::Slot { who })) => {
            turn::check_delay(s, who, *after, say).map(|()| Plan::Plain)
        }
        (Command::Delay(_), _) if s.phase == crate::state::Phase::Rounds => turn::delay_refused(s, who, say),
        (Command::Place(p), Some(Stage::Place { .. })) => turn::check_place(s, *p, say),
        (Command::Move(to), Some(Stage::Turn { .. })) => movement::check_move(s, at, *to, say),
        (Command::Step { dir, roll }, Some(Stage::Turn { .. })) => movement::check_step(s, at, *dir, *roll, say),
        (Command::Act(a), Some(st @ &Stage::Turn { who, dash: false })) => action::check_action(s, st, who, a, say),
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
            stance::check_stance(s, st, who, *id, say)
        }
        (Command::EndTurn, Some(st @ (Stage::Turn { .. } | Stage::Stance { .. }))) => {
            movement::check_stop_here(s, st, who, say)?;
            turn::no_action_ok(s, st, say).map(|()| Plan::Plain)
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

/// The decisions asked inside resolution, under their stage `st` (one whose
/// [`Stage::in_resolution`] holds).
fn check_in_frame(s: &State, st: &Stage, cmd: &Command, say: Say) -> Result<Plan, Reject> {
    let plain = Ok(Plan::Plain);
    match (*st, cmd) {
        (Stage::Defence { defender, ability, .. }, Command::Defend(d)) => {
            defence::check_defence(s, defender, ability, *d, say).map(|()| Plan::Plain)
        }
        (Stage::Trigger { holder, ability }, Command::Trigger(id)) => {
            trigger::check_trigger(s, holder, ability, *id, say)
        }
        (Stage::Defence { defender, ability, .. }, Command::DefendWith(d, b)) => {
            defence::check_defend_with(s, defender, ability, *d, *b, say)
        }
        (Stage::Trigger { .. }, Command::Pass) => plain,
        (Stage::Reroll { .. }, Command::Reroll | Command::Pass) => plain,
        (Stage::MovePrompt { .. }, Command::Pass) => plain,
        (Stage::MovePrompt { who, budget, toward }, Command::Move(to)) => {
            movement::check_prompt_move(s, who, budget, toward, *to, say)
        }
        (Stage::BuffReplace { .. }, Command::Accept | Command::Decline) => plain,
        (Stage::Keep { .. } | Stage::Upkeep { .. }, Command::Keep | Command::Release) => plain,
        _ => Err(another_decision(say)),
    }
}

/// The refusal of a command that answers nothing asked inside resolution.
fn another_decision(say: Say) -> Reject {
    no(say, codes::NOT_NOW, || "another decision is pending (see the prompt)")
}

/// Distance helper re-exported for the AI.
pub fn dist(s: &State, a: Pos, b: Pos) -> i16 {
    distance(s, a, b)
}
