//! The skeleton's options: every reading of its rules that a table may change, as a named field
//! with its default. Encounter files override them in `[options]` with the kebab-case names;
//! `docs/skeleton.md` describes each one (a test checks that), and [`Options::variants`] lets
//! the conformance suite play every option at a non-default value.

use serde::{Deserialize, Serialize};

/// The skeleton's options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// How much a dodge adds to the defender's defence against one attack (SKL-R5).
    pub dodge_bonus: i16,
}

impl Default for Options {
    fn default() -> Self {
        Options { dodge_bonus: 2 }
    }
}

impl Options {
    /// Checks values the type allows but the rules do not.
    pub fn validate(&self) -> Result<(), String> {
        if !(0..=20).contains(&self.dodge_bonus) {
            return Err(format!("dodge-bonus = {} is outside 0..=20", self.dodge_bonus));
        }
        Ok(())
    }

    /// Named variants for the conformance suite: together they give every option a
    /// non-default value.
    pub fn variants() -> Vec<(&'static str, Options)> {
        vec![
            ("no-dodge", Options { dodge_bonus: 0 }),
            ("big-dodge", Options { dodge_bonus: 8 }),
        ]
    }
}
