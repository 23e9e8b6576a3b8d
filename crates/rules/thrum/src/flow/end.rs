//! Stop conditions and End of Combat (THR-R4 to THR-R8, THR-R183 to THR-R188).
//!
//! Part of the flow (it was `resolve::end`): the stop conditions are checked after each ability
//! and turn, and End of Combat ends the flow.

use crate::calc::is_minion;
use crate::event::Event;
use crate::options::{BothFall, ZeroTolerancePc};
use crate::setup::{Cid, Predicate};
use crate::state::Cx;
use crate::state::State;
use fray_engine::Outcome;

fn down(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    ch.removed || ch.incapacitated
}

fn pc_side(s: &State) -> Option<u8> {
    s.setup.sides.iter().position(|x| x.pc).map(|i| i as u8)
}

fn npc_side(s: &State) -> Option<u8> {
    s.setup.sides.iter().position(|x| !x.pc).map(|i| i as u8)
}

/// Checks the stop conditions (THR-R4 to THR-R7, THR-H18, THR-H28) and ends the combat if one
/// holds.
pub fn stop_check(cx: &mut Cx) {
    if cx.s.outcome.is_some() {
        return;
    }
    let s = &*cx.s;
    // Minions do not count unless the option says so (THR-H18).
    let counts = |c: Cid| s.options.minions_count || !is_minion(s, c);
    let pcs_down = s.ids().filter(|&c| s.is_pc(c) && counts(c)).all(|c| down(s, c));
    let npcs_down = s.ids().filter(|&c| !s.is_pc(c) && counts(c)).all(|c| down(s, c));
    let result = if pcs_down && npcs_down {
        Some((
            match s.options.both_fall {
                BothFall::PcsLose => npc_side(s),
                BothFall::Draw => None,
            },
            "both-sides-down",
        ))
    } else if pcs_down {
        Some((npc_side(s), "all-pcs-down"))
    } else if npcs_down {
        // THR-R5: every NPC Incapacitated or removed.
        Some((pc_side(s), "all-npcs-down"))
    } else {
        // THR-R6: the encounter's Win and Defeat Conditions (those judged at the end of a
        // round are in `end_of_round_conditions`).
        s.setup.conditions.iter().find_map(|c| {
            let holds = match &c.predicate {
                Predicate::Reach { squares, who } => s
                    .ids()
                    .filter(|&x| who.is_none_or(|w| w == x) && s.is_pc(x) && s.ch(x).able())
                    .any(|x| s.ch(x).pos.is_some_and(|p| squares.contains(&p))),
                Predicate::Down { who } => down(s, *who),
                Predicate::Survive { .. } | Predicate::Hold { .. } => false,
            };
            holds.then(|| {
                if c.win {
                    (pc_side(s), "win-condition")
                } else {
                    (npc_side(s), "defeat-condition")
                }
            })
        })
    };
    if let Some((winner, reason)) = result {
        end_combat(cx, winner, reason);
    }
}

pub(crate) fn end_of_round_conditions(cx: &mut Cx, round: u16) {
    // THR-R6: Win and Defeat Conditions counted in rounds (survive, hold squares).
    let conditions = cx.s.setup.conditions.clone();
    for (i, c) in conditions.iter().enumerate() {
        let holds = match &c.predicate {
            Predicate::Survive { rounds } => round >= *rounds,
            Predicate::Hold { squares, rounds } => {
                let s = &*cx.s;
                let on = s
                    .ids()
                    .any(|x| s.is_pc(x) && s.ch(x).able() && s.ch(x).pos.is_some_and(|p| squares.contains(&p)));
                let mut count = s.holds.get(i).copied().unwrap_or(0);
                if on {
                    count += 1;
                    cx.emit(Event::HoldCounted {
                        condition: i as u8,
                        count,
                    });
                }
                count >= *rounds
            }
            _ => false,
        };
        if holds {
            let (winner, reason) = if c.win {
                (pc_side(&cx.s), "win-condition")
            } else {
                (npc_side(&cx.s), "defeat-condition")
            };
            end_combat(cx, winner, reason);
            return;
        }
    }
    stop_check(cx);
}

/// Ends the combat and runs End of Combat (THR-R183 to THR-R187).
pub fn end_combat(cx: &mut Cx, winner: Option<u8>, reason: &str) {
    cx.emit(Event::CombatEnded {
        outcome: Outcome {
            winner,
            reason: reason.to_string(),
        },
    });
    for who in cx.s.ids() {
        let c = cx.s.ch(who);
        let pc = cx.s.is_pc(who);
        let zero = c.ft <= 0;
        let removed = c.removed;
        let revive = pc && !(zero && cx.s.options.zero_tolerance_pc == ZeroTolerancePc::StaysIncapacitated);
        cx.emit(Event::Cleared { who, revive });
        if pc && zero && !removed && cx.s.options.zero_tolerance_pc == ZeroTolerancePc::Barred {
            cx.emit(Event::Barred { who });
        }
    }
}
