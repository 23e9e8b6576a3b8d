//! What an attack is made with: the [`Profile`] of a weapon, a power or bare hands in a
//! character's hands (bare hands, MUR-R16; the other hand, MUR-R17; an eye injury halving the
//! range, the game's Conditions chapter), and [`weapons_of`], what a character can attack with.
//!
//! Apart from the attack itself because the reactions, the counter, the landing, the odds on
//! the prompt and the heuristic all read a profile without declaring anything.

use crate::actions::no;
use crate::codes;
use crate::data::{Ability, Keyword, Skill, UNARMED};
use crate::setup::Cid;
use crate::state::{State, With};
use fray_engine::Reject;

/// What an attack is made with, as the rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Damage die faces (0: none).
    pub die: u8,
    /// Range in zones (0: melee).
    pub range: u8,
    /// Indirect (MUR-R14).
    pub indirect: bool,
    /// Blast (MUR-R29).
    pub blast: bool,
    /// Ignores armour (direct or fire).
    pub direct: bool,
    /// Hurts only demons and undead.
    pub holy: bool,
    /// Stuns.
    pub stun: bool,
    /// Poisons.
    pub poison: bool,
    /// Grabs instead of damaging.
    pub grab: bool,
    /// Only against the unaware or the grabbed.
    pub ambush: bool,
    /// Needs both hands: cannot strike a grabbed character.
    pub two_handed: bool,
    /// Impaired (unarmed without brawling, MUR-R16; the other hand, MUR-R17).
    pub impaired: bool,
    /// A profane power.
    pub power: bool,
    /// Can be dodged (powers only if they say so, MUR-R60).
    pub dodgeable: bool,
    /// Spent when used (a thrown flask, MUR-H24).
    pub consumable: bool,
    /// Gunpowder (for cover penetration, MUR-H7).
    pub gunpowder: bool,
    /// A power's effect on a failed save.
    pub effect: crate::data::Effect,
    /// The ability that saves against the effect.
    pub save: Ability,
}

/// The range of a ranged attack or power in the hands of `c`: an eye injury halves it, rounding
/// up (the game's Conditions chapter).
fn reach(c: &crate::state::Char, range: u8) -> u8 {
    if c.injuries.eyes >= 1 && range > 0 {
        range.div_ceil(2)
    } else {
        range
    }
}

/// The profile of `with` in `who`'s hands.
pub fn profile(s: &State, who: Cid, with: With) -> Result<Profile, Reject> {
    let c = s.ch(who);
    let base = Profile {
        die: 4,
        range: 0,
        indirect: false,
        blast: false,
        direct: false,
        holy: false,
        stun: false,
        poison: false,
        grab: false,
        ambush: false,
        two_handed: false,
        impaired: false,
        power: false,
        dodgeable: true,
        consumable: false,
        gunpowder: false,
        effect: crate::data::Effect::None,
        save: Ability::Str,
    };
    match with {
        With::Unarmed => {
            // MUR-R16: bare hands deal d4 impaired; brawling makes it d6 and unimpaired.
            let brawler = c.stats.has(Skill::Brawling);
            Ok(Profile {
                die: if brawler { 6 } else { 4 },
                impaired: !brawler,
                ..base
            })
        }
        With::Power(i) => {
            let p = c
                .stats
                .powers
                .get(i as usize)
                .and_then(|id| s.setup.powers.get(id))
                .ok_or_else(|| no(codes::BAD_ITEM, format!("{} has no such power", c.name)))?;
            Ok(Profile {
                die: p.damage,
                range: reach(c, p.range),
                indirect: p.has(Keyword::Indirect),
                blast: p.has(Keyword::Blast),
                direct: p.has(Keyword::Direct) || p.has(Keyword::Fire),
                holy: p.has(Keyword::Holy),
                power: true,
                dodgeable: p.dodge,
                effect: p.effect,
                save: p.save,
                ..base
            })
        }
        With::Item(i) => {
            let it = c
                .item(i)
                .ok_or_else(|| no(codes::BAD_ITEM, format!("{} has no such item", c.name)))?;
            let d = s
                .setup
                .item(&it.id)
                .ok_or_else(|| no(codes::BAD_ITEM, format!("no item '{}'", it.id)))?;
            if !d.is_weapon() {
                return Err(no(codes::BAD_ITEM, format!("the {} is not a weapon", d.name)));
            }
            let consumable = d.has(Keyword::Consumable);
            let hand = c.hand_of(i);
            if hand.is_none() && !consumable {
                return Err(no(
                    codes::BAD_ITEM,
                    format!("{} does not hold the {} (equip it first)", c.name, d.name),
                ));
            }
            // MUR-R17: a one-handed weapon in the other hand is impaired, unless ambidextrous.
            let off = hand == Some(1) && !d.two_handed() && !c.stats.has(Skill::Ambidextrous);
            Ok(Profile {
                die: d.damage,
                range: reach(c, d.range),
                indirect: d.has(Keyword::Indirect),
                blast: d.has(Keyword::Blast),
                direct: d.has(Keyword::Direct) || d.has(Keyword::Fire),
                holy: d.has(Keyword::Holy),
                stun: d.has(Keyword::Stun),
                poison: d.has(Keyword::Poison),
                grab: d.has(Keyword::Grab),
                ambush: d.has(Keyword::Ambush),
                two_handed: d.two_handed(),
                impaired: off,
                consumable,
                gunpowder: d.has(Keyword::Gunpowder),
                ..base
            })
        }
    }
}

/// What `who` can attack with: bare hands, each item in hand, each consumable weapon carried,
/// each power.
pub fn weapons_of(s: &State, who: Cid) -> Vec<With> {
    let c = s.ch(who);
    let mut v = vec![With::Unarmed];
    for (i, it) in c.live_items() {
        let Some(d) = s.setup.item(&it.id) else { continue };
        if it.id == UNARMED || !d.is_weapon() {
            continue;
        }
        if c.hand_of(i).is_some() || d.has(Keyword::Consumable) {
            v.push(With::Item(i));
        }
    }
    v.extend((0..c.stats.powers.len() as u8).map(With::Power));
    v
}
