//! Abilities as data (THR-R223 to THR-R226).
//!
//! Every ability — the Basic Combat Abilities, Combat Art abilities, enemy abilities — is a
//! record loaded from TOML: its type, tags, range, target, optional trigger, and result lines
//! (Effect, Success, Critical, Overexert) made of a small set of operations. One interpreter
//! (`resolve`) runs them all; no ability has a function of its own. Values in brackets that
//! scale with upgrades or tier are [`Amount`] expressions such as `"1 + T"` or
//! `"2 + half(POW)"`, evaluated for the user when the ability is used.
//!
//! Loading reports every problem with file, line and column, like encounter files.
//!
//! The files: `vocabulary` holds the game's own words (attributes, Combat Arts, statuses and
//! other conditions, ability types, attack types, defences), this one the ability model (amounts,
//! targets, result lines, triggers, the book), and `load` the TOML loader and the checks of a
//! book that came from a record.

use serde::{Deserialize, Serialize};
use std::fmt;

mod load;
mod vocabulary;

pub use self::load::{
    BUILTIN_FILES, PendingRef, build_book, finish_book, load_abilities, sorted, toml_diagnostic, validate_ability,
};
pub use self::vocabulary::{Art, AttackKind, Attr, Cond, Defence, Kind, XStatus};

/// Index of an ability in the [`AbilityBook`].
pub type AbilityId = u16;

/// A variable in an [`Amount`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Var {
    /// The user's Tier (enemies).
    Tier,
    /// The user's Level.
    Level,
    /// One of the user's attributes.
    Attr(Attr),
    /// The user's Training in an Art.
    Training(Art),
}

/// One term of an [`Amount`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Term {
    /// A constant.
    Const(i16),
    /// `k * var`.
    Times(i16, Var),
    /// Half a variable, rounded by the `rounding` option.
    Half(Var),
    /// Minus half a variable.
    MinusHalf(Var),
}

/// A number that may depend on the user: a sum of terms (`"1 + T"`, `"2 + half(POW)"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Amount {
    /// The terms, added up.
    pub terms: Vec<Term>,
}

impl Amount {
    /// A constant amount.
    pub fn constant(v: i16) -> Amount {
        Amount {
            terms: vec![Term::Const(v)],
        }
    }

    /// The value when every variable is known.
    pub fn eval(&self, var: impl Fn(Var) -> i16, half: impl Fn(i16) -> i16) -> i16 {
        self.terms
            .iter()
            .map(|t| match *t {
                Term::Const(c) => c,
                Term::Times(k, v) => k.saturating_mul(var(v)),
                Term::Half(v) => half(var(v)),
                Term::MinusHalf(v) => -half(var(v)),
            })
            .fold(0i16, |a, b| a.saturating_add(b))
    }

    /// The constant value, if the amount has no variables.
    pub fn as_const(&self) -> Option<i16> {
        let mut total = 0i16;
        for t in &self.terms {
            match t {
                Term::Const(c) => total = total.saturating_add(*c),
                _ => return None,
            }
        }
        Some(total)
    }

    /// Parses `"3"`, `"1 + T"`, `"2 + half(POW)"`, `"training(dueling)"`, `"2*T - 1"`.
    pub fn parse(text: &str) -> Result<Amount, String> {
        let mut terms = Vec::new();
        let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if s.is_empty() {
            return Err("expected a number or an expression such as \"1 + T\"".into());
        }
        let mut rest = s.as_str();
        let mut sign = 1i16;
        let mut first = true;
        while !rest.is_empty() {
            if !first || rest.starts_with(['+', '-']) {
                match rest.as_bytes()[0] {
                    b'+' => sign = 1,
                    b'-' => sign = -1,
                    _ => return Err(format!("expected '+' or '-' before '{rest}'")),
                }
                rest = &rest[1..];
            }
            first = false;
            let end = rest.find(['+', '-']).unwrap_or(rest.len());
            let (term, tail) = rest.split_at(end);
            terms.push(parse_term(term, sign)?);
            rest = tail;
        }
        Ok(Amount { terms })
    }
}

fn parse_var(s: &str) -> Result<Var, String> {
    if s.eq_ignore_ascii_case("t") || s.eq_ignore_ascii_case("tier") {
        return Ok(Var::Tier);
    }
    if s.eq_ignore_ascii_case("level") {
        return Ok(Var::Level);
    }
    if let Some(a) = Attr::parse(s) {
        return Ok(Var::Attr(a));
    }
    if let Some(inner) = s.strip_prefix("training(").and_then(|r| r.strip_suffix(')')) {
        return Art::parse(inner)
            .map(Var::Training)
            .ok_or_else(|| format!("unknown Art '{inner}' in training(...)"));
    }
    Err(format!(
        "unknown value '{s}': expected a number, T, LEVEL, an attribute (POW, END, FIN, REF, REA, FOC) or training(<art>)"
    ))
}

fn parse_term(t: &str, sign: i16) -> Result<Term, String> {
    if t.is_empty() {
        return Err("expected a term after '+' or '-'".into());
    }
    if let Ok(n) = t.parse::<i16>() {
        return Ok(Term::Const(sign * n));
    }
    if let Some(inner) = t.strip_prefix("half(").and_then(|r| r.strip_suffix(')')) {
        let v = parse_var(inner)?;
        return Ok(if sign < 0 { Term::MinusHalf(v) } else { Term::Half(v) });
    }
    if let Some((k, v)) = t.split_once('*') {
        let k: i16 = k
            .parse()
            .map_err(|_| format!("expected a number before '*', found '{k}'"))?;
        return Ok(Term::Times(sign * k, parse_var(v)?));
    }
    Ok(Term::Times(sign, parse_var(t)?))
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.terms.iter().enumerate() {
            let (neg, body) = match *t {
                Term::Const(c) => (c < 0, c.unsigned_abs().to_string()),
                Term::Times(k, v) => (
                    k < 0,
                    if k.abs() == 1 {
                        var_name(v)
                    } else {
                        format!("{}*{}", k.abs(), var_name(v))
                    },
                ),
                Term::Half(v) => (false, format!("half({})", var_name(v))),
                Term::MinusHalf(v) => (true, format!("half({})", var_name(v))),
            };
            match (i, neg) {
                (0, true) => write!(f, "-{body}")?,
                (0, false) => write!(f, "{body}")?,
                (_, true) => write!(f, " - {body}")?,
                (_, false) => write!(f, " + {body}")?,
            }
        }
        if self.terms.is_empty() {
            write!(f, "0")?;
        }
        Ok(())
    }
}

fn var_name(v: Var) -> String {
    match v {
        Var::Tier => "T".into(),
        Var::Level => "LEVEL".into(),
        Var::Attr(a) => a.name().into(),
        Var::Training(a) => format!("training({})", a.name()),
    }
}

/// How far an ability reaches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reach {
    /// Only the user ("Range Self").
    SelfOnly,
    /// Up to this many squares.
    Squares(Amount),
}

/// What an ability targets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetSpec {
    /// The user.
    SelfOnly,
    /// One ally (not the user).
    Ally,
    /// One ally or the user.
    AllyOrSelf,
    /// One enemy.
    Enemy,
    /// Any one character.
    Character,
    /// 1 to N enemies.
    UpToEnemies(u8),
    /// Every enemy (in range if a range is given).
    AllEnemies,
    /// One Incapacitated ally.
    IncapacitatedAlly,
    /// One Incapacitated enemy.
    IncapacitatedEnemy,
    /// Everyone in an X-by-X block.
    Area(Amount),
    /// Everyone on X squares of a row, column or diagonal.
    Line(Amount),
    /// Everyone on a line from next to the user to the map edge.
    LineToEdge,
    /// Everyone within X of the user, the user excluded.
    Aura(Amount),
    /// An empty square (teleports, placing things).
    Square,
}

impl TargetSpec {
    /// Whether the ability aims at squares rather than at named characters.
    pub fn is_shape(&self) -> bool {
        matches!(
            self,
            TargetSpec::Area(_) | TargetSpec::Line(_) | TargetSpec::LineToEdge | TargetSpec::Aura(_)
        )
    }
}

/// Who an operation applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recipient {
    /// The ability's target (for attacks, the defender).
    Target,
    /// The ability's user.
    User,
}

/// One operation of a result line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// Deal Fatigue.
    Fatigue(Amount),
    /// Deal Stress.
    Stress(Amount),
    /// Lower the Fatigue Load.
    ReduceFatigue(Amount),
    /// Lower the Stress Load.
    ReduceStress(Amount),
    /// Add X to a status.
    Status(XStatus, Amount),
    /// Set a condition.
    Condition(Cond),
    /// Add to Mark.
    Mark(Amount),
    /// Add to Scouted.
    Scouted(Amount),
    /// The user picks one of these (the pick is part of the action command).
    Choose(Vec<Choice>),
    /// The user moves the target this many squares (one step, in a direction the user picks).
    Shift(Amount),
    /// Push the target this many squares away from the user.
    Push(Amount),
    /// Pull the target this many squares towards the user.
    Pull(Amount),
    /// The user may move again up to its Speed (Dash).
    Dash,
    /// End one negative status of the user's choice (the pick names it).
    EndStatus,
    /// End Incapacitated, halve both Loads (rounding down), clear every negative status.
    Resuscitate,
    /// End Incapacitated and nothing else (THR-R179).
    EndIncapacitated,
    /// Raise the Fatigue Tolerance (lower it when negative, never below `tolerance-floor`)
    /// (THR-R180).
    FatigueTolerance(Amount),
    /// Raise the Stress Tolerance (lower it when negative, never below `tolerance-floor`)
    /// (THR-R180).
    StressTolerance(Amount),
    /// Remove the target from combat.
    Remove,
    /// Make an Incapacity Roll now.
    IncapacityRoll,
    /// The user teleports to the target square (THR-R58 to THR-R60); `uses_movement` spends
    /// movement for it.
    Teleport {
        /// Whether it spends the user's movement.
        uses_movement: bool,
    },
    /// The recipient may move up to this many squares (a follow-up move it chooses).
    Follow(Amount),
    /// Add to the recipient's Initiative total (THR-R18).
    Initiative(Amount),
    /// The recipient takes this many Banes on its rolls for the rest of its current turn.
    TurnBanes(Amount),
    /// Place the user's Minion on the target square, or move it there (THR-R222).
    PositionMinion,
}

/// One option of a [`Op::Choose`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The word typed to pick it.
    pub label: String,
    /// What it does.
    pub ops: Vec<Line>,
}

/// An operation with its recipient and the lowest tier at which it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// What happens.
    pub op: Op,
    /// To whom.
    pub to: Recipient,
    /// Applies only when the user's Tier is at least this (enemy abilities).
    pub min_tier: u8,
}

/// Which rolls a [`Modifier`] changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollKind {
    /// The character's attack rolls.
    Attack,
    /// Its defence rolls with one particular defence.
    Defence(Defence),
    /// All its defence rolls.
    AnyDefence,
    /// Its Incapacity Rolls.
    Incapacity,
    /// Its Panic Rolls.
    Panic,
    /// Its rolls against the environment.
    Environment,
}

/// A standing change to some of the holder's rolls (from a Stance or a Passive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// Which rolls.
    pub roll: RollKind,
    /// Boons (negative: Banes).
    pub boons: i16,
    /// A flat bonus added to the modifier.
    pub flat: Amount,
    /// Applies only from this Tier.
    pub min_tier: u8,
    /// Applies only up to this Tier.
    #[serde(default)]
    pub max_tier: Option<u8>,
    /// Extra Boons: one per level the holder stands above the target beyond the first (attack
    /// rolls only).
    pub per_height: bool,
    /// Conditions that must all hold for the modifier to apply.
    pub when: Vec<When>,
}

/// A condition on a standing modifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum When {
    /// The holder is Hidden.
    Hidden,
    /// No foe (able to act) is within this distance of the holder.
    NoFoeWithin(Amount),
}

/// What sets off a triggered ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerOn {
    /// A friendly character aims an ability at a foe within range of the holder (Assist).
    AllyAimsAtFoe,
    /// A foe aims an ability at a friendly character within range of the holder (Protect).
    FoeAimsAtAlly,
    /// An enemy within range attacks the holder (Parry and Riposte).
    EnemyAttacksSelf,
    /// An ally within range is attacked (Interpose).
    AllyAttacked,
    /// The holder starts its turn (step b), optionally only next to a foe (Jittery).
    StartOfTurn {
        /// Only when a foe able to act is adjacent.
        adjacent_foe: bool,
    },
}

/// What a trigger does when used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reaction {
    /// Banes on the defender's roll.
    DefenceBanes(i16),
    /// Boons on the defender's roll.
    DefenceBoons(i16),
    /// A flat bonus on the defender's roll.
    DefenceBonus(Amount),
    /// The holder moves up to this many squares towards the attacked ally.
    MoveToward(Amount),
    /// Result lines applied to the holder (start-of-turn passives).
    Lines(Vec<Line>),
}

/// When using a trigger ends the holder's Stance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndsStance {
    /// Never.
    Never,
    /// Always.
    Always,
    /// Unless the defence it helped is a Critical.
    UnlessDefenceCritical,
}

/// A trigger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trigger {
    /// The event.
    pub on: TriggerOn,
    /// What it does.
    pub reaction: Vec<Reaction>,
    /// Whether using it ends the Stance.
    pub ends_stance: EndsStance,
    /// An ability (a follow-up) used against the attacker when the helped defence is a Critical.
    pub on_defence_critical: Option<AbilityId>,
}

/// One Overexert option (THR-R132 to THR-R135).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overexert {
    /// The word typed to pick it.
    pub label: String,
    /// Stress paid; `None` uses the `overexert-stress` option.
    pub stress: Option<i16>,
    /// A new Area size.
    pub area: Option<Amount>,
    /// Successes count as Criticals.
    pub successes_are_criticals: bool,
    /// The Critical line applies twice.
    pub double_critical: bool,
    /// Extra lines applied with the Success line.
    pub extra: Vec<Line>,
    /// An upkeep Overexert: the effect it adds lasts only while its cost is paid again each
    /// turn (THR-R135).
    pub upkeep: bool,
}

/// One ability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ability {
    /// The id typed in commands (`sock-em`).
    pub id: String,
    /// The display name (`Sock 'Em`).
    pub name: String,
    /// The Art granting it (its attack modifier), if any.
    pub art: Option<Art>,
    /// Action, Stance, Passive or follow-up.
    pub kind: Kind,
    /// Its Attack type, if it is an attack.
    pub attack: Option<AttackKind>,
    /// Ranged tag: +1 Bane per enemy adjacent to the user.
    pub ranged: bool,
    /// Finisher tag: an Exhausted target rolls for Incapacity right after.
    pub finisher: bool,
    /// Buff tag.
    pub buff: bool,
    /// Terrain Effect tag.
    pub terrain_effect: bool,
    /// Recover tag (taking it ends Burning).
    pub recover: bool,
    /// One of the Basic Combat Abilities everybody has.
    pub basic: bool,
    /// Needs this option switched on (e.g. `coup-de-grace`).
    pub requires_option: Option<String>,
    /// Its range.
    pub reach: Reach,
    /// Its target.
    pub target: TargetSpec,
    /// Enemy-granted triggers cannot respond to it (Piercing Shot).
    pub ignores_enemy_triggers: bool,
    /// A different Critical margin (defaults to the `critical-margin` option).
    pub critical_margin: Option<Amount>,
    /// Lines that apply whatever the roll.
    pub effect: Vec<Line>,
    /// Lines on a hit.
    pub success: Vec<Line>,
    /// Lines on a Critical.
    pub critical: Vec<Line>,
    /// Whether the Critical line replaces the Success line ("instead").
    pub critical_replaces: bool,
    /// Overexert options.
    pub overexert: Vec<Overexert>,
    /// Standing roll modifiers while the Stance is held (or always, for Passives).
    pub modifiers: Vec<Modifier>,
    /// The trigger, if any.
    pub trigger: Option<Trigger>,
    /// Range of the trigger (defaults to the ability's range).
    pub trigger_range: Option<Amount>,
    /// Nova: Potential earned and the Cost to use it (THR-R226).
    pub nova: Option<Nova>,
    /// What the Buff does, for abilities tagged `buff` (THR-R139 to THR-R142).
    pub buff_spec: Option<BuffSpec>,
    /// What the Terrain Effect does, for abilities tagged `terrain-effect` (THR-R136 to
    /// THR-R138).
    pub terrain: Option<TerrainSpec>,
    /// While held (Stance) or always (Passive), the holder cannot be moved involuntarily, from
    /// this Tier on.
    pub immovable: Option<u8>,
    /// Upgrades a, b, c... as patches (THR-R224).
    pub upgrades: Vec<Upgrade>,
}

/// What earns a Nova ability its Potential.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NovaEarn {
    /// A round ends.
    RoundEnds,
    /// The holder scores an attacker Critical.
    CriticalDealt,
    /// The holder scores a defender Critical.
    CriticalDefence,
    /// The holder rolls doubles on an attack roll (which dice count: `doubles-from`).
    DoublesOnAttack,
    /// An enemy of the holder becomes Incapacitated.
    EnemyIncapacitated,
}

/// A Nova ability's Potential rule (THR-R226).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nova {
    /// Potential spent to use it (and the cap on Potential).
    pub cost: u8,
    /// What earns 1 Potential.
    pub earn: NovaEarn,
}

/// What a Buff does for its bearer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuffSpec {
    /// A bonus the bearer may add to one defence roll (evaluated for the creator).
    pub defence_bonus: Option<Amount>,
    /// Fatigue or Stress taken off what that defended attack deals.
    pub reduce_damage: i16,
    /// Failed rolls the bearer may reroll instead.
    pub reroll: Vec<crate::state::FixedKind>,
    /// How many times the bearer may use it before the creator decides to keep it.
    pub uses: u8,
    /// Stress the creator pays to keep it after it is used up (`None`: it just ends).
    pub keep_cost: Option<i16>,
    /// Standing modifiers the bearer has while the Buff lasts.
    pub modifiers: Vec<Modifier>,
}

/// Who a Terrain Effect hinders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Affects {
    /// Everyone.
    All,
    /// The creator's enemies.
    Enemies,
    /// The creator's side.
    Allies,
}

/// What a Terrain Effect does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainSpec {
    /// Its squares are Difficult Terrain for these characters.
    pub difficult: Option<Affects>,
    /// Lines for a character entering one of its squares.
    pub on_enter: Vec<Line>,
    /// Lines for a character starting its turn inside.
    pub start_of_turn: Vec<Line>,
    /// Lines for a character ending its turn inside.
    pub end_of_turn: Vec<Line>,
    /// Who the lines affect.
    pub affects: Affects,
    /// Lines added at start of turn while its (upkeep) Overexert is kept up.
    pub overexert_start_of_turn: Vec<Line>,
    /// Exempt from the one-Terrain-Effect-per-creator limit (THR-R138).
    pub exempt: bool,
}

/// An upgrade of an ability (one Combat Ability Point each), as a patch of the base record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upgrade {
    /// Its letter (`a`, `b`, `c`).
    pub name: String,
    /// A new range.
    pub range: Option<Amount>,
    /// Lines added to the Effect line.
    pub add_effect: Vec<Line>,
    /// Lines added to the Success line.
    pub add_success: Vec<Line>,
    /// Lines added to the Critical line.
    pub add_critical: Vec<Line>,
    /// Standing modifiers added.
    pub add_modifiers: Vec<Modifier>,
}

impl Ability {
    /// Whether the ability is an attack.
    pub fn is_attack(&self) -> bool {
        self.attack.is_some()
    }

    /// Whether it is a Physical Attack.
    pub fn is_physical(&self) -> bool {
        self.attack == Some(AttackKind::Physical)
    }
}

/// Every ability known to a game, by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct AbilityBook {
    /// The abilities; an [`AbilityId`] indexes this list.
    pub abilities: Vec<Ability>,
}

impl AbilityBook {
    /// The ability with this index.
    pub fn get(&self, id: AbilityId) -> &Ability {
        &self.abilities[id as usize]
    }

    /// The index of the ability with this id.
    pub fn find(&self, id: &str) -> Option<AbilityId> {
        self.abilities.iter().position(|a| a.id == id).map(|i| i as AbilityId)
    }

    /// The id of an ability with upgrades, such as `piercing-shot+b`: finds it, or derives it
    /// from the base record and its upgrade patches and adds it to the book (THR-R224).
    pub fn find_or_upgrade(&mut self, id: &str) -> Result<AbilityId, String> {
        if let Some(i) = self.find(id) {
            return Ok(i);
        }
        let mut parts = id.split('+');
        let base = parts.next().unwrap_or_default();
        let base_id = self.find(base).ok_or_else(|| format!("unknown ability '{base}'"))?;
        // THR-R224: an upgraded ability is its base record with the named patches applied.
        let mut a = self.get(base_id).clone();
        let mut names = Vec::new();
        for u in parts {
            let Some(up) = a.upgrades.iter().find(|x| x.name == u).cloned() else {
                let known: Vec<&str> = a.upgrades.iter().map(|x| x.name.as_str()).collect();
                return Err(format!(
                    "'{base}' has no upgrade '{u}' (upgrades: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ));
            };
            if names.contains(&u) {
                return Err(format!("upgrade '{u}' is listed twice in '{id}'"));
            }
            names.push(u);
            if let Some(r) = up.range {
                a.reach = Reach::Squares(r);
            }
            a.effect.extend(up.add_effect);
            a.success.extend(up.add_success);
            a.critical.extend(up.add_critical);
            a.modifiers.extend(up.add_modifiers);
        }
        a.name = format!("{} ({})", a.name, names.join(", "));
        a.id = id.to_string();
        self.abilities.push(a);
        Ok((self.abilities.len() - 1) as AbilityId)
    }

    /// Indices of the Basic Combat Abilities.
    pub fn basics(&self) -> impl Iterator<Item = AbilityId> + '_ {
        self.abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.basic)
            .map(|(i, _)| i as AbilityId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_parse_and_print() {
        let a = Amount::parse("1 + T").unwrap();
        assert_eq!(a.eval(|_| 2, |v| v / 2), 3);
        let b = Amount::parse("2 + half(POW)").unwrap();
        assert_eq!(b.eval(|_| 3, |v| v / 2), 3);
        assert_eq!(b.to_string(), "2 + half(POW)");
        let c = Amount::parse("training(dueling)").unwrap();
        assert_eq!(
            c.eval(|v| if v == Var::Training(Art::Dueling) { 3 } else { 0 }, |v| v),
            3
        );
        let d = Amount::parse("2 - half(T)").unwrap();
        assert_eq!(d.eval(|_| 2, |v| v / 2), 1);
        assert_eq!(d.to_string(), "2 - half(T)");
        assert!(Amount::parse("2 + banana").is_err());
        assert!(Amount::parse("").is_err());
        assert!(Amount::parse("1 +").is_err());
    }
}
