//! Rules-free geometry for fray's tabletop combat engines.
//!
//! This crate answers spatial questions that several games' rulesets share,
//! and deliberately knows no game rules: it measures, lists and searches,
//! while the rulesets decide what the answers mean. Where a rule has to
//! influence a result (which squares a mover may enter, what counts as
//! cover) the caller passes it in as a callback.
//!
//! * [`pos`]: positions ([`Pos`], `x` east and `y` north) and compass
//!   directions ([`Dir`]).
//! * [`metric`]: distances ([`chebyshev`], [`alternating_diagonal`]) and
//!   adjacency.
//! * [`grid`]: rectangular maps of [`Cell`]s with elevation and terrain
//!   flags, and their text form.
//! * [`movement`]: Dijkstra pathfinding over steps priced by the caller, with
//!   reproducible tie-breaks.
//! * [`diagonal`]: pathfinding where every second diagonal step costs two.
//! * [`shape`]: areas of effect (blocks, lines, auras) and range checks.
//! * [`cover`](mod@cover): dividing lines, flanks and the cover/obstruction test.
//! * [`zone`]: zone maps, the abstract "zones and links" battlefields of
//!   zone-based games ([`ZoneMap`], [`ZoneId`], the bit set [`ZoneSet`]):
//!   all-pairs link distances worked out once, range bands, and path search
//!   around blocked zones.
//!
//! The crate sits on the simulation hot path, so distance, adjacency and
//! cover functions never allocate, pathfinding reuses a
//! caller-owned [`PathScratch`], all arithmetic is integer, and no input a
//! user can supply (map sizes, coordinates, text) makes it panic: such input
//! is answered with `Option` or `Result`.

pub mod bucket;
pub mod cover;
pub mod diagonal;
pub mod grid;
pub mod metric;
pub mod movement;
pub mod pos;
pub mod shape;
pub mod zone;

pub use bucket::BucketQueue;
pub use cover::{CoverCheck, beyond_dividing_line, cover, dividing_masks, flanks};
pub use diagonal::{DiagonalReach, DiagonalScratch, cheapest_diagonal, reach_diagonal, reach_diagonal_to};
pub use grid::{Cell, Grid, GridError, MAX_SIDE, MapError};
pub use metric::{Metric, alternating_diagonal, chebyshev, is_adjacent, neighbours};
pub use movement::{
    PathScratch, Reach, StepTable, cheapest_path, cheapest_path_indexed, cheapest_path_pruned, reach, reach_indexed,
};
pub use pos::{Dir, ParseDirError, ParsePosError, Pos};
pub use shape::{area, aura, in_range, line, line_to_edge};
pub use zone::{Link, LinkSpec, MAX_ZONES, Zone, ZoneError, ZoneId, ZoneMap, ZonePath, ZoneSet, ZoneSetIter, is_word};
