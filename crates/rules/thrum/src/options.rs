//! Every reading of the rules that the sources leave open, as a named option.
//!
//! Each field is one `[A]` item or one `THR-H` hole of `shared/rules/thrum.md`, with the default
//! proposed there. Encounter files override them in an `[options]` table using the kebab-case
//! names below; `docs/thrum.md` describes each one. A test checks that every option is
//! documented there.

use serde::{Deserialize, Serialize};

/// Who wins a contest with equal totals (THR-H1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieRule {
    /// The defender (reactive side) wins; the attacker needs a strictly higher total.
    Defender,
    /// Both sides roll again until the totals differ.
    Reroll,
}

/// How equal initiative totals are ordered (THR-R12, THR-H7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InitiativeTies {
    /// Higher Initiative modifier first, then PCs before NPCs, then a 2d6 roll-off.
    ModifierPcRolloff,
    /// Straight to the 2d6 roll-off.
    Rolloff,
}

/// How often a character may Delay (THR-R17, THR-H8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelayLimit {
    /// Once in every round.
    OncePerRound,
    /// Once in the whole combat.
    OncePerCombat,
}

/// What a change of Initiative does to the order (THR-R18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InitiativeChange {
    /// The order is re-sorted at the start of the next round; delays keep their place.
    ResortNextRound,
    /// The total changes but the order never moves.
    KeepOrder,
}

/// When a combatant who joins mid-combat first acts (THR-R19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JoinerTurn {
    /// Its first turn is in the next round.
    NextRound,
    /// It acts this round if its slot is still ahead of the current one.
    ThisRoundIfAhead,
}

/// What happens when the Starting Area has too few empty squares (THR-R25, THR-H11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartAreaTooSmall {
    /// The encounter is rejected: the GM must enlarge the area.
    Error,
    /// PCs without room may start on any empty square of the map.
    AnyEmptySquare,
}

/// When stop conditions are checked (THR-R7, THR-H18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopCheck {
    /// After every ability finishes resolving and at the end of every turn.
    AfterAbilityAndTurn,
    /// Only at the end of every turn.
    EndOfTurn,
}

/// Who wins when both sides fall at once (THR-H18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BothFall {
    /// The PCs lose.
    PcsLose,
    /// Nobody wins.
    Draw,
}

/// How much movement a teleport that uses movement spends (THR-R60, THR-H12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TeleportCost {
    /// Its Chebyshev distance.
    Distance,
    /// Nothing.
    Free,
}

/// One attack roll per target of a multi-target attack, or one shared roll (THR-R87, THR-H13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MultiTarget {
    /// A separate attack roll against each target.
    PerTarget,
    /// One attack roll (rolled with the first target's boons and banes) against every defence.
    Shared,
}

/// How the roll against the environment works (THR-H16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EnvironmentRoll {
    /// The environment rolls 2d6 + level; ties favour the environment.
    Opposed,
    /// The character must beat a fixed 7 + level.
    FixedTarget,
}

/// What a declined defence against a Special Attack means (THR-R100).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclinedDefence {
    /// An automatic Success that cannot be a Critical; the attacker does not roll.
    AutoSuccess,
    /// The attacker rolls against a defence total of 0, so it may Critical.
    DefenceZero,
}

/// How Boons and Banes from several sources combine (THR-R114).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoonStacking {
    /// Every source adds up, then Boons and Banes cancel one for one.
    Sum,
    /// At most one Boon and one Bane count, then they cancel.
    OneEach,
}

/// Whether Dazed is a flag or a status with X (THR-H2, THR-R214).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DazedMode {
    /// On or off; does not tick.
    Flag,
    /// A status with X that ticks down like the others.
    Status,
}

/// What re-applying Dazed to a Dazed character does (THR-R214, THR-H2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DazedReapply {
    /// Nothing: the ability use that first applied it stays the applier, so Fatigue or Stress
    /// from any later enemy ability use (including the re-applying one) ends it.
    KeepsApplier,
    /// The re-applying ability use becomes the applier, so its own Fatigue or Stress leaves
    /// Dazed on (repeated Dazing hits keep a target Dazed).
    RenewsApplier,
}

/// How "half" values round (THR-H5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rounding {
    /// Down.
    Down,
    /// Up.
    Up,
}

/// Which turn a Stunned result from a start-of-turn Panic Roll limits (THR-R162, THR-H20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PanicStun {
    /// The current turn (Move or Action, not both), ending at its end.
    ThisTurn,
    /// The character's next turn.
    NextTurn,
}

/// What a PC whose Fatigue Tolerance is 0 at the end of combat becomes (THR-R186, THR-H24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroTolerancePc {
    /// Revived with Loads 0, but barred from further combat until Downtime.
    Barred,
    /// Stays Incapacitated after the combat.
    StaysIncapacitated,
}

/// Which rolls count as "defensive" for Frayed (THR-R228).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrayedRolls {
    /// Only rolls made to defend against an attack.
    DefenceRolls,
    /// Every roll on END, REF or FOC, Panic and Incapacity Rolls included.
    DefensiveAttributes,
}

/// When a defender picks its defence relative to the triggers (THR-H26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefenceTiming {
    /// Defences are picked, then triggers (Assist, Protect, stances) resolve, then the rolls.
    BeforeTriggers,
    /// Triggers resolve first, then defences are picked, then the rolls.
    AfterTriggers,
}

/// Which dice count as doubles (THR-H27).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DoublesFrom {
    /// Only the two kept dice.
    KeptDice,
    /// Any two equal dice among all rolled.
    AllDice,
}

/// What Scouted does (THR-H4, THR-R221).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoutedMode {
    /// Nothing of its own, stored like Mark so abilities can read it; never ticks.
    LikeMark,
    /// Like Mark, but it ends at the end of the marked character's next turn.
    OneTurn,
}

/// When Buffs (and Terrain Effects) of a creator end (THR-R143).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CreatorGone {
    /// When the creator is removed from combat (they persist while it is Incapacitated).
    Removed,
    /// As soon as the creator is Incapacitated.
    Incapacitated,
}

/// What a character does when an involuntary move drops it 2+ levels (THR-R69).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InvoluntaryDrop {
    /// It must roll (its choice of END or REF); no movement is spent.
    MandatoryRoll,
    /// No roll and no consequence.
    NoRoll,
}

/// Where "Line ∞" starts (THR-R86).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InfiniteLine {
    /// At a square adjacent to the user, running to the map edge.
    Adjacent,
    /// At the user's own square.
    UserSquare,
}

/// How far Range 0 reaches (THR-R48).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RangeZero {
    /// Only the user's own square.
    OwnSquare,
    /// The user's square and the adjacent ones.
    Touch,
}

/// What besides Obstruction can stop a target in range (THR-R50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineOfSight {
    /// Nothing: only Obstruction removes targets.
    ObstructionOnly,
    /// Also blocked (`x`) squares on the straight line between user and target.
    BlockedSquares,
}

/// How several extra movement costs of one step combine (THR-R71).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExtraCosts {
    /// They add up (leaving Difficult Terrain while climbing 3 levels: 1 + 1 + 2).
    AddUp,
    /// Only the largest extra counts.
    Largest,
}

/// What counts as a "negative status" for Recover and Resuscitate (THR-R193).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NegativeStatuses {
    /// The eight X statuses and Dazed, Immobilized, Disoriented and Stunned.
    AllHarmful,
    /// Only the eight statuses with an X.
    XStatuses,
}

/// Which lines of an ability without an Attack tag apply (THR-R225).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NonAttackLines {
    /// Its Effect and Success lines apply directly.
    EffectAndSuccess,
    /// Only its Effect line applies (there is no roll to succeed).
    EffectOnly,
}

/// Whether a Terrain Effect makes attack rolls (THR-R136).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainAttacks {
    /// Only when its record has an Attack type (its text calls for a roll).
    WhenStated,
    /// Never: a Terrain Effect targets nobody, so its lines apply without a roll.
    Never,
}

/// Whose Critical an ability's own `critical-margin` sets (the core rules: a per-roll
/// threshold, default 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityMargin {
    /// Only the attacker's: the user's ability makes its own Criticals easier or harder; a
    /// defender Critical still needs the `critical-margin` option's margin.
    AttackerOnly,
    /// Both sides' Criticals in that contest use the ability's margin.
    BothSides,
}

/// How often a triggered move (Interpose) may answer one ability use (THR-R40, THR-R144).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TriggeredMoves {
    /// Once per holder per ability use, however many of its allies the use attacks.
    OncePerUse,
    /// Once for every attacked ally (an area attack may set it off several times).
    PerTarget,
}

/// What happens to a target of an Area, Line or Aura ability that is no longer inside the
/// shape when its roll comes (it moved during the ability, e.g. by Interpose) (THR-R85).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AreaLeavers {
    /// It is not affected: the ability affects the characters inside its area.
    Spared,
    /// It is still affected: targets are fixed when the ability is declared.
    Hit,
}

/// Whether Incapacitated enemies count as foes nearby (THR-R115 and the abilities that look
/// for a foe next to or near their holder).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IncapacitatedFoes {
    /// They count: an Incapacitated enemy is still an enemy on its square.
    Count,
    /// Only enemies able to act count.
    Ignored,
}

/// All Thrum options. Defaults are the rules file's proposals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    // --- Contests -------------------------------------------------------------------------
    /// THR-H1: who wins equal totals.
    pub tie_rule: TieRule,
    /// The margin that makes a Critical (per roll; abilities may change it).
    pub critical_margin: i16,
    /// THR-R114: how Boons and Banes from several sources combine.
    pub boon_stacking: BoonStacking,
    /// THR-H16: how rolls against the environment work.
    pub environment_roll: EnvironmentRoll,
    /// THR-R228: which rolls Frayed's Bane applies to.
    pub frayed_rolls: FrayedRolls,
    /// THR-H25 / THR-R198: whether Brace and Concentrate also help Incapacity and Panic Rolls.
    pub stances_help_fixed_rolls: bool,
    /// THR-H27: which dice count for doubles.
    pub doubles_from: DoublesFrom,
    /// Whose Critical an ability's own Critical margin sets.
    pub ability_critical_margin: AbilityMargin,

    // --- Combat order and initiative -------------------------------------------------------
    /// THR-R7 / THR-H18: when stop conditions are checked.
    pub stop_check: StopCheck,
    /// THR-H18: who wins when both sides fall together.
    pub both_fall: BothFall,
    /// THR-R12 / THR-H7: ordering of equal Initiative totals.
    pub initiative_ties: InitiativeTies,
    /// THR-R17 / THR-H8: how often a character may Delay.
    pub delay_limit: DelayLimit,
    /// THR-R17 / THR-H9: whether "end of round" is a legal point to Delay to.
    pub delay_to_end: bool,
    /// THR-H30: whether an Incapacitated character may Delay.
    pub incapacitated_may_delay: bool,
    /// THR-R18: what a change of Initiative does to the order.
    pub initiative_change: InitiativeChange,
    /// THR-R19: when a joining combatant first acts.
    pub joiner_turn: JoinerTurn,

    // --- Round Zero ------------------------------------------------------------------------
    /// THR-R24 / THR-H10: whether NPCs may enter a Stance on their Round Zero turn.
    pub npc_round_zero_stance: bool,
    /// THR-R25 / THR-H11: what to do when the Starting Area is too small.
    pub start_area_too_small: StartAreaTooSmall,

    // --- Turn structure --------------------------------------------------------------------
    /// THR-R31: whether a character may take no Action.
    pub allow_no_action: bool,
    /// THR-R34: whether a Stance that ended since the last turn may be entered again.
    pub reenter_ended_stance: bool,
    /// THR-R162 / THR-H20: which turn a Panic Roll's Stunned limits.
    pub panic_stun: PanicStun,
    /// THR-R162: the lowest a Tolerance can go.
    pub tolerance_floor: i16,
    /// THR-R167: whether every Action (true) or only attacks (false) call for the Exhausted
    /// character's Incapacity Roll.
    pub incapacity_after_any_action: bool,

    // --- Grid, movement ---------------------------------------------------------------------
    /// THR-R47: whether distance and range ignore elevation (false: the level difference also
    /// counts, as a third axis of the Chebyshev distance).
    pub distance_ignores_elevation: bool,
    /// THR-R48: how far Range 0 reaches.
    pub range_zero: RangeZero,
    /// THR-R50: what besides Obstruction blocks targeting.
    pub line_of_sight: LineOfSight,
    /// THR-R71: how several extra costs of one step combine.
    pub extra_costs: ExtraCosts,
    /// THR-R53: whether a last step costing more than the movement left is allowed.
    pub partial_steps: bool,
    /// THR-R56: whether a longer forced move may carry a character through an ally's square
    /// (never ending on it).
    pub forced_into_allies: bool,
    /// THR-R74: whether pushes and pulls spend the target's movement.
    pub forced_moves_spend_movement: bool,
    /// THR-R60 / THR-H12: what a teleport that uses movement spends.
    pub teleport_cost: TeleportCost,
    /// THR-R60 / THR-H12: whether a teleport destination must be empty.
    pub teleport_needs_empty: bool,
    /// THR-R69: what an involuntary drop of 2+ levels does.
    pub involuntary_drop: InvoluntaryDrop,
    /// THR-R86: where Line ∞ starts.
    pub infinite_line: InfiniteLine,

    // --- Targets and attacks -----------------------------------------------------------------
    /// THR-R92: whether "up to N" targets must be distinct.
    pub distinct_targets: bool,
    /// THR-R93: whether Incapacitated characters remain legal targets.
    pub incapacitated_targetable: bool,
    /// THR-R87 / THR-H13: one roll per target or one shared roll.
    pub multi_target: MultiTarget,
    /// THR-R95: the Basic Attack modifier of a character with no trained Art.
    pub untrained_attack_modifier: i16,
    /// THR-R100: what a declined defence against a Special Attack means.
    pub declined_defence: DeclinedDefence,
    /// THR-R105 / THR-H14: whether Effect lines apply when the attack misses.
    pub effect_on_miss: bool,
    /// THR-R118 / THR-H15: whether Finisher also triggers when the attack missed.
    pub finisher_on_miss: bool,
    /// THR-R227: whether Evasion's +1 Vulnerable is added after the attack's lines (true) or
    /// before them (false, so it already raises that attack's damage).
    pub vulnerable_after_lines: bool,
    /// THR-H26: when defences are picked relative to triggers.
    pub defence_timing: DefenceTiming,
    /// THR-R148: whether the controller picks the order of its own simultaneous triggers
    /// (false: they resolve in the order the character's abilities are listed).
    pub controller_orders_own_triggers: bool,
    /// THR-R146: the deepest chain of triggers of triggers that is still offered.
    pub trigger_depth_limit: u8,
    /// THR-R40: how often a triggered move (Interpose) may answer one ability use.
    pub triggered_moves: TriggeredMoves,
    /// THR-R85: whether a target that left an area before its roll is still affected.
    pub area_leavers: AreaLeavers,
    /// THR-R115: whether Incapacitated enemies count as foes next to or near a character.
    pub incapacitated_foes: IncapacitatedFoes,

    // --- Cover (THR-H17) ---------------------------------------------------------------------
    /// THR-R121: how many levels above its square a character counts as a cover source.
    pub character_cover_height: i16,
    /// THR-R123: whether an attacker exactly on the dividing line suffers the cover Bane.
    pub cover_on_line: bool,
    /// THR-R127: the most Banes cover can give.
    pub max_cover_banes: u8,
    /// THR-R128: whether Obstruction also applies to Mental Attacks.
    pub obstruction_for_mental: bool,

    // --- Overexert, Buffs, Terrain Effects -----------------------------------------------------
    /// THR-R134 / THR-H19: Stress paid per Overexert unless the ability says otherwise.
    pub overexert_stress: i16,
    /// THR-R134: whether Overexert is allowed when it would make the user Frayed.
    pub overexert_may_fray: bool,
    /// THR-R135: whether upkeep Overexert is paid at the start of the creator's turn (true)
    /// or at its end (false).
    pub upkeep_at_start_of_turn: bool,
    /// THR-R136: whether a Terrain Effect whose record has an Attack type rolls attacks.
    pub terrain_effect_attacks: TerrainAttacks,
    /// THR-R143: when a creator's Buffs and Terrain Effects end.
    pub creator_gone: CreatorGone,

    // --- Statuses and conditions ---------------------------------------------------------------
    /// THR-H2: Dazed as a flag or as an X status.
    pub dazed: DazedMode,
    /// THR-H3: use the draft wording of Stunned.
    pub draft_stunned: bool,
    /// THR-H3: use the draft wording of Hidden.
    pub draft_hidden: bool,
    /// THR-H3: use the draft wording of Hastened.
    pub draft_hastened: bool,
    /// THR-H4: what Scouted does.
    pub scouted: ScoutedMode,
    /// THR-H5: rounding of "half" values.
    pub rounding: Rounding,
    /// THR-R206: whether Hamstrung's Dazed lands after the attack resolves (true) or before it.
    pub hamstrung_after_attack: bool,
    /// THR-R208: the lowest Speed can go.
    pub speed_floor: i16,
    /// THR-R212: whether a status's effect grows with X (false: X is only a duration).
    pub status_effect_scales: bool,
    /// THR-R213: what "+N Mark" adds (true: N; false: it sets Mark to N).
    pub mark_adds: bool,
    /// THR-R193: what counts as a negative status.
    pub negative_statuses: NegativeStatuses,
    /// THR-R214, THR-H2: whether Fatigue or Stress from the ability use that applied Dazed
    /// leaves it on (true) or ends it like any later hit (false).
    pub dazed_survives_own_use: bool,
    /// THR-R214, THR-H2: whether re-applying Dazed makes the new ability use its applier.
    pub dazed_reapply: DazedReapply,
    /// THR-R216, THR-R217: the superseded draft's drift for a Disoriented step that does not
    /// roll 7 (false: such a step is simply lost).
    pub draft_disoriented: bool,
    /// THR-R225: which lines of an ability without an Attack tag apply.
    pub non_attack_lines: NonAttackLines,

    // --- Fatigue, Incapacity ------------------------------------------------------------------------
    /// THR-H21 / THR-R170: whether Incapacitated characters still make defence rolls.
    pub incapacitated_may_defend: bool,
    /// THR-H22 / THR-R175: whether the revive check comes before the Wound check.
    pub revive_before_wound: bool,
    /// THR-H23 / THR-R182: whether Incapacitated characters still occupy their square and give
    /// cover.
    pub incapacitated_occupy: bool,
    /// THR-H29: whether damage and Loads clamp at 0.
    pub clamp_at_zero: bool,
    /// THR-H29: whether a Minion vanishes even when reductions bring the damage to 0.
    pub minion_vanishes_at_zero: bool,
    /// THR-H18: whether Minions count for the stop conditions.
    pub minions_count: bool,
    /// THR-R172, THR-R173: whether a character Incapacitated during its own turn also loses
    /// 1 Fatigue Tolerance and Load at that turn's end (true), or only the drop on becoming
    /// Incapacitated that turn (false).
    pub incapacity_drop_same_turn: bool,
    /// THR-H24 / THR-R186: what becomes of a PC at Fatigue Tolerance 0 when combat ends.
    pub zero_tolerance_pc: ZeroTolerancePc,
    /// THR-R187: whether stances, statuses, Buffs and Terrain Effects end at End of Combat.
    pub clear_at_end: bool,

    // --- Basic abilities ---------------------------------------------------------------------------
    /// THR-H6 / THR-R194: whether Coup de Grace is available to everyone.
    pub coup_de_grace: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tie_rule: TieRule::Defender,
            critical_margin: 5,
            boon_stacking: BoonStacking::Sum,
            environment_roll: EnvironmentRoll::Opposed,
            frayed_rolls: FrayedRolls::DefenceRolls,
            stances_help_fixed_rolls: false,
            doubles_from: DoublesFrom::KeptDice,
            ability_critical_margin: AbilityMargin::AttackerOnly,
            stop_check: StopCheck::AfterAbilityAndTurn,
            both_fall: BothFall::PcsLose,
            initiative_ties: InitiativeTies::ModifierPcRolloff,
            delay_limit: DelayLimit::OncePerRound,
            delay_to_end: true,
            incapacitated_may_delay: false,
            initiative_change: InitiativeChange::ResortNextRound,
            joiner_turn: JoinerTurn::NextRound,
            npc_round_zero_stance: true,
            start_area_too_small: StartAreaTooSmall::Error,
            allow_no_action: true,
            reenter_ended_stance: true,
            panic_stun: PanicStun::ThisTurn,
            tolerance_floor: 0,
            incapacity_after_any_action: true,
            distance_ignores_elevation: true,
            range_zero: RangeZero::OwnSquare,
            line_of_sight: LineOfSight::ObstructionOnly,
            partial_steps: false,
            extra_costs: ExtraCosts::AddUp,
            forced_into_allies: false,
            forced_moves_spend_movement: false,
            teleport_cost: TeleportCost::Distance,
            teleport_needs_empty: true,
            involuntary_drop: InvoluntaryDrop::MandatoryRoll,
            infinite_line: InfiniteLine::Adjacent,
            distinct_targets: true,
            incapacitated_targetable: true,
            multi_target: MultiTarget::PerTarget,
            untrained_attack_modifier: 0,
            declined_defence: DeclinedDefence::AutoSuccess,
            effect_on_miss: true,
            finisher_on_miss: true,
            vulnerable_after_lines: true,
            defence_timing: DefenceTiming::BeforeTriggers,
            controller_orders_own_triggers: true,
            trigger_depth_limit: 16,
            triggered_moves: TriggeredMoves::OncePerUse,
            area_leavers: AreaLeavers::Spared,
            incapacitated_foes: IncapacitatedFoes::Count,
            character_cover_height: 2,
            cover_on_line: false,
            max_cover_banes: 1,
            obstruction_for_mental: false,
            overexert_stress: 1,
            overexert_may_fray: true,
            upkeep_at_start_of_turn: true,
            terrain_effect_attacks: TerrainAttacks::WhenStated,
            creator_gone: CreatorGone::Removed,
            dazed: DazedMode::Flag,
            draft_stunned: true,
            draft_hidden: true,
            draft_hastened: true,
            scouted: ScoutedMode::LikeMark,
            rounding: Rounding::Down,
            hamstrung_after_attack: true,
            speed_floor: 0,
            status_effect_scales: false,
            mark_adds: true,
            negative_statuses: NegativeStatuses::AllHarmful,
            dazed_survives_own_use: true,
            dazed_reapply: DazedReapply::KeepsApplier,
            draft_disoriented: true,
            non_attack_lines: NonAttackLines::EffectAndSuccess,
            incapacitated_may_defend: true,
            revive_before_wound: true,
            incapacitated_occupy: true,
            clamp_at_zero: true,
            minion_vanishes_at_zero: false,
            minions_count: false,
            incapacity_drop_same_turn: true,
            zero_tolerance_pc: ZeroTolerancePc::Barred,
            clear_at_end: true,
            coup_de_grace: true,
        }
    }
}

impl Options {
    /// Checks the numeric options against the ranges fray supports (every enumerated option is
    /// already checked when it is read). Encounter files and records both go through it.
    pub fn validate(&self) -> Result<(), String> {
        let limit = crate::setup::STAT_LIMIT;
        for (name, v, lo) in [
            ("critical-margin", self.critical_margin, -limit),
            ("tolerance-floor", self.tolerance_floor, -limit),
            ("untrained-attack-modifier", self.untrained_attack_modifier, -limit),
            ("character-cover-height", self.character_cover_height, -limit),
            ("overexert-stress", self.overexert_stress, -limit),
            ("speed-floor", self.speed_floor, -limit),
        ] {
            if !(lo..=limit).contains(&v) {
                return Err(format!("option {name} = {v} is outside {lo}..={limit}"));
            }
        }
        Ok(())
    }

    /// Halves a value with the configured rounding.
    pub fn half(&self, v: i16) -> i16 {
        // THR-R224: "half your ATTR" in an upgrade's bracket rounds down unless `rounding`
        // says up.
        match self.rounding {
            Rounding::Down => v.div_euclid(2),
            Rounding::Up => (v + 1).div_euclid(2),
        }
    }
}

impl Options {
    /// Named option variants for the conformance suite: together they set every option to a
    /// value other than its default at least once (the engine's `check_option_variants`
    /// holds that, so a new option needs a place here). Each variant flips one topic's
    /// options together, so the count stays small; within a topic the options touch different
    /// rules, and the topics are played separately so that a failure points at a few options.
    /// Every variant is valid on every example (no option here depends on the map or on a
    /// particular combatant).
    pub fn variants() -> Vec<(&'static str, Options)> {
        let d = Options::default;
        vec![
            (
                "contests",
                Options {
                    tie_rule: TieRule::Reroll,
                    critical_margin: 4,
                    boon_stacking: BoonStacking::OneEach,
                    environment_roll: EnvironmentRoll::FixedTarget,
                    frayed_rolls: FrayedRolls::DefensiveAttributes,
                    stances_help_fixed_rolls: true,
                    doubles_from: DoublesFrom::AllDice,
                    ability_critical_margin: AbilityMargin::BothSides,
                    multi_target: MultiTarget::Shared,
                    declined_defence: DeclinedDefence::DefenceZero,
                    untrained_attack_modifier: -1,
                    ..d()
                },
            ),
            (
                "order",
                Options {
                    stop_check: StopCheck::EndOfTurn,
                    both_fall: BothFall::Draw,
                    initiative_ties: InitiativeTies::Rolloff,
                    delay_limit: DelayLimit::OncePerCombat,
                    delay_to_end: false,
                    incapacitated_may_delay: true,
                    initiative_change: InitiativeChange::KeepOrder,
                    joiner_turn: JoinerTurn::ThisRoundIfAhead,
                    npc_round_zero_stance: false,
                    start_area_too_small: StartAreaTooSmall::AnyEmptySquare,
                    allow_no_action: false,
                    reenter_ended_stance: false,
                    panic_stun: PanicStun::NextTurn,
                    tolerance_floor: -2,
                    incapacity_after_any_action: false,
                    ..d()
                },
            ),
            (
                "movement-and-cover",
                Options {
                    distance_ignores_elevation: false,
                    range_zero: RangeZero::Touch,
                    line_of_sight: LineOfSight::BlockedSquares,
                    extra_costs: ExtraCosts::Largest,
                    partial_steps: true,
                    forced_into_allies: true,
                    forced_moves_spend_movement: true,
                    teleport_cost: TeleportCost::Free,
                    teleport_needs_empty: false,
                    involuntary_drop: InvoluntaryDrop::NoRoll,
                    infinite_line: InfiniteLine::UserSquare,
                    character_cover_height: 1,
                    cover_on_line: true,
                    max_cover_banes: 2,
                    obstruction_for_mental: true,
                    ..d()
                },
            ),
            (
                "attacks-and-triggers",
                Options {
                    distinct_targets: false,
                    incapacitated_targetable: false,
                    effect_on_miss: false,
                    finisher_on_miss: false,
                    vulnerable_after_lines: false,
                    defence_timing: DefenceTiming::AfterTriggers,
                    controller_orders_own_triggers: false,
                    trigger_depth_limit: 2,
                    triggered_moves: TriggeredMoves::PerTarget,
                    area_leavers: AreaLeavers::Hit,
                    incapacitated_foes: IncapacitatedFoes::Ignored,
                    overexert_stress: 2,
                    overexert_may_fray: false,
                    upkeep_at_start_of_turn: false,
                    terrain_effect_attacks: TerrainAttacks::Never,
                    creator_gone: CreatorGone::Incapacitated,
                    ..d()
                },
            ),
            (
                "statuses",
                Options {
                    dazed: DazedMode::Status,
                    draft_stunned: false,
                    draft_hidden: false,
                    draft_hastened: false,
                    scouted: ScoutedMode::OneTurn,
                    rounding: Rounding::Up,
                    hamstrung_after_attack: false,
                    speed_floor: 1,
                    status_effect_scales: true,
                    mark_adds: false,
                    negative_statuses: NegativeStatuses::XStatuses,
                    dazed_survives_own_use: false,
                    dazed_reapply: DazedReapply::RenewsApplier,
                    draft_disoriented: false,
                    non_attack_lines: NonAttackLines::EffectOnly,
                    ..d()
                },
            ),
            (
                "fatigue-and-incapacity",
                Options {
                    incapacitated_may_defend: false,
                    revive_before_wound: false,
                    incapacitated_occupy: false,
                    clamp_at_zero: false,
                    minion_vanishes_at_zero: true,
                    minions_count: true,
                    incapacity_drop_same_turn: false,
                    zero_tolerance_pc: ZeroTolerancePc::StaysIncapacitated,
                    clear_at_end: false,
                    coup_de_grace: false,
                    ..d()
                },
            ),
        ]
    }
}
