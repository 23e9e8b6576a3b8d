//! The integration tests of fray-murdham, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod board;
mod campaign;
mod chaos;
mod docs;
mod hidden;
mod records;
mod rules_a;
mod rules_b;
mod rules_c;
mod seats;
mod setup;
mod versions;
