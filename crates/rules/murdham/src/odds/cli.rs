//! The command line: `fray odds murdham ...` read word by word into one of the calculations, with a
//! sentence naming the bad word on an error ([`parse_and_run`]).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// The grammar of `fray odds murdham`, for error messages.
pub const GRAMMAR: &str = "expected one of: save S [larger|smaller] | group-save S S... | \
contest S S... | damage dN [DAMAGE] [TARGET] | attack dN [hit S] [dodge S] [DAMAGE] [TARGET] | \
counter dN [DAMAGE] [TARGET] vs dN [DAMAGE] [TARGET] | durability [robust]; \
words in any order after the calculation; S is a score up to 19 (0 or less: no save possible); \
dN is d4, d6, d8, d10, d12 or d20; DAMAGE is any of impaired, enhanced (each counts; impaired2 \
and enhanced2 count twice), size tiny|small|medium|large|massive, half, double, armour N, direct; \
TARGET is health H or health h/H, helmet; in a counter the words before vs are the attack and the \
one it hits, after vs the counter and the attacker";

/// Reads `value`, the number after `word`, as a score.
pub(super) fn score_word(word: &str, value: &str) -> Result<i32, String> {
    let n = value
        .parse::<i32>()
        .map_err(|_| format!("{word} {value}: a score is a whole number up to {MAX_SCORE}"))?;
    check_score(word, n)?;
    Ok(n)
}

/// Reads `value`, the number after `word`, as a whole number in `lo..=hi`.
pub(super) fn number(word: &str, value: &str, lo: u32, hi: u32, what: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("{word} {value}: {what} is a whole number from {lo} to {hi}"))
}

/// Reads `h/H` or `H` (full health) after `health`.
pub(super) fn health_word(value: &str) -> Result<(u32, u32), String> {
    let (h, max) = match value.split_once('/') {
        Some((h, max)) => (h, max),
        None => (value, value),
    };
    let max = number("health", max, 1, MAX_HEALTH, "maximum health").map_err(|e| format!("{e} (health h/H or H)"))?;
    let h = number("health", h, 1, max, "health left").map_err(|e| format!("{e} (health h/H or H)"))?;
    Ok((h, max))
}

/// Everything a blow's words can say.
#[derive(Default)]
pub(super) struct BlowWords {
    /// The damage die.
    pub(super) die: Option<Die>,
    /// Impairments counted.
    pub(super) impaired: u8,
    /// Enhancements counted.
    pub(super) enhanced: u8,
    /// The attacker's size.
    pub(super) size: Option<Size>,
    /// A sweep.
    pub(super) half: bool,
    /// A blast at one target.
    pub(super) double: bool,
    /// The armour of the one hit.
    pub(super) armour: Option<u32>,
    /// Direct damage.
    pub(super) direct: bool,
    /// Health left and maximum of the one hit.
    pub(super) health: Option<(u32, u32)>,
    /// A helmet on the one hit.
    pub(super) helmet: bool,
    /// WIT to hit.
    pub(super) hit: Option<i32>,
    /// AGI to dodge.
    pub(super) dodge: Option<i32>,
}

impl BlowWords {
    /// Reads the words of one blow of `command`; `saves` allows `hit S` and `dodge S`.
    pub(super) fn read(command: &str, words: &[&str], saves: bool) -> Result<BlowWords, String> {
        let mut b = BlowWords::default();
        let mut it = words.iter().copied();
        let flag = |set: &mut bool, word: &str| {
            if std::mem::replace(set, true) {
                Err(format!("'{word}' is given twice"))
            } else {
                Ok(())
            }
        };
        while let Some(word) = it.next() {
            if let Some(die) = Die::parse(word) {
                let die = die?;
                if b.die.replace(die).is_some() {
                    return Err(format!("'{word}': a blow rolls one damage die"));
                }
                continue;
            }
            let mut value = |what: &str| it.next().ok_or_else(|| format!("'{word}' needs {what} after it"));
            match word {
                "impaired" => b.impaired = (b.impaired + 1).min(MAX_STEPS),
                "impaired2" => b.impaired = (b.impaired + 2).min(MAX_STEPS),
                "enhanced" => b.enhanced = (b.enhanced + 1).min(MAX_STEPS),
                "enhanced2" => b.enhanced = (b.enhanced + 2).min(MAX_STEPS),
                "half" => flag(&mut b.half, word)?,
                "double" => flag(&mut b.double, word)?,
                "direct" => flag(&mut b.direct, word)?,
                "helmet" => flag(&mut b.helmet, word)?,
                "size" => {
                    let v = value("a size")?;
                    let size = Size::parse(v)
                        .ok_or_else(|| format!("size {v}: a size is tiny, small, medium, large or massive"))?;
                    if b.size.replace(size).is_some() {
                        return Err("'size' is given twice".to_string());
                    }
                }
                "armour" | "armor" => {
                    let v = value("a number")?;
                    let a = number(word, v, 0, MAX_ARMOUR, "armour")?;
                    if b.armour.replace(a).is_some() {
                        return Err("'armour' is given twice".to_string());
                    }
                }
                "health" => {
                    let v = value("h/H or H")?;
                    if b.health.replace(health_word(v)?).is_some() {
                        return Err("'health' is given twice".to_string());
                    }
                }
                "hit" | "dodge" if saves => {
                    let v = value("a score")?;
                    let s = score_word(word, v)?;
                    let slot = if word == "hit" { &mut b.hit } else { &mut b.dodge };
                    if slot.replace(s).is_some() {
                        return Err(format!("'{word}' is given twice"));
                    }
                }
                _ => {
                    let more = if saves { ", hit S, dodge S" } else { "" };
                    return Err(format!(
                        "'{word}' is not understood in '{command}' (expected a die such as d6, impaired, enhanced, size X, half, double, armour N, direct, health h/H, helmet{more})"
                    ));
                }
            }
        }
        if b.helmet && b.health.is_none() {
            return Err("'helmet' only matters with 'health h/H'".to_string());
        }
        Ok(b)
    }

    /// The blow described, which must name its die; `what` names it in messages.
    pub(super) fn blow(&self, what: &str) -> Result<Blow, String> {
        let die = self
            .die
            .ok_or_else(|| format!("{what} needs a damage die (d4, d6, d8, d10, d12 or d20)"))?;
        let damage = DamageSpec {
            die,
            impaired: self.impaired,
            enhanced: self.enhanced,
            size: self.size.unwrap_or(Size::Medium),
            half: self.half,
            double: self.double,
            armour: self.armour.unwrap_or(0),
            direct: self.direct,
        };
        let target = self.health.map(|(health, max_health)| Target {
            health,
            max_health,
            helmet: self.helmet,
        });
        Ok(Blow { damage, target })
    }
}

/// Reads every word as a score, for group saves and contests.
pub(super) fn scores(command: &str, words: &[&str]) -> Result<Vec<i32>, String> {
    words
        .iter()
        .map(|w| {
            w.parse::<i32>()
                .map_err(|_| format!("'{w}' is not understood in '{command}' (expected scores)"))
                .and_then(|s| check_score("a score of", s).map(|()| s))
        })
        .collect()
}

/// Serialises a result and tags it with its kind.
pub(super) fn to_json(kind: &str, value: &impl Serialize) -> Result<serde_json::Value, String> {
    let mut v = serde_json::to_value(value).map_err(|e| format!("cannot write the odds as JSON: {e}"))?;
    if let serde_json::Value::Object(map) = &mut v {
        map.insert("kind".to_string(), serde_json::Value::from(kind));
    }
    Ok(v)
}

/// Runs `fray odds murdham ARGS...`: reads the calculation (see [`GRAMMAR`]) and returns its
/// text and JSON (an object with a `kind`: `save`, `group-save`, `contest`, `damage`, `attack`,
/// `counter` or `durability`). Every error names the word at fault and ends with the grammar.
pub fn parse_and_run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    run(args).map_err(|e| format!("{e}; {GRAMMAR}"))
}

/// [`parse_and_run`] without the grammar in its errors.
pub(super) fn run(args: &[String]) -> Result<(String, serde_json::Value), String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let Some((&command, rest)) = words.split_first() else {
        return Err("nothing to work out".to_string());
    };
    match command {
        "save" => {
            let mut score = None;
            let mut edge = None;
            for &w in rest {
                let e = match w {
                    "larger" => Some(SizeEdge::Larger),
                    "smaller" => Some(SizeEdge::Smaller),
                    _ => None,
                };
                if let Some(e) = e {
                    if edge.replace(e).is_some() {
                        return Err(format!("'{w}': say larger or smaller once"));
                    }
                } else if let Ok(n) = w.parse::<i32>() {
                    check_score("a score of", n)?;
                    if score.replace(n).is_some() {
                        return Err(format!("'{w}': a save has one score"));
                    }
                } else {
                    return Err(format!(
                        "'{w}' is not understood in 'save' (expected a score, larger or smaller)"
                    ));
                }
            }
            let score = score.ok_or("'save' needs a score")?;
            let o = save(score, edge)?;
            Ok((save_text(&o), to_json("save", &o)?))
        }
        "group-save" => {
            let o = group_save(&scores(command, rest)?)?;
            Ok((group_save_text(&o), to_json("group-save", &o)?))
        }
        "contest" => {
            let o = contest(&scores(command, rest)?)?;
            Ok((contest_text(&o), to_json("contest", &o)?))
        }
        "damage" => {
            let b = BlowWords::read(command, rest, false)?.blow("'damage'")?;
            let o = damage(&b.damage, b.target)?;
            Ok((damage_text(&o), to_json("damage", &o)?))
        }
        "attack" => {
            let w = BlowWords::read(command, rest, true)?;
            let b = w.blow("'attack'")?;
            let spec = AttackSpec {
                damage: b.damage,
                hit: w.hit,
                dodge: w.dodge,
                target: b.target,
            };
            let o = attack(&spec)?;
            Ok((attack_text(&o), to_json("attack", &o)?))
        }
        "counter" => {
            let split = rest
                .iter()
                .position(|&w| w == "vs")
                .ok_or("'counter' needs 'vs' between the attack and the counter")?;
            let (before, after) = (&rest[..split], &rest[split + 1..]);
            if after.contains(&"vs") {
                return Err("'vs' is given twice: a counter has one attack and one counter".to_string());
            }
            let a = BlowWords::read(command, before, false)?.blow("the attack (before 'vs')")?;
            let c = BlowWords::read(command, after, false)?.blow("the counter (after 'vs')")?;
            let o = counter(&a, &c)?;
            Ok((counter_text(&o), to_json("counter", &o)?))
        }
        "durability" => {
            let robust = match rest {
                [] => false,
                ["robust"] => true,
                [w, ..] if *w != "robust" => {
                    return Err(format!("'{w}' is not understood in 'durability' (expected robust)"));
                }
                _ => return Err("'durability' takes robust once at most".to_string()),
            };
            let o = durability(robust);
            Ok((durability_text(&o), to_json("durability", &o)?))
        }
        other => Err(format!("'{other}' is not a calculation")),
    }
}
