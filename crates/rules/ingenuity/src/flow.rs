//! The flow of the combat: rounds, turns, and which team picks who acts next.
//!
//! The combat opens with the team order and the surprise round or round 1 (ING-R14, ING-R17);
//! teams alternate in slot order, each picking one of its members who has not acted this round
//! (ING-R6 to ING-R9); when every eligible participant has acted the next round starts at slot
//! 1 (ING-R10); the action that started the fight comes first (ING-R69); the combat ends when an
//! objective is met or one team is left standing (ING-R13, ING-H1). The decision behind this
//! module: who decides next is one topic, with its check (the pick) and its resolution (turn
//! starts, new rounds, the end), apart from the actions; the loop that runs everything
//! automatic (`crate::resolve::advance`) calls in here.

use crate::actions::trigger::ready_window;
use crate::codes::{self, no};
use crate::command::{Action, Command};
use crate::data::Cond;
use crate::event::{Cost, Event};
use crate::options::EndWhen;
use crate::setup::{Cid, Objective};
use crate::state::{Cx, Phase, R, State, Trigger};
use fray_engine::{EngineError, Flow, Outcome, Reject};

/// Opens the combat: the team order, then the surprise round or round 1.
pub(crate) fn open(cx: &mut Cx) {
    let order = cx.s.setup.order.clone();
    cx.emit(Event::OrderSet { order });
    if cx.s.setup.surprise.is_some() {
        cx.emit(Event::RoundStarted {
            round: 0,
            surprise: true,
        });
    } else {
        cx.emit(Event::RoundStarted {
            round: 1,
            surprise: false,
        });
    }
}

pub(crate) fn new_round(cx: &mut Cx) -> R {
    // Conditions lasting "until the end of its next turn" end for those who could not take one.
    for c in cx.s.ids() {
        let until = cx.s.ch(c).conds_until_turn;
        if until != 0 && !cx.s.order.has_acted(c) {
            for cond in Cond::ALL {
                if until & cond.bit() != 0 {
                    cx.emit(Event::Condition {
                        who: c,
                        cond,
                        on: false,
                        until_turn_end: false,
                    });
                }
            }
        }
    }
    // Survive objectives (ING-R13, ING-H1): the rounds have ended with the team standing.
    if cx.s.phase == Phase::Rounds {
        let done = cx.s.round;
        for t in 0..cx.s.setup.teams.len() as u8 {
            if let Some(Objective::Survive { rounds }) = cx.s.objectives.get(t as usize).cloned().flatten()
                && done >= rounds
                && team_standing(&cx.s, t)
            {
                cx.emit(Event::Ended {
                    outcome: Outcome {
                        winner: Some(t),
                        reason: "objective".into(),
                    },
                });
                return Ok(());
            }
        }
    }
    // ING-R17: normal rounds follow the surprise round, starting with round 1.
    let next = if cx.s.phase == Phase::Surprise {
        1
    } else {
        cx.s.round + 1
    };
    cx.emit(Event::RoundStarted {
        round: next,
        surprise: false,
    });
    Ok(())
}

pub(crate) fn team_standing(s: &State, t: u8) -> bool {
    s.ids().any(|c| s.team(c) == t && s.ch(c).standing())
}

/// Ends the combat when an objective is met or one team is left standing (ING-R13, ING-H1).
pub(crate) fn end_check(cx: &mut Cx) -> bool {
    let s = &*cx.s;
    let mut outcome = None;
    for t in 0..s.setup.teams.len() as u8 {
        let met = match s.objectives.get(t as usize).cloned().flatten() {
            Some(Objective::Reach { squares, who }) => s.ids().any(|c| {
                s.team(c) == t
                    && who.is_none_or(|w| w == c)
                    && s.ch(c).standing()
                    && s.ch(c).pos.is_some_and(|p| squares.contains(&p))
            }),
            Some(Objective::Down { who }) => (who as usize) < s.chars.len() && !s.ch(who).standing(),
            _ => false,
        };
        if met {
            outcome = Some(Outcome {
                winner: Some(t),
                reason: "objective".into(),
            });
            break;
        }
    }
    if outcome.is_none() && s.options.end_when == EndWhen::OneTeamStanding {
        let standing: Vec<u8> = (0..s.setup.teams.len() as u8)
            .filter(|t| team_standing(s, *t))
            .collect();
        if standing.len() <= 1 {
            outcome = Some(Outcome {
                winner: standing.first().copied(),
                reason: if standing.is_empty() {
                    "all-down".into()
                } else {
                    "last-team-standing".into()
                },
            });
        }
    }
    match outcome {
        Some(o) => {
            cx.emit(Event::Ended { outcome: o });
            true
        }
        None => false,
    }
}

/// With nobody left to pick, ends the round (ING-R10), or the combat when nobody can be
/// given a turn in the fresh round either.
pub(crate) fn next_round(cx: &mut Cx) -> Result<Flow, EngineError> {
    if cx.s.order.team_to_pick(|w| cx.s.can_take_turn(w)).is_some() {
        return Ok(Flow::Wait);
    }
    // ING-R10: every eligible participant has acted: the next round starts at slot 1
    // (`TeamOrder::start_round`).
    new_round(cx)?;
    if cx.s.outcome.is_none() && cx.s.order.team_to_pick(|w| cx.s.can_take_turn(w)).is_none() {
        // Nobody can be given a turn in a fresh round: nothing can ever change.
        let outcome = Outcome {
            winner: None,
            reason: "no-one-can-act".into(),
        };
        cx.emit(Event::Ended { outcome });
        return Ok(Flow::Wait);
    }
    Ok(Flow::Go)
}

/// Begins `who`'s turn (picked by its team): a readying it had expires, what it owes is paid,
/// and the readied enemies waiting for its turn are asked.
pub(crate) fn begin_turn(cx: &mut Cx, who: Cid) -> R {
    if cx.s.ch(who).ready.is_some() {
        cx.emit(Event::ReadyUsed { who, fired: false });
    }
    cx.emit(Event::TurnStarted { who });
    // The ally-actions debt of Command (ING-H14 alternative) is paid first.
    let owed = cx.s.ch(who).owed;
    if owed > 0 {
        cx.emit(Event::Paid {
            who,
            cost: Cost {
                actions: owed,
                ..Cost::default()
            },
        });
        cx.emit(Event::OwedPaid { who });
    }
    // Readied actions that wait for an enemy's turn (ING-R24).
    ready_window(cx, Trigger::Turn, who, None)?;
    Ok(())
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

pub(crate) fn check_pick(s: &State, team: Option<u8>, c: Cid) -> Result<(), Reject> {
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
    // ING-R7: only the team on its slot picks, and only one of its members who has not acted
    // this round; the picked member then takes a whole turn. The picking team may choose any
    // such member, so its order can differ every round (ING-R8); one who has acted is refused:
    // one turn per round (ING-R6).
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

/// The picks of `team` (`Stage::Pick`), in their order.
pub(crate) fn answers(s: &State, team: u8, out: &mut Vec<Command>) {
    for c in s.order.candidates(team, |w| s.can_take_turn(w)) {
        out.push(Command::Pick(c));
    }
}
