//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order. Neither works out which
//! decision is open: they match on the [`Stage`] ([`stage`], worked out once per call, or
//! handed in by a caller that has it: [`check_in`], [`plan_in`], [`legal_in`]).
//!
//! This file is the dispatch: the stage and the command pick the action, and each action's
//! check and legal list are in its own file under [`crate::actions`] (an attack's [`plan`], its
//! profile, whether it needs a WIT save, whom a blast hits, is
//! [`crate::actions::attack`]; the reactions are [`crate::actions::reactions`]; and so on),
//! beside the resolution that consumes the plan. The faction's answers are the turn flow's,
//! [`crate::flow`]. The paths of the checks that other modules and crates use are kept here
//! as re-exports.

use crate::Murdham;
use crate::actions::rulings::ruling;
use crate::actions::{self, Offer, grapple, influence, items, movement, no, talk};
use crate::codes;
use crate::command::{Aim, Command};
use crate::flow::{act, pass};
use crate::stage::{Stage, attack, stage};
use crate::state::{Attack, Mode, State, Turn};
use fray_engine::{Answer, Reject, Seat};

pub use crate::actions::attack::{AttackPlan, behind_barrier, blast_victims, plan, visible};
pub use crate::actions::movement::opportunity_ok;
pub use crate::actions::reactions::{
    counter_ok, dodge_open, dodge_open_with, guard_ok, hide_ok, may_react, other_reaction_open,
};
pub use crate::actions::weapons::{Profile, profile, weapons_of};
pub use crate::actions::{Plan, fresh};

/// A command of the wrong kind for the decision asked: the reason says what is asked (who
/// decides, about what, and the answers open), so a wrong answer is never a riddle.
fn not_now(s: &State) -> Reject {
    no(
        codes::NOT_NOW,
        format!("that does not answer what is asked now: {}", crate::text::asked(s)),
    )
}

/// Whether the command of `seat` is accepted now, and its plan. The engine has already checked
/// that `seat` is asked; at a faction's opportunity, which several seats may be asked, a seat
/// gives the turn only to a character it plays.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    check_in(s, seat, stage(s).as_ref(), c)
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, seat: Seat, st: Option<&Stage>, c: &Command) -> Result<Plan, Reject> {
    // GM rulings are no stage: accepted whatever the game waits for.
    if let Command::Gm(r) = c {
        return ruling(s, r).map(|()| Plan::Plain);
    }
    let Some(st) = st else {
        return Err(not_now(s));
    };
    match *st {
        Stage::StuntApproval { .. }
        | Stage::Stunt { .. }
        | Stage::Reaction { .. }
        | Stage::Guard { .. }
        | Stage::StandIn { .. } => match attack(s) {
            Some(a) => answer(s, st, a, c).map(|()| Plan::Plain),
            None => Err(not_now(s)),
        },
        // MUR-R11: the opportunity attack, the reaction to an enemy moving away.
        Stage::Opportunity { foe, mover } => match c {
            Command::Decline => Ok(Plan::Plain),
            Command::Opportunity(w) => {
                plan(s, foe, Aim::At(mover), *w, Mode::Harm { hold: false }, false, true).map(Plan::Attack)
            }
            _ => Err(not_now(s)),
        },
        Stage::Morale { .. } => match c {
            Command::Surrender | Command::Retreat => Ok(Plan::Plain),
            _ => Err(not_now(s)),
        },
        Stage::Open { .. } => match c {
            Command::Open(side) if (*side as usize) < s.setup.sides.len() => Ok(Plan::Plain),
            Command::Open(_) => Err(no(codes::BAD_TARGET, "no such faction")),
            _ => Err(not_now(s)),
        },
        Stage::Faction { side } => match c {
            Command::Pass => Ok(pass(s, seat, side)),
            Command::Act(w) => act(s, seat, side, *w).map(|()| Plan::Plain),
            _ => Err(not_now(s)),
        },
        Stage::Turn { turn } => turn_command(s, &turn, c),
    }
}

/// The plan [`check_in`] gives a command it accepts under the stage `st`, `None` for one it
/// refuses: what the legal list asks of each candidate, the stage worked out once for the
/// whole list.
pub fn plan_in(s: &State, seat: Seat, st: &Stage, c: &Command) -> Option<Plan> {
    check_in(s, seat, Some(st), c).ok()
}

/// An answer to the decision `st` about the attack `a` on top of the stack. MUR-R11: the
/// reactions to an attack are dodge, counter, guard and hiding behind someone (opportunity
/// attacks answer a step, in [`check_in`]).
fn answer(s: &State, st: &Stage, a: &Attack, c: &Command) -> Result<(), Reject> {
    // MUR-R11: the reactions an attack may meet: guard, dodge, counter and hide behind.
    match (st, c) {
        (Stage::StuntApproval { .. }, Command::Approve | Command::Veto) => Ok(()),
        (Stage::Stunt { .. }, Command::Accept | Command::Refuse) => Ok(()),
        (Stage::Guard { .. }, Command::Guard | Command::Decline) => Ok(()),
        (Stage::StandIn { .. }, Command::Agree | Command::Decline) => Ok(()),
        (Stage::Reaction { .. }, Command::Take) => Ok(()),
        (Stage::Reaction { .. }, Command::Dodge) => match dodge_open(s, a) {
            Some(_) => Ok(()),
            None => Err(no(codes::NO_REACTION, "no dodge is open against this attack now")),
        },
        (Stage::Reaction { .. }, Command::Counter { with, mode }) => counter_ok(s, a, *with, *mode),
        (Stage::Reaction { .. }, Command::HideBehind(h)) => hide_ok(s, a, *h),
        _ => Err(not_now(s)),
    }
}

/// A command during the turn `t`: what a hold and a taunt forbid first, then the command's
/// own check, in the file of its action.
fn turn_command(s: &State, t: &Turn, c: &Command) -> Result<Plan, Reject> {
    let who = t.who;
    grapple::entangled(s, who, c)?;
    influence::taunted(s, who, c)?;
    match c {
        Command::End => Ok(Plan::Plain),
        Command::TimedOut if s.options.chaos && fresh(s, t) => Ok(Plan::Plain),
        // MUR-R46: surrendering takes the whole turn, so only a turn not yet begun.
        Command::Surrender | Command::BreakFree if !fresh(s, t) => Err(no(
            codes::NO_ACTION,
            "this takes the whole turn, and the turn has begun",
        )),
        Command::Surrender => Ok(Plan::Plain),
        Command::BreakFree => grapple::check_break_free(s, t),
        Command::Move { to, sneak } => movement::check_move(s, t, *to, *sneak),
        Command::Run => movement::check_run(t),
        Command::Cover => movement::check_cover(s, t),
        Command::Attack {
            aim,
            with,
            mode,
            sweep,
            stunt,
        } => actions::attack::check(s, t, *aim, *with, *mode, *sweep, stunt),
        Command::Influence { kind, target } => influence::check(s, t, *kind, *target),
        Command::Shove { target, to, hazard } => grapple::check_shove(s, t, *target, *to, *hazard),
        Command::Throw { target, to } => grapple::check_throw(s, t, *target, *to),
        Command::Free(x) => grapple::check_free(s, t, *x),
        Command::Release => grapple::check_release(s, t),
        Command::Equip { item, off } => items::check_equip(s, t, *item, *off),
        Command::Stow(i) => items::check_stow(s, t, *i),
        Command::Drop(i) => items::check_drop(s, t, *i),
        Command::PickUp(g) => items::check_pick_up(s, t, *g),
        Command::Use { item, on } => items::check_use(s, t, *item, *on),
        Command::Reload(i) => items::check_reload(s, t, *i),
        Command::Interact { main } => talk::check_interact(t, *main),
        Command::Say(words) => talk::check_say(t, words),
        _ => Err(not_now(s)),
    }
}

/// Every legal answer of `seat` (one of those asked) to the pending decision, each with the
/// plan [`check`] gives it.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<Murdham>>) {
    if let Some(st) = stage(s) {
        legal_in(s, seat, &st, out);
    }
}

/// The legal list being built: each candidate an action offers is checked under the stage
/// ([`plan_in`]) and kept, with its plan, if it is accepted.
struct Listing<'a> {
    s: &'a State,
    seat: Seat,
    st: &'a Stage,
    out: &'a mut Vec<Answer<Murdham>>,
}

impl Listing<'_> {
    /// An answer with the plan already known.
    fn answer(&mut self, c: Command, plan: Plan) {
        self.out.push(Answer::new(c, plan));
    }

    /// Answers the decision asked accepts as they are.
    fn plains<const N: usize>(&mut self, cs: [Command; N]) {
        for c in cs {
            self.plain(c);
        }
    }
}

impl Offer for Listing<'_> {
    fn checked(&mut self, c: Command) {
        if let Some(plan) = plan_in(self.s, self.seat, self.st, &c) {
            self.out.push(Answer::new(c, plan));
        }
    }

    fn plain(&mut self, c: Command) {
        self.answer(c, Plan::Plain);
    }
}

/// [`legal`] under the stage `st` the caller has already worked out ([`stage`] of `s`): every
/// candidate is checked under it ([`plan_in`]). The actions name their candidates, in this
/// order.
pub fn legal_in(s: &State, seat: Seat, st: &Stage, out: &mut Vec<Answer<Murdham>>) {
    let mut list = Listing { s, seat, st, out };
    let who = match *st {
        Stage::StuntApproval { .. } => return list.plains([Command::Approve, Command::Veto]),
        Stage::Stunt { .. } => return list.plains([Command::Accept, Command::Refuse]),
        Stage::Guard { .. } => return list.plains([Command::Guard, Command::Decline]),
        Stage::StandIn { .. } => return list.plains([Command::Agree, Command::Decline]),
        Stage::Reaction { target, .. } => return actions::reactions::legal(s, target, &mut list),
        Stage::Opportunity { foe, .. } => return movement::legal_opportunity(s, foe, &mut list),
        Stage::Morale { .. } => return list.plains([Command::Surrender, Command::Retreat]),
        Stage::Open { .. } => {
            for side in 0..s.setup.sides.len() as u8 {
                list.plain(Command::Open(side));
            }
            return;
        }
        Stage::Faction { side } => {
            for w in s.ids() {
                if act(s, seat, side, w).is_ok() {
                    list.plain(Command::Act(w));
                }
            }
            list.answer(Command::Pass, pass(s, seat, side));
            return;
        }
        Stage::Turn { turn } => turn.who,
    };
    actions::attack::legal(s, who, &mut list);
    influence::legal(s, &mut list);
    movement::legal(s, who, &mut list);
    grapple::legal(s, who, &mut list);
    items::legal(s, who, &mut list);
    talk::legal(&mut list);
    list.checked(Command::Surrender);
    list.checked(Command::TimedOut);
    list.plain(Command::End);
}
