//! Every integration test of fray-engine, in one test binary (one link, one run; each module
//! is one topic, with its own `//!` header saying what it holds).

mod bids;
mod encounter_zones;
mod resolve_kit;
mod toy;
mod versions;
