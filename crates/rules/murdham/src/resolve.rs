//! Resolution: the start, each command, and [`advance`], which runs every automatic step
//! (phases, passes of factions with nobody able, saves, damage, morale, the end) until the next
//! decision. State changes only through `cx.emit`; decisions in the middle of an attack or a
//! step are frames on the kit's stack.

use crate::Murdham;
use crate::check::{
    self, AttackPlan, Plan, Profile, dodge_open, dodge_open_with, guard_ok, may_react, opportunity_ok, plan, profile,
};
use crate::command::{Aim, Command, OwnRuling, Pace};
use crate::data::{Ability, Injury, Keyword, Kind, Skill, div_up};
use crate::options::{DeviationDie, MoraleFor, Opener, TieOrder};
use crate::place::Place;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{
    Attack, AttackStage, Condition, Event, Frame, Influence, Mode, Phase, Reaction, State, Status, Step, Why, With,
};
use fray_engine::gm::Ruling as R;
use fray_engine::resolve::settle;
use fray_engine::{Cx, EngineError, Flow, Reject, Seats};
use std::fmt;

type Res<T> = Result<T, EngineError>;

/// What a die is rolled for (what `--dice manual` asks), formatted only when shown.
struct For<'a>(&'a State, Cid, &'static str);

/// The "who" of a roll that is nobody's (the initiative die, the fast action threshold).
const NOBODY: Cid = Cid::MAX;

impl fmt::Display for For<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 == NOBODY {
            return write!(f, "the {}", self.2);
        }
        let name = self.0.chars.get(self.1 as usize).map_or("someone", |c| c.name.as_str());
        write!(f, "{name}'s {}", self.2)
    }
}

/// One die of `sides` faces.
fn die(cx: &mut Cx<'_, Murdham>, sides: u16, who: Cid, why: &'static str) -> Res<u16> {
    // The state and the dice are separate fields of the context: the label borrows the one
    // while the roll uses the other, and is formatted only if a person is asked for the face.
    let label = For(&cx.s, who, why);
    Ok(fray_dice::roll(cx.dice, 1, sides, fray_dice::Keep::All, &label)?.total as u16)
}

fn bug(m: impl Into<String>) -> EngineError {
    EngineError::Bug(m.into())
}

/// A command handed over with a plan its check does not give it (the caller's bug).
fn unplanned(c: &Command, plan: &Plan) -> EngineError {
    bug(format!(
        "{c:?} was resolved with the plan {plan:?}, which is not its check's"
    ))
}

/// Decides who holds the initiative (MUR-R6), then runs to the first decision.
pub fn start(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    let n = cx.s.setup.sides.len() as u16;
    match cx.s.setup.initiative {
        Some(side) => cx.emit(Event::Initiative { side, roll: None }),
        None => {
            // MUR-R6: random when it is unclear who started the fight.
            let roll = die(cx, n, NOBODY, "initiative die (1 = first faction)")?;
            cx.emit(Event::Initiative {
                side: (roll - 1) as u8,
                roll: Some(roll),
            });
        }
    }
    // MUR-R40: concealed characters get a bonus turn before round 1.
    if cx.s.chars.iter().any(|c| c.concealed && c.up()) {
        cx.emit(Event::PhaseStarted {
            phase: Phase::Ambush,
            fat: None,
        });
    }
    advance(cx)
}

/// The faction whose opportunity it is (MUR-R1), `None` once the phase is over (MUR-R3).
pub fn faction_to_pick(s: &State) -> Option<u8> {
    if !matches!(s.phase, Phase::Ambush | Phase::Round | Phase::Fast | Phase::Slow) || s.opening {
        return None;
    }
    if phase_over(s) {
        return None;
    }
    s.order.team_to_pick(|_| true)
}

/// The seats asked at faction `side`'s opportunity (MUR-R1): each seat that plays one of its
/// characters able to take a turn now, less those that have passed at this opportunity. The
/// first to give the turn to one of its own characters ends the opportunity; the faction
/// passes once every seat asked has passed. A faction played from one seat asks that seat
/// while someone of it can act, as before seats of their own.
pub fn seats_asked(s: &State, side: u8) -> Seats {
    let mut out: Seats = s
        .ids()
        .filter(|&c| s.ch(c).side == side && !s.order.has_acted(c) && s.may_take_turn(c))
        .map(|c| s.seat_of(c))
        .collect();
    if !s.seats_passed.is_empty() {
        for seat in s.seats_passed.iter() {
            out.remove(seat);
        }
    }
    out
}

/// The seats asked which faction opens (MUR-R6): each seat that plays a character of the
/// initiative faction still in the fight (the first to answer decides), or the faction's own
/// seat when none is.
pub fn openers(s: &State) -> Seats {
    let side = s.initiative;
    let mut out: Seats = s
        .ids()
        .filter(|&c| s.ch(c).side == side && s.ch(c).up())
        .map(|c| s.seat_of(c))
        .collect();
    if out.is_empty() {
        out.insert(s.setup.sides[side as usize].seat);
    }
    out
}

/// Whether someone of `side` can take a turn now (MUR-R4).
pub fn side_can_act(s: &State, side: u8) -> bool {
    s.ids()
        .any(|c| s.ch(c).side == side && !s.order.has_acted(c) && s.may_take_turn(c))
}

/// MUR-R3, MUR-H14: every faction (or, with `every-faction-passes = false`, every faction with
/// someone able to act) has passed since the last turn.
fn phase_over(s: &State) -> bool {
    (0..s.setup.sides.len() as u8)
        .filter(|&f| s.options.every_faction_passes || side_can_act(s, f))
        .all(|f| s.passed[f as usize])
}

/// Resolves a command with the plan its check gave it, then runs to the next decision. The
/// stage is worked out once, here, and the command answers it.
pub fn resolve(cx: &mut Cx<'_, Murdham>, command: &Command, plan: Plan) -> Res<()> {
    let st = stage(&cx.s);
    resolve_in(cx, st, command, plan)
}

/// [`resolve`] of a command checked under stage `st` (what the engine hands the ruleset).
pub fn resolve_in(cx: &mut Cx<'_, Murdham>, st: Option<Stage>, command: &Command, plan: Plan) -> Res<()> {
    // GM rulings are no stage: resolved whatever the game waits for.
    if let Command::Gm(r) = command {
        cx.emit(Event::Ruled(r.clone()));
        ruled(cx, r)?;
        return advance(cx);
    }
    let st = st.ok_or_else(|| bug(format!("{command:?} was resolved with nothing asked")))?;
    match st {
        Stage::StuntApproval { .. }
        | Stage::Stunt { .. }
        | Stage::Reaction { .. }
        | Stage::Guard { .. }
        | Stage::StandIn { .. } => {
            let a = crate::stage::attack(&cx.s)
                .cloned()
                .ok_or_else(|| bug("an attack's decision without the attack"))?;
            answer(cx, st, a, command)?;
        }
        Stage::Opportunity { foe, mover } => {
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
        }
        Stage::Morale { who: first } => {
            let Some(Frame::Morale { who }) = cx.s.frames.last() else {
                return Err(bug("a morale choice without the morale frame"));
            };
            let rest = who.get(1..).unwrap_or_default().to_vec();
            let status = if *command == Command::Retreat {
                Status::Fled
            } else {
                Status::Surrendered
            };
            cx.emit(Event::Gave { who: first, status });
            if rest.is_empty() {
                cx.pop();
            } else {
                cx.update(Frame::Morale { who: rest });
            }
        }
        // The faction holding the initiative chose who opens (MUR-R6).
        Stage::Open { .. } => match command {
            Command::Open(side) => cx.emit(Event::Opens { side: *side }),
            c => return Err(bug(format!("{c:?} does not open"))),
        },
        Stage::Faction { .. } => match command {
            Command::Pass => match plan {
                // One seat of several: the others are still asked.
                Plan::Pass { side, seat: Some(seat) } => cx.emit(Event::SeatPassed { side, seat }),
                Plan::Pass { side, seat: None } => cx.emit(Event::Passed { side }),
                _ => return Err(unplanned(command, &plan)),
            },
            Command::Act(who) => cx.emit(Event::TurnStarted { who: *who }),
            c => return Err(bug(format!("{c:?} outside a turn"))),
        },
        Stage::Turn { turn } => turn_command(cx, turn.who, command, plan)?,
    }
    advance(cx)
}

/// An action of the turn of `who`, or its end.
fn turn_command(cx: &mut Cx<'_, Murdham>, who: Cid, c: &Command, plan: Plan) -> Res<()> {
    let s = &*cx.s;
    // What is read of the actor, as it stands before the command changes anything.
    let (size, concealed, hobbled) = {
        let me = s.ch(who);
        (me.stats.size, me.concealed, me.injuries.hobbled)
    };
    let holding = s.ids().find(|&x| s.ch(x).grabbed_by == Some(who));
    // MUR-R36: a holder may move with, and attack, the held character; anything else lets go
    // (a larger holder acts freely, MUR-R59).
    let lets_go = match c {
        Command::Move { .. }
        | Command::Run
        | Command::Cover
        | Command::End
        | Command::Release
        | Command::Shove { .. }
        | Command::Throw { .. } => false,
        Command::Attack { aim: Aim::At(x), .. } => Some(*x) != holding,
        _ => true,
    };
    if let Some(h) = holding
        && lets_go
        && s.ch(h).stats.size >= size
    {
        cx.emit(Event::Grab { who: h, by: None });
    }
    match c {
        Command::End => cx.emit(Event::TurnEnded { who }),
        Command::TimedOut => {
            // MUR-R56: the turn is lost; the record says the timer ran out.
            cx.emit(Event::TurnLost { who, timed_out: true });
        }
        Command::Surrender => {
            cx.emit(Event::Gave {
                who,
                status: Status::Surrendered,
            });
            cx.emit(Event::TurnEnded { who });
        }
        Command::BreakFree => {
            let Plan::BreakFree { holder } = plan else {
                return Err(unplanned(c, &plan));
            };
            // MUR-R39: the whole turn on a STR save.
            if str_contest(cx, who, holder, Why::BreakFree, None)? {
                cx.emit(Event::Grab { who, by: None });
            }
            cx.emit(Event::TurnEnded { who });
        }
        Command::Move { to, sneak } => {
            let Plan::Move { cost } = plan else {
                return Err(unplanned(c, &plan));
            };
            if concealed {
                let stays = if *sneak {
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
                to: *to,
                cost,
                forced: false,
                next: 0,
            }))?;
        }
        Command::Run => {
            // MUR-H2: full movement brings the turn to `full-move-zones`; hobbled, half of it.
            let more = cx.s.options.full_move_zones.saturating_sub(1) * 2;
            let halves = if hobbled { more / 2 } else { more };
            cx.emit(Event::Ran { who, halves });
        }
        Command::Cover => cx.emit(Event::Covered { who, cover: true }),
        Command::Attack {
            aim,
            with,
            mode,
            sweep,
            stunt,
        } => {
            let Plan::Attack(p) = plan else {
                return Err(unplanned(c, &plan));
            };
            let main = !p.profile.consumable || cx.s.options.throw_is_attack;
            cx.emit(Event::Acted {
                who,
                main,
                what: String::new(),
            });
            declare(cx, who, *aim, *with, *mode, *sweep, stunt.clone(), false, p)?;
        }
        Command::Influence { kind, target } => {
            let verb = match kind {
                Influence::Distract => "tries to distract",
                Influence::Intimidate => "tries to intimidate",
                Influence::Taunt => "taunts",
            };
            cx.emit(Event::Acted {
                who,
                main: true,
                what: format!("{verb} {}", cx.s.ch(*target).name),
            });
            reveal(cx, who);
            influence(cx, who, *kind, *target)?;
        }
        Command::Shove { target, to, .. } => {
            let Plan::Shove { hazard } = plan else {
                return Err(unplanned(c, &plan));
            };
            cx.emit(Event::Acted {
                who,
                main: cx.s.options.shove_is_main,
                what: "shove".into(),
            });
            // MUR-R37: the held character is let go and moved half a zone and/or into a hazard.
            cx.emit(Event::Grab { who: *target, by: None });
            if let Some(p) = to {
                cx.emit(Event::Moved {
                    who: *target,
                    to: *p,
                    cost: 0,
                });
            }
            // The hazard of the zone the target ends in, as the check found it.
            if let Some(d) = hazard {
                let (total, _, rolls) = roll_damage(cx, who, d, 0)?;
                cx.emit(Event::DamageRoll {
                    by: who,
                    rolls,
                    level: 0,
                    total,
                });
                hurt(cx, *target, Some(who), total, 0, true)?;
            }
        }
        Command::Throw { target, to } => {
            cx.emit(Event::Acted {
                who,
                main: true,
                what: "throw".into(),
            });
            // MUR-R59: a larger holder throws the held character up to range 2 for d4 direct.
            cx.emit(Event::Grab { who: *target, by: None });
            cx.emit(Event::Moved {
                who: *target,
                to: *to,
                cost: 0,
            });
            let (total, _, rolls) = roll_damage(cx, who, 4, 0)?;
            cx.emit(Event::DamageRoll {
                by: who,
                rolls,
                level: 0,
                total,
            });
            hurt(cx, *target, Some(who), total, 0, true)?;
        }
        Command::Free(x) => {
            let Plan::Free { holder } = plan else {
                return Err(unplanned(c, &plan));
            };
            cx.emit(Event::Acted {
                who,
                main: true,
                what: "free".into(),
            });
            // MUR-R39: a main action and a STR save.
            if str_contest(cx, who, holder, Why::Free, None)? {
                cx.emit(Event::Grab { who: *x, by: None });
            }
        }
        Command::Release => {
            if let Some(h) = holding {
                cx.emit(Event::Grab { who: h, by: None });
            }
        }
        Command::Equip { item, off } => {
            cx.emit(Event::Acted {
                who,
                main: false,
                what: String::new(),
            });
            cx.emit(Event::Equipped {
                who,
                item: *item,
                hand: u8::from(*off),
            });
        }
        Command::Stow(i) => {
            cx.emit(Event::Acted {
                who,
                main: false,
                what: String::new(),
            });
            cx.emit(Event::Stowed { who, item: *i });
        }
        Command::Drop(i) => {
            // MUR-R42 [fray]: an item dropped where a concealed character stands gives it away.
            reveal(cx, who);
            cx.emit(Event::Acted {
                who,
                main: false,
                what: String::new(),
            });
            cx.emit(Event::Dropped { who, item: *i });
        }
        Command::PickUp(g) => {
            reveal(cx, who);
            cx.emit(Event::Acted {
                who,
                main: false,
                what: String::new(),
            });
            cx.emit(Event::PickedUp { who, ground: *g });
        }
        Command::Use { item, on } => {
            let Plan::Use { heal: die, antidote } = plan else {
                return Err(unplanned(c, &plan));
            };
            cx.emit(Event::Acted {
                who,
                main: false,
                what: String::new(),
            });
            let target = on.unwrap_or(who);
            cx.emit(Event::Used {
                who,
                item: *item,
                spent: true,
            });
            if die > 0 {
                let (total, _, _) = roll_damage(cx, who, die, 0)?;
                heal(cx, target, total)?;
            }
            if antidote && cx.s.ch(target).poisoned {
                cx.emit(Event::Condition {
                    who: target,
                    condition: Condition::Poisoned(false),
                });
            }
        }
        Command::Reload(i) => {
            cx.emit(Event::Acted {
                who,
                main: true,
                what: "reload".into(),
            });
            cx.emit(Event::Reloaded { who, item: *i });
        }
        Command::Interact { main } => cx.emit(Event::Acted {
            who,
            main: *main,
            what: "interact".into(),
        }),
        Command::Say(words) => {
            let what = if words.is_empty() {
                "says a few words".to_string()
            } else {
                format!("says \"{words}\"")
            };
            cx.emit(Event::Acted { who, main: false, what });
            // MUR-R42: talking reveals.
            reveal(cx, who);
        }
        other => return Err(bug(format!("{other:?} is no turn command"))),
    }
    Ok(())
}

/// Reveals a concealed character (MUR-R42).
fn reveal(cx: &mut Cx<'_, Murdham>, who: Cid) {
    let c = cx.s.ch(who);
    if c.concealed {
        let (at, cover) = (c.at, c.cover);
        cx.emit(Event::Revealed { who, at, cover });
    }
}

/// Declares an attack as its check planned it: a concealed attacker's targets are surprised
/// (MUR-R41), and it is revealed once the attack is over (MUR-R42, [`finish`]); spends what it
/// uses, and pushes the attack frame.
#[allow(clippy::too_many_arguments)]
fn declare(
    cx: &mut Cx<'_, Murdham>,
    by: Cid,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    stunt: Option<String>,
    opportunity: bool,
    p: AttackPlan,
) -> Res<()> {
    let s = &*cx.s;
    let surprise = s.ch(by).concealed;
    // MUR-R28: attacking from behind a barrier, it only counts as cover until its next turn.
    let peek = s.ch(by).cover && s.setup.tagged(s.ch(by).at.a, "barrier");
    // MUR-R42 [A]: a surprise attack resolves first, then the attacker is revealed; one that
    // proposes a stunt speaks to its target, and fray 0.1.0 revealed every attacker at once.
    if !s.options.reveal_after_surprise || stunt.is_some() {
        reveal(cx, by);
    }
    if peek {
        cx.emit(Event::Condition {
            who: by,
            condition: Condition::Peeking(true),
        });
    }
    if let With::Item(i) = with {
        let reload =
            cx.s.setup
                .item(cx.s.ch(by).item(i).map_or("", |it| it.id.as_str()))
                .is_some_and(|d| d.has(Keyword::Reload) || d.has(Keyword::Consumable));
        if !reload {
            cx.emit(Event::Used {
                who: by,
                item: i,
                spent: false,
            });
        }
    }
    if cx.s.ch(by).hindered {
        // MUR-H6: the GM's hinder asks a save of one attack.
        cx.emit(Event::Condition {
            who: by,
            condition: Condition::Hindered(false),
        });
    }
    let target = p.target.unwrap_or(by);
    cx.push(Frame::Attack(Attack {
        by,
        with,
        mode,
        target,
        blast: p.blast,
        queue: Vec::new(),
        sweep,
        focused: p.focused && matches!(aim, Aim::At(_)),
        opportunity,
        counter: false,
        stunt,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Aim,
        surprise,
        save: p.save,
        ranged: p.ranged,
        rolled: None,
        face: None,
    }))?;
    // A reload weapon fires, a thrown flask is spent (MUR-H24): once declared.
    if let With::Item(i) = with
        && let Some(d) = cx.s.ch(by).item(i).and_then(|it| cx.s.setup.item(&it.id)).cloned()
        && (d.has(Keyword::Reload) || d.has(Keyword::Consumable))
    {
        // The frame keeps the item's index: a spent flask is taken out after the attack.
        if d.has(Keyword::Reload) {
            cx.emit(Event::Used {
                who: by,
                item: i,
                spent: true,
            });
        }
    }
    Ok(())
}

/// An answer to the decision `st` about the attack `a` on top.
fn answer(cx: &mut Cx<'_, Murdham>, st: Stage, a: Attack, c: &Command) -> Res<()> {
    let s = &*cx.s;
    match c {
        Command::Approve => cx.update(Frame::Attack(Attack {
            stage: AttackStage::Answer,
            ..a
        })),
        Command::Veto => {
            cx.emit(Event::Stunt {
                by: a.by,
                target: a.target,
                effect: a.stunt.clone().unwrap_or_default(),
                accepted: None,
            });
            cx.update(Frame::Attack(Attack {
                stunt: None,
                stage: AttackStage::Guard { next: 0 },
                ..a
            }));
        }
        Command::Accept => {
            // MUR-R32: the effect replaces the damage; no reaction.
            cx.emit(Event::Stunt {
                by: a.by,
                target: a.target,
                effect: a.stunt.clone().unwrap_or_default(),
                accepted: Some(true),
            });
            finish_target(cx, a)?;
        }
        Command::Refuse => {
            cx.emit(Event::Stunt {
                by: a.by,
                target: a.target,
                effect: a.stunt.clone().unwrap_or_default(),
                accepted: Some(false),
            });
            cx.update(Frame::Attack(Attack {
                stunt: None,
                stage: AttackStage::Guard { next: 0 },
                ..a
            }));
        }
        Command::Guard => {
            let Stage::Guard { guard: next, .. } = st else {
                return Err(bug("guard outside the guard stage"));
            };
            let free = s.ch(next).stats.has(Skill::Protect);
            // MUR-R42: stepping in front of an attack gives a concealed guard away.
            reveal(cx, next);
            let s = &*cx.s;
            cx.emit(Event::Reacted {
                who: next,
                what: format!("guards {}", s.ch(a.target).name),
                free,
            });
            swap_places(cx, a.target, next);
            // MUR-R24: the guard is the new target; with its reaction spent it cannot dodge
            // or counter, unless guarding was free (protect, MUR-R60).
            cx.update(Frame::Attack(Attack {
                target: next,
                stage: if free { AttackStage::React } else { AttackStage::Land },
                reaction: if free { None } else { Some(Reaction::Guard) },
                ..a
            }));
        }
        Command::Decline => match st {
            Stage::Guard { guard: next, .. } => cx.update(Frame::Attack(Attack {
                stage: AttackStage::Guard { next: next + 1 },
                ..a
            })),
            Stage::StandIn { who, .. } => {
                if cx.s.options.declined_hide_keeps_reaction {
                    // MUR-R23: the hider asked and was refused: its reaction is still its own,
                    // to dodge, counter or take the hit.
                    cx.emit(Event::StandInDeclined { who, hider: a.target });
                }
                cx.update(Frame::Attack(Attack {
                    stage: AttackStage::React,
                    hid: true,
                    ..a
                }))
            }
            _ => return Err(bug("decline out of place")),
        },
        Command::Agree => {
            let Stage::StandIn { who, .. } = st else {
                return Err(bug("agree outside a stand-in"));
            };
            if cx.s.options.declined_hide_keeps_reaction {
                // MUR-R23: hiding behind someone who agrees is the hider's reaction.
                cx.emit(Event::Reacted {
                    who: a.target,
                    what: format!("hides behind {}", cx.s.ch(who).name),
                    free: false,
                });
            }
            stand_in(cx, a, who);
        }
        Command::Take => cx.update(Frame::Attack(Attack {
            reaction: Some(Reaction::Take),
            stage: AttackStage::Land,
            ..a
        })),
        Command::Dodge => cx.update(Frame::Attack(Attack {
            reaction: Some(Reaction::Dodge),
            stage: AttackStage::Land,
            ..a
        })),
        Command::Counter { with, mode } => cx.update(Frame::Attack(Attack {
            reaction: Some(Reaction::Counter {
                with: *with,
                mode: *mode,
            }),
            countered: true,
            stage: AttackStage::Land,
            ..a
        })),
        Command::HideBehind(h) => {
            let held = s.ch(*h).grabbed_by == Some(a.target);
            // MUR-R23: the reaction is spent once the other agrees (at once when it is held,
            // MUR-R38); fray 0.1.0 spent it on asking.
            if held || !s.options.declined_hide_keeps_reaction {
                cx.emit(Event::Reacted {
                    who: a.target,
                    what: format!("hides behind {}", s.ch(*h).name),
                    free: false,
                });
            }
            // MUR-R38: a character held by the hider has no say.
            if held {
                stand_in(cx, a, *h);
            } else {
                cx.update(Frame::Attack(Attack {
                    stage: AttackStage::Agree { who: *h },
                    hid: true,
                    ..a
                }));
            }
        }
        other => return Err(bug(format!("{other:?} is no answer to an attack"))),
    }
    Ok(())
}

/// The character `who` stands in for the target (MUR-R23): it is the new target and may
/// react itself.
fn stand_in(cx: &mut Cx<'_, Murdham>, a: Attack, who: Cid) {
    swap_places(cx, a.target, who);
    cx.update(Frame::Attack(Attack {
        target: who,
        stage: AttackStage::React,
        reaction: None,
        hid: true,
        ..a
    }));
}

/// MUR-H19: with `guard-swaps-places`, the new target and the old trade places.
fn swap_places(cx: &mut Cx<'_, Murdham>, a: Cid, b: Cid) {
    if !cx.s.options.guard_swaps_places {
        return;
    }
    let (pa, pb) = (cx.s.ch(a).at, cx.s.ch(b).at);
    if pa != pb {
        cx.emit(Event::Moved {
            who: a,
            to: pb,
            cost: 0,
        });
        cx.emit(Event::Moved {
            who: b,
            to: pa,
            cost: 0,
        });
    }
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    settle(cx, |cx| {
        let s = &*cx.s;
        if s.outcome.is_some() {
            return Ok(Flow::Wait);
        }
        match s.frames.last().cloned() {
            Some(Frame::Attack(a)) => return attack_step(cx, a),
            Some(Frame::Step(st)) => return step(cx, st),
            Some(Frame::Morale { who }) => {
                if who.is_empty() {
                    cx.pop();
                    return Ok(Flow::Go);
                }
                return Ok(Flow::Wait);
            }
            None => {}
        }
        if s.phase != Phase::Setup
            && s.phase != Phase::Morale
            && let Some(winner) = last_faction_standing(s)
        {
            end_fight(cx, winner, "last-faction-standing")?;
            return Ok(Flow::Go);
        }
        if s.opening {
            if s.options.opener == Opener::Initiative || s.phase == Phase::Ambush && !side_can_act(s, s.initiative) {
                cx.emit(Event::Opens { side: s.initiative });
                return Ok(Flow::Go);
            }
            return Ok(Flow::Wait);
        }
        if let Some(t) = &s.turn {
            let c = s.ch(t.who);
            if !c.up() {
                cx.emit(Event::TurnEnded { who: t.who });
                return Ok(Flow::Go);
            }
            return Ok(Flow::Wait);
        }
        match s.phase {
            Phase::Setup => {
                cx.emit(Event::RoundStarted { round: 1 });
                start_phase(cx)?;
                return Ok(Flow::Go);
            }
            Phase::Morale => {
                if let Some(winner) = last_faction_standing(s) {
                    end_fight(cx, winner, "last-faction-standing")?;
                    return Ok(Flow::Go);
                }
                // The morale frame is resolved: the next round begins.
                cx.emit(Event::RoundStarted { round: s.round + 1 });
                start_phase(cx)?;
                return Ok(Flow::Go);
            }
            _ => {}
        }
        match faction_to_pick(s) {
            Some(side) if seats_asked(s, side).is_empty() => {
                // MUR-R4: a faction with nobody able to act can only pass; so does one whose
                // every seat with someone able to act has passed (a ruling may leave none of
                // the others asked).
                cx.emit(Event::Passed { side });
                Ok(Flow::Go)
            }
            Some(_) => Ok(Flow::Wait),
            None => {
                end_phase(cx)?;
                Ok(Flow::Go)
            }
        }
    })
}

/// The first phase of a round: fast (with a d20 for the threshold) or the whole round.
fn start_phase(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    if cx.s.options.fast_slow {
        // MUR-R52: the threshold is rolled openly at the start of each round.
        let fat = die(cx, 20, NOBODY, "fast action threshold (d20)")? as u8;
        cx.emit(Event::PhaseStarted {
            phase: Phase::Fast,
            fat: Some(fat),
        });
    } else {
        cx.emit(Event::PhaseStarted {
            phase: Phase::Round,
            fat: None,
        });
    }
    Ok(())
}

/// Every faction has passed: the next phase, or the end of the round (MUR-R3, MUR-R5).
fn end_phase(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    match cx.s.phase {
        Phase::Ambush => {
            cx.emit(Event::RoundStarted { round: 1 });
            start_phase(cx)?;
        }
        Phase::Fast => cx.emit(Event::PhaseStarted {
            phase: Phase::Slow,
            fat: None,
        }),
        Phase::Round | Phase::Slow => end_round(cx)?,
        Phase::Setup | Phase::Morale => return Err(bug("a phase ended outside the round")),
    }
    Ok(())
}

/// The end of a round: the dying come closer to death, poison bites, lost turns are over,
/// then the morale phase.
fn end_round(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    // Poison bites, then the dying come closer to death; lost turns are over.
    for c in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.ch(c).poisoned && cx.s.ch(c).up() {
            hurt(cx, c, None, 1, 0, true)?;
        }
    }
    for c in cx.s.ids().collect::<Vec<_>>() {
        match cx.s.ch(c).status {
            Status::Dying { rounds: 0 } => cx.emit(Event::Fell {
                who: c,
                status: Status::Dead,
            }),
            Status::Dying { rounds } => cx.emit(Event::Fell {
                who: c,
                status: Status::Dying { rounds: rounds - 1 },
            }),
            _ => {}
        }
        if cx.s.ch(c).lost_round.is_some_and(|r| r <= cx.s.round) {
            cx.emit(Event::Condition {
                who: c,
                condition: Condition::LosesTurn(None),
            });
        }
    }
    morale(cx)
}

/// The morale phase (MUR-R43 to MUR-R45): each faction at half strength, or a lone fighter
/// at half health, rolls one WIT save for every member not yet proof against it.
fn morale(cx: &mut Cx<'_, Murdham>) -> Res<()> {
    let mut failed: Vec<Cid> = Vec::new();
    for side in 0..cx.s.setup.sides.len() as u8 {
        let s = &*cx.s;
        if s.options.morale_for == MoraleFor::NpcsOnly && s.is_player_side(side) {
            continue;
        }
        let members: Vec<Cid> = s.ids().filter(|&c| s.ch(c).side == side).collect();
        let original = s.original.get(side as usize).copied().unwrap_or(0) as usize;
        let lost = members
            .iter()
            .filter(|&&c| {
                let ch = s.ch(c);
                if s.options.morale_counts_all_losses {
                    !ch.up()
                } else {
                    ch.status == Status::Dead
                }
            })
            .count();
        let left = members.len().saturating_sub(lost);
        let triggered = if original <= 1 {
            // MUR-R43, MUR-H13: a lone fighter checks at half its health or less.
            members.iter().any(|&c| {
                let ch = s.ch(c);
                ch.up() && ch.health <= div_up(ch.stats.max_health(), 2)
            })
        } else {
            // MUR-R43, MUR-H11: a group checks once down to half its original number.
            left * 2 <= original
        };
        if !triggered {
            continue;
        }
        let checking: Vec<Cid> = members
            .into_iter()
            .filter(|&c| {
                let ch = s.ch(c);
                // MUR-R45: the fearless never check.
                ch.up() && !ch.morale_proof && !ch.stats.fearless()
            })
            .collect();
        if checking.is_empty() {
            continue;
        }
        // MUR-R44: one d20 for the whole group.
        let roll = die(cx, 20, checking[0], "morale (group WIT save)")?;
        let members: Vec<(Cid, u8, bool)> = checking
            .iter()
            .map(|&c| {
                let wit = cx.s.ch(c).ability(Ability::Wit);
                (c, wit, roll <= u16::from(wit))
            })
            .collect();
        cx.emit(Event::GroupSave {
            roll,
            members: members.clone(),
            why: Why::Morale,
        });
        for (c, _, pass) in members {
            if pass {
                cx.emit(Event::MoraleProof { who: c });
            } else {
                failed.push(c);
            }
        }
    }
    cx.emit(Event::PhaseStarted {
        phase: Phase::Morale,
        fat: None,
    });
    if !failed.is_empty() {
        cx.push(Frame::Morale { who: failed })?;
    }
    Ok(())
}

/// `Some(winner)` once at most one faction has anyone fighting: that faction, or nobody.
pub fn last_faction_standing(s: &State) -> Option<Option<u8>> {
    let mut sides = s.chars.iter().filter(|c| c.up()).map(|c| c.side);
    match sides.next() {
        None => Some(None),
        Some(first) => sides.all(|x| x == first).then_some(Some(first)),
    }
}

/// The end of the fight: durability rolls for used gear (MUR-R48), then the outcome.
fn end_fight(cx: &mut Cx<'_, Murdham>, winner: Option<u8>, reason: &str) -> Res<()> {
    for c in cx.s.ids().collect::<Vec<_>>() {
        let ch = cx.s.ch(c).clone();
        if matches!(ch.status, Status::Dead | Status::Banished) {
            continue;
        }
        let items: Vec<(u8, crate::state::Item)> = ch.live_items().map(|(i, it)| (i, it.clone())).collect();
        for (i, it) in items {
            let robust = cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Robust));
            let rolls = it.used && !cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Consumable));
            if rolls {
                durability(cx, c, Some(i), robust, it.damaged)?;
            }
        }
        if ch.armour_used && !ch.armour_lost && ch.stats.armour > 0 {
            durability(cx, c, None, false, ch.armour_damaged)?;
        }
    }
    cx.emit(Event::Ended {
        winner,
        reason: reason.into(),
    });
    Ok(())
}

/// One durability roll (MUR-R48, MUR-H16): 1 on a d4 (d8 robust) damages the item, or
/// destroys it if it was damaged. Whether it was destroyed.
fn durability(cx: &mut Cx<'_, Murdham>, who: Cid, item: Option<u8>, robust: bool, damaged: bool) -> Res<bool> {
    let sides = u16::from(if robust {
        cx.s.options.robust_durability_chance
    } else {
        cx.s.options.durability_chance
    });
    let roll = die(cx, sides, who, "durability roll")?;
    cx.emit(Event::Durability { who, item, roll, sides });
    if roll == 1 {
        worn(cx, who, item, damaged);
        return Ok(damaged && item.is_some());
    }
    Ok(false)
}

/// An item (or, with `item` none, the armour) of `who` is damaged or destroyed.
fn worn(cx: &mut Cx<'_, Murdham>, who: Cid, item: Option<u8>, destroyed: bool) {
    let name = match item {
        Some(i) => {
            cx.s.ch(who)
                .item(i)
                .and_then(|it| cx.s.setup.item(&it.id))
                .map_or_else(|| "item".to_string(), |d| d.name.clone())
        }
        None => "armour".into(),
    };
    cx.emit(Event::Worn {
        who,
        name,
        item,
        destroyed,
    });
}

/// A step waiting for opportunity attacks: ask the next foe who may make one, or take it.
fn step(cx: &mut Cx<'_, Murdham>, st: Step) -> Res<Flow> {
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

/// The attack on top, as far as it goes without a decision.
fn attack_step(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let s = &*cx.s;
    if !s.ch(a.by).up() && !a.counter {
        // The attacker fell before its attack landed (an opportunity attack, a ruling).
        return finish(cx, a);
    }
    match a.stage {
        AttackStage::Aim => aim(cx, a),
        AttackStage::Approve => {
            if !s.options.stunt_needs_gm {
                cx.update(Frame::Attack(Attack {
                    stage: AttackStage::Answer,
                    ..a
                }));
                return Ok(Flow::Go);
            }
            Ok(Flow::Wait)
        }
        AttackStage::Answer | AttackStage::Agree { .. } => Ok(Flow::Wait),
        AttackStage::Guard { next } => {
            let n = s.chars.len() as Cid;
            match (next..n).find(|&g| guard_ok(s, &a, g)) {
                Some(g) if g == next => Ok(Flow::Wait),
                Some(g) => {
                    cx.update(Frame::Attack(Attack {
                        stage: AttackStage::Guard { next: g },
                        ..a
                    }));
                    Ok(Flow::Go)
                }
                None => {
                    cx.update(Frame::Attack(Attack {
                        stage: AttackStage::React,
                        ..a
                    }));
                    Ok(Flow::Go)
                }
            }
        }
        AttackStage::React => {
            // Only ask a target that has a reaction open; otherwise it simply takes the hit.
            let t = a.target;
            let any = dodge_open(s, &a).is_some()
                || (!a.surprise && !a.opportunity && may_react(s, t, false) && check::other_reaction_open(s, &a));
            if any && s.ch(t).up() {
                return Ok(Flow::Wait);
            }
            cx.update(Frame::Attack(Attack {
                reaction: Some(Reaction::Take),
                stage: AttackStage::Land,
                ..a
            }));
            Ok(Flow::Go)
        }
        AttackStage::Land => land(cx, a),
    }
}

/// The to-hit save (MUR-R13) and a ranged blast's deviation (MUR-R31), then on to the stunt,
/// guards and reactions.
fn aim(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let mut a = a;
    let hit = !a.save || save(cx, a.by, Ability::Wit, Why::Hit)?;
    match a.blast {
        Some(place) if !a.focused => {
            let place = if hit {
                place
            } else if a.ranged {
                // MUR-R31: a missed ranged blast lands in a random neighbouring zone.
                match deviate(cx, a.by, place)? {
                    Some(to) => to,
                    None => return finish(cx, a),
                }
            } else {
                return finish(cx, a);
            };
            let over = profile(&cx.s, a.by, a.with).is_ok_and(|p| p.indirect);
            let victims = check::blast_victims(&cx.s, a.by, place, !a.ranged, a.sweep, over);
            let Some((&first, rest)) = victims.split_first() else {
                // A blast on an empty place hits nobody.
                return finish(cx, a);
            };
            a.blast = Some(place);
            a.target = first;
            a.queue = rest.to_vec();
        }
        // MUR-H24: a thrown flask that misses is spent all the same.
        _ if !hit => return finish(cx, a),
        _ => {}
    }
    let stage = if a.stunt.is_some() {
        AttackStage::Approve
    } else {
        AttackStage::Guard { next: 0 }
    };
    cx.update(Frame::Attack(Attack { stage, ..a }));
    Ok(Flow::Go)
}

/// Picks the neighbouring zone a missed ranged blast lands in (MUR-R31, MUR-H22).
fn deviate(cx: &mut Cx<'_, Murdham>, by: Cid, place: Place) -> Res<Option<Place>> {
    let zones = &cx.s.setup.zones;
    let mut n: Vec<Place> = place
        .zones()
        .flat_map(|z| zones.neighbours(z).iter().copied())
        .filter(|z| !place.touches(*z))
        .map(Place::zone)
        .collect();
    n.sort();
    n.dedup();
    if n.is_empty() {
        return Ok(None);
    }
    let count = n.len() as u16;
    if count == 1 {
        // A single neighbouring zone: nothing to roll for.
        cx.emit(Event::Deviated {
            roll: 1,
            sides: 1,
            to: Some(n[0]),
        });
        return Ok(Some(n[0]));
    }
    let sides = match cx.s.options.deviation_die {
        DeviationDie::Exact => count,
        DeviationDie::Standard => [4u16, 6, 8, 10, 12, 20]
            .into_iter()
            .find(|&d| d >= count)
            .unwrap_or(count),
    };
    loop {
        let roll = if sides == 1 {
            1
        } else {
            die(cx, sides, by, "deviation die")?
        };
        // The zones are numbered in turn along the die's faces: a d4 for two zones gives each
        // two faces; only faces the zones cannot share evenly are rolled again (MUR-H22).
        let share = sides / count;
        if roll <= share * count {
            let to = n[((roll - 1) / share) as usize];
            cx.emit(Event::Deviated {
                roll,
                sides,
                to: Some(to),
            });
            return Ok(Some(to));
        }
        // MUR-H22: a result above the count is rolled again.
        cx.emit(Event::Deviated { roll, sides, to: None });
    }
}

/// A save: d20 at or under the score (the core mechanic the chapter assumes).
pub fn save(cx: &mut Cx<'_, Murdham>, who: Cid, ability: Ability, why: Why) -> Res<bool> {
    let score = cx.s.ch(who).ability(ability);
    let roll = die(cx, 20, who, save_label(ability))?;
    let pass = roll <= u16::from(score);
    cx.emit(Event::Save {
        who,
        ability,
        score,
        roll,
        pass,
        why,
    });
    Ok(pass)
}

fn save_label(a: Ability) -> &'static str {
    match a {
        Ability::Str => "STR save (d20)",
        Ability::Agi => "AGI save (d20)",
        Ability::Wit => "WIT save (d20)",
    }
}

/// A STR save by `who` against `other` (MUR-R59): size decides between different sizes, then
/// the `skill` (disarm, wrestling) when only one side has it; otherwise a d20. `who` passes:
/// true.
fn str_contest(cx: &mut Cx<'_, Murdham>, who: Cid, other: Cid, why: Why, skill: Option<Skill>) -> Res<bool> {
    let (me, them) = (cx.s.ch(who), cx.s.ch(other));
    let size = me.stats.size.cmp(&them.stats.size);
    let by_size = match size {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    };
    let by_skill = skill.and_then(|k| match (me.stats.has(k), them.stats.has(k)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    });
    let auto = if cx.s.options.size_before_skills {
        by_size.or(by_skill)
    } else {
        by_skill.or(by_size)
    };
    match auto {
        Some(pass) => {
            cx.emit(Event::Save {
                who,
                ability: Ability::Str,
                score: me.ability(Ability::Str),
                roll: 0,
                pass,
                why,
            });
            Ok(pass)
        }
        None => save(cx, who, Ability::Str, why),
    }
}

/// Distract, intimidate or taunt (MUR-R8).
fn influence(cx: &mut Cx<'_, Murdham>, who: Cid, kind: Influence, target: Cid) -> Res<()> {
    let s = &*cx.s;
    let waived = s.ch(who).overwhelming || !s.options.influence_save;
    if s.ch(who).overwhelming {
        cx.emit(Event::Condition {
            who,
            condition: Condition::Overwhelming(false),
        });
    }
    let resisted = if waived {
        false
    } else {
        save(cx, target, Ability::Wit, Why::Influence)?
    };
    if resisted {
        return Ok(());
    }
    let s = &*cx.s;
    let condition = match kind {
        Influence::Distract => Condition::LosesTurn(Some(s.round_to_lose(target))),
        Influence::Intimidate => {
            if s.ch(target).stats.fearless() {
                return Ok(());
            }
            Condition::Frightened(Some(who))
        }
        Influence::Taunt => Condition::Taunted(Some(who)),
    };
    cx.emit(Event::Condition { who: target, condition });
    Ok(())
}

/// The exact odds of `by` attacking `t` as declared, for the prompt: `reacted` when the target
/// answers it (its shield counts), `dodge` its AGI when it dodges.
#[allow(clippy::too_many_arguments)]
pub fn attack_spec(
    s: &State,
    by: Cid,
    t: Cid,
    with: With,
    mode: Mode,
    plan: &AttackPlan,
    reacted: bool,
    dodge: Option<i32>,
) -> Option<crate::odds::AttackSpec> {
    use crate::odds::{AttackSpec, DamageSpec, Die, Size as OSize, Target};
    let mut p = plan.profile;
    let surprise = s.ch(by).concealed;
    if surprise && s.ch(by).stats.has(Skill::SneakAttack) && p.die > 0 && !p.power {
        p.die = 12;
    }
    if p.holy && !matches!(s.ch(t).stats.kind, Kind::Demon | Kind::Undead) {
        return None;
    }
    let a = Attack {
        by,
        with,
        mode,
        target: t,
        blast: plan.blast,
        queue: Vec::new(),
        sweep: false,
        focused: plan.focused,
        opportunity: false,
        counter: false,
        stunt: None,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Land,
        surprise,
        save: plan.save,
        ranged: plan.ranged,
        rolled: None,
        face: None,
    };
    let level = damage_level(s, &a, by, t, &p, mode);
    let ranged = p.range > 0 && !s.nearby(by, t);
    let (armour, _) = armour_against(s, &a, t, &p, ranged, reacted);
    let size = match s.ch(by).stats.size {
        crate::data::Size::Tiny => OSize::Tiny,
        crate::data::Size::Small => OSize::Small,
        crate::data::Size::Medium => OSize::Medium,
        crate::data::Size::Large => OSize::Large,
        crate::data::Size::Massive => OSize::Massive,
    };
    let die = Die::from_sides(u32::from(p.die))?;
    let target = s.ch(t);
    Some(AttackSpec {
        damage: DamageSpec {
            die,
            impaired: u8::try_from(-level.min(0)).unwrap_or(0),
            enhanced: u8::try_from(level.max(0)).unwrap_or(0),
            size,
            half: false,
            double: plan.focused,
            armour: armour.max(0) as u32,
            direct: p.direct,
        },
        hit: plan.save.then(|| i32::from(s.ch(by).ability(Ability::Wit))),
        dodge,
        target: (target.health > 0).then(|| Target {
            health: target.health as u32,
            max_health: target.stats.max_health().max(1) as u32,
            helmet: target.stats.helmet,
        }),
    })
}

/// The damage of an attack on its target, after size, armour and the rest.
pub struct Hit {
    /// The damage roll's total, before size and the rest (a blast deals it to every target).
    pub roll: i32,
    /// Before armour.
    pub raw: i32,
    /// The armour that counted.
    pub armour: i32,
    /// After armour.
    pub amount: i32,
    /// The natural face of the kept die (MUR-R49).
    pub face: Option<u16>,
    /// The roll may be dealt to the rest of a blast rolled once (not one made for a target the
    /// GM ruled enhanced or impaired).
    pub shared: bool,
}

/// How much impaired (negative) or enhanced (positive) an attack's damage is.
pub(crate) fn damage_level(s: &State, a: &Attack, by: Cid, target: Cid, p: &Profile, mode: Mode) -> i8 {
    let mut level = 0i8;
    if p.impaired {
        level -= 1;
    }
    if matches!(mode, Mode::Harm { hold: true }) {
        // MUR-R16: held back.
        level -= 1;
    }
    // A blast rolled once for all its targets (MUR-H8) takes only what the attacker brings;
    // what each target's place or state would add cannot differ within one roll.
    let one_roll = s.options.blast_one_roll && a.blast.is_some() && !a.focused;
    // MUR-R26: concealment makes damage impaired.
    if !one_roll && s.ch(target).at.zones().all(|z| s.setup.tagged(z, "concealment")) {
        level -= 1;
    }
    if !one_roll
        && s.options.defenceless_enhanced
        && matches!(s.ch(target).status, Status::Incapacitated | Status::Dying { .. })
    {
        level += 1;
    }
    // The GM's ruling on the next hit on the target (`gm enhance`, `gm impair`): such a target
    // of a blast rolled once gets a roll of its own.
    level += s.ch(target).next_hit;
    let _ = by;
    level.clamp(-2, 1)
}

/// Rolls damage: one exploding die, or two keeping the lower (impaired) or the higher
/// (enhanced); impaired twice deals nothing. Returns the total, the natural face of the kept
/// roll's first die, and every face.
fn roll_damage(cx: &mut Cx<'_, Murdham>, by: Cid, die_faces: u8, level: i8) -> Res<(i32, Option<u16>, Vec<Vec<u16>>)> {
    if level <= -2 || die_faces == 0 {
        return Ok((0, None, Vec::new()));
    }
    let n = if level == 0 { 1 } else { 2 };
    let mut rolls: Vec<Vec<u16>> = Vec::with_capacity(n);
    let mut totals: Vec<i32> = Vec::with_capacity(n);
    for _ in 0..n {
        let mut faces = Vec::new();
        let mut total = 0i32;
        // Each maximum counts one less and rolls again (a guard stops a stuck manual source).
        for _ in 0..64 {
            let f = die(cx, u16::from(die_faces), by, "damage die")?;
            faces.push(f);
            if f == u16::from(die_faces) && die_faces > 1 {
                total += i32::from(die_faces) - 1;
            } else {
                total += i32::from(f);
                break;
            }
        }
        totals.push(total);
        rolls.push(faces);
    }
    let kept = match level {
        0 => 0,
        l if l < 0 => usize::from(totals.len() > 1 && totals[1] < totals[0]),
        _ => usize::from(totals.len() > 1 && totals[1] > totals[0]),
    };
    let face = rolls[kept].first().copied();
    Ok((totals[kept], face, rolls))
}

/// The armour of `target` against an attack by `by` (MUR-R27, MUR-H17, shields), and the
/// shields in hand that gave their +1.
pub(crate) fn armour_against(
    s: &State,
    a: &Attack,
    target: Cid,
    p: &Profile,
    ranged: bool,
    reacted: bool,
) -> (i32, [Option<u8>; 2]) {
    let t = s.ch(target);
    if p.direct {
        return (0, [None, None]);
    }
    let mut armour = t.armour() * t.stats.size.armour_factor();
    // MUR-R27, MUR-H7: cover adds 1 unless the attack goes through it: the GM said so, or the
    // cover's tag lists one of the weapon's keywords.
    let keywords: &[Keyword] = match a.with {
        With::Item(i) => s
            .ch(a.by)
            .item(i)
            .and_then(|it| s.setup.item(&it.id))
            .map_or(&[], |d| d.keywords.as_slice()),
        With::Power(i) => s
            .ch(a.by)
            .stats
            .powers
            .get(i as usize)
            .and_then(|id| s.setup.powers.get(id))
            .map_or(&[], |d| d.keywords.as_slice()),
        With::Unarmed => &[],
    };
    let through = s.ch(a.by).penetrating
        || s.setup
            .penetration
            .iter()
            .any(|(tag, kinds)| s.setup.tagged(t.at.a, tag) && kinds.iter().any(|k| keywords.contains(k)));
    // MUR-R15: an indirect attack comes down over the obstacles its target shelters behind.
    let over = p.indirect && s.options.indirect_over_cover;
    let cover = t.cover && (ranged || s.options.cover_against_melee) && !through && !over;
    // The shields in hand, each once (a two-handed one fills both hands).
    let is_shield = |h: usize| {
        t.hands[h].filter(|&i| {
            t.hand_of(i) == Some(h)
                && t.item(i)
                    .and_then(|it| s.setup.item(&it.id))
                    .is_some_and(|d| d.has(Keyword::Shield))
        })
    };
    let shields = match (is_shield(0), is_shield(1)) {
        (None, x) | (x, None) => [x, None],
        both => [both.0, both.1],
    };
    let two = shields[1].is_some();
    let aware = !a.surprise;
    // A shield helps against attacks its holder reacts to; shield mastery against every attack
    // it is aware of; two shields against every attack.
    let shield = two || (shields[0].is_some() && (reacted || (aware && t.stats.has(Skill::ShieldMastery))));
    match (cover, shield, s.options.shield_and_cover_stack) {
        (true, true, true) => armour += 2,
        (true, _, _) | (_, true, _) => armour += 1,
        _ => {}
    }
    if a.with == With::Unarmed && t.stats.has(Skill::Brawling) {
        armour += 1;
    }
    // MUR-H25: the shields that gave the +1: both of two (fray 0.1.0 counted the first only).
    let gave = match (shield, s.options.both_shields_used) {
        (false, _) => [None, None],
        (true, true) => shields,
        (true, false) => [shields[0], None],
    };
    (armour, gave)
}

/// Rolls (or reuses a blast's roll) and works out the hit of attack `a` on its target: `by`
/// strikes `target` with a weapon of profile `p` (as [`profile`] gives it for the weapon in
/// `by`'s hands; the caller has worked it out).
fn compute_hit(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    by: Cid,
    target: Cid,
    p: Profile,
    mode: Mode,
    reacted: bool,
) -> Res<Hit> {
    let s = &*cx.s;
    let mut p = p;
    // Sneak attack: d12 against an unaware target.
    if a.surprise && s.ch(by).stats.has(Skill::SneakAttack) && p.die > 0 && !p.power {
        p.die = 12;
    }
    let ranged = p.range > 0 && !s.nearby(by, target);
    let level = damage_level(s, a, by, target, &p, mode);
    let marked = s.ch(target).next_hit;
    let (raw, face) = match a.rolled {
        Some(r) if s.options.blast_one_roll && a.blast.is_some() && marked == 0 => (r, a.face),
        _ => {
            let (total, face, rolls) = roll_damage(cx, by, p.die, level)?;
            // A weapon that deals no damage (a stun flask) rolls nothing, and logs no roll.
            if p.die > 0 {
                cx.emit(Event::DamageRoll {
                    by,
                    rolls,
                    level,
                    total,
                });
            }
            (total, face)
        }
    };
    let s = &*cx.s;
    let mut dealt = s.ch(by).stats.size.scale(raw);
    if a.sweep {
        dealt = div_up(dealt, 2);
    }
    if a.focused {
        dealt *= 2;
    }
    if p.holy && !matches!(s.ch(target).stats.kind, Kind::Demon | Kind::Undead) {
        dealt = 0;
    }
    if marked != 0 {
        // The GM's ruling was for this one hit.
        cx.emit(Event::Condition {
            who: target,
            condition: Condition::NextHit(0),
        });
    }
    let s = &*cx.s;
    let (armour, shields) = armour_against(s, a, target, &p, ranged, reacted);
    for i in shields.into_iter().flatten() {
        // MUR-H25: a shield that gave its +1 was used: it makes a durability roll after the
        // fight (MUR-R48).
        cx.emit(Event::Used {
            who: target,
            item: i,
            spent: false,
        });
    }
    Ok(Hit {
        roll: raw,
        raw: dealt,
        armour,
        amount: (dealt - armour).max(0),
        face,
        shared: marked == 0,
    })
}

/// Lands the attack on its current target (dodge, counter or none), then the next target of a
/// blast, or pops.
fn land(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let s = &*cx.s;
    let t = a.target;
    let reaction = a.reaction.unwrap_or(Reaction::Take);
    // The attack's weapon as it is in the attacker's hands, worked out once for the dodge, the
    // counter and the hit: nothing the landing does before the hit changes it.
    let p = profile(s, a.by, a.with);
    let mut dodged = false;
    match reaction {
        Reaction::Dodge => {
            let free = p.as_ref().ok().and_then(|&p| dodge_open_with(s, &a, p)) == Some(true);
            // MUR-R60: fleet footed pays for a dodge of an opportunity attack; otherwise a free
            // dodge is the round's one from dodge blows.
            let fleet = a.opportunity && s.ch(t).stats.has(Skill::FleetFooted);
            let blows = free && !fleet;
            cx.emit(Event::Reacted {
                who: t,
                what: "dodges".into(),
                free,
            });
            if blows {
                cx.emit(Event::Condition {
                    who: t,
                    condition: Condition::FreeDodge,
                });
            }
            // MUR-R20: a passed AGI save makes the attack miss.
            dodged = save(cx, t, Ability::Agi, Why::Dodge)?;
        }
        Reaction::Counter { .. } => {
            // MUR-R42: attacking back gives a concealed character away.
            reveal(cx, t);
            cx.emit(Event::Reacted {
                who: t,
                what: "counters".into(),
                free: false,
            });
        }
        Reaction::Take | Reaction::Guard => {}
    }
    let reacted = !matches!(reaction, Reaction::Take);
    if !dodged {
        match reaction {
            Reaction::Counter { with, mode } => {
                // MUR-H8: the attack's roll is kept for the rest of a blast.
                let mut a2 = a.clone();
                if let Some(k) = counter(cx, &a, with, mode, &p)? {
                    k.into(&mut a2);
                }
                return next_target(cx, a2);
            }
            _ => {
                let mut a2 = a.clone();
                if let Some(k) = hit_target(cx, &a, t, reacted, &p)? {
                    k.into(&mut a2);
                }
                return next_target(cx, a2);
            }
        }
    }
    // A dodger is out of the blast (MUR-H8); the others still take the roll when it comes.
    next_target(cx, a)
}

/// After one target: the next character of a blast, or the end of the attack.
fn next_target(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let mut queue = a.queue.clone();
    while !queue.is_empty() {
        let next = queue.remove(0);
        if cx.s.ch(next).up()
            || matches!(
                cx.s.ch(next).status,
                Status::Surrendered | Status::Incapacitated | Status::Dying { .. }
            )
        {
            cx.update(Frame::Attack(Attack {
                target: next,
                queue,
                reaction: None,
                stage: AttackStage::React,
                ..a
            }));
            return Ok(Flow::Go);
        }
    }
    finish(cx, a)
}

/// The attack is over for everyone: spend a thrown flask, reveal a surprise attacker, pop.
fn finish(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    cx.pop();
    breaks(cx, a.by, a.with, a.face);
    if cx.s.ch(a.by).penetrating {
        // MUR-H7: the GM's ruling lets one attack through cover.
        cx.emit(Event::Condition {
            who: a.by,
            condition: Condition::Penetrating(false),
        });
    }
    if let With::Item(i) = a.with
        && let Some(it) = cx.s.ch(a.by).item(i)
        && cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Consumable))
    {
        cx.emit(Event::Used {
            who: a.by,
            item: i,
            spent: true,
        });
    }
    if a.surprise && cx.s.options.reveal_after_surprise {
        // MUR-R42 [A]: the surprise attack has resolved; now its attacker is seen.
        reveal(cx, a.by);
    }
    Ok(Flow::Go)
}

/// MUR-R49: a damaged weapon or shield whose kept damage die showed the breaking face breaks,
/// once the attack it made is over (so nothing shifts under the attack while it resolves).
fn breaks(cx: &mut Cx<'_, Murdham>, who: Cid, with: With, face: Option<u16>) {
    if let With::Item(i) = with
        && let Some(it) = cx.s.ch(who).item(i)
        && it.damaged
        && face == Some(u16::from(cx.s.options.break_face))
    {
        worn(cx, who, Some(i), true);
    }
}

/// A stunt accepted (MUR-R32): no damage to this target; on to the next.
fn finish_target(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<()> {
    next_target(cx, a).map(drop)
}

/// The damage roll a hit made: its total, the natural face of its kept die (MUR-R49), and
/// whether the rest of a blast rolled once may deal it too (not a roll made for one target the
/// GM ruled enhanced or impaired).
#[derive(Clone, Copy)]
struct Kept {
    roll: i32,
    face: Option<u16>,
    shared: bool,
}

impl Kept {
    fn of(h: &Hit) -> Kept {
        Kept {
            roll: h.roll,
            face: h.face,
            shared: h.shared,
        }
    }

    /// Keeps the roll in the attack for the rest of a blast (MUR-H8), and its face for the
    /// weapon's wear.
    fn into(self, a: &mut Attack) {
        if self.shared {
            a.rolled = Some(self.roll);
        }
        a.face = self.face;
    }
}

/// Lands attack `a` on `t` with no counter: returns the roll made, for the rest of a blast. `p`
/// is the [`profile`] of the attack's weapon in the attacker's hands (a harm needs it).
fn hit_target(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    t: Cid,
    reacted: bool,
    p: &Result<Profile, Reject>,
) -> Res<Option<Kept>> {
    match a.mode {
        Mode::FinalBlow => {
            // MUR-R18: the incapacitated target is killed outright.
            let status = if cx.s.ch(t).stats.kind == Kind::Demon {
                Status::Banished
            } else {
                Status::Dead
            };
            cx.emit(Event::Fell { who: t, status });
            Ok(None)
        }
        Mode::Disarm { item } => {
            non_lethal(cx, a.by, t, Mode::Disarm { item })?;
            Ok(None)
        }
        Mode::Grapple => {
            non_lethal(cx, a.by, t, Mode::Grapple)?;
            Ok(None)
        }
        Mode::Harm { .. } => {
            let p = *p.as_ref().map_err(|r| bug(r.reason.clone()))?;
            if p.grab {
                non_lethal(cx, a.by, t, Mode::Grapple)?;
            }
            let h = compute_hit(cx, a, a.by, t, p, a.mode, reacted)?;
            deal(cx, a, t, &h, &p)?;
            Ok(Some(Kept::of(&h)))
        }
    }
}

/// Applies a computed hit: damage, gear wear, power effects, stun and poison.
fn deal(cx: &mut Cx<'_, Murdham>, a: &Attack, t: Cid, h: &Hit, p: &Profile) -> Res<()> {
    // MUR-R50: a hit of 8 or more before armour breaks damaged shields and armour.
    if h.raw >= i32::from(cx.s.options.break_threshold) && !p.direct {
        let tc = cx.s.ch(t).clone();
        let shield = tc.hands.iter().flatten().copied().find(|&i| {
            tc.item(i)
                .is_some_and(|it| it.damaged && cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Shield)))
        });
        let armour = tc.armour_damaged && !tc.armour_lost;
        match (shield, armour, cx.s.options.shield_breaks_first) {
            (Some(i), _, true) => worn(cx, t, Some(i), true),
            (None, true, true) => worn(cx, t, None, true),
            (s, arm, false) => {
                if let Some(i) = s {
                    worn(cx, t, Some(i), true);
                }
                if arm {
                    worn(cx, t, None, true);
                }
            }
            _ => {}
        }
    }
    hurt(cx, t, Some(a.by), h.raw, h.armour, p.direct)?;
    if !cx.s.ch(t).up() {
        return Ok(());
    }
    if p.stun && !save(cx, t, Ability::Str, Why::Effect)? {
        let s = &*cx.s;
        let round = s.round_to_lose(t);
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::LosesTurn(Some(round)),
        });
    }
    if p.poison && !cx.s.ch(t).poisoned && !save(cx, t, Ability::Str, Why::Effect)? {
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Poisoned(true),
        });
    }
    if p.power && p.effect != crate::data::Effect::None && !save(cx, t, p.save, Why::Effect)? {
        let s = &*cx.s;
        match p.effect {
            crate::data::Effect::Stun => {
                let round = s.round_to_lose(t);
                cx.emit(Event::Condition {
                    who: t,
                    condition: Condition::LosesTurn(Some(round)),
                });
            }
            crate::data::Effect::Frighten if !s.ch(t).stats.fearless() => cx.emit(Event::Condition {
                who: t,
                condition: Condition::Frightened(Some(a.by)),
            }),
            crate::data::Effect::Entangle if s.ch(t).grabbed_by.is_none() => {
                cx.emit(Event::Grab { who: t, by: Some(a.by) })
            }
            _ => {}
        }
    }
    Ok(())
}

/// A disarm or grapple lands: the target's STR save (MUR-R34, MUR-R35, MUR-R59).
fn non_lethal(cx: &mut Cx<'_, Murdham>, by: Cid, t: Cid, mode: Mode) -> Res<()> {
    if let Mode::Disarm { item } = mode {
        let kept = str_contest(cx, t, by, Why::Disarm, Some(Skill::Disarm))?;
        if !kept && cx.s.ch(t).hand_of(item).is_some() {
            cx.emit(Event::Dropped { who: t, item });
        }
    } else if mode == Mode::Grapple && cx.s.ch(t).grabbed_by.is_none() {
        let slipped = str_contest(cx, t, by, Why::Grapple, Some(Skill::Wrestling))?;
        if !slipped {
            cx.emit(Event::Grab { who: t, by: Some(by) });
        }
    }
    Ok(())
}

/// A counter (MUR-R21): both roll at once; who would suffer more is hit first; a tie lands
/// together; a first hit that takes its victim out stops the other; non-lethal attacks come
/// last (MUR-R33); fast strike goes first (MUR-R60). Returns the attack's damage roll, if
/// one was made, for the rest of a blast. `p` is the [`profile`] of the attack's weapon in the
/// attacker's hands.
fn counter(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    with: With,
    mode: Mode,
    p: &Result<Profile, Reject>,
) -> Res<Option<Kept>> {
    let (by, t) = (a.by, a.target);
    // The counter's own to-hit save, when its circumstances need one.
    let cplan = plan(&cx.s, t, Aim::At(by), with, mode, false, true).ok();
    let counter_hits = match &cplan {
        Some(p) if p.save => save(cx, t, Ability::Wit, Why::Hit)?,
        Some(_) => true,
        None => !cx.s.options.counter_needs_reach,
    };
    if cx.s.ch(t).hindered {
        // MUR-H6: the GM's hinder asks a save of one attack, a counter included.
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Hindered(false),
        });
    }
    // MUR-H25: the weapon that counters is used (a reload weapon fires).
    let consumable = match with {
        With::Item(i) => {
            let d = cx.s.ch(t).item(i).and_then(|it| cx.s.setup.item(&it.id)).cloned();
            let reload = d.as_ref().is_some_and(|d| d.has(Keyword::Reload));
            let consumable = d.as_ref().is_some_and(|d| d.has(Keyword::Consumable));
            if !consumable {
                cx.emit(Event::Used {
                    who: t,
                    item: i,
                    spent: reload,
                });
            }
            consumable.then_some(i)
        }
        _ => None,
    };
    let back = Attack {
        by: t,
        with,
        mode,
        target: by,
        blast: None,
        queue: Vec::new(),
        sweep: false,
        focused: false,
        opportunity: false,
        counter: true,
        stunt: None,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Land,
        surprise: false,
        save: false,
        ranged: false,
        rolled: None,
        face: None,
    };
    let lethal = |m: Mode| matches!(m, Mode::Harm { .. } | Mode::FinalBlow);
    let pa = *p.as_ref().map_err(|r| bug(r.reason.clone()))?;
    // The counter's weapon: as its plan found it, when it has one (the saves and the uses since
    // change nothing of it).
    let pb = match &cplan {
        Some(cp) => cp.profile,
        None => profile(&cx.s, t, with).map_err(|r| bug(r.reason))?,
    };
    // Both damage rolls happen at the same moment.
    let ha = if lethal(a.mode) && a.mode != Mode::FinalBlow {
        Some(compute_hit(cx, a, by, t, pa, a.mode, true)?)
    } else {
        None
    };
    let hb = if counter_hits && lethal(mode) {
        Some(compute_hit(cx, &back, t, by, pb, mode, true)?)
    } else {
        None
    };
    if cx.s.ch(t).penetrating {
        // MUR-H7: the GM's ruling lets one attack through cover, a counter included.
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Penetrating(false),
        });
    }
    // Order: 0 = the attack first, 1 = the counter first, 2 = together.
    let fast = |c: Cid| cx.s.ch(c).stats.has(Skill::FastStrike);
    let order = if !lethal(a.mode) && lethal(mode) {
        1
    } else if lethal(a.mode) && !lethal(mode) {
        0
    } else if fast(by) != fast(t) {
        if fast(by) { 0 } else { 1 }
    } else {
        let da = ha.as_ref().map_or(0, |h| h.amount);
        let db = hb.as_ref().map_or(0, |h| h.amount);
        // The side that would suffer more is hit first.
        match da.cmp(&db) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal if da == 0 && cx.s.options.tie_order == TieOrder::RandomWhenZero => {
                (die(cx, 2, by, "which zero hit lands first (d2)")? - 1) as u8
            }
            std::cmp::Ordering::Equal => 2,
        }
    };
    let stops = cx.s.options.first_hit_stops;
    let land_attack = |cx: &mut Cx<'_, Murdham>| -> Res<()> {
        match (&ha, a.mode) {
            (Some(h), _) => deal(cx, a, t, h, &pa),
            (None, Mode::FinalBlow) => {
                hit_target(cx, a, t, true, &Ok(pa))?;
                Ok(())
            }
            (None, m) => non_lethal(cx, by, t, m),
        }
    };
    let land_counter = |cx: &mut Cx<'_, Murdham>| -> Res<()> {
        if !counter_hits {
            return Ok(());
        }
        match &hb {
            Some(h) => deal(cx, &back, by, h, &pb),
            None => non_lethal(cx, t, by, mode),
        }
    };
    match order {
        0 => {
            land_attack(cx)?;
            if !stops || cx.s.ch(t).up() {
                land_counter(cx)?;
            } else if counter_hits {
                cx.emit(Event::BlowStopped { who: t });
            }
        }
        1 => {
            land_counter(cx)?;
            if !stops || cx.s.ch(by).up() {
                land_attack(cx)?;
            } else {
                cx.emit(Event::BlowStopped { who: by });
            }
        }
        _ => {
            land_attack(cx)?;
            land_counter(cx)?;
        }
    }
    if let Some(i) = consumable {
        cx.emit(Event::Used {
            who: t,
            item: i,
            spent: true,
        });
    } else if counter_hits {
        breaks(cx, t, with, hb.as_ref().and_then(|h| h.face));
    }
    Ok(ha.as_ref().map(Kept::of))
}

/// Damage to `who`: health lost, critical damage, dying, death (MUR health rules), and a
/// surrendered character harmed by an enemy fighting again (MUR-R46).
pub fn hurt(cx: &mut Cx<'_, Murdham>, who: Cid, by: Option<Cid>, raw: i32, armour: i32, direct: bool) -> Res<()> {
    let s = &*cx.s;
    let c = s.ch(who);
    if matches!(
        c.status,
        Status::Dead | Status::Banished | Status::Fled | Status::Disabled
    ) {
        return Ok(());
    }
    let amount = (raw - armour).max(0);
    let before = c.health;
    cx.emit(Event::Damaged {
        who,
        by,
        amount,
        raw,
        armour,
    });
    if amount == 0 {
        return Ok(());
    }
    let s = &*cx.s;
    let c = s.ch(who);
    if c.status == Status::Surrendered && by.is_some_and(|b| s.enemies(b, who)) {
        cx.emit(Event::Resumed { who });
    }
    let s = &*cx.s;
    let c = s.ch(who);
    let kind = c.stats.kind;
    let max = if s.options.death_at_max_health {
        c.stats.max_health()
    } else {
        i32::from(c.ability(Ability::Str)) + if c.stats.has(Skill::Tough) { 2 } else { 0 }
    };
    let helmet = i32::from(c.stats.helmet && !direct);
    let critical_at = div_up(before.max(0), 2) + helmet;
    let fell = if amount >= max {
        // One hit of at least the maximum health kills outright.
        Some(if kind == Kind::Demon {
            Status::Banished
        } else {
            Status::Dead
        })
    } else if c.health <= 0 {
        Some(match kind {
            // Dying ends at the end of the next round: the ambush turn has no end of its own,
            // so a character dying in it dies at the end of round 1.
            Kind::Creature => Status::Dying {
                rounds: s.options.dying_rounds - u8::from(s.phase == Phase::Ambush),
            },
            Kind::Construct => Status::Disabled,
            Kind::Demon => Status::Banished,
            Kind::Undead => Status::Dead,
        })
    } else if amount >= critical_at && matches!(c.status, Status::Up | Status::Surrendered) {
        match kind {
            Kind::Creature => Some(Status::Incapacitated),
            Kind::Construct => Some(Status::Disabled),
            Kind::Demon | Kind::Undead => None,
        }
    } else {
        None
    };
    let already_dying = matches!(c.status, Status::Dying { .. });
    if let Some(status) = fell
        && status != c.status
        && !(already_dying && matches!(status, Status::Dying { .. } | Status::Incapacitated))
    {
        cx.emit(Event::Fell { who, status });
    }
    Ok(())
}

/// Healing: health back; a dying character healed by 1 or more is saved and rolls an injury.
fn heal(cx: &mut Cx<'_, Murdham>, who: Cid, amount: i32) -> Res<()> {
    let dying = matches!(cx.s.ch(who).status, Status::Dying { .. });
    cx.emit(Event::Healed { who, amount });
    if dying && amount >= 1 {
        let roll = die(cx, 6, who, "injury (d6)")?;
        let ability = match roll {
            2 => Some(Ability::Str),
            3 => Some(Ability::Wit),
            4 => Some(Ability::Agi),
            _ => None,
        };
        let loss = match ability {
            Some(a) => Some((a, die(cx, 4, who, "ability lost (d4)")? as u8)),
            None => None,
        };
        // The condition it leaves until a full rest (the Health chapter's injuries 4 to 6):
        // a hobbled leg once, an arm (a d2 picks which the first time, the other the second),
        // an eye (both the second time: blind). fray 0.1.0 tracked none of them.
        let had = cx.s.ch(who).injuries;
        let mut arm = None;
        let lasting = match roll {
            _ if !cx.s.options.injury_effects => None,
            4 => (!had.hobbled).then_some(Injury::Hobbled),
            5 => match had.arms {
                [false, false] => {
                    let d2 = die(cx, 2, who, "injured arm (d2: 1 the other, 2 the main)")?;
                    arm = Some(d2);
                    Some(if d2 == 2 { Injury::MainArm } else { Injury::OtherArm })
                }
                [true, false] => Some(Injury::OtherArm),
                [false, true] => Some(Injury::MainArm),
                [true, true] => None,
            },
            6 => match had.eyes {
                0 => Some(Injury::Eye),
                1 => Some(Injury::Blind),
                _ => None,
            },
            _ => None,
        };
        cx.emit(Event::Injured {
            who,
            roll,
            loss,
            arm,
            lasting,
        });
        if let Some((a, _)) = loss
            && cx.s.ch(who).ability(a) == 0
        {
            // An ability at 0 kills.
            cx.emit(Event::Fell {
                who,
                status: Status::Dead,
            });
        }
    }
    Ok(())
}

/// The automatic part of a GM ruling, after the `Ruled` event.
fn ruled(cx: &mut Cx<'_, Murdham>, r: &crate::command::Ruling) -> Res<()> {
    match r {
        R::Other(OwnRuling::Heal { who, amount }) => heal(cx, *who, i32::from(*amount))?,
        // MUR-R48: a fight the GM ends still wears the gear.
        R::End { winner } => end_fight(cx, *winner, "gm-ended")?,
        R::Other(OwnRuling::Chase { side, pace }) => {
            let fleeing: Vec<Cid> =
                cx.s.ids()
                    .filter(|&c| cx.s.ch(c).side == *side && cx.s.ch(c).up())
                    .collect();
            match pace {
                Pace::Faster => {
                    for c in fleeing {
                        cx.emit(Event::Gave {
                            who: c,
                            status: Status::Fled,
                        });
                    }
                }
                Pace::Slower => {}
                Pace::Even => {
                    // MUR-R47: one group AGI save; who passes gets away.
                    let roll = die(cx, 20, fleeing[0], "long chase (group AGI save)")?;
                    let members: Vec<(Cid, u8, bool)> = fleeing
                        .iter()
                        .map(|&c| {
                            let agi = cx.s.ch(c).ability(Ability::Agi);
                            (c, agi, roll <= u16::from(agi))
                        })
                        .collect();
                    cx.emit(Event::GroupSave {
                        roll,
                        members: members.clone(),
                        why: Why::Chase,
                    });
                    for (c, _, pass) in members {
                        if pass {
                            cx.emit(Event::Gave {
                                who: c,
                                status: Status::Fled,
                            });
                        }
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}
