//! Thrum's dice: 2d6 with Boons and Banes (the core mechanic), rolled from the resolution
//! context's dice, and the exact distribution of that roll for the odds and the AI.
//!
//! A module of its own because the resolution of every topic rolls (actions, the turn flow,
//! Initiative) and the odds read the distribution, while none of them is the other's home.
//!
//! The roll is the core mechanic the rules file states before its numbered rules; only its
//! worked example, THR-R111, is cited here.

use crate::event::Rolled;
use crate::state::Cx;
use fray_dice::{Dist, Keep, MAX_DICE};
use fray_engine::EngineError;
use std::fmt;

/// Rolls 2d6 with `net` Boons (negative: Banes) and adds `modifier` (THR core mechanic).
pub fn roll2d6(cx: &mut Cx, net: i16, modifier: i16, why: &dyn fmt::Display) -> Result<Rolled, EngineError> {
    let (count, keep) = kept(net);
    let roll = fray_dice::roll(cx.dice, count, 6, keep, why)?;
    Ok(Rolled {
        roll,
        modifier,
        net,
        total: roll.total as i16 + modifier,
    })
}

/// The exact distribution of a 2d6 roll with `net` Boons or Banes (kept dice only).
pub fn dist2d6(net: i16) -> Dist {
    let (count, keep) = kept(net);
    // `count` is at most `MAX_DICE`, far below `u16::MAX`.
    Dist::of_keep(count as u16, 6, keep).unwrap_or_else(|_| Dist::constant(7))
}

/// How many dice a 2d6 roll with `net` Boons (negative: Banes) throws, and which two it keeps:
/// one extra die per Boon or Bane, up to the dice library's limit, keeping the highest two with
/// Boons and the lowest two with Banes. The roll and its distribution both ask it, so they
/// cannot disagree.
fn kept(net: i16) -> (usize, Keep) {
    // THR-R111: 1 net Boon throws 3d6 and keeps the best two (3, 4, 6 make 10); 1 net Bane
    // keeps the worst two (3 + 4 = 7).
    let extra = (net.unsigned_abs() as usize).min(MAX_DICE - 2);
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    (2 + extra, keep)
}
