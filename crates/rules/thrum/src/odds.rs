//! Exact odds of a Thrum attack.
//!
//! Both rolls are 2d6 with Boons or Banes (keep the best or worst two of 2 + |net| dice); their
//! exact distributions come from `fray_dice::Dist` (integer counts), and so does the
//! distribution of the difference. Every probability is a ratio of two integers, printed as a
//! fraction and a decimal: nothing is sampled and nothing is rounded before printing. Ties are
//! handled by the `tie-rule` reading: to the defender, or re-rolled (the probabilities are then
//! conditioned on the totals differing). The expected Fatigue/Stress follows from the Success and
//! Critical amounts (a Critical "instead" or "on top"), plus Vulnerable's extra on any damage.

use crate::ability::Defence;
use crate::ai;
use crate::calc;
use crate::options::TieRule;
use crate::setup::Cid;
use crate::state::State;
use fray_dice::{Dist, Keep};
use serde::Serialize;

/// One side of a contest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Side {
    /// The modifier.
    pub modifier: i16,
    /// Net Boons (negative: Banes).
    pub net: i16,
}

/// An attack to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AttackQuery {
    /// The attacker's roll.
    pub attack: Side,
    /// The defender's roll (its automatic Evasion Boon, Cover, Frayed... already in `net`).
    pub defence: Side,
    /// The attacker's Critical margin.
    pub margin: i16,
    /// The defender's Critical margin (the same unless the ability sets its own, see
    /// `calc::margins`).
    pub defence_margin: i16,
    /// Whether ties are re-rolled (else they go to the defender).
    pub reroll_ties: bool,
    /// Fatigue or Stress on a hit.
    pub hit: i16,
    /// Fatigue or Stress of the Critical line.
    pub critical: i16,
    /// Whether the Critical line replaces the Success line.
    pub critical_replaces: bool,
    /// The defender's Vulnerable X (added to the damage of this attack).
    pub vulnerable: i16,
}

/// An exact probability: `num / den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Exact {
    /// Numerator.
    pub num: u128,
    /// Denominator.
    pub den: u128,
}

impl Exact {
    fn new(num: u128, den: u128) -> Exact {
        let g = gcd(num, den).max(1);
        Exact {
            num: num / g,
            den: den / g,
        }
    }

    /// As a float (correctly rounded division of two integers below 2^128).
    pub fn value(&self) -> f64 {
        if self.den == 0 {
            0.0
        } else {
            self.num as f64 / self.den as f64
        }
    }
}

impl std::fmt::Display for Exact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The exact answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackOdds {
    /// The query.
    pub query: AttackQuery,
    /// Defender wins by the margin or more.
    pub defender_critical: Exact,
    /// Defender wins by less (ties included unless re-rolled).
    pub defender_success: Exact,
    /// Attacker wins by less than the margin.
    pub attacker_success: Exact,
    /// Attacker wins by the margin or more.
    pub attacker_critical: Exact,
    /// Expected Fatigue (or Stress) dealt.
    pub expected_damage: f64,
    /// The same as an exact fraction.
    pub expected_damage_exact: Exact,
}

/// The most net Boons or Banes one roll may have (2 + 30 dice: the most a roll holds).
pub const MAX_NET: i16 = 30;

/// The most net Boons and Banes both rolls may have together. The two rolls have
/// `6^(4 + |attack net| + |defence net|)` equally likely outcomes, and the expected damage
/// multiplies that count by up to 3 × 32767 (a 16-bit hit and critical plus Vulnerable): with
/// 42 dice (6^42 < 2^109) the product still fits 128 bits.
pub const MAX_NET_BOTH: i16 = 38;

/// Why odds cannot be computed exactly.
fn too_large(what: &str) -> String {
    format!(
        "{what}: exact odds count every outcome in 128-bit integers, so at most {MAX_NET} net Boons or Banes per roll and {MAX_NET_BOTH} for both rolls together are supported"
    )
}

/// The kept-two distribution of a 2d6 roll with `net` Boons, plus a modifier.
pub fn roll_dist(side: Side) -> Result<Dist, String> {
    if side.net.unsigned_abs() > MAX_NET as u16 {
        return Err(too_large(&format!("{} net Boons or Banes", side.net)));
    }
    let extra = side.net.unsigned_abs();
    let keep = match side.net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    Ok(Dist::of_keep(2 + extra, 6, keep)
        .map_err(|e| too_large(&e.to_string()))?
        .shift(side.modifier as i64))
}

/// Computes an attack's odds exactly. Every count is a 128-bit integer and every step is
/// checked: a query too large to count exactly is an error, never a wrapped number. Modifiers,
/// damage and Vulnerable may be any 16-bit value; see [`MAX_NET`] and [`MAX_NET_BOTH`] for
/// Boons and Banes.
pub fn attack(q: AttackQuery) -> Result<AttackOdds, String> {
    let both = q.attack.net.unsigned_abs() as u32 + q.defence.net.unsigned_abs() as u32;
    if both > MAX_NET_BOTH as u32 {
        return Err(too_large(&format!("{both} net Boons and Banes on the two rolls")));
    }
    let a = roll_dist(q.attack)?;
    let d = roll_dist(q.defence)?;
    let diff = a.sub(&d).map_err(|e| too_large(&e.to_string()))?;
    let m = q.margin as i64;
    let total = diff.total();
    let tie = diff.count_eq(0);
    let att_crit = diff.count_ge(m.max(1));
    let att_succ = diff.count_ge(1) - att_crit;
    let def_crit = diff.count_le(-(q.defence_margin as i64).max(1));
    let def_succ = diff.count_le(0) - def_crit;
    let (den, def_succ) = if q.reroll_ties && tie < total {
        (total - tie, def_succ - tie)
    } else {
        (total, def_succ)
    };
    // Damage in 64 bits: the sum of two 16-bit amounts cannot wrap.
    let vul = q.vulnerable.max(0) as u128;
    let on_hit = (q.hit as i64).max(0) as u128;
    let on_crit = (if q.critical_replaces {
        q.critical as i64
    } else {
        q.hit as i64 + q.critical as i64
    })
    .max(0) as u128;
    let with_vul = |x: u128| if x > 0 { x + vul } else { 0 };
    let overflow = || too_large("the expected damage");
    let dmg_num = att_succ
        .checked_mul(with_vul(on_hit))
        .and_then(|x| att_crit.checked_mul(with_vul(on_crit)).and_then(|y| x.checked_add(y)))
        .ok_or_else(overflow)?;
    let expected = Exact::new(dmg_num, den);
    Ok(AttackOdds {
        query: q,
        defender_critical: Exact::new(def_crit, den),
        defender_success: Exact::new(def_succ, den),
        attacker_success: Exact::new(att_succ, den),
        attacker_critical: Exact::new(att_crit, den),
        expected_damage: expected.value(),
        expected_damage_exact: expected,
    })
}

/// The query for an attack in a game position: `user` attacks `target` with `ability`, which
/// defends with `d` (Boons and Banes as the rules give them now, before any trigger).
pub fn query_in(s: &State, user: Cid, ability: crate::ability::AbilityId, target: Cid, d: Defence) -> AttackQuery {
    let a = s.setup.book.get(ability);
    let (hit, crit) = damage_lines(s, user, a);
    let (margin, defence_margin) = calc::margins(s, user, a);
    AttackQuery {
        attack: Side {
            modifier: calc::attack_modifier(s, user, a),
            net: calc::attack_tally(s, user, a, target).net(s),
        },
        defence: Side {
            modifier: calc::defence_modifier(s, target, d, user),
            net: calc::defence_tally(s, target, d).net(s),
        },
        margin,
        defence_margin,
        reroll_ties: s.options.tie_rule == TieRule::Reroll,
        hit,
        critical: crit,
        critical_replaces: a.critical_replaces,
        vulnerable: s.ch(target).status(crate::ability::XStatus::Vulnerable) as i16,
    }
}

fn damage_lines(s: &State, user: Cid, a: &crate::ability::Ability) -> (i16, i16) {
    use crate::ability::Op;
    let sum = |lines: &[crate::ability::Line]| -> i16 {
        lines
            .iter()
            .filter(|l| s.info(user).stats.tier >= l.min_tier as i16)
            .map(|l| match &l.op {
                Op::Fatigue(x) | Op::Stress(x) => calc::eval(s, user, x),
                _ => 0,
            })
            .sum()
    };
    (sum(&a.success), sum(&a.critical))
}

/// A short note for the prompt of `fray play`: the chance to hit against each defence the
/// target may pick.
pub fn note(s: &State, user: Cid, ability: crate::ability::AbilityId, target: Cid) -> Option<String> {
    let a = s.setup.book.get(ability);
    if !a.is_attack() {
        return None;
    }
    let parts: Vec<String> = calc::defences(s, target, a)
        .iter()
        .map(|d| {
            let o = attack(query_in(s, user, ability, target, *d)).ok()?;
            let hit = o.attacker_success.value() + o.attacker_critical.value();
            Some(format!("{:.0}% vs {}", 100.0 * hit, d.name()))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(format!("hit {}", parts.join(", ")))
}

/// The fast f64 table the AI uses must agree with the exact computation.
pub fn agrees_with_ai(q: AttackQuery) -> bool {
    let Ok(exact) = attack(q) else { return false };
    let fast = ai::contest_odds(
        q.attack.net,
        q.attack.modifier,
        q.defence.net,
        q.defence.modifier,
        q.margin,
        q.defence_margin,
        q.reroll_ties,
    );
    (fast.attacker_critical - exact.attacker_critical.value()).abs() < 1e-12
        && (fast.attacker_success - exact.attacker_success.value()).abs() < 1e-12
        && (fast.defender_success - exact.defender_success.value()).abs() < 1e-12
        && (fast.defender_critical - exact.defender_critical.value()).abs() < 1e-12
}

/// Parses `fray odds thrum ...` arguments: `--attack N --defend N [--defence resilience|evasion|resolve]
/// [--boons N] [--banes N] [--defence-boons N] [--defence-banes N] [--vulnerable X] [--cover]
/// [--frayed] [--dazed] [--tie defender|reroll] [--margin N] [--hit N] [--critical N]
/// [--critical-replaces]`.
pub fn parse_query(args: &[String]) -> Result<AttackQuery, String> {
    let mut q = AttackQuery {
        attack: Side { modifier: 0, net: 0 },
        defence: Side { modifier: 0, net: 0 },
        margin: 5,
        defence_margin: 5,
        reroll_ties: false,
        hit: 2,
        critical: 1,
        critical_replaces: false,
        vulnerable: 0,
    };
    let mut defence = Defence::Resilience;
    let (mut banes_def, mut boons_def, mut boons_att, mut banes_att) = (0i16, 0i16, 0i16, 0i16);
    let (mut cover, mut frayed, mut dazed) = (false, false, false);
    let mut it = args.iter();
    let num = |name: &str, v: Option<&String>| -> Result<i16, String> {
        let v = v.ok_or_else(|| format!("{name} needs a number"))?;
        v.parse::<i16>()
            .map_err(|_| format!("{name}: '{v}' is not a whole number from -32768 to 32767"))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--attack" => q.attack.modifier = num(a, it.next())?,
            "--defend" => q.defence.modifier = num(a, it.next())?,
            "--boons" => boons_att = num(a, it.next())?,
            "--banes" => banes_att = num(a, it.next())?,
            "--defence-boons" => boons_def = num(a, it.next())?,
            "--defence-banes" => banes_def = num(a, it.next())?,
            "--vulnerable" => q.vulnerable = num(a, it.next())?,
            "--margin" => {
                q.margin = num(a, it.next())?;
                q.defence_margin = q.margin;
            }
            "--hit" => q.hit = num(a, it.next())?,
            "--critical" => q.critical = num(a, it.next())?,
            "--critical-replaces" => q.critical_replaces = true,
            "--cover" => cover = true,
            "--frayed" => frayed = true,
            "--dazed" => dazed = true,
            "--defence" => {
                let v = it.next().ok_or("--defence needs resilience, evasion or resolve")?;
                defence = match Defence::parse(v) {
                    Some(d @ (Defence::Resilience | Defence::Evasion | Defence::Resolve)) => d,
                    _ => return Err(format!("--defence: '{v}' is not resilience, evasion or resolve")),
                };
            }
            "--tie" => {
                let v = it.next().ok_or("--tie needs defender or reroll")?;
                q.reroll_ties = match v.as_str() {
                    "defender" => false,
                    "reroll" => true,
                    _ => return Err(format!("--tie: '{v}' is not defender or reroll")),
                };
            }
            other => {
                return Err(format!(
                    "unknown argument '{other}': expected --attack N --defend N [--defence resilience|evasion|resolve] [--boons N] [--banes N] [--defence-boons N] [--defence-banes N] [--vulnerable X] [--cover] [--frayed] [--dazed] [--tie defender|reroll] [--margin N] [--hit N] [--critical N] [--critical-replaces]"
                ));
            }
        }
    }
    if q.vulnerable < 0 || boons_att < 0 || banes_att < 0 || boons_def < 0 || banes_def < 0 {
        return Err("counts of Boons, Banes and Vulnerable cannot be negative".into());
    }
    // Evasion's automatic Boon unless Vulnerable (THR-R103); Cover is a Bane on the attack
    // (THR-R126); Frayed and Dazed are Banes on the defence (THR-R156, THR-R214).
    // Counted in 32 bits (16-bit counts plus the automatic ones cannot wrap), then refused
    // outside the supported range.
    let evasion_boon = (defence == Defence::Evasion && q.vulnerable == 0) as i32;
    let att = boons_att as i32 - banes_att as i32 - cover as i32;
    let def = boons_def as i32 + evasion_boon - banes_def as i32 - frayed as i32 - dazed as i32;
    let max = MAX_NET as i32;
    if att.abs() > max || def.abs() > max {
        return Err(format!(
            "at most {MAX_NET} net Boons or Banes per roll are supported (attack {att:+}, defence {def:+})"
        ));
    }
    if att.abs() + def.abs() > MAX_NET_BOTH as i32 {
        return Err(format!(
            "at most {MAX_NET_BOTH} net Boons and Banes on both rolls together are supported (attack {att:+}, defence {def:+}): exact odds count every outcome in 128-bit integers"
        ));
    }
    q.attack.net = att as i16;
    q.defence.net = def as i16;
    Ok(q)
}

/// Readable text of an answer.
pub fn text(o: &AttackOdds) -> String {
    let q = &o.query;
    let mut s = String::new();
    let net = |n: i16| match n {
        0 => String::new(),
        n if n > 0 => format!(" with {n} Boon(s)"),
        n => format!(" with {} Bane(s)", -n),
    };
    s.push_str(&format!(
        "Attack 2d6{:+}{} against defence 2d6{:+}{}; Critical margin {}; ties {}\n",
        q.attack.modifier,
        net(q.attack.net),
        q.defence.modifier,
        net(q.defence.net),
        q.margin,
        if q.reroll_ties { "re-rolled" } else { "to the defender" }
    ));
    for (name, p) in [
        ("defender critical", o.defender_critical),
        ("defender success", o.defender_success),
        ("attacker success", o.attacker_success),
        ("attacker critical", o.attacker_critical),
    ] {
        s.push_str(&format!("  {name:<18} {:>9.5}%   {p}\n", 100.0 * p.value()));
    }
    s.push_str(&format!(
        "Expected Fatigue/Stress dealt: {:.5} ({})  [hit {}, critical {}{}{}]\n",
        o.expected_damage,
        o.expected_damage_exact,
        q.hit,
        q.critical,
        if q.critical_replaces { " instead" } else { " more" },
        if q.vulnerable > 0 {
            format!(", Vulnerable {}", q.vulnerable)
        } else {
            String::new()
        }
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(am: i16, an: i16, dm: i16, dn: i16) -> AttackQuery {
        AttackQuery {
            attack: Side { modifier: am, net: an },
            defence: Side { modifier: dm, net: dn },
            margin: 5,
            defence_margin: 5,
            reroll_ties: false,
            hit: 2,
            critical: 1,
            critical_replaces: false,
            vulnerable: 0,
        }
    }

    /// Every outcome of `n` d6 keeping the best (net > 0) or worst (net < 0) two, by brute force.
    fn kept_sums(net: i16) -> Vec<i64> {
        let n = 2 + net.unsigned_abs() as u32;
        let mut out = Vec::new();
        for i in 0..6u32.pow(n) {
            let mut faces: Vec<i64> = (0..n).map(|k| ((i / 6u32.pow(k)) % 6 + 1) as i64).collect();
            faces.sort();
            let kept = if net >= 0 {
                faces[faces.len() - 2..].iter().sum()
            } else {
                faces[..2].iter().sum()
            };
            out.push(kept);
        }
        out
    }

    #[test]
    fn exact_odds_match_brute_force_enumeration() {
        for (an, dn, am, dm) in [(0, 0, 0, 0), (1, 0, 3, 1), (0, -1, 2, 2), (-1, 2, 4, 0)] {
            let (att, def) = (kept_sums(an), kept_sums(dn));
            let mut counts = [0u128; 4]; // defender crit, defender success, attacker success, attacker crit
            for a in &att {
                for d in &def {
                    let diff = (a + am as i64) - (d + dm as i64);
                    let k = if diff >= 5 {
                        3
                    } else if diff > 0 {
                        2
                    } else if diff <= -5 {
                        0
                    } else {
                        1
                    };
                    counts[k] += 1;
                }
            }
            let total = (att.len() * def.len()) as u128;
            let o = attack(q(am, an, dm, dn)).unwrap();
            assert_eq!(o.defender_critical, Exact::new(counts[0], total));
            assert_eq!(o.defender_success, Exact::new(counts[1], total));
            assert_eq!(o.attacker_success, Exact::new(counts[2], total));
            assert_eq!(o.attacker_critical, Exact::new(counts[3], total));
        }
        // A hand check: with equal modifiers the attacker hits (1 - P(tie)) / 2 = 575/1296.
        let o = attack(q(0, 0, 0, 0)).unwrap();
        let (s, c) = (o.attacker_success, o.attacker_critical);
        assert_eq!(
            Exact::new(s.num * c.den + c.num * s.den, s.den * c.den),
            Exact::new(575, 1296)
        );
    }

    #[test]
    fn rerolled_ties_are_conditioned_away() {
        let o = attack(AttackQuery {
            reroll_ties: true,
            ..q(0, 0, 0, 0)
        })
        .unwrap();
        let hit = o.attacker_success.value() + o.attacker_critical.value();
        assert!((hit - 0.5).abs() < 1e-15);
    }

    #[test]
    fn expected_damage_counts_criticals_and_vulnerable() {
        let base = q(3, 0, 0, 0);
        let o = attack(base).unwrap();
        let e = 2.0 * o.attacker_success.value() + 3.0 * o.attacker_critical.value();
        assert!((o.expected_damage - e).abs() < 1e-12);
        let v = attack(AttackQuery {
            vulnerable: 2,
            critical_replaces: true,
            critical: 4,
            ..base
        })
        .unwrap();
        let e = 4.0 * v.attacker_success.value() + 6.0 * v.attacker_critical.value();
        assert!((v.expected_damage - e).abs() < 1e-12);
    }

    #[test]
    fn the_ais_fast_table_agrees_with_the_exact_odds() {
        for an in -3..=3 {
            for dn in -3..=3 {
                for (am, dm) in [(0, 0), (3, 1), (-1, 4)] {
                    for reroll in [false, true] {
                        assert!(agrees_with_ai(AttackQuery {
                            reroll_ties: reroll,
                            ..q(am, an, dm, dn)
                        }));
                    }
                }
            }
        }
    }

    #[test]
    fn arguments_apply_evasions_boon_cover_and_banes() {
        let args: Vec<String> = "--attack 3 --boons 1 --defend 2 --defence evasion --cover --dazed"
            .split(' ')
            .map(String::from)
            .collect();
        let q = parse_query(&args).unwrap();
        assert_eq!(q.attack, Side { modifier: 3, net: 0 });
        assert_eq!(q.defence, Side { modifier: 2, net: 0 });
        let args: Vec<String> = ["--defence", "evasion", "--vulnerable", "1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(parse_query(&args).unwrap().defence.net, 0);
        assert!(parse_query(&["--attack".to_string(), "x".to_string()]).is_err());
        assert!(parse_query(&["--fly".to_string()]).is_err());
    }
}
