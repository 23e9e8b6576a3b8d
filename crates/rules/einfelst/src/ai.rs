//! The built-in AI (`fray run`, `heuristic` in `fray sim`). It picks from the legal list:
//!
//! - on its turn: break free when held, put out a fire when burning; attack the foe it hurts
//!   most (the largest pool against the least Harm left), shooting when a foe is in its weapon's
//!   band and striking (or punching) in its zone; close in on a foe that needs it; otherwise
//!   move one zone toward the nearest foe, clearing an obstacle that blocks that way (or draw a
//!   better weapon), unless a ranged weapon in hand reaches a foe from where it stands; end the
//!   turn when nothing helps;
//! - a group sharing a card: a member with a manoeuvre left goes first, one that can attack from
//!   where it stands before one that cannot, then the one nearest a foe;
//! - reactions: parry, dodge or break free when it has a manoeuvre to spare (after its turn, or
//!   when the defence pool is at least 2 dice); chase and hold whenever it may; resist spells;
//! - extra successes all on damage; Harm split to keep the most dice without going severe;
//!   the lower of two cards; swaps after a defence when the attacker's card is lower; no trades
//!   at the start of a round.

use crate::Einfelst;
use crate::check;
use crate::command::Command;
use crate::resolve::{Kind, pool};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Frame, State, place};
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};

/// The heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    legal: Vec<Answer<Einfelst>>,
}

/// What it picks: a listed answer (by its place in the list), or a command it names.
enum Pick {
    Listed(usize),
    Named(Command),
}

/// The commands of the legal answers, in their order.
fn commands(legal: &[Answer<Einfelst>]) -> impl Iterator<Item = &Command> + Clone {
    legal.iter().map(|a| &a.command)
}

/// The place of the first listed answer whose command `want` accepts.
fn find(legal: &[Answer<Einfelst>], want: impl Fn(&Command) -> bool) -> Option<usize> {
    legal.iter().position(|a| want(&a.command))
}

/// The place of `c` in the list, if it is listed.
fn listed(legal: &[Answer<Einfelst>], c: &Command) -> Option<usize> {
    find(legal, |x| x == c)
}

/// The place of the listed answer whose command gives the least `key` (the first of equals).
fn least<K: Ord>(legal: &[Answer<Einfelst>], key: impl Fn(&Command) -> Option<K>) -> Option<(K, usize)> {
    legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| key(&a.command).map(|k| (k, i)))
        .min_by(|a, b| a.0.cmp(&b.0))
}

impl Policy<Einfelst> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Einfelst>, _: &mut Prng) -> Option<Answer<Einfelst>> {
        // It picks from the legal list, which it lists itself: the listed answer, with the plan
        // the check gave it. A command it names (`pass`, `end` and the like, which come last
        // in the list) is looked up from the end; one not listed is put to the check.
        match self.pick(d)? {
            Pick::Listed(i) => Some(self.legal.swap_remove(i)),
            Pick::Named(c) => match self.legal.iter().rposition(|a| a.command == c) {
                Some(i) => Some(self.legal.swap_remove(i)),
                None => d.answer(c).ok(),
            },
        }
    }

    fn name(&self) -> &str {
        "heuristic"
    }
}

impl Heuristic {
    fn pick(&mut self, d: &Decision<'_, Einfelst>) -> Option<Pick> {
        self.legal.clear();
        let view = d.view();
        let s: &State = &view;
        // The decision, worked out once: the legal list is made under it, and the pick matches
        // on it.
        let st = stage(s)?;
        check::legal_in(s, d.seat(), &st, &mut self.legal);
        let legal = &self.legal;
        match st {
            Stage::CardSwaps => listed(legal, &Command::Ready).map(Pick::Listed),
            Stage::GroupTurn { .. } => group_turn(s, legal),
            Stage::Turn { who, .. } => Some(turn(s, who, legal)),
            _ => Some(answer(s, &st, legal)),
        }
    }
}

/// An answer to a decision asked inside resolution (the frame on top of the stack asks `st`).
fn answer(s: &State, st: &Stage, legal: &[Answer<Einfelst>]) -> Pick {
    let first = || {
        if legal.is_empty() {
            Pick::Named(Command::Pass)
        } else {
            Pick::Listed(0)
        }
    };
    let or_pass = |i: Option<usize>| i.map_or(Pick::Named(Command::Pass), Pick::Listed);
    match *st {
        Stage::Reaction { target, .. } => {
            let acted = s.order.slots_of(target).all(|sl| sl.acted);
            for c in [Command::BreakFree, Command::Resist, Command::Parry, Command::Dodge] {
                if let Some(i) = listed(legal, &c) {
                    let action = match c {
                        Command::Dodge => crate::data::Action::Finesse,
                        Command::Parry => crate::check::parry_action(s, target),
                        _ => crate::data::Action::Force,
                    };
                    let dice = pool(s, target, action, Kind::Defence, 0).0;
                    if acted || dice >= 2 {
                        return Pick::Listed(i);
                    }
                }
            }
            Pick::Named(Command::Pass)
        }
        Stage::Swap { .. } if commands(legal).any(|c| matches!(c, Command::Swap(..))) => {
            // After beating an attack: the exchange that lowers a card the most, if any does.
            or_pass(
                least(legal, |c| match c {
                    Command::Swap(take, give) if take.key(false) < give.key(false) => {
                        Some(take.key(false) - give.key(false))
                    }
                    _ => None,
                })
                .map(|(_, i)| i),
            )
        }
        Stage::Swap { .. } | Stage::ExtraSuccesses { .. } => {
            find(legal, |c| matches!(c, Command::Spend(sp) if sp.cost() == 0)).map_or_else(first, Pick::Listed)
        }
        Stage::Chase { .. } => or_pass(find(legal, |c| matches!(c, Command::Chase(_)))),
        Stage::Hold { .. } => or_pass(listed(legal, &Command::Hold)),
        Stage::Harm { who, mental, .. } => {
            // Keep the most dice without going severe, then the fewest marks.
            let c = s.ch(who);
            let rows = if mental { c.harm.mental } else { c.harm.physical };
            least(legal, |cmd| {
                Some(match cmd {
                    Command::Split(p) => {
                        let (r, over) = place(rows, s.options.harm_slots, p);
                        (over, r[2], r[0] + r[1], p.len())
                    }
                    _ => (true, u8::MAX, u8::MAX, usize::MAX),
                })
            })
            .map_or_else(first, |(_, i)| Pick::Listed(i))
        }
        Stage::Card { .. } => first(),
        // Push a failed test when one more Harm does not put it out.
        Stage::Push { .. } => {
            let Some(Frame::Push(p)) = s.frames.last() else {
                return first();
            };
            let c = s.ch(p.who);
            let safe = match s.stats(p.who).harm_points {
                Some(cap) => c.harm.points < cap,
                None => {
                    let slots = s.options.harm_slots;
                    let track = if crate::resolve::attribute(s, p.who, p.action, Kind::Test).physical() {
                        c.harm.physical
                    } else {
                        c.harm.mental
                    };
                    track[0] + track[1] < slots[0] + slots[1]
                }
            };
            Pick::Named(Command::Push(p.got < p.need.max(1) && safe))
        }
        // Not asked inside resolution: `pick` answers these itself.
        Stage::CardSwaps | Stage::GroupTurn { .. } | Stage::Turn { .. } => first(),
    }
}

/// EIN-R2: which member of a group takes its card's turn now: one with a manoeuvre left, first
/// one that can attack from where it stands, then the one nearest a foe, then the first in
/// encounter order.
fn group_turn(s: &State, legal: &[Answer<Einfelst>]) -> Option<Pick> {
    least(legal, |c| match c {
        Command::Act(x) => {
            let foes = || s.ids().filter(|&o| s.foes(*x, o) && !s.ch(o).out());
            let near = foes().map(|o| s.distance(*x, o)).min().unwrap_or(u8::MAX);
            let reach = foes().any(|o| in_reach(s, *x, o));
            let spent = s.ch(*x).total_left() == [0, 0];
            Some((spent, !reach, near, *x))
        }
        _ => None,
    })
    .map(|(_, i)| Pick::Listed(i))
}

/// Whether the weapon in `who`'s hand (or its fists) reaches `x` from where it stands.
fn in_reach(s: &State, who: Cid, x: Cid) -> bool {
    let d = s.distance(who, x);
    match s.ch(who).wield.and_then(|w| s.weapon(w)) {
        Some(w) => match w.kind {
            crate::data::WeaponKind::Ranged => d >= w.range[0] && d <= w.range[1],
            crate::data::WeaponKind::Thrown => d <= w.range[1],
            _ => d == 0,
        },
        None => d == 0,
    }
}

/// How much a foe is worth hitting: the attacker's pool, then the foe's nearness to going out.
fn harm_left(s: &State, x: Cid) -> i32 {
    let c = s.ch(x);
    match s.stats(x).harm_points {
        Some(cap) => i32::from(cap) - i32::from(c.harm.points),
        None => {
            let slots = s.options.harm_slots;
            let free = |r: &[u8; 3]| i32::from(slots[0] + slots[1]) - i32::from(r[0] + r[1]);
            free(&c.harm.physical)
        }
    }
}

fn turn(s: &State, who: Cid, legal: &[Answer<Einfelst>]) -> Pick {
    let me = s.ch(who);
    for c in [Command::BreakFree, Command::Extinguish] {
        if let Some(i) = listed(legal, &c) {
            return Pick::Listed(i);
        }
    }
    let end = || Pick::Named(Command::End);
    if me.fire.is_some() {
        return end();
    }
    // Fists only, with a weapon in the pack: draw it first (a fast manoeuvre).
    let only_fists = commands(legal).any(|c| matches!(c, Command::Punch(_)))
        && !commands(legal).any(|c| matches!(c, Command::Strike(_) | Command::Shoot(_) | Command::Cast(..)));
    if only_fists
        && let Some(i) = find(
            legal,
            |c| matches!(c, Command::Draw(Some(w)) if s.weapon(*w).is_some_and(|x| x.melee())),
        )
    {
        return Pick::Listed(i);
    }
    // Attacks: the weakest foe first, with the biggest pool.
    let attack = least(legal, |c| {
        let (x, action) = match c {
            Command::Strike(x) => (*x, crate::data::Action::Strike),
            Command::Shoot(x) => (*x, crate::data::Action::Shoot),
            Command::Punch(x) => (*x, crate::data::Action::Force),
            Command::Cast(_, x) => (*x, crate::data::Action::Cast),
            _ => return None,
        };
        let action = match c {
            Command::Strike(_) => crate::check::attack_action(s, crate::state::AttackKind::Strike, me.wield),
            _ => action,
        };
        let dice = i32::from(pool(s, who, action, Kind::Attack, 0).0);
        let damage = match c {
            Command::Strike(_) | Command::Shoot(_) => {
                i32::from(me.wield.and_then(|w| s.weapon(w)).map_or(1, |w| w.damage))
            }
            _ => 1,
        };
        Some((harm_left(s, x), -(dice * 2 + damage)))
    });
    if let Some((_, i)) = attack {
        return Pick::Listed(i);
    }
    let foes: Vec<Cid> = s.ids().filter(|&o| s.foes(who, o) && !s.ch(o).out()).collect();
    // Close in on a foe in the zone that needs it, to strike it (EIN-R12).
    let close_combat = me.wield.and_then(|w| s.weapon(w)).is_none_or(|w| w.melee());
    if let Some(i) = find(
        legal,
        |c| matches!(c, Command::Close(x) if close_combat && foes.contains(x) && crate::check::must_close_in(s, who, *x)),
    ) {
        return Pick::Listed(i);
    }
    // A weapon that could reach someone, in hand.
    let reaches = |w: u8| {
        s.weapon(w).is_some_and(|wp| {
            foes.iter().any(|&f| {
                let d = s.distance(who, f);
                (wp.melee() && d == 0)
                    || (wp.kind != crate::data::WeaponKind::Melee && d >= wp.range[0].max(1) && d <= wp.range[1])
            })
        })
    };
    if me.wield.is_none_or(|w| !reaches(w))
        && let Some(i) = find(legal, |c| matches!(c, Command::Draw(Some(w)) if reaches(*w)))
    {
        return Pick::Listed(i);
    }
    // A creature that fights with its bite or claws leaves weapons lying.
    let natural = me
        .carried
        .items()
        .iter()
        .any(|&w| s.weapon(w).is_some_and(|x| x.natural()));
    if !natural && let Some(i) = find(legal, |c| matches!(c, Command::PickUp(_))) {
        return Pick::Listed(i);
    }
    // A ranged weapon in hand that reaches a foe from here: no need to go nearer.
    let shooting = me
        .wield
        .and_then(|w| s.weapon(w))
        .is_some_and(|w| w.kind == crate::data::WeaponKind::Ranged);
    if shooting && foes.iter().any(|&f| in_reach(s, who, f)) {
        return listed(legal, &Command::Stand).map_or_else(end, Pick::Listed);
    }
    // Toward the nearest foe.
    let nearest = |z: fray_space::ZoneId| {
        foes.iter()
            .filter_map(|&f| s.setup.zones.distance(z, s.ch(f).zone))
            .min()
            .unwrap_or(u8::MAX)
    };
    let here = nearest(me.zone);
    if here > 0 {
        // A step, or clearing what blocks a step (EIN-R15), moves first on a tie.
        let step = least(legal, |c| match c {
            Command::Move(z) => Some((nearest(*z), false)),
            Command::Clear(z) => Some((nearest(*z), true)),
            _ => None,
        });
        if let Some(((d, _), i)) = step
            && d < here
        {
            return Pick::Listed(i);
        }
    }
    listed(legal, &Command::Stand).map_or_else(end, Pick::Listed)
}
