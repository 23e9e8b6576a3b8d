//! The integration tests of fray-skeleton, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod board;
mod records;
mod rules;
mod seats;
mod setup;
mod stage;
mod versions;
