//! The one helper every Ingenuity rule test goes through: the test kit's `Table` (`fray-testkit`)
//! with Ingenuity's encounter builders and lookups.
//!
//! A test builds a tiny encounter from TOML, feeds scripted dice as it goes (`dice`), and types
//! commands exactly as a person at `fray play` would (`cmd`). `cmd` panics with the rejection's
//! reason when a command is refused; `reject` asserts a refusal and that nothing changed. Dice
//! must be fed before the command that rolls them; a test fails if the engine asks for a die
//! that was not scripted, or if faces are left when `assert_dice_used` is called.
//!
//! Dice order: a test rolls its attribute die, its skill die, then the luck d20, then one die
//! per advantage/disadvantage reroll. An attack: defences declared before the roll (a dodge
//! rolls its test then), the attack test, a misfire pick (if several could be hit), then the
//! consciousness fortify test and the death check's luck die.
#![allow(dead_code)]

use fray_ingenuity::Ingenuity;
use fray_ingenuity::event::Event;
use fray_ingenuity::setup::Cid;
use fray_ingenuity::state::{Char, State};
use fray_testkit::Table;
use std::ops::{Deref, DerefMut};

/// The teams every test encounter uses: `pcs` (seat `players`) first and `foes` (seat `gm`)
/// second, so `pcs` picks first unless `[initiative]` says otherwise.
pub const TEAMS: &str = r#"
[[team]]
id = "pcs"
seat = "players"

[[team]]
id = "foes"
seat = "gm"
"#;

/// Test items on top of the built-in ones (`data/items.toml`): a spear with the chapter's
/// numbers, a bow, a shield, a nonlethal club.
pub const ITEMS: &str = r#"
[[item]]
id = "spear"
attributes = ["str", "dex"]
proficiencies = ["martial", "finesse"]
damage = 4
type = "piercing"
critical-threshold = 19
critical-damage = 8
metal = true

[[item]]
id = "bow"
attributes = ["dex"]
proficiencies = ["archery"]
damage = 3
type = "piercing"
critical-threshold = 20
critical-damage = 6
range = 20
properties = ["projectile"]

[[item]]
id = "shield"
block = 3
durability = 5

[[item]]
id = "club"
attributes = ["str"]
proficiencies = ["martial"]
damage = 2
type = "bludgeoning"
properties = ["nonlethal"]
"#;

/// An encounter: a map and some tables (combatants, options...), with the standard teams and
/// the test items.
pub fn enc(rows: &[&str], rest: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("  \"{r}\",")).collect();
    format!(
        "ruleset = \"ingenuity\"\ntitle = \"test\"\n\n[map]\nrows = [\n{}\n]\n{TEAMS}\n{ITEMS}\n{rest}",
        rows.join("\n")
    )
}

/// A combatant table: `extra` adds fields (attributes, skills, items, overrides...).
pub fn who(id: &str, team: &str, at: &str, extra: &str) -> String {
    format!("[[combatant]]\nid = \"{id}\"\nteam = \"{team}\"\nat = \"{at}\"\n{extra}\n")
}

/// A test game: the kit's [`Table`] for Ingenuity, with Ingenuity's own lookups.
pub struct T(pub Table<Ingenuity>);

impl Deref for T {
    type Target = Table<Ingenuity>;
    fn deref(&self) -> &Table<Ingenuity> {
        &self.0
    }
}

impl DerefMut for T {
    fn deref_mut(&mut self) -> &mut Table<Ingenuity> {
        &mut self.0
    }
}

impl T {
    /// Loads the encounter (panicking with the diagnostics if it is invalid) and starts it.
    pub fn new(toml: &str) -> T {
        T(Table::load(toml, &[], &[]))
    }

    /// Starts the encounter and picks `first` for the first turn.
    pub fn turn_of(toml: &str, first: &str) -> T {
        let mut t = T::new(toml);
        t.cmd(&format!("pick {first}"));
        t
    }

    /// Queues dice faces for the next rolls.
    pub fn dice(&mut self, faces: &[u16]) -> &mut Self {
        self.0.dice(faces);
        self
    }

    /// The state.
    pub fn s(&self) -> &State {
        self.state()
    }

    /// A combatant's index by id.
    pub fn id(&self, id: &str) -> Cid {
        self.s().find(id).unwrap_or_else(|| panic!("no combatant {id}"))
    }

    /// A combatant's state by id.
    pub fn ch(&self, id: &str) -> &Char {
        self.s().ch(self.id(id))
    }

    /// The pending decision's kind and the id of the combatant it is about ("" for a team's
    /// pick).
    pub fn pending(&self) -> (&'static str, String) {
        let p = self.game.pending().expect("nothing is pending");
        (
            p.kind(),
            p.actor().map(|a| self.s().info(a).id.clone()).unwrap_or_default(),
        )
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Option<String> {
        self.s().turn.as_ref().map(|t| self.s().info(t.who).id.clone())
    }

    /// The attack results among the last events: (hit, crit, evasion).
    pub fn results(&self) -> Vec<(bool, bool, i16)> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::AttackResult { hit, crit, evasion, .. } => Some((*hit, *crit, *evasion)),
                _ => None,
            })
            .collect()
    }

    /// The attack test totals among the last events.
    pub fn attack_totals(&self) -> Vec<i16> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::AttackRolled { roll, .. } => Some(roll.total),
                _ => None,
            })
            .collect()
    }

    /// The damage dealt among the last events: (who, amount, endurance, health).
    pub fn damage(&self) -> Vec<(String, i16, i16, i16)> {
        self.last
            .iter()
            .filter_map(|e| match e {
                Event::Damaged {
                    who,
                    amount,
                    endurance,
                    health,
                    ..
                } => Some((self.s().info(*who).id.clone(), *amount, *endurance, *health)),
                _ => None,
            })
            .collect()
    }
}
