//! Taking the declared action on its count (`act`): whether it can be taken now, aimed as
//! declared or at a new target (HAL-H16; a declaration binds, HAL-R10 fixes what an act of a
//! count can do when the count begins, HAL-R30 limits the Dying), whether its target is within
//! reach, and its resolution, which each action's own file rolls.

use super::cast::spell_cost;
use super::declare::action_ok;
use super::hurt::{dying_may_act, take_action};
use super::weapons::weapon_reach;
use super::{Cx1, attack, cast, counted, heal, morale, no};
use crate::command::Command;
use crate::plan::{Plan, SpellCost};
use crate::setup::Cid;
use crate::state::{Action, Cap, Free, State, Turn};
use crate::{HallowedEarth, codes};
use fray_engine::{Answer, EngineError, Reject};

/// The declared action of the turn under way, as it would be taken with `new_target`.
pub fn turn_action(s: &State, t: &Turn, new_target: Option<Cid>) -> Action {
    let a = s.acts[usize::from(t.act)].action;
    match new_target {
        Some(n) => a.with_target(n),
        None => a,
    }
}

/// Whether the turn's declared action can be taken now, aimed as declared or (HAL-H16's
/// option) at `new_target`, and its plan.
pub fn act_ok(s: &State, t: &Turn, new_target: Option<Cid>) -> Result<Plan, Reject> {
    let declared = s.acts[usize::from(t.act)].action;
    let me = s.ch(t.who);
    if s.acts[usize::from(t.act)].lone {
        return Err(no(
            codes::CANNOT_ACT,
            "this turn is for the Free action alone: free, step or end",
        ));
    }
    if t.acted {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} has taken its action this turn", me.name),
        ));
    }
    if matches!(declared, Action::FullDefense | Action::Move | Action::Flee) {
        return Err(no(
            codes::CANNOT_ACT,
            "the declared action has nothing to do now: move or end",
        ));
    }
    if matches!(declared, Action::Defensive { target: None, .. }) && new_target.is_none() {
        return Err(no(
            codes::CANNOT_ACT,
            "a defensive attack without a target has nothing to do: move or end",
        ));
    }
    // HAL-R30: the Dying take one action a round, and not both move and act.
    dying_may_act(s, t)?;
    if let Some(n) = new_target {
        let old = declared.target();
        let gone = old.is_some_and(|o| target_gone(s, o));
        if !s.options.retarget || !gone {
            return Err(no(
                codes::BAD_TARGET,
                "a declaration is binding: a new target only when the declared one is gone (option retarget)",
            ));
        }
        if Some(n) == old {
            return Err(no(codes::BAD_TARGET, "that is the declared target"));
        }
    }
    let action = turn_action(s, t, new_target);
    // HAL-H16: a declaration binds; with its target gone the action is lost.
    if let Some(target) = action.target()
        && new_target.is_none()
        && target_gone(s, target)
    {
        return Err(no(
            codes::BAD_TARGET,
            format!("{} is gone: the action is lost", s.ch(target).name),
        ));
    }
    // HAL-R10: an act that was possible when its count began still happens, whatever another
    // act of the same count did to its creature since.
    let fixed = new_target.is_none() && !s.caps.is_empty() && s.ready.contains(&t.act);
    if !fixed {
        action_ok(s, t.who, &action)?;
    } else if let Some(w) = action_weapon(&action)
        && me.away & (1 << (w & 15)) != 0
    {
        // HAL-R17: a weapon the declared Free action draws must be drawn before it is used
        // (and one dropped since the count began is out of hand).
        let name = s
            .stats(t.who)
            .weapons
            .get(usize::from(w))
            .map_or("weapon", |x| x.name.as_str());
        let draw = if s.acts[usize::from(t.act)].free == Some(Free::Draw { weapon: w }) && !t.freed {
            ": draw it first (free)"
        } else {
            ""
        };
        return Err(no(
            codes::NO_WEAPON,
            format!("{}'s {name} is not in hand{draw}", me.name),
        ));
    }
    if let Some(target) = action.target() {
        let reach = action_reach(s, t.who, &action).unwrap_or(0);
        let d = s.distance(t.who, target);
        if d > reach {
            return Err(no(
                codes::OUT_OF_REACH,
                format!(
                    "{} is {} away and the action reaches {}",
                    s.ch(target).name,
                    counted(d, "square", "squares"),
                    counted(reach, "square", "squares")
                ),
            ));
        }
    }
    let spell = match action {
        Action::Cast { spell, stress, .. } => Some(
            spell_cost(s, t.who, spell, stress)
                .ok_or_else(|| no(codes::BAD_TARGET, format!("{} has no spell #{spell}", me.name)))?,
        ),
        _ => None,
    };
    Ok(Plan::Act { action, spell })
}

/// How far (in squares) the action reaches, and whether it needs the target at all.
fn action_reach(s: &State, who: Cid, action: &Action) -> Option<u32> {
    let st = s.stats(who);
    match *action {
        Action::Attack { weapon, .. } | Action::Defensive { weapon, .. } => {
            st.weapons.get(usize::from(weapon)).map(|w| weapon_reach(s, w, false))
        }
        Action::Throw { weapon, .. } => st.weapons.get(usize::from(weapon)).map(|w| weapon_reach(s, w, true)),
        Action::Cast { spell, .. } => st.spells.get(usize::from(spell)).map(|sp| s.options.squares(sp.range)),
        Action::Use { .. } | Action::Heal { .. } => Some(s.options.squares(s.options.heal_reach)),
        Action::Intimidate { .. } => Some(u32::MAX),
        Action::FullDefense | Action::Move | Action::Flee => None,
    }
}

/// The weapon an action uses, if any.
fn action_weapon(a: &Action) -> Option<u8> {
    match *a {
        Action::Attack { weapon, .. }
        | Action::Defensive {
            target: Some(_),
            weapon,
        }
        | Action::Throw { weapon, .. } => Some(weapon),
        _ => None,
    }
}

/// A declared target that is gone (HAL-H16): dead, fled, surrendered or removed before this
/// count began (one killed on this very count is still there: HAL-R10).
pub fn target_gone(s: &State, t: Cid) -> bool {
    s.chars
        .get(usize::from(t))
        .is_none_or(|c| c.gone() && (s.caps.is_empty() || s.cap_now(t) == Cap::Out))
}

/// `act`: the declared action is taken (counted, and paid for by the hurt), then carried out.
pub(crate) fn act(cx: Cx1<'_, '_>, who: Cid, action: Action, spell: Option<SpellCost>) -> Result<(), EngineError> {
    take_action(cx, who, false)?;
    perform(cx, who, action, spell)
}

/// Carries out a declared action on the actor's turn; `spell`: a spell's cost as the check
/// found it paid. Each action's own file rolls it.
fn perform(cx: Cx1<'_, '_>, who: Cid, action: Action, spell: Option<SpellCost>) -> Result<(), EngineError> {
    match action {
        Action::Attack { target, weapon }
        | Action::Defensive {
            target: Some(target),
            weapon,
        } => attack::strike(cx, who, target, weapon, false, false),
        Action::Throw { weapon, target } => attack::throw(cx, who, weapon, target),
        Action::Cast { spell: n, target, .. } => cast::cast(cx, who, n, target, spell),
        Action::Use { item, target } => heal::use_item(cx, who, item, target),
        Action::Heal { target } => heal::heal(cx, who, target),
        Action::Intimidate { target } => morale::intimidate(cx, who, target),
        Action::Defensive { target: None, .. } | Action::FullDefense | Action::Move | Action::Flee => Ok(()),
    }
}

/// The `act` answers of a turn, in their fixed order: as declared, then (with `retarget`) at each
/// new target; `push` keeps those the check accepts.
pub(crate) fn list(
    s: &State,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: &impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    push(out, Command::Act(None));
    if s.options.retarget {
        for n in s.ids() {
            push(out, Command::Act(Some(n)));
        }
    }
}
