//! A counter, resolved (MUR-R21): both roll at once; who would suffer more is hit first; a
//! tie lands together (MUR-H10, or a d2 when both deal nothing, `tie-order`); a first hit
//! that takes its victim out stops the other; non-lethal attacks come last (MUR-R33); fast
//! strike goes first (MUR-R60). The counter's weapon is used (MUR-H25) and may break
//! (MUR-R49).
//!
//! Its check, with the other reactions', is [`crate::actions::reactions::counter_ok`]; it has
//! a file of its own because it is the one place two blows land in one step.

use crate::Murdham;
use crate::actions::attack::plan;
use crate::actions::bug;
use crate::actions::damage::{Kept, compute_hit, deal, hit_target};
use crate::actions::grapple::non_lethal;
use crate::actions::weapons::{Profile, profile};
use crate::actions::wear::breaks;
use crate::command::Aim;
use crate::data::{Ability, Keyword, Skill};
use crate::options::TieOrder;
use crate::roll::{Res, die, save};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Condition, Event, Mode, Why, With};
use fray_engine::{Cx, Reject};

/// A counter (MUR-R21): both roll at once; who would suffer more is hit first; a tie lands
/// together; a first hit that takes its victim out stops the other; non-lethal attacks come
/// last (MUR-R33); fast strike goes first (MUR-R60). Returns the attack's damage roll, if
/// one was made, for the rest of a blast. `p` is the [`profile`] of the attack's weapon in the
/// attacker's hands.
pub(crate) fn counter(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    with: With,
    mode: Mode,
    p: &Result<Profile, Reject>,
) -> Res<Option<Kept>> {
    let (by, t) = (a.by, a.target);
    // The counter's own to-hit save, when its circumstances need one.
    let cplan = plan(&cx.s, t, Aim::At(by), with, mode, false, true).ok();
    let counter_hits = match &cplan {
        Some(p) if p.save => save(cx, t, Ability::Wit, Why::Hit)?,
        Some(_) => true,
        None => !cx.s.options.counter_needs_reach,
    };
    if cx.s.ch(t).hindered {
        // MUR-H6: the GM's hinder asks a save of one attack, a counter included.
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Hindered(false),
        });
    }
    // MUR-H25: the weapon that counters is used (a reload weapon fires).
    let consumable = match with {
        With::Item(i) => {
            let d = cx.s.ch(t).item(i).and_then(|it| cx.s.setup.item(&it.id)).cloned();
            let reload = d.as_ref().is_some_and(|d| d.has(Keyword::Reload));
            let consumable = d.as_ref().is_some_and(|d| d.has(Keyword::Consumable));
            if !consumable {
                cx.emit(Event::Used {
                    who: t,
                    item: i,
                    spent: reload,
                });
            }
            consumable.then_some(i)
        }
        _ => None,
    };
    let back = Attack {
        by: t,
        with,
        mode,
        target: by,
        blast: None,
        queue: Vec::new(),
        sweep: false,
        focused: false,
        opportunity: false,
        counter: true,
        stunt: None,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Land,
        surprise: false,
        save: false,
        ranged: false,
        rolled: None,
        face: None,
    };
    let lethal = |m: Mode| matches!(m, Mode::Harm { .. } | Mode::FinalBlow);
    let pa = *p.as_ref().map_err(|r| bug(r.reason.clone()))?;
    // The counter's weapon: as its plan found it, when it has one (the saves and the uses since
    // change nothing of it).
    let pb = match &cplan {
        Some(cp) => cp.profile,
        None => profile(&cx.s, t, with).map_err(|r| bug(r.reason))?,
    };
    // MUR-R21: both damage rolls happen at the same moment.
    let ha = if lethal(a.mode) && a.mode != Mode::FinalBlow {
        Some(compute_hit(cx, a, by, t, pa, a.mode, true)?)
    } else {
        None
    };
    let hb = if counter_hits && lethal(mode) {
        Some(compute_hit(cx, &back, t, by, pb, mode, true)?)
    } else {
        None
    };
    if cx.s.ch(t).penetrating {
        // MUR-H7: the GM's ruling lets one attack through cover, a counter included.
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Penetrating(false),
        });
    }
    // Order: 0 = the attack first, 1 = the counter first, 2 = together.
    let fast = |c: Cid| cx.s.ch(c).stats.has(Skill::FastStrike);
    // MUR-R33: a non-lethal blow (disarm, grapple) against a lethal one is resolved last.
    let order = if !lethal(a.mode) && lethal(mode) {
        1
    } else if lethal(a.mode) && !lethal(mode) {
        0
    } else if fast(by) != fast(t) {
        if fast(by) { 0 } else { 1 }
    } else {
        let da = ha.as_ref().map_or(0, |h| h.amount);
        let db = hb.as_ref().map_or(0, |h| h.amount);
        // MUR-R21: the side that would suffer more (after reductions) is hit first; a tie
        // lands both together.
        match da.cmp(&db) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal if da == 0 && cx.s.options.tie_order == TieOrder::RandomWhenZero => {
                (die(cx, 2, by, "which zero hit lands first (d2)")? - 1) as u8
            }
            std::cmp::Ordering::Equal => 2,
        }
    };
    let stops = cx.s.options.first_hit_stops;
    let land_attack = |cx: &mut Cx<'_, Murdham>| -> Res<()> {
        match (&ha, a.mode) {
            (Some(h), _) => deal(cx, a, t, h, &pa),
            (None, Mode::FinalBlow) => {
                hit_target(cx, a, t, true, &Ok(pa))?;
                Ok(())
            }
            (None, m) => non_lethal(cx, by, t, m),
        }
    };
    let land_counter = |cx: &mut Cx<'_, Murdham>| -> Res<()> {
        if !counter_hits {
            return Ok(());
        }
        match &hb {
            Some(h) => deal(cx, &back, by, h, &pb),
            None => non_lethal(cx, t, by, mode),
        }
    };
    // MUR-R21 [A]: with `first-hit-stops`, a first hit that takes its victim out stops the
    // victim's own blow.
    match order {
        0 => {
            land_attack(cx)?;
            if !stops || cx.s.ch(t).up() {
                land_counter(cx)?;
            } else if counter_hits {
                cx.emit(Event::BlowStopped { who: t });
            }
        }
        1 => {
            land_counter(cx)?;
            if !stops || cx.s.ch(by).up() {
                land_attack(cx)?;
            } else {
                cx.emit(Event::BlowStopped { who: by });
            }
        }
        _ => {
            land_attack(cx)?;
            land_counter(cx)?;
        }
    }
    if let Some(i) = consumable {
        cx.emit(Event::Used {
            who: t,
            item: i,
            spent: true,
        });
    } else if counter_hits {
        breaks(cx, t, with, hb.as_ref().and_then(|h| h.face));
    }
    Ok(ha.as_ref().map(Kept::of))
}
