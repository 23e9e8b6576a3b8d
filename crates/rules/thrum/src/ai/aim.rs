//! Aiming: the placements an area attack or a Terrain Effect could take, the picks of an
//! ability ranked, and when only the aim decides whether an action works from another square
//! ([`aim_decides`], [`area_decides`]: each lists why the rest of the check cannot change
//! there; debug builds run the full check as well).
//!
//! Apart from the square search because it is about the action, not the square: the turn's plan
//! and the scan both ask it.

use super::*;

/// The Action of ability `id` with `target` and no pick or Overexert.
pub(super) fn placement(id: u16, target: Target) -> Action {
    Action {
        ability: id,
        target,
        pick: Pick::default(),
        overexert: None,
    }
}

/// The placements of shape ability `id` to weigh: those of [`shape_options`] covering each of
/// the squares `at` in turn, each listed once. A placement covering two of them would score the
/// same twice, and only a higher score replaces the plan in hand.
pub(super) fn placements(s: &State, me: Cid, id: u16, at: impl IntoIterator<Item = Pos>) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for p in at {
        for target in shape_options(s, me, id, p) {
            if !out.iter().any(|a| a.target == target) {
                out.push(placement(id, target));
            }
        }
    }
    out
}

/// Ranks the picks of a choice: an option that puts a status the target does not have yet
/// (Slowed takes away its Evasion) comes first; then the listed order.
pub(super) fn pick_rank(s: &State, a: &Ability, t: Cid, pick: &Pick) -> u8 {
    let Some(i) = pick.option else { return 1 };
    let choice = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => c.get(i as usize),
        _ => None,
    });
    let new_status = choice.is_some_and(|c| {
        c.ops
            .iter()
            .any(|l| matches!(l.op, Op::Status(x, _) if s.ch(t).status(x) == 0))
    });
    if new_status { 0 } else { 1 }
}

pub(super) fn shape_options(s: &State, me: Cid, id: u16, ep: Pos) -> Vec<Target> {
    let a = s.setup.book.get(id);
    let size = check::area_size(
        s,
        me,
        &Action {
            ability: id,
            target: Target::None,
            pick: Pick::default(),
            overexert: None,
        },
    )
    .max(1);
    match a.target {
        TargetSpec::Area(_) => {
            let mut v = Vec::new();
            for dy in 0..size {
                for dx in 0..size {
                    v.push(Target::Area(Pos::new(ep.x - dx, ep.y - dy)));
                }
            }
            v
        }
        TargetSpec::Aura(_) => vec![Target::None],
        _ => legal::target_candidates(s, me, id, size)
            .into_iter()
            .filter(|t| {
                let act = Action {
                    ability: id,
                    target: t.clone(),
                    pick: Pick::default(),
                    overexert: None,
                };
                check::shape_squares(s, me, &act, s.ch(me).pos.unwrap_or(ep)).is_some_and(|sq| sq.contains(&ep))
            })
            .collect(),
    }
}

/// Whether the full check of an Action aimed at characters, with its user moved to a square
/// it may stop on (one of the scan's), accepts it exactly when aiming from that square does
/// ([`calc::aim_from`]), given that the check from the current square accepted it
/// (`here_ok`) or refused it only for range or Obstruction. Then everything else the check
/// asks is answered alike on both squares:
/// - the turn, the ability, its user, Nova and Overexert: the same state (a Stunned user, for
///   whom moving matters, is never tried elsewhere);
/// - stopping on the square: nobody else fills a square of the scan;
/// - the target's kind and side (checked before aiming): one target, the same state;
/// - the pick: statuses and options do not depend on where the user stands, and it is known
///   to pass (`here_ok`, or [`check::pick_allowed`] now). A pick with a direction is left to
///   the full check: whether the shifted target may land depends on the squares the user
///   leaves and takes.
pub(super) fn aim_decides(s: &State, action: &Action, targets: &[Cid], here_ok: bool) -> bool {
    targets.len() == 1 && action.pick.dir.is_none() && (here_ok || check::pick_allowed(s, action, targets))
}

/// Whether the full check of an Action aimed at an area (`Target::Area`), with its user moved
/// to a square it may stop on (one of the scan's), depends on that square only through the
/// range of the area (THR-R80, the `area_in_range` of [`from_square`]) and whether every square
/// of the area is Obstructed from it (THR-R129), given the check from the current square
/// (`here`) accepted it or refused it only for one of those two. An area is placed by its
/// corner, so its squares do not move with the user; the rest of the check is answered alike on
/// both squares:
/// - the turn, the ability, its user, Nova, Overexert and stopping on the square: as in
///   [`aim_decides`];
/// - the characters caught: the user may stand in the area on one square and not the other,
///   but nothing refuses an Action for whom it catches, only the pick could;
/// - the pick: one with neither a direction nor a status is accepted or refused whoever the
///   area catches, and it is known to pass (`here`, or [`check::pick_allowed`] now).
pub(super) fn area_decides(s: &State, a: &Ability, action: &Action, here: &Result<(), &'static str>) -> bool {
    matches!((&a.target, &action.target), (TargetSpec::Area(_), Target::Area(_)))
        && action.pick.dir.is_none()
        && action.pick.status.is_none()
        && match here {
            Ok(()) => true,
            Err(code) => {
                (*code == codes::OUT_OF_RANGE || *code == codes::OBSTRUCTED) && check::pick_allowed(s, action, &[])
            }
        }
}
