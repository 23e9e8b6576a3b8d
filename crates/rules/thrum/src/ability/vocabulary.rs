//! The game's vocabulary: attributes, Combat Arts, statuses with an X (THR-R202 to THR-R212),
//! the other conditions (THR-R213 to THR-R221), ability types, attack types and defences
//! (THR-R94 to THR-R104).

use serde::{Deserialize, Serialize};

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
