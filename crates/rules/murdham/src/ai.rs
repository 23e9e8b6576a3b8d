//! The built-in AI (`fray run`, `heuristic` in `fray sim`). It picks from the legal list and
//! looks at the fight only through its seat's view: characters hidden from it (MUR-R57) do not
//! exist for it.
//!
//! - Opening a phase: its own faction first (the first one it plays a character of).
//! - A faction's opportunity: the first of its characters that can attack a foe it sees, else
//!   the first that can act; it passes only when nobody can act.
//! - A turn: break free when held; drink a healing draught below a third of its health; attack
//!   the weakest foe in reach (no to-hit save if it can help it), running first when no foe is
//!   in reach and the main action is free; else step toward the nearest foe; end.
//! - Reactions: counter when it can, else dodge when its AGI is 9 or more, else take it;
//!   opportunity attacks whenever offered; never guards or stands in; refuses stunts; as GM,
//!   approves them. After a failed morale check it retreats.

use crate::Murdham;
use crate::check::{Plan, plan};
use crate::command::{Aim, Command};
use crate::data::{Ability, Keyword};
use crate::setup::Cid;
use crate::state::{Frame, Mode, State, With};
use crate::view::Sight;
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};

/// The heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    legal: Vec<Answer<Murdham>>,
}

impl Policy<Murdham> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Murdham>, _: &mut Prng) -> Option<Answer<Murdham>> {
        // It picks from the legal list, which it lists itself, and hands back the answer listed
        // there with its plan; a command the list does not hold goes through the rules check.
        // The list is made on the state as the seat knows it: when something is masked there,
        // the rules check the pick on the real one.
        let seen = d.view();
        let masked = seen.masked();
        match self.pick(d, &seen)? {
            Choice::Listed(i) if !masked => Some(self.legal.swap_remove(i)),
            Choice::Listed(i) => d.answer(self.legal.swap_remove(i).command).ok(),
            Choice::Own(c) => d.answer(c).ok(),
        }
    }

    fn name(&self) -> &str {
        "heuristic"
    }
}

/// What the AI chose.
enum Choice {
    /// The answer at this place in its legal list.
    Listed(usize),
    /// A command its legal list does not hold.
    Own(Command),
}

/// Where the legal list holds `c`, if it does.
fn listed(legal: &[Answer<Murdham>], c: &Command) -> Option<usize> {
    legal.iter().position(|a| a.command == *c)
}

/// `c` as a choice: the listed answer when the legal list holds it.
fn choice(legal: &[Answer<Murdham>], c: Command) -> Choice {
    match listed(legal, &c) {
        Some(i) => Choice::Listed(i),
        None => Choice::Own(c),
    }
}

/// The first legal answer, if there is one.
fn first(legal: &[Answer<Murdham>]) -> Option<Choice> {
    (!legal.is_empty()).then_some(Choice::Listed(0))
}

impl Heuristic {
    fn pick(&mut self, d: &Decision<'_, Murdham>, seen: &State) -> Option<Choice> {
        self.legal.clear();
        let v = Sight::new(seen, d.seat());
        crate::check::legal(&v, v.seat(), &mut self.legal);
        let legal = &self.legal;
        if let Some(f) = v.frames.last() {
            return Some(answer(&v, f, legal));
        }
        if v.opening {
            let mine = legal.iter().position(|a| match a.command {
                Command::Open(side) => v.plays(v.seat(), side),
                _ => false,
            });
            return mine.map(Choice::Listed).or_else(|| first(legal));
        }
        let Some(t) = &v.turn else {
            return pick(&v, legal).or_else(|| first(legal));
        };
        turn(&v, t.who, legal).or_else(|| first(legal))
    }
}

/// The foes `who`'s seat sees, still fighting.
fn foes<'a>(v: &'a Sight<'_>, who: Cid) -> impl Iterator<Item = Cid> + 'a {
    let side = v.ch(who).side;
    v.visible().filter(move |&c| v.ch(c).side != side && v.ch(c).up())
}

/// A faction's pick: who can hit a foe now, else whoever can act.
fn pick(v: &Sight<'_>, legal: &[Answer<Murdham>]) -> Option<Choice> {
    let acts: Vec<(usize, Cid)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a.command {
            Command::Act(w) => Some((i, w)),
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
        .find(|&&(_, w)| can_hit(w))
        .or(acts.first())
        .map(|&(i, _)| Choice::Listed(i))
        .or_else(|| listed(legal, &Command::Pass).map(Choice::Listed))
}

/// Health a foe has left, to pick the weakest.
fn health(s: &State, c: Cid) -> i32 {
    s.ch(c).health
}

fn turn(v: &Sight<'_>, who: Cid, legal: &[Answer<Murdham>]) -> Option<Choice> {
    let me = v.ch(who);
    if me.grabbed_by.is_some() {
        return [Command::BreakFree, Command::End]
            .iter()
            .find_map(|c| listed(legal, c))
            .map(Choice::Listed);
    }
    // Heal when low.
    if me.health * 3 <= me.stats.max_health()
        && let Some(i) = legal.iter().position(|a| {
            matches!(a.command, Command::Use { item, on: None } if me.item(item).and_then(|i| v.setup.item(&i.id)).is_some_and(|d| d.heal > 0))
        })
    {
        return Some(Choice::Listed(i));
    }
    // Attack the weakest visible foe, preferring no save and the main weapon. Each attack is
    // listed with the plan its check made: how it would be made is read from there.
    let mut best: Option<(i32, usize)> = None;
    for (i, a) in legal.iter().enumerate() {
        let Command::Attack {
            aim: Aim::At(t),
            with,
            mode: Mode::Harm { hold: false },
            sweep: false,
            stunt: None,
        } = &a.command
        else {
            continue;
        };
        if !v.sees(*t) || !v.ch(*t).up() || v.ch(*t).side == me.side {
            continue;
        }
        let Plan::Attack(p) = &a.plan else {
            continue;
        };
        let spent = matches!(with, With::Item(i) if me.item(*i).and_then(|it| v.setup.item(&it.id)).is_some_and(|d| d.has(Keyword::Consumable)));
        let score =
            -health(v, *t) * 4 + i32::from(p.profile.die) - if p.save { 8 } else { 0 } - if spent { 6 } else { 0 }
                + if *with == With::Unarmed { -3 } else { 0 };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    // A blast where it hits the most foes and none of its own side.
    for (i, a) in legal.iter().enumerate() {
        let Command::Attack {
            aim: Aim::Place(p),
            mode: Mode::Harm { hold: false },
            sweep,
            stunt: None,
            ..
        } = &a.command
        else {
            continue;
        };
        let Plan::Attack(plan) = &a.plan else {
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
            best = Some((score, i));
        }
    }
    if let Some((_, i)) = best {
        return Some(Choice::Listed(i));
    }
    // A shooter holds its place once its main action is spent, and while in cover.
    let shooter = me.hands.iter().flatten().any(|&i| {
        me.item(i)
            .and_then(|it| v.setup.item(&it.id))
            .is_some_and(|d| d.range > 0 && !d.has(Keyword::Consumable))
    });
    if shooter && (v.turn.as_ref().is_some_and(|t| t.main) || me.cover) && foes(v, who).next().is_some() {
        return Some(choice(legal, Command::End));
    }
    // Close in on the nearest foe it sees.
    let zones = &v.setup.zones;
    let nearest = foes(v, who).min_by_key(|&f| me.at.range(v.ch(f).at, zones).unwrap_or(u8::MAX));
    if let Some(f) = nearest {
        let goal = v.ch(f).at;
        let now = me.at.range(goal, zones).unwrap_or(u8::MAX);
        let step = legal.iter().position(|a| match a.command {
            Command::Move { to, sneak } => {
                sneak == me.concealed
                    && (to.range(goal, zones).unwrap_or(u8::MAX) < now
                        || (me.at.is_border() && to.range(goal, zones) == Some(now) && !to.is_border()))
            }
            _ => false,
        });
        if let Some(i) = step {
            return Some(Choice::Listed(i));
        }
        // Sneaking not possible: a plain step.
        let plain = legal.iter().position(|a| match a.command {
            Command::Move { to, sneak: false } => to.range(goal, zones).unwrap_or(u8::MAX) < now,
            _ => false,
        });
        if let Some(i) = plain {
            return Some(Choice::Listed(i));
        }
        if now > 0
            && let Some(i) = listed(legal, &Command::Run)
        {
            return Some(Choice::Listed(i));
        }
    }
    // Pick a weapon up into an empty hand.
    if let Some(i) = legal.iter().position(|a| {
        matches!(a.command, Command::Equip { item, off: false } if me.item(item).and_then(|i| v.setup.item(&i.id)).is_some_and(|d| d.is_weapon() && !d.has(Keyword::Consumable)))
    }) {
        return Some(Choice::Listed(i));
    }
    Some(choice(legal, Command::End))
}

fn answer(v: &Sight<'_>, f: &Frame, legal: &[Answer<Murdham>]) -> Choice {
    let listed_first = |cs: &[Command]| cs.iter().find_map(|c| listed(legal, c)).map(Choice::Listed);
    match f {
        Frame::Attack(a) => {
            if let Some(c) = listed_first(&[Command::Approve, Command::Refuse, Command::Decline]) {
                return c;
            }
            let me = v.ch(a.target);
            // The counter with the best weapon: the largest die, unimpaired.
            let best = legal
                .iter()
                .enumerate()
                .filter_map(|(i, c)| match c.command {
                    Command::Counter {
                        with,
                        mode: Mode::Harm { hold: false },
                    } => crate::check::profile(v, a.target, with)
                        .ok()
                        .map(|p| (i32::from(p.die) - if p.impaired { 4 } else { 0 }, i)),
                    _ => None,
                })
                .max_by_key(|(score, _)| *score);
            if let Some((_, i)) = best {
                return Choice::Listed(i);
            }
            if me.ability(Ability::Agi) >= 9
                && let Some(i) = listed(legal, &Command::Dodge)
            {
                return Choice::Listed(i);
            }
            listed_first(&[Command::Take])
                .or_else(|| first(legal))
                .unwrap_or(Choice::Own(Command::Take))
        }
        Frame::Step(_) => legal
            .iter()
            .position(|a| matches!(a.command, Command::Opportunity(_)))
            .map(Choice::Listed)
            .unwrap_or_else(|| choice(legal, Command::Decline)),
        Frame::Morale { .. } => choice(legal, Command::Retreat),
    }
}
