//! Every integration test of fray-testkit, in one test binary (one link, one run; each module
//! is one topic, with its own `//!` header saying what it holds).

mod table;
