//! The built-in AI (`fray run`, `heuristic` in `fray sim`). It picks from the legal list and
//! looks at the fight only through its seat's view: characters hidden from it (MUR-R57) do not
//! exist for it.
//!
//! - Opening a phase: its own faction first.
//! - A faction's opportunity: the first of its characters that can attack a foe it sees, else
//!   the first that can act; it passes only when nobody can act.
//! - A turn: break free when held; drink a healing draught below a third of its health; attack
//!   the weakest foe in reach (no to-hit save if it can help it), running first when no foe is
//!   in reach and the main action is free; else step toward the nearest foe; end.
//! - Reactions: counter when it can, else dodge when its AGI is 9 or more, else take it;
//!   opportunity attacks whenever offered; never guards or stands in; refuses stunts; as GM,
//!   approves them. After a failed morale check it retreats.

use crate::Murdham;
use crate::check::plan;
use crate::command::{Aim, Command};
use crate::data::{Ability, Keyword};
use crate::setup::Cid;
use crate::state::{Frame, Mode, State, With};
use crate::view::View;
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};

/// The heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    legal: Vec<Command>,
}

impl Policy<Murdham> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Murdham>, _: &mut Prng) -> Option<Answer<Murdham>> {
        // It picks from the legal list, which it lists itself.
        self.pick(d).map(|c| Answer::new(c, ()))
    }

    fn name(&self) -> &str {
        "heuristic"
    }
}

impl Heuristic {
    fn pick(&mut self, d: &Decision<'_, Murdham>) -> Option<Command> {
        self.legal.clear();
        let v = d.view();
        crate::check::legal(&v, &mut self.legal);
        let legal = &self.legal;
        let first = legal.first().cloned();
        if let Some(f) = v.frames.last() {
            return Some(answer(&v, f, legal)).or(first);
        }
        if v.opening {
            let mine = legal.iter().find(|c| match c {
                Command::Open(side) => v.setup.sides[*side as usize].seat == v.seat(),
                _ => false,
            });
            return mine.or(legal.first()).cloned();
        }
        let Some(t) = &v.turn else {
            return pick(&v, legal).or(first);
        };
        turn(&v, t.who, legal).or(first)
    }
}

/// The foes `who`'s seat sees, still fighting.
fn foes<'a>(v: &'a View<'_>, who: Cid) -> impl Iterator<Item = Cid> + 'a {
    let side = v.ch(who).side;
    v.visible().filter(move |&c| v.ch(c).side != side && v.ch(c).up())
}

/// A faction's pick: who can hit a foe now, else whoever can act.
fn pick(v: &View<'_>, legal: &[Command]) -> Option<Command> {
    let acts: Vec<Cid> = legal
        .iter()
        .filter_map(|c| match c {
            Command::Act(w) => Some(*w),
            _ => None,
        })
        .collect();
    let can_hit = |w: Cid| {
        foes(v, w).any(|f| {
            plan(
                v,
                w,
                Aim::At(f),
                crate::command::default_with(v, w),
                Mode::Harm { hold: false },
                false,
                false,
            )
            .is_ok()
        })
    };
    acts.iter()
        .find(|&&w| can_hit(w))
        .or(acts.first())
        .map(|&w| Command::Act(w))
        .or_else(|| legal.iter().find(|c| **c == Command::Pass).cloned())
}

/// Health a foe has left, to pick the weakest.
fn health(s: &State, c: Cid) -> i32 {
    s.ch(c).health
}

fn turn(v: &View<'_>, who: Cid, legal: &[Command]) -> Option<Command> {
    let me = v.ch(who);
    let has = |c: &Command| legal.contains(c);
    if me.grabbed_by.is_some() {
        return [Command::BreakFree, Command::End].into_iter().find(has);
    }
    // Heal when low.
    if me.health * 3 <= me.stats.max_health()
        && let Some(c) = legal.iter().find(|c| {
            matches!(c, Command::Use { item, on: None } if me.item(*item).and_then(|i| v.setup.item(&i.id)).is_some_and(|d| d.heal > 0))
        })
    {
        return Some(c.clone());
    }
    // Attack the weakest visible foe, preferring no save and the main weapon.
    let mut best: Option<(i32, &Command)> = None;
    for c in legal {
        let Command::Attack {
            aim: Aim::At(t),
            with,
            mode: Mode::Harm { hold: false },
            sweep: false,
            stunt: None,
        } = c
        else {
            continue;
        };
        if !v.sees(*t) || !v.ch(*t).up() || v.ch(*t).side == me.side {
            continue;
        }
        let Ok(p) = plan(v, who, Aim::At(*t), *with, Mode::Harm { hold: false }, false, false) else {
            continue;
        };
        let spent = matches!(with, With::Item(i) if me.item(*i).and_then(|it| v.setup.item(&it.id)).is_some_and(|d| d.has(Keyword::Consumable)));
        let score =
            -health(v, *t) * 4 + i32::from(p.profile.die) - if p.save { 8 } else { 0 } - if spent { 6 } else { 0 }
                + if *with == With::Unarmed { -3 } else { 0 };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    // A blast where it hits the most foes and none of its own side.
    for c in legal {
        let Command::Attack {
            aim: Aim::Place(p),
            with,
            mode: Mode::Harm { hold: false },
            sweep,
            stunt: None,
        } = c
        else {
            continue;
        };
        let Ok(plan) = plan(v, who, Aim::Place(*p), *with, Mode::Harm { hold: false }, *sweep, false) else {
            continue;
        };
        let hit: Vec<Cid> = crate::check::blast_victims(v, who, *p, !plan.ranged, *sweep, plan.profile.indirect)
            .into_iter()
            .filter(|&x| v.sees(x) && v.ch(x).up())
            .collect();
        let foes_hit = hit.iter().filter(|&&x| v.ch(x).side != me.side).count() as i32;
        let friends_hit = hit.iter().filter(|&&x| v.ch(x).side == me.side).count() as i32;
        if foes_hit == 0 || friends_hit > 0 {
            continue;
        }
        let score = foes_hit * 12 + i32::from(plan.profile.die) - if plan.save { 8 } else { 0 } - 10;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    if let Some((_, c)) = best {
        return Some(c.clone());
    }
    // A shooter holds its place once its main action is spent, and while in cover.
    let shooter = me.hands.iter().flatten().any(|&i| {
        me.item(i)
            .and_then(|it| v.setup.item(&it.id))
            .is_some_and(|d| d.range > 0 && !d.has(Keyword::Consumable))
    });
    if shooter && (v.turn.as_ref().is_some_and(|t| t.main) || me.cover) && foes(v, who).next().is_some() {
        return Some(Command::End);
    }
    // Close in on the nearest foe it sees.
    let zones = &v.setup.zones;
    let nearest = foes(v, who).min_by_key(|&f| me.at.range(v.ch(f).at, zones).unwrap_or(u8::MAX));
    if let Some(f) = nearest {
        let goal = v.ch(f).at;
        let now = me.at.range(goal, zones).unwrap_or(u8::MAX);
        let step = legal.iter().find(|c| match c {
            Command::Move { to, sneak } => {
                *sneak == me.concealed
                    && (to.range(goal, zones).unwrap_or(u8::MAX) < now
                        || (me.at.is_border() && to.range(goal, zones) == Some(now) && !to.is_border()))
            }
            _ => false,
        });
        if let Some(c) = step {
            return Some(c.clone());
        }
        // Sneaking not possible: a plain step.
        let plain = legal.iter().find(|c| match c {
            Command::Move { to, sneak: false } => to.range(goal, zones).unwrap_or(u8::MAX) < now,
            _ => false,
        });
        if let Some(c) = plain {
            return Some(c.clone());
        }
        if now > 0 && has(&Command::Run) {
            return Some(Command::Run);
        }
    }
    // Pick a weapon up into an empty hand.
    if let Some(c) = legal.iter().find(|c| {
        matches!(c, Command::Equip { item, off: false } if me.item(*item).and_then(|i| v.setup.item(&i.id)).is_some_and(|d| d.is_weapon() && !d.has(Keyword::Consumable)))
    }) {
        return Some(c.clone());
    }
    Some(Command::End)
}

fn answer(v: &View<'_>, f: &Frame, legal: &[Command]) -> Command {
    let first = || legal.first().cloned().unwrap_or(Command::Take);
    match f {
        Frame::Attack(a) => {
            if legal.contains(&Command::Approve) {
                return Command::Approve;
            }
            if legal.contains(&Command::Refuse) {
                return Command::Refuse;
            }
            if legal.contains(&Command::Decline) {
                return Command::Decline;
            }
            let me = v.ch(a.target);
            // The counter with the best weapon: the largest die, unimpaired.
            let best = legal
                .iter()
                .filter_map(|c| match c {
                    Command::Counter {
                        with,
                        mode: Mode::Harm { hold: false },
                    } => crate::check::profile(v, a.target, *with)
                        .ok()
                        .map(|p| (i32::from(p.die) - if p.impaired { 4 } else { 0 }, c)),
                    _ => None,
                })
                .max_by_key(|(score, _)| *score);
            if let Some((_, c)) = best {
                return c.clone();
            }
            if legal.contains(&Command::Dodge) && me.ability(Ability::Agi) >= 9 {
                return Command::Dodge;
            }
            if legal.contains(&Command::Take) {
                return Command::Take;
            }
            first()
        }
        Frame::Step(_) => legal
            .iter()
            .find(|c| matches!(c, Command::Opportunity(_)))
            .cloned()
            .unwrap_or(Command::Decline),
        Frame::Morale { .. } => Command::Retreat,
    }
}
