//! Thrum's dice: 2d6 with Boons and Banes (the core mechanic), rolled from the resolution
//! context's dice, and the exact distribution of that roll for the odds and the AI.
//!
//! A module of its own because the resolution of every topic rolls (actions, the turn flow,
//! Initiative) and the odds read the distribution, while none of them is the other's home.

use crate::event::Rolled;
use crate::state::Cx;
use fray_dice::{Dist, Keep, MAX_DICE};
use fray_engine::EngineError;
use std::fmt;

/// Rolls 2d6 with `net` Boons (negative: Banes) and adds `modifier` (THR core mechanic).
pub fn roll2d6(cx: &mut Cx, net: i16, modifier: i16, why: &dyn fmt::Display) -> Result<Rolled, EngineError> {
    let extra = (net.unsigned_abs() as usize).min(MAX_DICE - 2);
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    let roll = fray_dice::roll(cx.dice, 2 + extra, 6, keep, why)?;
    Ok(Rolled {
        roll,
        modifier,
        net,
        total: roll.total as i16 + modifier,
    })
}

/// The exact distribution of a 2d6 roll with `net` Boons or Banes (kept dice only).
pub fn dist2d6(net: i16) -> Dist {
    let extra = net.unsigned_abs().min((MAX_DICE - 2) as u16);
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    Dist::of_keep(2 + extra, 6, keep).unwrap_or_else(|_| Dist::constant(7))
}
