//! The flow of a combat: who declares next, and everything that happens by itself between
//! decisions. A round (HAL-R1): the creatures that are not surprised declare (HAL-R11, in the
//! method's order, or all at once when secret), the declarations are revealed and sorted into
//! counts (HAL-R7, HAL-R9: lowest first, equal counts together, HAL-R10), each count's turns
//! start or their acts are lost (HAL-H16), and the end of the round bleeds the Dying and checks
//! morale (HAL-H26) before the next round or the end of the combat (HAL-R23, HAL-H14).
//! Creatures entering the combat first roll Stress and Base Initiative (HAL-R24, HAL-R4,
//! HAL-R5).
//!
//! [`advance`] runs these automatic steps (the engine's `settle`) until a seat must decide;
//! what a decision does is in `actions/`, and the stage (`crate::stage`) reads whose
//! declaration is due from here. Keeping the round's order in one file, apart from the checks
//! and the dice of each action, is the decision: the checks may ask who declares next without
//! reaching into the resolver.

use crate::actions::attack::can_reposte;
use crate::actions::hurt::{bleed, take_action};
use crate::actions::morale::morale;
use crate::actions::{Cx1, dice, flee};
use crate::data::Ability;
use crate::options::{Declaration, EndOfRound, FreeActionTiming, FullDefenseTiming};
use crate::setup::Cid;
use crate::state::{Act, Action, Cap, Conditions, Event, Frame, Free, Lost, Phase, State};
use fray_engine::resolve::settle;
use fray_engine::{EngineError, Flow, Seat};

// ---------------------------------------------------------------------------------------------
// Who declares, and when
// ---------------------------------------------------------------------------------------------

/// Whether a creature declares this round at all: in the combat, not Surprised (HAL-R3), able
/// to act (not paralysed), not resting from an injury, and not already fleeing (a fleeing
/// creature's flight is declared for it).
pub fn declares(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    // HAL-R3: a Surprised creature makes no declaration (so takes no action) this round.
    !ch.gone()
        && ch.base.is_some()
        && !ch.has(Conditions::SURPRISED | Conditions::PARALYZED | Conditions::FLEEING)
        && !resting(s, c)
}

/// An injury that lets a creature act only every second round, and it acted last round.
pub fn resting(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    ch.has(Conditions::EVERY_OTHER) && ch.last_acted + 1 == s.round && s.round > 1
}

/// Whether a creature's declaration is due now: in the declaration step, or a newcomer in the
/// middle of a round (HAL-R12).
pub fn due(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    if ch.declared.is_some() || !declares(s, c) {
        return false;
    }
    match s.phase {
        Phase::Declaring => true,
        Phase::Resolving => ch.arrived == s.round,
        Phase::Setup => false,
    }
}

/// The order of the one-at-a-time declaration methods (HAL-R11); ties in encounter order
/// (HAL-H20).
pub fn declaration_order(s: &State) -> Vec<Cid> {
    let mut ids: Vec<Cid> = s.ids().collect();
    if s.options.declaration != Declaration::Secret {
        ids.sort_by_key(|&c| declaration_key(s, c));
    }
    ids
}

/// Where `c` comes in the one-at-a-time declaration methods (HAL-R11): lower first, ties in
/// encounter order (HAL-H20).
fn declaration_key(s: &State, c: Cid) -> i64 {
    let o = &s.options;
    let seats = s.setup.seats.len() as u32;
    match o.declaration {
        Declaration::Secret => 0,
        Declaration::Agility => -i64::from(s.score(c, crate::data::Ability::Agility)),
        Declaration::InitiativeModifier => {
            -i64::from(s.modifier(c, crate::data::Ability::Agility)) + i64::from(s.stats(c).initiative)
        }
        // The seats after the Referee's, round the table, the Referee's own creatures last.
        Declaration::Clockwise => i64::from((u32::from(s.seat_of(c).0) + seats - 1) % seats),
        Declaration::Counterclockwise => i64::from(match s.seat_of(c).0 {
            0 => seats,
            n => seats - u32::from(n),
        }),
        Declaration::Listed => o
            .declaration_list
            .iter()
            .position(|id| id.eq_ignore_ascii_case(&s.ch(c).id))
            .map_or(i64::MAX, |p| p as i64),
    }
}

/// The creature whose declaration is due next in the one-at-a-time methods; in the secret
/// method, `None` (every seat declares at once). It allocates nothing: the first due creature
/// of [`declaration_order`], found without sorting.
pub fn next_declarer(s: &State) -> Option<Cid> {
    // A newcomer in the middle of a round declares at once, whatever the method (HAL-R12).
    if s.phase == Phase::Resolving {
        return s.ids().find(|&c| due(s, c));
    }
    if s.options.declaration == Declaration::Secret {
        return None;
    }
    s.ids()
        .filter(|&c| due(s, c))
        .min_by_key(|&c| (declaration_key(s, c), c))
}

/// Whether the one-at-a-time declaration step is under way (not the secret method, nor a
/// newcomer's declaration in the middle of a round).
fn one_at_a_time(s: &State) -> bool {
    s.phase == Phase::Declaring && s.options.declaration != Declaration::Secret
}

/// The creatures `seat` may declare for now, the one due by default first (HAL-R11; the order
/// within a seat is fray's own reading, `seat-picks-declaration-order`). In the secret method,
/// and for newcomers in the middle of a round, a seat declares its creatures still to declare in
/// any order; by default they come in encounter order. In the one-at-a-time methods the
/// method's order between creatures is the rule itself, so a seat may reorder only the run of
/// its own creatures that comes next in that order: nobody else declares between them, so each
/// declaration is still seen by everyone who declares after it. With the option off, only the
/// creature due by default.
pub fn declarers(s: &State, seat: Seat, out: &mut Vec<Cid>) {
    let any = s.options.seat_picks_declaration_order;
    if one_at_a_time(s) {
        let order = declaration_order(s);
        let mut due_ones = order.into_iter().filter(|&c| due(s, c));
        match due_ones.next() {
            Some(first) if s.seat_of(first) == seat => {
                out.push(first);
                if any {
                    out.extend(due_ones.take_while(|&c| s.seat_of(c) == seat));
                }
            }
            _ => {}
        }
    } else {
        let mine = s.ids().filter(|&c| due(s, c) && s.seat_of(c) == seat);
        if any {
            out.extend(mine);
        } else {
            out.extend(mine.take(1));
        }
    }
}

/// The creature `seat` declares for by default now (the first of [`declarers`]).
pub fn default_declarer(s: &State, seat: Seat) -> Option<Cid> {
    if one_at_a_time(s) {
        next_declarer(s).filter(|&c| s.seat_of(c) == seat)
    } else {
        s.ids().find(|&c| due(s, c) && s.seat_of(c) == seat)
    }
}

/// Whether `seat` may declare for `who` now (see [`declarers`]), without listing them all.
pub(crate) fn may_declare(s: &State, seat: Seat, who: Cid) -> bool {
    if !due(s, who) || s.seat_of(who) != seat {
        return false;
    }
    if s.options.seat_picks_declaration_order && !one_at_a_time(s) {
        return true;
    }
    if !one_at_a_time(s) {
        return default_declarer(s, seat) == Some(who);
    }
    let mut out = Vec::new();
    declarers(s, seat, &mut out);
    out.contains(&who)
}

// ---------------------------------------------------------------------------------------------
// Entering the combat
// ---------------------------------------------------------------------------------------------

/// Rolls Stress and Base Initiative for everyone, then runs to the first decision.
pub fn start(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    advance(cx)
}

/// HAL-R24: maximum Stress from Hit Dice: each HD rolls its die plus the Strength modifier
/// (at least `min-stress-per-hd`), the first at its maximum with `first-hd-max`; or the stat
/// block's fixed value.
fn roll_stress(cx: Cx1<'_, '_>, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let st = s.stats(who);
    let name = s.ch(who).name.clone();
    let (hd, die, fixed) = (st.hd, st.hd_die, st.stress);
    let str_mod = i32::from(s.modifier(who, Ability::Strength));
    let (first_max, least) = (s.options.first_hd_max, i32::from(s.options.min_stress_per_hd));
    let max = match fixed {
        Some(v) => v,
        None => {
            let mut total = 0i32;
            for i in 0..hd {
                let face = if i == 0 && first_max {
                    i32::from(die)
                } else {
                    dice(cx, 1, die, &format!("{name}'s Hit Die {} for Stress", i + 1))?
                };
                total += (face + str_mod).max(least);
            }
            total.clamp(0, i32::from(crate::data::STAT_LIMIT)) as i16
        }
    };
    cx.emit(Event::Stress { who, max });
    Ok(())
}

/// Sets a creature up as it enters the combat: Stress (HAL-R24), then the Base Initiative d12
/// (HAL-R4), one roll for its whole group (HAL-R5).
fn set_up(cx: Cx1<'_, '_>, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let group: Vec<Cid> = match &s.ch(who).group {
        Some(g) => s
            .ids()
            .filter(|&c| s.ch(c).base.is_none() && s.ch(c).group.as_ref() == Some(g) && !s.ch(c).gone())
            .collect(),
        None => vec![who],
    };
    let label = match &s.ch(who).group {
        Some(g) if group.len() > 1 => format!("group {g}'s initiative"),
        _ => format!("{}'s initiative", s.ch(who).name),
    };
    for &c in &group {
        roll_stress(cx, c)?;
    }
    let roll = dice(cx, 1, 12, &label)? as u16;
    cx.emit(Event::Initiative { group, roll });
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The automatic steps: reveals, counts, turns, the end of the round
// ---------------------------------------------------------------------------------------------

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    settle(cx, step)
}

fn step(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.outcome.is_some() {
        return Ok(Flow::Wait);
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Reposte { by, against } => {
                let (by, against) = (*by, *against);
                if !can_reposte(s, by, against) || s.ch(against).gone() {
                    cx.pop();
                    Ok(Flow::Go)
                } else {
                    Ok(Flow::Wait)
                }
            }
            Frame::InjuryType { .. } => Ok(Flow::Wait),
        };
    }
    // HAL-R3: everyone rolls Base Initiative at the start, the Surprised too.
    if let Some(c) = s.ids().find(|&c| s.ch(c).base.is_none() && !s.ch(c).gone()) {
        set_up(cx, c)?;
        return Ok(Flow::Go);
    }
    // HAL-R1: the steps in their order: initiative first (above), then each round's
    // declarations, their resolution by count, and the end of the round.
    match s.phase {
        Phase::Setup => {
            cx.emit(Event::RoundStarted { round: 1 });
            Ok(Flow::Go)
        }
        Phase::Declaring => declaring(cx),
        Phase::Resolving => resolving(cx),
    }
}

fn declaring(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if let Some(winner) = end_check(s) {
        cx.emit(Event::Ended { winner });
        return Ok(Flow::Go);
    }
    // A fleeing creature's flight is declared for it (HAL-H13).
    if let Some(c) = s.ids().find(|&c| {
        let ch = s.ch(c);
        ch.has(Conditions::FLEEING)
            && ch.declared.is_none()
            && !ch.gone()
            && ch.base.is_some()
            && !ch.has(Conditions::PARALYZED)
    }) {
        cx.emit(Event::Declared {
            who: c,
            action: Some(Action::Flee),
        });
        return Ok(Flow::Go);
    }
    // HAL-R6: nothing is revealed or resolved until every creature due has declared.
    if s.ids().any(|c| due(s, c)) {
        return Ok(Flow::Wait);
    }
    // HAL-R7: round initiative = Base Initiative + the action's modifier; HAL-R13: a catch-up
    // turn at −12.
    let mut acts: Vec<Act> = Vec::new();
    for c in s.ids() {
        let ch = s.ch(c);
        let (Some(base), Some(action)) = (ch.base, ch.declared) else {
            continue;
        };
        if ch.gone() {
            continue;
        }
        let count = count_of(s, c, base, &action);
        if let Some((missed_action, missed, free)) = ch.catch_up {
            let from = if s.options.catch_up_on_missed { missed } else { count };
            acts.push(Act {
                who: c,
                action: missed_action,
                count: from - 12,
                catch_up: true,
                was: ch.cap(),
                free,
                lone: false,
            });
        }
        // HAL-R17: the Free action goes with the action, or (`free-action-timing =
        // "own-count"`) takes a turn of its own at Base Initiative + `free-speed`.
        let mut free = ch.declared_free;
        if free.is_some() && s.options.free_action_timing == FreeActionTiming::OwnCount {
            acts.push(Act {
                who: c,
                action: Action::Move,
                count: i32::from(base) + i32::from(s.options.free_speed),
                catch_up: false,
                was: ch.cap(),
                free: free.take(),
                lone: true,
            });
        }
        acts.push(Act {
            who: c,
            action,
            count,
            catch_up: false,
            was: ch.cap(),
            free,
            lone: false,
        });
    }
    // HAL-R9: lowest first; equal counts keep encounter order and act together (HAL-R10).
    acts.sort_by_key(|a| (a.count, a.who, !a.catch_up));
    cx.emit(Event::Revealed { acts });
    Ok(Flow::Go)
}

/// A creature's count this round (HAL-R7): its Base Initiative `base` plus the speed of the
/// action it declared.
pub fn count_of(s: &State, who: Cid, base: i16, action: &Action) -> i32 {
    i32::from(base) + i32::from(action.speed(s.stats(who), &s.options))
}

fn resolving(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ids().any(|c| due(s, c)) {
        return Ok(Flow::Wait);
    }
    if let Some(t) = s.turn {
        // One killed on this very count still finishes its turn (HAL-R10).
        if gone_for_good(s, t.who) || s.cap_now(t.who) == Cap::Out {
            cx.emit(Event::TurnEnded { act: t.act });
            return Ok(Flow::Go);
        }
        return Ok(Flow::Wait);
    }
    if s.caps.is_empty()
        && let Some(winner) = end_check(s)
    {
        cx.emit(Event::Ended { winner });
        return Ok(Flow::Go);
    }
    let Some(at) = s.order.current_slot() else {
        end_of_round(cx)?;
        return Ok(Flow::Go);
    };
    let i = at.who;
    let act = s.acts[usize::from(i)];
    if s.caps.is_empty() {
        cx.emit(Event::CountStarted { count: act.count });
        return Ok(Flow::Go);
    }
    let who = act.who;
    let cap = s.cap_now(who);
    // HAL-H16: the dead and the paralysed lose their action; one dropped to Dying since it
    // declared loses it; one dropped to Incapacitated may still act (paying HAL-R29's cost),
    // unless `incapacitated-may-act` is off.
    let lost = match cap {
        _ if gone_for_good(s, who) => Some(Lost::Unable),
        Cap::Out => Some(Lost::Unable),
        Cap::Dying if act.was != Cap::Dying => Some(Lost::Unable),
        // HAL-R30: one action a round for the Dying (a Reposte already taken counts; a lone
        // Free action that is speech is no action).
        Cap::Dying if s.ch(who).actions > 0 && !(act.lone && act.free == Some(Free::Speak)) => Some(Lost::Unable),
        Cap::Incapacitated if act.was == Cap::Able && !s.options.incapacitated_may_act => Some(Lost::Dropped),
        _ if !act.catch_up && resting(s, who) => Some(Lost::Resting),
        _ => None,
    };
    if let Some(why) = lost {
        cx.emit(Event::ActLost { act: i, why });
        return Ok(Flow::Go);
    }
    cx.emit(Event::TurnStarted { act: i });
    if act.action == Action::FullDefense {
        // Full defence is the declared action: taking it counts, and costs the hurt their
        // Wound Point (HAL-R17, HAL-R29, HAL-R30, HAL-R33).
        take_action(cx, who, false)?;
        if cx.s.options.full_defense_timing == FullDefenseTiming::FromCount {
            // HAL-R14, HAL-H23: +4 Defense and the Reposte option from its own count.
            cx.emit(Event::Guarding { who });
        }
    }
    if act.action == Action::Flee {
        flee::flee(cx, i, who)?;
    }
    Ok(Flow::Go)
}

/// Fled, surrendered or removed: out of the combat even on the count under way (unlike one
/// killed on it, HAL-R10).
fn gone_for_good(s: &State, who: Cid) -> bool {
    s.ch(who).gone() && !s.ch(who).has(Conditions::DEAD)
}

/// HAL-R23, HAL-H14: the combat ends once at most one side has creatures still fighting.
pub fn end_check(s: &State) -> Option<Option<u8>> {
    // HAL-R23: the fight ends when no two sides still have creatures fighting.
    let fleeing = s.options.fleeing_counts_as_fighting;
    let mut sides = s.chars.iter().filter(|c| c.fighting(fleeing)).map(|c| c.side);
    match sides.next() {
        None => Some(None),
        Some(first) => sides.all(|x| x == first).then_some(Some(first)),
    }
}

/// The end of a round (HAL-R1, HAL-H26): the Dying lose a Wound Point (HAL-R30, HAL-R43) and
/// monsters check morale (HAL-R19..R22), in the order of `end-of-round`; then the next round.
fn end_of_round(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    let round = cx.s.round;
    // HAL-R1: monster morale closes the round, before the next one or the end of combat.
    match cx.s.options.end_of_round {
        EndOfRound::DyingThenMorale => {
            bleed(cx);
            morale(cx)?;
        }
        EndOfRound::MoraleThenDying => {
            morale(cx)?;
            bleed(cx);
        }
    }
    // The round is over once its end-of-round steps are (its log line comes after them).
    cx.emit(Event::RoundEnded { round });
    if let Some(winner) = end_check(&cx.s) {
        cx.emit(Event::Ended { winner });
    } else {
        cx.emit(Event::RoundStarted { round: round + 1 });
    }
    Ok(())
}
