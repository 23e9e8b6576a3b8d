//! Buffs, Terrain Effects, Nova, Minions and prompts (THR-R135 to THR-R143, THR-R222,
//! THR-R226).
//!
//! A module of its own (it was `resolve::effects`): these are the lasting things an ability leaves
//! (a Buff, a Terrain Effect, a Minion, Nova Potential) and the prompts they raise, which the
//! interpreter, the turn flow and moves all call on. Where a Terrain Effect lies and whom it
//! affects is `state`'s ([`crate::state::terrain_squares`]), since the checks and the movement
//! search ask it too.

use crate::ability::{Ability, Line, NovaEarn, Reaction, TriggerOn};
use crate::actions::lines::{apply_line, deal};
use crate::actions::trigger::triggered_abilities;
use crate::calc::{self, eval};
use crate::command::{Command, Gauge};
use crate::event::{Event, Removal, Rolled, Verdict};
use crate::plan::Plan;
use crate::setup::{CharInfo, Cid};
use crate::state::Cx;
use crate::state::{
    BuffOn, Frame, FrameChange, Pick, Prompt, State, TerrainInst, Use, UseHead, terrain_affects, terrain_covers,
};
use fray_engine::EngineError;
use fray_engine::Flow;
use fray_space::Pos;
use std::sync::Arc;

type R<T = ()> = Result<T, EngineError>;

/// The defender uses its Buff on the defence being picked: the creator's bonus on the roll and
/// a reduction of what the attack lets through (THR-R139, Spirit Armor).
pub(crate) fn buff_on_defence(cx: &mut Cx, t: Cid) {
    let Some(b) = cx.s.ch(t).buff else { return };
    let Some(spec) = cx.s.setup.book.get(b.ability).buff_spec.clone() else {
        return;
    };
    let Some(Frame::Use(u)) = cx.s.stack.last() else {
        return;
    };
    let (i, mut mods) = (u.index, u.mods[u.index as usize]);
    let depth = cx.s.stack.len() - 1;
    mods.defence_flat += spec.defence_bonus.as_ref().map_or(0, |x| eval(&cx.s, b.creator, x));
    mods.reduce += spec.reduce_damage;
    mods.buff_used = true;
    cx.change(depth, FrameChange::Mods { target: i, mods });
    use_buff(cx, t);
}

/// The bearer uses one use of its Buff.
pub(crate) fn use_buff(cx: &mut Cx, who: Cid) {
    if let Some(b) = cx.s.ch(who).buff {
        cx.emit(Event::BuffUsed {
            who,
            uses: b.uses.saturating_sub(1),
        });
    }
}

/// After a use, a used-up Buff either asks its creator to pay to keep it or ends.
pub(crate) fn buff_keep_prompt(cx: &mut Cx, bearer: Cid) -> R {
    let Some(b) = cx.s.ch(bearer).buff else { return Ok(()) };
    // THR-R139: a Buff lasts until the combat ends unless its record names an earlier end: its
    // uses running out, which lets the creator keep it or ends it here.
    if b.uses > 0 {
        return Ok(());
    }
    let keep =
        cx.s.setup
            .book
            .get(b.ability)
            .buff_spec
            .as_ref()
            .and_then(|x| x.keep_cost);
    match keep {
        Some(cost) if cx.s.ch(b.creator).present() => {
            cx.push(Frame::Prompt(Prompt::BuffKeep {
                creator: b.creator,
                target: bearer,
                cost,
            }))?;
        }
        _ => end_buff(cx, bearer),
    }
    Ok(())
}

/// Gives a Buff to a target (THR-R139 to THR-R142): at once if it has none, else the target
/// chooses between the old and the new.
pub(crate) fn apply_buff(cx: &mut Cx, u: &UseHead, t: Cid) -> R {
    let Some(spec) = cx.s.setup.book.get(u.ability).buff_spec.clone() else {
        return Ok(());
    };
    let buff = BuffOn {
        creator: u.user,
        ability: u.ability,
        uses: spec.uses,
    };
    // The limit is per bearer only: the creator's Buffs on other targets stay (THR-R140).
    // THR-R141: a bearer has one Buff at most; THR-R142: one already under a Buff is asked
    // whether to end it for the new one or decline the new one.
    if cx.s.ch(t).buff.is_none() {
        cx.emit(Event::BuffGained { who: t, buff });
    } else {
        cx.push(Frame::Prompt(Prompt::BuffReplace {
            target: t,
            creator: u.user,
            ability: u.ability,
        }))?;
    }
    Ok(())
}

/// Places a Terrain Effect (THR-R136, THR-R137, THR-R138).
pub(crate) fn place_terrain(cx: &mut Cx, u: &Use, a: &Ability) {
    let Some(spec) = &a.terrain else { return };
    // THR-R138: an ability that says so (`exempt`) escapes the one-Terrain-Effect limit, and
    // placing others never removes it.
    if !spec.exempt {
        // A creator has one Terrain Effect at a time: a new one removes the old (THR-R137).
        while let Some(i) = cx.s.terrain.iter().position(|t| {
            t.creator == u.user
                && !cx
                    .s
                    .setup
                    .book
                    .get(t.ability)
                    .terrain
                    .as_ref()
                    .is_some_and(|x| x.exempt)
        }) {
            remove_terrain(cx, i);
        }
    }
    let aura = match &a.target {
        crate::ability::TargetSpec::Aura(x) => Some(eval(&cx.s, u.user, x).max(1) as u16),
        _ => None,
    };
    let over = u.overexert.and_then(|i| a.overexert.get(i as usize));
    let upkeep = over
        .filter(|o| o.upkeep)
        .map(|o| o.stress.unwrap_or(cx.s.options.overexert_stress));
    let squares = if aura.is_some() { Vec::new() } else { u.shape.to_vec() };
    cx.emit(Event::TerrainPlaced {
        effect: TerrainInst {
            creator: u.user,
            ability: u.ability,
            squares,
            aura,
            upkeep,
            round: cx.s.round,
        },
    });
}

/// Applies Terrain Effect lines of one kind to a character standing on `p`.
pub(crate) fn terrain_lines(
    cx: &mut Cx,
    who: Cid,
    p: Pos,
    pick: impl Fn(&crate::ability::TerrainSpec, &TerrainInst) -> Vec<Line>,
) -> R {
    let acts = |s: &State, t: &TerrainInst| {
        s.setup
            .book
            .get(t.ability)
            .terrain
            .as_ref()
            .is_some_and(|spec| terrain_covers(s, t, p) && terrain_affects(s, t, who, spec.affects))
    };
    // Nothing changes until an effect acts, so the list is copied (lines may change it) only
    // from the first effect that does.
    let Some(first) = cx.s.terrain.iter().position(|t| acts(&cx.s, t)) else {
        return Ok(());
    };
    // The book is fixed: its specs are read through a handle on the setup, not copied (the
    // handle, a clone of the setup's `Arc`, is taken only once an effect acts).
    let setup = Arc::clone(&cx.s.setup);
    let effects = cx.s.terrain[first..].to_vec();
    for t in &effects {
        let Some(spec) = setup.book.get(t.ability).terrain.as_ref() else {
            continue;
        };
        if !acts(&cx.s, t) {
            continue;
        }
        let lines = pick(spec, t);
        if lines.is_empty() || !cx.s.ch(who).present() {
            continue;
        }
        let u = synthetic_use(cx, t.creator, t.ability);
        for l in &lines {
            apply_line(cx, usize::MAX, &u, l, who)?;
        }
    }
    Ok(())
}

/// A use record for lines that come from a standing effect rather than an ability use. It
/// takes a fresh use number (never the id of a real use, nor of another standing effect's
/// application), so Dazed's "not the use that applied it" test (THR-R214) only ever compares
/// an effect with itself.
pub(crate) fn synthetic_use(cx: &mut Cx, user: Cid, ability: crate::ability::AbilityId) -> UseHead {
    cx.emit(Event::StandingUse { who: user, ability });
    UseHead {
        id: cx.s.uses,
        user,
        ability,
        square: None,
        pick: Pick::default(),
        overexert: None,
        is_action: false,
        index: 0,
        target: None,
    }
}

/// A character entered a square: Terrain Effects with entry lines act on it.
pub(crate) fn entered(cx: &mut Cx, who: Cid, p: Pos) -> R {
    if cx.s.terrain.is_empty() {
        return Ok(());
    }
    terrain_lines(cx, who, p, |spec, _| spec.on_enter.clone())
}

/// Start of Turn, step b (THR-R28): upkeep payments, start-of-turn passives, Terrain Effects.
pub(crate) fn start_of_turn_effects(cx: &mut Cx, who: Cid) -> R {
    // Start-of-turn passives (Jittery) apply by themselves.
    let passives: crate::inline::Inline<crate::ability::AbilityId, 8> = triggered_abilities(&cx.s, who).collect();
    for &id in &passives {
        // Only a start-of-turn passive goes on (the ability is held, through a clone of the
        // setup's `Arc`, only for one that acts).
        let adjacent_foe = match cx.s.setup.book.get(id).trigger.as_ref().map(|tr| &tr.on) {
            Some(TriggerOn::StartOfTurn { adjacent_foe }) => *adjacent_foe,
            _ => continue,
        };
        if adjacent_foe
            && cx.s.ch(who).pos.is_none_or(|p| {
                !cx.s.ids().any(|o| {
                    cx.s.enemies(who, o)
                        && calc::counts_as_foe(&cx.s, o)
                        && cx.s.ch(o).pos.is_some_and(|q| fray_space::chebyshev(p, q) == 1)
                })
            })
        {
            continue;
        }
        // The trigger (there is one: its `on` was read above), through a handle on the setup
        // while its lines change the state.
        let setup = Arc::clone(&cx.s.setup);
        let reaction = setup
            .book
            .get(id)
            .trigger
            .as_ref()
            .map_or(&[][..], |tr| &tr.reaction[..]);
        let u = synthetic_use(cx, who, id);
        for r in reaction {
            if let Reaction::Lines(lines) = r {
                for l in lines {
                    apply_line(cx, usize::MAX, &u, l, who)?;
                }
            }
        }
    }
    // Terrain Effects that act on whoever starts its turn inside.
    if let Some(p) = cx.s.ch(who).pos {
        terrain_lines(cx, who, p, |spec, t| {
            let mut v = spec.start_of_turn.clone();
            if t.upkeep.is_some() {
                v.extend(spec.overexert_start_of_turn.iter().cloned());
            }
            v
        })?;
    }
    // Upkeep Overexerts this character keeps up ask to be paid again (THR-R135).
    if cx.s.options.upkeep_at_start_of_turn {
        upkeep_prompts(cx, who)?;
    }
    Ok(())
}

pub(crate) fn upkeep_prompts(cx: &mut Cx, who: Cid) -> R {
    let asks: Vec<(usize, i16)> =
        cx.s.terrain
            .iter()
            .enumerate()
            .filter(|(_, t)| t.creator == who && t.round != cx.s.round)
            .filter_map(|(i, t)| t.upkeep.map(|c| (i, c)))
            .collect();
    for (i, cost) in asks.into_iter().rev() {
        cx.push(Frame::Prompt(Prompt::Upkeep {
            creator: who,
            effect: i as u8,
            cost,
        }))?;
    }
    Ok(())
}

pub(crate) fn step_prompt(_cx: &mut Cx, _p: &Prompt) -> Flow {
    // Every prompt is a decision for a seat.
    Flow::Wait
}

/// Answers the prompt on top of the stack, with the plan the answer's check gave it.
pub(crate) fn answer_prompt(cx: &mut Cx, cmd: &Command, plan: Plan) -> R {
    let Some(Frame::Prompt(p)) = cx.s.stack.last().cloned() else {
        return Ok(());
    };
    cx.pop();
    match (p, cmd) {
        (Prompt::Move { who, .. }, Command::Move(to)) => {
            let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
            // The path the check found within the prompt's budget.
            let Plan::Move { path, .. } = plan else {
                return Err(EngineError::Bug(format!(
                    "the move to {to} resolved without its checked path"
                )));
            };
            let mut at = from;
            for next in path {
                // A Weaver moving on its own turn uses its exemption here too, as the search
                // that found the path assumed (THR-R76).
                if let Ok((_, true)) = crate::reach::paid_step_cost(&cx.s, who, at, next, false) {
                    cx.emit(Event::WeaverIgnored { who, slowed: false });
                }
                cx.emit(Event::Moved {
                    who,
                    from: at,
                    to: next,
                    cost: 0,
                    forced: true,
                });
                entered(cx, who, next)?;
                at = next;
            }
        }
        (
            Prompt::BuffReplace {
                target,
                creator,
                ability,
            },
            Command::Accept,
        ) => {
            // THR-R142: accepting ends the old Buff and starts the new one.
            let uses = cx.s.setup.book.get(ability).buff_spec.as_ref().map_or(1, |b| b.uses);
            end_buff(cx, target);
            cx.emit(Event::BuffGained {
                who: target,
                buff: BuffOn { creator, ability, uses },
            });
        }
        (Prompt::BuffKeep { creator, target, cost }, Command::Keep) => {
            let id = cx.s.uses;
            deal(cx, creator, Gauge::Stress, cost, Some(creator), id);
            if let Some(b) = cx.s.ch(target).buff {
                let uses = cx.s.setup.book.get(b.ability).buff_spec.as_ref().map_or(1, |x| x.uses);
                cx.emit(Event::BuffRenewed { who: target, uses });
            }
        }
        (Prompt::BuffKeep { target, .. }, Command::Release) => end_buff(cx, target),
        (Prompt::Upkeep { creator, cost, .. }, Command::Keep) => {
            let id = cx.s.uses;
            deal(cx, creator, Gauge::Stress, cost, Some(creator), id);
        }
        (Prompt::Upkeep { effect, .. }, Command::Release) => cx.emit(Event::UpkeepEnded { index: effect }),
        (
            Prompt::BuffReplace {
                target,
                creator,
                ability,
            },
            Command::Decline,
        ) => cx.emit(Event::BuffDeclined {
            who: target,
            creator,
            ability,
        }),
        // `pass` on a move changes nothing.
        _ => {}
    }
    Ok(())
}

/// Nova Potential from a contest: Criticals on either side, doubles on the attack roll.
pub(crate) fn nova_on_contest(cx: &mut Cx, user: Cid, target: Cid, verdict: Verdict, attack: Option<Rolled>) {
    if verdict == Verdict::AttackerCritical {
        nova_earn(cx, user, NovaEarn::CriticalDealt);
    }
    if verdict == Verdict::DefenderCritical {
        nova_earn(cx, target, NovaEarn::CriticalDefence);
    }
    // Doubles only matter to a user with Nova abilities (`nova_earn` does nothing for others).
    if let Some(r) = attack
        && !cx.s.ch(user).nova.is_empty()
    {
        let doubles = match cx.s.options.doubles_from {
            crate::options::DoublesFrom::KeptDice => {
                let mut kept = r.roll.kept_faces();
                matches!((kept.next(), kept.next(), kept.next()), (Some(a), Some(b), None) if a == b)
            }
            crate::options::DoublesFrom::AllDice => {
                let f = r.roll.faces.as_slice();
                (0..f.len()).any(|i| (i + 1..f.len()).any(|j| f[i] == f[j]))
            }
        };
        if doubles {
            nova_earn(cx, user, NovaEarn::DoublesOnAttack);
        }
    }
}

/// One Potential for each of a character's Nova abilities that earn on this event, capped at
/// their Cost (THR-R226).
pub fn nova_earn(cx: &mut Cx, who: Cid, earn: NovaEarn) {
    if !cx.s.ch(who).present() {
        return;
    }
    let states = cx.s.ch(who).nova.clone();
    for n in states {
        let Some(nv) = cx.s.setup.book.get(n.ability).nova else {
            continue;
        };
        if nv.earn == earn && n.potential < nv.cost {
            cx.emit(Event::NovaEarned {
                who,
                ability: n.ability,
                potential: n.potential + 1,
            });
        }
    }
}

/// Places the user's Minion on a square, or moves the one it has there (THR-R222).
pub(crate) fn position_minion(cx: &mut Cx, user: Cid, at: Pos) {
    let existing =
        cx.s.ids()
            .find(|&m| cx.s.info(m).minion_of == Some(user) && cx.s.ch(m).present());
    match existing {
        Some(m) => cx.emit(Event::Relocated { who: m, to: at }),
        None => {
            let ctl = cx.s.info(user).clone();
            let mut n = 1;
            let id = loop {
                let id = if n == 1 {
                    format!("{}-minion", ctl.id)
                } else {
                    format!("{}-minion-{n}", ctl.id)
                };
                if cx.s.find(&id).is_none() {
                    break id;
                }
                n += 1;
            };
            let info = CharInfo {
                id,
                name: format!("{}'s Minion", ctl.name),
                side: ctl.side,
                seat: ctl.seat,
                start: Some(at),
                stats: crate::setup::Stats {
                    speed: 0,
                    ..ctl.stats.clone()
                },
                abilities: Vec::new(),
                traits: Default::default(),
                ft: 0,
                st: 0,
                wounds: 0,
                nova: Vec::new(),
                minion_of: Some(user),
                usable: Default::default(),
            };
            cx.emit(Event::Joined { info: Arc::new(info) });
        }
    }
}

/// Ends the Buff `bearer` benefits from, naming its creator and ability in the event.
fn end_buff(cx: &mut Cx, bearer: Cid) {
    if let Some(b) = cx.s.ch(bearer).buff {
        cx.emit(Event::BuffEnded {
            who: bearer,
            creator: b.creator,
            ability: b.ability,
        });
    }
}

/// Removes the Terrain Effect at index `i`, naming its creator and ability in the event.
fn remove_terrain(cx: &mut Cx, i: usize) {
    if let Some(t) = cx.s.terrain.get(i) {
        let (creator, ability) = (t.creator, t.ability);
        cx.emit(Event::TerrainRemoved {
            index: i as u8,
            creator,
            ability,
        });
    }
}

/// Removes a combatant from combat; with it go the Buffs and Terrain Effects it created and
/// its Minions (THR-R143, THR-R222).
pub fn remove(cx: &mut Cx, who: Cid, why: Removal) {
    if cx.s.ch(who).removed {
        return;
    }
    cx.emit(Event::Removed { who, why });
    creator_gone(cx, who);
}

/// Ends what a creator keeps in play (on removal, or on Incapacity with that option).
pub(crate) fn creator_gone(cx: &mut Cx, who: Cid) {
    for b in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.ch(b).buff.is_some_and(|x| x.creator == who) {
            end_buff(cx, b);
        }
    }
    while let Some(i) = cx.s.terrain.iter().position(|t| t.creator == who) {
        remove_terrain(cx, i);
    }
    for m in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.info(m).minion_of == Some(who) && !cx.s.ch(m).removed {
            cx.emit(Event::Removed {
                who: m,
                why: Removal::CreatorGone,
            });
        }
    }
}
