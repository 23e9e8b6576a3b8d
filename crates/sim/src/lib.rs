//! Seeded, parallel Monte Carlo simulation of fray combats, for any ruleset.
//!
//! [`batch::run`] plays N combats with per-seat [`policy`] choices, in parallel (rayon), each
//! from its own seeded dice stream, and streams results into integer [`stats`] that merge
//! exactly (results do not depend on the number of threads; memory does not grow with N).
//! [`report`] turns a tally into a table or JSON with 95% Wilson intervals; [`plot`] draws SVG
//! charts; [`shard`] splits a batch into ranges of combats played anywhere and merges their
//! reports exactly. Rulesets take part through the engine's `Summarize` trait only.

pub mod batch;
pub mod entry;
pub mod plot;
pub mod policy;
pub mod report;
pub mod shard;
pub mod stats;

pub use batch::{Batch, SimError, run};
pub use entry::{SimEntry, SimFail, SimOf, SimOptions};
pub use policy::{PolicyKind, SearchConfig};
pub use report::Report;
pub use shard::{MergeError, Shard, ShardInfo, merge};
pub use stats::{Hist, Rate, Tally, wilson};
