//! Loading abilities from TOML (THR-R223, THR-R224): every problem is reported with file, line
//! and column; and the checks of a book that did not come from the loader (a record's setup).

use super::{
    Ability, AbilityBook, Affects, Amount, Art, AttackKind, BuffSpec, Choice, Cond, Defence, EndsStance, Kind, Line,
    Modifier, Nova, NovaEarn, Op, Overexert, Reach, Reaction, Recipient, RollKind, TargetSpec, Term, TerrainSpec,
    Trigger, TriggerOn, Upgrade, When, XStatus,
};
use fray_engine::diag::{Diagnostic, SourceFile};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

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
            // THR-R108: damage given without a number is 1.
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
        // THR-R224: the upgrades a, b, c... are kept as patches on the base record (a range,
        // lines and modifiers added), applied when an upgraded id is asked for.
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
        // THR-R223: the record: Art, type, attack kind and tags, range, target, an optional
        // trigger, the Special text as fields of its own (margins, exemptions, Buff and Terrain
        // parts), and the Effect, Success, Critical and Overexert lines.
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
    // THR-R77: a fixed X of Area X, Line X or Aura X must be a positive integer.
    match a.as_const() {
        Some(n) if n < 1 => Err(format!("the size of an area must be a positive integer, not {n}")),
        _ => Ok(a),
    }
}

/// The abilities shipped with fray: the Basic Combat Abilities and example Art and enemy
/// abilities, written for this project.
pub const BUILTIN_FILES: [(&str, &str); 3] = [
    ("<builtin>/basic.toml", include_str!("../../data/basic.toml")),
    ("<builtin>/arts.toml", include_str!("../../data/arts.toml")),
    ("<builtin>/enemies.toml", include_str!("../../data/enemies.toml")),
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
