//! Abilities as data (THR-R223 to THR-R226).
//!
//! Every ability — the Basic Combat Abilities, Combat Art abilities, enemy abilities — is a
//! record loaded from TOML: its type, tags, range, target, optional trigger, and result lines
//! (Effect, Success, Critical, Overexert) made of a small set of operations. One interpreter
//! (`resolve.rs`) runs them all; no ability has a function of its own. Values in brackets that
//! scale with upgrades or tier are [`Amount`] expressions such as `"1 + T"` or
//! `"2 + half(POW)"`, evaluated for the user when the ability is used.
//!
//! Loading reports every problem with file, line and column, like encounter files.

use fray_engine::diag::{Diagnostic, SourceFile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// Index of an ability in the [`AbilityBook`].
pub type AbilityId = u16;

/// The six attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attr {
    /// Power.
    Pow,
    /// Endurance.
    End,
    /// Finesse.
    Fin,
    /// Reflex.
    Ref,
    /// Reasoning.
    Rea,
    /// Focus.
    Foc,
}

impl Attr {
    /// All attributes in sheet order.
    pub const ALL: [Attr; 6] = [Attr::Pow, Attr::End, Attr::Fin, Attr::Ref, Attr::Rea, Attr::Foc];

    /// The short upper-case name (`POW`).
    pub fn name(self) -> &'static str {
        match self {
            Attr::Pow => "POW",
            Attr::End => "END",
            Attr::Fin => "FIN",
            Attr::Ref => "REF",
            Attr::Rea => "REA",
            Attr::Foc => "FOC",
        }
    }

    /// Parses `pow`, `POW`, `power`...
    pub fn parse(s: &str) -> Option<Attr> {
        Some(match s.to_ascii_lowercase().as_str() {
            "pow" | "power" => Attr::Pow,
            "end" | "endurance" => Attr::End,
            "fin" | "finesse" => Attr::Fin,
            "ref" | "reflex" => Attr::Ref,
            "rea" | "reasoning" => Attr::Rea,
            "foc" | "focus" => Attr::Foc,
            _ => return None,
        })
    }
}

/// The nine Combat Arts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Art {
    /// Brawling (POW).
    Brawling,
    /// Archery (POW).
    Archery,
    /// Animism (POW).
    Animism,
    /// Dueling (FIN).
    Dueling,
    /// Ninjutsu (FIN).
    Ninjutsu,
    /// Mesmerism (FIN).
    Mesmerism,
    /// Infusion (REA).
    Infusion,
    /// Kineticism (REA).
    Kineticism,
    /// Elementalism (REA).
    Elementalism,
}

impl Art {
    /// All Arts.
    pub const ALL: [Art; 9] = [
        Art::Brawling,
        Art::Archery,
        Art::Animism,
        Art::Dueling,
        Art::Ninjutsu,
        Art::Mesmerism,
        Art::Infusion,
        Art::Kineticism,
        Art::Elementalism,
    ];

    /// The Art's primary attribute.
    pub fn primary(self) -> Attr {
        match self {
            Art::Brawling | Art::Archery | Art::Animism => Attr::Pow,
            Art::Dueling | Art::Ninjutsu | Art::Mesmerism => Attr::Fin,
            Art::Infusion | Art::Kineticism | Art::Elementalism => Attr::Rea,
        }
    }

    /// Index into per-Art arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Art::Brawling => "brawling",
            Art::Archery => "archery",
            Art::Animism => "animism",
            Art::Dueling => "dueling",
            Art::Ninjutsu => "ninjutsu",
            Art::Mesmerism => "mesmerism",
            Art::Infusion => "infusion",
            Art::Kineticism => "kineticism",
            Art::Elementalism => "elementalism",
        }
    }

    /// Parses a lower-case Art name.
    pub fn parse(s: &str) -> Option<Art> {
        Art::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(s))
    }
}

/// The eight statuses with a parameter X (THR-R202 to THR-R210).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum XStatus {
    /// +1 Bane on Incapacity Rolls.
    Bleed,
    /// Ranges halved; attacks on non-adjacent enemies take +1 Bane.
    Blinded,
    /// 1 Fatigue at the end of each turn; Recover ends it.
    Burning,
    /// Attacking leaves the character Dazed.
    Hamstrung,
    /// +1 Bane on Panic Rolls.
    Shocked,
    /// −2 Speed; no Evasion.
    Slowed,
    /// The next Fatigue or Stress taken is raised by X.
    Vulnerable,
    /// +1 Bane on offensive rolls.
    Weakened,
}

impl XStatus {
    /// All X statuses, in storage order.
    pub const ALL: [XStatus; 8] = [
        XStatus::Bleed,
        XStatus::Blinded,
        XStatus::Burning,
        XStatus::Hamstrung,
        XStatus::Shocked,
        XStatus::Slowed,
        XStatus::Vulnerable,
        XStatus::Weakened,
    ];

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            XStatus::Bleed => "bleed",
            XStatus::Blinded => "blinded",
            XStatus::Burning => "burning",
            XStatus::Hamstrung => "hamstrung",
            XStatus::Shocked => "shocked",
            XStatus::Slowed => "slowed",
            XStatus::Vulnerable => "vulnerable",
            XStatus::Weakened => "weakened",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<XStatus> {
        XStatus::ALL.into_iter().find(|x| x.name().eq_ignore_ascii_case(s))
    }
}

/// Conditions without X (THR-R213 to THR-R222), stored as flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cond {
    /// +1 Bane on defence rolls until hurt by a later enemy ability.
    Dazed,
    /// Cannot move by itself.
    Immobilized,
    /// Steps may drift (2d6 per step).
    Disoriented,
    /// Move or Action, not both, on its next turn.
    Stunned,
    /// Hard to target.
    Hidden,
    /// +2 Speed and a Boon on Reflex rolls.
    Hastened,
}

impl Cond {
    /// All conditions.
    pub const ALL: [Cond; 6] = [
        Cond::Dazed,
        Cond::Immobilized,
        Cond::Disoriented,
        Cond::Stunned,
        Cond::Hidden,
        Cond::Hastened,
    ];

    /// The bit of this condition in a flag set.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Cond::Dazed => "dazed",
            Cond::Immobilized => "immobilized",
            Cond::Disoriented => "disoriented",
            Cond::Stunned => "stunned",
            Cond::Hidden => "hidden",
            Cond::Hastened => "hastened",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Cond> {
        Cond::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(s))
    }

    /// Whether the condition is harmful (THR-R193): Hidden and Hastened help.
    pub fn is_negative(self) -> bool {
        !matches!(self, Cond::Hidden | Cond::Hastened)
    }
}

/// What an ability is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Taken in the Action step.
    Action,
    /// Entered in the Stance step (one at a time).
    Stance,
    /// Always on; may have a trigger.
    Passive,
    /// Used only as the follow-up of another ability (e.g. a riposte).
    FollowUp,
}

/// The Attack type of an ability, which decides the defences allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// Resilience or Evasion.
    Physical,
    /// Resolve or Evasion.
    Mental,
    /// Evasion or no defence.
    Special,
}

/// A defence choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Defence {
    /// END-based; a hedge.
    Resilience,
    /// REF-based with an automatic Boon; a gamble that risks Vulnerable.
    Evasion,
    /// FOC-based; against Mental Attacks.
    Resolve,
    /// No defence (Special Attacks only).
    Decline,
}

impl Defence {
    /// The lower-case name used in commands.
    pub fn name(self) -> &'static str {
        match self {
            Defence::Resilience => "resilience",
            Defence::Evasion => "evasion",
            Defence::Resolve => "resolve",
            Defence::Decline => "decline",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Defence> {
        [
            Defence::Resilience,
            Defence::Evasion,
            Defence::Resolve,
            Defence::Decline,
        ]
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(s))
    }
}

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

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(untagged)]
enum RawAmount {
    Int(i64),
    Text(String),
    /// `true`, only in a Fatigue or Stress line: damage "without a number" is 1 (THR-R108).
    Flag(bool),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    ability: Vec<Spanned<RawAbility>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAbility {
    id: Spanned<String>,
    name: Option<String>,
    art: Option<Spanned<String>>,
    #[serde(rename = "type")]
    kind: Spanned<String>,
    attack: Option<Spanned<String>>,
    #[serde(default)]
    tags: Vec<Spanned<String>>,
    range: Option<Spanned<RawAmount>>,
    target: Option<Spanned<String>>,
    #[serde(default)]
    basic: bool,
    requires_option: Option<String>,
    critical_margin: Option<Spanned<RawAmount>>,
    #[serde(default)]
    effect: Vec<Spanned<RawLine>>,
    #[serde(default)]
    success: Vec<Spanned<RawLine>>,
    #[serde(default)]
    critical: Vec<Spanned<RawLine>>,
    #[serde(default)]
    critical_replaces: bool,
    #[serde(default)]
    overexert: Vec<Spanned<RawOverexert>>,
    #[serde(default)]
    modifiers: Vec<Spanned<RawModifier>>,
    trigger: Option<Spanned<RawTrigger>>,
    nova: Option<Spanned<RawNova>>,
    buff: Option<Spanned<RawBuff>>,
    terrain: Option<Spanned<RawTerrain>>,
    immovable: Option<RawImmovable>,
    #[serde(default)]
    upgrade: Vec<Spanned<RawUpgrade>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawNova {
    cost: u8,
    earn: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBuff {
    defence_bonus: Option<Spanned<RawAmount>>,
    #[serde(default)]
    reduce_damage: i16,
    #[serde(default)]
    reroll: Vec<Spanned<String>>,
    uses: Option<u8>,
    keep_cost: Option<i16>,
    #[serde(default)]
    modifiers: Vec<Spanned<RawModifier>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTerrain {
    difficult: Option<Spanned<String>>,
    #[serde(default)]
    on_enter: Vec<Spanned<RawLine>>,
    #[serde(default)]
    start_of_turn: Vec<Spanned<RawLine>>,
    #[serde(default)]
    end_of_turn: Vec<Spanned<RawLine>>,
    affects: Option<Spanned<String>>,
    #[serde(default)]
    overexert_start_of_turn: Vec<Spanned<RawLine>>,
    #[serde(default)]
    exempt: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawImmovable {
    Flag(bool),
    Table {
        #[serde(rename = "min-tier")]
        min_tier: u8,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawUpgrade {
    name: Spanned<String>,
    range: Option<Spanned<RawAmount>>,
    #[serde(default)]
    add_effect: Vec<Spanned<RawLine>>,
    #[serde(default)]
    add_success: Vec<Spanned<RawLine>>,
    #[serde(default)]
    add_critical: Vec<Spanned<RawLine>>,
    #[serde(default)]
    add_modifiers: Vec<Spanned<RawModifier>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLine {
    fatigue: Option<Spanned<RawAmount>>,
    stress: Option<Spanned<RawAmount>>,
    reduce_fatigue: Option<Spanned<RawAmount>>,
    reduce_stress: Option<Spanned<RawAmount>>,
    status: Option<Spanned<String>>,
    x: Option<Spanned<RawAmount>>,
    condition: Option<Spanned<String>>,
    mark: Option<Spanned<RawAmount>>,
    scouted: Option<Spanned<RawAmount>>,
    choose: Option<Vec<Spanned<RawChoice>>>,
    shift: Option<Spanned<RawAmount>>,
    push: Option<Spanned<RawAmount>>,
    pull: Option<Spanned<RawAmount>>,
    dash: Option<bool>,
    end_status: Option<bool>,
    resuscitate: Option<bool>,
    end_incapacitated: Option<bool>,
    fatigue_tolerance: Option<Spanned<RawAmount>>,
    stress_tolerance: Option<Spanned<RawAmount>>,
    remove: Option<bool>,
    incapacity_roll: Option<bool>,
    teleport: Option<Spanned<String>>,
    follow: Option<Spanned<RawAmount>>,
    initiative: Option<Spanned<RawAmount>>,
    turn_banes: Option<Spanned<RawAmount>>,
    position_minion: Option<bool>,
    to: Option<Spanned<String>>,
    #[serde(default)]
    min_tier: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawChoice {
    label: Spanned<String>,
    #[serde(rename = "do")]
    ops: Vec<Spanned<RawLine>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOverexert {
    label: Spanned<String>,
    stress: Option<i16>,
    area: Option<Spanned<RawAmount>>,
    #[serde(default)]
    successes_are_criticals: bool,
    #[serde(default)]
    double_critical: bool,
    #[serde(default)]
    extra: Vec<Spanned<RawLine>>,
    #[serde(default)]
    upkeep: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawModifier {
    roll: Spanned<String>,
    #[serde(default)]
    boons: i16,
    #[serde(default)]
    banes: i16,
    flat: Option<Spanned<RawAmount>>,
    #[serde(default)]
    min_tier: u8,
    max_tier: Option<u8>,
    #[serde(default)]
    per_height: bool,
    #[serde(default)]
    while_hidden: bool,
    no_foe_within: Option<Spanned<RawAmount>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTrigger {
    on: Spanned<String>,
    range: Option<Spanned<RawAmount>>,
    #[serde(default)]
    defence_banes: i16,
    #[serde(default)]
    defence_boons: i16,
    defence_bonus: Option<Spanned<RawAmount>>,
    move_toward: Option<Spanned<RawAmount>>,
    ends_stance: Option<Spanned<String>>,
    on_defence_critical: Option<Spanned<String>>,
    #[serde(default)]
    adjacent_foe: bool,
    #[serde(default)]
    lines: Vec<Spanned<RawLine>>,
}

use fray_engine::encounter::is_word;
/// Converts a TOML deserialisation error into a diagnostic (the encounter kit's).
pub use fray_engine::encounter::toml_diagnostic;

struct Loader<'a> {
    file: &'a SourceFile,
    errors: Vec<Diagnostic>,
}

impl Loader<'_> {
    fn err(&mut self, span: std::ops::Range<usize>, msg: impl Into<String>) {
        self.errors.push(Diagnostic::at(self.file, span.start, msg));
    }

    fn amount(&mut self, raw: &Spanned<RawAmount>) -> Amount {
        match raw.get_ref() {
            RawAmount::Int(n) => match i16::try_from(*n) {
                Ok(v) => Amount::constant(v),
                Err(_) => {
                    self.err(raw.span(), format!("{n} is out of range (expected -32768..=32767)"));
                    Amount::default()
                }
            },
            RawAmount::Text(t) => match Amount::parse(t) {
                Ok(a) => a,
                Err(m) => {
                    self.err(raw.span(), m);
                    Amount::default()
                }
            },
            RawAmount::Flag(_) => {
                self.err(raw.span(), "expected a number or an expression such as \"1 + T\"");
                Amount::default()
            }
        }
    }

    /// The amount of a Fatigue or Stress line: `true` means damage without a number, i.e. 1
    /// (THR-R108).
    fn damage(&mut self, raw: &Spanned<RawAmount>) -> Amount {
        match raw.get_ref() {
            RawAmount::Flag(true) => Amount::constant(1),
            RawAmount::Flag(false) => {
                self.err(raw.span(), "false deals nothing: leave the line out");
                Amount::default()
            }
            _ => self.amount(raw),
        }
    }

    fn lines(&mut self, raw: &[Spanned<RawLine>]) -> Vec<Line> {
        raw.iter().filter_map(|l| self.line(l)).collect()
    }

    fn line(&mut self, raw: &Spanned<RawLine>) -> Option<Line> {
        let span = raw.span();
        let r = raw.get_ref();
        let mut ops: Vec<Op> = Vec::new();
        if let Some(a) = &r.fatigue {
            ops.push(Op::Fatigue(self.damage(a)));
        }
        if let Some(a) = &r.stress {
            ops.push(Op::Stress(self.damage(a)));
        }
        if let Some(a) = &r.reduce_fatigue {
            ops.push(Op::ReduceFatigue(self.amount(a)));
        }
        if let Some(a) = &r.reduce_stress {
            ops.push(Op::ReduceStress(self.amount(a)));
        }
        if let Some(s) = &r.status {
            match XStatus::parse(s.get_ref()) {
                Some(x) => {
                    let amount = r.x.as_ref().map_or(Amount::constant(1), |a| self.amount(a));
                    ops.push(Op::Status(x, amount));
                }
                None => self.err(
                    s.span(),
                    format!(
                        "unknown status '{}': expected one of bleed, blinded, burning, hamstrung, shocked, slowed, vulnerable, weakened",
                        s.get_ref()
                    ),
                ),
            }
        } else if let Some(x) = &r.x {
            self.err(x.span(), "'x' is only allowed together with 'status'");
        }
        if let Some(c) = &r.condition {
            match Cond::parse(c.get_ref()) {
                Some(c) => ops.push(Op::Condition(c)),
                None => self.err(
                    c.span(),
                    format!(
                        "unknown condition '{}': expected one of dazed, immobilized, disoriented, stunned, hidden, hastened",
                        c.get_ref()
                    ),
                ),
            }
        }
        if let Some(a) = &r.mark {
            ops.push(Op::Mark(self.amount(a)));
        }
        if let Some(a) = &r.scouted {
            ops.push(Op::Scouted(self.amount(a)));
        }
        if let Some(choices) = &r.choose {
            let mut out = Vec::new();
            for c in choices {
                let label = c.get_ref().label.get_ref().clone();
                if !is_word(&label) {
                    self.err(
                        c.get_ref().label.span(),
                        "a choice label must be one word of letters, digits and '-'",
                    );
                }
                let lines = self.lines(&c.get_ref().ops);
                out.push(Choice { label, ops: lines });
            }
            if out.len() < 2 {
                self.err(span.clone(), "'choose' needs at least two options");
            }
            ops.push(Op::Choose(out));
        }
        if let Some(a) = &r.shift {
            ops.push(Op::Shift(self.amount(a)));
        }
        if let Some(a) = &r.push {
            ops.push(Op::Push(self.amount(a)));
        }
        if let Some(a) = &r.pull {
            ops.push(Op::Pull(self.amount(a)));
        }
        for (flag, op) in [
            (r.dash, Op::Dash),
            (r.end_status, Op::EndStatus),
            (r.resuscitate, Op::Resuscitate),
            (r.end_incapacitated, Op::EndIncapacitated),
            (r.remove, Op::Remove),
            (r.incapacity_roll, Op::IncapacityRoll),
        ] {
            if flag == Some(true) {
                ops.push(op);
            }
        }
        if let Some(t) = &r.teleport {
            match t.get_ref().as_str() {
                "movement" => ops.push(Op::Teleport { uses_movement: true }),
                "free" => ops.push(Op::Teleport { uses_movement: false }),
                other => self.err(
                    t.span(),
                    format!("unknown teleport kind '{other}': expected \"movement\" or \"free\""),
                ),
            }
        }
        if let Some(a) = &r.follow {
            ops.push(Op::Follow(self.amount(a)));
        }
        if let Some(a) = &r.initiative {
            ops.push(Op::Initiative(self.amount(a)));
        }
        if let Some(a) = &r.turn_banes {
            ops.push(Op::TurnBanes(self.amount(a)));
        }
        if let Some(a) = &r.fatigue_tolerance {
            ops.push(Op::FatigueTolerance(self.amount(a)));
        }
        if let Some(a) = &r.stress_tolerance {
            ops.push(Op::StressTolerance(self.amount(a)));
        }
        if r.position_minion == Some(true) {
            ops.push(Op::PositionMinion);
        }
        let to = match &r.to {
            None => Recipient::Target,
            Some(t) => match t.get_ref().as_str() {
                "target" => Recipient::Target,
                "self" | "user" => Recipient::User,
                other => {
                    self.err(
                        t.span(),
                        format!("unknown recipient '{other}': expected 'target' or 'self'"),
                    );
                    Recipient::Target
                }
            },
        };
        match ops.len() {
            1 => ops.pop().map(|op| Line {
                op,
                to,
                min_tier: r.min_tier,
            }),
            0 => {
                self.err(
                    span,
                    "a result line needs one operation: fatigue, stress, reduce-fatigue, reduce-stress, status, condition, mark, scouted, choose, shift, push, pull, dash, end-status, resuscitate, end-incapacitated, remove, incapacity-roll, teleport, follow, initiative, turn-banes, fatigue-tolerance, stress-tolerance or position-minion",
                );
                None
            }
            _ => {
                self.err(
                    span,
                    "a result line may hold only one operation; write one table per operation",
                );
                None
            }
        }
    }
}

impl Loader<'_> {
    fn modifiers(&mut self, raw: &[Spanned<RawModifier>]) -> Vec<Modifier> {
        raw.iter().filter_map(|m| self.modifier(m)).collect()
    }

    fn modifier(&mut self, m: &Spanned<RawModifier>) -> Option<Modifier> {
        let span = m.span();
        let m = m.get_ref();
        let roll = match m.roll.get_ref().as_str() {
            "attack" => RollKind::Attack,
            "defence" | "defense" => RollKind::AnyDefence,
            "resilience" => RollKind::Defence(Defence::Resilience),
            "evasion" => RollKind::Defence(Defence::Evasion),
            "resolve" => RollKind::Defence(Defence::Resolve),
            "incapacity" => RollKind::Incapacity,
            "panic" => RollKind::Panic,
            "environment" => RollKind::Environment,
            other => {
                self.err(
                    m.roll.span(),
                    format!(
                        "unknown roll '{other}': expected attack, defence, resilience, evasion, resolve, incapacity, panic or environment"
                    ),
                );
                return None;
            }
        };
        if m.boons == 0 && m.banes == 0 && m.flat.is_none() && !m.per_height {
            self.err(span.clone(), "a modifier needs boons, banes, flat or per-height");
        }
        if m.max_tier.is_some_and(|t| t < m.min_tier) {
            self.err(
                span.clone(),
                "max-tier is below min-tier: the modifier would never apply",
            );
        }
        if m.per_height && roll != RollKind::Attack {
            self.err(span, "per-height applies only to attack rolls");
        }
        let mut when = Vec::new();
        if m.while_hidden {
            when.push(When::Hidden);
        }
        if let Some(d) = &m.no_foe_within {
            when.push(When::NoFoeWithin(self.amount(d)));
        }
        Some(Modifier {
            roll,
            boons: m.boons - m.banes,
            flat: m.flat.as_ref().map_or_else(Amount::default, |f| self.amount(f)),
            min_tier: m.min_tier,
            max_tier: m.max_tier,
            per_height: m.per_height,
            when,
        })
    }

    fn affects(&mut self, raw: &Spanned<String>) -> Affects {
        match raw.get_ref().as_str() {
            "all" | "everyone" => Affects::All,
            "enemies" => Affects::Enemies,
            "allies" => Affects::Allies,
            other => {
                self.err(
                    raw.span(),
                    format!("unknown '{other}': expected all, enemies or allies"),
                );
                Affects::All
            }
        }
    }
}

/// Loads abilities from one TOML file into `book`. Ids must be new; later files may not
/// redefine an id. Follow-up references (`on-defence-critical`) are resolved once every file is
/// loaded, by [`finish_book`].
pub fn load_abilities(
    file: &SourceFile,
    book: &mut AbilityBook,
    pending_refs: &mut Vec<PendingRef>,
) -> Result<(), Vec<Diagnostic>> {
    let raw: RawFile = toml::from_str(&file.text).map_err(|e| vec![toml_diagnostic(file, &e)])?;
    let mut l = Loader {
        file,
        errors: Vec::new(),
    };
    for ra in &raw.ability {
        let a = ra.get_ref();
        let id = a.id.get_ref().clone();
        if !is_word(&id) {
            l.err(
                a.id.span(),
                "an ability id must be one word of letters, digits and '-' (e.g. \"sock-em\")",
            );
        }
        if book.find(&id).is_some() {
            l.err(a.id.span(), format!("ability '{id}' is defined twice"));
        }
        let kind = match a.kind.get_ref().as_str() {
            "action" => Kind::Action,
            "stance" => Kind::Stance,
            "passive" => Kind::Passive,
            "follow-up" => Kind::FollowUp,
            other => {
                l.err(
                    a.kind.span(),
                    format!("unknown type '{other}': expected action, stance, passive or follow-up"),
                );
                Kind::Action
            }
        };
        let attack = a.attack.as_ref().and_then(|s| match s.get_ref().as_str() {
            "physical" => Some(AttackKind::Physical),
            "mental" => Some(AttackKind::Mental),
            "special" => Some(AttackKind::Special),
            other => {
                l.err(
                    s.span(),
                    format!("unknown attack type '{other}': expected physical, mental or special"),
                );
                None
            }
        });
        let art = a.art.as_ref().and_then(|s| {
            let art = Art::parse(s.get_ref());
            if art.is_none() {
                l.err(
                    s.span(),
                    format!(
                        "unknown Art '{}': expected brawling, archery, animism, dueling, ninjutsu, mesmerism, infusion, kineticism or elementalism",
                        s.get_ref()
                    ),
                );
            }
            art
        });
        let (mut ranged, mut finisher, mut buff, mut terrain_effect, mut recover, mut ignores) =
            (false, false, false, false, false, false);
        for t in &a.tags {
            match t.get_ref().as_str() {
                "ranged" => ranged = true,
                "finisher" => finisher = true,
                "buff" => buff = true,
                "terrain-effect" => terrain_effect = true,
                "recover" => recover = true,
                "ignores-enemy-triggers" => ignores = true,
                // An Aura is its target shape (`target = "aura X"`); the tag is accepted as a label.
                "aura" => {
                    if !a.target.as_ref().is_some_and(|t| t.get_ref().starts_with("aura ")) {
                        l.err(t.span(), "the aura tag needs target = \"aura X\"");
                    }
                }
                other => l.err(
                    t.span(),
                    format!("unknown tag '{other}': expected ranged, finisher, buff, terrain-effect, aura, recover or ignores-enemy-triggers"),
                ),
            }
        }
        let reach = match &a.range {
            None => Reach::SelfOnly,
            Some(r) => match r.get_ref() {
                RawAmount::Text(t) if t == "self" => Reach::SelfOnly,
                _ => Reach::Squares(l.amount(r)),
            },
        };
        let target = match &a.target {
            None => TargetSpec::SelfOnly,
            Some(t) => parse_target(t.get_ref()).unwrap_or_else(|m| {
                l.err(t.span(), m);
                TargetSpec::SelfOnly
            }),
        };
        let critical_margin = a.critical_margin.as_ref().map(|m| l.amount(m));
        let effect = l.lines(&a.effect);
        let success = l.lines(&a.success);
        let critical = l.lines(&a.critical);
        let overexert = a
            .overexert
            .iter()
            .map(|o| {
                let o = o.get_ref();
                Overexert {
                    label: o.label.get_ref().clone(),
                    stress: o.stress,
                    area: o.area.as_ref().map(|x| l.amount(x)),
                    successes_are_criticals: o.successes_are_criticals,
                    double_critical: o.double_critical,
                    extra: l.lines(&o.extra),
                    upkeep: o.upkeep,
                }
            })
            .collect();
        let modifiers = l.modifiers(&a.modifiers);
        let mut trigger_range = None;
        let trigger = a.trigger.as_ref().map(|t| {
            let tspan = t.span();
            let t = t.get_ref();
            let on = match t.on.get_ref().as_str() {
                "ally-aims-at-foe" => TriggerOn::AllyAimsAtFoe,
                "foe-aims-at-ally" => TriggerOn::FoeAimsAtAlly,
                "enemy-attacks-self" => TriggerOn::EnemyAttacksSelf,
                "ally-attacked" => TriggerOn::AllyAttacked,
                "start-of-turn" => TriggerOn::StartOfTurn { adjacent_foe: t.adjacent_foe },
                other => {
                    l.err(
                        t.on.span(),
                        format!("unknown trigger '{other}': expected ally-aims-at-foe, foe-aims-at-ally, enemy-attacks-self, ally-attacked or start-of-turn"),
                    );
                    TriggerOn::AllyAttacked
                }
            };
            trigger_range = t.range.as_ref().map(|r| l.amount(r));
            let mut reaction = Vec::new();
            if t.defence_banes != 0 {
                reaction.push(Reaction::DefenceBanes(t.defence_banes));
            }
            if t.defence_boons != 0 {
                reaction.push(Reaction::DefenceBoons(t.defence_boons));
            }
            if let Some(b) = &t.defence_bonus {
                reaction.push(Reaction::DefenceBonus(l.amount(b)));
            }
            if let Some(m) = &t.move_toward {
                reaction.push(Reaction::MoveToward(l.amount(m)));
            }
            if !t.lines.is_empty() {
                let lines = l.lines(&t.lines);
                reaction.push(Reaction::Lines(lines));
            }
            if reaction.is_empty() {
                l.err(tspan, "a trigger needs a reaction: defence-banes, defence-boons, defence-bonus, move-toward or lines");
            }
            let ends_stance = match t.ends_stance.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
                None | Some(("never", _)) => EndsStance::Never,
                Some(("always", _)) => EndsStance::Always,
                Some(("unless-defence-critical", _)) => EndsStance::UnlessDefenceCritical,
                Some((other, span)) => {
                    l.err(span, format!("unknown ends-stance '{other}': expected never, always or unless-defence-critical"));
                    EndsStance::Never
                }
            };
            if let Some(f) = &t.on_defence_critical {
                pending_refs.push(PendingRef {
                    ability: id.clone(),
                    target: f.get_ref().clone(),
                    diag: Diagnostic::at(file, f.span().start, ""),
                });
            }
            Trigger {
                on,
                reaction,
                ends_stance,
                on_defence_critical: None,
            }
        });
        if trigger.is_some() && kind == Kind::Action {
            l.err(a.kind.span(), "only stances and passives can have a trigger");
        }
        if matches!(target, TargetSpec::UpToEnemies(0)) {
            l.err(
                a.target.as_ref().map_or(ra.span(), |t| t.span()),
                "up-to-0-enemies targets nobody",
            );
        }
        let nova = a.nova.as_ref().map(|n| {
            let n_ = n.get_ref();
            let earn = match n_.earn.get_ref().as_str() {
                "round-ends" => NovaEarn::RoundEnds,
                "critical-dealt" => NovaEarn::CriticalDealt,
                "critical-defence" => NovaEarn::CriticalDefence,
                "doubles-on-attack" => NovaEarn::DoublesOnAttack,
                "enemy-incapacitated" => NovaEarn::EnemyIncapacitated,
                other => {
                    l.err(
                        n_.earn.span(),
                        format!("unknown Nova event '{other}': expected round-ends, critical-dealt, critical-defence, doubles-on-attack or enemy-incapacitated"),
                    );
                    NovaEarn::RoundEnds
                }
            };
            if n_.cost == 0 {
                l.err(n.span(), "a Nova cost must be at least 1");
            }
            Nova { cost: n_.cost, earn }
        });
        let buff_spec = a.buff.as_ref().map(|b| {
            let b = b.get_ref();
            let reroll = b
                .reroll
                .iter()
                .filter_map(|r| match r.get_ref().as_str() {
                    "panic" => Some(crate::state::FixedKind::Panic),
                    "incapacity" => Some(crate::state::FixedKind::Incapacity),
                    other => {
                        l.err(
                            r.span(),
                            format!("unknown roll '{other}' to reroll: expected panic or incapacity"),
                        );
                        None
                    }
                })
                .collect();
            BuffSpec {
                defence_bonus: b.defence_bonus.as_ref().map(|x| l.amount(x)),
                reduce_damage: b.reduce_damage,
                reroll,
                uses: b.uses.unwrap_or(1).max(1),
                keep_cost: b.keep_cost,
                modifiers: l.modifiers(&b.modifiers),
            }
        });
        if buff_spec.is_some() != buff {
            l.err(
                a.kind.span(),
                "an ability with a [buff] table needs the \"buff\" tag, and the tag needs the table",
            );
        }
        let terrain = a.terrain.as_ref().map(|t| {
            let t = t.get_ref();
            TerrainSpec {
                difficult: t.difficult.as_ref().map(|d| l.affects(d)),
                on_enter: l.lines(&t.on_enter),
                start_of_turn: l.lines(&t.start_of_turn),
                end_of_turn: l.lines(&t.end_of_turn),
                affects: t.affects.as_ref().map_or(Affects::All, |x| l.affects(x)),
                overexert_start_of_turn: l.lines(&t.overexert_start_of_turn),
                exempt: t.exempt,
            }
        });
        if terrain.is_some() != terrain_effect {
            l.err(
                a.kind.span(),
                "an ability with a [terrain] table needs the \"terrain-effect\" tag, and the tag needs the table",
            );
        }
        let immovable = match a.immovable {
            None | Some(RawImmovable::Flag(false)) => None,
            Some(RawImmovable::Flag(true)) => Some(0),
            Some(RawImmovable::Table { min_tier }) => Some(min_tier),
        };
        let mut upgrades = Vec::new();
        for u in &a.upgrade {
            let u = u.get_ref();
            let name = u.name.get_ref().clone();
            if !is_word(&name) || name.contains('+') {
                l.err(u.name.span(), "an upgrade name must be one word such as \"a\"");
            }
            if upgrades.iter().any(|x: &Upgrade| x.name == name) {
                l.err(u.name.span(), format!("upgrade '{name}' is defined twice"));
            }
            upgrades.push(Upgrade {
                name,
                range: u.range.as_ref().map(|r| l.amount(r)),
                add_effect: l.lines(&u.add_effect),
                add_success: l.lines(&u.add_success),
                add_critical: l.lines(&u.add_critical),
                add_modifiers: l.modifiers(&u.add_modifiers),
            });
        }
        book.abilities.push(Ability {
            name: a.name.clone().unwrap_or_else(|| id.clone()),
            id,
            art,
            kind,
            attack,
            ranged,
            finisher,
            buff,
            terrain_effect,
            recover,
            basic: a.basic,
            requires_option: a.requires_option.clone(),
            reach,
            target,
            ignores_enemy_triggers: ignores,
            critical_margin,
            effect,
            success,
            critical,
            critical_replaces: a.critical_replaces,
            overexert,
            modifiers,
            trigger,
            trigger_range,
            nova,
            buff_spec,
            terrain,
            immovable,
            upgrades,
        });
    }
    if l.errors.is_empty() { Ok(()) } else { Err(l.errors) }
}

/// A reference from one ability to another, resolved after every file is loaded.
pub struct PendingRef {
    ability: String,
    target: String,
    diag: Diagnostic,
}

/// Resolves the references between abilities.
pub fn finish_book(book: &mut AbilityBook, refs: Vec<PendingRef>) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    for r in refs {
        let Some(target) = book.find(&r.target) else {
            let mut d = r.diag;
            d.message = format!("unknown ability '{}'", r.target);
            errors.push(d);
            continue;
        };
        if book.get(target).kind != Kind::FollowUp {
            let mut d = r.diag;
            d.message = format!(
                "'{}' must have type = \"follow-up\" to be used as a follow-up",
                r.target
            );
            errors.push(d);
            continue;
        }
        if let Some(i) = book.find(&r.ability)
            && let Some(t) = book.abilities[i as usize].trigger.as_mut()
        {
            t.on_defence_critical = Some(target);
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

fn parse_target(s: &str) -> Result<TargetSpec, String> {
    let s = s.trim();
    Ok(match s {
        "self" => TargetSpec::SelfOnly,
        "ally" => TargetSpec::Ally,
        "ally-or-self" => TargetSpec::AllyOrSelf,
        "enemy" => TargetSpec::Enemy,
        "character" => TargetSpec::Character,
        "all-enemies" => TargetSpec::AllEnemies,
        "incapacitated-ally" => TargetSpec::IncapacitatedAlly,
        "incapacitated-enemy" => TargetSpec::IncapacitatedEnemy,
        "square" => TargetSpec::Square,
        "line-to-edge" => TargetSpec::LineToEdge,
        _ => {
            if let Some(n) = s.strip_prefix("up-to-").and_then(|r| r.strip_suffix("-enemies")) {
                TargetSpec::UpToEnemies(n.parse().map_err(|_| format!("expected a number in '{s}'"))?)
            } else if let Some(x) = s.strip_prefix("area ") {
                TargetSpec::Area(shape_size(x)?)
            } else if let Some(x) = s.strip_prefix("line ") {
                TargetSpec::Line(shape_size(x)?)
            } else if let Some(x) = s.strip_prefix("aura ") {
                TargetSpec::Aura(shape_size(x)?)
            } else {
                return Err(format!(
                    "unknown target '{s}': expected self, ally, ally-or-self, enemy, character, up-to-N-enemies, all-enemies, incapacitated-ally, incapacitated-enemy, square, 'area X', 'line X', line-to-edge or 'aura X'"
                ));
            }
        }
    })
}

/// The X of Area X, Line X or Aura X: a positive integer (THR-R77), or an expression.
fn shape_size(x: &str) -> Result<Amount, String> {
    let a = Amount::parse(x)?;
    match a.as_const() {
        Some(n) if n < 1 => Err(format!("the size of an area must be a positive integer, not {n}")),
        _ => Ok(a),
    }
}

/// The abilities shipped with fray: the Basic Combat Abilities and example Art and enemy
/// abilities, written for this project.
pub const BUILTIN_FILES: [(&str, &str); 3] = [
    ("<builtin>/basic.toml", include_str!("../data/basic.toml")),
    ("<builtin>/arts.toml", include_str!("../data/arts.toml")),
    ("<builtin>/enemies.toml", include_str!("../data/enemies.toml")),
];

/// Loads the built-in abilities, then extra files.
pub fn build_book(extra: &[SourceFile]) -> Result<AbilityBook, Vec<Diagnostic>> {
    let mut book = AbilityBook::default();
    let mut refs = Vec::new();
    let mut errors = Vec::new();
    let builtin = BUILTIN_FILES.iter().map(|(n, t)| SourceFile {
        name: n.to_string(),
        text: t.to_string(),
    });
    for f in builtin.chain(extra.iter().cloned()) {
        if let Err(mut e) = load_abilities(&f, &mut book, &mut refs) {
            errors.append(&mut e);
        }
    }
    if let Err(mut e) = finish_book(&mut book, refs) {
        errors.append(&mut e);
    }
    if errors.is_empty() { Ok(book) } else { Err(errors) }
}

/// Collects the values of a map in key order (used where determinism matters).
pub fn sorted<K: Ord + Clone, V: Clone>(m: &BTreeMap<K, V>) -> Vec<(K, V)> {
    m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// Checks one ability of a book that did not come from the loader (a record's setup): every
/// index into the book is in range and every number is within
/// ±[`crate::setup::STAT_LIMIT`].
pub fn validate_ability(a: &Ability, n_abilities: usize) -> Result<(), String> {
    let limit = crate::setup::STAT_LIMIT;
    let num = |what: &str, v: i16| -> Result<(), String> {
        if (-limit..=limit).contains(&v) {
            Ok(())
        } else {
            Err(format!("{what} {v} is outside -{limit}..={limit}"))
        }
    };
    let amount = |what: &str, x: &Amount| -> Result<(), String> {
        if x.terms.len() > 16 {
            return Err(format!("{what} has too many terms"));
        }
        for t in &x.terms {
            match *t {
                Term::Const(c) | Term::Times(c, _) => num(what, c)?,
                Term::Half(_) | Term::MinusHalf(_) => {}
            }
        }
        Ok(())
    };
    fn lines(ls: &[Line], amount: &dyn Fn(&str, &Amount) -> Result<(), String>, depth: u8) -> Result<(), String> {
        for l in ls {
            match &l.op {
                Op::Fatigue(x)
                | Op::Stress(x)
                | Op::ReduceFatigue(x)
                | Op::ReduceStress(x)
                | Op::Status(_, x)
                | Op::Mark(x)
                | Op::Scouted(x)
                | Op::Shift(x)
                | Op::Push(x)
                | Op::Pull(x)
                | Op::Follow(x)
                | Op::Initiative(x)
                | Op::TurnBanes(x) => amount("an amount", x)?,
                Op::Choose(cs) => {
                    if depth > 0 || cs.is_empty() || cs.len() > u8::MAX as usize {
                        return Err("a choose line needs 1 to 255 options and cannot nest".into());
                    }
                    for c in cs {
                        lines(&c.ops, amount, depth + 1)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
    let modifiers = |ms: &[Modifier]| -> Result<(), String> {
        for m in ms {
            num("a modifier's Boons", m.boons)?;
            amount("a modifier", &m.flat)?;
            for w in &m.when {
                if let When::NoFoeWithin(x) = w {
                    amount("a modifier's distance", x)?;
                }
            }
        }
        Ok(())
    };
    if let Reach::Squares(x) = &a.reach {
        amount("the range", x)?;
    }
    match &a.target {
        TargetSpec::Area(x) | TargetSpec::Line(x) | TargetSpec::Aura(x) => amount("the shape's size", x)?,
        TargetSpec::UpToEnemies(0) => return Err("\"up to 0 enemies\" targets nobody".into()),
        _ => {}
    }
    if let Some(x) = &a.critical_margin {
        amount("the critical margin", x)?;
    }
    if let Some(x) = &a.trigger_range {
        amount("the trigger range", x)?;
    }
    for ls in [&a.effect, &a.success, &a.critical] {
        lines(ls, &amount, 0)?;
    }
    if a.overexert.len() > u8::MAX as usize {
        return Err("too many Overexert options".into());
    }
    for o in &a.overexert {
        num("an Overexert's Stress", o.stress.unwrap_or(0))?;
        if let Some(x) = &o.area {
            amount("an Overexert's area", x)?;
        }
        lines(&o.extra, &amount, 0)?;
    }
    modifiers(&a.modifiers)?;
    if let Some(t) = &a.trigger {
        if let Some(f) = t.on_defence_critical
            && f as usize >= n_abilities
        {
            return Err(format!("its follow-up {f} does not exist ({n_abilities} abilities)"));
        }
        for r in &t.reaction {
            match r {
                Reaction::DefenceBanes(v) | Reaction::DefenceBoons(v) => num("a reaction's Boons or Banes", *v)?,
                Reaction::DefenceBonus(x) | Reaction::MoveToward(x) => amount("a reaction", x)?,
                Reaction::Lines(ls) => lines(ls, &amount, 0)?,
            }
        }
    }
    if let Some(b) = &a.buff_spec {
        if let Some(x) = &b.defence_bonus {
            amount("a Buff's bonus", x)?;
        }
        num("a Buff's reduction", b.reduce_damage)?;
        num("a Buff's keep cost", b.keep_cost.unwrap_or(0))?;
        modifiers(&b.modifiers)?;
    }
    if let Some(t) = &a.terrain {
        for ls in [
            &t.on_enter,
            &t.start_of_turn,
            &t.end_of_turn,
            &t.overexert_start_of_turn,
        ] {
            lines(ls, &amount, 0)?;
        }
    }
    for u in &a.upgrades {
        if let Some(x) = &u.range {
            amount("an upgrade's range", x)?;
        }
        for ls in [&u.add_effect, &u.add_success, &u.add_critical] {
            lines(ls, &amount, 0)?;
        }
        modifiers(&u.add_modifiers)?;
    }
    Ok(())
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

    #[test]
    fn builtin_abilities_load() {
        let book = build_book(&[]).unwrap();
        assert!(book.find("basic-attack").is_some());
        assert!(book.find("sock-em").is_some());
    }

    #[test]
    fn bad_ability_files_report_line_and_column() {
        let f = SourceFile {
            name: "x.toml".into(),
            text: "[[ability]]\nid = \"zap\"\ntype = \"action\"\ntarget = \"enemy\"\nsuccess = [{ fatigue = 2, stress = 1 }]\nrange = \"far\"\n".into(),
        };
        let mut book = AbilityBook::default();
        let errs = load_abilities(&f, &mut book, &mut Vec::new()).unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!((errs[0].line, errs[0].column), (6, 9));
        assert!(errs[0].message.contains("unknown value 'far'"));
        assert_eq!(errs[1].line, 5);
        assert!(errs[1].message.contains("only one operation"));
        let typo = SourceFile {
            name: "y.toml".into(),
            text: "[[ability]]\nid = \"zap\"\ntype = \"action\"\nsucces = []\n".into(),
        };
        let errs = load_abilities(&typo, &mut AbilityBook::default(), &mut Vec::new()).unwrap_err();
        assert_eq!(errs[0].line, 4);
        assert!(errs[0].message.contains("unknown field"), "{}", errs[0].message);
    }
}
