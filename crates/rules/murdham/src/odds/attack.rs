//! Attacks: a to-hit save and a dodge before the damage ([`attack`]), and the short note the play
//! prompt shows beside each attack ([`attack_note`]).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// One attack to work out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AttackSpec {
    /// The damage and the target's armour.
    pub damage: DamageSpec,
    /// The attacker's WIT, if a save to hit is needed (MUR-R13).
    pub hit: Option<i32>,
    /// The target's AGI, if it dodges (MUR-R20).
    pub dodge: Option<i32>,
    /// The target's health, for the consequences.
    pub target: Option<Target>,
}

/// The odds of one attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackOdds {
    /// What was worked out.
    pub spec: AttackSpec,
    /// The chance that the save to hit passes, if one is needed.
    pub to_hit: Option<Chance>,
    /// The chance that the dodge passes, if the target dodges.
    pub dodged: Option<Chance>,
    /// The chance that the attack hits: to hit passed and dodge failed.
    pub hit: Chance,
    /// The damage given a hit, and its consequences given a hit.
    pub on_hit: DamageOdds,
    /// The damage per attack (a miss deals 0).
    pub per_attack: TailDist,
    /// The consequences per attack, if the target's health is given.
    pub consequences: Option<Consequences>,
}

/// The odds of the attack `spec`.
///
/// Errors: a score outside [`MIN_SCORE`]..=[`MAX_SCORE`], and those of [`damage`].
pub fn attack(spec: &AttackSpec) -> Result<AttackOdds, String> {
    let to_hit = spec
        .hit
        .map(|s| save(s, None).map(|o| o.pass).map_err(|e| format!("hit: {e}")))
        .transpose()?;
    let dodged = spec
        .dodge
        .map(|s| save(s, None).map(|o| o.pass).map_err(|e| format!("dodge: {e}")))
        .transpose()?;
    let d20 = u64::from(D20);
    let mut hits = 1u64;
    let mut outcomes = 1u64;
    if let Some(s) = spec.hit {
        hits *= u64::from(passing_faces(s));
        outcomes *= d20;
    }
    if let Some(s) = spec.dodge {
        hits *= d20 - u64::from(passing_faces(s));
        outcomes *= d20;
    }
    let on_hit = damage(&spec.damage, spec.target)?;
    let per_attack = on_hit.dealt.with_hit_chance(hits, outcomes);
    let consequences = spec
        .target
        .map(|t| consequences(&per_attack, t, spec.damage.direct))
        .transpose()?;
    Ok(AttackOdds {
        spec: *spec,
        to_hit,
        dodged,
        hit: Chance::of(hits, outcomes),
        on_hit,
        per_attack,
        consequences,
    })
}

/// [`AttackOdds`] as text.
pub fn attack_text(o: &AttackOdds) -> String {
    let mut s = format!("attack: {}\n", spec_text(&o.spec.damage));
    let hit_save = match (o.spec.hit, &o.to_hit) {
        (Some(w), Some(c)) => format!("save to hit against WIT {w} {}", c.percent()),
        _ => "no save to hit".to_string(),
    };
    let dodge = match (o.spec.dodge, &o.dodged) {
        (Some(a), Some(c)) => format!("dodge against AGI {a} {}", c.percent()),
        _ => "no dodge".to_string(),
    };
    let _ = writeln!(s, "{hit_save}; {dodge}; hit {}", o.hit.percent());
    let _ = writeln!(s, "damage per attack: {} on average", o.per_attack.mean_text());
    if let Some(c) = &o.consequences {
        s.push_str(&consequences_line("per attack, against the target", c));
    }
    push_damage_body(&mut s, &o.on_hit, "damage on a hit", "on a hit, against the target");
    s
}

/// A one-line summary of an attack for the play prompt, such as `hit 45.0%, damage 1.8 on average
/// after armour (4.0 on a hit), critical 20.3%, dying 9.1%, killed 0.4%` (the last three only
/// with the target's health). The chances are per attack, misses included. Bad input gives a
/// line saying why instead.
pub fn attack_note(spec: &AttackSpec) -> String {
    let o = match attack(spec) {
        Ok(o) => o,
        Err(e) => return format!("no odds: {e}"),
    };
    let mut s = format!(
        "hit {}, damage {} on average after armour ({} on a hit)",
        o.hit.percent(),
        o.per_attack.mean_text(),
        o.on_hit.dealt.mean_text()
    );
    if let Some(c) = &o.consequences {
        let _ = write!(
            s,
            ", critical {}, dying {}, killed {}",
            c.critical.percent(),
            c.dying.percent(),
            c.killed.percent()
        );
    }
    s
}
