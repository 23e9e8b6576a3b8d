//! The exact contest odds the heuristic weighs (THR core mechanic: 2d6 with Boons and Banes
//! against the defence roll), and the defence it picks: the one with the best chance to avoid
//! the hit.
//!
//! Apart from the decisions because the odds module (`crate::odds`) and every concern of the
//! decision read them, and they know nothing of the decision itself.

use super::*;

/// Probabilities of the four contest results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContestOdds {
    /// Attacker wins by the margin or more.
    pub attacker_critical: f64,
    /// Attacker wins by less than the margin.
    pub attacker_success: f64,
    /// Defender wins by less than the margin (ties included under the default tie rule).
    pub defender_success: f64,
    /// Defender wins by the margin or more.
    pub defender_critical: f64,
}

impl ContestOdds {
    /// Probability that the attack hits.
    pub fn hit(&self) -> f64 {
        self.attacker_critical + self.attacker_success
    }
}

/// For every pair of net Boons (attacker, defender) in -8..=8: the cumulative distribution of
/// (attacker's kept dice − defender's kept dice), which runs from -10 to 10. `ge[k]` is
/// P(diff ≥ k − 10). Built once from the exact distributions.
pub(super) struct DiffTable {
    pub(super) ge: Vec<[f64; 22]>,
}

pub(super) fn diff_table() -> &'static DiffTable {
    static T: OnceLock<DiffTable> = OnceLock::new();
    T.get_or_init(|| {
        let rows: Vec<[f64; 13]> = (-8..=8)
            .map(|net| {
                let d = crate::dice::dist2d6(net);
                let mut row = [0.0; 13];
                for (v, c) in d.iter() {
                    if (0..=12).contains(&v) {
                        row[v as usize] = c as f64 / d.total() as f64;
                    }
                }
                row
            })
            .collect();
        let mut ge = Vec::with_capacity(17 * 17);
        for a in &rows {
            for d in &rows {
                let mut pdf = [0.0f64; 21];
                for (x, pa) in a.iter().enumerate() {
                    for (y, pd) in d.iter().enumerate() {
                        if *pa > 0.0 && *pd > 0.0 {
                            pdf[(x as i32 - y as i32 + 10) as usize] += pa * pd;
                        }
                    }
                }
                let mut cum = [0.0f64; 22];
                for k in (0..21).rev() {
                    cum[k] = cum[k + 1] + pdf[k];
                }
                ge.push(cum);
            }
        }
        DiffTable { ge }
    })
}

/// The odds of a Thrum contest. `reroll_ties` renormalises away the ties.
pub fn contest_odds(
    att_net: i16,
    att_mod: i16,
    def_net: i16,
    def_mod: i16,
    margin: i16,
    defence_margin: i16,
    reroll_ties: bool,
) -> ContestOdds {
    let t = diff_table();
    let row = &t.ge[((att_net.clamp(-8, 8) + 8) * 17 + def_net.clamp(-8, 8) + 8) as usize];
    let delta = att_mod - def_mod;
    // P(kept diff + delta >= k) = P(kept diff >= k - delta).
    let p_ge = |k: i16| -> f64 {
        let idx = (k - delta + 10).clamp(0, 21) as usize;
        row[idx]
    };
    let m = margin.max(1);
    let attacker_critical = p_ge(m);
    let attacker_success = p_ge(1) - attacker_critical;
    let tie = p_ge(0) - p_ge(1);
    let defender_critical = 1.0 - p_ge(-defence_margin.max(1) + 1);
    let defender_success = 1.0 - attacker_critical - attacker_success - defender_critical - tie;
    let mut o = ContestOdds {
        attacker_critical,
        attacker_success,
        defender_success,
        defender_critical,
    };
    if reroll_ties && tie < 1.0 {
        let k = 1.0 / (1.0 - tie);
        o.attacker_critical *= k;
        o.attacker_success *= k;
        o.defender_success *= k;
        o.defender_critical *= k;
    } else {
        o.defender_success += tie;
    }
    o
}

/// The odds of an attack by `user` with ability `a` against `target` defending with `d`,
/// from the user's current square, before any triggers.
pub fn attack_odds(s: &State, user: Cid, a: &Ability, target: Cid, d: Defence) -> ContestOdds {
    let att_net = calc::attack_tally(s, user, a, target).net(s);
    attack_odds_with(s, user, a, target, d, att_net)
}

/// The odds against a declined defence: the attack succeeds, without a roll.
pub(super) const DECLINED: ContestOdds = ContestOdds {
    attacker_critical: 0.0,
    attacker_success: 1.0,
    defender_success: 0.0,
    defender_critical: 0.0,
};

pub(super) fn attack_odds_with(
    s: &State,
    user: Cid,
    a: &Ability,
    target: Cid,
    d: Defence,
    att_net: i16,
) -> ContestOdds {
    if d == Defence::Decline {
        return DECLINED;
    }
    let att_mod = calc::attack_modifier(s, user, a);
    let (margin, defence_margin) = calc::margins(s, user, a);
    let (def_tally, def_mod) = calc::defence_roll(s, target, d, user);
    let def_net = def_tally.net(s);
    contest_odds(
        att_net,
        att_mod,
        def_net,
        def_mod,
        margin,
        defence_margin,
        s.options.tie_rule == crate::options::TieRule::Reroll,
    )
}

/// Expected Fatigue plus Stress an ability deals on a hit and on a critical (first-order).
pub(super) fn damage(s: &State, user: Cid, a: &Ability) -> (f64, f64) {
    let sum = |lines: &[crate::ability::Line]| -> f64 {
        lines
            .iter()
            .map(|l| match &l.op {
                Op::Fatigue(x) | Op::Stress(x) if s.info(user).stats.tier >= l.min_tier as i16 => {
                    calc::eval(s, user, x) as f64
                }
                Op::Condition(_) | Op::Status(..) => 0.3,
                _ => 0.0,
            })
            .sum()
    };
    let hit = sum(&a.success);
    let crit = if a.critical_replaces {
        sum(&a.critical)
    } else {
        hit + sum(&a.critical)
    };
    (hit, crit)
}

/// The defence with the best chance to avoid the effect; Evasion pays a small price for the
/// Vulnerable it risks.
pub fn best_defence(s: &State, t: Cid, attacker: Cid, a: &Ability) -> Defence {
    best_defence_odds(s, t, attacker, a).0
}

/// [`best_defence`] and the odds of the attack against it (what [`attack_odds`] gives for
/// that defence), from one tally of the attack.
pub(super) fn best_defence_odds(s: &State, t: Cid, attacker: Cid, a: &Ability) -> (Defence, ContestOdds) {
    best_defence_odds_net(s, t, attacker, a, calc::attack_tally(s, attacker, a, t).net(s))
}

/// [`best_defence_odds`] with the net Boons of the attack roll (`att_net`) already known.
pub(super) fn best_defence_odds_net(
    s: &State,
    t: Cid,
    attacker: Cid,
    a: &Ability,
    att_net: i16,
) -> (Defence, ContestOdds) {
    let roll = AttackRoll::of(s, attacker, a, att_net);
    best_defence_odds_by(s, t, attacker, a, roll, calc::defences(s, t, a), |d| {
        let (tally, modifier) = calc::defence_roll(s, t, d, attacker);
        (tally.net(s), modifier)
    })
}

/// What the odds of an attack roll depend on besides the defence: its net Boons, its
/// modifier and the two Critical margins ([`calc::margins`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackRoll {
    pub(super) net: i16,
    pub(super) modifier: i16,
    pub(super) margin: i16,
    pub(super) defence_margin: i16,
}

impl AttackRoll {
    /// The roll of `attacker`'s attack with `a`, whose net Boons are `net`.
    pub(super) fn of(s: &State, attacker: Cid, a: &Ability, net: i16) -> AttackRoll {
        let (margin, defence_margin) = calc::margins(s, attacker, a);
        AttackRoll {
            net,
            modifier: calc::attack_modifier(s, attacker, a),
            margin,
            defence_margin,
        }
    }
}

/// [`best_defence_odds_net`] with the attack's `roll`, the defences `options` open to `t`
/// against it ([`calc::defences`]), and each defence roll's net Boons and modifier given by
/// `defence` (the AI remembers them for the rest of a decision: they depend on the defender, the
/// defence and the attacker, not on the ability). The choice depends on nothing else.
pub(super) fn best_defence_odds_by(
    s: &State,
    t: Cid,
    attacker: Cid,
    a: &Ability,
    roll: AttackRoll,
    options: &[Defence],
    mut defence: impl FnMut(Defence) -> (i16, i16),
) -> (Defence, ContestOdds) {
    debug_assert_eq!(options, calc::defences(s, t, a));
    debug_assert_eq!(roll, AttackRoll::of(s, attacker, a, roll.net));
    let reroll = s.options.tie_rule == crate::options::TieRule::Reroll;
    options
        .iter()
        .copied()
        .map(|d| {
            let o = if d == Defence::Decline {
                DECLINED
            } else {
                let (def_net, def_mod) = defence(d);
                contest_odds(
                    roll.net,
                    roll.modifier,
                    def_net,
                    def_mod,
                    roll.margin,
                    roll.defence_margin,
                    reroll,
                )
            };
            debug_assert_eq!(o, attack_odds_with(s, attacker, a, t, d, roll.net));
            let mut score = 1.0 - o.hit();
            if d == Defence::Evasion {
                score -= 0.1 * (1.0 - o.defender_critical);
            }
            (d, score, o)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or((Defence::Decline, DECLINED), |(d, _, o)| (d, o))
}
