//! Movement: a step of a zone or half a zone (MUR-R7), full movement (MUR-H2) and taking
//! cover, checked and resolved; a concealed mover sneaking or revealed (MUR-R42); the step
//! frame that waits for opportunity attacks before it moves anyone (MUR-R25, MUR-H26), with a
//! held character dragged along (MUR-R36); and the answers to an opportunity.
//!
//! Murdham's places are zones and their borders, one step at a time: there is no path
//! search, so nothing here searches; the step's cost comes from [`crate::place`].

use crate::Murdham;
use crate::actions::attack::{declare, plan};
use crate::actions::grapple::holding;
use crate::actions::reactions::may_react;
use crate::actions::weapons::weapons_of;
use crate::actions::{Offer, Plan, bug, main_left, no, reveal, unplanned};
use crate::codes;
use crate::command::{Aim, Command};
use crate::data::Ability;
use crate::place::Place;
use crate::roll::{Res, save};
use crate::setup::Cid;
use crate::state::{Event, Frame, Mode, State, Step, Turn, Why};
use fray_engine::{Cx, Flow, Reject};

/// The check of a step to `to` in `t` (a sneak, MUR-R42): one step away, within the movement
/// left, with room (for the held character too, MUR-R36), and never nearer what frightens the
/// mover. Its plan is the step's cost.
pub fn check_move(s: &State, t: &Turn, to: Place, sneak: bool) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    let holding = holding(s, who);
    if sneak && !me.concealed {
        return Err(no(codes::NOT_ALLOWED, "only a concealed character sneaks"));
    }
    let cost = me.at.step_cost(to, zones).ok_or_else(|| {
        no(
            codes::BAD_MOVE,
            format!("{} is not one step from {}", to.describe(zones), me.at.describe(zones)),
        )
    })?;
    if cost > t.halves {
        return Err(no(
            codes::BAD_MOVE,
            format!("the step costs {cost} half zones and {} are left", t.halves),
        ));
    }
    if s.crowd(to, Some(me.side)) >= to.capacity() {
        return Err(no(codes::NO_ROOM, format!("{} is full", to.describe(zones))));
    }
    if let Some(f) = me.frightened_of {
        let d = |p: Place| p.range(s.ch(f).at, zones).unwrap_or(u8::MAX);
        if s.ch(f).up() && !s.hidden_from(f, me.side) && d(to) < d(me.at) {
            return Err(no(
                codes::CONDITION,
                format!("{} is frightened of {} and will not go nearer", me.name, s.ch(f).name),
            ));
        }
    }
    if let Some(h) = holding {
        // MUR-R36: the holder drags the held character along: there must be room.
        if s.crowd(to, Some(me.side)) + 1 >= to.capacity() && s.ch(h).at != to {
            return Err(no(
                codes::NO_ROOM,
                format!("{} has no room for two", to.describe(zones)),
            ));
        }
    }
    Ok(Plan::Move { cost })
}

/// The check of full movement (MUR-H2): a main action.
pub fn check_run(t: &Turn) -> Result<Plan, Reject> {
    main_left(t)?;
    Ok(Plan::Plain)
}

/// The check of taking cover: half a zone of movement inside a zone with a free cover spot.
pub fn check_cover(s: &State, t: &Turn) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    if me.cover {
        return Err(no(codes::NOT_ALLOWED, format!("{} is in cover already", me.name)));
    }
    if me.at.is_border() || t.halves == 0 {
        return Err(no(
            codes::BAD_MOVE,
            "taking cover is half a zone of movement inside a zone",
        ));
    }
    let spots = zones.zone(me.at.a).map_or(0, |z| z.cover) as usize;
    let taken = s
        .ids()
        .filter(|&x| s.ch(x).cover && s.ch(x).at == me.at && !s.hidden_from(x, me.side))
        .count();
    if taken >= spots {
        return Err(no(codes::NO_ROOM, "no free cover spot here"));
    }
    Ok(Plan::Plain)
}

/// The moves `who` may make in its turn, in the legal list's order: each step, walking and
/// sneaking, then full movement and cover.
pub fn legal(s: &State, who: Cid, offer: &mut dyn Offer) {
    let me = s.ch(who);
    let zones = &s.setup.zones;
    for (p, _) in me.at.steps(zones) {
        offer.checked(Command::Move { to: p, sneak: false });
        offer.checked(Command::Move { to: p, sneak: true });
    }
    offer.checked(Command::Run);
    offer.checked(Command::Cover);
}

/// A step of `who` to `to` that costs `cost` half zones, as its check found: a concealed mover
/// sneaks or is revealed, then the step waits for opportunity attacks ([`step`]).
pub fn step_to(cx: &mut Cx<'_, Murdham>, who: Cid, to: Place, sneak: bool, cost: u8) -> Res<()> {
    let concealed = cx.s.ch(who).concealed;
    if concealed {
        let stays = if sneak {
            save(cx, who, Ability::Agi, Why::Sneak)?
        } else {
            !cx.s.options.moving_reveals
        };
        if !stays {
            // MUR-R42: moving without a successful sneak reveals the mover.
            reveal(cx, who);
        }
    }
    cx.push(Frame::Step(Step {
        who,
        to,
        cost,
        forced: false,
        next: 0,
    }))?;
    Ok(())
}

/// Full movement (MUR-H2).
pub fn run(cx: &mut Cx<'_, Murdham>, who: Cid) {
    let hobbled = cx.s.ch(who).injuries.hobbled;
    // MUR-H2: full movement brings the turn to `full-move-zones`; hobbled, half of it.
    let more = cx.s.options.full_move_zones.saturating_sub(1) * 2;
    let halves = if hobbled { more / 2 } else { more };
    cx.emit(Event::Ran { who, halves });
}

/// A step waiting for opportunity attacks: ask the next foe who may make one, or take it.
pub(crate) fn step(cx: &mut Cx<'_, Murdham>, st: Step) -> Res<Flow> {
    let s = &*cx.s;
    if !s.ch(st.who).up() || s.ch(st.who).grabbed_by.is_some() && !st.forced {
        // MUR-R25: the mover fell (or was grabbed): the step never happens.
        cx.pop();
        return Ok(Flow::Go);
    }
    if !st.forced {
        let n = s.chars.len() as Cid;
        if let Some(foe) = (st.next..n).find(|&f| opportunity_ok(s, st.who, st.to, f)) {
            if foe != st.next {
                cx.update(Frame::Step(Step { next: foe, ..st }));
                return Ok(Flow::Go);
            }
            return Ok(Flow::Wait);
        }
    }
    let held: Vec<Cid> = s.ids().filter(|&x| s.ch(x).grabbed_by == Some(st.who)).collect();
    cx.pop();
    cx.emit(Event::Moved {
        who: st.who,
        to: st.to,
        cost: st.cost,
    });
    // MUR-R36: the held character moves with its holder.
    for h in held {
        cx.emit(Event::Moved {
            who: h,
            to: st.to,
            cost: 0,
        });
    }
    Ok(Flow::Go)
}

/// Whether `foe` may make an opportunity attack on the mover of `st` (MUR-R25, MUR-H26).
pub fn opportunity_ok(s: &State, mover: Cid, to: Place, foe: Cid) -> bool {
    let f = s.ch(foe);
    let m = s.ch(mover);
    if !s.enemies(mover, foe) || s.hidden_from(mover, f.side) || !may_react(s, foe, false) {
        return false;
    }
    let zones = &s.setup.zones;
    if !m.at.nearby(f.at, zones) {
        return false;
    }
    // MUR-H26: moving away is leaving range 0; stepping onto a border of the zone does not
    // count unless the option says so.
    let away = !to.nearby(f.at, zones) || (s.options.border_step_provokes && to.is_border() && !m.at.is_border());
    away && weapons_of(s, foe)
        .into_iter()
        .any(|w| plan(s, foe, Aim::At(mover), w, Mode::Harm { hold: false }, false, true).is_ok())
}

/// The answer of `foe` to the opportunity a step of `mover` gives it (MUR-R25): the step's
/// frame moves on past `foe`, and an attack is declared as its check planned it.
pub fn opportunity(cx: &mut Cx<'_, Murdham>, foe: Cid, mover: Cid, command: &Command, plan: Plan) -> Res<()> {
    let Some(Frame::Step(step)) = cx.s.frames.last().cloned() else {
        return Err(bug("an opportunity without the step"));
    };
    cx.update(Frame::Step(Step { next: foe + 1, ..step }));
    if let Command::Opportunity(with) = command {
        let Plan::Attack(p) = plan else {
            return Err(unplanned(command, &plan));
        };
        // MUR-R25: a reaction that takes the foe's turn, resolved before the step.
        cx.emit(Event::Reacted {
            who: foe,
            what: "makes an opportunity attack".into(),
            free: false,
        });
        declare(
            cx,
            foe,
            Aim::At(mover),
            *with,
            Mode::Harm { hold: false },
            false,
            None,
            true,
            p,
        )?;
    }
    Ok(())
}

/// The answers of `foe` to an opportunity, in the legal list's order: decline (the plain
/// answer), or an opportunity attack with each weapon.
pub fn legal_opportunity(s: &State, foe: Cid, offer: &mut dyn Offer) {
    offer.plain(Command::Decline);
    for with in weapons_of(s, foe) {
        offer.checked(Command::Opportunity(with));
    }
}
