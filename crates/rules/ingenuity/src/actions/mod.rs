//! The actions and the decisions inside an attack, one module per action or rule topic.
//!
//! Each module holds, side by side, what the rules say about its action or topic: its check
//! (the typed rejection or the [`Plan`]), its legal list (the candidates the listing filters
//! through the check) and its resolution (the events it emits). `crate::check` and
//! `crate::resolve` stay the two dispatchers: they match on the pending decision and on the
//! action and call in here. The modules never name the dispatchers, so the check never depends
//! on resolution; what both need (a reaction's cost, a movement's way, the killing strike's
//! preconditions) is written once, in the module of its topic.
//!
//! | module | what it holds | rules |
//! |---|---|---|
//! | `extended` | what an action costs, extended actions, abandoning them | ING-R18, ING-R27, ING-R34, ING-R35, ING-R68 |
//! | `movement` | Move, Sprint and Step: their ways, the walk along them | ING-R22, ING-R23, ING-R29, ING-R36, ING-H13 |
//! | `attack` | the Attack action and an attack's stages: intercept, defences, roll, hit | ING-R33, ING-R37 to ING-R40, ING-R46, ING-H12 |
//! | `reaction` | whether a reaction can be taken and paid | ING-R30 to ING-R32 |
//! | `defence` | Intercept, Dodge, Parry, Fortify, Resist and Block against an attack | ING-R31, ING-R33, ING-R48 to ING-R53, ING-R55, ING-H21 |
//! | `damage` | damage reduction, a hit's damage, an on-hit effect | ING-R41, ING-R42, ING-R51 to ING-R53, ING-R57, ING-R66 |
//! | `conscious` | staying conscious, falling unconscious, the death check | ING-R60 to ING-R63, ING-H8 |
//! | `after_dodge` | dropping prone, seeking cover or stepping after a dodge | ING-R48 |
//! | `trigger` | the readied characters a trigger sets off | ING-R24, ING-H15 |
//! | `ready` | the Ready action and firing or holding it | ING-R24 |
//! | `downed` | Resuscitate and the killing strike on an unconscious character | ING-R25, ING-R64, ING-H26 |
//! | `task` | Short Tasks and longer ones | ING-R27, ING-R68 |
//! | `items` | Brandish, Interact, Pick Up, Drop Item and Reload | ING-R19, ING-R29 |
//! | `posture` | Stand Up, Drop Prone and Seek Cover | ING-R19, ING-R26, ING-R29 |
//! | `end` | Guard, Wait and End: the actions that end the turn | ING-R21, ING-R28 |
//! | `command` | Command: an ally's one action in the commander's turn | ING-R20, ING-H14 |
//! | `ruling` | the GM's rulings | ING-R5, ING-R67 |

pub mod after_dodge;
pub mod attack;
pub mod command;
pub mod conscious;
pub mod damage;
pub mod defence;
pub mod downed;
pub mod end;
pub mod extended;
pub mod items;
pub mod movement;
pub mod posture;
pub mod reaction;
pub mod ready;
pub mod ruling;
pub mod task;
pub mod trigger;

use crate::codes::{self, no};
use crate::event::{Cost, Event, TurnEnd};
use crate::setup::Cid;
use crate::state::{Cx, State};
use fray_engine::Reject;
use fray_space::Pos;

/// The checked plan of a command: what the check found out that resolving it needs, so the
/// resolver does not work it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs.
    Plain,
    /// A move, a sprint or a step (a commanded one, a step after a dodge, a readied move set off
    /// too): the way the movement search finds to the square named, the squares after the start.
    Walk(Vec<Pos>),
}

/// Whether a combatant index names a combatant (commands from records are untrusted).
pub(crate) fn known(s: &State, c: Cid) -> bool {
    (c as usize) < s.chars.len()
}

/// Where `who` stands, or the refusal of an action of one who is not on the map.
pub(crate) fn on_map(s: &State, who: Cid) -> Result<Pos, Reject> {
    s.ch(who).pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))
}

/// Pays a cost, if it is one (nothing is logged for a free reaction that pays nothing).
pub(crate) fn pay(cx: &mut Cx, who: Cid, cost: Cost) {
    if cost != Cost::default() {
        cx.emit(Event::Paid { who, cost });
    }
}

/// Charges `n` actions for an action of `who`'s own turn; an action given by Command (`via`,
/// the commander) is paid by the commander's Command.
pub(crate) fn charge(cx: &mut Cx, who: Cid, via: Option<Cid>, n: u8) {
    if via.is_none() && n > 0 {
        cx.emit(Event::Paid {
            who,
            cost: Cost {
                actions: n,
                ..Cost::default()
            },
        });
    }
}

/// Ends `who`'s turn, saying how.
pub(crate) fn end_turn(cx: &mut Cx, who: Cid, how: TurnEnd) {
    cx.emit(Event::TurnEnded { who, how });
}
