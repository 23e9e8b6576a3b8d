//! Attacks and damage: the rule tests of this section of the rules file.

use super::*;

#[test]
fn ein_r21_r25_the_actions_of_attacks_and_defences() {
    use fray_einfelst::data::Action;
    let actions = |t: &Table<Einfelst>| -> Vec<Action> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Tested { action, .. } => *action,
                _ => None,
            })
            .collect()
    };
    // Armed: Strike; the armed defender parries with Strike.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Strike]);
    // Unarmed: Force; an unarmed defender parries with Force.
    let mut t = duel("", "", "weapons = []", 1, 5);
    t.cmd("punch bo");
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Force, Action::Force]);
    // Ranged: Shoot, dodged with Finesse; a dodge is refused against close combat.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.expect_rejection(GM, "parry", codes::BAD_REACTION);
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("dodge");
    assert_eq!(actions(&t), vec![Action::Shoot, Action::Finesse]);
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
}

#[test]
fn ein_r23_extra_successes_on_damage_or_a_swap() {
    // Sword (2), 3 successes, no defence: both extras on damage: 4 Harm.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 4);
    // One on damage, one on a swap: 3 Harm and the swap.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend swap=5");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    assert_eq!(card_of(&t, "bo"), vec![1]);
}

#[test]
fn ein_r24_h13_harm_points_cost_dice_on_later_tests() {
    // bo: a 5-dice Strike pool (Strength 3 + Strike 2), Harm points.
    let bo = "harm = \"points\"\nharm-capacity = 5\nattributes = { strength = 3, dexterity = 2, intuition = 2, reason = 2, presence = 2 }\nactions = { strike = 2, finesse = 1 }";
    let mut t = duel("", "", bo, 1, 5);
    t.cmd("strike bo");
    t.dice(&hits(2, 3)).cmd("pass");
    t.cmd("spend"); // 2 + 1 = 3 Harm points
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    t.cmd("end");
    t.cmd("strike ash");
    t.dice(&cat(&[hits(0, 2)])).cmd("pass");
    assert_eq!(tests(&t), vec![(2, 0)]); // 5 dice − 3
    // EIN-H13: beyond its capacity it is out.
    t.cmd("end");
    t.cmd("strike bo");
    t.dice(&hits(3, 3)).cmd("pass");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).status, Status::Incapacitated);
}

#[test]
fn ein_r26_defence_successes_cancel_attack_successes() {
    // Sword (2), Strike 3, parry 1: 2 left, 1 extra: 3 Physical Harm on damage.
    let mut t = duel("", "", "harm = \"points\"\nharm-capacity = 9", 1, 5);
    t.cmd("strike bo");
    t.dice(&cat(&[hits(3, 3), hits(1, 3)])).cmd("parry");
    t.cmd("spend");
    assert_eq!(t.state().ch(id(&t, "bo")).harm.points, 3);
    // In the dark Shoot needs 2: Shoot 2, dodge 1: 1 left, a miss.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    )
    .replacen("player-sides", "circumstances = [\"dark\"]\nplayer-sides", 1);
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    t.dice(&cat(&[hits(2, 3), hits(1, 3)])).cmd("dodge");
    assert!(t.log().iter().any(|l| l.contains("Miss")), "{:?}", t.log());
}

#[test]
fn ein_r25_h10_h14_the_reaction_prompt_names_only_the_reactions_allowed_and_a_refusal_says_why() {
    // Close combat: parry, not dodge.
    let mut t = duel("", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: parry or pass (before the roll)");
    assert_eq!(t.legal(), vec!["parry", "pass"]);
    let r = t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
    assert!(r.reason.contains("close combat is parried, not dodged"), "{}", r.reason);
    assert!(r.reason.contains("dodge-melee"), "{}", r.reason);
    let r = t.expect_rejection(GM, "resist", codes::BAD_REACTION);
    assert!(r.reason.contains("resist answers a spell"), "{}", r.reason);
    // With dodge-melee, both.
    let mut t = duel("dodge-melee = true", "", "", 1, 5);
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: dodge, parry or pass (before the roll)");
    // A shot: dodge, not parry.
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", "weapons = [\"shortbow\"]"),
            who("bo", "foes", "b", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    t.cmd("shoot bo");
    assert_eq!(prompt(&t), "ash attacks bo: dodge or pass (before the roll)");
    let r = t.expect_rejection(GM, "parry", codes::BAD_REACTION);
    assert!(r.reason.contains("cannot be parried: dodge it"), "{}", r.reason);
    // The defence's roll names the reaction.
    t.dice(&cat(&[hits(0, 3), hits(0, 3)])).cmd("dodge");
    let full = full_log(&t);
    assert!(
        full.contains(&"bo rolls 3 dice (finesse) to dodge [1, 1, 1]: 0 successes".to_string()),
        "{full:?}"
    );
    // A grapple: break-free. A restrained creature: parry only, and a dodge says why.
    let mut t = duel("dodge-melee = true", "", "", 1, 5);
    t.cmd("grapple bo");
    assert_eq!(prompt(&t), "ash attacks bo: break-free or pass (before the roll)");
    t.dice(&hits(1, 3)).cmd("pass");
    t.cmd("end");
    t.cmd("end");
    t.cmd("strike bo");
    assert_eq!(prompt(&t), "ash attacks bo: parry or pass (before the roll)");
    let r = t.expect_rejection(GM, "dodge", codes::BAD_REACTION);
    assert!(
        r.reason.contains("bo is restrained: it may parry, but not dodge"),
        "{}",
        r.reason
    );
}

#[test]
fn ein_r21_r25_a_natural_weapon_is_the_creature_s_own_and_rolls_its_action() {
    use fray_einfelst::data::Action;
    let actions = |t: &Table<Einfelst>| -> Vec<Action> {
        t.last
            .iter()
            .filter_map(|e| match e {
                Event::Tested { action, .. } => *action,
                _ => None,
            })
            .collect()
    };
    let pts = "harm = \"points\"\nharm-capacity = 9";
    // bo bites (Force by default).
    let mut t = duel("", pts, &format!("weapons = [\"bite\"]\n{pts}"), 1, 5);
    // Struck, it parries with its bite (Force), and the bite cannot be knocked away.
    t.cmd("strike bo");
    t.dice(&cat(&[hits(3, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Force]);
    let r = t.expect_rejection(PCS, "spend disarm", codes::BAD_SPEND);
    assert!(r.reason.contains("not a bite or claws"), "{}", r.reason);
    t.cmd("spend");
    let bite = t.state().weapon_ids.iter().position(|w| w == "bite").map(|i| i as u8);
    assert_eq!(t.state().ch(1).wield, bite);
    t.cmd("end");
    // Its turn: it strikes with the bite; it does not punch, nor put the bite away.
    assert!(t.legal().contains(&"strike ash".to_string()));
    assert!(!t.legal().contains(&"punch ash".to_string()));
    let r = t.expect_rejection(GM, "punch ash", codes::NO_WEAPON);
    assert!(r.reason.contains("fights with its bite"), "{}", r.reason);
    t.expect_rejection(GM, "draw unarmed", codes::NO_WEAPON);
    t.cmd("strike ash");
    assert!(
        t.log().iter().any(|l| l == "bo attacks ash with its bite"),
        "{:?}",
        t.log()
    );
    // bo's pool: 3 dice less its 4 Harm points, the least pool (1).
    t.dice(&cat(&[hits(1, 1), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Force, Action::Strike]);
    assert_eq!(t.state().ch(0).harm.points, 1); // the bite's 1
    // A natural weapon that says Strike is rolled with Strike.
    let talons = "[weapon.talons]\nname = \"talons\"\nkind = \"natural\"\ndamage = 2\naction = \"strike\"\n";
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", pts),
            who("bo", "foes", "a", "weapons = [\"talons\"]"),
            talons.to_string(),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[5, 1]));
    t.cmd("strike ash");
    t.dice(&cat(&[hits(1, 3), hits(0, 3)])).cmd("parry");
    assert_eq!(actions(&t), vec![Action::Strike, Action::Strike]);
    assert_eq!(t.state().ch(0).harm.points, 2);
}

#[test]
fn the_prompt_leaves_closing_in_on_an_ally_to_choices_all() {
    use fray_engine::text::{AnyGame, TextGame, TextRuleset};
    let toml = enc(
        "",
        &[
            who("ash", "pcs", "a", ""),
            who("cy", "pcs", "a", ""),
            who("bo", "foes", "a", ""),
        ]
        .concat(),
    );
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 2, 5]));
    t.type_as(PCS, "ready");
    assert_eq!(turn(&t), "ash");
    // Legal (closing in on anyone in the zone is), but only the foe is offered.
    let (cy, bo) = (id(&t, "cy"), id(&t, "bo"));
    let close = fray_einfelst::command::Command::Close;
    assert!(Einfelst::prompt_hides(t.state(), &close(cy)));
    assert!(!Einfelst::prompt_hides(t.state(), &close(bo)));
    let strike = fray_einfelst::command::Command::Strike(bo);
    assert!(!Einfelst::prompt_hides(t.state(), &strike));
    let g = TextGame::new(t.game);
    let p = g.pending().expect("ash's turn");
    let listed = |c: &str| {
        let i = p
            .choices
            .iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("{c} not legal"));
        !p.hidden[i]
    };
    assert!(listed("close bo") && listed("strike bo"));
    assert!(!listed("close cy"), "close cy is listed only by `choices all`");
    assert_eq!(p.hidden.iter().filter(|h| **h).count(), 1);
    assert_eq!(p.flag_words, ["mental", "disarm", "pin", "silence"]);
}

#[test]
fn a_mistyped_zone_creature_weapon_or_spell_names_the_near_miss() {
    let toml = enc("", &[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")].concat())
        + "[spell.hex]\nname = \"hex\"\ndamage = 1\nresist = \"endure\"\n[template.wolf]\nname = \"wolf\"\n";
    let mut t = Table::<Einfelst>::load(&toml, &[], &cards(&[1, 5]));
    let unreadable = fray_engine::Reject::UNKNOWN_COMMAND;
    let r = t.expect_rejection(PCS, "strike boo", unreadable);
    assert_eq!(r.reason, "no creature 'boo' (did you mean 'bo'?)");
    let r = t.expect_rejection(PCS, "move bb", unreadable);
    assert!(
        r.reason.starts_with("no zone 'bb' (did you mean 'b'?); the zones are"),
        "{}",
        r.reason
    );
    let r = t.expect_rejection(PCS, "draw swrod", unreadable);
    assert_eq!(r.reason, "no weapon 'swrod' (did you mean 'sword'?)");
    let r = t.expect_rejection(PCS, "cast hx bo", unreadable);
    assert_eq!(r.reason, "no spell 'hx' (did you mean 'hex'?)");
    let r = t.expect_rejection(PCS, "flee finese", unreadable);
    assert!(r.reason.contains("(did you mean 'finesse'?)"), "{}", r.reason);
    // Nothing near: no guess.
    let r = t.expect_rejection(PCS, "strike zzzzzz", unreadable);
    assert_eq!(r.reason, "no creature 'zzzzzz'");
    let r = t.expect_rejection(GM, "gm add wolf-9 wlf foes a", codes::BAD_RULING);
    assert_eq!(r.reason, "no template 'wlf' (did you mean 'wolf'?)");
}
