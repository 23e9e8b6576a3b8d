//! Counters: both blows rolled at once, who is hit first, a tie landing together, and a first hit
//! that stops the other's blow ([`counter`], MUR-R21, MUR-H10).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// One blow of a counter exchange: its damage (with the armour of the one it hits) and, if
/// given, the health of the one it hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Blow {
    /// The damage and the armour of the one hit.
    pub damage: DamageSpec,
    /// The health of the one hit.
    pub target: Option<Target>,
}

/// How a counter exchange goes, from the two damages after reductions (MUR-R21): the part of
/// [`CounterOdds`] that compares them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exchange {
    /// Both damages are compared exactly up to this value.
    pub cap: usize,
    /// The attack deals more: it lands first.
    pub attack_first: Chance,
    /// The counter deals more: it lands first.
    pub counter_first: Chance,
    /// Equal damage (0 against 0 included): both land together.
    pub together: Chance,
    /// Both damages above the cap: the order is not worked out.
    pub undecided: Chance,
    /// The attack lands first and leaves the counterer critically damaged (incapacitated or
    /// dying), so the counter never lands; needs the counterer's health.
    pub counter_stopped: Option<Chance>,
    /// The counter lands first and leaves the attacker critically damaged, so the attack never
    /// lands; needs the attacker's health.
    pub attack_stopped: Option<Chance>,
    /// What the attack does to the counterer once the exchange is over (a stopped attack deals
    /// nothing); needs both healths. Undecided outcomes are in none of its chances.
    pub attack_after: Option<Consequences>,
    /// What the counter does to the attacker once the exchange is over; needs both healths.
    pub counter_after: Option<Consequences>,
}

/// The odds of an attack met by a counter (MUR-R21). In JSON the [`Exchange`] fields stand
/// beside `attack` and `counter`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterOdds {
    /// The attack's damage to the counterer (its consequences as if it lands).
    pub attack: DamageOdds,
    /// The counter's damage to the attacker (its consequences as if it lands).
    pub counter: DamageOdds,
    /// How the exchange goes.
    #[serde(flatten)]
    pub exchange: Exchange,
}

/// Prefix sums: `lt[v]` is the outcomes below `v`, for `v` in 0..=cap+1.
pub(super) fn below(d: &TailDist) -> Vec<Count> {
    let mut lt = vec![Count::zero(); d.counts.len() + 1];
    for (v, c) in d.counts.iter().enumerate() {
        lt[v + 1] = add(&lt[v], c);
    }
    lt
}

/// The outcomes of the pair (`x`, `y`), both with the same cap, in which `x` lands first
/// (`x > y`) with at least `from` (at most the cap plus 1): `x` at the cap or below against a
/// lower `y`, or `x` above the cap against `y` at the cap or below.
pub(super) fn first_with_at_least(x: &TailDist, y: &TailDist, y_below: &[Count], from: usize) -> Count {
    let body = x
        .counts
        .iter()
        .enumerate()
        .skip(from)
        .fold(Count::zero(), |acc, (v, c)| add(&acc, &(c * &y_below[v])));
    let y_body = y.total.checked_sub(&y.tail).unwrap_or_default();
    add(&body, &(&x.tail * &y_body))
}

/// The victim of a blow: its health, and whether the blow is direct (no helmet then).
pub(super) type Victim = (Target, bool);

/// The least damage of a blow that is critical for its victim.
pub(super) fn stops_from(victim: Victim) -> usize {
    let (t, direct) = victim;
    critical_threshold(t.health, t.helmet, direct) as usize
}

/// What blow `x` does to `victim` once the exchange is over, `y` being the other blow (same cap)
/// and `y_stops_from` the least `y` that stops `x` when `y` comes first. Undecided outcomes
/// (both above the cap) are left out.
pub(super) fn after_exchange(x: &TailDist, y: &TailDist, victim: Victim, y_stops_from: usize) -> Consequences {
    let (target, direct) = victim;
    let total = &x.total * &y.total;
    // ge_y[u]: outcomes of y at u or more, for u in 0..=cap+1.
    let mut ge_y = vec![y.tail.clone(); y.counts.len() + 1];
    for u in (0..y.counts.len()).rev() {
        ge_y[u] = add(&ge_y[u + 1], &y.counts[u]);
    }
    let y_body = y.total.checked_sub(&y.tail).unwrap_or_default();
    // x lands with at least t: x = v (t <= v <= cap) and y does not stop it, or x above the cap
    // and y at the cap or below (which never stops it).
    let lands_at_least = |t: usize| {
        let body = x.counts.iter().enumerate().skip(t).fold(Count::zero(), |acc, (v, c)| {
            let stops = ge_y.get((v + 1).max(y_stops_from)).cloned().unwrap_or_default();
            add(&acc, &(c * &y.total.checked_sub(&stops).unwrap_or_default()))
        });
        add(&body, &(&x.tail * &y_body))
    };
    let critical_from = critical_threshold(target.health, target.helmet, direct);
    let undecided = &x.tail * &y.tail;
    let decided = total.checked_sub(&undecided).unwrap_or_default();
    let hurt = lands_at_least(1);
    let chance = |c: Count| Chance::new(c, total.clone());
    Consequences {
        target,
        critical_from,
        no_damage: chance(decided.checked_sub(&hurt).unwrap_or_default()),
        critical: chance(lands_at_least(critical_from as usize)),
        dying: chance(lands_at_least(target.health as usize)),
        killed: chance(lands_at_least(target.max_health as usize)),
    }
}

/// How an exchange goes between the attack's damage `a` to the counterer and the counter's
/// damage `c` to the attacker, each exact up to every threshold of the victims given.
pub(super) fn exchange(
    a: &TailDist,
    c: &TailDist,
    counterer: Option<Victim>,
    attacker: Option<Victim>,
) -> Result<Exchange, String> {
    // The common cap: the lower of the caps with something above them.
    let cap = [a, c]
        .into_iter()
        .filter(|d| !d.tail.is_zero())
        .map(TailDist::cap)
        .min()
        .unwrap_or_else(|| a.cap().max(c.cap()));
    let bug = || "the two damages have no common exact part (a bug)".to_string();
    let a = a.with_cap(cap).ok_or_else(bug)?;
    let c = c.with_cap(cap).ok_or_else(bug)?;
    let thresholds = [counterer, attacker]
        .into_iter()
        .flatten()
        .map(|(t, _)| t.max_health as usize);
    let tails = !a.tail.is_zero() || !c.tail.is_zero();
    if tails && thresholds.max().is_some_and(|t| t > cap + 1) {
        return Err(bug());
    }
    let (a_below, c_below) = (below(&a), below(&c));
    let total = &a.total * &c.total;
    let chance = |n: Count| Chance::new(n, total.clone());
    let together = a
        .counts
        .iter()
        .zip(&c.counts)
        .fold(Count::zero(), |acc, (x, y)| add(&acc, &(x * y)));
    let (attack_after, counter_after) = match (counterer, attacker) {
        (Some(ce), Some(at)) => (
            Some(after_exchange(&a, &c, ce, stops_from(at))),
            Some(after_exchange(&c, &a, at, stops_from(ce))),
        ),
        _ => (None, None),
    };
    Ok(Exchange {
        cap,
        attack_first: chance(first_with_at_least(&a, &c, &c_below, 0)),
        counter_first: chance(first_with_at_least(&c, &a, &a_below, 0)),
        together: chance(together),
        undecided: chance(&a.tail * &c.tail),
        counter_stopped: counterer.map(|v| chance(first_with_at_least(&a, &c, &c_below, stops_from(v)))),
        attack_stopped: attacker.map(|v| chance(first_with_at_least(&c, &a, &a_below, stops_from(v)))),
        attack_after,
        counter_after,
    })
}

/// The odds of `attack` met by `counter`: each blow's damage after reductions, which lands first,
/// and, with healths, which first blow stops the other.
///
/// Errors: those of [`damage`] for either blow.
pub fn counter(attack: &Blow, counter: &Blow) -> Result<CounterOdds, String> {
    // Both healths are checked before either sets how far the rolls are followed.
    for (what, blow) in [("the attack", attack), ("the counter", counter)] {
        if let Some(t) = &blow.target {
            t.check().map_err(|e| format!("{what}: {e}"))?;
        }
    }
    let need = [attack.target, counter.target]
        .iter()
        .flatten()
        .map(|t| t.max_health as usize)
        .max()
        .unwrap_or(1);
    let a = damage_exact_to(&attack.damage, attack.target, need).map_err(|e| format!("the attack: {e}"))?;
    let c = damage_exact_to(&counter.damage, counter.target, need).map_err(|e| format!("the counter: {e}"))?;
    let counterer = attack.target.map(|t| (t, attack.damage.direct));
    let attacker = counter.target.map(|t| (t, counter.damage.direct));
    let exchange = exchange(&a.dealt, &c.dealt, counterer, attacker)?;
    Ok(CounterOdds {
        attack: a,
        counter: c,
        exchange,
    })
}

/// [`CounterOdds`] as text.
pub fn counter_text(o: &CounterOdds) -> String {
    let mut s = format!(
        "attack: {}\ncounter: {}\n",
        spec_text(&o.attack.spec),
        spec_text(&o.counter.spec)
    );
    let _ = writeln!(
        s,
        "damage after reductions: the attack {} on average, the counter {}; whoever would suffer more is hit first",
        o.attack.dealt.mean_text(),
        o.counter.dealt.mean_text()
    );
    let _ = write!(
        s,
        "the attack lands first {}, the counter lands first {}, both together {}",
        o.exchange.attack_first.percent(),
        o.exchange.counter_first.percent(),
        o.exchange.together.percent()
    );
    if o.exchange.undecided.num().is_zero() {
        s.push('\n');
    } else {
        let _ = writeln!(
            s,
            ", undecided (both above {}) {}",
            o.exchange.cap,
            small(o.exchange.undecided.num(), o.exchange.undecided.den())
        );
    }
    if let Some(c) = &o.exchange.counter_stopped {
        let _ = writeln!(
            s,
            "the attack comes first and is critical for the counterer, so the counter never lands: {}",
            c.percent()
        );
    }
    if let Some(c) = &o.exchange.attack_stopped {
        let _ = writeln!(
            s,
            "the counter comes first and is critical for the attacker, so the attack never lands: {}",
            c.percent()
        );
    }
    match (&o.exchange.attack_after, &o.exchange.counter_after) {
        (Some(a), Some(c)) => {
            s.push_str(&consequences_line("after the exchange, the counterer", a));
            s.push_str(&consequences_line("after the exchange, the attacker", c));
        }
        _ => {
            if let Some(c) = &o.attack.consequences {
                s.push_str(&consequences_line("if the attack lands, the counterer", c));
            }
            if let Some(c) = &o.counter.consequences {
                s.push_str(&consequences_line("if the counter lands, the attacker", c));
            }
        }
    }
    s
}
