//! Exact odds of one weapon attack: the hit and the critical hit (HAL-R35, HAL-H3), the damage
//! to Stress and to Wound Points after Armour (HAL-R25, HAL-R36, HAL-R37, HAL-H4) and the
//! chance of a combat injury (HAL-R38, HAL-H5). `fray odds hallowed-earth ...` prints them, and
//! `fray play` shows them beside each attack.

use crate::data::{Dice, Weapon};
use crate::options::{CritArmourOrder, InjuryChance, Options};
use crate::setup::Cid;
use crate::state::{Conditions, State};
use fray_dice::Dist;
use serde::Serialize;

/// What one attack is made of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attack {
    /// Everything added to the die (attack bonus, ability modifier, situation).
    pub bonus: i16,
    /// The target's Defense.
    pub defense: i16,
    /// The weapon's damage.
    pub damage: Dice,
    /// The lowest natural roll that crits.
    pub crit_from: u16,
    /// The critical multiplier.
    pub mult: u8,
    /// The target's Armour.
    pub armour: i16,
    /// The target's Stress now.
    pub stress: i16,
}

/// The odds of one attack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Odds {
    /// The attack.
    pub attack: Attack,
    /// Faces of the die that hit (critical hits included).
    pub hit_faces: u32,
    /// Faces that are critical hits.
    pub crit_faces: u32,
    /// Faces of the die.
    pub faces: u32,
    /// The chance of a hit, critical hits included.
    pub p_hit: f64,
    /// The chance of a critical hit.
    pub p_crit: f64,
    /// Stress to expect the target to lose.
    pub expected_stress: f64,
    /// Wound Points to expect the target to lose.
    pub expected_wp: f64,
    /// The chance that the target loses any Wound Points.
    pub p_wp: f64,
    /// The chance of a combat injury.
    pub p_injury: f64,
}

/// Damage `v` after Armour (HAL-R36): the whole Armour score off, down to the `armour-floor`
/// option (never more than the damage itself), never below 0.
pub fn after_armour(v: i64, armour: i64, floor: i64) -> i64 {
    (v - armour).max(floor.min(v.max(0))).max(0)
}

/// Which natural faces hit and which crit, under the options (HAL-H3).
fn classify(a: &Attack, o: &Options, face: u16) -> (bool, bool) {
    let top = o.check_die;
    let total = i32::from(face) + i32::from(a.bonus);
    let mut hit = total >= i32::from(a.defense);
    if face == top && o.natural_top_hits {
        hit = true;
    }
    let one_misses = face == 1 && o.natural_1_misses;
    if one_misses {
        hit = false;
    }
    let crit = face >= a.crit_from && (hit || !o.crit_needs_hit) && !one_misses;
    (hit || crit, crit)
}

/// The exact odds of `a` under the options `o`.
pub fn attack(a: &Attack, o: &Options) -> Result<Odds, String> {
    let faces = u32::from(o.check_die);
    let (mut hit_faces, mut crit_faces) = (0u32, 0u32);
    for face in 1..=o.check_die {
        let (hit, crit) = classify(a, o, face);
        hit_faces += u32::from(hit && !crit);
        crit_faces += u32::from(crit);
    }
    let dist = Dist::sum_of(u16::from(a.damage.n), a.damage.sides)
        .map_err(|e| e.to_string())?
        .shift(i64::from(a.damage.plus));
    let total = dist.total() as f64;
    let (mut hit_stress, mut hit_wp, mut hit_any_wp) = (0.0, 0.0, 0.0);
    let (mut crit_wp, mut crit_any_wp, mut crit_injury) = (0.0, 0.0, 0.0);
    let m = i64::from(a.mult);
    let armour = i64::from(a.armour);
    for (v, n) in dist.iter() {
        let p = n as f64 / total;
        let d = v.max(0);
        let floor = i64::from(o.armour_floor);
        let dmg = after_armour(d, armour, floor);
        let stress = dmg.min(i64::from(a.stress.max(0)));
        // HAL-R25: what Stress does not take goes on to Wound Points, unless the option stops
        // a hit at the Stress it empties.
        let wp = if a.stress > 0 && !o.stress_overflow {
            0
        } else {
            dmg - stress
        };
        hit_stress += p * stress as f64;
        hit_wp += p * wp as f64;
        if wp > 0 {
            hit_any_wp += p;
        }
        let wp = match o.crit_armour_order {
            CritArmourOrder::MultiplyThenReduce => after_armour(d * m, armour, floor),
            CritArmourOrder::ReduceThenMultiply => after_armour(d, armour, floor) * m,
        };
        crit_wp += p * wp as f64;
        if wp > 0 {
            crit_any_wp += p;
        }
        let chance = match o.injury_chance {
            InjuryChance::WoundDamage => wp,
            InjuryChance::RolledDamage => d * m,
        };
        crit_injury += p * chance.clamp(0, 100) as f64 / 100.0;
    }
    let (ph, pc) = (
        f64::from(hit_faces) / f64::from(faces),
        f64::from(crit_faces) / f64::from(faces),
    );
    Ok(Odds {
        attack: a.clone(),
        hit_faces: hit_faces + crit_faces,
        crit_faces,
        faces,
        p_hit: ph + pc,
        p_crit: pc,
        expected_stress: ph * hit_stress,
        expected_wp: ph * hit_wp + pc * crit_wp,
        p_wp: ph * hit_any_wp + pc * crit_any_wp,
        p_injury: pc * crit_injury,
    })
}

/// Everything added to the attack die of `by`'s weapon `w` against `target` now: the attack
/// bonus, the weapon's ability modifier (HAL-H1), and the situation (HAL-H6: concussed or
/// blinded attacker, prone or paralysed target).
pub fn attack_bonus(s: &State, by: Cid, target: Cid, w: &Weapon, thrown: bool) -> i16 {
    let o = &s.options;
    let (me, foe) = (s.ch(by), s.ch(target));
    let mut bonus = s.stats(by).attack + s.modifier(by, w.attack_ability());
    if me.has(Conditions::CONCUSSED) {
        bonus -= o.concussed_penalty;
    }
    if me.has(Conditions::BLINDED) {
        bonus -= o.blinded_attack_penalty;
    }
    if foe.has(Conditions::PRONE) {
        bonus += if w.ranged() || thrown {
            -o.prone_ranged_penalty
        } else {
            o.prone_melee_bonus
        };
    }
    if foe.has(Conditions::PARALYZED) {
        bonus += o.paralyzed_attack_bonus;
    }
    bonus
}

/// The attack `by` would make now with weapon `w` on `target`.
pub fn of(s: &State, by: Cid, target: Cid, w: &Weapon, thrown: bool) -> Attack {
    Attack {
        bonus: attack_bonus(s, by, target, w, thrown),
        defense: s.defense(target),
        damage: w.damage,
        crit_from: w.crit_range.unwrap_or(s.options.check_die),
        mult: w.crit,
        armour: s.stats(target).armour,
        stress: s.ch(target).stress,
    }
}

/// Reads `--attack N --defense N --damage NdS+K [--armour N] [--crit 2|3|4] [--crit-range N]
/// [--stress N]` (Stress 999, enough for any plain hit, when left out), with the table's
/// options from `--option name=value` pairs.
pub fn parse(args: &[String]) -> Result<(Attack, Options), String> {
    let usage = "expected --attack N --defense N --damage NdS+K [--armour N] [--crit 2|3|4] [--crit-range N] [--stress N] [--option name=value]";
    let mut a = Attack {
        bonus: 0,
        defense: 0,
        damage: Dice {
            n: 1,
            sides: 6,
            plus: 0,
        },
        crit_from: 0,
        mult: 2,
        armour: 0,
        // Without --stress, the target has Stress enough for any plain hit.
        stress: 999,
    };
    let mut options = toml::Table::new();
    let (mut got_attack, mut got_defense, mut got_damage) = (false, false, false);
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{} needs a value; {usage}", pair[0]));
        };
        let n = || -> Result<i16, String> {
            value
                .parse()
                .ok()
                .filter(|n: &i16| n.abs() <= 999)
                .ok_or_else(|| format!("{flag} {value}: give a whole number within ±999"))
        };
        match flag.as_str() {
            "--attack" => (a.bonus, got_attack) = (n()?, true),
            "--defense" | "--defence" => (a.defense, got_defense) = (n()?, true),
            "--damage" => (a.damage, got_damage) = (value.parse()?, true),
            "--armour" | "--armor" => a.armour = n()?.max(0),
            "--stress" => a.stress = n()?.max(0),
            "--crit" => match n()? {
                m @ 2..=4 => a.mult = m as u8,
                m => return Err(format!("--crit {m}: the multiplier is 2, 3 or 4")),
            },
            "--crit-range" => a.crit_from = n()?.clamp(1, 100) as u16,
            "--option" => {
                let Some((k, v)) = value.split_once('=') else {
                    return Err(format!("--option {value}: give name=value"));
                };
                let parsed: toml::Value = toml::from_str::<toml::Table>(&format!("v = {v}"))
                    .ok()
                    .and_then(|t| t.get("v").cloned())
                    .unwrap_or_else(|| toml::Value::String(v.to_string()));
                options.insert(k.to_string(), parsed);
            }
            _ => return Err(format!("unknown flag {flag}: {usage}")),
        }
    }
    if !(got_attack && got_defense && got_damage) {
        return Err(format!("give --attack, --defense and --damage; {usage}"));
    }
    let o: Options = toml::Value::Table(options)
        .try_into()
        .map_err(|e: toml::de::Error| format!("--option: {}", e.message()))?;
    o.validate()?;
    if a.crit_from == 0 {
        a.crit_from = o.check_die;
    }
    Ok((a, o))
}

/// The odds as text.
pub fn text(o: &Odds) -> String {
    let a = &o.attack;
    format!(
        "d{} + {} against Defense {}: hit on {} of {} faces ({:.1}%), critical on {} ({:.1}%)\n\
         damage {} against Armour {} and {} Stress: expected {:.3} Stress and {:.3} Wound Points\n\
         chance of losing Wound Points {:.1}%, of a combat injury {:.2}%\n",
        o.faces,
        a.bonus,
        a.defense,
        o.hit_faces,
        o.faces,
        100.0 * o.p_hit,
        o.crit_faces,
        100.0 * o.p_crit,
        a.damage,
        a.armour,
        a.stress,
        o.expected_stress,
        o.expected_wp,
        100.0 * o.p_wp,
        100.0 * o.p_injury,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sword() -> Attack {
        Attack {
            bonus: 3,
            defense: 14,
            damage: "1d8".parse().unwrap(),
            crit_from: 20,
            mult: 2,
            armour: 0,
            stress: 100,
        }
    }

    #[test]
    fn hal_r35_hal_h3_a_hit_meets_defense_twenty_always_hits_one_always_misses() {
        let o = Options::default();
        // d20 + 3 ≥ 14 on 11..=20: 10 faces; the 20 is the one critical.
        let odds = attack(&sword(), &o).unwrap();
        assert_eq!((odds.hit_faces, odds.crit_faces), (10, 1));
        let hard = Attack { defense: 40, ..sword() };
        let odds = attack(&hard, &o).unwrap();
        assert_eq!((odds.hit_faces, odds.crit_faces), (1, 1), "only the natural 20");
        let easy = Attack { defense: -5, ..sword() };
        assert_eq!(attack(&easy, &o).unwrap().hit_faces, 19, "the natural 1 misses");
    }

    #[test]
    fn hal_r25_hal_r37_normal_hits_go_to_stress_criticals_to_wound_points() {
        let o = Options::default();
        let odds = attack(&sword(), &o).unwrap();
        // 9 plain hits of mean 4.5 to Stress; the crit doubles: mean 9 to Wound Points.
        assert!((odds.expected_stress - 9.0 / 20.0 * 4.5).abs() < 1e-12);
        assert!((odds.expected_wp - 9.0 / 20.0).abs() < 1e-12);
        // HAL-R38: injury when d100 ≤ the Wound Point damage: mean 9 of 100.
        assert!((odds.p_injury - 0.05 * 0.09).abs() < 1e-12);
    }

    #[test]
    fn hal_r25_the_odds_follow_stress_overflow() {
        // 1d8 against 3 Stress: plain hits overflow by 1..=5 (mean 15/8), or not at all.
        let a = Attack {
            stress: 3,
            defense: 40,
            crit_from: 21,
            ..sword()
        };
        let a = Attack { defense: 4, ..a };
        let on = attack(&a, &Options::default()).unwrap();
        let off = Options {
            stress_overflow: false,
            ..Options::default()
        };
        let off = attack(&a, &off).unwrap();
        assert!((on.expected_wp - on.p_hit * 15.0 / 8.0).abs() < 1e-12, "{on:?}");
        assert_eq!(off.expected_wp, 0.0);
    }

    #[test]
    fn hal_h4_armour_order_changes_critical_damage() {
        let a = Attack {
            damage: "6".parse().unwrap(),
            armour: 2,
            mult: 3,
            defense: 40,
            ..sword()
        };
        let multiply_first = attack(&a, &Options::default()).unwrap();
        assert!((multiply_first.expected_wp - 0.05 * 16.0).abs() < 1e-12);
        let o = Options {
            crit_armour_order: CritArmourOrder::ReduceThenMultiply,
            ..Options::default()
        };
        assert!((attack(&a, &o).unwrap().expected_wp - 0.05 * 12.0).abs() < 1e-12);
    }

    #[test]
    fn arguments_are_read_and_bad_ones_refused() {
        let args: Vec<String> =
            "--attack 3 --defense 14 --damage 1d8+1 --armour 1 --crit 3 --option natural-1-misses=false"
                .split(' ')
                .map(String::from)
                .collect();
        let (a, o) = parse(&args).unwrap();
        assert_eq!((a.bonus, a.defense, a.mult, a.armour, a.crit_from), (3, 14, 3, 1, 20));
        assert!(!o.natural_1_misses);
        assert!(parse(&["--attack".into(), "3".into()]).is_err());
        assert!(parse(&["--crit".into(), "5".into()]).is_err());
    }
}
