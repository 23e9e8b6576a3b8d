//! The rules of the fight, one module per action or topic: each holds its action's check (the
//! verdict and the [`crate::plan::Plan`] it hands on), its legal candidates, and its
//! resolution, side by side, so what may be done and what it does are read in one place.
//!
//! `check` and `resolve` are the two dispatchers that call in here (and `flow` for what
//! happens by itself); nothing here calls them back, and the modules depend on one another
//! downward only: the shared ones ([`manoeuvres`], [`roll`], [`harm`]) at the bottom, the
//! actions above them, [`push`] (which sends a pushed roll back to the action it came from)
//! above those.
//!
//! | topic | rules | module |
//! |---|---|---|
//! | manoeuvres and what pays them, reactions | EIN-R16, EIN-R19, EIN-H11, EIN-H26 | [`manoeuvres`] |
//! | tests: pools, successes, circumstances, `test` | EIN-H1, EIN-H2, EIN-H11, EIN-H20, EIN-H21, EIN-H24, EIN-R14 | [`roll`] |
//! | pushing a roll | EIN-H20 | [`push`] |
//! | Harm and its split, critical injuries | EIN-R24, EIN-R34, EIN-H13, EIN-H22 | [`harm`] |
//! | attacks: strike, shoot, punch, grapple, shove, cast | EIN-R11, EIN-R12, EIN-R20 to EIN-R22, EIN-R26, EIN-R27, EIN-R48 | [`attack`] |
//! | reactions to an attack, the defender's swap | EIN-R7, EIN-R25, EIN-R27, EIN-R31, EIN-H10, EIN-H14, EIN-H16, EIN-H18 | [`defence`] |
//! | a hit: extra successes, armour, damage | EIN-R6, EIN-R23, EIN-R28, EIN-H6 | [`hit`] |
//! | fleeing and chasing | EIN-R31 to EIN-R33, EIN-H26 | [`flee`] (the way out: [`crate::ways`]) |
//! | breaking free, holding on, letting go | EIN-R28, EIN-R30, EIN-H9 | [`restraint`] |
//! | moving, obstacles, places in a zone | EIN-R13, EIN-R15 | [`movement`] |
//! | drawing and picking up weapons | | [`items`] |
//! | stand, shout, interact | | [`quick`] |
//! | Fear, fire, poison | EIN-R35 to EIN-R42, EIN-H4, EIN-H8, EIN-H27 | [`hazards`] |
//! | initiative cards: drawing, dealing, the card kept | EIN-R1, EIN-H12, EIN-H25 | [`cards`] |
//! | card swaps at the start of a round | EIN-R5 | [`swaps`] |
//! | the ambush | EIN-R8 to EIN-R10, EIN-H25 | [`ambush`] |
//! | the Director's rulings | EIN-R43, EIN-H5, EIN-H12, EIN-H29 | [`rulings`] |

pub mod ambush;
pub mod attack;
pub mod cards;
pub mod defence;
pub mod flee;
pub mod harm;
pub mod hazards;
pub mod hit;
pub mod items;
pub mod manoeuvres;
pub mod movement;
pub mod push;
pub mod quick;
pub mod restraint;
pub mod roll;
pub mod rulings;
pub mod swaps;
