//! Weapons in hand and how far they strike: a weapon thrown away, out of hand or held by an
//! injured arm cannot be used (HAL-R40, HAL-R17), and a melee weapon's reach is the threat
//! range (HAL-H10).
//!
//! Attacks, the Reposte, the Free action's draw and drop, a move's provoked Repostes and the AI
//! all ask these questions, so they sit apart from any one action.

use super::no;
use crate::codes;
use crate::data::{Hand, Weapon};
use crate::setup::Cid;
use crate::state::{Conditions, State};
use fray_engine::Reject;

/// Whether a weapon is in hand: not thrown away, its arm not injured (HAL-R40).
pub fn weapon_ready(s: &State, c: Cid, w: u8) -> Result<&Weapon, Reject> {
    weapon_usable(s, c, w, None)
}

/// [`weapon_ready`], counting the weapon `drawing` (a declared Free action's draw) as in hand.
pub(crate) fn weapon_usable(s: &State, c: Cid, w: u8, drawing: Option<u8>) -> Result<&Weapon, Reject> {
    let ch = s.ch(c);
    let Some(weapon) = s.stats(c).weapons.get(usize::from(w)) else {
        return Err(no(codes::NO_WEAPON, format!("{} has no weapon #{w}", ch.name)));
    };
    if ch.thrown & (1 << (w & 15)) != 0 {
        return Err(no(
            codes::NO_WEAPON,
            format!("{} has thrown its {} away", ch.name, weapon.name),
        ));
    }
    // HAL-R17: a weapon out of hand is drawn with a Free action first.
    if ch.away & (1 << (w & 15)) != 0 && drawing != Some(w) {
        return Err(no(
            codes::NO_WEAPON,
            format!(
                "{}'s {} is not in hand: it is drawn as a free action (declare {} free draw {})",
                ch.name, weapon.name, ch.id, weapon.name
            ),
        ));
    }
    let main = ch.has(Conditions::MAIN_ARM);
    let off = ch.has(Conditions::OFF_ARM);
    let hurt = match weapon.hand {
        Hand::Main => main,
        Hand::Off => off,
        Hand::Both => main || off,
        Hand::Natural => false,
    };
    if hurt {
        return Err(no(
            codes::NO_WEAPON,
            format!("{}'s injured arm cannot use its {}", ch.name, weapon.name),
        ));
    }
    Ok(weapon)
}

/// How far a weapon strikes, in squares: its threat range for a melee weapon (HAL-H10), its
/// range for a ranged or thrown one.
pub fn weapon_reach(s: &State, w: &Weapon, thrown: bool) -> u32 {
    let o = &s.options;
    if w.ranged() || thrown {
        o.squares(w.range)
    } else if w.long {
        o.squares(o.long_reach)
    } else {
        o.squares(o.melee_reach)
    }
}

/// A creature's threat range in squares (HAL-H10): the longest reach of its melee weapons in
/// hand, 0 without one.
pub fn threat_range(s: &State, c: Cid) -> u32 {
    let st = s.stats(c);
    (0..st.weapons.len() as u8)
        .filter_map(|w| weapon_ready(s, c, w).ok())
        .filter(|w| !w.ranged())
        .map(|w| weapon_reach(s, w, false))
        .max()
        .unwrap_or(0)
}
