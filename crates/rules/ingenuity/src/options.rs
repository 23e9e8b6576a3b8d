//! Every reading of the rules that the sources leave open, as a named option.
//!
//! Each field is one `[A]` item or one `ING-H` hole of `shared/rules/ingenuity.md` with the
//! default proposed there, or a question the chapter does not answer at all (marked "fray's
//! own"). Encounter files override them in an `[options]` table with the kebab-case names;
//! `docs/ingenuity.md` describes each one, and a test checks that every option is documented.

use serde::{Deserialize, Serialize};

macro_rules! choice {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum $name { $($(#[$vm])* $v),+ }
    };
}

choice!(
    /// Whether the team order may change during the combat (ING-R5).
    TeamOrderRule {
        /// Fixed for the whole combat.
        Fixed,
        /// The GM may reorder the teams between rounds.
        GmBetweenRounds,
    }
);

choice!(
    /// When the GM may replace a team's objective (ING-R67).
    ObjectiveChanges {
        /// Only between rounds (a change made during a round takes effect when the next starts).
        BetweenRounds,
        /// At any time.
        AnyTime,
    }
);

choice!(
    /// Where a team that joins mid-combat takes its slot (ING-H22).
    JoiningTeams {
        /// After every existing team.
        Last,
        /// Right after the team whose member is taking (or last took) a turn.
        Next,
    }
);

choice!(
    /// When the combat ends on its own (ING-R13, ING-H1).
    EndWhen {
        /// When at most one team has a member who is conscious and still in the fight, or a
        /// team's objective is met.
        OneTeamStanding,
        /// Only when an objective is met or the GM ends it.
        ObjectiveOrGm,
    }
);

choice!(
    /// When reactions come back (ING-R30).
    ReactionRefresh {
        /// At the start of the character's own turn.
        OwnTurn,
        /// At the start of every participant's turn.
        EveryTurn,
    }
);

choice!(
    /// When dodge, parry, fortify and resist against an attack are declared (ING-H12).
    DefenceTiming {
        /// Before the attacker rolls.
        BeforeRoll,
        /// After the attacker's roll is known, before the hit is decided.
        AfterRoll,
    }
);

choice!(
    /// How far an interceptor may come from (ING-H21).
    InterceptReach {
        /// Any ally it can reach with a move (its Speed); the two swap places.
        Speed,
        /// Only an adjacent ally; the two swap places.
        Adjacent,
    }
);

choice!(
    /// What happens when the consciousness fortify cannot be taken (ING-H8).
    FortifyWithout {
        /// No reaction or no stamina left: the character falls unconscious.
        Unconscious,
        /// The test may still be made without a reaction or stamina.
        Allowed,
    }
);

choice!(
    /// What a Thrown weapon is when its target is within 1 m (fray's own reading of ING-R39).
    ThrownAdjacent {
        /// A melee attack: it stays in hand, cannot misfire, and counts as melee for prone
        /// targets and cover.
        Melee,
        /// Still thrown: it leaves the hand, may misfire, and counts as ranged.
        Thrown,
    }
);

choice!(
    /// Which attacks the multiple attack penalty counts (ING-H10).
    MapCounts {
        /// Every attack since the round started, readied and reaction attacks included.
        AllAttacks,
        /// Only attacks made during the attacker's own turn.
        OwnTurn,
    }
);

choice!(
    /// Which total damage starts from (ING-H11).
    DamageTotal {
        /// The test total after proficiency, penalties and other modifiers.
        Modified,
        /// The dice and proficiency only, before penalties.
        Unmodified,
    }
);

choice!(
    /// How a weapon's critical damage field is read (ING-H19).
    CriticalDamage {
        /// The absolute damage on a critical hit (the chapter's spear: 8).
        Absolute,
        /// A bonus added to the normal damage (the older tables' "+N").
        Bonus,
    }
);

choice!(
    /// How flanking is decided (ING-H20).
    Flanking {
        /// Two enemies of the target on opposite squares next to it, or the GM's `flanked` flag.
        OppositeAdjacent,
        /// Only the GM's `flanked` flag.
        GmOnly,
    }
);

choice!(
    /// When the size difference is applied to a dodge or a parry (ING-H27).
    SizeShift {
        /// Last: max(dodge, evasion) then ± size; deflection + parry then ∓ size.
        Last,
        /// First: the size shift changes evasion before it is compared with the dodge roll.
        First,
    }
);

choice!(
    /// What a parry improves (ING-H6).
    ParryAddsTo {
        /// Physical deflection (damage reduction).
        Deflection,
        /// Evasion.
        Evasion,
    }
);

choice!(
    /// How the killing strike chooses weapons (ING-H5).
    KillingStrikeWeapons {
        /// Any weapon.
        Any,
        /// Only weapons without the nonlethal property.
        LethalOnly,
        /// Only nonlethal weapons (the chapter's literal words).
        NonlethalOnly,
    }
);

choice!(
    /// What happens to an extended action when its owner is knocked out or stunned (ING-H17).
    InterruptedExtended {
        /// The progress is lost.
        Lost,
        /// The progress is kept and may be continued later.
        Kept,
    }
);

choice!(
    /// When a death check is made at zero health (ING-H23).
    DeathCheck {
        /// When the damage that reached health was more than the health before the hit.
        Overflow,
        /// Whenever health is brought to zero.
        AnyZero,
    }
);

choice!(
    /// How "half of maximum endurance" rounds for Harmed (ING-R58).
    HarmedRounding {
        /// Up (the core rule: every division rounds up).
        Up,
        /// Down (the Conditions table's "lost at least half").
        Down,
    }
);

choice!(
    /// Which formula derives the defences (ING-H24).
    DefenceFormula {
        /// The character chapter: two passive attributes plus the proficiency.
        Current,
        /// The older one the worked examples fit: one passive attribute plus the proficiency.
        Older,
    }
);

choice!(
    /// How diagonal steps are measured (ING-R36, ING-H2).
    Diagonals {
        /// Every second diagonal step counts 2 m.
        Alternating,
        /// Every step counts 1 m.
        Chebyshev,
    }
);

choice!(
    /// Whose squares a mover may pass through (fray's own; the chapter is silent).
    PassThrough {
        /// Allies' squares (never ending there); enemies block.
        Allies,
        /// Nobody's.
        Nobody,
        /// Anyone's (never ending there).
        Anyone,
    }
);

/// All Ingenuity options. Defaults are the rules file's proposals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    // --- Teams, rounds, objectives --------------------------------------------------------
    /// ING-R69: the team that started the fight must give its first turn to the character
    /// whose action started it.
    pub trigger_acts_first: bool,
    /// ING-R5: whether the team order is fixed.
    pub team_order: TeamOrderRule,
    /// ING-R67: when objectives may be replaced.
    pub objective_changes: ObjectiveChanges,
    /// ING-H22: where a joining team's slot goes.
    pub joining_teams: JoiningTeams,
    /// ING-R13, ING-H1: when the combat ends by itself.
    pub end_when: EndWhen,
    /// ING-R14, ING-R30, ING-R60: whether surprised characters may take reactions (dodge,
    /// block, the consciousness fortify...) during the surprise round. The chapter keeps only
    /// *actions* from them (ING-R14) and reactions happen on anyone's turn (ING-R30), so the
    /// default is `true`; `false` is the stricter table reading.
    pub surprised_can_react: bool,

    // --- Actions -----------------------------------------------------------------------------
    /// ING-R23: how many times Sprint may be used in one turn (none = no limit).
    pub sprint_limit: Option<u8>,
    /// ING-R35: whether actions spent on an abandoned extended action come back.
    pub refund_abandoned: bool,
    /// ING-R68: how many seconds one action stands for (a task timed in seconds costs
    /// seconds ÷ this, rounded up).
    pub seconds_per_action: u8,
    /// ING-H13: whether a Step uses up the turn's move.
    pub step_uses_move: bool,
    /// ING-H14: whether an action given by Command uses one of the ally's own actions.
    pub command_uses_ally_actions: bool,
    /// ING-H15: whether firing a readied action uses the reaction.
    pub ready_uses_reaction: bool,
    /// ING-H16: how many extra reactions Wait gives until the next turn.
    pub wait_extra_reactions: u8,
    /// ING-H17: what happens to an extended action when its owner is knocked out or stunned.
    pub interrupted_extended: InterruptedExtended,
    /// ING-H4: what the killing strike costs, in actions (the Short Task).
    pub killing_strike_actions: u8,
    /// ING-H5: which weapons may make a killing strike.
    pub killing_strike_weapons: KillingStrikeWeapons,
    /// ING-H26: whether a failed killing strike reuses its test as the sneak attack's.
    pub killing_strike_reuse_roll: bool,
    /// ING-H26: whether the attack's other advantage and disadvantage sources combine with the
    /// killing strike's advantage.
    pub killing_strike_stack_advantage: bool,
    /// ING-H9: the Resuscitate test's attribute.
    pub resuscitate_attribute: String,
    /// ING-H9: the Resuscitate test's skill.
    pub resuscitate_skill: String,
    /// ING-H9: the Resuscitate test's proficiency.
    pub resuscitate_proficiency: String,
    /// ING-H9: the Resuscitate test's difficulty.
    pub resuscitate_difficulty: i16,
    /// fray's own: whether a prone character must stand up before moving (Intercept and readied
    /// moves included; a move stops where its mover is knocked prone).
    pub prone_blocks_movement: bool,

    // --- Reactions ---------------------------------------------------------------------------
    /// ING-R30: when reactions come back.
    pub reaction_refresh: ReactionRefresh,
    /// ING-R32: whether a reaction needs its stamina or focus.
    pub reactions_need_resources: bool,
    /// ING-R33: whether a free reaction (after Intercept) still costs its stamina or focus.
    pub free_reaction_pays: bool,
    /// ING-H12: when defences against an attack are declared.
    pub defence_timing: DefenceTiming,
    /// ING-H21: how far an interceptor may come from.
    pub intercept_reach: InterceptReach,
    /// ING-H8: the consciousness fortify without a reaction or stamina.
    pub fortify_without: FortifyWithout,

    // --- Attacks -----------------------------------------------------------------------------
    /// ING-R40: the penalty per earlier attack this round.
    pub multiple_attack_penalty: i16,
    /// ING-H10: which attacks the penalty counts.
    pub map_counts: MapCounts,
    /// ING-H11: which total the damage starts from.
    pub damage_total: DamageTotal,
    /// ING-H18: added to every luck die (characters may add their own).
    pub luck_modifier: i16,
    /// ING-H19: how weapons' critical damage is read.
    pub critical_damage: CriticalDamage,
    /// ING-H20: how flanking is decided.
    pub flanking: Flanking,
    /// ING-H27: when the size difference is applied.
    pub size_shift: SizeShift,
    /// ING-H6: what a parry improves.
    pub parry_adds_to: ParryAddsTo,
    /// ING-H6: the least damage a hit deals after reduction.
    pub min_damage: i16,
    /// ING-H7: whether block overflow is reduced by the blocker's deflection.
    pub block_overflow_reduced: bool,
    /// fray's own: whether the character a misfire lands on may still dodge or parry.
    pub misfire_target_defends: bool,
    /// fray's own: whether a Thrown weapon used on a target within 1 m is thrown or wielded.
    pub thrown_adjacent: ThrownAdjacent,
    /// The older weapon properties (Swift, Cleave, Backswing, Momentum, Risky) take effect.
    pub older_properties: bool,
    /// fray's own: whether a hidden attacker is revealed by attacking.
    pub hidden_ends_on_attack: bool,
    /// ING-R21: whether Guard's +1 also applies to deflection.
    pub guard_covers_deflection: bool,

    // --- Characters, damage, death -------------------------------------------------------------
    /// ING-H24: which formula derives defences (per-character values override it).
    pub defence_formula: DefenceFormula,
    /// ING-H23: when a death check is made.
    pub death_check: DeathCheck,
    /// ING-R58: how half of maximum endurance rounds.
    pub harmed_rounding: HarmedRounding,
    /// The death difficulty a character starts with (ING-R62).
    pub death_difficulty: i16,
    /// How much the death difficulty rises each time death is cheated (ING-R62).
    pub death_difficulty_step: i16,

    // --- Movement ------------------------------------------------------------------------------
    /// ING-R36, ING-H2: how diagonals are measured.
    pub diagonals: Diagonals,
    /// fray's own: whose squares a mover may pass through.
    pub pass_through: PassThrough,
    /// fray's own: whether Seek Cover needs an obstacle next to the character (a blocked
    /// square, or a square at least one level higher).
    pub seek_cover_needs_obstacle: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            trigger_acts_first: false,
            team_order: TeamOrderRule::Fixed,
            objective_changes: ObjectiveChanges::BetweenRounds,
            joining_teams: JoiningTeams::Last,
            end_when: EndWhen::OneTeamStanding,
            surprised_can_react: true,
            sprint_limit: None,
            refund_abandoned: false,
            seconds_per_action: 2,
            step_uses_move: true,
            command_uses_ally_actions: false,
            ready_uses_reaction: true,
            wait_extra_reactions: 1,
            interrupted_extended: InterruptedExtended::Lost,
            killing_strike_actions: 3,
            killing_strike_weapons: KillingStrikeWeapons::Any,
            killing_strike_reuse_roll: false,
            killing_strike_stack_advantage: true,
            resuscitate_attribute: "int".into(),
            resuscitate_skill: "handling".into(),
            resuscitate_proficiency: "healing".into(),
            resuscitate_difficulty: 8,
            prone_blocks_movement: true,
            reaction_refresh: ReactionRefresh::OwnTurn,
            reactions_need_resources: true,
            free_reaction_pays: true,
            defence_timing: DefenceTiming::BeforeRoll,
            intercept_reach: InterceptReach::Speed,
            fortify_without: FortifyWithout::Unconscious,
            multiple_attack_penalty: 2,
            map_counts: MapCounts::AllAttacks,
            damage_total: DamageTotal::Modified,
            luck_modifier: 0,
            critical_damage: CriticalDamage::Absolute,
            flanking: Flanking::OppositeAdjacent,
            size_shift: SizeShift::Last,
            parry_adds_to: ParryAddsTo::Deflection,
            min_damage: 1,
            block_overflow_reduced: false,
            misfire_target_defends: false,
            thrown_adjacent: ThrownAdjacent::Melee,
            older_properties: true,
            hidden_ends_on_attack: true,
            guard_covers_deflection: true,
            defence_formula: DefenceFormula::Current,
            death_check: DeathCheck::Overflow,
            harmed_rounding: HarmedRounding::Up,
            death_difficulty: 10,
            death_difficulty_step: 5,
            diagonals: Diagonals::Alternating,
            pass_through: PassThrough::Allies,
            seek_cover_needs_obstacle: true,
        }
    }
}

impl Options {
    /// Checks the values serde cannot: names that must be one of a fixed set, and numbers
    /// within ±`NUMBER_LIMIT` (999) so no sum of them can overflow.
    pub fn check(&self) -> Result<(), String> {
        if crate::data::Attr::parse(&self.resuscitate_attribute).is_none() {
            return Err(format!(
                "resuscitate-attribute: '{}' is not an attribute (use str, dex, int or res)",
                self.resuscitate_attribute
            ));
        }
        if self.resuscitate_skill.trim().is_empty() {
            return Err("resuscitate-skill: give a skill name".into());
        }
        let limit = crate::setup::NUMBER_LIMIT;
        for (name, v) in [
            ("resuscitate-difficulty", self.resuscitate_difficulty),
            ("multiple-attack-penalty", self.multiple_attack_penalty),
            ("luck-modifier", self.luck_modifier),
            ("min-damage", self.min_damage),
            ("death-difficulty", self.death_difficulty),
            ("death-difficulty-step", self.death_difficulty_step),
        ] {
            if !(-limit..=limit).contains(&v) {
                return Err(format!("{name}: {v} is outside -{limit} to {limit}"));
            }
        }
        Ok(())
    }
}

impl Options {
    /// Named option variants for the conformance suite: together they set every option to a
    /// value other than its default at least once (the engine's `check_option_variants`
    /// holds that, so a new option needs a place here), and every value of a three-way choice
    /// once. Each variant changes one topic's options together, so the count stays small and a
    /// failure points at a few options. All pass [`Options::check`].
    ///
    /// `end-when = "objective-or-gm"` is in a variant of its own, `objectives-only`: without a
    /// GM, a fight under it ends only through objectives, so it is played only on an encounter
    /// whose objectives always end it (the conformance test gives both teams of `shrine` one).
    pub fn variants() -> Vec<(&'static str, Options)> {
        let d = Options::default;
        vec![
            (
                "teams",
                Options {
                    trigger_acts_first: true,
                    team_order: TeamOrderRule::GmBetweenRounds,
                    objective_changes: ObjectiveChanges::AnyTime,
                    joining_teams: JoiningTeams::Next,
                    surprised_can_react: false,
                    ..d()
                },
            ),
            (
                "actions",
                Options {
                    sprint_limit: Some(1),
                    refund_abandoned: true,
                    seconds_per_action: 3,
                    step_uses_move: false,
                    command_uses_ally_actions: true,
                    ready_uses_reaction: false,
                    wait_extra_reactions: 2,
                    interrupted_extended: InterruptedExtended::Kept,
                    killing_strike_actions: 2,
                    killing_strike_weapons: KillingStrikeWeapons::LethalOnly,
                    killing_strike_reuse_roll: true,
                    killing_strike_stack_advantage: false,
                    resuscitate_attribute: "dex".into(),
                    resuscitate_skill: "precision".into(),
                    resuscitate_proficiency: "first-aid".into(),
                    resuscitate_difficulty: 6,
                    prone_blocks_movement: false,
                    ..d()
                },
            ),
            (
                "reactions",
                Options {
                    reaction_refresh: ReactionRefresh::EveryTurn,
                    reactions_need_resources: false,
                    free_reaction_pays: false,
                    defence_timing: DefenceTiming::AfterRoll,
                    intercept_reach: InterceptReach::Adjacent,
                    fortify_without: FortifyWithout::Allowed,
                    ..d()
                },
            ),
            (
                "attacks",
                Options {
                    multiple_attack_penalty: 3,
                    map_counts: MapCounts::OwnTurn,
                    damage_total: DamageTotal::Unmodified,
                    luck_modifier: 1,
                    critical_damage: CriticalDamage::Bonus,
                    flanking: Flanking::GmOnly,
                    size_shift: SizeShift::First,
                    parry_adds_to: ParryAddsTo::Evasion,
                    min_damage: 0,
                    block_overflow_reduced: true,
                    misfire_target_defends: true,
                    thrown_adjacent: ThrownAdjacent::Thrown,
                    older_properties: false,
                    hidden_ends_on_attack: false,
                    guard_covers_deflection: false,
                    ..d()
                },
            ),
            (
                "bodies-and-movement",
                Options {
                    defence_formula: DefenceFormula::Older,
                    death_check: DeathCheck::AnyZero,
                    harmed_rounding: HarmedRounding::Down,
                    death_difficulty: 12,
                    death_difficulty_step: 3,
                    diagonals: Diagonals::Chebyshev,
                    pass_through: PassThrough::Nobody,
                    seek_cover_needs_obstacle: false,
                    ..d()
                },
            ),
            (
                "open-ground",
                Options {
                    pass_through: PassThrough::Anyone,
                    killing_strike_weapons: KillingStrikeWeapons::NonlethalOnly,
                    ..d()
                },
            ),
            (
                "objectives-only",
                Options {
                    end_when: EndWhen::ObjectiveOrGm,
                    ..d()
                },
            ),
        ]
    }
}

/// The option names, as written in `[options]` tables (for the documentation test).
pub fn names() -> Vec<String> {
    match serde_json::to_value(Options::default()) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}
