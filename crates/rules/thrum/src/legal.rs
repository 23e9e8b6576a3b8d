//! The legal answers to the pending decision, in a fixed order, each with its checked plan.
//!
//! Candidates are generated generously and filtered through [`check`](check::check), the single
//! source of legality, so the list can never offer something the rules refuse, and each answer
//! carries the plan the check gave it. The conformance suite checks the other direction: every
//! command the rules accept at a decision is in the list, with the plan its check gives. Moves
//! are the exception to the filter: checking a `move` runs a path search, so the squares and
//! their paths come from one reachability search through the check's own
//! [`check::move_answers`] and [`check::prompt_move_answers`], which accept exactly what
//! [`check`](check::check) accepts, with its plans (`tests/it/legal_probe.rs` compares them
//! square by square). The filter asks [`plan_in`], the check without the sentence of a
//! refusal, which nobody reads here, under the [`stage`] worked out once for the whole list.
//!
//! This module is the dispatch on the stage and the filter; each action's candidates are
//! generated next to its check, in [`crate::actions`] (`movement` the moves and steps, `action`
//! the Actions (usable abilities, targets, picks), `stance`, `defence`, `trigger`, and `turn`
//! the slot's and the placement's), and the names other callers use are re-exported here.

use crate::Thrum;
use crate::actions::{action, defence, movement, stance, trigger, turn};
use crate::check::{self, plan_in};
use crate::command::Command;
use crate::stage::{Stage, stage};
use crate::state::State;
use fray_engine::Answer;
use std::ops::ControlFlow;

pub use crate::actions::action::{Picks, abilities_of, any_action, pick_candidates, target_candidates};

/// Appends every legal answer: each legal command with the plan [`check`](check::check) gives it.
pub fn legal(s: &State, out: &mut Vec<Answer<Thrum>>) {
    if let Some(st) = stage(s) {
        legal_in(s, &st, out);
    }
}

/// [`legal`] under the stage `st` ([`stage`] of `s`), which every candidate is checked under.
pub fn legal_in(s: &State, st: &Stage, out: &mut Vec<Answer<Thrum>>) {
    if s.outcome.is_some() {
        return;
    }
    let push = |c: Command, out: &mut Vec<Answer<Thrum>>| {
        if let Some(plan) = plan_in(s, st, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    match *st {
        Stage::Defence { defender, ability, .. } => defence::candidates(s, defender, ability, &mut |c| push(c, out)),
        Stage::Reroll { .. } => {
            push(Command::Reroll, out);
            push(Command::Pass, out);
        }
        Stage::MovePrompt { who, budget, toward } => {
            // One reachability search for every square (`prompt_move_answers` is the check's
            // own).
            check::with_scratch(|sc| movement::prompt_move_answers(s, who, budget, toward, sc, out));
            push(Command::Pass, out);
        }
        Stage::BuffReplace { .. } => {
            push(Command::Accept, out);
            push(Command::Decline, out);
        }
        Stage::Keep { .. } | Stage::Upkeep { .. } => {
            push(Command::Keep, out);
            push(Command::Release, out);
        }
        Stage::Trigger { holder, .. } => trigger::candidates(s, holder, &mut |c| push(c, out)),
        Stage::Slot { .. } => turn::slot_candidates(s, &mut |c| push(c, out)),
        Stage::Place { .. } => turn::place_candidates(s, &mut |c| push(c, out)),
        Stage::Turn { who, dash } => {
            if check::movement_left(s) > 0 || s.options.partial_steps {
                // One reachability search for every square (`move_answers` is the check's own).
                check::with_scratch(|sc| movement::move_answers(s, st, sc, out));
                movement::step_candidates(s, who, &mut |c| push(c, out));
            }
            let mine = abilities_of(s, who);
            if !dash {
                let _ = action::each_action(s, st, who, mine, &mut |c, plan| {
                    out.push(Answer::new(c, plan));
                    ControlFlow::Continue(())
                });
            }
            stance::candidates(s, mine, &mut |c| push(c, out));
            push(Command::EndTurn, out);
        }
        Stage::Stance { who } => {
            stance::candidates(s, abilities_of(s, who), &mut |c| push(c, out));
            push(Command::EndTurn, out);
        }
    }
}
