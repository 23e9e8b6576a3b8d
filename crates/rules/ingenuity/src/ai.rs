//! The built-in Ingenuity AI used by `fray run` and as the heuristic simulation policy.
//!
//! Simple, explainable rules on top of the exact attack odds: teams give the turn to whoever can
//! do the most damage now; on its turn a character reloads, attacks the target with the best
//! expected damage while the multiple attack penalty leaves it worth doing, otherwise closes in
//! (or readies an attack when nobody is in reach), wakes fallen allies next to it when no enemy
//! is near, finishes fallen enemies when nothing else can be attacked, and guards with the
//! actions it cannot use. As a defender it dodges or parries when that lowers the expected
//! damage enough for the stamina, blocks big hits, always fortifies to stay conscious, and acts
//! on readied actions. Every command it returns is checked; if one is refused it ends the turn
//! or passes.

use crate::Ingenuity;
use crate::calc;
use crate::check::check;
use crate::command::{Action, Command, default_attr, default_prof, default_weapon};
use crate::data::Cond;
use crate::legal;
use crate::odds;
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Frame, Readied, ReadyAction, State, Trigger};
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};
use fray_space::Pos;

/// The built-in heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    buf: Vec<Answer<Ingenuity>>,
    /// Attack odds already worked out in this combat.
    memo: odds::Memo,
}

impl Heuristic {
    /// A new heuristic policy.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Policy<Ingenuity> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Ingenuity>, _rng: &mut Prng) -> Option<Answer<Ingenuity>> {
        // It plans on what its seat may see (no Hidden enemy's square) and asks the rules.
        let view = d.view();
        if let Some(c) = decide(&view, &mut self.memo)
            && let Ok(answer) = d.answer(c)
        {
            return Some(answer);
        }
        self.buf.clear();
        d.legal(&mut self.buf);
        let pref = [
            Command::Act(Action::End),
            Command::Pass,
            Command::Continue,
            Command::Hold,
        ];
        let i = pref
            .iter()
            .find_map(|c| self.buf.iter().position(|a| a.command == *c))
            .unwrap_or(0);
        (i < self.buf.len()).then(|| self.buf.swap_remove(i))
    }

    fn name(&self) -> &str {
        "heuristic"
    }

    fn new_combat(&mut self) {
        self.memo.clear();
    }
}

fn decide(s: &State, memo: &mut odds::Memo) -> Option<Command> {
    if let Some(top) = s.stack.last() {
        return Some(match top {
            Frame::Attack(a) => match a.stage {
                AttackStage::Intercept => intercept(s, a),
                AttackStage::Defend => defend(s, a, memo),
                AttackStage::Block => block(s, a),
                _ => Command::Pass,
            },
            Frame::Ready(_) => Command::Fire,
            Frame::Conscious { .. } => Command::Fortify,
            _ => Command::Pass,
        });
    }
    let Some(t) = &s.turn else {
        return pick(s, memo);
    };
    let me = t.who;
    let c = s.ch(me);
    if c.econ.extended.is_some() && !c.ext_settled {
        return Some(Command::Continue);
    }
    if t.opening
        && let Some(a) = crate::check::opening_action(s)
    {
        return Some(Command::Act(a));
    }
    turn(s, me, memo).map(Command::Act)
}

fn standing_enemies(s: &State, me: Cid) -> impl Iterator<Item = Cid> + '_ {
    s.ids()
        .filter(move |&e| s.enemies(me, e) && s.ch(e).standing() && s.ch(e).pos.is_some())
}

/// How much endurance and health `c` has left, as the seat of `viewer` knows it: exactly for
/// its own characters (and for the GM, who knows everything); for anyone else only what every
/// seat is shown (the tracker's "harmed" and "bloodied"), read as a guess: untouched 12,
/// harmed 6, bloodied 2. The AI never uses numbers its seat is not shown.
fn known_left(s: &State, viewer: Cid, c: Cid) -> i16 {
    let seat = s.info(viewer).seat;
    if seat.is_gm() || s.info(c).seat == seat {
        s.ch(c).endurance + s.ch(c).health
    } else if calc::bloodied(s, c) {
        2
    } else if calc::harmed(s, c) {
        6
    } else {
        12
    }
}

/// The best attack `me` can make now from where it stands: (expected damage, action).
fn best_attack(s: &State, me: Cid, memo: &mut odds::Memo) -> Option<(f64, Action)> {
    let c = s.ch(me);
    let mut best: Option<(f64, Action)> = None;
    for (k, carried) in c.items.iter().enumerate() {
        let slot = k as u8;
        let item = s.setup.armoury.item(carried.item);
        if !carried.held || !item.weapon {
            continue;
        }
        let attr = default_attr(s, me, slot);
        let prof = default_prof(s, me, slot);
        // Out of the weapon's reach the rules refuse the attack (`check::attack_ok`): skip it
        // without asking them to word the refusal.
        for t in standing_enemies(s, me).filter(|&t| calc::distance_between(s, me, t) <= item.range) {
            let action = Action::Attack {
                target: t,
                slot,
                attr,
                prof: prof.clone(),
            };
            if crate::check::check_action(s, me, &action, None).is_err() {
                continue;
            }
            let Some(q) = odds::query_for(s, me, t, slot, attr, prof.as_deref()) else {
                continue;
            };
            let mean_damage = memo.mean_damage(&q);
            // Finishing someone who is nearly down is worth more (as far as `me`'s seat can
            // tell: see `known_left`).
            let left = f64::from(known_left(s, me, t)).max(1.0);
            let score = mean_damage * (1.0 + 2.0 / left);
            if best.as_ref().is_none_or(|(b, _)| score > *b + 1e-9) {
                best = Some((score, action));
            }
        }
    }
    best
}

fn pick(s: &State, memo: &mut odds::Memo) -> Option<Command> {
    let team = s.order.team_to_pick(|w| s.can_take_turn(w))?;
    let cands: Vec<Cid> = s.order.candidates(team, |w| s.can_take_turn(w)).collect();
    // Whoever can hit hardest now; then whoever is closest to an enemy.
    let mut key = |c: Cid| -> (i64, i64) {
        let dmg = best_attack(s, c, memo).map_or(0.0, |(d, _)| d);
        let dist = standing_enemies(s, c)
            .map(|e| calc::distance_between(s, c, e))
            .min()
            .unwrap_or(i16::MAX);
        ((dmg * 1000.0) as i64, -i64::from(dist))
    };
    let best = cands.iter().copied().max_by_key(|c| (key(*c), std::cmp::Reverse(*c)))?;
    Some(Command::Pick(best))
}

fn longest_range(s: &State, me: Cid) -> i16 {
    s.ch(me)
        .items
        .iter()
        .filter(|k| k.held && s.setup.armoury.item(k.item).weapon)
        .map(|k| s.setup.armoury.item(k.item).range)
        .max()
        .unwrap_or(1)
}

fn turn(s: &State, me: Cid, memo: &mut odds::Memo) -> Option<Action> {
    let c = s.ch(me);
    let actions = c.econ.actions;
    let here = c.pos?;
    if actions == 0 {
        return Some(Action::End);
    }
    // Get up first.
    if c.has(Cond::Prone) && !c.unconscious {
        return Some(Action::StandUp);
    }
    // Nothing in hand: take out the first weapon.
    if default_weapon(s, me).is_none()
        && let Some(k) = c.items.iter().position(|k| s.setup.armoury.item(k.item).weapon)
    {
        return Some(Action::Brandish(vec![k as u8]));
    }
    // Reload an empty weapon in hand.
    for (k, carried) in c.items.iter().enumerate() {
        let item = s.setup.armoury.item(carried.item);
        if carried.held && item.reload > 0 && !carried.loaded {
            return Some(Action::Reload(k as u8));
        }
    }
    let enemy_near = standing_enemies(s, me).any(|e| calc::distance_between(s, me, e) <= 1);
    // Wake an unconscious ally next to us when no enemy is close.
    if !enemy_near && actions >= 2 {
        for a in s
            .ids()
            .filter(|&a| s.allies(me, a) && s.ch(a).unconscious && !s.ch(a).dead)
        {
            let act = Action::Resuscitate(a);
            if crate::check::check_action(s, me, &act, None).is_ok() {
                return Some(act);
            }
        }
    }
    // Nothing in hand reaches anyone, but a carried weapon would: take it out.
    let best = best_attack(s, me, memo);
    if best.is_none()
        && let Some(slots) = draw_for_range(s, me)
    {
        return Some(Action::Brandish(slots));
    }
    if let Some((score, attack)) = best {
        // An attack worth less than a point of damage is not worth the action: guard instead.
        if score >= 0.75 || c.attacks_round == 0 {
            return Some(attack);
        }
        return Some(Action::Guard);
    }
    // Nobody to attack from here: move closer, if the move is still free.
    if let Some(p) = approach(s, me) {
        return Some(if c.moved { Action::Sprint(p) } else { Action::Move(p) });
    }
    // Finish a fallen enemy with a killing strike when nothing else can be done.
    if actions >= 3
        && let Some(slot) = default_weapon(s, me)
    {
        for e in s
            .ids()
            .filter(|&e| s.enemies(me, e) && s.ch(e).unconscious && !s.ch(e).dead)
        {
            let act = Action::Kill { target: e, slot };
            if crate::check::check_action(s, me, &act, None).is_ok() {
                return Some(act);
            }
        }
    }
    // Ready an attack for whoever comes close.
    if let Some(slot) = default_weapon(s, me) {
        let act = Action::Ready(Readied {
            action: ReadyAction::Attack { target: None, slot },
            trigger: Trigger::Approach,
        });
        if standing_enemies(s, me).next().is_some() && crate::check::check_action(s, me, &act, None).is_ok() {
            return Some(act);
        }
    }
    let _ = here;
    Some(if enemy_near { Action::Guard } else { Action::End })
}

/// What to hold to reach an enemy from here with a carried weapon not in hand: that weapon,
/// plus what is already in hand if it still fits.
fn draw_for_range(s: &State, me: Cid) -> Option<Vec<u8>> {
    let c = s.ch(me);
    let nearest = standing_enemies(s, me)
        .map(|e| calc::distance_between(s, me, e))
        .min()?;
    let (k, item) = c
        .items
        .iter()
        .enumerate()
        .map(|(k, it)| (k, s.setup.armoury.item(it.item)))
        .find(|(k, item)| !c.items[*k].held && item.weapon && item.range >= nearest)?;
    let mut slots = vec![k as u8];
    let mut hands = item.hands;
    for (j, it) in c.items.iter().enumerate() {
        let h = s.setup.armoury.item(it.item).hands;
        if it.held && hands + h <= 2 {
            hands += h;
            slots.push(j as u8);
        }
    }
    slots.sort_unstable();
    Some(slots)
}

/// A square to move (or sprint) to: one from which an enemy can be attacked if any, else the
/// one closest to the nearest enemy. `None` if no move helps.
fn approach(s: &State, me: Cid) -> Option<Pos> {
    let c = s.ch(me);
    let can_move = !c.moved || (c.stamina > 2 && s.options.sprint_limit.is_none_or(|l| c.sprints < l));
    if !can_move || (s.options.prone_blocks_movement && c.has(Cond::Prone)) {
        return None;
    }
    let here = c.pos?;
    let range = longest_range(s, me);
    let enemies: Vec<Pos> = standing_enemies(s, me).filter_map(|e| s.ch(e).pos).collect();
    if enemies.is_empty() {
        return None;
    }
    let nearest = |p: Pos| {
        enemies
            .iter()
            .map(|e| calc::distance(s, p, *e))
            .min()
            .unwrap_or(i16::MAX)
    };
    let now = nearest(here);
    let squares = legal::move_squares(s, me);
    let best = squares
        .iter()
        .map(|(p, cost)| {
            let d = nearest(*p);
            let in_reach = d <= range;
            // In reach first; ranged fighters keep their distance, melee ones close in.
            let spacing = if range > 2 { -(d - range).abs() } else { -d };
            (in_reach, spacing, -(*cost as i64), std::cmp::Reverse((p.y, p.x)), *p)
        })
        .max_by_key(|k| (k.0, k.1, k.2, k.3))?;
    if best.0 || nearest(best.4) < now {
        Some(best.4)
    } else {
        None
    }
}

fn intercept(s: &State, a: &Attack) -> Command {
    // Take the hit for an ally who is nearly down, when fresh enough to: the freshest of the
    // allies who may (ties: the first listed). How far down the ally is, as the seat deciding
    // (the interceptors') can tell.
    let ally = a.target;
    let Some(&first) = a.intercept.first() else {
        return Command::Pass;
    };
    let ally_left = known_left(s, first, ally);
    if ally_left > 6 {
        return Command::Pass;
    }
    a.intercept
        .iter()
        .copied()
        .filter(|&me| {
            let mine = s.ch(me).endurance + s.ch(me).health;
            mine >= 2 * ally_left && s.ch(me).stamina >= 2 && check(s, &Command::Intercept(me)).is_ok()
        })
        .max_by_key(|&me| (s.ch(me).endurance + s.ch(me).health, std::cmp::Reverse(me)))
        .map_or(Command::Pass, Command::Intercept)
}

fn defend(s: &State, a: &Attack, memo: &mut odds::Memo) -> Command {
    let t = a.target;
    let c = s.ch(t);
    // Keep one stamina for the consciousness fortify.
    if c.stamina < 2 && a.defences.free == 0 {
        return Command::Pass;
    }
    let Some(item) = s.item(a.attacker, a.slot) else {
        return Command::Pass;
    };
    // Resist or fortify against a stunning effect.
    if let Some(e) = &item.effect
        && e.condition == Cond::Stunned
    {
        for cmd in [Command::Resist, Command::Fortify] {
            if check(s, &cmd).is_ok() {
                return cmd;
            }
        }
    }
    if a.defences.dodge.is_some() || a.defences.parry.is_some() {
        return Command::Pass;
    }
    let Some(mut q) = odds::query_for(s, a.attacker, t, a.slot, a.attr, a.prof.as_deref()) else {
        return Command::Pass;
    };
    q.modifier = a.penalty + a.bonus;
    let base = memo.mean_damage(&q);
    let st = &s.info(t).stats;
    let mut dq = q.clone();
    dq.dodge = Some((
        st.attr(crate::data::Attr::Dex),
        st.skill("agility"),
        st.prof("dodge") + calc::guard(s, t),
    ));
    let dodged = memo.mean_damage(&dq);
    let mut best = (base - dodged, Command::Dodge);
    for (k, carried) in c.items.iter().enumerate() {
        let cmd = Command::Parry(k as u8);
        if !carried.held || check(s, &cmd).is_err() {
            continue;
        }
        let bonus = s.setup.armoury.item(carried.item).parry.unwrap_or(1);
        let mut pq = q.clone();
        match s.options.parry_adds_to {
            crate::options::ParryAddsTo::Deflection => pq.deflection = pq.deflection.map(|d| d + bonus),
            crate::options::ParryAddsTo::Evasion => pq.evasion += bonus,
        }
        let gain = base - memo.mean_damage(&pq);
        if gain > best.0 + 1e-9 {
            best = (gain, cmd);
        }
    }
    if best.0 >= 1.0 && check(s, &best.1).is_ok() {
        best.1
    } else {
        Command::Pass
    }
}

fn block(s: &State, a: &Attack) -> Command {
    let t = a.target;
    let c = s.ch(t);
    if c.stamina < 2 && a.defences.free == 0 {
        return Command::Pass;
    }
    let dealt = (a.raw - crate::resolve::reduction(s, a)).max(s.options.min_damage);
    if dealt < 3 {
        return Command::Pass;
    }
    let mut best: Option<(i16, u8)> = None;
    for (k, carried) in c.items.iter().enumerate() {
        let cmd = Command::Block(k as u8);
        if check(s, &cmd).is_err() {
            continue;
        }
        let value = s.setup.armoury.item(carried.item).block.unwrap_or(0);
        let to_item = (a.raw - value).max(1);
        let through = (to_item - carried.durability).max(0);
        if through < dealt && best.is_none_or(|(b, _)| through < b) {
            best = Some((through, k as u8));
        }
    }
    best.map_or(Command::Pass, |(_, k)| Command::Block(k))
}
