//! The flow of the fight: who decides next, and the rounds and phases around the turns.
//!
//! Who decides: the faction whose opportunity it is (MUR-R1, MUR-R3), the seats it asks, the
//! seats asked which faction opens (MUR-R6), and the last faction standing; the stage reads
//! them ([`crate::stage`]), and so do the check and the resolution. The rounds: the start
//! (initiative, MUR-R6; the ambushers' bonus turn, MUR-R40), [`advance`], which runs every
//! automatic step (the frames on top of the stack, passes of factions with nobody able,
//! MUR-R4, the phases and the end of the round, MUR-R3, MUR-R5, MUR-R52, MUR-R53) until a seat
//! must decide, and the faction's own answers (pass or give the turn, open).
//!
//! The decision behind the split: this module reads the state and drives the actions (the
//! attack and step frames, morale, poison, the end of the fight), and nothing here imports
//! the check, the resolver or the stage, so the stage can ask it who decides without a cycle.

use crate::Murdham;
use crate::actions::health::hurt;
use crate::actions::landing::attack_step;
use crate::actions::morale::morale;
use crate::actions::movement::step;
use crate::actions::wear::end_fight;
use crate::actions::{self, Plan, bug, no};
use crate::codes;
use crate::command::Command;
use crate::options::Opener;
use crate::roll::{NOBODY, Res, die};
use crate::setup::Cid;
use crate::state::{Condition, Event, Frame, Phase, State, Status};
use fray_engine::resolve::settle;
use fray_engine::{Cx, Flow, Reject, Seat, Seats};

/// Decides who holds the initiative (MUR-R6), then runs to the first decision.
pub fn start(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    let n = cx.s.setup.sides.len() as u16;
    match cx.s.setup.initiative {
        Some(side) => cx.emit(Event::Initiative { side, roll: None }),
        None => {
            // MUR-R6: random when it is unclear who started the fight.
            let roll = die(cx, n, NOBODY, "initiative die (1 = first faction)")?;
            cx.emit(Event::Initiative {
                side: (roll - 1) as u8,
                roll: Some(roll),
            });
        }
    }
    // MUR-R40: concealed characters get a bonus turn before round 1.
    if cx.s.chars.iter().any(|c| c.concealed && c.up()) {
        cx.emit(Event::PhaseStarted {
            phase: Phase::Ambush,
            fat: None,
        });
    }
    advance(cx)
}

/// The faction whose opportunity it is (MUR-R1), `None` once the phase is over (MUR-R3).
pub fn faction_to_pick(s: &State) -> Option<u8> {
    if !matches!(s.phase, Phase::Ambush | Phase::Round | Phase::Fast | Phase::Slow) || s.opening {
        return None;
    }
    if phase_over(s) {
        return None;
    }
    s.order.team_to_pick(|_| true)
}

/// The seats asked at faction `side`'s opportunity (MUR-R1): each seat that plays one of its
/// characters able to take a turn now, less those that have passed at this opportunity. The
/// first to give the turn to one of its own characters ends the opportunity; the faction
/// passes once every seat asked has passed. A faction played from one seat asks that seat
/// while someone of it can act, as before seats of their own.
pub fn seats_asked(s: &State, side: u8) -> Seats {
    let mut out: Seats = s
        .ids()
        .filter(|&c| s.ch(c).side == side && !s.order.has_acted(c) && s.may_take_turn(c))
        .map(|c| s.seat_of(c))
        .collect();
    if !s.seats_passed.is_empty() {
        for seat in s.seats_passed.iter() {
            out.remove(seat);
        }
    }
    out
}

/// The seats asked which faction opens (MUR-R6): each seat that plays a character of the
/// initiative faction still in the fight (the first to answer decides), or the faction's own
/// seat when none is.
pub fn openers(s: &State) -> Seats {
    let side = s.initiative;
    let mut out: Seats = s
        .ids()
        .filter(|&c| s.ch(c).side == side && s.ch(c).up())
        .map(|c| s.seat_of(c))
        .collect();
    if out.is_empty() {
        out.insert(s.setup.sides[side as usize].seat);
    }
    out
}

/// Whether someone of `side` can take a turn now (MUR-R4).
pub fn side_can_act(s: &State, side: u8) -> bool {
    s.ids()
        .any(|c| s.ch(c).side == side && !s.order.has_acted(c) && s.may_take_turn(c))
}

/// MUR-R3, MUR-H14: every faction (or, with `every-faction-passes = false`, every faction with
/// someone able to act) has passed since the last turn.
fn phase_over(s: &State) -> bool {
    // MUR-R3: the phase (the round) is over only once every faction has passed in a row.
    (0..s.setup.sides.len() as u8)
        .filter(|&f| s.options.every_faction_passes || side_can_act(s, f))
        .all(|f| s.passed[f as usize])
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    settle(cx, |cx| {
        let s = &*cx.s;
        if s.outcome.is_some() {
            return Ok(Flow::Wait);
        }
        match s.frames.last().cloned() {
            Some(Frame::Attack(a)) => return attack_step(cx, a),
            Some(Frame::Step(st)) => return step(cx, st),
            Some(Frame::Morale { who }) => {
                if who.is_empty() {
                    cx.pop();
                    return Ok(Flow::Go);
                }
                return Ok(Flow::Wait);
            }
            None => {}
        }
        if s.phase != Phase::Setup
            && s.phase != Phase::Morale
            && let Some(winner) = s.last_side_standing()
        {
            end_fight(cx, winner, "last-faction-standing")?;
            return Ok(Flow::Go);
        }
        if s.opening {
            if s.options.opener == Opener::Initiative || s.phase == Phase::Ambush && !side_can_act(s, s.initiative) {
                cx.emit(Event::Opens { side: s.initiative });
                return Ok(Flow::Go);
            }
            return Ok(Flow::Wait);
        }
        if let Some(t) = &s.turn {
            let c = s.ch(t.who);
            if !c.up() {
                cx.emit(Event::TurnEnded { who: t.who });
                return Ok(Flow::Go);
            }
            return Ok(Flow::Wait);
        }
        match s.phase {
            Phase::Setup => {
                cx.emit(Event::RoundStarted { round: 1 });
                start_phase(cx)?;
                return Ok(Flow::Go);
            }
            Phase::Morale => {
                if let Some(winner) = s.last_side_standing() {
                    end_fight(cx, winner, "last-faction-standing")?;
                    return Ok(Flow::Go);
                }
                // The morale frame is resolved: the next round begins.
                cx.emit(Event::RoundStarted { round: s.round + 1 });
                start_phase(cx)?;
                return Ok(Flow::Go);
            }
            _ => {}
        }
        match faction_to_pick(s) {
            Some(side) if seats_asked(s, side).is_empty() => {
                // MUR-R4: a faction with nobody able to act can only pass; so does one whose
                // every seat with someone able to act has passed (a ruling may leave none of
                // the others asked).
                cx.emit(Event::Passed { side });
                Ok(Flow::Go)
            }
            Some(_) => Ok(Flow::Wait),
            None => {
                end_phase(cx)?;
                Ok(Flow::Go)
            }
        }
    })
}

/// The first phase of a round: fast (with a d20 for the threshold) or the whole round.
fn start_phase(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    if cx.s.options.fast_slow {
        // MUR-R52: the threshold is rolled openly at the start of each round.
        let fat = die(cx, 20, NOBODY, "fast action threshold (d20)")? as u8;
        cx.emit(Event::PhaseStarted {
            phase: Phase::Fast,
            fat: Some(fat),
        });
    } else {
        cx.emit(Event::PhaseStarted {
            phase: Phase::Round,
            fat: None,
        });
    }
    Ok(())
}

/// Every faction has passed: the next phase, or the end of the round (MUR-R3, MUR-R5).
fn end_phase(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    match cx.s.phase {
        Phase::Ambush => {
            cx.emit(Event::RoundStarted { round: 1 });
            start_phase(cx)?;
        }
        // MUR-R53: the fast phase is followed by the slow one; the slow phase ends the round.
        Phase::Fast => cx.emit(Event::PhaseStarted {
            phase: Phase::Slow,
            fat: None,
        }),
        Phase::Round | Phase::Slow => end_round(cx)?,
        Phase::Setup | Phase::Morale => return Err(bug("a phase ended outside the round")),
    }
    Ok(())
}

/// The end of a round: the dying come closer to death, poison bites, lost turns are over,
/// then the morale phase.
fn end_round(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    // Poison bites, then the dying come closer to death; lost turns are over.
    for c in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.ch(c).poisoned && cx.s.ch(c).up() {
            hurt(cx, c, None, 1, 0, true)?;
        }
    }
    for c in cx.s.ids().collect::<Vec<_>>() {
        match cx.s.ch(c).status {
            Status::Dying { rounds: 0 } => cx.emit(Event::Fell {
                who: c,
                status: Status::Dead,
            }),
            Status::Dying { rounds } => cx.emit(Event::Fell {
                who: c,
                status: Status::Dying { rounds: rounds - 1 },
            }),
            _ => {}
        }
        if cx.s.ch(c).lost_round.is_some_and(|r| r <= cx.s.round) {
            cx.emit(Event::Condition {
                who: c,
                condition: Condition::LosesTurn(None),
            });
        }
    }
    // MUR-R5: every round ends with the morale phase.
    morale(cx)
}

/// A pass of `seat` at the opportunity of the faction `side` (MUR-R1): the faction's when no
/// other seat of it is still asked, else only this seat's.
pub(crate) fn pass(s: &State, seat: Seat, side: u8) -> Plan {
    let mut others = seats_asked(s, side);
    others.remove(seat);
    let seat = (!others.is_empty()).then_some(seat);
    Plan::Pass { side, seat }
}

/// Whether `seat`, at the opportunity of the faction `side`, may give the turn to `w`.
pub(crate) fn act(s: &State, seat: Seat, side: u8, w: Cid) -> Result<(), Reject> {
    // MUR-R1, MUR-R2: the faction gives the turn to one of its characters that has not had its
    // turn this round; of those, each seat asked gives it only to one it plays.
    match s.chars.get(w as usize) {
        Some(ch) if ch.side == side && s.seat_of(w) != seat => {
            let name = |x: Seat| fray_engine::sides::seat_name(&s.setup.seats, x);
            Err(no(
                Reject::NOT_YOUR_DECISION,
                format!(
                    "{} is played by {}, not by {}: a seat gives the turn only to its own characters (or passes)",
                    ch.name,
                    name(s.seat_of(w)),
                    name(seat)
                ),
            ))
        }
        Some(ch) if ch.side == side && !s.order.has_acted(w) && s.may_take_turn(w) => Ok(()),
        Some(ch) => Err(no(
            codes::CANNOT_ACT,
            format!(
                "{} cannot take a turn now (not this faction's, had its turn, or cannot act in this phase)",
                ch.name
            ),
        )),
        None => Err(no(codes::BAD_TARGET, "no such character")),
    }
}

/// The faction holding the initiative chose who opens (MUR-R6).
pub fn open(cx: &mut Cx<'_, Murdham>, command: &Command) -> Res<()> {
    match command {
        Command::Open(side) => cx.emit(Event::Opens { side: *side }),
        c => return Err(bug(format!("{c:?} does not open"))),
    }
    Ok(())
}

/// A faction's answer at its opportunity (MUR-R1): a pass (the faction's, or one seat's of
/// several), or the turn given to one of its characters.
pub fn faction(cx: &mut Cx<'_, Murdham>, command: &Command, plan: Plan) -> Res<()> {
    match command {
        Command::Pass => match plan {
            // One seat of several: the others are still asked.
            Plan::Pass { side, seat: Some(seat) } => cx.emit(Event::SeatPassed { side, seat }),
            Plan::Pass { side, seat: None } => cx.emit(Event::Passed { side }),
            _ => return Err(actions::unplanned(command, &plan)),
        },
        Command::Act(who) => cx.emit(Event::TurnStarted { who: *who }),
        c => return Err(bug(format!("{c:?} outside a turn"))),
    }
    Ok(())
}
