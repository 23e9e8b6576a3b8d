//! The integration tests of fray-einfelst, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod board;
mod campaign;
mod docs;
mod odds;
mod records;
mod rules;
mod rules_more;
mod seats;
mod setup;
mod versions;
