//! The built-in AI (`fray run`, `heuristic` in `fray sim`). It decides from its seat's view: of
//! other creatures it reads positions, gauges and conditions (open to every seat), never a
//! declaration its seat has not seen ([`crate::view::known_declaration`]).
//!
//! - Declaring: stabilise a Dying or Incapacitated ally (never a foe) within reach of a short walk if it has
//!   a Heal bonus; lie still when down itself (acting would cost a Wound Point); out of Stress
//!   and hurt, drink a restorative it carries; out of Stress with two foes close, full defence
//!   on even rounds;
//!   otherwise cast a damage spell it can pay from Mana at the nearest foe still fighting if that
//!   foe is beyond its melee reach, or attack it with the weapon of the best expected damage (a
//!   ranged weapon only when the foe is beyond melee reach); a weapon out of hand that would do
//!   better (or the only one left) is first drawn, as the Free action (HAL-R17). It declares
//!   for the creature due by default, from that creature's declarations alone (the legal list
//!   holds every creature the seat may declare for, which would cost time for nothing).
//! - Its turn: its declared draw first; take the declared action when it can; otherwise walk
//!   to the square nearest the target (by walking distance), then act; otherwise end the turn.
//!   Its moves are the squares of the one search the legal list takes them from
//!   ([`moves::move_reach`]), made only when it would move, and the move it takes has the plan
//!   that search gives it.
//! - A Reposte: always, with the first weapon listed. An injury table: the first listed.

use crate::HallowedEarth;
use crate::actions::{moves, weapons};
use crate::check;
use crate::command::Command;
use crate::flow;
use crate::movement;
use crate::odds;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Action, Cap, Free, State, Turn};
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy, Seat};
use fray_space::{DiagonalScratch, PathScratch, Pos, reach};

/// The heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    legal: Vec<Answer<HallowedEarth>>,
    scratch: PathScratch,
    moves: DiagonalScratch,
}

impl Policy<HallowedEarth> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, HallowedEarth>, _: &mut Prng) -> Option<Answer<HallowedEarth>> {
        // It picks from the legal list, which it lists itself (its moves from the one search
        // that lists them): the answer listed, with the plan the check gave it. The list is
        // made on the state as its seat knows it: with something masked there, the rules check
        // the pick on the real one.
        let view = d.view();
        let answer = self.pick(d, &view)?;
        if view.masked() {
            d.answer(answer.command).ok()
        } else {
            Some(answer)
        }
    }

    fn name(&self) -> &str {
        "heuristic"
    }
}

/// The commands of the legal answers, in their order.
fn commands(legal: &[Answer<HallowedEarth>]) -> impl Iterator<Item = &Command> {
    legal.iter().map(|a| &a.command)
}

impl Heuristic {
    /// The listed answer of `c`, or (a command it names that is not listed) the check's.
    fn take(&mut self, d: &Decision<'_, HallowedEarth>, c: Command) -> Option<Answer<HallowedEarth>> {
        match self.legal.iter().position(|a| a.command == c) {
            Some(i) => Some(self.legal.swap_remove(i)),
            None => d.answer(c).ok(),
        }
    }

    fn pick(&mut self, d: &Decision<'_, HallowedEarth>, s: &State) -> Option<Answer<HallowedEarth>> {
        self.legal.clear();
        let st = stage(s)?;
        match st {
            Stage::Declare { .. } => {
                // A declaration: only the creature due by default is considered (the seat may
                // declare its others first, but listing them all would cost time for nothing).
                if let Some(who) = flow::default_declarer(s, d.seat()) {
                    check::declarations(s, d.seat(), &st, who, false, &mut self.legal);
                    if !self.legal.is_empty() {
                        let c = self.declare(s, d.seat());
                        return self.take(d, c);
                    }
                }
                check::answers(s, d.seat(), &st, false, &mut self.legal);
                if commands(&self.legal).any(|c| matches!(c, Command::Declare { .. })) {
                    let c = self.declare(s, d.seat());
                    return self.take(d, c);
                }
            }
            Stage::Turn(t) => {
                // The moves of a turn are found when it would move (`turn`), not listed.
                check::answers(s, d.seat(), &st, false, &mut self.legal);
                return self.turn(d, s, t);
            }
            Stage::Reposte { .. } | Stage::Injury { .. } => check::answers(s, d.seat(), &st, false, &mut self.legal),
        }
        (!self.legal.is_empty()).then(|| self.legal.swap_remove(0))
    }

    fn declare(&mut self, s: &State, seat: Seat) -> Command {
        let Some(Command::Declare { who, .. }) = commands(&self.legal).next().cloned() else {
            return Command::End;
        };
        let me = s.ch(who);
        let pick = |want: &dyn Fn(&Action) -> bool, legal: &[Answer<HallowedEarth>]| {
            commands(legal).find_map(|c| match c {
                Command::Declare { action, .. } if want(action) => Some(c.clone()),
                _ => None,
            })
        };
        // Stabilise a fallen ally nearby.
        if s.stats(who).heal > 0 {
            let near = |t: Cid| !s.hostile(who, t) && s.distance(who, t) <= moves::move_budget(s, who, None) / 2 + 1;
            if let Some(c) = pick(&|a| matches!(a, Action::Heal { target } if near(*target)), &self.legal) {
                return c;
            }
        }
        // Down: any action would cost a Wound Point (HAL-R29): lie still.
        if me.wp <= 0
            && let Some(c) = pick(&|a| *a == Action::Move, &self.legal)
        {
            return c;
        }
        let st = s.stats(who);
        // Out of Stress and hurt: drink a restorative if it carries one.
        if me.stress == 0
            && me.wp < s.wp_max(who)
            && let Some(c) = pick(
                &|a| matches!(a, Action::Use { target, .. } if *target == who),
                &self.legal,
            )
        {
            return c;
        }
        // Out of Stress with two or more foes within reach: full defence (HAL-R14), every
        // second round (so that two such sides cannot guard for ever).
        let close = s
            .ids()
            .filter(|&c| s.hostile(who, c) && s.fighting(c) && s.distance(who, c) <= weapons::threat_range(s, c).max(1))
            .count();
        if me.stress == 0
            && close >= 2
            && s.round.is_multiple_of(2)
            && let Some(c) = pick(&|a| *a == Action::FullDefense, &self.legal)
        {
            return c;
        }
        // The nearest foe still fighting.
        let foe = s
            .ids()
            .filter(|&c| s.hostile(who, c) && s.fighting(c))
            .min_by_key(|&c| (s.distance(who, c), s.ch(c).wp, c));
        if let Some(f) = foe {
            let dist = s.distance(who, f);
            // A damage spell paid from Mana alone at a foe beyond melee reach.
            let spell = |a: &Action| match *a {
                Action::Cast {
                    spell,
                    target,
                    stress: None,
                } if target == f => st
                    .spells
                    .get(usize::from(spell))
                    .is_some_and(|sp| sp.damage.is_some() && sp.mana <= me.mana && s.options.squares(sp.range) >= dist),
                _ => false,
            };
            if dist > weapons::threat_range(s, who).max(1)
                && let Some(c) = pick(&spell, &self.legal)
            {
                return c;
            }
            // An attack on the foe with weapon `w`, valued.
            let score = |w: u8| -> Option<i64> {
                let weapon = s.stats(who).weapons.get(usize::from(w))?;
                let reach = weapons::weapon_reach(s, weapon, false);
                // A ranged weapon is for a foe out of melee reach; a melee one for any foe.
                if weapon.ranged() && dist <= weapons::threat_range(s, who) {
                    return None;
                }
                let o = odds::attack(&odds::of(s, who, f, weapon, false), &s.options).ok()?;
                let score = ((o.expected_stress + 3.0 * o.expected_wp) * 1000.0) as i64;
                let in_reach = i64::from(reach >= dist);
                Some(in_reach * 1_000_000 + score)
            };
            let value = |c: &Command| -> Option<(i64, u8)> {
                match c {
                    Command::Declare {
                        action: Action::Attack { target, weapon },
                        ..
                    } if *target == f => score(*weapon).map(|v| (v, *weapon)),
                    _ => None,
                }
            };
            let best = commands(&self.legal)
                .filter_map(|c| value(c).map(|v| (v, c)))
                .max_by_key(|((v, w), _)| (*v, std::cmp::Reverse(*w)));
            // HAL-R17: a weapon out of hand that would do better than any in hand (or the only
            // one left) is drawn first, as the Free action; the attack with it comes next.
            if s.options.free_actions && me.away != 0 && me.declared_free.is_none() {
                let draw = (0..st.weapons.len().min(16) as u8)
                    .filter(|w| me.away & (1 << w) != 0)
                    .filter_map(|w| {
                        let c = Command::DeclareFree {
                            who,
                            free: Free::Draw { weapon: w },
                        };
                        check::check(s, seat, &c).ok()?;
                        score(w).map(|v| (v, w, c))
                    })
                    .max_by_key(|(v, w, _)| (*v, std::cmp::Reverse(*w)));
                if let Some((v, _, c)) = draw
                    && best.is_none_or(|((b, _), _)| v > b)
                {
                    return c;
                }
            }
            if let Some((_, c)) = best {
                return c.clone();
            }
        }
        pick(&|a| *a == Action::Move, &self.legal).unwrap_or_else(|| self.legal[0].command.clone())
    }

    fn turn(&mut self, d: &Decision<'_, HallowedEarth>, s: &State, t: Turn) -> Option<Answer<HallowedEarth>> {
        let who = t.who;
        let listed = |legal: &[Answer<HallowedEarth>], c: &Command| commands(legal).any(|x| x == c);
        // HAL-R17: the declared Free action (a draw) first, so that the attack can use it.
        if listed(&self.legal, &Command::Free) {
            return self.take(d, Command::Free);
        }
        if listed(&self.legal, &Command::Act(None)) {
            return self.take(d, Command::Act(None));
        }
        let action = s.acts[usize::from(t.act)].action;
        // With retarget on and the target gone, the nearest foe in reach.
        if let Some(i) = self
            .legal
            .iter()
            .position(|a| matches!(a.command, Command::Act(Some(_))))
        {
            return Some(self.legal.swap_remove(i));
        }
        let goal = match action {
            Action::FullDefense | Action::Move | Action::Flee => None,
            _ if t.acted => None,
            a => a.target().filter(|&x| !s.ch(x).gone()),
        };
        // A crawler that would strain itself or a Dying one that must choose: no move.
        if s.cap_now(who) == Cap::Dying {
            return self.take(d, Command::End);
        }
        let Some(goal) = goal else {
            return self.take(d, Command::End);
        };
        // Walking distances from the goal, through open squares (its own square taken).
        let step = |_: Pos, b: Pos| s.open(b).then_some(1);
        let r = reach(&s.setup.map, s.ch(goal).at, u32::MAX, step, |_| true, &mut self.scratch);
        let far = |p: Pos| r.cost_to(p).unwrap_or(u32::MAX);
        let here = far(s.ch(who).at);
        // The moves are the squares of the one search that lists them (`check::legal`), and
        // the move it takes has the plan that search gives it.
        let at = s.ch(who).at;
        if let Some(moves) = moves::move_reach(s, &t, &mut self.moves) {
            let best = moves
                .destinations()
                .filter(|(p, _)| *p != at)
                .map(|(p, _)| (far(p), p))
                .min();
            if let Some((dist, p)) = best
                && dist < here
                && let Some(plan) = movement::walk_plan(&moves, p)
            {
                return Some(Answer::new(Command::Move(p), plan));
            }
        }
        self.take(d, Command::End)
    }
}
