//! The ambush before round 1 (EIN-R8 to EIN-R10, EIN-H11, EIN-H25): one Sneak roll for the
//! ambushers against the targets' best Track or Read, which decides the side that draws the
//! extra card and the bonus dice of the first round.
//!
//! It runs once, as the first step of the set-up (`flow`), before any card is dealt; the bonus
//! it grants is spent by the tests themselves (`actions::roll`).

use crate::Einfelst;
use crate::data::Action;
use crate::setup::{AmbushTest, Cid};
use crate::state::Event;
use fray_engine::{Cx, EngineError};

use super::roll::{Kind, pool, test};

/// The ambush (EIN-R8 to EIN-R10, EIN-H25).
pub(crate) fn ambush(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let Some(a) = s.setup.ambush.clone() else { return Ok(()) };
    let ambushers: Vec<Cid> = s.ids().filter(|&c| s.ch(c).side == a.side && !s.ch(c).out()).collect();
    let targets: Vec<Cid> = s.ids().filter(|&c| s.ch(c).side != a.side && !s.ch(c).out()).collect();
    let n = ambushers.len() as u8;
    let spot = match a.test {
        AmbushTest::None => {
            // EIN-R10: granted, no test and so no bonus.
            cx.emit(Event::Ambushed {
                extra_card_side: Some(a.side),
                ambushers: n,
                bonus: 0,
            });
            return Ok(());
        }
        AmbushTest::Track => Action::Track,
        AmbushTest::Read => Action::Read,
    };
    // EIN-R9: one roll for all; the named roller, else the largest Sneak pool. EIN-H25: the
    // target with the largest Track or Read pool rolls for the targets.
    let best = |list: &[Cid], action: Action| {
        list.iter()
            .copied()
            .max_by_key(|&c| (pool(s, c, action, Kind::Test, 0).0, std::cmp::Reverse(c)))
    };
    let roller = a.roller.or_else(|| best(&ambushers, Action::Sneak));
    let spotter = best(&targets, spot);
    let (Some(roller), Some(spotter)) = (roller, spotter) else {
        cx.emit(Event::Ambushed {
            extra_card_side: None,
            ambushers: n,
            bonus: 0,
        });
        return Ok(());
    };
    let sneak = test(cx, roller, Action::Sneak, Kind::Test, 1, crate::state::Why::Ambush, 0)?;
    let seen = test(cx, spotter, spot, Kind::Test, 0, crate::state::Why::Spot, 0)?;
    // EIN-R8: the target's successes cancel the Sneak's; at least 1 must be left (or, with
    // `ambush-ties = "succeed"`, a tie is enough).
    let left = sneak.saturating_sub(seen);
    let other = cx.s.ch(spotter).side;
    let tie_wins = cx.s.options.ambush_ties == crate::options::Ties::Succeed && sneak == seen && sneak > 0;
    cx.emit(if left >= 1 || tie_wins {
        Event::Ambushed {
            extra_card_side: Some(a.side),
            ambushers: n,
            bonus: left.saturating_sub(1),
        }
    } else {
        Event::Ambushed {
            extra_card_side: Some(other),
            ambushers: n,
            bonus: 0,
        }
    });
    Ok(())
}
