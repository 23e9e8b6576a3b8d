//! Resolution: the start (ambush, cards, Fear), each command, and [`advance`], which runs every
//! automatic step (tests, hazards, rounds and turns) until the next decision. State changes only
//! through `cx.emit`; decisions in the middle of a command (reactions, extra successes, Harm
//! splits, card choices) are frames on the kit's stack.

use crate::Einfelst;
use crate::check::{self, Pay, Plan, attack_need, circumstance_extra, splits, turn_card};
use crate::command::{Command, Own};
use crate::data::{Action, Attr, WeaponKind};
use crate::options::{
    AmbushBonusTarget, ArmourMode, Attribute, HarmPenalty, HoldAction, OpposingTiming, PoisonZeroTie, Position,
};
use crate::setup::{AmbushTest, Cid};
use crate::stage::{Stage, stage};
use crate::state::{
    AttackFrame, AttackKind, BreakFrame, Card, Defence, Event, FleeFrame, Frame, KeepFrame, PushFrame, PushSlot,
    RoundStage, SplitFrame, State, Status, pushed,
};
use fray_dice::Faces;
use fray_engine::gm::Ruling as R;
use fray_engine::resolve::settle;
use fray_engine::{Cx, EngineError, Flow, Seat, Seats};

/// What kind of test, for the Harm exemptions (EIN-H2) and the attribute of two-attribute
/// Actions (EIN-H24).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An attack.
    Attack,
    /// A defence.
    Defence,
    /// Fleeing.
    Flee,
    /// Chasing.
    Chase,
    /// Grappling.
    Grapple,
    /// Breaking free or holding on.
    BreakFree,
    /// Fear.
    Fear,
    /// Fire, poison, falls, hunger.
    Hazard,
    /// Anything else.
    Test,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Attack => "attack",
            Kind::Defence => "defence",
            Kind::Flee => "flee",
            Kind::Chase => "chase",
            Kind::Grapple => "grapple",
            Kind::BreakFree => "break-free",
            Kind::Fear => "fear",
            Kind::Hazard => "hazard",
            Kind::Test => "test",
        }
    }
}

/// The attribute a test of `action` uses (EIN-H24).
pub fn attribute(s: &State, who: Cid, action: Action, kind: Kind) -> Attr {
    let (a, b) = action.attrs();
    let Some(b) = b else { return a };
    let rule = match kind {
        Kind::Fear => s.options.fear_attribute,
        Kind::Hazard => s.options.hazard_attribute,
        _ => s.options.dual_attribute,
    };
    let pick = |x: Attribute| match x {
        Attribute::Strength => Some(Attr::Strength),
        Attribute::Dexterity => Some(Attr::Dexterity),
        Attribute::Intuition => Some(Attr::Intuition),
        Attribute::Reason => Some(Attr::Reason),
        Attribute::Presence => Some(Attr::Presence),
        Attribute::Higher => None,
    };
    match pick(rule) {
        // A fixed attribute that is one of the Action's two.
        Some(x) if x == a || x == b => x,
        _ => {
            let at = &s.stats(who).attrs;
            if at[b.index()] > at[a.index()] { b } else { a }
        }
    }
}

/// The dice a test of `action` rolls (the `[S]` Attribute + Action), with every bonus and Harm
/// penalty (EIN-H2, EIN-R24, EIN-H13), never below `min-pool`. The second value says whether
/// the ambush bonus is in it (EIN-H11).
pub fn pool(s: &State, who: Cid, action: Action, kind: Kind, help: u8) -> (u8, bool) {
    let c = s.ch(who);
    let st = s.stats(who);
    let attr = attribute(s, who, action, kind);
    let mut dice =
        i32::from(st.attrs[attr.index()]) + i32::from(st.action(action)) + i32::from(help) + i32::from(c.bonus);
    // EIN-H11: in the first round only; under `first-maneuver` only on a manoeuvre's test (a
    // Fear test or a hazard the Director calls is none).
    let ambush = c.ambush_bonus > 0
        && s.round == 1
        && (s.options.ambush_bonus_target == AmbushBonusTarget::FirstTest
            || !matches!(kind, Kind::Fear | Kind::Hazard));
    if ambush {
        dice += i32::from(c.ambush_bonus);
    }
    if !s.options.exempt(kind.word()) {
        dice -= i32::from(penalty(s, who, attr));
    }
    (
        dice.clamp(i32::from(s.options.min_pool), fray_dice::MAX_DICE as i32) as u8,
        ambush,
    )
}

/// The dice Harm costs on a test of attribute `attr` (EIN-H2, EIN-R24, EIN-H13).
pub fn penalty(s: &State, who: Cid, attr: Attr) -> u8 {
    let c = s.ch(who);
    let [pl, pm] = s.options.slot_penalty;
    let rows = |r: &[u8; 3]| r[0] * pl + r[1] * pm;
    let tracks = match s.options.harm_penalty {
        HarmPenalty::AllTests => rows(&c.harm.physical) + rows(&c.harm.mental),
        HarmPenalty::ByTrack if attr.physical() => rows(&c.harm.physical),
        HarmPenalty::ByTrack => rows(&c.harm.mental),
    };
    let points = if s.options.harm_points_persist {
        c.harm.points
    } else {
        c.harm.fresh
    };
    tracks.saturating_add(points)
}

/// Rolls `n` d6: the successes (EIN-H1) and every face, for the event.
fn successes(cx: &mut Cx<'_, Einfelst>, n: u8, why: &str) -> Result<(u8, Faces), EngineError> {
    if n == 0 {
        return Ok((0, Faces::new()));
    }
    let r = fray_dice::roll(cx.dice, n as usize, 6, fray_dice::Keep::All, &why)?;
    let o = &cx.s.options;
    Ok((r.faces.iter().filter(|&f| o.success(f)).count() as u8, r.faces))
}

/// A creature's test: rolls its pool, logs it, and uses up its one-shot bonuses.
pub fn test(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    help: u8,
) -> Result<u8, EngineError> {
    Ok(test_pool(cx, who, action, kind, need, why, help)?.1)
}

/// [`test`], with the pool it rolled.
fn test_pool(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    help: u8,
) -> Result<(u8, u8), EngineError> {
    let (n, ambush) = pool(&cx.s, who, action, kind, help);
    let text = format!("{}'s {} ({n} dice)", cx.s.ch(who).name, action.word());
    let (got, faces) = successes(cx, n, &text)?;
    cx.emit(Event::Tested {
        who: Some(who),
        why,
        action: Some(action),
        pool: n,
        successes: got,
        need,
        faces,
    });
    let c = cx.s.ch(who);
    if c.bonus > 0 || c.harm.fresh > 0 {
        cx.emit(Event::BonusUsed { who });
    }
    if ambush {
        cx.emit(Event::AmbushUsed { who });
    }
    Ok((n, got))
}

/// A manoeuvre's test that a player character may push (EIN-H20): the successes, and the push
/// decision to offer (with `push-rolls` on, when a die missed). The caller records the result
/// and then puts the decision on the stack with [`offer`].
fn pushable(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    kind: Kind,
    need: u8,
    why: crate::state::Why,
    slot: PushSlot,
) -> Result<(u8, Option<PushFrame>), EngineError> {
    let (pool, got) = test_pool(cx, who, action, kind, need, why, 0)?;
    let c = cx.s.ch(who);
    let offer = (cx.s.options.push_rolls && c.pc && !c.out() && got < pool).then_some(PushFrame {
        who,
        action,
        pool,
        got,
        need,
        slot,
    });
    Ok((got, offer))
}

/// Puts a push decision on the stack, if there is one.
fn offer(cx: &mut Cx<'_, Einfelst>, p: Option<PushFrame>) -> Result<(), EngineError> {
    match p {
        Some(p) => cx.push(Frame::Push(p)),
        None => Ok(()),
    }
}

/// The answer to a push decision (EIN-H20): the dice that missed are rolled again and the
/// roller takes 1 Harm (Physical for a test of Strength or Dexterity, Mental otherwise); the
/// result goes where the test was going.
fn pushed_or_not(cx: &mut Cx<'_, Einfelst>, p: PushFrame, push: bool) -> Result<(), EngineError> {
    cx.pop();
    if !push {
        return Ok(());
    }
    let dice = p.pool - p.got;
    let text = format!("{}'s pushed {} ({dice} dice)", cx.s.ch(p.who).name, p.action.word());
    let (more, faces) = successes(cx, dice, &text)?;
    cx.emit(Event::Pushed {
        who: p.who,
        dice,
        successes: more,
        faces,
    });
    let got = p.got.saturating_add(more);
    let top = cx.s.frames.last().copied();
    match (p.slot, top) {
        (PushSlot::Attack, Some(Frame::Attack(a))) => cx.update(Frame::Attack(AttackFrame { att: Some(got), ..a })),
        (PushSlot::Defence, Some(Frame::Attack(a))) => cx.update(Frame::Attack(AttackFrame { def: Some(got), ..a })),
        (PushSlot::Flee, Some(Frame::Flee(f))) => cx.update(Frame::Flee(FleeFrame { rolled: Some(got), ..f })),
        (PushSlot::Break, Some(Frame::Break(b))) => cx.update(Frame::Break(BreakFrame { rolled: Some(got), ..b })),
        // The saved successes were counted already; the push adds its own.
        (PushSlot::Extinguish, _) => extinguished(cx, p.who, more),
        (PushSlot::Obstacle(z), _) if p.got < p.need && got >= p.need => crossed(cx, p.who, z)?,
        (PushSlot::Clear(z), _) if p.got < p.need && got >= p.need => cleared(cx, p.who, z),
        _ => {}
    }
    let mental = !attribute(&cx.s, p.who, p.action, Kind::Test).physical();
    harm(cx, p.who, mental, 1)
}

/// EIN-R40: extinguishing successes add up until they reach the fire's number.
fn extinguished(cx: &mut Cx<'_, Einfelst>, who: Cid, got: u8) {
    if let Some(fire) = cx.s.ch(who).fire {
        let need = cx.s.options.fire_extinguish[(fire.intensity.clamp(1, 3) - 1) as usize];
        let saved = fire.saved.saturating_add(got);
        cx.emit(Event::Doused {
            who,
            saved,
            out: saved >= need,
        });
    }
}

/// EIN-R15: the obstacle between `who`'s zone and `z` is cleared, for everyone.
fn cleared(cx: &mut Cx<'_, Einfelst>, who: Cid, z: fray_space::ZoneId) {
    let a = cx.s.ch(who).zone;
    cx.emit(Event::Cleared { who, a, b: z });
}

/// Into the next zone (EIN-R13); a pinned creature takes its 1 Harm.
fn crossed(cx: &mut Cx<'_, Einfelst>, who: Cid, z: fray_space::ZoneId) -> Result<(), EngineError> {
    cx.emit(Event::Placed {
        who,
        zone: z,
        far: false,
        cover: false,
        beside: None,
    });
    if cx.s.ch(who).pinned {
        cx.emit(Event::Pinned { who, on: false });
        harm(cx, who, false, 1)?;
    }
    Ok(())
}

/// The Director's raw pool (EIN-H21).
fn raw(cx: &mut Cx<'_, Einfelst>, n: u8, why: crate::state::Why, what: &str) -> Result<u8, EngineError> {
    let n = n.min(fray_dice::MAX_DICE as u8);
    let (got, faces) = successes(cx, n, &format!("{what} ({n} dice)"))?;
    cx.emit(Event::Tested {
        who: None,
        why,
        action: None,
        pool: n,
        successes: got,
        need: 0,
        faces,
    });
    Ok(got)
}

/// Spends a manoeuvre; under `first-maneuver`, a manoeuvre without a test loses the ambush
/// bonus (EIN-H11).
fn spend(cx: &mut Cx<'_, Einfelst>, who: Cid, pay: Pay, tests: bool) {
    cx.emit(Event::Spent {
        who,
        n: pay.n,
        slow: pay.slow,
    });
    if !tests && cx.s.ch(who).ambush_bonus > 0 && cx.s.options.ambush_bonus_target == AmbushBonusTarget::FirstManeuver {
        cx.emit(Event::AmbushUsed { who });
    }
}

/// Harm to a creature (EIN-R34): points at once (EIN-R24); on a track at once when there is
/// only one way to mark it, else the creature's seat splits it (a frame).
pub fn harm(cx: &mut Cx<'_, Einfelst>, who: Cid, mental: bool, amount: u8) -> Result<(), EngineError> {
    if amount == 0 || cx.s.ch(who).out() && cx.s.ch(who).status != Status::Incapacitated {
        return Ok(());
    }
    if cx.s.stats(who).harm_points.is_some() {
        cx.emit(Event::Harmed {
            who,
            mental,
            parts: Vec::new(),
            points: amount,
        });
        return Ok(());
    }
    if !check::split_matters(&cx.s, who, mental, amount) {
        let parts = splits(amount).into_iter().next().unwrap_or_default();
        return marked(cx, who, mental, parts);
    }
    cx.push(Frame::Split(SplitFrame { who, mental, amount }))
}

/// Marks Harm on a track; a creature it breaks rolls its critical injury (EIN-H22).
fn marked(cx: &mut Cx<'_, Einfelst>, who: Cid, mental: bool, parts: Vec<u8>) -> Result<(), EngineError> {
    let before = cx.s.ch(who).status;
    cx.emit(Event::Harmed {
        who,
        mental,
        parts,
        points: 0,
    });
    if before != Status::Broken && cx.s.ch(who).status == Status::Broken {
        let what = format!("{}'s critical injury", cx.s.ch(who).name);
        let roll = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &what)?.total as u8;
        cx.emit(Event::Injured { who, roll });
    }
    Ok(())
}

/// Runs the start: the ambush, the cards and Fear, then the first decision.
pub fn start(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    advance(cx)
}

fn not_checked(c: &Command) -> EngineError {
    EngineError::Bug(format!("{c:?} was resolved in a state the check should have refused"))
}

/// What the check found pays `c`, a manoeuvre or a reaction.
fn paid(plan: Plan, c: &Command) -> Result<Pay, EngineError> {
    match plan {
        Plan::Pay(pay) => Ok(pay),
        _ => Err(EngineError::Bug(format!("{c:?} was resolved without what pays it"))),
    }
}

/// Resolves a command with the plan its check gave, then runs to the next decision.
pub fn resolve(cx: &mut Cx<'_, Einfelst>, seat: Seat, command: &Command, plan: Plan) -> Result<(), EngineError> {
    let st = stage(&cx.s);
    resolve_in(cx, st, seat, command, plan)
}

/// [`resolve`] of a command checked under stage `st` (what the engine hands the ruleset).
pub fn resolve_in(
    cx: &mut Cx<'_, Einfelst>,
    st: Option<Stage>,
    seat: Seat,
    command: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    if let Command::Gm(r) = command {
        cx.emit(Event::Ruled(r.clone()));
        match r {
            R::Other(o) => ruling(cx, o)?,
            // EIN-H12: a joiner draws from the cards left (or takes the highest value + 1) and
            // acts from the next round, when the order is dealt again.
            R::Add { .. } if cx.s.stage != RoundStage::Setup => {
                let who = (cx.s.chars.len() - 1) as Cid;
                for _ in 0..cx.s.stats(who).cards {
                    let card = draw(cx, who)?;
                    cx.emit(Event::Kept { who, card, back: None });
                }
            }
            _ => {}
        }
        return advance(cx);
    }
    // What the command answers, worked out once (GM rulings, above, are no stage).
    let Some(st) = st else {
        return Err(not_checked(command));
    };
    match st {
        Stage::Reaction { .. }
        | Stage::Swap { .. }
        | Stage::ExtraSuccesses { .. }
        | Stage::Chase { .. }
        | Stage::Hold { .. }
        | Stage::Harm { .. }
        | Stage::Card { .. }
        | Stage::Push { .. } => answer(cx, &st, command, plan)?,
        Stage::CardSwaps => match command {
            Command::Ready => cx.emit(Event::Ready { seat: seat.0 }),
            Command::Trade(a, b) => {
                let pair = (*a, *b);
                cx.emit(Event::Proposed { seat: seat.0, pair });
                let mut need = Seats::one(cx.s.seat_of(*a));
                need.insert(cx.s.seat_of(*b));
                let agreed = cx.s.proposals.iter().find(|p| p.pair == pair).map(|p| p.agreed);
                if agreed.is_some_and(|g| need.iter().all(|x| g.contains(x))) {
                    let (ca, cb) = (cx.s.ch(*a).cards.best(), cx.s.ch(*b).cards.best());
                    if let (Some(card_a), Some(card_b)) = (ca, cb) {
                        cx.emit(Event::Swapped {
                            a: *a,
                            card_a,
                            b: *b,
                            card_b,
                            forced: false,
                        });
                    }
                }
            }
            _ => return Err(not_checked(command)),
        },
        Stage::GroupTurn { .. } => {
            let Command::Act(who) = command else {
                return Err(not_checked(command));
            };
            // EIN-R2: the member the group's seat sends next.
            cx.emit(Event::GroupTurn { who: *who });
            if let Some(at) = cx.s.order.current_slot() {
                cx.emit(Event::TurnStarted { who: at.who, n: at.n });
            }
        }
        Stage::Turn { who, .. } => turn(cx, who, command, plan)?,
    }
    advance(cx)
}

fn turn(cx: &mut Cx<'_, Einfelst>, who: Cid, c: &Command, plan: Plan) -> Result<(), EngineError> {
    let me = cx.s.ch(who).clone();
    let attack =
        |cx: &mut Cx<'_, Einfelst>, target: Cid, kind: AttackKind, weapon: Option<u8>| -> Result<(), EngineError> {
            spend(cx, who, paid(plan, c)?, true);
            let need = attack_need(&cx.s, who, target, kind);
            let distance = cx.s.distance(who, target);
            cx.push(Frame::Attack(AttackFrame {
                by: who,
                target,
                kind,
                weapon,
                need,
                distance,
                defence: None,
                att: None,
                def: None,
                rolled: None,
                defender_swap: None,
                spend: None,
            }))
        };
    match c {
        Command::Strike(x) => attack(cx, *x, AttackKind::Strike, me.wield)?,
        Command::Shoot(x) => attack(cx, *x, AttackKind::Shoot, me.wield)?,
        Command::Punch(x) => attack(cx, *x, AttackKind::Unarmed, None)?,
        Command::Grapple(x) => attack(cx, *x, AttackKind::Grapple, None)?,
        Command::Shove(x, to) => attack(cx, *x, AttackKind::Shove(*to), None)?,
        Command::Cast(sp, x) => attack(cx, *x, AttackKind::Cast(*sp), None)?,
        Command::Flee(action) | Command::FleeTo(action, _) => {
            // EIN-R32: the way the fleer names, or the way out the check found.
            let Plan::Flee { pay, toward } = plan else {
                return Err(not_checked(c));
            };
            spend(cx, who, pay, true);
            cx.push(Frame::Flee(FleeFrame {
                who,
                action: *action,
                toward,
                rolled: None,
                asked: 0,
                chasers: 0,
            }))?;
        }
        Command::Extinguish => {
            // EIN-R40: Finesse; successes build up until they reach the fire's number.
            spend(cx, who, paid(plan, c)?, true);
            let fire = me.fire.ok_or_else(|| not_checked(c))?;
            let need = cx.s.options.fire_extinguish[(fire.intensity.clamp(1, 3) - 1) as usize];
            let why = crate::state::Why::Extinguish;
            let (got, push) = pushable(cx, who, Action::Finesse, Kind::Test, need, why, PushSlot::Extinguish)?;
            extinguished(cx, who, got);
            let _ = fire;
            if cx.s.ch(who).fire.is_some() {
                offer(cx, push)?;
            }
        }
        Command::Test(action) => {
            spend(cx, who, paid(plan, c)?, true);
            let need = 1 + circumstance_extra(&cx.s, who, *action, None);
            let why = crate::state::Why::Other;
            let (_, push) = pushable(cx, who, *action, Kind::Test, need, why, PushSlot::Test)?;
            offer(cx, push)?;
        }
        Command::Move(z) => {
            // The obstacle crossed, if any (a cleared one is no longer crossed: EIN-R15), and
            // its manoeuvre.
            let Plan::Obstacle { pay, obstacle: ob } = plan else {
                return Err(not_checked(c));
            };
            let action = ob.as_ref().and_then(|o| o.action);
            spend(cx, who, pay, action.is_some());
            if let (Some(o), Some(a)) = (&ob, action) {
                // EIN-R15: the obstacle's test; on a failure the creature stays (unless a push
                // makes it).
                let need = o.need + circumstance_extra(&cx.s, who, a, None);
                let why = crate::state::Why::Obstacle;
                let (got, push) = pushable(cx, who, a, Kind::Test, need, why, PushSlot::Obstacle(*z))?;
                if got >= need {
                    crossed(cx, who, *z)?;
                } else {
                    offer(cx, push)?;
                }
            } else {
                crossed(cx, who, *z)?;
            }
        }
        Command::Clear(z) => {
            // EIN-R15: the obstacle's manoeuvre and test clear it, once, for everyone.
            let Plan::Obstacle {
                pay,
                obstacle: Some(ob),
            } = plan
            else {
                return Err(not_checked(c));
            };
            spend(cx, who, pay, ob.action.is_some());
            match ob.action {
                Some(a) => {
                    let need = ob.need + circumstance_extra(&cx.s, who, a, None);
                    let why = crate::state::Why::Clear;
                    let (got, push) = pushable(cx, who, a, Kind::Test, need, why, PushSlot::Clear(*z))?;
                    if got >= need {
                        cleared(cx, who, *z);
                    } else {
                        offer(cx, push)?;
                    }
                }
                None => cleared(cx, who, *z),
            }
        }
        Command::Close(x) => {
            spend(cx, who, paid(plan, c)?, false);
            cx.emit(Event::Placed {
                who,
                zone: me.zone,
                far: false,
                cover: false,
                beside: Some(*x),
            });
        }
        Command::Withdraw | Command::Cover => {
            spend(cx, who, paid(plan, c)?, false);
            let cover = *c == Command::Cover;
            cx.emit(Event::Placed {
                who,
                zone: me.zone,
                far: if cover { me.far } else { true },
                cover,
                beside: None,
            });
        }
        Command::Draw(w) => {
            spend(cx, who, paid(plan, c)?, false);
            cx.emit(Event::Wielded { who, weapon: *w });
        }
        Command::PickUp(w) => {
            spend(cx, who, paid(plan, c)?, false);
            cx.emit(Event::PickedUp { who, weapon: *w });
        }
        Command::Stand => {
            spend(cx, who, paid(plan, c)?, false);
            cx.emit(Event::Prone { who, on: false });
        }
        Command::Shout | Command::Interact => {
            spend(cx, who, paid(plan, c)?, false);
            cx.emit(Event::Quick {
                who,
                shout: *c == Command::Shout,
            });
        }
        Command::BreakFree => {
            spend(cx, who, paid(plan, c)?, true);
            let holder = me.held_by.ok_or_else(|| not_checked(c))?;
            cx.emit(Event::TriedBreak { who });
            cx.push(Frame::Break(BreakFrame {
                who,
                holder,
                rolled: None,
                hold: None,
            }))?;
        }
        Command::Release => {
            let held: Vec<Cid> = cx.s.ids().filter(|&o| cx.s.ch(o).held_by == Some(who)).collect();
            for h in held {
                cx.emit(Event::Freed { who: h });
            }
        }
        Command::End => cx.emit(Event::TurnEnded {
            who,
            how: crate::state::TurnEnd::Ended,
        }),
        _ => return Err(not_checked(c)),
    }
    Ok(())
}

/// An answer to the decision `st` the frame on top of the stack asks, with its plan; the frame
/// gives what the stage does not hold.
fn answer(cx: &mut Cx<'_, Einfelst>, st: &Stage, c: &Command, plan: Plan) -> Result<(), EngineError> {
    let f = cx.s.frames.last().copied().ok_or_else(|| not_checked(c))?;
    match (*st, f) {
        (Stage::Reaction { .. }, Frame::Attack(a)) => {
            let d = c.defence().ok_or_else(|| not_checked(c))?;
            if d != Defence::None {
                spend(cx, a.target, paid(plan, c)?, true);
            }
            cx.update(Frame::Attack(AttackFrame { defence: Some(d), ..a }));
        }
        (Stage::Swap { .. }, Frame::Attack(a)) => {
            let taken = match c {
                Command::Swap(take, give) => Some((*take, *give)),
                _ => None,
            };
            if let Some((card_a, card_b)) = taken {
                // EIN-R7: the defender takes one of the attacker's cards for one of its own.
                cx.emit(Event::Swapped {
                    a: a.by,
                    card_a,
                    b: a.target,
                    card_b,
                    forced: true,
                });
            }
            cx.update(Frame::Attack(AttackFrame {
                defender_swap: Some(taken.map_or(crate::state::SwapAnswer::Declined, |x| {
                    crate::state::SwapAnswer::Took(x.0)
                })),
                ..a
            }));
        }
        (Stage::ExtraSuccesses { .. }, Frame::Attack(a)) => {
            let Command::Spend(sp) = c else {
                return Err(not_checked(c));
            };
            cx.update(Frame::Attack(AttackFrame { spend: Some(*sp), ..a }));
        }
        (Stage::Chase { .. }, Frame::Flee(fl)) => {
            // The foe asked, as the check found it (the stage's chaser, `next_chaser`).
            let Plan::Chaser { who, pay } = plan else {
                return Err(not_checked(c));
            };
            let bit = 1u64 << who;
            let mut fl2 = FleeFrame {
                asked: fl.asked | bit,
                ..fl
            };
            if let Command::Chase(action) = c {
                spend(cx, who, pay.ok_or_else(|| not_checked(c))?, true);
                fl2.chasers |= bit;
                cx.emit(Event::Chasing { who, action: *action });
            }
            cx.update(Frame::Flee(fl2));
        }
        (Stage::Hold { .. }, Frame::Break(b)) => {
            let hold = *c == Command::Hold;
            if hold {
                spend(cx, b.holder, paid(plan, c)?, true);
            }
            cx.update(Frame::Break(BreakFrame { hold: Some(hold), ..b }));
        }
        (Stage::Harm { who, mental, .. }, Frame::Split(_)) => {
            let Command::Split(parts) = c else {
                return Err(not_checked(c));
            };
            cx.pop();
            marked(cx, who, mental, parts.clone())?;
        }
        (Stage::Push { .. }, Frame::Push(p)) => {
            let Command::Push(yes) = c else {
                return Err(not_checked(c));
            };
            pushed_or_not(cx, p, *yes)?;
        }
        (Stage::Card { who, drawn }, Frame::Keep(_)) => {
            let Command::Keep(card) = c else {
                return Err(not_checked(c));
            };
            let back = if drawn[0] == *card { drawn[1] } else { drawn[0] };
            cx.pop();
            cx.emit(Event::Kept {
                who,
                card: *card,
                back: Some(back),
            });
        }
        _ => return Err(not_checked(c)),
    }
    Ok(())
}

/// The next creature to ask whether it chases (EIN-R33, EIN-H26): a foe of the fleer in its
/// zone, still in the fight, free, able to react, and not yet asked; only before the roll or
/// only after it, as `opposing-reaction-timing` says.
pub fn next_chaser(s: &State, fl: &FleeFrame) -> Option<Cid> {
    let before = s.options.opposing_reaction_timing == OpposingTiming::BeforeRoll;
    if before != fl.rolled.is_none() {
        return None;
    }
    let zone = s.ch(fl.who).zone;
    s.ids().find(|&c| {
        let ch = s.ch(c);
        fl.asked & (1u64 << c) == 0
            && s.foes(c, fl.who)
            && ch.zone == zone
            && ch.held_by.is_none()
            && check::may_react(s, c)
    })
}

/// Whether the holder is asked to hold now (EIN-R30, EIN-H26).
pub fn asks_holder(s: &State, b: &BreakFrame) -> bool {
    let before = s.options.opposing_reaction_timing == OpposingTiming::BeforeRoll;
    b.hold.is_none() && before == b.rolled.is_none() && check::may_react(s, b.holder)
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    settle(cx, |cx| {
        let s = &*cx.s;
        if s.outcome.is_some() {
            return Ok(Flow::Wait);
        }
        if let Some(f) = s.frames.last().copied() {
            return frame(cx, f);
        }
        if s.stage != RoundStage::Setup
            && let Some(winner) = last_side_standing(s)
        {
            cx.emit(Event::Ended { winner });
            return Ok(Flow::Go);
        }
        match s.stage {
            RoundStage::Setup => setup_step(cx),
            RoundStage::Hazards => hazard_step(cx),
            RoundStage::Swaps => {
                if s.swapping.is_empty() {
                    cx.emit(Event::Ordered);
                    Ok(Flow::Go)
                } else if let Some(seat) = s.swapping.iter().find(|&x| check::swaps_blocked(s, x)) {
                    // EIN-R5: every swap this seat could make needs a seat that is done.
                    cx.emit(Event::Ready { seat: seat.0 });
                    Ok(Flow::Go)
                } else {
                    Ok(Flow::Wait)
                }
            }
            RoundStage::Turns => turn_step(cx),
        }
    })
}

fn setup_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if !s.ambushed && s.setup.ambush.is_some() {
        ambush(cx)?;
        return Ok(Flow::Go);
    }
    // EIN-H25: whoever gets the extra card draws first.
    let lacks = |i: usize| {
        let c = &s.chars[i];
        let grouped = c
            .group
            .is_some_and(|g| s.chars.iter().any(|o| o.group == Some(g) && o.shares));
        !c.out() && !grouped && c.cards.len() < s.blocks[c.block as usize].cards as usize
    };
    let extra = s.extra_card_side;
    let next = (0..s.chars.len())
        .find(|&i| lacks(i) && Some(s.chars[i].side) == extra)
        .or_else(|| (0..s.chars.len()).find(|&i| lacks(i)));
    if let Some(i) = next {
        let who = i as Cid;
        let two = Some(s.chars[i].side) == extra && s.chars[i].cards.is_empty();
        let first = draw(cx, who)?;
        if !two {
            cx.emit(Event::Kept {
                who,
                card: first,
                back: None,
            });
            return Ok(Flow::Go);
        }
        let second = draw(cx, who)?;
        let (lo, hi) = if first.key(false) <= second.key(false) {
            (first, second)
        } else {
            (second, first)
        };
        if cx.s.options.ask_card_choice {
            cx.push(Frame::Keep(KeepFrame { who, drawn: [lo, hi] }))?;
        } else {
            cx.emit(Event::Kept {
                who,
                card: lo,
                back: Some(hi),
            });
        }
        return Ok(Flow::Go);
    }
    // Fear at the start (fray's own, option `fear-at-start`): each player character facing a
    // creature with a Fear value tests against the highest.
    let mut tests = Vec::new();
    if s.options.fear_at_start {
        for c in s.ids().filter(|&c| s.ch(c).pc && !s.ch(c).out()) {
            let worst = s
                .ids()
                .filter(|&o| s.foes(c, o) && !s.ch(o).out())
                .map(|o| s.stats(o).fear)
                .max()
                .unwrap_or(0);
            if worst > 0 {
                tests.push((c, worst));
            }
        }
    }
    cx.emit(Event::SetupDone);
    let position = cx.s.options.default_position;
    for (c, v) in tests.into_iter().rev() {
        fear(cx, c, v, position)?;
    }
    Ok(Flow::Go)
}

/// Draws one card for `who` from the seeded or physical deck (EIN-R1), opening a second deck
/// when the first runs out (EIN-H12); past both, a joiner takes the highest value + 1.
fn draw(cx: &mut Cx<'_, Einfelst>, who: Cid) -> Result<Card, EngineError> {
    let s = &*cx.s;
    if s.deck.is_empty() {
        let top = s
            .chars
            .iter()
            .flat_map(|c| c.cards.cards().iter().map(|k| k.value))
            .max()
            .unwrap_or(10);
        let opened = s.chars.iter().any(|c| c.cards.cards().iter().any(|k| k.deck >= 1));
        if opened || s.round > 0 {
            return Ok(Card {
                value: top.saturating_add(1).min(60),
                deck: 2,
            });
        }
        cx.emit(Event::NewDeck);
    }
    let why = format!("{}'s initiative card", cx.s.ch(who).name);
    let code = cx.dice.draw(cx.s.deck.cards(), &why)?;
    let card = Card::from_code(code);
    cx.emit(Event::Drew { who, card });
    Ok(card)
}

/// The ambush (EIN-R8 to EIN-R10, EIN-H25).
fn ambush(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let Some(a) = s.setup.ambush.clone() else { return Ok(()) };
    let ambushers: Vec<Cid> = s.ids().filter(|&c| s.ch(c).side == a.side && !s.ch(c).out()).collect();
    let targets: Vec<Cid> = s.ids().filter(|&c| s.ch(c).side != a.side && !s.ch(c).out()).collect();
    let n = ambushers.len() as u8;
    let spot = match a.test {
        AmbushTest::None => {
            // EIN-R10: granted, no test and so no bonus.
            cx.emit(Event::Ambushed {
                extra_card_side: Some(a.side),
                ambushers: n,
                bonus: 0,
            });
            return Ok(());
        }
        AmbushTest::Track => Action::Track,
        AmbushTest::Read => Action::Read,
    };
    // EIN-R9: one roll for all; the named roller, else the largest Sneak pool. EIN-H25: the
    // target with the largest Track or Read pool rolls for the targets.
    let best = |list: &[Cid], action: Action| {
        list.iter()
            .copied()
            .max_by_key(|&c| (pool(s, c, action, Kind::Test, 0).0, std::cmp::Reverse(c)))
    };
    let roller = a.roller.or_else(|| best(&ambushers, Action::Sneak));
    let spotter = best(&targets, spot);
    let (Some(roller), Some(spotter)) = (roller, spotter) else {
        cx.emit(Event::Ambushed {
            extra_card_side: None,
            ambushers: n,
            bonus: 0,
        });
        return Ok(());
    };
    let sneak = test(cx, roller, Action::Sneak, Kind::Test, 1, crate::state::Why::Ambush, 0)?;
    let seen = test(cx, spotter, spot, Kind::Test, 0, crate::state::Why::Spot, 0)?;
    // EIN-R8: the target's successes cancel the Sneak's; at least 1 must be left (or, with
    // `ambush-ties = "succeed"`, a tie is enough).
    let left = sneak.saturating_sub(seen);
    let other = cx.s.ch(spotter).side;
    let tie_wins = cx.s.options.ambush_ties == crate::options::Ties::Succeed && sneak == seen && sneak > 0;
    cx.emit(if left >= 1 || tie_wins {
        Event::Ambushed {
            extra_card_side: Some(a.side),
            ambushers: n,
            bonus: left.saturating_sub(1),
        }
    } else {
        Event::Ambushed {
            extra_card_side: Some(other),
            ambushers: n,
            bonus: 0,
        }
    });
    Ok(())
}

/// A Fear test (EIN-R35 to EIN-R37).
pub fn fear(cx: &mut Cx<'_, Einfelst>, who: Cid, value: u8, position: Position) -> Result<(), EngineError> {
    let s = &*cx.s;
    let me = s.ch(who);
    // EIN-R35, EIN-H8: the player characters in the roller's zone, without Severe Mental Harm.
    let helpers = s
        .ids()
        .filter(|&o| {
            let c = s.ch(o);
            c.pc && c.side == me.side
                && (o != who || s.options.fear_counts_self)
                && !matches!(c.status, Status::Fled | Status::Removed)
                && c.zone == me.zone
                && c.harm.mental[2] == 0
        })
        .count() as u8;
    let help = helpers.min(s.options.fear_help_max);
    let got = test(
        cx,
        who,
        Action::Endure,
        Kind::Fear,
        value,
        crate::state::Why::Fear,
        help,
    )?;
    let i = match position {
        Position::Controlled => 0,
        Position::Risky => 1,
        Position::Desperate => 2,
    };
    if got >= value {
        if position == Position::Controlled && cx.s.options.controlled_bonus > 0 {
            let dice = cx.s.options.controlled_bonus;
            cx.emit(Event::Bonus { who, dice });
        }
        Ok(())
    } else {
        let amount = cx.s.options.fear_harm[i];
        harm(cx, who, true, amount)
    }
}

/// Poison (EIN-R41, EIN-R42, EIN-H27).
pub fn poison(cx: &mut Cx<'_, Einfelst>, who: Cid, toxicity: u8, mental: bool) -> Result<(), EngineError> {
    let d = raw(cx, toxicity, crate::state::Why::Toxin, "the poison")?;
    let v = test(cx, who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Poison, 0)?;
    let amount = if v > d {
        0
    } else if v == d {
        if d == 0 && cx.s.options.poison_zero_tie == PoisonZeroTie::None {
            0
        } else {
            1
        }
    } else {
        d
    };
    cx.emit(Event::Poisoned {
        who,
        next: amount.saturating_sub(1),
        mental,
    });
    harm(cx, who, mental, amount)
}

fn ruling(cx: &mut Cx<'_, Einfelst>, o: &Own) -> Result<(), EngineError> {
    match o {
        Own::Fear { who, value, position } => {
            let p = position.unwrap_or(cx.s.options.default_position);
            fear(cx, *who, *value, p)
        }
        Own::Ignite { who, intensity } => {
            cx.emit(Event::Ignited {
                who: *who,
                intensity: *intensity,
            });
            let h = cx.s.options.fire_ignition_harm;
            harm(cx, *who, false, h)
        }
        Own::Poison { who, toxicity, mental } => poison(cx, *who, *toxicity, *mental),
        Own::Fall { who, feet, hard } => {
            // EIN-R43, EIN-H5.
            let o = &cx.s.options;
            let dice = if *hard && *feet >= o.fall_min_feet {
                ((*feet / 5) as u32 * u32::from(o.fall_dice_per_5ft)).min(fray_dice::MAX_DICE as u32) as u8
            } else {
                0
            };
            cx.emit(Event::Fell {
                who: *who,
                feet: *feet,
                dice,
            });
            if dice > 0 {
                let d = raw(cx, dice, crate::state::Why::Impact, "the fall")?;
                let v = test(cx, *who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Fall, 0)?;
                // EIN-H29: a fall leaves it down.
                cx.emit(Event::Prone { who: *who, on: true });
                harm(cx, *who, false, d.saturating_sub(v))?;
            }
            Ok(())
        }
        Own::Deprive { who, mental } => {
            let got = test(
                cx,
                *who,
                Action::Endure,
                Kind::Hazard,
                1,
                crate::state::Why::Deprivation,
                0,
            )?;
            if got == 0 { harm(cx, *who, *mental, 1) } else { Ok(()) }
        }
        Own::Circumstance { name, on, zone } => {
            cx.emit(Event::Circumstance {
                name: name.clone(),
                zone: *zone,
                on: *on,
            });
            Ok(())
        }
        Own::Douse { .. } | Own::Antidote { .. } | Own::Prone { .. } | Own::Release { .. } => Ok(()),
    }
}

fn hazard_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.round == 0 {
        cx.emit(Event::RoundStarted { round: 1 });
        return Ok(Flow::Go);
    }
    // EIN-R39, EIN-R42, EIN-H27: fire, then poison, at the start of each later round.
    if let Some(who) = s.ids().find(|&c| {
        let ch = s.ch(c);
        // The incapacitated keep burning and suffering the poison.
        matches!(ch.status, Status::Fighting | Status::Incapacitated)
            && ch.ticked < s.round
            && (ch.fire.is_some() || ch.poison.is_some())
    }) {
        let ch = s.ch(who).clone();
        cx.emit(Event::Ticked { who });
        if let Some(f) = ch.fire {
            let dmg = cx.s.options.fire_damage[(f.intensity.clamp(1, 3) - 1) as usize];
            let got = test(cx, who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Fire, 0)?;
            harm(cx, who, false, dmg.saturating_sub(got))?;
        }
        if let Some(p) = ch.poison {
            cx.emit(Event::Poisoned {
                who,
                next: p.next.saturating_sub(1),
                mental: p.mental,
            });
            harm(cx, who, p.mental, p.next)?;
        }
        return Ok(Flow::Go);
    }
    // EIN-R5: the seats of player characters who could swap.
    let mut seats = Seats::EMPTY;
    let n = s.chars.len() as Cid;
    for a in 0..n {
        for b in a + 1..n {
            for seat in [s.seat_of(a), s.seat_of(b)] {
                if check::may_trade(s, seat, a, b) {
                    seats.insert(s.seat_of(a));
                    seats.insert(s.seat_of(b));
                }
            }
        }
    }
    if seats.is_empty() {
        cx.emit(Event::Ordered);
    } else {
        cx.emit(Event::Staged {
            stage: RoundStage::Swaps,
            seats,
        });
    }
    Ok(Flow::Go)
}

fn turn_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    match s.turn {
        Some(t) => {
            let c = s.ch(t.who);
            let holds = s.chars.iter().any(|o| o.held_by == Some(t.who));
            let how = if c.out() {
                Some(crate::state::TurnEnd::Out)
            } else if c.left[t.n as usize] == [0, 0] && !holds {
                // The turn ends by itself: nothing is left (EIN-R16).
                Some(crate::state::TurnEnd::Spent)
            } else {
                None
            };
            if let Some(how) = how {
                cx.emit(Event::TurnEnded { who: t.who, how });
                Ok(Flow::Go)
            } else {
                Ok(Flow::Wait)
            }
        }
        None => match s.order.current_slot() {
            // EIN-R2: the group's seat picks which member takes the turn now.
            Some(_) if check::group_choices(s) != 0 => Ok(Flow::Wait),
            Some(at) => {
                cx.emit(Event::TurnStarted { who: at.who, n: at.n });
                Ok(Flow::Go)
            }
            None => {
                cx.emit(Event::RoundStarted { round: s.round + 1 });
                Ok(Flow::Go)
            }
        },
    }
}

fn frame(cx: &mut Cx<'_, Einfelst>, f: Frame) -> Result<Flow, EngineError> {
    match f {
        Frame::Attack(a) => attack_step(cx, a),
        Frame::Flee(fl) => flee_step(cx, fl),
        Frame::Break(b) => break_step(cx, b),
        Frame::Split(sp) => {
            if cx.s.ch(sp.who).status == Status::Fighting || cx.s.ch(sp.who).status == Status::Incapacitated {
                Ok(Flow::Wait)
            } else {
                cx.pop();
                Ok(Flow::Go)
            }
        }
        Frame::Keep(_) => Ok(Flow::Wait),
        Frame::Push(p) => {
            if cx.s.ch(p.who).out() {
                // Out before deciding (a GM ruling): the roll stands.
                cx.pop();
                Ok(Flow::Go)
            } else {
                Ok(Flow::Wait)
            }
        }
    }
}

fn attack_step(cx: &mut Cx<'_, Einfelst>, a: AttackFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(a.by).out() || s.ch(a.target).out() {
        cx.pop();
        return Ok(Flow::Go);
    }
    if a.defence.is_none() {
        if !check::can_defend(s, &a) {
            cx.update(Frame::Attack(AttackFrame {
                defence: Some(Defence::None),
                ..a
            }));
            return Ok(Flow::Go);
        }
        return Ok(Flow::Wait);
    }
    if a.rolled.is_none() {
        // EIN-R20: the defence was declared before this roll.
        let kind = match a.kind {
            AttackKind::Grapple | AttackKind::Shove(_) => Kind::Grapple,
            _ => Kind::Attack,
        };
        if a.att.is_none() {
            let why = crate::state::Why::Attack;
            let action = check::attack_action(&cx.s, a.kind, a.weapon);
            let (got, push) = pushable(cx, a.by, action, kind, a.need, why, PushSlot::Attack)?;
            cx.update(Frame::Attack(AttackFrame { att: Some(got), ..a }));
            offer(cx, push)?;
            return Ok(Flow::Go);
        }
        if a.def.is_none() {
            let roll = match a.defence {
                Some(Defence::Dodge) => Some((Action::Finesse, Kind::Defence)),
                // EIN-R25: Strike armed, Force unarmed (a natural weapon: its own Action).
                Some(Defence::Parry) => Some((check::parry_action(&cx.s, a.target), Kind::Defence)),
                Some(Defence::BreakFree) => Some((Action::Force, Kind::BreakFree)),
                Some(Defence::Resist) => {
                    let AttackKind::Cast(sp) = a.kind else {
                        return Err(EngineError::Bug("resist without a spell".into()));
                    };
                    let act =
                        cx.s.setup
                            .spells
                            .values()
                            .nth(sp as usize)
                            .map_or(Action::Endure, |x| x.resist);
                    Some((act, Kind::Defence))
                }
                _ => None,
            };
            let (got, push) = match roll {
                Some((action, k)) => {
                    let why = crate::state::Why::Defence;
                    pushable(cx, a.target, action, k, 0, why, PushSlot::Defence)?
                }
                None => (0, None),
            };
            cx.update(Frame::Attack(AttackFrame { def: Some(got), ..a }));
            offer(cx, push)?;
            return Ok(Flow::Go);
        }
        let (att, def) = (a.att.unwrap_or(0), a.def.unwrap_or(0));
        // A thrown weapon lands in the target's zone, hit or miss (fray's own,
        // `thrown-weapons-lost`).
        let thrown = a
            .weapon
            .and_then(|w| cx.s.weapon(w))
            .is_some_and(|w| w.kind == WeaponKind::Thrown);
        if let (Some(w), true) = (
            a.weapon,
            thrown && a.kind == AttackKind::Shoot && cx.s.options.thrown_weapons_lost,
        ) {
            let zone = cx.s.ch(a.target).zone;
            cx.emit(Event::Dropped {
                who: a.by,
                weapon: w,
                zone,
            });
        }
        // EIN-R26: each defence success cancels one attack success. EIN-R27: a break-free
        // cancels a grapple's the same way; `grapple-ties = "succeed"` lets a tie hold.
        let rolled = AttackFrame {
            rolled: Some((att, def)),
            ..a
        };
        let net = check::net(&cx.s, &rolled).unwrap_or(0);
        cx.emit(Event::AttackResult {
            by: a.by,
            target: a.target,
            net,
            hit: net >= a.need,
        });
        cx.update(Frame::Attack(AttackFrame {
            rolled: Some((att, def)),
            ..a
        }));
        return Ok(Flow::Go);
    };
    if a.defender_swap.is_none() && check::defender_may_swap(s, &a) {
        return Ok(Flow::Wait);
    }
    let net = check::net(s, &a).unwrap_or(0);
    if net > a.need && a.spend.is_none() {
        return Ok(Flow::Wait);
    }
    cx.pop();
    if net >= a.need {
        hit(cx, a, net - a.need)?;
    }
    Ok(Flow::Go)
}

/// A hit's effects (EIN-R23, EIN-R6, EIN-R28, EIN-H6).
fn hit(cx: &mut Cx<'_, Einfelst>, a: AttackFrame, extra: u8) -> Result<(), EngineError> {
    let sp = a.spend.unwrap_or_default();
    let to_damage = extra.saturating_sub(sp.cost());
    if let Some(card_b) = sp.swap {
        let mine =
            cx.s.turn
                .filter(|t| t.who == a.by)
                .and_then(|t| turn_card(&cx.s, a.by, t.n));
        if let Some(card_a) = mine {
            cx.emit(Event::Swapped {
                a: a.by,
                card_a,
                b: a.target,
                card_b,
                forced: true,
            });
        }
    }
    let t = a.target;
    let (base, mental, weapon) = match a.kind {
        AttackKind::Grapple => {
            // EIN-R28.
            cx.emit(Event::Restrained {
                who: t,
                by: a.by,
                silenced: sp.silence,
            });
            return Ok(());
        }
        AttackKind::Shove(to) => {
            let e = pushed(&cx.s, t, to);
            cx.emit(e);
            return Ok(());
        }
        AttackKind::Unarmed => (1, sp.mental, None),
        AttackKind::Cast(i) => {
            let spell = cx.s.setup.spells.values().nth(i as usize);
            (
                spell.map_or(0, |x| x.damage),
                sp.mental || spell.is_some_and(|x| x.mental),
                None,
            )
        }
        AttackKind::Strike | AttackKind::Shoot => {
            let w = a.weapon.and_then(|w| cx.s.weapon(w)).cloned();
            (w.as_ref().map_or(1, |w| w.damage), sp.mental, w)
        }
    };
    let mut amount = base.saturating_add(to_damage);
    if !mental {
        // EIN-H6.
        let armour = cx.s.stats(t).armour;
        let cancelled = match cx.s.options.armour_mode {
            ArmourMode::Cancel => armour,
            ArmourMode::Roll => raw(cx, armour, crate::state::Why::Armour, "armour")?,
        }
        .min(amount);
        if cancelled > 0 {
            cx.emit(Event::Armoured { who: t, cancelled });
        }
        amount -= cancelled;
    }
    if let Some(to) = sp.push {
        let e = pushed(&cx.s, t, to);
        cx.emit(e);
    }
    if sp.disarm
        && let Some(w) = cx.s.ch(t).wield
    {
        let zone = cx.s.ch(t).zone;
        cx.emit(Event::Dropped {
            who: t,
            weapon: w,
            zone,
        });
    }
    if sp.pin {
        cx.emit(Event::Pinned { who: t, on: true });
    }
    harm(cx, t, mental, amount)?;
    if let Some(w) = weapon
        && amount > 0
        && !mental
    {
        if w.fire > 0 && cx.s.ch(t).fire.is_none() && !cx.s.ch(t).out() {
            cx.emit(Event::Ignited {
                who: t,
                intensity: w.fire,
            });
            let h = cx.s.options.fire_ignition_harm;
            harm(cx, t, false, h)?;
        }
        if w.poison > 0 && !cx.s.ch(t).out() {
            poison(cx, t, w.poison, false)?;
        }
    }
    Ok(())
}

fn flee_step(cx: &mut Cx<'_, Einfelst>, fl: FleeFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(fl.who).out() {
        cx.pop();
        return Ok(Flow::Go);
    }
    if next_chaser(s, &fl).is_some() {
        return Ok(Flow::Wait);
    }
    let need = 1 + circumstance_extra(s, fl.who, fl.action, None);
    let Some(got) = fl.rolled else {
        let why = crate::state::Why::Flee;
        let (got, push) = pushable(cx, fl.who, fl.action, Kind::Flee, need, why, PushSlot::Flee)?;
        cx.update(Frame::Flee(FleeFrame {
            rolled: Some(got),
            ..fl
        }));
        offer(cx, push)?;
        return Ok(Flow::Go);
    };
    cx.pop();
    let chasers: Vec<Cid> = cx.s.ids().filter(|&c| fl.chasers & (1u64 << c) != 0).collect();
    let mut cancel = 0u8;
    for &c in &chasers {
        let action = cx.s.chase_action(c);
        cancel = cancel.saturating_add(test(cx, c, action, Kind::Chase, 0, crate::state::Why::Chase, 0)?);
    }
    let net = got.saturating_sub(cancel);
    let along = |cx: &mut Cx<'_, Einfelst>, who: Cid| {
        if let Some(z) = fl.toward {
            cx.emit(Event::Placed {
                who,
                zone: z,
                far: false,
                cover: false,
                beside: None,
            });
        }
    };
    if got < need {
        // EIN-R32: a failed flight; it stays where it is.
        cx.emit(Event::FleeFailed {
            who: fl.who,
            caught: false,
        });
    } else if net >= need {
        cx.emit(Event::Fled { who: fl.who });
        if cx.s.options.chaser_moves_on_escape {
            for &c in &chasers {
                along(cx, c);
            }
        }
    } else {
        // EIN-R33: caught; both move one zone along the way out.
        cx.emit(Event::FleeFailed {
            who: fl.who,
            caught: true,
        });
        along(cx, fl.who);
        for &c in &chasers {
            along(cx, c);
        }
    }
    Ok(Flow::Go)
}

fn break_step(cx: &mut Cx<'_, Einfelst>, b: BreakFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(b.who).out() || s.ch(b.who).held_by != Some(b.holder) {
        cx.pop();
        return Ok(Flow::Go);
    }
    if asks_holder(s, &b) {
        return Ok(Flow::Wait);
    }
    let Some(got) = b.rolled else {
        let why = crate::state::Why::BreakFree;
        let (got, push) = pushable(cx, b.who, Action::Force, Kind::BreakFree, 1, why, PushSlot::Break)?;
        cx.update(Frame::Break(BreakFrame { rolled: Some(got), ..b }));
        offer(cx, push)?;
        return Ok(Flow::Go);
    };
    cx.pop();
    let free = if b.hold == Some(true) {
        // EIN-R30, EIN-H9: an opposed roll; strictly more to get free.
        let action = match cx.s.options.hold_action {
            HoldAction::Endure => Action::Endure,
            HoldAction::Force => Action::Force,
            HoldAction::Larger => {
                let e = pool(&cx.s, b.holder, Action::Endure, Kind::BreakFree, 0).0;
                let f = pool(&cx.s, b.holder, Action::Force, Kind::BreakFree, 0).0;
                if e > f { Action::Endure } else { Action::Force }
            }
        };
        let held = test(cx, b.holder, action, Kind::BreakFree, 0, crate::state::Why::Hold, 0)?;
        got > held
    } else {
        got >= 1
    };
    cx.emit(if free {
        Event::Freed { who: b.who }
    } else {
        Event::StillHeld { who: b.who }
    });
    Ok(Flow::Go)
}

/// `Some(winner)` once at most one side has anyone in the fight: that side, or nobody.
pub fn last_side_standing(s: &State) -> Option<Option<u8>> {
    let mut sides = s.chars.iter().filter(|c| !c.out()).map(|c| c.side);
    match sides.next() {
        None => Some(None),
        Some(first) => sides.all(|x| x == first).then_some(Some(first)),
    }
}
