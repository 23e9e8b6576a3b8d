//! The battlefield and the combat tracker as text, as one seat may see them (the `map` and
//! `show` words of `fray play`).
//!
//! The map prints the grid north at the top, with `x` along the top and `y` down the left, so
//! a square is read as `x,y` like in commands. Each cell is a symbol followed by its elevation
//! (blank at level 0): `.` open ground, `~` Difficult Terrain, `#` blocked (a wall, which gives
//! cover), `s` the Starting Area (Round Zero only), `*` a Terrain Effect, a letter a combatant
//! (PCs upper case, NPCs lower case). A legend names every marker, and a header says whose turn
//! it is. Hidden enemies are left out for seats that may not see them, as in the JSON view.

use crate::ability::{Cond, XStatus};
use crate::options::DazedMode;
use crate::setup::Cid;
use crate::state::{Phase, State, Step};
use fray_engine::Seat;
use fray_space::Pos;
use std::fmt::Write;

/// Whether `seat` may not see where `c` is: a Hidden combatant of a side the seat does not
/// play, for any seat but the GM's.
pub fn hidden_from(s: &State, seat: Seat, c: Cid) -> bool {
    // THR-H3: with `draft-hidden = false` Hidden has no effect, so it hides no square either.
    if seat.is_gm() || !s.options.draft_hidden || !s.ch(c).has(Cond::Hidden) {
        return false;
    }
    let side = s.info(c).side;
    !s.setup.chars.iter().any(|o| o.seat == seat && o.side == side)
}

/// The marker of every combatant: PCs `A`, `B`, ... and NPCs `a`, `b`, ... in encounter order
/// (`?` once a kind has used all 26 letters).
pub fn markers(s: &State) -> Vec<char> {
    let (mut pcs, mut npcs) = (0u8, 0u8);
    s.ids()
        .map(|c| {
            let (n, base) = if s.is_pc(c) {
                (&mut pcs, b'A')
            } else {
                (&mut npcs, b'a')
            };
            let m = if *n < 26 { (base + *n) as char } else { '?' };
            *n = n.saturating_add(1);
            m
        })
        .collect()
}

/// Whose turn it is and where it stands, in a sentence.
fn header(s: &State) -> String {
    let title = &s.setup.title;
    if s.phase == Phase::Ended {
        return format!("{title}: the combat is over");
    }
    let round = if s.phase == Phase::RoundZero {
        "Round Zero".to_string()
    } else {
        format!("Round {}", s.round)
    };
    let who = s.name(s.turn.who);
    let step = match s.turn.step {
        Step::Slot => "its slot is up",
        Step::Place => "picking a starting square",
        Step::Move => "moving or acting",
        Step::ActionMove => "moving after its Action",
        Step::Stance => "stance step",
        Step::Done => "turn over",
    };
    format!("{title}: {round}, {who}'s turn ({step})")
}

/// The battlefield as text for `seat` (see the module documentation).
pub fn map(s: &State, seat: Seat) -> String {
    let grid = &s.setup.map;
    let (w, h) = (grid.width() as i16, grid.height() as i16);
    let marks = markers(s);
    let mut at: std::collections::HashMap<Pos, Cid> = std::collections::HashMap::new();
    for c in s.ids() {
        let ch = s.ch(c);
        if let Some(p) = ch.pos
            && ch.present()
            && !hidden_from(s, seat, c)
        {
            at.entry(p).or_insert(c);
        }
    }
    let mut effect_at: std::collections::HashSet<Pos> = std::collections::HashSet::new();
    for t in &s.terrain {
        // An Aura follows its creator: drawn around a creator Hidden from the seat, it would
        // show where the creator stands (THR-H3), so the seat's map leaves it out, as its
        // board does.
        if t.aura.is_some() && hidden_from(s, seat, t.creator) {
            continue;
        }
        effect_at.extend(crate::state::terrain_squares(s, t));
    }
    let elev = |p: Pos| grid.elevation(p).unwrap_or(0);
    let ew = grid
        .positions()
        .map(|p| match elev(p) {
            0 => 0,
            e => e.to_string().len(),
        })
        .max()
        .unwrap_or(0);
    let xw = (w - 1).max(0).to_string().len();
    let cw = (1 + ew + 1).max(xw + 1);
    let yw = (h - 1).max(0).to_string().len();
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(s));
    // The x axis.
    let _ = write!(out, "{:yw$}  ", "");
    for x in 0..w {
        let _ = write!(out, "{:<cw$}", x);
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for y in (0..h).rev() {
        let _ = write!(out, "{y:>yw$}  ");
        for x in 0..w {
            let p = Pos::new(x, y);
            let Some(cell) = grid.get(p) else { continue };
            let sym = if let Some(&c) = at.get(&p) {
                marks[c as usize]
            } else if cell.blocked {
                '#'
            } else if effect_at.contains(&p) {
                '*'
            } else if cell.start && s.phase == Phase::RoundZero {
                's'
            } else if cell.difficult {
                '~'
            } else {
                '.'
            };
            let e = match cell.elevation {
                0 => String::new(),
                e => e.to_string(),
            };
            let _ = write!(out, "{:<cw$}", format!("{sym}{e}"));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Key: . open  ~ difficult  # blocked  * Terrain Effect{}  A-Z PCs  a-z NPCs",
        if s.phase == Phase::RoundZero {
            "  s Starting Area"
        } else {
            ""
        }
    );
    let _ = writeln!(
        out,
        "     digits: elevation (none = level 0); walls and higher ground give cover"
    );
    for t in &s.terrain {
        let _ = writeln!(out, "  * {} by {}", s.setup.book.get(t.ability).name, s.name(t.creator));
    }
    // Columns as wide as the longest id and name shown, so every row lines up.
    let shown: Vec<_> = s.ids().filter(|&c| !hidden_from(s, seat, c)).collect();
    let iw = shown.iter().map(|&c| s.info(c).id.chars().count()).max().unwrap_or(0);
    let nw = shown.iter().map(|&c| s.info(c).name.chars().count()).max().unwrap_or(0);
    for c in shown {
        let ch = s.ch(c);
        let info = s.info(c);
        let side = &s.setup.sides[info.side as usize];
        let place = match ch.pos {
            _ if ch.removed => "removed".to_string(),
            Some(p) => format!("at {p}"),
            None => "not placed yet".to_string(),
        };
        let mut notes = Vec::new();
        if ch.incapacitated && !ch.removed {
            notes.push("Incapacitated");
        }
        if ch.has(Cond::Hidden) {
            notes.push("Hidden");
        }
        if c == s.turn.who && s.phase != Phase::Ended {
            notes.push("<- its turn");
        }
        let _ = writeln!(
            out,
            "  {}  {:<iw$}  {:<nw$}  {} ({}), {place}{}",
            marks[c as usize],
            info.id,
            info.name,
            side.name,
            if side.pc { "PC" } else { "NPC" },
            if notes.is_empty() {
                String::new()
            } else {
                format!("  {}", notes.join(", "))
            }
        );
    }
    out
}

/// The battlefield as `seat` may see it, for a client to draw: every square with its elevation
/// and terrain (`blocked`, `difficult`, `start` for the Starting Area), and each Terrain
/// Effect in play as an area with the squares it covers now, its creator and what it does
/// (`terrain-effect`; `aura`; `difficult`, or `difficult-for-enemies` / `-for-allies`;
/// `on-enter`, `on-start-of-turn`, `on-end-of-turn` where it has lines then, with
/// `affects-enemies` / `affects-allies` when those lines spare the others; `kept-up` while
/// its upkeep Overexert is paid). An Aura follows its creator, so the Aura of a combatant
/// hidden from the seat has no squares on the seat's board (they would give away where it is).
pub fn board(s: &State, seat: Seat) -> fray_engine::view::Board {
    use crate::ability::Affects;
    use fray_engine::view::{AreaView, Board};
    let mut board = Board::grid(&s.setup.map, true, fray_engine::view::terrain_words);
    let Board::Grid { areas, .. } = &mut board else {
        return board;
    };
    for t in &s.terrain {
        let ability = s.setup.book.get(t.ability);
        let follows_hidden = t.aura.is_some() && hidden_from(s, seat, t.creator);
        let squares = if follows_hidden {
            Vec::new()
        } else {
            crate::state::terrain_squares(s, t)
                .into_iter()
                .map(|p| [i32::from(p.x), i32::from(p.y)])
                .collect()
        };
        let mut tags = vec!["terrain-effect".to_string()];
        if t.aura.is_some() {
            tags.push("aura".into());
        }
        if let Some(spec) = &ability.terrain {
            match spec.difficult {
                Some(Affects::All) => tags.push("difficult".into()),
                Some(Affects::Enemies) => tags.push("difficult-for-enemies".into()),
                Some(Affects::Allies) => tags.push("difficult-for-allies".into()),
                None => {}
            }
            let lines = [
                (&spec.on_enter, "on-enter"),
                (&spec.start_of_turn, "on-start-of-turn"),
                (&spec.end_of_turn, "on-end-of-turn"),
            ];
            let mut any = false;
            for (l, word) in lines {
                if !l.is_empty() {
                    tags.push(word.into());
                    any = true;
                }
            }
            match spec.affects {
                Affects::Enemies if any => tags.push("affects-enemies".into()),
                Affects::Allies if any => tags.push("affects-allies".into()),
                _ => {}
            }
        }
        if t.upkeep.is_some() {
            tags.push("kept-up".into());
        }
        areas.push(AreaView {
            name: ability.name.clone(),
            squares,
            by: Some(s.info(t.creator).id.clone()),
            tags,
        });
    }
    board
}

/// When a status or condition ends, in words.
fn ends(s: &State, c: Cid, what: Effect) -> String {
    let ch = s.ch(c);
    let turns = |x: u8| {
        if x == 1 {
            "at the end of its next turn".to_string()
        } else {
            format!("after {x} more of its turn ends")
        }
    };
    // During its own turn, the end of this turn counts.
    let turns = |x: u8| {
        if s.turn.who == c && matches!(s.turn.step, Step::Move | Step::ActionMove | Step::Stance) {
            if x == 1 {
                "at the end of this turn".to_string()
            } else {
                format!("after {x} of its turn ends (this one included)")
            }
        } else {
            turns(x)
        }
    };
    match what {
        Effect::X(XStatus::Vulnerable) => format!(
            "{} or when it next takes Fatigue or Stress",
            turns(ch.status(XStatus::Vulnerable))
        ),
        Effect::X(XStatus::Burning) => format!("{} (or by Recover)", turns(ch.status(XStatus::Burning))),
        Effect::X(x) => turns(ch.status(x)),
        Effect::Cond(Cond::Dazed) if s.options.dazed == DazedMode::Status => turns(ch.dazed_x),
        Effect::Cond(Cond::Dazed) => {
            "when it takes Fatigue or Stress from a later enemy ability use (or by Recover)".into()
        }
        Effect::Cond(Cond::Stunned) => "at the end of the turn it limits".into(),
        Effect::Cond(Cond::Disoriented) => "when a drift roll comes up 7 (or by Recover)".into(),
        Effect::Cond(Cond::Hidden) => {
            "when it aims an ability at a foe, or a foe aims one at it from an adjacent square".into()
        }
        Effect::Cond(Cond::Immobilized) => "by Recover or Resuscitate, or at the end of combat".into(),
        Effect::Cond(Cond::Hastened) => "at the end of combat".into(),
    }
}

/// A status or a condition.
#[derive(Clone, Copy)]
enum Effect {
    X(XStatus),
    Cond(Cond),
}

/// Every status and condition on `c`: name, value (X, if it has one) and when it ends.
pub fn effects(s: &State, c: Cid) -> Vec<(String, Option<u8>, String)> {
    let ch = s.ch(c);
    let mut out = Vec::new();
    for x in XStatus::ALL {
        if ch.status(x) > 0 {
            out.push((cap(x.name()), Some(ch.status(x)), ends(s, c, Effect::X(x))));
        }
    }
    for k in Cond::ALL {
        if ch.has(k) {
            let value = (k == Cond::Dazed && s.options.dazed == DazedMode::Status).then_some(ch.dazed_x);
            out.push((cap(k.name()), value, ends(s, c, Effect::Cond(k))));
        }
    }
    out
}

fn cap(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Where a slot stands in the round: `acting`, `done`, `delayed` (moved later this round and
/// not yet acted), `waiting` or `out` (left the combat).
pub fn slot_state(s: &State, c: Cid) -> &'static str {
    let Some(sl) = s.order.slot(c) else { return "out" };
    if !sl.active || s.ch(c).removed {
        "out"
    } else if s.phase != Phase::Ended && s.turn.who == c && s.turn.step != Step::Done && !sl.acted {
        "acting"
    } else if sl.acted {
        "done"
    } else if sl.delayed {
        "delayed"
    } else {
        "waiting"
    }
}

/// The combat tracker for `seat`: the turn order, then every combatant's gauges, statuses
/// and conditions with their values and when they end.
pub fn tracker(s: &State, seat: Seat) -> String {
    let marks = markers(s);
    let mut out = String::new();
    let _ = writeln!(out, "{}", header(s));
    let _ = writeln!(out, "Turn order (Initiative):");
    for sl in s.order.slots() {
        let c = sl.who;
        let st = slot_state(s, c);
        let pointer = if st == "acting" { '>' } else { ' ' };
        let info = s.info(c);
        let mut extra = String::new();
        // How far a Hidden enemy has moved would tell where it went.
        if st == "acting" && matches!(s.turn.step, Step::Move | Step::ActionMove) && !hidden_from(s, seat, c) {
            let speed = crate::calc::speed(s, c);
            let left = crate::reach::movement_left(s).max(0);
            let _ = write!(extra, "  {left} of {speed} movement left");
            if s.turn.acted {
                extra.push_str(", Action taken");
            }
        }
        if sl.delayed && st != "delayed" {
            extra.push_str("  (delayed this round)");
        }
        let _ = writeln!(
            out,
            " {pointer} {:>4}  {:<8} {} {} ({}){extra}",
            sl.key, st, marks[c as usize], info.name, info.id
        );
    }
    let _ = writeln!(out, "Combatants:");
    for c in s.ids() {
        let ch = s.ch(c);
        let info = s.info(c);
        let side = &s.setup.sides[info.side as usize];
        let place = if hidden_from(s, seat, c) {
            "position unknown (Hidden)".to_string()
        } else {
            match ch.pos {
                _ if ch.removed => "removed from combat".to_string(),
                Some(p) => format!("at {p}"),
                None => "not placed yet".to_string(),
            }
        };
        let mut state = Vec::new();
        if ch.incapacitated && !ch.removed {
            state.push("Incapacitated".to_string());
        }
        if ch.exhausted() {
            state.push("Exhausted".to_string());
        }
        if ch.frayed() {
            state.push("Frayed".to_string());
        }
        if ch.barred {
            state.push("barred until Downtime".to_string());
        }
        let _ = writeln!(
            out,
            "  {} {} ({}), {} ({}), {place}{}",
            marks[c as usize],
            info.name,
            info.id,
            side.name,
            if side.pc { "PC" } else { "NPC" },
            if state.is_empty() {
                String::new()
            } else {
                format!(": {}", state.join(", "))
            }
        );
        let _ = writeln!(
            out,
            "      Fatigue {}/{}  Stress {}/{}  Wounds {}/3  Initiative {}  Speed {}  Mark {}  Scouted {}",
            ch.fatigue,
            ch.ft,
            ch.stress,
            ch.st,
            ch.wounds,
            ch.initiative,
            crate::calc::speed(s, c),
            ch.mark,
            ch.scouted
        );
        if let Some(st) = ch.stance {
            let _ = writeln!(
                out,
                "      Stance {}: until it takes another, its trigger ends it, or it is Incapacitated",
                s.setup.book.get(st).name
            );
        }
        for (name, value, when) in effects(s, c) {
            let v = value.map_or(String::new(), |x| format!(" {x}"));
            let _ = writeln!(out, "      {name}{v}: ends {when}");
        }
        if let Some(b) = ch.buff {
            let _ = writeln!(
                out,
                "      Buff {} from {}: {} use(s) left; ends when used up and not kept, or when {} leaves the combat",
                s.setup.book.get(b.ability).name,
                s.name(b.creator),
                b.uses,
                s.name(b.creator)
            );
        }
        for n in &ch.nova {
            let a = s.setup.book.get(n.ability);
            let cost = a.nova.map_or(0, |x| x.cost);
            let _ = writeln!(
                out,
                "      {} Potential {}/{}{}",
                a.name,
                n.potential,
                cost,
                if n.used { " (used this combat)" } else { "" }
            );
        }
    }
    for t in &s.terrain {
        let _ = writeln!(
            out,
            "  Terrain Effect {} by {}{}: lasts while {} is in the combat (a new one of theirs replaces it)",
            s.setup.book.get(t.ability).name,
            s.name(t.creator),
            if t.upkeep.is_some() {
                ", kept up by Overexert"
            } else {
                ""
            },
            s.name(t.creator)
        );
    }
    out
}
