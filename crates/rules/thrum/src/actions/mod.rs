//! One module per action or topic of the rules, each holding its check, its legal candidates and
//! its resolution side by side, so a rule is read in one place.
//!
//! - `movement`: `move`, `step` and move prompts; drops and forced moves (THR-R51 to THR-R76).
//! - `turn`: the checks of the turn's own commands (begin, Delay, placement, ending a turn).
//! - `stance`: entering a Stance.
//! - `action`: an Action's check in three pieces, and its legal list.
//! - `targets`: whom an Action affects (target kinds, range, Obstruction, shapes).
//! - `ability`: the interpreter of an ability use (declared, triggered): its stages.
//! - `trigger`: trigger windows, their check and resolution (THR-R144 to THR-R151).
//! - `defence`: answering a defence decision.
//! - `lines`: result lines and what they do (damage, statuses, conditions, Incapacity).
//! - `effects`: Buffs, Terrain Effects, Nova, Minions and prompts.
//! - `ruling`: the GM's rulings.
//!
//! The `check` and `resolve` dispatchers call in here; the searches and step prices are
//! [`crate::reach`]'s, the turn flow [`crate::flow`]'s. The check functions of these modules use
//! only the state, the movement search and each other, never the resolution, so the check
//! depends on no resolution code; the resolution functions call each other and the flow (a
//! result line moves a character, a move enters a Terrain Effect whose lines apply, a Stance
//! ends the turn), as the rules' topics do.

pub mod ability;
pub mod action;
pub mod defence;
pub mod effects;
pub mod lines;
pub mod movement;
pub mod ruling;
pub mod stance;
pub mod targets;
pub mod trigger;
pub mod turn;
