//! Holds the exact-odds module of the coming Murdham ruleset ([`odds`]) until the ruleset crate
//! exists; it has no dependency on any other Murdham module.

pub mod odds;
