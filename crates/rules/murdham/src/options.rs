//! Murdham's options: every reading of the rules a table may change, as a named field with its
//! default. Each `[A]` item and each hole (`MUR-H..`) of `shared/rules/murdham.md` is one of
//! them, and so are the chapter's two optional rules (fast and slow activations, the chaos of
//! combat). Encounter files override them in `[options]` with the kebab-case names;
//! `docs/murdham.md` describes each one (a test checks that), and [`Options::variants`] lets
//! the conformance suite play every option at a non-default value.

use serde::{Deserialize, Serialize};

/// Who opens a phase of the round (MUR-R6, MUR-R53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opener {
    /// The faction holding the initiative chooses which faction acts first.
    Choose,
    /// The faction holding the initiative always acts first.
    Initiative,
}

/// When a counter's two hits are equal after reductions (MUR-H10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieOrder {
    /// Both land at the same moment.
    Together,
    /// Only when both deal nothing: a die decides which lands first (riders such as a grab
    /// then come in that order). Equal non-zero hits still land together.
    RandomWhenZero,
}

/// Which faction members a failed morale check sends off, and what is asked (MUR-H12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoraleFor {
    /// Every faction checks morale; players choose for their own characters.
    All,
    /// Only factions without a player seat (see `player-sides`) check morale.
    NpcsOnly,
}

/// The die a deviating blast rolls to pick a neighbouring zone (MUR-H22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviationDie {
    /// The smallest of d4, d6, d8, d10, d12 and d20 with enough faces, rerolled above the
    /// number of neighbouring zones (a table's physical dice).
    Standard,
    /// A die with exactly as many faces as there are neighbouring zones.
    Exact,
}

/// Murdham's options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// The optional rule of fast and slow activations (MUR-R52 to MUR-R54).
    pub fast_slow: bool,
    /// MUR-H15: a character whose WIT equals the fast action threshold counts as fast.
    pub fast_on_tie: bool,
    /// MUR-R6, MUR-R53 [A]: who opens each round (and, with fast and slow activations, each
    /// phase).
    pub opener: Opener,
    /// The optional chaos of combat (MUR-R55, MUR-R56): talk only as a bonus action, and a
    /// declaration timer in table play.
    pub chaos: bool,
    /// MUR-R56: seconds a player has to declare a turn under the chaos of combat.
    pub chaos_seconds: u16,
    /// MUR-H2: zones a full movement (a main action) allows in all in a turn, counting the
    /// turn's own one-zone move.
    pub full_move_zones: u8,
    /// MUR-H5: an attacker counts as "moving" once it has moved earlier in the same turn.
    /// `false`: never (only the GM's `hinder` ruling asks for a save).
    pub moved_means_moving: bool,
    /// MUR-H8: each target of a melee blast may dodge it (`false`: a melee blast cannot be
    /// dodged).
    pub melee_blast_dodge: bool,
    /// MUR-H8: a blast's damage is rolled once and dealt to every target (`false`: one roll
    /// per target).
    pub blast_one_roll: bool,
    /// MUR-H9: a counter needs a weapon that reaches the attacker (melee needs the attacker
    /// nearby; a ranged counter follows the limits of ranged attacks). `false`: any weapon
    /// counters.
    pub counter_needs_reach: bool,
    /// MUR-R21 [A]: a first hit in a counter that leaves its target dying, incapacitated or
    /// disabled stops that target's own hit.
    pub first_hit_stops: bool,
    /// MUR-H10: the order of a counter's hits when both are equal.
    pub tie_order: TieOrder,
    /// MUR-H11: dead, dying, incapacitated, surrendered and fled members count as lost for a
    /// group's morale (`false`: only the dead).
    pub morale_counts_all_losses: bool,
    /// MUR-H12: who checks morale.
    pub morale_for: MoraleFor,
    /// MUR-H14: a round (or phase) ends only when every faction, even one with nobody left,
    /// has passed in a row. `false`: factions with nobody able to act are skipped.
    pub every_faction_passes: bool,
    /// MUR-H16: a durability roll fails on 1 in this many (1:4).
    pub durability_chance: u8,
    /// MUR-H16: the same for robust items (1:8).
    pub robust_durability_chance: u8,
    /// MUR-H17: a shield's +1 and cover's +1 add up.
    pub shield_and_cover_stack: bool,
    /// MUR-H19: a guard or a character hidden behind trades places with the target (`false`:
    /// the new target stays where it is).
    pub guard_swaps_places: bool,
    /// MUR-H20: a single hit of at least the target's maximum health kills it (`false`: the
    /// threshold is its STR, unscaled by size).
    pub death_at_max_health: bool,
    /// MUR-H22: the die a deviating ranged blast rolls.
    pub deviation_die: DeviationDie,
    /// MUR-R23: a target whose stand-in declines keeps its reaction, and hiding is its
    /// reaction only once the other agrees (`false`: fray 0.1.0's reading, asking spent it).
    pub declined_hide_keeps_reaction: bool,
    /// MUR-H24: throwing a consumable weapon is an attack, a main action (`false`: a bonus
    /// action).
    pub throw_is_attack: bool,
    /// MUR-H26: stepping from a zone onto one of its own borders counts as moving away from
    /// the enemies in the zone (`false`: only leaving the zone and its borders does).
    pub border_step_provokes: bool,
    /// MUR-R37 [A]: shoving a grabbed character takes the main action (`false`: a bonus action).
    pub shove_is_main: bool,
    /// MUR-R40 [A]: characters who are not concealed may react during the ambushers' bonus
    /// turn.
    pub react_in_bonus_turn: bool,
    /// MUR-R42 [A]: moving while concealed without a successful sneak (an AGI save) reveals
    /// the mover (`false`: moving never reveals by itself).
    pub moving_reveals: bool,
    /// MUR-R42 [A]: a concealed character's surprise attack resolves first, and the attacker is
    /// revealed once it is over (`false`: fray 0.1.0's reading, as it declares the attack).
    pub reveal_after_surprise: bool,
    /// MUR-R59 [A]: size decides a STR save before the disarm and wrestling skills.
    pub size_before_skills: bool,
    /// MUR-R8: a distract, intimidate or taunt whose target fails its WIT save works; the GM's
    /// `overwhelm` ruling waives the save. `false`: these never allow a save.
    pub influence_save: bool,
    /// MUR-R15: an indirect attack fires over obstacles, so the target's cover (a barrier's
    /// included) gives no +1 against it (`false`: fray 0.1.0's reading, it does).
    pub indirect_over_cover: bool,
    /// MUR-R27 [A]: cover protects against melee attacks too (`false`: only against ranged
    /// ones).
    pub cover_against_melee: bool,
    /// MUR-R32: the GM must approve an attack stunt before the target answers (`false`: every
    /// stunt goes straight to the target).
    pub stunt_needs_gm: bool,
    /// MUR-H25: a hit of 8 or more destroys only one damaged item, the shield before the
    /// armour (`false`: every damaged shield and armour of the target).
    pub shield_breaks_first: bool,
    /// MUR-H25: with two shields in hand, both gave the +1 against an attack, and both were
    /// used (`false`: fray 0.1.0's reading, only the first).
    pub both_shields_used: bool,
    /// MUR-R50: the damage before armour that destroys a damaged shield or armour.
    pub break_threshold: u8,
    /// MUR-R49, MUR-H25: the natural face of the kept damage die that destroys a damaged
    /// weapon or shield it attacks with.
    pub break_face: u8,
    /// MUR-R13, MUR-H4: half range rounds up (range 8: a save beyond 4). `false`: down.
    pub half_range_up: bool,
    /// fray 0.1.0's ruling: attacks on a defenceless (incapacitated or dying) target deal
    /// enhanced damage. `false` (the rules' reading): defenceless means only that it cannot
    /// react, and the damage is rolled as for anyone.
    pub defenceless_enhanced: bool,
    /// Health: injuries 4 to 6 leave a condition until a full rest (hobbled, an arm, an eye);
    /// `false`: fray 0.1.0's reading, they change nothing but the ability injury 4 lowers.
    pub injury_effects: bool,
    /// Rounds a dying character lasts before dying for good (MUR-R.. Health: the end of the
    /// next round).
    pub dying_rounds: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fast_slow: false,
            fast_on_tie: true,
            opener: Opener::Choose,
            chaos: false,
            chaos_seconds: 15,
            full_move_zones: 2,
            moved_means_moving: true,
            melee_blast_dodge: true,
            blast_one_roll: true,
            counter_needs_reach: true,
            first_hit_stops: true,
            tie_order: TieOrder::Together,
            morale_counts_all_losses: true,
            morale_for: MoraleFor::All,
            every_faction_passes: true,
            durability_chance: 4,
            robust_durability_chance: 8,
            shield_and_cover_stack: true,
            guard_swaps_places: false,
            death_at_max_health: true,
            deviation_die: DeviationDie::Standard,
            declined_hide_keeps_reaction: true,
            throw_is_attack: true,
            border_step_provokes: false,
            shove_is_main: true,
            react_in_bonus_turn: false,
            moving_reveals: true,
            reveal_after_surprise: true,
            size_before_skills: true,
            influence_save: true,
            cover_against_melee: false,
            indirect_over_cover: true,
            stunt_needs_gm: true,
            shield_breaks_first: true,
            both_shields_used: true,
            break_threshold: 8,
            break_face: 1,
            half_range_up: true,
            dying_rounds: 1,
            injury_effects: true,
            defenceless_enhanced: false,
        }
    }
}

/// Sets the readings fray 0.1.0 played by where 0.2.0 plays differently by default, for a record
/// 0.1.0 wrote ([`fray_engine::Ruleset::earlier_options`]). Options 0.1.0 already had come with
/// the record (`defenceless-enhanced` among them); those added since are set here.
pub fn as_in_0_1_0(o: &mut Options) {
    o.both_shields_used = false;
    o.declined_hide_keeps_reaction = false;
    o.indirect_over_cover = false;
    o.reveal_after_surprise = false;
    o.injury_effects = false;
}

impl Options {
    /// Checks values the type allows but the rules do not.
    pub fn validate(&self) -> Result<(), String> {
        let within = |name: &str, v: u16, lo: u16, hi: u16| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name} = {v} is outside {lo}..={hi}"))
            }
        };
        within("chaos-seconds", self.chaos_seconds, 1, 600)?;
        within("full-move-zones", self.full_move_zones.into(), 1, 4)?;
        within("durability-chance", self.durability_chance.into(), 1, 20)?;
        within("robust-durability-chance", self.robust_durability_chance.into(), 1, 20)?;
        within("break-threshold", self.break_threshold.into(), 1, 99)?;
        within("break-face", self.break_face.into(), 1, 20)?;
        within("dying-rounds", self.dying_rounds.into(), 1, 10)?;
        Ok(())
    }

    /// Half of a range in zones (MUR-H4).
    pub fn half_range(&self, range: u8) -> u8 {
        if self.half_range_up {
            range.div_ceil(2)
        } else {
            range / 2
        }
    }

    /// Named variants for the conformance suite: together they give every option a
    /// non-default value.
    pub fn variants() -> Vec<(&'static str, Options)> {
        let d = Options::default();
        vec![
            (
                "fast-slow",
                Options {
                    fast_slow: true,
                    fast_on_tie: false,
                    opener: Opener::Initiative,
                    chaos: true,
                    chaos_seconds: 30,
                    ..d.clone()
                },
            ),
            (
                "loose-reading",
                Options {
                    full_move_zones: 3,
                    moved_means_moving: false,
                    melee_blast_dodge: false,
                    blast_one_roll: false,
                    counter_needs_reach: false,
                    first_hit_stops: false,
                    tie_order: TieOrder::RandomWhenZero,
                    morale_counts_all_losses: false,
                    morale_for: MoraleFor::NpcsOnly,
                    every_faction_passes: false,
                    durability_chance: 2,
                    robust_durability_chance: 3,
                    shield_and_cover_stack: false,
                    ..d.clone()
                },
            ),
            (
                "house-rules",
                Options {
                    guard_swaps_places: true,
                    death_at_max_health: false,
                    deviation_die: DeviationDie::Exact,
                    throw_is_attack: false,
                    declined_hide_keeps_reaction: false,
                    border_step_provokes: true,
                    shove_is_main: false,
                    react_in_bonus_turn: true,
                    moving_reveals: false,
                    reveal_after_surprise: false,
                    size_before_skills: false,
                    influence_save: false,
                    cover_against_melee: true,
                    indirect_over_cover: false,
                    stunt_needs_gm: false,
                    shield_breaks_first: false,
                    both_shields_used: false,
                    break_threshold: 6,
                    break_face: 2,
                    half_range_up: false,
                    dying_rounds: 2,
                    injury_effects: false,
                    defenceless_enhanced: true,
                    ..d
                },
            ),
        ]
    }
}
