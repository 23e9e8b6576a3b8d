//! Every integration test of fray-space, in one test binary (one link, one run; each module
//! is one topic, with its own `//!` header saying what it holds).

mod diagonal;
mod properties;
mod zone_alloc;
mod zones;
