//! Exact odds of one attack (`fray odds murdham --attack N --defence N [--dodge N]`), also
//! shown next to each attack at the `fray play` prompt.

use fray_dice::Dist;
use serde::Serialize;

/// The odds of one attack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Odds {
    /// The attacker's attack bonus.
    pub attack: i16,
    /// The defence to reach, with any dodge.
    pub defence: i16,
    /// How many of the d20's 20 faces hit.
    pub hit_faces: u32,
    /// The chance of a hit.
    pub p_hit: f64,
    /// The damage to expect: P(hit) times the mean of a d6.
    pub expected_damage: f64,
}

/// The exact odds of d20 + `attack` ≥ `defence`, and the damage to expect (SKL-R6).
pub fn attack(attack: i16, defence: i16) -> Odds {
    let hit_faces = Dist::die(20).shift(attack.into()).count_ge(defence.into()) as u32;
    let p_hit = f64::from(hit_faces) / 20.0;
    let expected_damage = p_hit * Dist::die(6).mean();
    Odds {
        attack,
        defence,
        hit_faces,
        p_hit,
        expected_damage,
    }
}

/// Reads `--attack N --defence N [--dodge N]` (the dodge is added to the defence).
pub fn parse(args: &[String]) -> Result<(i16, i16), String> {
    let (mut attack, mut defence, mut dodge) = (None, None, 0i16);
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            return Err(format!("{} needs a value", pair[0]));
        };
        let n: i16 = value
            .parse()
            .ok()
            .filter(|n: &i16| n.abs() <= 999)
            .ok_or_else(|| format!("{flag} {value}: give a whole number within ±999"))?;
        match flag.as_str() {
            "--attack" => attack = Some(n),
            "--defence" => defence = Some(n),
            "--dodge" => dodge = n,
            _ => {
                return Err(format!(
                    "unknown flag {flag}: expected --attack N --defence N [--dodge N]"
                ));
            }
        }
    }
    match (attack, defence) {
        (Some(a), Some(d)) => Ok((a, d + dodge)),
        _ => Err("give --attack N and --defence N".into()),
    }
}

/// The odds as text.
pub fn text(o: &Odds) -> String {
    format!(
        "d20 + {} against defence {}: hit on {} of 20 faces ({:.1}%), expected damage {:.3}\n",
        o.attack,
        o.defence,
        o.hit_faces,
        100.0 * o.p_hit,
        o.expected_damage
    )
}
