//! The integration tests of fray-ingenuity, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod actions;
mod ai;
mod attacks;
mod board;
mod common;
mod damage;
mod defences;
mod dice_order;
mod examples;
mod hidden;
mod kit;
mod movement;
mod odds;
mod odds_exact;
mod reactions;
mod records;
mod review;
mod text;
mod turn_order;
mod variants;
mod worked_examples;
