//! Validation of a setup that did not come from the loader: a record is untrusted input.
//!
//! The decision behind this module: a record's setup is checked as strictly as the loader
//! checks a file (every index into the setup's own tables, the team order, surprise, the
//! opening action's character, squares on the map, dice, and numbers within
//! [`super::NUMBER_LIMIT`]), so that nothing loaded from a record can make the rules panic.

use crate::data::{Cond, ItemId};

use super::{CharInfo, MAX_COMBATANTS, MAX_TEAMS, NUMBER_LIMIT, Objective, Setup, is_die, is_word, within_limit};

impl Setup {
    /// Checks everything the rules rely on, as strictly as [`load`](super::load) does: every index into the
    /// setup's own tables (teams, seats, items, armour, combatants), the team order, surprise,
    /// the opening action's character, squares on the map, dice, and numbers within
    /// [`NUMBER_LIMIT`]. A setup read from a record is untrusted: this is what keeps an edited
    /// record from reaching code that would index out of bounds.
    pub fn validate(&self) -> Result<(), String> {
        let seats = self.seats.len();
        if seats == 0 || self.seats[0] != "gm" || seats > usize::from(u8::MAX) {
            return Err("the seat list must start with 'gm' and have at most 255 seats".into());
        }
        if self.teams.len() < 2 || self.teams.len() > MAX_TEAMS {
            return Err(format!(
                "an encounter has 2 to {MAX_TEAMS} teams, not {}",
                self.teams.len()
            ));
        }
        for (k, t) in self.teams.iter().enumerate() {
            if usize::from(t.seat.0) >= seats {
                return Err(format!("team '{}' has seat {}, which does not exist", t.id, t.seat.0));
            }
            if self.teams[..k].iter().any(|o| o.id == t.id) {
                return Err(format!("team '{}' is defined twice", t.id));
            }
        }
        if self.chars.is_empty() {
            return Err("the encounter has no combatants".into());
        }
        if self.chars.len() > MAX_COMBATANTS {
            return Err(format!("at most {MAX_COMBATANTS} combatants are supported"));
        }
        let teams = self.teams.len();
        for (k, &t) in self.order.iter().enumerate() {
            if usize::from(t) >= teams {
                return Err(format!("the team order names team {t}, which does not exist"));
            }
            if self.order[..k].contains(&t) {
                return Err(format!(
                    "the team order lists team '{}' twice",
                    self.teams[usize::from(t)].id
                ));
            }
        }
        if let Some(t) = self.surprise
            && usize::from(t) >= teams
        {
            return Err(format!("surprise names team {t}, which does not exist"));
        }
        for (k, c) in self.chars.iter().enumerate() {
            self.validate_char(c, true)
                .map_err(|m| format!("combatant {} ('{}'): {m}", k + 1, c.id))?;
            if !self.order.contains(&c.team) {
                return Err(format!(
                    "combatant '{}' is on a team without a slot in the team order",
                    c.id
                ));
            }
            if let Some(o) = self.chars[..k].iter().find(|o| o.id.eq_ignore_ascii_case(&c.id)) {
                return Err(format!(
                    "combatant ids '{}' and '{}' are the same (ids ignore case)",
                    o.id, c.id
                ));
            }
            if self.chars[..k].iter().any(|o| o.at == c.at) {
                return Err(format!(
                    "combatant '{}' starts on {}, where another one stands",
                    c.id, c.at
                ));
            }
        }
        for (name, c) in &self.templates {
            self.validate_char(c, false)
                .map_err(|m| format!("template '{name}': {m}"))?;
        }
        for t in &self.teams {
            match &t.objective {
                None | Some(Objective::Survive { .. }) => {}
                Some(Objective::Down { who }) => {
                    if usize::from(*who) >= self.chars.len() {
                        return Err(format!(
                            "team '{}': its objective names combatant {who}, which does not exist",
                            t.id
                        ));
                    }
                }
                Some(Objective::Reach { squares, who }) => {
                    if who.is_some_and(|w| usize::from(w) >= self.chars.len()) {
                        return Err(format!(
                            "team '{}': its objective names a combatant that does not exist",
                            t.id
                        ));
                    }
                    if squares.is_empty() || squares.iter().any(|p| !self.map.contains(*p)) {
                        return Err(format!("team '{}': its objective's squares must be on the map", t.id));
                    }
                }
            }
        }
        if let Some(o) = &self.opening {
            let Some(c) = self.chars.get(usize::from(o.who)) else {
                return Err(format!(
                    "the opening action names combatant {}, which does not exist",
                    o.who
                ));
            };
            if self.order.first() != Some(&c.team) {
                return Err(format!(
                    "the opening action's character '{}' must be on the team that started the fight",
                    c.id
                ));
            }
        }
        for it in &self.armoury.items {
            let bad = |m: &str| Err(format!("item '{}': {m}", it.id));
            for (what, v) in [
                ("damage", it.damage),
                ("critical damage", it.critical_damage),
                ("range", it.range),
                ("durability", it.durability),
                ("parry", it.parry.unwrap_or(0)),
                ("block", it.block.unwrap_or(0)),
            ] {
                within_limit(what, v).map_err(|m| format!("item '{}': {m}", it.id))?;
            }
            if it.weapon && it.attributes.is_empty() {
                return bad("a weapon needs attributes");
            }
            if !(1..=40).contains(&it.critical_threshold) {
                return bad("critical threshold must be between 1 and 40");
            }
            if it.range < 1 {
                return bad("range must be at least 1");
            }
            if !(1..=2).contains(&it.hands) {
                return bad("hands must be 1 or 2");
            }
            if it.durability < 0 {
                return bad("durability cannot be negative");
            }
        }
        for a in &self.armoury.armour {
            within_limit("rating", a.rating).map_err(|m| format!("armour '{}': {m}", a.id))?;
        }
        Ok(())
    }

    /// One combatant or template: its team, seat, square, stats, items and starting state.
    fn validate_char(&self, c: &CharInfo, placed: bool) -> Result<(), String> {
        if !is_word(&c.id) && placed {
            return Err("an id must be one word of letters, digits and '-'".into());
        }
        if usize::from(c.team) >= self.teams.len() {
            return Err(format!("team {} does not exist", c.team));
        }
        if usize::from(c.seat.0) >= self.seats.len() {
            return Err(format!("seat {} does not exist", c.seat.0));
        }
        if placed && (!self.map.contains(c.at) || self.map.get(c.at).is_some_and(|x| x.blocked)) {
            return Err(format!("square {} is not an open square of the map", c.at));
        }
        let st = &c.stats;
        if !(1..=12).contains(&st.size) {
            return Err(format!("size {} is outside 1 to 12", st.size));
        }
        if st.attrs.iter().any(|d| !is_die(*d)) || st.skills.iter().any(|(_, d)| !is_die(*d)) {
            return Err("attribute and skill dice are d4, d6, d8, d10 or d12".into());
        }
        for (what, v) in [
            ("health", st.health),
            ("endurance", st.endurance),
            ("stamina", st.stamina),
            ("focus", st.focus),
        ] {
            if !(1..=NUMBER_LIMIT).contains(&v) {
                return Err(format!("maximum {what} is {v}; it runs from 1 to {NUMBER_LIMIT}"));
            }
        }
        for (what, v) in [
            ("constitution", st.constitution),
            ("evasion", st.evasion),
            ("willpower", st.willpower),
            ("deflection", st.deflection),
            ("elemental deflection", st.elemental_deflection),
            ("speed", st.speed),
            ("luck modifier", st.luck_modifier),
        ] {
            within_limit(what, v)?;
        }
        for (p, b) in &st.profs {
            within_limit(&format!("proficiency {p}"), *b)?;
        }
        if let Some(a) = c.armour
            && a >= self.armoury.armour.len()
        {
            return Err(format!("armour {a} does not exist"));
        }
        let s = &c.start;
        for (what, v, max) in [
            ("health", s.health, st.health),
            ("endurance", s.endurance, st.endurance),
            ("stamina", s.stamina, st.stamina),
            ("focus", s.focus, st.focus),
        ] {
            if !(0..=max).contains(&v) {
                return Err(format!("current {what} is {v}; it must be 0 to {max}"));
            }
        }
        within_limit("death difficulty", s.death_difficulty)?;
        let all_conds = Cond::ALL.iter().fold(0u16, |a, c| a | c.bit());
        if s.conditions & !all_conds != 0 {
            return Err("unknown condition bits".into());
        }
        let n = self.armoury.items.len();
        let known = |i: &ItemId| usize::from(*i) < n;
        if !s.items.iter().all(known) || !s.held.iter().all(known) || !s.unloaded.iter().all(known) {
            return Err(format!("an item index is not one of the {n} items"));
        }
        if s.items.len() > usize::from(u8::MAX) {
            return Err("at most 255 items per combatant".into());
        }
        for h in &s.held {
            let carried = s.items.iter().filter(|i| *i == h).count();
            let in_hand = s.held.iter().filter(|i| *i == h).count();
            if in_hand > carried {
                return Err(format!(
                    "'{}' is held more times than it is carried",
                    self.armoury.item(*h).id
                ));
            }
        }
        let hands: u16 = s.held.iter().map(|h| u16::from(self.armoury.item(*h).hands)).sum();
        if hands > 2 {
            return Err("the held items need more than two hands".into());
        }
        for (i, d) in &s.durability {
            if !known(i) || !s.items.contains(i) {
                return Err("a damaged item is not one of its items".into());
            }
            let max = self.armoury.item(*i).durability;
            if !(0..=max).contains(d) {
                return Err(format!(
                    "durability of '{}' must be 0 to {max}",
                    self.armoury.item(*i).id
                ));
            }
        }
        Ok(())
    }
}
