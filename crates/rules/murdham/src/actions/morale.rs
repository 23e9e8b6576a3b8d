//! Morale (MUR-R43 to MUR-R46): the morale phase at the end of each round, which asks a group
//! WIT save of each faction down to half its number, or of a lone fighter down to half its
//! health (MUR-H11, MUR-H13), from every member not fearless nor already proof; the choice of
//! those who failed (surrender or retreat); and surrendering in one's turn.

use crate::Murdham;
use crate::actions::bug;
use crate::command::Command;
use crate::data::{Ability, div_up};
use crate::options::MoraleFor;
use crate::roll::{Res, die};
use crate::setup::Cid;
use crate::state::{Event, Frame, Phase, Status, Why};
use fray_engine::Cx;

/// The morale phase (MUR-R43 to MUR-R45): each faction at half strength, or a lone fighter
/// at half health, rolls one WIT save for every member not yet proof against it.
pub(crate) fn morale(cx: &mut Cx<'_, Murdham>) -> Res<()> {
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

/// The choice of `first`, the first of those who failed morale (MUR-R44, MUR-H12): surrender
/// or retreat; the frame keeps the others.
pub fn choose(cx: &mut Cx<'_, Murdham>, first: Cid, command: &Command) -> Res<()> {
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
    Ok(())
}

/// `who` surrenders in its turn (MUR-R46): the turn is spent.
pub fn surrender(cx: &mut Cx<'_, Murdham>, who: Cid) {
    // MUR-R46: the surrender, then the end of the turn it used.
    cx.emit(Event::Gave {
        who,
        status: Status::Surrendered,
    });
    cx.emit(Event::TurnEnded { who });
}
