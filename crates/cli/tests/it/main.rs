//! Every integration test of fray (the `fray` binary), in one test binary (one link, one run;
//! each module is one topic, with its own `//!` header saying what it holds).

mod cli;
mod crash;
mod fixtures;
mod golden;
mod input;
mod prompt;
mod records;
mod rejection_codes;
mod rules_pages;
mod same_play;
mod saves;
mod serve;
mod serve_hidden;
mod served;
mod shards;
mod sim;
mod start_records;
mod tidy;
