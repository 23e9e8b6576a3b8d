//! A turn's plan: the Action worth most (attacks by expected Fatigue and Stress dealt, Finishers
//! against Exhausted targets, friendly fire in areas, reviving allies and finishing enemies,
//! recovering from Exhaustion) and where to take it from, or else closing in on the nearest
//! enemy at the preferred range.
//!
//! Apart from the policy because it is the bulk of the heuristic and the one decision that
//! weighs many plans; the squares it looks at come from `scan`.

use super::aim::*;
use super::scan::*;
use super::*;

impl Heuristic {
    /// The turn's decision, with the scan of its squares.
    pub(super) fn plan_turn(&mut self, s: &State, me: Cid, here: Pos, scan: &mut Scan) -> Option<Choice> {
        let mut best = Best::default();
        let c = s.ch(me);
        // Exhaustion: Recover when it ends Exhaustion (and so the Incapacity Roll). When only
        // attacks call for that roll (incapacity-after-any-action = false, THR-R167), a Recover
        // that leaves the character Exhausted only puts the roll off: taken every turn it would
        // keep a character that is far past its Tolerance up for good, and the fight would never
        // end, so it is not considered then.
        if c.exhausted() {
            if let Some(id) = s.setup.book.find("recover")
                && calc::has_ability(s, me, id)
                && (c.fatigue == c.ft + 1 || s.options.incapacity_after_any_action)
            {
                let action = Action {
                    ability: id,
                    target: Target::None,
                    pick: Pick {
                        option: Some(0),
                        ..Pick::default()
                    },
                    overexert: None,
                };
                let score = if c.fatigue == c.ft + 1 { 5.0 } else { 1.2 };
                best.consider(Intent {
                    score,
                    from: here,
                    action,
                    plan: None,
                });
            }
        } else if c.frayed()
            && let Some(id) = s.setup.book.find("recover")
            && calc::has_ability(s, me, id)
        {
            let action = Action {
                ability: id,
                target: Target::None,
                pick: Pick {
                    option: Some(1),
                    ..Pick::default()
                },
                overexert: None,
            };
            best.consider(Intent {
                score: 0.7,
                from: here,
                action,
                plan: None,
            });
        }
        self.utility(s, me, scan, &mut best);
        for &id in legal::abilities_of(s, me) {
            let a = s.setup.book.get(id);
            if a.kind != Kind::Action {
                continue;
            }
            match &a.target {
                TargetSpec::IncapacitatedAlly | TargetSpec::IncapacitatedEnemy => {
                    let ally = matches!(a.target, TargetSpec::IncapacitatedAlly);
                    for t in s.ids() {
                        let ok = if ally { s.allies(me, t) } else { s.enemies(me, t) };
                        if !ok || !s.ch(t).incapacitated || s.ch(t).removed {
                            continue;
                        }
                        let score = if ally { 2.5 } else { 3.0 };
                        if !best.bettered_by(score) {
                            continue;
                        }
                        let action = Action {
                            ability: id,
                            target: Target::Chars([t].into_iter().collect()),
                            pick: Pick::default(),
                            overexert: None,
                        };
                        if let Some((from, plan)) = from_square(s, me, scan, &action) {
                            best.consider(Intent {
                                score,
                                from,
                                action,
                                plan,
                            });
                        }
                    }
                }
                _ if a.is_attack() => self.attacks(s, me, id, scan, &mut best),
                _ => {}
            }
        }
        if let Some(intent) = best.0 {
            if intent.from != here {
                self.planned = Some((s.round, me, s.uses, intent.from, intent.action));
                // `intent.from` is one of this decision's reachable squares.
                return Some(scan.move_to(s, intent.from));
            }
            // An Action from here: its plan when the decision checked it here already.
            let act = Command::Act(intent.action);
            return Some(match intent.plan {
                Some(plan) => Choice::Planned(Answer::new(act, plan)),
                None => act.into(),
            });
        }
        // Nothing to do from here: close in, or Dash when that helps.
        if let Some((here, want, now)) = closing(s, me)
            && let Some(to) = closest(s, me, here, want, now, scan.all_squares())
        {
            return Some(scan.move_to(s, to));
        }
        if let Some(id) = s.setup.book.find("dash")
            && nearest_enemy_distance(s, me, here) > preferred_range(s, me)
        {
            let action = Action {
                ability: id,
                target: Target::None,
                pick: Pick::default(),
                overexert: None,
            };
            let dash = Command::Act(action);
            if let Some(plan) = check::plan_of(s, &dash) {
                return Some(Choice::Planned(Answer::new(dash, plan)));
            }
        }
        Some(stance(s, me))
    }

    /// Actions that are not attacks: Buffs on allies in melee, Terrain Effects on enemies,
    /// hiding when no foe is near.
    pub(super) fn utility(&mut self, s: &State, me: Cid, scan: &mut Scan, best: &mut Best) {
        let here = match s.ch(me).pos {
            Some(p) => p,
            None => return,
        };
        for &id in legal::abilities_of(s, me) {
            let a = s.setup.book.get(id);
            if a.kind != Kind::Action || a.is_attack() {
                continue;
            }
            if a.buff_spec.is_some() {
                // The ally (or self) in melee with no Buff, nearest first.
                let mut chosen: Option<(f64, Action, Pos, Option<Plan>)> = None;
                for t in s
                    .ids()
                    .filter(|&t| (t == me || s.allies(me, t)) && s.ch(t).able() && s.ch(t).buff.is_none())
                {
                    let Some(tp) = s.ch(t).pos else { continue };
                    let threat = adjacent_enemies_at(s, t, tp) as f64;
                    if threat == 0.0 {
                        continue;
                    }
                    let action = Action {
                        ability: id,
                        target: Target::Chars([t].into_iter().collect()),
                        pick: Pick::default(),
                        overexert: None,
                    };
                    let score = 0.6 + 0.2 * threat;
                    // A Buff no better than the plan in hand, or than the ally chosen so far,
                    // is not chosen wherever it could be given from.
                    if !best.bettered_by(score) || chosen.as_ref().is_some_and(|b| score <= b.0) {
                        continue;
                    }
                    if let Some((from, plan)) = from_square(s, me, scan, &action) {
                        chosen = Some((score, action, from, plan));
                    }
                }
                if let Some((score, action, from, plan)) = chosen {
                    best.consider(Intent {
                        score,
                        from,
                        action,
                        plan,
                    });
                }
                continue;
            }
            if let Some(spec) = &a.terrain {
                // Not when this character already keeps an effect of the same ability up.
                if s.terrain.iter().any(|t| t.creator == me && t.ability == id) {
                    continue;
                }
                let enemies: Vec<Pos> = s
                    .ids()
                    .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                    .filter_map(|e| s.ch(e).pos)
                    .collect();
                let allies_hurt = matches!(spec.affects, crate::ability::Affects::All);
                let candidates = match a.target {
                    TargetSpec::Aura(_) => vec![placement(id, Target::None)],
                    _ => placements(s, me, id, enemies.iter().copied()),
                };
                let aura = matches!(a.target, TargetSpec::Aura(_));
                // The score of a placement covering `sq`: enemies caught in it or next to it,
                // allies caught in it when it hurts them.
                let score_of = |sq: &[Pos]| {
                    let caught = enemies
                        .iter()
                        .filter(|e| sq.contains(e) || sq.iter().any(|q| chebyshev(*q, **e) == 1))
                        .count() as f64;
                    let own = if allies_hurt {
                        s.ids()
                            .filter(|&o| s.allies(me, o))
                            .filter_map(|o| s.ch(o).pos)
                            .filter(|p| sq.contains(p))
                            .count() as f64
                    } else {
                        0.0
                    };
                    0.35 * caught - 0.5 * own
                };
                for action in candidates {
                    // Only an Aura's squares depend on where it is made from: any other
                    // placement's score is known first, and one that cannot be taken (too low,
                    // or no better than the plan in hand) is not looked for a square for.
                    let early =
                        (!aura).then(|| score_of(&check::shape_squares(s, me, &action, here).unwrap_or_default()));
                    if early.is_some_and(|score| score <= 0.3 || !best.bettered_by(score)) {
                        continue;
                    }
                    let Some((from, _)) = from_square(s, me, scan, &action) else {
                        continue;
                    };
                    let score = match early {
                        Some(score) => score,
                        None => score_of(&check::shape_squares(s, me, &action, from).unwrap_or_default()),
                    };
                    if score > 0.3 {
                        // Keep up an upkeep Overexert only while it cannot fray the user.
                        let over = a
                            .overexert
                            .iter()
                            .position(|o| o.upkeep)
                            .filter(|_| s.ch(me).stress + s.options.overexert_stress < s.ch(me).st);
                        let action = Action {
                            overexert: over.map(|i| i as u8),
                            ..action
                        };
                        // The Overexert may change the check: the Action is checked again here.
                        let plan = if from == here {
                            check::plan_of(s, &Command::Act(action.clone()))
                        } else {
                            None
                        };
                        if plan.is_some() || from != here {
                            best.consider(Intent {
                                score,
                                from,
                                action,
                                plan,
                            });
                        }
                    }
                }
                continue;
            }
            // Hiding (Slip Away): only when no foe is close.
            let hides = a
                .effect
                .iter()
                .any(|l| matches!(l.op, Op::Condition(crate::ability::Cond::Hidden)));
            if hides && !s.ch(me).has(crate::ability::Cond::Hidden) && nearest_enemy_distance(s, me, here) > 2 {
                let action = Action {
                    ability: id,
                    target: Target::None,
                    pick: Pick::default(),
                    overexert: None,
                };
                if let Some(plan) = check::plan_of(s, &Command::Act(action.clone())) {
                    best.consider(Intent {
                        score: 0.5,
                        from: here,
                        action,
                        plan: Some(plan),
                    });
                }
            }
        }
    }

    pub(super) fn attacks(&mut self, s: &State, me: Cid, id: u16, scan: &mut Scan, best: &mut Best) {
        let a = s.setup.book.get(id);
        let (hit_dmg, crit_dmg) = damage(s, me, a);
        let value = |t: Cid, odds: &ContestOdds| -> f64 {
            let ch = s.ch(t);
            let mut v = odds.attacker_success * hit_dmg + odds.attacker_critical * crit_dmg;
            // Finishing an Exhausted target, or pushing one over its Tolerance, is worth more.
            if a.finisher && (ch.exhausted() || ch.fatigue as f64 + hit_dmg > ch.ft as f64) {
                v *= FINISHER_WEIGHT;
            }
            if ch.incapacitated {
                v *= 0.1;
            }
            v
        };
        if a.target.is_shape() {
            // Areas: try placements that cover each enemy; friendly fire counts against.
            let foes = s
                .ids()
                .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                .filter_map(|e| s.ch(e).pos);
            for action in placements(s, me, id, foes) {
                // Who a placement catches, and so its score, does not depend on the square
                // it is made from: one not worth taking is not placed.
                let Ok(hit) = action_targets(s, me, &action) else {
                    continue;
                };
                let mut score = 0.0;
                for &t in &hit {
                    let odds = scan.odds(s, me, a, t);
                    let v = value(t, &odds);
                    score += if s.enemies(me, t) { v } else { -1.5 * v.max(0.5) };
                }
                let worth_placing = score > 0.05 && best.bettered_by(score);
                if !worth_placing {
                    continue;
                }
                let Some((from, plan)) = from_square(s, me, scan, &action) else {
                    continue;
                };
                best.consider(Intent {
                    score,
                    from,
                    action,
                    plan,
                });
            }
            return;
        }
        // Against any target the attack is worth at most its better outcome (a hit or a
        // critical, times `FINISHER_WEIGHT` for a Finisher): when that cannot beat the plan in
        // hand, no target's odds are worked out. The small margin covers rounding in the
        // weighted sum of `value`.
        let ceiling = hit_dmg.max(crit_dmg).max(0.0) * if a.finisher { FINISHER_WEIGHT } else { 1.0 };
        if !best.bettered_by(ceiling + 1e-6) {
            return;
        }
        for t in s.ids() {
            if !s.enemies(me, t) || !check::targetable(s, t) || s.ch(t).incapacitated {
                continue;
            }
            let target = match a.target {
                TargetSpec::Enemy | TargetSpec::Character | TargetSpec::UpToEnemies(_) => {
                    Target::Chars([t].into_iter().collect())
                }
                TargetSpec::AllEnemies => Target::None,
                _ => continue,
            };
            // The attack's worth against `t` is known before any square is looked at; a
            // square can only lower it (a Ranged user next to enemies), so an attack worth no
            // more than the plan in hand is passed over.
            let odds = scan.odds(s, me, a, t);
            let worth = value(t, &odds);
            if !best.bettered_by(worth) {
                continue;
            }
            let mut picks = legal::pick_candidates(s, me, id, &target);
            picks.sort_by_key(|p| pick_rank(s, a, t, p));
            for pick in picks {
                let action = Action {
                    ability: id,
                    target: target.clone(),
                    pick,
                    overexert: None,
                };
                let Some((from, plan)) = from_square(s, me, scan, &action) else {
                    continue;
                };
                let mut score = worth;
                // Ranged attacks in melee take Banes: the square choice already counted them
                // for the current square; prefer not to stand next to enemies.
                if a.ranged && from != s.ch(me).pos.unwrap_or(from) {
                    score -= 0.05 * adjacent_enemies_at(s, me, from) as f64;
                }
                best.consider(Intent {
                    score,
                    from,
                    action,
                    plan,
                });
                break;
            }
        }
    }

    /// A move toward the nearest enemy when it is farther than the preferred range, after the
    /// Action (the only move of the decision, so its squares are searched here): with the path
    /// read off that search when a `move` is open now (as [`Scan::move_to`]).
    pub(super) fn close_in(&mut self, s: &State, me: Cid) -> Option<Choice> {
        let (here, want, now) = closing(s, me)?;
        let Some(mut reach) = check::LevelReach::new(s, me, &mut self.memory.levels) else {
            let found = check::reachable(s, me, &mut self.scratch);
            return closest(s, me, here, want, now, &found).map(|to| Command::Move(to).into());
        };
        let mut squares = Vec::new();
        while reach.next_level(&mut squares) {}
        let choice = closest(s, me, here, want, now, &squares).map(|to| match reach.move_plan(to) {
            Some(plan) if check::may_move(s) => Choice::Planned(Answer::new(Command::Move(to), plan)),
            _ => Command::Move(to).into(),
        });
        self.memory.levels = reach.into_memory();
        choice
    }
}

/// Whether `me` would close in on the nearest enemy at all: it has movement left and stands
/// farther than its preferred range. Where it stands, that range and the distance now.
pub(super) fn closing(s: &State, me: Cid) -> Option<(Pos, i16, i16)> {
    let here = s.ch(me).pos?;
    if check::movement_left(s) <= 0 {
        return None;
    }
    let want = preferred_range(s, me);
    let now = nearest_enemy_distance(s, me, here);
    (now > want).then_some((here, want, now))
}

/// The square of `squares` (reachable ones, with their costs) a move closing in goes to, when
/// one is nearer the preferred range than `here` (see [`closing`]): the nearest, then the
/// cheapest, then the first in grid order.
pub(super) fn closest(s: &State, me: Cid, here: Pos, want: i16, now: i16, squares: &[(Pos, u32)]) -> Option<Pos> {
    let best = squares
        .iter()
        .copied()
        .filter(|(p, _)| *p != here)
        .map(|(p, c)| ((nearest_enemy_distance(s, me, p) - want).max(0), c, p))
        .min_by_key(|(d, c, p)| (*d, *c, p.y, p.x))?;
    ((best.0) < (now - want)).then_some(best.2)
}

pub(super) fn adjacent_enemies_at(s: &State, me: Cid, p: Pos) -> usize {
    s.ids()
        .filter(|&e| s.enemies(me, e) && s.ch(e).able() && s.ch(e).pos.is_some_and(|q| chebyshev(p, q) == 1))
        .count()
}

pub(super) fn nearest_enemy_distance(s: &State, me: Cid, p: Pos) -> i16 {
    s.ids()
        .filter(|&e| s.enemies(me, e) && s.ch(e).able())
        .filter_map(|e| s.ch(e).pos)
        .map(|q| calc::distance(s, p, q))
        .min()
        .unwrap_or(0)
}

/// The range the character likes to fight at: its longest attack range if all its own attacks
/// are Ranged, otherwise 1.
pub(super) fn preferred_range(s: &State, me: Cid) -> i16 {
    let own: Vec<&Ability> = s
        .info(me)
        .abilities
        .iter()
        .map(|a| s.setup.book.get(*a))
        .filter(|a| a.is_attack())
        .collect();
    if !own.is_empty() && own.iter().all(|a| a.ranged) {
        own.iter().filter_map(|a| range_of(s, me, a)).max().unwrap_or(1).max(1)
    } else {
        1
    }
}
