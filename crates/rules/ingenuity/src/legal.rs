//! The legal commands for the pending decision, in a fixed order.
//!
//! Candidates are generated and filtered through [`check`], so the list can never disagree with
//! what is accepted. Actions with free text (`interact`, `task`) and the many variants of a
//! commanded action cannot all be listed; the list shows the usual ones and any other legal one
//! can still be typed.

use crate::Ingenuity;
use crate::calc;
use crate::check::{check_in, check_listed_move};
use crate::command::{Action, Command, default_prof};
use crate::setup::Cid;
use crate::stage::{Stage, attack};
use crate::state::{Readied, ReadyAction, State, Trigger};
use fray_engine::Answer;
use fray_space::{Dir, Pos};

fn push(s: &State, stage: Option<&Stage>, c: Command, out: &mut Vec<Answer<Ingenuity>>) {
    if !out.iter().any(|a| a.command == c)
        && let Ok(plan) = check_in(s, stage, &c)
    {
        out.push(Answer::new(c, plan));
    }
}

/// Appends every listed legal command for `stage`, the [`crate::stage::stage`] of `s` (computed
/// once by the caller and handed to the check of every candidate).
pub fn legal(s: &State, stage: Option<&Stage>, out: &mut Vec<Answer<Ingenuity>>) {
    let Some(&st) = stage else {
        return;
    };
    let add = |c: Command, out: &mut Vec<Answer<Ingenuity>>| push(s, stage, c, out);
    match st {
        Stage::Pick { team } => {
            for c in s.order.candidates(team, |w| s.can_take_turn(w)) {
                add(Command::Pick(c), out);
            }
        }
        // Only these answer an extended action in progress (ING-R34).
        Stage::Extended { .. } => {
            add(Command::Continue, out);
            add(Command::Abandon, out);
        }
        Stage::Turn { who, .. } => turn(s, stage, who, out),
        Stage::Intercept { .. } => {
            if let Some(a) = attack(s) {
                for &c in &a.intercept {
                    add(Command::Intercept(c), out);
                }
            }
            add(Command::Pass, out);
        }
        Stage::Defend { target } => {
            add(Command::Dodge, out);
            for k in 0..s.ch(target).items.len() as u8 {
                add(Command::Parry(k), out);
            }
            add(Command::Fortify, out);
            add(Command::Resist, out);
            add(Command::Pass, out);
        }
        Stage::Block { target } => {
            for k in 0..s.ch(target).items.len() as u8 {
                add(Command::Block(k), out);
            }
            add(Command::Pass, out);
        }
        Stage::Ready { .. } => {
            add(Command::Fire, out);
            add(Command::Hold, out);
        }
        Stage::Fortify { .. } => {
            add(Command::Fortify, out);
            add(Command::Fall, out);
        }
        Stage::AfterDodge { who, .. } => {
            add(Command::Act(Action::DropProne), out);
            add(Command::Act(Action::SeekCover), out);
            if let Some(p) = s.ch(who).pos {
                for d in Dir::ALL {
                    add(Command::Act(Action::Step(p.step(d))), out);
                }
            }
            add(Command::Pass, out);
        }
    }
}

/// The answers of `me`'s turn (no extended action waiting to be continued).
fn turn(s: &State, stage: Option<&Stage>, me: Cid, out: &mut Vec<Answer<Ingenuity>>) {
    // `continue` answers only an extended action waiting at the turn's start; `abandon` is
    // legal all turn while one is in progress (ING-R35).
    push(s, stage, Command::Abandon, out);
    // The squares of a move or a sprint, each with its way, from one search of the whole move:
    // each is then checked without a search of its own.
    let ways = move_ways(s, me);
    let mut acts = Vec::new();
    actions(s, me, &ways, &mut acts);
    for a in acts {
        let way = match a {
            Action::Move(p) | Action::Sprint(p) => ways.iter().find(|(q, _)| *q == p).map(|(_, w)| w.as_slice()),
            _ => None,
        };
        let c = Command::Act(a);
        match way {
            Some(way) => {
                if !out.iter().any(|a| a.command == c)
                    && let Ok(plan) = check_listed_move(s, stage, &c, way)
                {
                    out.push(Answer::new(c, plan));
                }
            }
            None => push(s, stage, c, out),
        }
    }
}

/// Squares `who` could move to with a full move.
pub fn move_squares(s: &State, who: Cid) -> Vec<(Pos, u32)> {
    let Some(from) = s.ch(who).pos else { return Vec::new() };
    let speed = s.info(who).stats.speed;
    calc::with_scratch(|sc| sc.map(s).reach(who, from, speed, None).destinations().collect())
}

/// The squares of [`move_squares`], in the same order, each with the way to it (the squares
/// after the start) that the same search finds.
fn move_ways(s: &State, who: Cid) -> Vec<(Pos, Vec<Pos>)> {
    let Some(from) = s.ch(who).pos else { return Vec::new() };
    let speed = s.info(who).stats.speed;
    calc::with_scratch(|sc| {
        let mut m = sc.map(s);
        let r = m.reach(who, from, speed, None);
        r.destinations()
            .filter_map(|(p, _)| r.path_to(p).map(|way| (p, way)))
            .collect()
    })
}

/// Attack actions of `me` against every combatant with every held weapon: each allowed
/// attribute with the best proficiency first, then the other proficiency choices.
pub fn attacks(s: &State, me: Cid, out: &mut Vec<Action>) {
    let c = s.ch(me);
    for (k, carried) in c.items.iter().enumerate() {
        if !carried.held {
            continue;
        }
        let item = s.setup.armoury.item(carried.item);
        if !item.weapon {
            continue;
        }
        let slot = k as u8;
        // Only the weapon's proficiencies the attacker has (ING-R37), and none.
        let best = default_prof(s, me, slot);
        let mut profs = vec![best.clone()];
        let own = item
            .proficiencies
            .iter()
            .filter(|p| s.info(me).stats.prof(p) > 0)
            .map(|p| Some(p.clone()));
        for p in own.chain([None]) {
            if !profs.contains(&p) {
                profs.push(p);
            }
        }
        let mut targets: Vec<Cid> = s.ids().filter(|&t| t != me && s.enemies(me, t)).collect();
        targets.extend(s.ids().filter(|&t| s.allies(me, t)));
        for t in targets {
            for prof in &profs {
                for &attr in &item.attributes {
                    out.push(Action::Attack {
                        target: t,
                        slot,
                        attr,
                        prof: prof.clone(),
                    });
                }
            }
        }
    }
}

fn actions(s: &State, me: Cid, ways: &[(Pos, Vec<Pos>)], out: &mut Vec<Action>) {
    attacks(s, me, out);
    let c = s.ch(me);
    let here = c.pos;
    let weapons: Vec<u8> = (0..c.items.len() as u8)
        .filter(|k| c.items[*k as usize].held && s.setup.armoury.item(c.items[*k as usize].item).weapon)
        .collect();
    // Killing strikes and Resuscitate on unconscious characters.
    for t in s.ids() {
        if s.ch(t).unconscious && !s.ch(t).dead {
            for &slot in &weapons {
                out.push(Action::Kill { target: t, slot });
            }
            out.push(Action::Resuscitate(t));
        }
    }
    for k in 0..c.items.len() as u8 {
        out.push(Action::Reload(k));
    }
    for (p, _) in ways {
        out.push(Action::Move(*p));
    }
    if let Some(p) = here {
        for d in Dir::ALL {
            out.push(Action::Step(p.step(d)));
        }
    }
    for (p, _) in ways {
        out.push(Action::Sprint(*p));
    }
    out.push(Action::StandUp);
    out.push(Action::SeekCover);
    out.push(Action::DropProne);
    // Brandish: nothing, each item alone, each pair.
    let n = c.items.len() as u8;
    out.push(Action::Brandish(Vec::new()));
    for a in 0..n {
        out.push(Action::Brandish(vec![a]));
        for b in a + 1..n {
            out.push(Action::Brandish(vec![a, b]));
        }
    }
    if let Some(p) = here {
        for (i, _) in crate::event::ground_near(s, p) {
            out.push(Action::PickUp(i as u16));
        }
    }
    for k in 0..c.items.len() as u8 {
        out.push(Action::Drop(k));
    }
    // Command: an ally's attacks, standing up, seeking cover.
    for ally in s.ids().filter(|&a| s.allies(me, a)) {
        let mut inner = Vec::new();
        attacks(s, ally, &mut inner);
        inner.retain(|a| matches!(a, Action::Attack { target, .. } if s.enemies(ally, *target)));
        inner.push(Action::StandUp);
        inner.push(Action::SeekCover);
        for a in inner {
            out.push(Action::Command {
                ally,
                action: Box::new(a),
            });
        }
    }
    // Ready an attack with a weapon in hand.
    for &slot in &weapons {
        for trigger in [Trigger::Approach, Trigger::Attack, Trigger::Turn] {
            out.push(Action::Ready(Readied {
                action: ReadyAction::Attack { target: None, slot },
                trigger,
            }));
        }
    }
    out.push(Action::Guard);
    out.push(Action::Wait);
    out.push(Action::End);
}
