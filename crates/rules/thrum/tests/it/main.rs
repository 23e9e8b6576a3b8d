//! The integration tests of fray-thrum, in one binary (one link, one copy of the shared helpers):
//! each module is one topic.

mod abilities;
mod areas;
mod attacks;
mod basic_abilities;
mod board;
mod common;
mod conditions;
mod cover;
mod dice_order;
mod discarding;
mod enemies;
mod examples;
mod fatigue;
mod gm_rulings;
mod grid;
mod hidden;
mod incapacity;
mod initiative;
mod legal_probe;
mod movement;
mod odds;
mod overexert_terrain_buffs;
mod records;
mod setup;
mod statuses;
mod triggers;
mod turn_order;
mod turn_structure;
mod variants;
mod versions;
