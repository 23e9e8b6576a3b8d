//! Every reading of the rules that the chapter leaves open, as a named option.
//!
//! Each field is one `[A]` item or one `HAL-H` hole of `shared/rules/hallowed-earth.md` with the
//! default proposed there, or a question the chapter does not answer at all (marked "fray's
//! own"). The rest of this game is unpublished, so its core roll is configurable too. Encounter
//! files override the options in `[options]` with the kebab-case names; `docs/hallowed-earth.md`
//! describes each one (a test checks that), and [`Options::variants`] lets the conformance suite
//! play every option at a non-default value.

use fray_space::Metric;
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
    /// How the creatures declare their actions each round (HAL-R11).
    Declaration {
        /// Every seat declares for its creatures at once, in secret; all are revealed together.
        Secret,
        /// One creature at a time, highest Agility score first; each declaration is seen by those
        /// who declare after it.
        Agility,
        /// One creature at a time, lowest initiative modifier (the negated Agility modifier and
        /// any initiative bonus) first.
        InitiativeModifier,
        /// One creature at a time, seat by seat round the table: the seats in the order the
        /// encounter lists its sides (the Referee's left first), each creature of a seat in
        /// encounter order.
        Clockwise,
        /// Round the table the other way: the seats in reverse order.
        Counterclockwise,
        /// One creature at a time, in the order of the `declaration-list` option (the Referee's
        /// own order); creatures it leaves out follow in encounter order.
        Listed,
    }
);

choice!(
    /// When a Free action is taken (HAL-R17; fray's own reading).
    FreeActionTiming {
        /// On the creature's own turn, the count of the action it declared with it, at any point
        /// of that turn.
        WithAction,
        /// On a turn of its own, at its own count: Base Initiative + `free-speed` (an action off
        /// the HAL-R8 list, HAL-H24).
        OwnCount,
    }
);

choice!(
    /// What drawing a weapon does to the weapons in hand (HAL-R17; fray's own reading).
    Hands {
        /// A creature may hold every weapon it carries at once: drawing one puts it in hand
        /// and changes nothing else.
        Unlimited,
        /// Two hands: a main-hand and an off-hand weapon at most, or one two-handed (natural
        /// weapons take none); drawing a weapon puts away what held the hands it needs.
        Two,
    }
);

choice!(
    /// How speaking is recorded (HAL-R17, HAL-R29; fray's own reading).
    Speech {
        /// Speaking is a Free action (`free speak`), declared and logged on the creature's turn;
        /// it costs nothing, even to the hurt (HAL-R29).
        FreeAction,
        /// Speaking is not an action and not a command: the table speaks as it likes.
        NotAnAction,
    }
);

choice!(
    /// The order of armour and the critical multiplier (HAL-H4).
    CritArmourOrder {
        /// (damage × multiplier) − Armour.
        MultiplyThenReduce,
        /// (damage − Armour) × multiplier.
        ReduceThenMultiply,
    }
);

choice!(
    /// What the injury d100 is compared with (HAL-H5).
    InjuryChance {
        /// The Wound Point damage the critical hit actually dealt, after Armour.
        WoundDamage,
        /// The critical damage before Armour.
        RolledDamage,
    }
);

choice!(
    /// When full defence's bonus and its Reposte option start (HAL-H23).
    FullDefenseTiming {
        /// From the defender's own count to the end of the round.
        FromCount,
        /// For the whole round it was declared in.
        WholeRound,
    }
);

choice!(
    /// What a monster does after failing a morale check (HAL-H13).
    MoraleFailure {
        /// It flees from the next round on, and surrenders if it cannot reach an edge of the
        /// map.
        Flee,
        /// It surrenders at once.
        Surrender,
    }
);

choice!(
    /// How an injury that damages two abilities rolls (HAL-H25).
    DualAbilityDamage {
        /// One roll, applied to each ability.
        OneRoll,
        /// A roll for each ability.
        SeparateRolls,
    }
);

choice!(
    /// The order of the end-of-round steps (HAL-H26).
    EndOfRound {
        /// The Dying creatures' Wound Point loss and death, then morale.
        DyingThenMorale,
        /// Morale, then the Dying creatures' loss.
        MoraleThenDying,
    }
);

/// Hallowed Earth's options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// How actions are declared (HAL-R11).
    pub declaration: Declaration,
    /// The Referee's own declaration order, by combatant id, for `declaration = "listed"`
    /// (HAL-R11, HAL-H20).
    pub declaration_list: Vec<String>,
    /// A seat picks the order of its own creatures' declarations: in secret any of them still
    /// to declare, in the one-at-a-time methods any of the run of its creatures that comes next;
    /// off, strictly the creature due (in secret, encounter order). fray's own reading of HAL-R11.
    pub seat_picks_declaration_order: bool,
    /// The score an ability modifier counts from (HAL-H2: floor((score − base) / step)).
    pub modifier_base: i16,
    /// How many points of score make one point of modifier (HAL-H2).
    pub modifier_step: i16,
    /// The d20 faces of a check or an attack (HAL-H1): the die rolled.
    pub check_die: u16,
    /// The first Hit Die counts at its maximum when Stress is rolled (HAL-R24).
    pub first_hd_max: bool,
    /// The least Stress one Hit Die yields after the Strength modifier (HAL-R24).
    pub min_stress_per_hd: i16,
    /// Each member of a group applies its own modifiers to the shared d12; off, the whole group
    /// takes the first member's Base Initiative (HAL-R5).
    pub group_own_modifiers: bool,
    /// Damage beyond the Stress left goes on to Wound Points within the same hit; off, a hit
    /// that empties Stress stops there (HAL-R25).
    pub stress_overflow: bool,
    /// The damage type of the Wound Point costs of acting hurt and of bleeding (HAL-R43).
    pub strain_damage_type: String,
    /// Stress lost to one hit counts towards the "over half its Wound Points" morale trigger
    /// (HAL-H15).
    pub big_hit_counts_stress: bool,
    /// A natural result in the crit range other than the top face crits only on a hit (HAL-H3).
    pub crit_needs_hit: bool,
    /// The top face of the attack die always hits (HAL-H3).
    pub natural_top_hits: bool,
    /// A natural 1 always misses (HAL-H3).
    pub natural_1_misses: bool,
    /// Armour and the critical multiplier (HAL-H4).
    pub crit_armour_order: CritArmourOrder,
    /// What the injury roll is compared with (HAL-H5).
    pub injury_chance: InjuryChance,
    /// How an injury that names two abilities is rolled (HAL-H25).
    pub dual_ability_damage: DualAbilityDamage,
    /// Reach of a melee weapon, in yards (HAL-H10).
    pub melee_reach: i16,
    /// Reach of a reach weapon, in yards (HAL-H10).
    pub long_reach: i16,
    /// Yards one square of the map stands for (fray's own: the distance model).
    pub yards_per_square: i16,
    /// How diagonal steps are counted (fray's own: the distance model).
    pub metric: Metric,
    /// Speed of a weapon whose stat block gives none (HAL-H11).
    pub default_weapon_speed: i16,
    /// Spell speed is the casting TN minus this, unless the spell gives a speed (HAL-H12).
    pub spell_speed_offset: i16,
    /// Initiative modifier of a Heal check, an action the chapter's list leaves out (HAL-H24).
    pub heal_speed: i16,
    /// Initiative modifier of an Intimidation check (HAL-H24).
    pub intimidate_speed: i16,
    /// Initiative modifier of moving only, or doing nothing (HAL-H24).
    pub move_speed: i16,
    /// Initiative modifier of fleeing (HAL-H24).
    pub flee_speed: i16,
    /// A creature has a Free action each turn besides its action and its Reaction (HAL-R17);
    /// off, none (fray 0.1.0).
    pub free_actions: bool,
    /// When the Free action is taken (fray's own reading of HAL-R17).
    pub free_action_timing: FreeActionTiming,
    /// Initiative modifier of a Free action taken at its own count (HAL-H24).
    pub free_speed: i16,
    /// The length of the short move a Free action may be, in yards; 0: none (fray's own
    /// reading of HAL-R17).
    pub free_move: i16,
    /// What drawing a weapon does to the weapons in hand (fray's own reading of HAL-R17).
    pub hands: Hands,
    /// How speaking is recorded (fray's own reading of HAL-R17 and HAL-R29).
    pub speech: Speech,
    /// A Stabilized creature no longer loses a Wound Point at the end of each round (HAL-R34).
    pub stabilized_stops_bleeding: bool,
    /// The least damage a hit does after Armour (HAL-R36).
    pub armour_floor: i16,
    /// A creature fleeing after a failed morale check still counts as fighting until it
    /// leaves (fray's own reading of HAL-H14 and HAL-R23; off: it has stopped fighting).
    pub fleeing_counts_as_fighting: bool,
    /// When full defence's +4 and Reposte start (HAL-H23).
    pub full_defense_timing: FullDefenseTiming,
    /// Entering a creature's threat range provokes a Reposte from it (HAL-R16).
    pub reposte_on_entry: bool,
    /// The −12 of a late arrival's catch-up turn applies to the missed round initiative; off, to
    /// the new round's (HAL-R13).
    pub catch_up_on_missed: bool,
    /// A declared action whose target is gone may pick another target in reach; off, it is
    /// lost (HAL-H16).
    pub retarget: bool,
    /// A creature dropped to Incapacitated before its count may still take its declared action
    /// (paying the Wound Point); off, it loses it (HAL-H16).
    pub incapacitated_may_act: bool,
    /// New Wound Point damage from an attack or effect ends Stabilized (HAL-R34).
    pub damage_ends_stabilized: bool,
    /// A morale roll equal to its TN passes (HAL-R20, HAL-R21).
    pub morale_ties_pass: bool,
    /// What a failed morale check does (HAL-H13).
    pub morale_failure: MoraleFailure,
    /// The 3d6 of a monster to which the outcome is obvious is rolled (and ignored) all the
    /// same; off, none is drawn (HAL-R22). A compatibility option: fray 0.1.0 rolled it.
    pub morale_roll_when_obvious: bool,
    /// Player characters check morale too (HAL-H22).
    pub pc_morale: bool,
    /// The order of the end-of-round steps (HAL-H26).
    pub end_of_round: EndOfRound,
    /// An Agility drop from an injury recomputes Base Initiative at once (HAL-H18).
    pub agility_loss_rerolls_initiative: bool,
    /// Paralysed creatures take a critical hit from every hit (HAL-H6).
    pub paralyzed_auto_crit: bool,
    /// Bonus to melee attacks against a prone creature (HAL-H6).
    pub prone_melee_bonus: i16,
    /// Penalty to ranged attacks against a prone creature (HAL-H6).
    pub prone_ranged_penalty: i16,
    /// Bonus to attacks against a paralysed creature (HAL-H6).
    pub paralyzed_attack_bonus: i16,
    /// Penalty of a concussed creature to its checks and attack rolls (HAL-H6).
    pub concussed_penalty: i16,
    /// Penalty of a blinded creature to its attack rolls (HAL-H6).
    pub blinded_attack_penalty: i16,
    /// A successful spell deals its damage without an attack roll; off, it rolls against
    /// Defense like a weapon (fray's own: the chapter gives no spell rules).
    pub spells_hit_automatically: bool,
    /// A creature that cannot speak cannot cast spells or intimidate (fray's own).
    pub silence_blocks_speech_actions: bool,
    /// Reach of a Heal check, in yards (fray's own).
    pub heal_reach: i16,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            declaration: Declaration::Secret,
            declaration_list: Vec::new(),
            seat_picks_declaration_order: true,
            modifier_base: 10,
            modifier_step: 2,
            check_die: 20,
            first_hd_max: true,
            min_stress_per_hd: 1,
            group_own_modifiers: true,
            stress_overflow: true,
            strain_damage_type: "untyped".into(),
            big_hit_counts_stress: false,
            crit_needs_hit: true,
            natural_top_hits: true,
            natural_1_misses: true,
            crit_armour_order: CritArmourOrder::MultiplyThenReduce,
            injury_chance: InjuryChance::WoundDamage,
            dual_ability_damage: DualAbilityDamage::OneRoll,
            melee_reach: 2,
            long_reach: 3,
            yards_per_square: 1,
            metric: Metric::Chebyshev,
            default_weapon_speed: 0,
            spell_speed_offset: 10,
            heal_speed: 0,
            intimidate_speed: 0,
            move_speed: 0,
            flee_speed: 0,
            free_actions: true,
            free_action_timing: FreeActionTiming::WithAction,
            free_speed: 0,
            free_move: 2,
            hands: Hands::Unlimited,
            speech: Speech::FreeAction,
            stabilized_stops_bleeding: true,
            armour_floor: 0,
            fleeing_counts_as_fighting: false,
            full_defense_timing: FullDefenseTiming::FromCount,
            reposte_on_entry: true,
            catch_up_on_missed: true,
            retarget: false,
            incapacitated_may_act: true,
            damage_ends_stabilized: true,
            morale_ties_pass: true,
            morale_failure: MoraleFailure::Flee,
            morale_roll_when_obvious: false,
            pc_morale: false,
            end_of_round: EndOfRound::DyingThenMorale,
            agility_loss_rerolls_initiative: false,
            paralyzed_auto_crit: false,
            prone_melee_bonus: 2,
            prone_ranged_penalty: 2,
            paralyzed_attack_bonus: 4,
            concussed_penalty: 2,
            blinded_attack_penalty: 4,
            spells_hit_automatically: true,
            silence_blocks_speech_actions: true,
            heal_reach: 1,
        }
    }
}

impl Options {
    /// Checks values the types allow but the rules do not.
    pub fn validate(&self) -> Result<(), String> {
        let within = |name: &str, v: i16, lo: i16, hi: i16| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name} = {v} is outside {lo}..={hi}"))
            }
        };
        within("modifier-step", self.modifier_step, 1, 10)?;
        within("modifier-base", self.modifier_base, -50, 50)?;
        if !(2..=100).contains(&self.check_die) {
            return Err(format!("check-die = {} is outside 2..=100", self.check_die));
        }
        within("min-stress-per-hd", self.min_stress_per_hd, 0, 20)?;
        within("melee-reach", self.melee_reach, 1, 30)?;
        within("long-reach", self.long_reach, 1, 30)?;
        within("yards-per-square", self.yards_per_square, 1, 10)?;
        within("default-weapon-speed", self.default_weapon_speed, -20, 20)?;
        within("spell-speed-offset", self.spell_speed_offset, -50, 50)?;
        within("heal-speed", self.heal_speed, -20, 20)?;
        within("intimidate-speed", self.intimidate_speed, -20, 20)?;
        within("move-speed", self.move_speed, -20, 20)?;
        within("flee-speed", self.flee_speed, -20, 20)?;
        within("free-speed", self.free_speed, -20, 20)?;
        within("free-move", self.free_move, 0, 30)?;
        within("armour-floor", self.armour_floor, 0, 20)?;
        within("heal-reach", self.heal_reach, 1, 30)?;
        for (name, v) in [
            ("prone-melee-bonus", self.prone_melee_bonus),
            ("prone-ranged-penalty", self.prone_ranged_penalty),
            ("paralyzed-attack-bonus", self.paralyzed_attack_bonus),
            ("concussed-penalty", self.concussed_penalty),
            ("blinded-attack-penalty", self.blinded_attack_penalty),
        ] {
            within(name, v, -20, 20)?;
        }
        if !fray_engine::encounter::is_word(&self.strain_damage_type) {
            return Err(format!(
                "strain-damage-type = '{}' must be one word",
                self.strain_damage_type
            ));
        }
        if self.declaration_list.len() > 64 {
            return Err("declaration-list names more than 64 combatants".into());
        }
        Ok(())
    }

    /// An ability modifier (HAL-H2).
    pub fn modifier(&self, score: i16) -> i16 {
        (score - self.modifier_base).div_euclid(self.modifier_step.max(1))
    }

    /// Squares a distance in yards covers, rounded down (at least 1 for a positive distance).
    pub fn squares(&self, yards: i16) -> u32 {
        if yards <= 0 {
            return 0;
        }
        (yards / self.yards_per_square.max(1)).max(1) as u32
    }

    /// Named variants for the conformance suite: together they give every option a
    /// non-default value.
    pub fn variants() -> Vec<(&'static str, Options)> {
        let d = Options::default;
        vec![
            (
                "agility-declarations",
                Options {
                    declaration: Declaration::Agility,
                    seat_picks_declaration_order: false,
                    first_hd_max: false,
                    crit_needs_hit: false,
                    natural_top_hits: false,
                    natural_1_misses: false,
                    crit_armour_order: CritArmourOrder::ReduceThenMultiply,
                    injury_chance: InjuryChance::RolledDamage,
                    dual_ability_damage: DualAbilityDamage::SeparateRolls,
                    group_own_modifiers: false,
                    stress_overflow: false,
                    strain_damage_type: "strain".into(),
                    big_hit_counts_stress: true,
                    ..d()
                },
            ),
            (
                "by-initiative-modifier",
                Options {
                    declaration: Declaration::InitiativeModifier,
                    modifier_base: 11,
                    modifier_step: 3,
                    check_die: 24,
                    min_stress_per_hd: 3,
                    melee_reach: 1,
                    long_reach: 2,
                    metric: Metric::AlternatingDiagonal,
                    free_action_timing: FreeActionTiming::OwnCount,
                    hands: Hands::Two,
                    ..d()
                },
            ),
            (
                "clockwise",
                Options {
                    declaration: Declaration::Clockwise,
                    yards_per_square: 2,
                    default_weapon_speed: 1,
                    spell_speed_offset: 8,
                    heal_speed: 2,
                    intimidate_speed: 1,
                    move_speed: -1,
                    flee_speed: 3,
                    free_speed: 2,
                    free_move: 4,
                    stabilized_stops_bleeding: false,
                    armour_floor: 1,
                    fleeing_counts_as_fighting: true,
                    full_defense_timing: FullDefenseTiming::WholeRound,
                    reposte_on_entry: false,
                    catch_up_on_missed: false,
                    ..d()
                },
            ),
            (
                "counterclockwise",
                Options {
                    declaration: Declaration::Counterclockwise,
                    retarget: true,
                    incapacitated_may_act: false,
                    damage_ends_stabilized: false,
                    morale_ties_pass: false,
                    morale_failure: MoraleFailure::Surrender,
                    morale_roll_when_obvious: true,
                    pc_morale: true,
                    end_of_round: EndOfRound::MoraleThenDying,
                    free_actions: false,
                    ..d()
                },
            ),
            (
                "listed",
                Options {
                    declaration: Declaration::Listed,
                    // Ids that name nobody are skipped (an encounter file's list is checked).
                    declaration_list: vec!["nobody".into()],
                    agility_loss_rerolls_initiative: true,
                    paralyzed_auto_crit: true,
                    prone_melee_bonus: 3,
                    prone_ranged_penalty: 3,
                    paralyzed_attack_bonus: 5,
                    concussed_penalty: 3,
                    blinded_attack_penalty: 2,
                    spells_hit_automatically: false,
                    silence_blocks_speech_actions: false,
                    speech: Speech::NotAnAction,
                    heal_reach: 2,
                    ..d()
                },
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hal_h2_the_modifier_is_floor_of_score_minus_ten_over_two() {
        let o = Options::default();
        let got: Vec<i16> = [3, 8, 9, 10, 11, 12, 15, 18].iter().map(|&s| o.modifier(s)).collect();
        assert_eq!(got, vec![-4, -1, -1, 0, 0, 1, 2, 4]);
    }

    #[test]
    fn yards_become_squares_rounding_down_but_never_to_nothing() {
        let o = Options {
            yards_per_square: 2,
            ..Options::default()
        };
        assert_eq!((o.squares(0), o.squares(1), o.squares(3), o.squares(10)), (0, 1, 1, 5));
    }
}
