//! Reactions to an attack (MUR-R10, MUR-R11, MUR-R19): who may react at all (its turn
//! unspent, MUR-R10; nobody but the concealed in the ambushers' bonus turn, MUR-R40), the
//! checks of a dodge (MUR-R20, free with dodge blows or fleet footed, MUR-R60), a counter
//! (MUR-R21, MUR-R22, MUR-H9), hiding behind someone (MUR-R23, MUR-R38) and guarding (MUR-R24,
//! free with protect, MUR-R60); the reactions' legal list; and the resolution of the answers
//! to an attack's decisions: the stunt's approval and answer (MUR-R32), a guard, a stand-in,
//! the target's reaction (a guard or stand-in may trade places, MUR-H19).
//!
//! The counter's own resolution, two blows at once, is [`crate::actions::counter`]; the
//! landing of a dodge is [`crate::actions::landing`]. The decision asked reaches this module
//! as the character it asks, never as the stage, so nothing here imports the stage.

use crate::Murdham;
use crate::actions::attack::{finish_target, plan};
use crate::actions::weapons::{Profile, profile, weapons_of};
use crate::actions::{Offer, bug, no, reveal};
use crate::codes;
use crate::command::{Aim, Command};
use crate::data::Skill;
use crate::roll::Res;
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Event, Frame, Mode, Phase, Reaction, State, With};
use fray_engine::{Cx, Reject};

/// Whether `who` may react now: up, aware, not entangled or stunned, and with its turn unspent
/// (MUR-R10) unless `free` says a skill pays for it (MUR-R60).
pub fn may_react(s: &State, who: Cid, free: bool) -> bool {
    let c = s.ch(who);
    if !c.up() || c.grabbed_by.is_some() || c.lost_round == Some(s.round) {
        return false;
    }
    // MUR-R40 [A]: nobody but the concealed reacts during the ambushers' bonus turn.
    if s.phase == Phase::Ambush && !s.options.react_in_bonus_turn && !c.concealed {
        return false;
    }
    // MUR-R54: the fast phase's WIT threshold is not asked here: anyone whose turn is unspent
    // may react in either phase.
    free || !s.order.has_acted(who)
}

/// Whether a dodge is open to the target of `a` and whether it would be free.
pub fn dodge_open(s: &State, a: &Attack) -> Option<bool> {
    dodge_open_with(s, a, profile(s, a.by, a.with).ok()?)
}

/// [`dodge_open`] with `p`, the profile of the attack's weapon in the attacker's hands, already
/// worked out.
pub fn dodge_open_with(s: &State, a: &Attack, p: Profile) -> Option<bool> {
    let t = s.ch(a.target);
    // MUR-R41: the surprised targets of a concealed attacker cannot dodge.
    if a.surprise || !p.dodgeable {
        return None;
    }
    if a.blast.is_some() && !a.counter && p.range == 0 && !s.options.melee_blast_dodge {
        return None;
    }
    // MUR-R60: dodge blows pays for one dodge a round; fleet footed for one against an
    // opportunity attack.
    let free =
        (t.stats.has(Skill::DodgeBlows) && !t.free_dodge_used) || (a.opportunity && t.stats.has(Skill::FleetFooted));
    if a.opportunity && !free {
        // MUR-R25: the mover is already spending its turn.
        return None;
    }
    // A free dodge is taken first: it leaves the turn unspent (MUR-R60).
    if free && may_react(s, a.target, true) {
        Some(true)
    } else if may_react(s, a.target, false) {
        Some(false)
    } else {
        None
    }
}

/// Whether the target of `a` may counter it with `with` and `mode` (MUR-R21, MUR-R22, MUR-H9).
pub fn counter_ok(s: &State, a: &Attack, with: With, mode: Mode) -> Result<(), Reject> {
    // MUR-R41: a surprised target cannot counter either.
    if a.surprise || a.opportunity || !may_react(s, a.target, false) {
        return Err(no(codes::NO_REACTION, "no reaction is open to the target now"));
    }
    // MUR-R22: once one target of a blast has countered, no other may.
    if a.countered {
        return Err(no(
            codes::NO_REACTION,
            "an attack with several targets is countered by one of them only (MUR-R22)",
        ));
    }
    if matches!(mode, Mode::FinalBlow) {
        return Err(no(codes::NOT_ALLOWED, "a final blow is not a counter"));
    }
    if s.options.counter_needs_reach {
        plan(s, a.target, Aim::At(a.by), with, mode, false, true).map(drop)
    } else {
        profile(s, a.target, with).map(drop)
    }
}

/// Whether a counter or a hiding place is open to the target of `a` (the reactions besides
/// taking it and dodging that [`legal`] lists), without building the list.
pub fn other_reaction_open(s: &State, a: &Attack) -> bool {
    let counter = weapons_of(s, a.target).into_iter().any(|with| {
        counter_ok(s, a, with, Mode::Harm { hold: false }).is_ok()
            || (with == With::Unarmed && counter_ok(s, a, with, Mode::Grapple).is_ok())
    });
    counter || s.ids().any(|h| hide_ok(s, a, h).is_ok())
}

/// Whether `helper` may stand in for the target of `a` when the target hides behind it
/// (MUR-R23, MUR-R38).
pub fn hide_ok(s: &State, a: &Attack, helper: Cid) -> Result<(), Reject> {
    if a.surprise || a.opportunity || a.blast.is_some() || a.hid || !may_react(s, a.target, false) {
        return Err(no(codes::NO_REACTION, "no reaction is open to the target now"));
    }
    let ok = s.chars.get(helper as usize).is_some_and(|h| {
        helper != a.target
            && helper != a.by
            && h.up()
            && s.nearby(helper, a.target)
            && !s.hidden_from(helper, s.ch(a.target).side)
    });
    if !ok {
        return Err(no(codes::BAD_TARGET, "hide behind a character nearby who is still up"));
    }
    Ok(())
}

/// Whether `guard` may guard the target of `a` (MUR-R24): a nearby member of the target's
/// faction who may react (the protect skill pays for it, MUR-R60).
pub fn guard_ok(s: &State, a: &Attack, guard: Cid) -> bool {
    let g = s.ch(guard);
    let free = g.stats.has(Skill::Protect);
    guard != a.target
        && guard != a.by
        && g.side == s.ch(a.target).side
        && !a.surprise
        && !a.opportunity
        && a.blast.is_none()
        && s.nearby(guard, a.target)
        && may_react(s, guard, free)
}

/// Which decision about the attack on top an answer is for, as far as resolving the answer
/// needs to know: the guard asked, the character asked to stand in for the target, or
/// another (the stunt's approval or answer, the target's reaction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// A guard is asked.
    Guard(Cid),
    /// A character is asked to stand in for the target.
    StandIn(Cid),
    /// Another decision about the attack.
    Other,
}

/// The reactions of `target` to the attack on top, in the legal list's order: take it (the
/// plain answer), dodge, counter with each weapon (bare hands may grapple), hide behind each
/// character.
pub fn legal(s: &State, target: Cid, offer: &mut dyn Offer) {
    offer.plain(Command::Take);
    offer.checked(Command::Dodge);
    for with in weapons_of(s, target) {
        for mode in [Mode::Harm { hold: false }, Mode::Grapple] {
            if matches!(mode, Mode::Grapple) && with != With::Unarmed {
                continue;
            }
            offer.checked(Command::Counter { with, mode });
        }
    }
    for h in s.ids() {
        offer.checked(Command::HideBehind(h));
    }
}

/// An answer to the decision `asked` about the attack `a` on top.
pub fn answer(cx: &mut Cx<'_, Murdham>, asked: Asked, a: Attack, c: &Command) -> Res<()> {
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
            let Asked::Guard(next) = asked else {
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
        Command::Decline => match asked {
            Asked::Guard(next) => cx.update(Frame::Attack(Attack {
                stage: AttackStage::Guard { next: next + 1 },
                ..a
            })),
            Asked::StandIn(who) => {
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
            let Asked::StandIn(who) = asked else {
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
