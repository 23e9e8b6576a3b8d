//! Flight (HAL-H13): a fleeing creature runs for the nearest edge of the map on its count, and
//! leaves once it reaches one; with no way to an edge it surrenders. Its flight is declared for
//! it (in [`crate::flow`]), and it provokes no Reposte (fray's own reading).

use super::moves::moves_left;
use super::{Cx1, bug};
use crate::movement::{path_costs, walk_reach};
use crate::setup::Cid;
use crate::state::Event;
use fray_engine::EngineError;
use fray_space::Pos;

/// A fleeing creature runs for the nearest edge of the map by walking distance and leaves once
/// it reaches one; with no way to an edge it surrenders (HAL-H13). Its flight provokes no
/// Reposte (fray's own reading).
pub(crate) fn flee(cx: Cx1<'_, '_>, act: u16, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let map = &s.setup.map;
    let at = s.ch(who).at;
    let (w, h) = (map.width() as i16, map.height() as i16);
    let edge = move |p: Pos| p.x == 0 || p.y == 0 || p.x == w - 1 || p.y == h - 1;
    if edge(at) {
        cx.emit(Event::Fled { who });
        cx.emit(Event::TurnEnded { act });
        return Ok(());
    }
    let mut scratch = fray_space::DiagonalScratch::new();
    let r = walk_reach(s, at, u32::MAX, &mut scratch);
    let best = r
        .destinations()
        .filter(|(p, _)| edge(*p))
        .min_by_key(|(p, d)| (*d, p.y, p.x));
    let Some((goal, _)) = best else {
        cx.emit(Event::Surrendered { who });
        cx.emit(Event::TurnEnded { act });
        return Ok(());
    };
    let path = r.path_to(goal).unwrap_or_default();
    let t = s.turn.ok_or_else(|| bug("a flight without a turn"))?;
    let budget = moves_left(s, &t) as usize;
    // The path lists the squares after the start: go as far along it as the budget allows.
    let costs = path_costs(s, at, &path);
    let n = costs.iter().take_while(|&&c| c as usize <= budget).count();
    let spent = if n > 0 { costs[n - 1] } else { 0 };
    if n > 0 {
        cx.emit(Event::Moved {
            who,
            to: path[n - 1],
            cost: spent,
        });
    }
    if n > 0 && edge(path[n - 1]) {
        cx.emit(Event::Fled { who });
    }
    cx.emit(Event::TurnEnded { act });
    Ok(())
}
