//! Every reading of the rules that the chapter leaves open, as a named option.
//!
//! Each field is one `[A]` item or one `EIN-H` hole of `shared/rules/einfelst.md` with the default
//! proposed there, or a question the chapter does not answer at all (marked "fray's own").
//! Encounter files override them in `[options]` with the kebab-case names; `docs/einfelst.md`
//! describes each one (a test checks that), and [`Options::variants`] lets the conformance suite
//! play every option at a non-default value.

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
    /// Which tests a character's Harm makes harder (EIN-H2, the `[A]` on relevant tests).
    HarmPenalty {
        /// Every filled slot of both tracks costs a die on every test, except the kinds listed in
        /// `exempt-tests`.
        AllTests,
        /// Physical Harm costs dice on tests of Strength and Dexterity, Mental Harm on tests of
        /// Intuition, Reason and Presence (and the `exempt-tests` kinds are still exempt).
        ByTrack,
    }
);

choice!(
    /// How armour protects (EIN-H6).
    ArmourMode {
        /// Armour N takes N off the Physical Harm of each hit (never below 0).
        Cancel,
        /// Armour N rolls N dice; each success takes 1 off.
        Roll,
    }
);

choice!(
    /// Which pool the holder opposes a break-free attempt with (EIN-H9).
    HoldAction {
        /// The larger of Endure and Force.
        Larger,
        /// Endure, as the chapter's manoeuvre table says.
        Endure,
        /// Force, as the chapter's grapple text says.
        Force,
    }
);

choice!(
    /// What the dice won by an ambush improve (EIN-H11).
    AmbushBonusTarget {
        /// The ambusher's first manoeuvre of the first round, whatever it is; lost if that
        /// manoeuvre makes no test.
        FirstManeuver,
        /// The ambusher's first test of the first round.
        FirstTest,
    }
);

choice!(
    /// When a forced card swap changes the order (EIN-H23).
    SwapTiming {
        /// The cards change hands at once; the order changes from the next round.
        NextRound,
        /// Also this round, when neither turn has been taken yet; otherwise from the next round.
        Immediate,
    }
);

choice!(
    /// When a reaction that opposes a roll (chase, hold) is declared (EIN-H26).
    OpposingTiming {
        /// Before the roll it opposes, like a defence (EIN-R20).
        BeforeRoll,
        /// After the roll it opposes is known.
        AfterRoll,
    }
);

choice!(
    /// Who a tie favours in an ambush (EIN-R8) or a grapple against a break-free (EIN-R27).
    Ties {
        /// The one who acts: an ambush needs at least 1 success left after the target's, a
        /// grapple 1 left after the break-free; a tie fails.
        Fail,
        /// A tie still succeeds (the ambush goes unseen, the grapple holds), with no extra
        /// success.
        Succeed,
    }
);

choice!(
    /// A 0-0 tie between a poison and the victim (EIN-H27).
    PoisonZeroTie {
        /// A tie like any other: 1 Harm.
        OneHarm,
        /// No Harm.
        None,
    }
);

choice!(
    /// The position of a test when the Director sets none (the `[A]` on position).
    Position {
        /// Controlled.
        Controlled,
        /// Risky.
        Risky,
        /// Desperate.
        Desperate,
    }
);

choice!(
    /// Which attribute an Action with two of them uses (EIN-H24).
    Attribute {
        /// Strength.
        Strength,
        /// Dexterity.
        Dexterity,
        /// Intuition.
        Intuition,
        /// Reason.
        Reason,
        /// Presence.
        Presence,
        /// The higher of the Action's two attributes.
        Higher,
    }
);

choice!(
    /// When a character must first close in before a close-combat attack (EIN-R12).
    CloseIn {
        /// Only when the target stands far off in the zone or behind cover.
        FarOrCover,
        /// Always: a close-combat attack needs the attacker beside the target first.
        Always,
    }
);

choice!(
    /// Who decides the order in which the members of a group act on their shared card (EIN-R2).
    GroupOrder {
        /// The seat controlling the group picks who acts next, each time one of them is to act
        /// (the rules file's reading).
        Director,
        /// Encounter order, the same every round (fray 0.1.0's reading).
        Encounter,
    }
);

/// The Einfelst Wilds options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The faces of a d6 that count as a success (EIN-H1).
    pub success_faces: Vec<u16>,
    /// Slots in the lesser, moderate and severe rows of a Harm track (EIN-H2).
    pub harm_slots: [u8; 3],
    /// Dice each filled lesser and each filled moderate slot costs (EIN-H2).
    pub slot_penalty: [u8; 2],
    /// A mark in the severe row incapacitates (EIN-H2).
    pub severe_incapacitates: bool,
    /// The smallest pool a test rolls after penalties (EIN-H2).
    pub min_pool: u8,
    /// Which tests Harm makes harder (EIN-H2).
    pub harm_penalty: HarmPenalty,
    /// Kinds of test the Director exempts from Harm penalties (EIN-H2's hook): any of `attack`,
    /// `defence`, `flee`, `chase`, `grapple`, `break-free`, `fear`, `hazard`, `test`.
    pub exempt_tests: Vec<String>,
    /// Harm points of human NPCs and animals keep costing dice until healed, rather than on the
    /// next test only (EIN-H13).
    pub harm_points_persist: bool,
    /// A second reaction in a round may spend the slow manoeuvre (EIN-R19).
    pub reaction_may_use_slow: bool,
    /// A chaser moves with the fleer also when the fleer escapes (EIN-R33).
    pub chaser_moves_on_escape: bool,
    /// Physical Harm on catching fire (EIN-R38).
    pub fire_ignition_harm: u8,
    /// Damage per round of a fire of intensity 1, 2, 3 (EIN-H4).
    pub fire_damage: [u8; 3],
    /// Successes that put out a fire of intensity 1, 2, 3 (EIN-H4).
    pub fire_extinguish: [u8; 3],
    /// When a close-combat attack needs a fast manoeuvre to close in first (EIN-R12).
    pub close_in: CloseIn,
    /// Dodge may be used against close-combat attacks too (EIN-H14).
    pub dodge_melee: bool,
    /// Extra successes a ranged attack needs against a target in cover (EIN-H15).
    pub cover_extra: u8,
    /// Which pool a Hold reaction rolls (EIN-H9).
    pub hold_action: HoldAction,
    /// What an ambush's extra successes improve (EIN-H11).
    pub ambush_bonus_target: AmbushBonusTarget,
    /// How armour protects (EIN-H6).
    pub armour_mode: ArmourMode,
    /// Mental Harm a failed Fear test deals in a Controlled, Risky and Desperate position
    /// (EIN-H7: the values already include the +1).
    pub fear_harm: [u8; 3],
    /// The Fear roller counts itself among the player characters present (EIN-H8).
    pub fear_counts_self: bool,
    /// The most help dice a Fear test gets from the player characters present (EIN-R35).
    pub fear_help_max: u8,
    /// Dice the "+1 to a next roll" of a Controlled Fear success adds to that test (EIN-H17).
    pub controlled_bonus: u8,
    /// Player characters facing a creature with a Fear value test at the start of the fight
    /// (fray's own: the chapter calls the test for meeting monsters).
    pub fear_at_start: bool,
    /// Dice per whole 5 feet of a fall (EIN-H5).
    pub fall_dice_per_5ft: u8,
    /// The shortest fall that hurts, in feet (EIN-R43).
    pub fall_min_feet: u16,
    /// A 0-0 poison tie (EIN-H27).
    pub poison_zero_tie: PoisonZeroTie,
    /// When a forced card swap changes the order (EIN-H23).
    pub forced_swap_timing: SwapTiming,
    /// When chase and hold are declared (EIN-H26).
    pub opposing_reaction_timing: OpposingTiming,
    /// The position of a test when the Director sets none.
    pub default_position: Position,
    /// The attribute Endure uses in a Fear test (EIN-H24).
    pub fear_attribute: Attribute,
    /// The attribute Endure uses against fire, poison, falls and hunger (EIN-H24).
    pub hazard_attribute: Attribute,
    /// The attribute of any other Action with two (EIN-H24).
    pub dual_attribute: Attribute,
    /// A weapon thrown at a foe in another zone lands in that zone and must be picked up
    /// (fray's own).
    pub thrown_weapons_lost: bool,
    /// How many zones apart two player characters may be and still swap cards at the start of a
    /// round (EIN-R5's "able to talk"); unset (left out of `[options]`) for no limit (fray's
    /// own).
    pub swap_range: Option<u8>,
    /// Player characters may push a failed test of a manoeuvre: roll every die that is not a
    /// success again, and take 1 Harm (EIN-H20; off by default).
    pub push_rolls: bool,
    /// Ties in an ambush's Sneak against the targets' Track or Read (EIN-R8).
    pub ambush_ties: Ties,
    /// Ties in a grapple against a break-free reaction (EIN-R27).
    pub grapple_ties: Ties,
    /// A creature that draws an extra card (EIN-R8, EIN-R10) picks which of the two it keeps; when
    /// off, it keeps the lower card without being asked (fray's own).
    pub ask_card_choice: bool,
    /// Who orders the turns of a group sharing one card (EIN-R2).
    pub group_order: GroupOrder,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            success_faces: vec![6],
            harm_slots: [2, 2, 1],
            slot_penalty: [1, 1],
            severe_incapacitates: true,
            min_pool: 1,
            harm_penalty: HarmPenalty::AllTests,
            exempt_tests: Vec::new(),
            harm_points_persist: true,
            reaction_may_use_slow: true,
            chaser_moves_on_escape: true,
            fire_ignition_harm: 1,
            fire_damage: [1, 2, 3],
            fire_extinguish: [1, 2, 3],
            close_in: CloseIn::FarOrCover,
            dodge_melee: false,
            cover_extra: 1,
            hold_action: HoldAction::Larger,
            ambush_bonus_target: AmbushBonusTarget::FirstManeuver,
            armour_mode: ArmourMode::Cancel,
            fear_harm: [2, 3, 4],
            fear_counts_self: false,
            fear_help_max: 3,
            controlled_bonus: 1,
            fear_at_start: true,
            fall_dice_per_5ft: 1,
            fall_min_feet: 10,
            poison_zero_tie: PoisonZeroTie::OneHarm,
            forced_swap_timing: SwapTiming::NextRound,
            opposing_reaction_timing: OpposingTiming::BeforeRoll,
            default_position: Position::Risky,
            fear_attribute: Attribute::Intuition,
            hazard_attribute: Attribute::Strength,
            dual_attribute: Attribute::Higher,
            thrown_weapons_lost: true,
            swap_range: None,
            ask_card_choice: true,
            ambush_ties: Ties::Fail,
            grapple_ties: Ties::Fail,
            push_rolls: false,
            group_order: GroupOrder::Director,
        }
    }
}

/// The kinds of test `exempt-tests` may name.
pub const TEST_KINDS: [&str; 9] = [
    "attack",
    "defence",
    "flee",
    "chase",
    "grapple",
    "break-free",
    "fear",
    "hazard",
    "test",
];

impl Options {
    /// Checks values the type allows but the rules do not.
    pub fn validate(&self) -> Result<(), String> {
        if self.success_faces.is_empty() || self.success_faces.len() > 5 {
            return Err("success-faces must list 1 to 5 faces of a d6".into());
        }
        let mut seen = [false; 7];
        for &f in &self.success_faces {
            if !(1..=6).contains(&f) {
                return Err(format!("success-faces: {f} is not a face of a d6"));
            }
            if std::mem::replace(&mut seen[f as usize], true) {
                return Err(format!("success-faces lists {f} twice"));
            }
        }
        if self.harm_slots.iter().any(|&n| n > 9) || self.harm_slots[2] == 0 {
            return Err("harm-slots: each row holds 0 to 9 slots, and the severe row at least 1".into());
        }
        if self.slot_penalty.iter().any(|&n| n > 5) {
            return Err("slot-penalty: at most 5 dice a slot".into());
        }
        if !(1..=5).contains(&self.min_pool) {
            return Err(format!("min-pool = {} is outside 1..=5", self.min_pool));
        }
        if let Some(k) = self.exempt_tests.iter().find(|k| !TEST_KINDS.contains(&k.as_str())) {
            return Err(format!(
                "exempt-tests: '{k}' is not a kind of test; the kinds are {}",
                TEST_KINDS.join(", ")
            ));
        }
        let small = |name: &str, v: u8, max: u8| {
            if v > max {
                Err(format!("{name} = {v} is more than {max}"))
            } else {
                Ok(())
            }
        };
        small("fire-ignition-harm", self.fire_ignition_harm, 5)?;
        for (i, (&d, &x)) in self.fire_damage.iter().zip(&self.fire_extinguish).enumerate() {
            small(&format!("fire-damage[{i}]"), d, 9)?;
            small(&format!("fire-extinguish[{i}]"), x, 9)?;
            if x == 0 {
                return Err(format!("fire-extinguish[{i}] must be at least 1"));
            }
        }
        small("cover-extra", self.cover_extra, 5)?;
        for (i, &h) in self.fear_harm.iter().enumerate() {
            small(&format!("fear-harm[{i}]"), h, 9)?;
        }
        small("fear-help-max", self.fear_help_max, 9)?;
        small("controlled-bonus", self.controlled_bonus, 5)?;
        if !(1..=4).contains(&self.fall_dice_per_5ft) {
            return Err(format!(
                "fall-dice-per-5ft = {} is outside 1..=4",
                self.fall_dice_per_5ft
            ));
        }
        if !(5..=100).contains(&self.fall_min_feet) {
            return Err(format!("fall-min-feet = {} is outside 5..=100", self.fall_min_feet));
        }
        if matches!(self.swap_range, Some(r) if r > 64) {
            return Err("swap-range: at most 64 zones".into());
        }
        Ok(())
    }

    /// Whether `face` of a d6 is a success (EIN-H1).
    pub fn success(&self, face: u16) -> bool {
        self.success_faces.contains(&face)
    }

    /// Whether Harm spares tests of this kind.
    pub fn exempt(&self, kind: &str) -> bool {
        self.exempt_tests.iter().any(|k| k == kind)
    }

    /// Named variants for the conformance suite: together they give every option a
    /// non-default value.
    pub fn variants() -> Vec<(&'static str, Options)> {
        let d = Options::default;
        vec![
            (
                "generous",
                Options {
                    success_faces: vec![5, 6],
                    harm_slots: [3, 1, 2],
                    slot_penalty: [0, 2],
                    severe_incapacitates: false,
                    min_pool: 2,
                    harm_penalty: HarmPenalty::ByTrack,
                    exempt_tests: vec!["fear".into(), "defence".into()],
                    harm_points_persist: false,
                    reaction_may_use_slow: false,
                    chaser_moves_on_escape: false,
                    close_in: CloseIn::Always,
                    dodge_melee: true,
                    cover_extra: 2,
                    ..d()
                },
            ),
            (
                "harsh",
                Options {
                    fire_ignition_harm: 2,
                    fire_damage: [2, 3, 4],
                    fire_extinguish: [2, 2, 3],
                    hold_action: HoldAction::Endure,
                    ambush_bonus_target: AmbushBonusTarget::FirstTest,
                    armour_mode: ArmourMode::Roll,
                    fear_harm: [1, 2, 3],
                    fear_counts_self: true,
                    fear_help_max: 2,
                    controlled_bonus: 2,
                    fear_at_start: false,
                    fall_dice_per_5ft: 2,
                    fall_min_feet: 15,
                    poison_zero_tie: PoisonZeroTie::None,
                    ..d()
                },
            ),
            (
                "swift-swaps",
                Options {
                    forced_swap_timing: SwapTiming::Immediate,
                    opposing_reaction_timing: OpposingTiming::AfterRoll,
                    default_position: Position::Desperate,
                    fear_attribute: Attribute::Strength,
                    hazard_attribute: Attribute::Higher,
                    dual_attribute: Attribute::Intuition,
                    hold_action: HoldAction::Force,
                    thrown_weapons_lost: false,
                    swap_range: Some(1),
                    ask_card_choice: false,
                    ambush_ties: Ties::Succeed,
                    grapple_ties: Ties::Succeed,
                    push_rolls: true,
                    group_order: GroupOrder::Encounter,
                    ..d()
                },
            ),
            (
                "controlled",
                Options {
                    default_position: Position::Controlled,
                    ..d()
                },
            ),
        ]
    }
}
