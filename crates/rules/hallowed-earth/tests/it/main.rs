//! The integration tests of fray-hallowed-earth, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod ai;
mod board;
mod campaign;
mod hidden;
mod records;
mod rules;
mod rules_more;
mod seats;
mod setup;
mod versions;
