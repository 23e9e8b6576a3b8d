//! The registry's tests, in one binary: the shared conformance suite over every ruleset
//! (`suite`), the hidden-information checks of what each ruleset's AI is told (`hidden`), the
//! seats of every example (`seats`) and the shared views (`views`).

mod hidden;
mod registry;
mod seats;
mod suite;
mod views;
