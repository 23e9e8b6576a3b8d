//! Tests (EIN-H1, EIN-H2, EIN-H24, EIN-R14, EIN-R24, EIN-H13, EIN-H20, EIN-H21): the dice a
//! test rolls, the successes it needs, the roll itself and the push it may offer, the
//! Director's raw pools, and the `test <action>` manoeuvre that is nothing but a test.
//!
//! Every action that rolls comes here, so a pool is worked out in one place for the roll, the
//! odds shown at the prompt and the AI alike. The push decision (EIN-H20) is only offered here
//! ([`pushable`], [`offer`]); its answer, which sends the new successes back to where the test
//! was going, is `actions::push`, above the actions that roll, so no action depends on another
//! to be pushed.

use crate::Einfelst;
use crate::command::Command;
use crate::data::{Action, Attr};
use crate::options::{AmbushBonusTarget, Attribute, HarmPenalty};
use crate::plan::{Plan, Say, paid};
use crate::setup::Cid;
use crate::state::{Event, Frame, PushFrame, PushSlot, State};
use crate::zones::MapExt;
use fray_dice::Faces;
use fray_engine::{Cx, EngineError, Reject};
use fray_space::ZoneId;

use super::manoeuvres::{slow, spend};

/// What kind of test, for the Harm exemptions (EIN-H2) and the attribute of two-attribute
/// Actions (EIN-H24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An attack.
    Attack,
    /// A defence.
    Defence,
    /// Fleeing.
    Flee,
    /// Chasing.
    Chase,
    /// Grappling.
    Grapple,
    /// Breaking free or holding on.
    BreakFree,
    /// Fear.
    Fear,
    /// Fire, poison, falls, hunger.
    Hazard,
    /// Anything else.
    Test,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Attack => "attack",
            Kind::Defence => "defence",
            Kind::Flee => "flee",
            Kind::Chase => "chase",
            Kind::Grapple => "grapple",
            Kind::BreakFree => "break-free",
            Kind::Fear => "fear",
            Kind::Hazard => "hazard",
            Kind::Test => "test",
        }
    }
}

/// The attribute a test of `action` uses (EIN-H24).
pub fn attribute(s: &State, who: Cid, action: Action, kind: Kind) -> Attr {
    let (a, b) = action.attrs();
    let Some(b) = b else { return a };
    let rule = match kind {
        Kind::Fear => s.options.fear_attribute,
        Kind::Hazard => s.options.hazard_attribute,
        _ => s.options.dual_attribute,
    };
    let pick = |x: Attribute| match x {
        Attribute::Strength => Some(Attr::Strength),
        Attribute::Dexterity => Some(Attr::Dexterity),
        Attribute::Intuition => Some(Attr::Intuition),
        Attribute::Reason => Some(Attr::Reason),
        Attribute::Presence => Some(Attr::Presence),
        Attribute::Higher => None,
    };
    match pick(rule) {
        // A fixed attribute that is one of the Action's two.
        Some(x) if x == a || x == b => x,
        _ => {
            let at = &s.stats(who).attrs;
            if at[b.index()] > at[a.index()] { b } else { a }
        }
    }
}

/// The dice a test of `action` rolls (the `[S]` Attribute + Action), with every bonus and Harm
/// penalty (EIN-H2, EIN-R24, EIN-H13), never below `min-pool`. The second value says whether
/// the ambush bonus is in it (EIN-H11).
pub fn pool(s: &State, who: Cid, action: Action, kind: Kind, help: u8) -> (u8, bool) {
    let c = s.ch(who);
    let st = s.stats(who);
    let attr = attribute(s, who, action, kind);
    let mut dice =
        i32::from(st.attrs[attr.index()]) + i32::from(st.action(action)) + i32::from(help) + i32::from(c.bonus);
    // EIN-H11: in the first round only; under `first-maneuver` only on a manoeuvre's test (a
    // Fear test or a hazard the Director calls is none).
    let ambush = c.ambush_bonus > 0
        && s.round == 1
        && (s.options.ambush_bonus_target == AmbushBonusTarget::FirstTest
            || !matches!(kind, Kind::Fear | Kind::Hazard));
    if ambush {
        dice += i32::from(c.ambush_bonus);
    }
    if !s.options.exempt(kind.word()) {
        dice -= i32::from(penalty(s, who, attr));
    }
    (
        dice.clamp(i32::from(s.options.min_pool), fray_dice::MAX_DICE as i32) as u8,
        ambush,
    )
}

/// The dice Harm costs on a test of attribute `attr` (EIN-H2, EIN-R24, EIN-H13).
pub fn penalty(s: &State, who: Cid, attr: Attr) -> u8 {
    let c = s.ch(who);
    let [pl, pm] = s.options.slot_penalty;
    let rows = |r: &[u8; 3]| r[0] * pl + r[1] * pm;
    let tracks = match s.options.harm_penalty {
        HarmPenalty::AllTests => rows(&c.harm.physical) + rows(&c.harm.mental),
        HarmPenalty::ByTrack if attr.physical() => rows(&c.harm.physical),
        HarmPenalty::ByTrack => rows(&c.harm.mental),
    };
    let points = if s.options.harm_points_persist {
        c.harm.points
    } else {
        c.harm.fresh
    };
    tracks.saturating_add(points)
}

/// The circumstance successes a test of `action` by `who` needs (EIN-R14, EIN-R49): every
/// circumstance in force in its zone or the other zone named, once each, unless it is immune.
pub fn circumstance_extra(s: &State, who: Cid, action: Action, other: Option<ZoneId>) -> u8 {
    let zones = [Some(s.ch(who).zone), other];
    let stats = s.stats(who);
    let mut total = 0u8;
    for (name, def) in &s.setup.circumstances {
        // EIN-R49: a creature immune to the circumstance skips it.
        if !def.actions.contains(&action) || stats.immune.contains(name) {
            continue;
        }
        let in_force = s
            .circumstances
            .iter()
            .any(|(n, z)| n == name && (z.is_none() || zones.contains(z)))
            || zones.iter().flatten().any(|z| s.setup.zones.has_tag(*z, name));
        if in_force {
            // EIN-R14: a hampering circumstance in force adds its extra successes.
            total = total.saturating_add(def.extra);
        }
    }
    total
}

/// The successes a creature's own test of `action` needs: 1, plus the circumstances in its zone
/// (EIN-R14).
pub(crate) fn test_need(s: &State, who: Cid, action: Action) -> u8 {
    1 + circumstance_extra(s, who, action, None)
}

/// Rolls `n` d6: the successes (EIN-H1) and every face, for the event.
pub(crate) fn successes(cx: &mut Cx<'_, Einfelst>, n: u8, why: &str) -> Result<(u8, Faces), EngineError> {
    if n == 0 {
        return Ok((0, Faces::new()));
    }
    let r = fray_dice::roll(cx.dice, n as usize, 6, fray_dice::Keep::All, &why)?;
    let o = &cx.s.options;
    Ok((r.faces.iter().filter(|&f| o.success(f)).count() as u8, r.faces))
}

/// A creature's test: rolls its pool, logs it, and uses up its one-shot bonuses.
pub fn test(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    help: u8,
) -> Result<u8, EngineError> {
    Ok(test_pool(cx, who, action, kind, need, why, help)?.1)
}

/// [`test`], with the pool it rolled.
fn test_pool(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    help: u8,
) -> Result<(u8, u8), EngineError> {
    let (n, ambush) = pool(&cx.s, who, action, kind, help);
    let text = format!("{}'s {} ({n} dice)", cx.s.ch(who).name, action.word());
    let (got, faces) = successes(cx, n, &text)?;
    cx.emit(Event::Tested {
        who: Some(who),
        why,
        action: Some(action),
        pool: n,
        successes: got,
        need,
        faces,
    });
    let c = cx.s.ch(who);
    if c.bonus > 0 || c.harm.fresh > 0 {
        cx.emit(Event::BonusUsed { who });
    }
    if ambush {
        cx.emit(Event::AmbushUsed { who });
    }
    Ok((n, got))
}

/// A manoeuvre's test that a player character may push (EIN-H20): the successes, and the push
/// decision to offer (with `push-rolls` on, when a die missed). The caller records the result
/// and then puts the decision on the stack with [`offer`].
pub(crate) fn pushable(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    slot: PushSlot,
) -> Result<(u8, Option<PushFrame>), EngineError> {
    let (pool, got) = test_pool(cx, who, action, kind, need, why, 0)?;
    let c = cx.s.ch(who);
    let offer = (cx.s.options.push_rolls && c.pc && !c.out() && got < pool).then_some(PushFrame {
        who,
        action,
        pool,
        got,
        need,
        slot,
    });
    Ok((got, offer))
}

/// Puts a push decision on the stack, if there is one.
pub(crate) fn offer(cx: &mut Cx<'_, Einfelst>, p: Option<PushFrame>) -> Result<(), EngineError> {
    match p {
        Some(p) => cx.push(Frame::Push(p)),
        None => Ok(()),
    }
}

/// The Director's raw pool (EIN-H21).
pub(crate) fn raw(cx: &mut Cx<'_, Einfelst>, n: u8, why: crate::state::Why, what: &str) -> Result<u8, EngineError> {
    let n = n.min(fray_dice::MAX_DICE as u8);
    let (got, faces) = successes(cx, n, &format!("{what} ({n} dice)"))?;
    cx.emit(Event::Tested {
        who: None,
        why,
        action: None,
        pool: n,
        successes: got,
        need: 0,
        faces,
    });
    Ok(got)
}

/// `test <action>`: a manoeuvre's test, paid with the slow manoeuvre.
pub(crate) fn check_test(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    // EIN-R17: any other slow manoeuvre on the list (survey, persuade, climb...) takes the slow one.
    slow(s, who, n, say).map(Plan::Pay)
}

/// Resolves `test <action>`: the test, which a player character may push.
pub(crate) fn resolve_test(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, true);
    let need = test_need(&cx.s, who, action);
    let why = crate::state::Why::Other;
    let (_, push) = pushable(cx, who, action, Kind::Test, need, why, PushSlot::Test)?;
    offer(cx, push)
}

/// The turn's `test <action>` candidates, one per Action.
pub(crate) fn list_tests(push: &mut impl FnMut(Command) -> bool) {
    for a in Action::ALL {
        push(Command::Test(a));
    }
}
