//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order (it generates candidates and keeps
//! those [`check`] accepts).
//!
//! Both work under the decision the game waits for, [`crate::stage::stage`], worked out once at
//! their entry points ([`check_in`], [`legal_in`]) and matched on; GM rulings are no stage. The
//! legal list asks each candidate in the code-only mode ([`plan_in`]), the same rules without
//! formatting the sentence of a refusal it would throw away.
//!
//! This file is the dispatch: which action or topic answers which command under which stage.
//! The rules themselves are in `actions/`, each action's check beside its legal candidates and
//! its resolution: `attack` (strike, shoot, punch, grapple, shove, cast), `defence` (reactions
//! and the defender's swap), `hit` (extra successes), `flee` (flight and chase), `restraint`
//! (break free, hold, release), `movement` (move, clear, close, withdraw, cover), `items`
//! (draw, pick up), `quick` (stand, shout, interact), `hazards` (extinguish), `roll` (`test`),
//! `harm` (splits), `cards` (the card kept), `swaps` (the swap stage) and `rulings`; a group's
//! pick is `flow`'s. Only the gate of a restrained or burning creature's turn (EIN-R28, EIN-R39)
//! is here, because it comes before every manoeuvre. The names the check used to define are
//! re-exported from their new homes, so `check::...` paths keep working.

use crate::Einfelst;
use crate::actions::{
    attack, cards, defence, flee, harm, hazards, hit, items, movement, push, quick, restraint, roll, rulings, swaps,
};
use crate::codes;
use crate::command::Command;
use crate::flow;
use crate::plan::{Say, no, not_now};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::State;
use fray_engine::{Answer, Reject, Seat};

pub use crate::actions::attack::{attack_action, attack_need, must_close_in};
pub use crate::actions::cards::turn_card;
pub use crate::actions::defence::{can_defend, defence_ok, defender_may_swap, parry_action};
pub use crate::actions::harm::split_matters;
pub use crate::actions::hit::{extra, net};
pub use crate::actions::manoeuvres::{may_react, pay_fast, pay_reaction, pay_slow};
pub use crate::actions::movement::label_text;
pub use crate::actions::roll::circumstance_extra;
pub use crate::actions::swaps::{may_trade, swaps_blocked, trade_ok};
pub use crate::flow::group_choices;
pub use crate::plan::{Pay, Plan};
pub use crate::state::{MAX_SPLIT, splits};
pub use crate::ways::{enemy_zones, flee_route, flee_way, flee_ways};

/// Whether `who` may do only what a restrained or burning creature may (EIN-R28, EIN-R39).
fn hampered(s: &State, who: Cid, c: &Command, say: Say) -> Result<(), Reject> {
    let me = s.ch(who);
    if me.held_by.is_some() && !matches!(c, Command::BreakFree | Command::Shout | Command::End | Command::Release) {
        // EIN-R28, EIN-R31, EIN-H10: break free, shout, parry (a reaction), nothing else.
        return Err(no(say, codes::RESTRAINED, || {
            format!(
                "{} is restrained: it may only break free, shout, let go of one it holds or end its turn",
                me.name
            )
        }));
    }
    if me.fire.is_some()
        && !matches!(
            c,
            Command::Extinguish | Command::Flee(_) | Command::FleeTo(..) | Command::Shout | Command::End
        )
    {
        // EIN-R39.
        return Err(no(say, codes::BURNING, || {
            format!("{} is on fire: it may only put it out, flee or shout", me.name)
        }));
    }
    Ok(())
}

/// Whether the rules accept `c` now from `seat` (the engine has already checked the seat is a
/// decider), and its plan.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    check_in(s, seat, stage(s).as_ref(), c)
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, seat: Seat, st: Option<&Stage>, c: &Command) -> Result<Plan, Reject> {
    rules(s, seat, st, c, Say::Sentence)
}

/// [`check`] without the sentence: the same plan, or the refusal's code only (the code
/// [`check`] gives), nothing formatted.
pub fn check_code(s: &State, seat: Seat, c: &Command) -> Result<Plan, &'static str> {
    rules(s, seat, stage(s).as_ref(), c, Say::Code).map_err(|r| r.code)
}

/// The plan [`check`] gives a command it accepts under the stage `st` of `s` the caller has
/// already worked out, `None` for one it refuses (nothing formatted): what the legal list asks
/// of each candidate.
pub fn plan_in(s: &State, seat: Seat, st: &Stage, c: &Command) -> Option<Plan> {
    rules(s, seat, Some(st), c, Say::Code).ok()
}

/// The check itself, under the stage `st`, saying why it refuses as `say` asks.
fn rules(s: &State, seat: Seat, st: Option<&Stage>, c: &Command, say: Say) -> Result<Plan, Reject> {
    // GM rulings are no stage: they are accepted whatever the game waits for.
    if let Command::Gm(r) = c {
        return rulings::check(s, r).map(|()| Plan::Plain);
    }
    let Some(st) = st else {
        return Err(no(say, codes::NOT_NOW, || "nothing is asked now"));
    };
    match *st {
        Stage::Reaction { .. }
        | Stage::Swap { .. }
        | Stage::ExtraSuccesses { .. }
        | Stage::Chase { .. }
        | Stage::Hold { .. }
        | Stage::Harm { .. }
        | Stage::Card { .. }
        | Stage::Push { .. } => answer(s, st, c, say),
        Stage::CardSwaps => swaps::swap_stage(s, seat, c, say).map(|()| Plan::Plain),
        Stage::GroupTurn { choices } => flow::group_pick(s, seat, choices, c, say),
        Stage::Turn { who, n } => turn(s, who, n, c, say),
    }
}

/// An answer to a decision asked inside resolution (`st`, the one the frame on top of the
/// stack asks), read off that frame where it needs more than the stage holds.
fn answer(s: &State, st: &Stage, c: &Command, say: Say) -> Result<Plan, Reject> {
    match (*st, c) {
        (Stage::Reaction { .. }, _) => defence::check_reaction(s, c, say),
        (Stage::Swap { by, target }, Command::Swap(take, give)) => defence::check_swap(s, by, target, take, give, say),
        (Stage::Swap { .. }, Command::Pass) => Ok(Plan::Plain),
        (Stage::ExtraSuccesses { .. }, Command::Spend(sp)) => hit::check_spend(s, sp, say),
        (Stage::Chase { chaser, .. }, Command::Chase(_) | Command::Pass) => flee::check_chase(s, chaser, c, say),
        (Stage::Hold { holder, .. }, Command::Hold | Command::Pass) => restraint::check_hold(s, holder, c, say),
        (Stage::Harm { amount, .. }, Command::Split(parts)) => harm::check_split(amount, parts, say),
        (Stage::Push { .. }, Command::Push(_)) => Ok(Plan::Plain),
        (Stage::Card { drawn, .. }, Command::Keep(card)) => cards::check_keep(drawn, card, say),
        _ => Err(not_now(say)),
    }
}

/// A manoeuvre (or `release`, `end`) on the turn of `who`, on its `n`-th card.
fn turn(s: &State, who: Cid, n: u8, c: &Command, say: Say) -> Result<Plan, Reject> {
    hampered(s, who, c, say)?;
    match c {
        Command::Strike(x) => attack::check_strike(s, who, n, *x, say),
        Command::Punch(x) => attack::check_punch(s, who, n, *x, say),
        Command::Grapple(x) => attack::check_grapple(s, who, n, *x, say),
        Command::Shove(x, to) => attack::check_shove(s, who, n, *x, *to, say),
        Command::Shoot(x) => attack::check_shoot(s, who, n, *x, say),
        Command::Cast(sp, x) => attack::check_cast(s, who, n, *sp, *x, say),
        Command::Flee(a) => flee::check_flee(s, who, n, *a, None, say),
        Command::FleeTo(a, z) => flee::check_flee(s, who, n, *a, Some(*z), say),
        Command::Extinguish => hazards::check_extinguish(s, who, n, say),
        Command::Test(_) => roll::check_test(s, who, n, say),
        Command::Move(z) => movement::check_move(s, who, n, *z, say),
        Command::Clear(z) => movement::check_clear(s, who, n, *z, say),
        Command::Close(x) => movement::check_close(s, who, n, *x, say),
        Command::Withdraw => movement::check_withdraw(s, who, n, say),
        Command::Cover => movement::check_cover(s, who, n, say),
        Command::Draw(w) => items::check_draw(s, who, n, *w, say),
        Command::PickUp(w) => items::check_pick_up(s, who, n, *w, say),
        Command::Stand => quick::check_stand(s, who, n, say),
        Command::Shout => quick::check_shout(s, who, n, say),
        Command::Interact => quick::check_interact(s, who, n, say),
        Command::BreakFree => restraint::check_break_free(s, who, n, say),
        Command::Release => restraint::check_release(s, who, say),
        Command::End => Ok(Plan::Plain),
        _ => Err(not_now(say)),
    }
}

/// Every legal answer of `seat` to the pending decision, with its plan, in a fixed order.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<Einfelst>>) {
    if let Some(st) = stage(s) {
        legal_in(s, seat, &st, out);
    }
}

/// [`legal`] under the stage `st` of `s` the caller has already worked out: every candidate is
/// checked under it, in the code-only mode ([`plan_in`]).
pub fn legal_in(s: &State, seat: Seat, st: &Stage, out: &mut Vec<Answer<Einfelst>>) {
    listing(s, st, out, |c| plan_in(s, seat, st, c));
}

/// The legal list under `st`: the candidates for the decision, in their fixed order, each kept
/// with the plan `plan` gives it (`None`: refused).
pub(crate) fn listing(
    s: &State,
    st: &Stage,
    out: &mut Vec<Answer<Einfelst>>,
    mut plan: impl FnMut(&Command) -> Option<Plan>,
) {
    // Whether the candidate is kept.
    let mut keep = |c: Command| match plan(&c) {
        Some(p) => {
            out.push(Answer::new(c, p));
            true
        }
        None => false,
    };
    match *st {
        Stage::Reaction { .. } => defence::list_reactions(&mut keep),
        Stage::Swap { by, target } => defence::list_swaps(s, by, target, &mut keep),
        Stage::ExtraSuccesses { .. } => hit::list(s, &mut keep),
        Stage::Chase { .. } => flee::list_chase(&mut keep),
        Stage::Hold { .. } => restraint::list_hold(&mut keep),
        Stage::Harm { amount, .. } => harm::list(amount, &mut keep),
        Stage::Push { .. } => push::list(&mut keep),
        Stage::Card { drawn, .. } => cards::list_keep(drawn, &mut keep),
        Stage::CardSwaps => swaps::list(s, &mut keep),
        Stage::GroupTurn { .. } => flow::list_group(s, &mut keep),
        Stage::Turn { who, .. } => turn_list(s, who, &mut keep),
    }
}

/// The candidates of a turn, in their fixed order: attacks, flights, extinguishing, moves,
/// weapons, the quick manoeuvres, breaking free, tests, then `release` and `end`.
fn turn_list(s: &State, who: Cid, keep: &mut impl FnMut(Command) -> bool) {
    attack::list(s, who, keep);
    flee::list(s, who, keep);
    hazards::list(keep);
    movement::list(s, who, keep);
    items::list(s, who, keep);
    quick::list(keep);
    restraint::list_break_free(keep);
    roll::list_tests(keep);
    restraint::list_release(keep);
    keep(Command::End);
}
