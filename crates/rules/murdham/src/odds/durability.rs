//! Durability rolls: 1 in 4 (1 in 8 for robust items) damages an item, a second failure destroys it
//! ([`durability`], MUR-R48, MUR-H16).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// The odds of the durability roll after a fight (MUR-R48, MUR-H16).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DurabilityOdds {
    /// A robust item (1:8 rather than 1:4).
    pub robust: bool,
    /// The chance that one roll fails.
    pub fails: Chance,
    /// An undamaged item becomes damaged after the fight.
    pub damaged: Chance,
    /// A damaged (or fragile) item is destroyed after the fight.
    pub destroyed_if_damaged: Chance,
    /// Fights an undamaged item lasts on average, the one that destroys it included.
    pub fights_new: u32,
    /// Fights a damaged item lasts on average, the one that destroys it included.
    pub fights_damaged: u32,
}

/// The odds of a durability roll, for a `robust` item or not.
pub fn durability(robust: bool) -> DurabilityOdds {
    let sides = if robust { 8 } else { 4 };
    let fails = Chance::of(1, sides);
    DurabilityOdds {
        robust,
        damaged: fails.clone(),
        destroyed_if_damaged: fails.clone(),
        fails,
        // A failure is 1 in `sides`: on average `sides` rolls each, two failures from new.
        fights_new: 2 * sides as u32,
        fights_damaged: sides as u32,
    }
}

/// [`DurabilityOdds`] as text.
pub fn durability_text(o: &DurabilityOdds) -> String {
    let (kind, ratio) = if o.robust {
        ("a robust item", "1:8")
    } else {
        ("an item", "1:4")
    };
    format!(
        "durability of {kind}: the roll fails on {ratio} ({})\n\
         undamaged: becomes damaged {}; damaged or fragile: destroyed {}\n\
         fights lasted on average: {} from new, {} once damaged\n",
        o.fails.percent(),
        o.damaged.percent(),
        o.destroyed_if_damaged.percent(),
        o.fights_new,
        o.fights_damaged
    )
}
