//! The pending decision in a line: in full (the GM's), or as a seat may know it.
//!
//! The decision behind this module: a player's prompt leaves out what its seat's tracker leaves
//! out (the gauges, readied and extended actions of a character it does not see), so both
//! follow the one gauge rule of `map`.

use crate::calc;
use crate::setup::Cid;
use crate::state::{AttackStage, Frame, Phase, State};
use fray_engine::{Pending, Seat};

use super::log::ext_text;
use super::map::sees_gauges;

/// A one-line description of the pending decision.
/// The pending decision in a line as `seat` may know it: without the resources (health,
/// stamina, focus, reactions), readied or extended actions of a character whose gauges the
/// seat does not see, as its tracker leaves them out. Who may intercept depends on their
/// stamina and reactions, so the list is left out unless the seat sees all of them.
pub fn describe_pending_for(s: &State, p: &Pending<crate::stage::Stage>, seat: Seat) -> String {
    let n = |c: Cid| s.name(c).to_string();
    let private = |c: Cid| !sees_gauges(s, seat, c);
    match s.stack.last() {
        Some(Frame::Attack(a)) => match a.stage {
            AttackStage::Intercept if a.intercept.iter().any(|&c| private(c)) => format!(
                "{} is attacked by {}: does an ally intercept (1 stamina and the reaction)? or pass",
                n(a.target),
                n(a.attacker)
            ),
            AttackStage::Defend if private(a.target) => format!("{} attacks {}: defences?", n(a.attacker), n(a.target)),
            _ => describe_pending(s, p),
        },
        Some(Frame::Ready(w)) if w.candidates.get(w.asked as usize).is_none_or(|&c| private(c)) => {
            format!("{} set off a readied action: fire or hold?", n(w.subject))
        }
        Some(Frame::Conscious { who, .. }) if private(*who) => {
            format!("{}: fortify (1 stamina, the reaction) or fall unconscious?", n(*who))
        }
        Some(_) => describe_pending(s, p),
        None => match &s.turn {
            Some(t) if private(t.who) => {
                let mut text = format!("{}'s turn: {} action(s) left", n(t.who), s.ch(t.who).econ.actions);
                if t.opening && crate::check::opening_action(s).is_some() {
                    text.push_str(" (first, the action that started the fight)");
                }
                text
            }
            _ => describe_pending(s, p),
        },
    }
}

pub fn describe_pending(s: &State, p: &Pending<crate::stage::Stage>) -> String {
    let n = |c: Cid| s.name(c).to_string();
    match s.stack.last() {
        Some(Frame::Attack(a)) => match a.stage {
            AttackStage::Intercept => {
                let who: Vec<String> = a
                    .intercept
                    .iter()
                    .filter(|&&c| crate::check::can_react(s, c, false, 1, 0))
                    .map(|&c| format!("{} ({})", n(c), s.info(c).id))
                    .collect();
                format!(
                    "{} is attacked by {}: does an ally intercept (1 stamina and the reaction)? {} may; or pass",
                    n(a.target),
                    n(a.attacker),
                    who.join(", ")
                )
            }
            AttackStage::Defend => format!(
                "{} attacks {}: defences? ({} reaction(s), {} stamina, {} focus)",
                n(a.attacker),
                n(a.target),
                s.ch(a.target).econ.reactions_left() + a.defences.free,
                s.ch(a.target).stamina,
                s.ch(a.target).focus
            ),
            AttackStage::Block => format!("{} is hit for {} before reduction: block?", n(a.target), a.raw),
            _ => "resolving an attack".into(),
        },
        Some(Frame::Ready(w)) => format!(
            "{} set off {}'s readied action ({}): fire or hold?",
            n(w.subject),
            w.candidates.get(w.asked as usize).map_or("?".to_string(), |c| n(*c)),
            w.trigger.name()
        ),
        Some(Frame::Conscious { who, missing }) => format!(
            "{} is missing {missing} health (constitution {}): fortify (1 stamina, the reaction) or fall unconscious?",
            n(*who),
            calc::constitution(s, *who)
        ),
        Some(Frame::AfterDodge { who, .. }) => format!("{} dodged: drop prone, seek cover, step 1 m, or pass", n(*who)),
        _ => match &s.turn {
            Some(t) => {
                let c = s.ch(t.who);
                if c.econ.extended.is_some() && !c.ext_settled {
                    let e = c
                        .econ
                        .extended
                        .as_ref()
                        .map_or(String::new(), |e| ext_text(s, &e.action));
                    format!("{}'s turn: continue {e} or abandon it?", n(t.who))
                } else {
                    let mut text = format!(
                        "{}'s turn: {} action(s) left, {} stamina, {} focus",
                        n(t.who),
                        c.econ.actions,
                        c.stamina,
                        c.focus
                    );
                    if t.opening && crate::check::opening_action(s).is_some() {
                        text.push_str(" (first, the action that started the fight)");
                    }
                    text
                }
            }
            None => {
                let team = s
                    .order
                    .team_to_pick(|w| s.can_take_turn(w))
                    .and_then(|t| s.setup.teams.get(t as usize))
                    .map_or("?".to_string(), |t| t.name.clone());
                let round = if s.phase == Phase::Surprise {
                    "surprise round".to_string()
                } else {
                    format!("round {}", s.round)
                };
                let _ = p;
                format!("{team} pick who acts next ({round})")
            }
        },
    }
}
