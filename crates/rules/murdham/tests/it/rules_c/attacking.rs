//! Attacking: the rule tests of this section of the rules file.

use super::*;

#[test]
fn mur_r15_an_indirect_attack_fires_over_the_cover_its_target_holds() {
    // ash two zones off `a`, where `hid` holds a cover spot and `out` stands in the open.
    let shot = |weapon: &str, options: &str| {
        let chars = [
            who("ash", "pcs", "c", &format!("wield = [\"{weapon}\"]")),
            who("hid", "foes", "a", "cover = true"),
            who("out", "foes", "a", ""),
        ]
        .concat();
        let toml = enc(&chars).replace(
            "opener = \"initiative\"",
            &format!("opener = \"initiative\"\n{options}"),
        );
        let mut t = Table::<Murdham>::load(&toml, &[], &[]);
        t.cmd("act ash");
        // Range 2, beyond half range: a save (5 passes); both are hit by the one roll of 4.
        t.dice(&[5]).cmd(&format!("attack a with {weapon}"));
        t.dice(&[4]).cmd("take");
        t.cmd("take");
        t.assert_dice_used();
        t.assert_replays();
        (ch(&t, "hid").health, ch(&t, "out").health)
    };
    // A direct blast: the cover takes 1 off.
    assert_eq!(shot("bomb", ""), (7, 6));
    // An indirect one comes down over it.
    assert_eq!(shot("shell", ""), (6, 6));
    // fray 0.1.0's reading: the cover counts against it too.
    assert_eq!(shot("shell", "indirect-over-cover = false"), (7, 6));
}

#[test]
fn mur_health_an_injured_arm_holds_nothing_and_what_it_held_goes_to_the_other_hand() {
    // An earlier fight's injury: the sword is held in the other hand (impaired, MUR-R17).
    let mut t = table(&[
        who(
            "ash",
            "pcs",
            "a",
            "injuries = [\"main-arm\"]\nwield = [\"martial-hand\"]\ncarry = [\"shield\", \"acid\"]",
        ),
        who("bo", "foes", "a", ""),
    ]);
    assert_eq!(ch(&t, "ash").hands, [None, Some(0)]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "equip shield", codes::HANDS_FULL);
    t.expect_rejection(PCS, "grapple bo with unarmed", codes::HANDS_FULL);
    // The sword in the other hand: impaired, the lower of 3 and 5.
    t.cmd("attack bo");
    t.dice(&[3, 5]).cmd("take");
    assert_eq!(damage(&t), [("bo".to_string(), 3)]);
    // With both arms of no use it holds nothing, throws nothing and drinks nothing.
    let mut t = table(&[
        who(
            "ash",
            "pcs",
            "a",
            "injuries = [\"main-arm\", \"other-arm\"]\nwield = [\"martial-hand\"]\ncarry = [\"acid\", \"healing-draught\"]",
        ),
        who("bo", "foes", "a", ""),
    ]);
    assert_eq!(ch(&t, "ash").hands, [None, None]);
    t.cmd("act ash");
    t.expect_rejection(PCS, "attack bo with acid", codes::HANDS_FULL);
    t.expect_rejection(PCS, "use healing-draught", codes::HANDS_FULL);
    t.expect_rejection(PCS, "equip martial-hand off", codes::HANDS_FULL);
    t.assert_dice_used();
}

#[test]
fn mur_health_injury_6_costs_an_eye_halving_ranged_reach_and_a_second_blinds() {
    let mut t = dying_bo("");
    t.dice(&[6]).type_as(GM, "gm heal bo 1");
    assert_eq!(
        t.log()[2],
        "bo is saved but injured (d6 6): an eye lost (ranged attacks and powers at half range) until a full rest"
    );
    assert_eq!(ch(&t, "bo").injuries.eyes, 1);
    let log = hurt_and_save_bo(&mut t, "cy", &[6]);
    assert_eq!(
        log.last().map(String::as_str),
        Some("bo is saved but injured (d6 6): blind until a full rest")
    );
    assert!(ch(&t, "bo").injuries.blind());
    t.assert_dice_used();
    t.assert_replays();

    // One eye: the bow reaches 4 (half its 8), and needs a save beyond 2.
    let archer = |injury: &str| {
        let mut t = table(&[
            who(
                "ash",
                "pcs",
                "a",
                &format!("injuries = [\"{injury}\"]\nwield = [\"missile-great\"]"),
            ),
            who("bo", "foes", "a", ""),
            who("dee", "foes", "d", ""),
        ]);
        t.cmd("act ash");
        t
    };
    let mut t = archer("eye");
    // dee is at range 3: within 4, beyond 2: a WIT save (4 passes).
    t.dice(&[4]).cmd("attack dee");
    assert_eq!(saves(&t), [("ash".to_string(), 4, true)]);
    t.assert_dice_used();
    // Blind: no ranged attack at all; a blow at a nearby bo needs a WIT save; it sees nobody.
    let mut t = archer("blind");
    t.expect_rejection(PCS, "attack dee", codes::CONDITION);
    t.dice(&[4]).cmd("attack bo with unarmed");
    assert_eq!(saves(&t), [("ash".to_string(), 4, true)]);
    t.assert_dice_used();
    let mut t = archer("blind");
    t.expect_rejection(PCS, "taunt bo", codes::BAD_TARGET);
}

#[test]
fn mur_health_injuries_leave_nothing_but_their_ability_loss_with_injury_effects_off() {
    // fray 0.1.0's reading: no d2, no condition.
    let mut t = dying_bo("injury-effects = false");
    t.dice(&[5]).type_as(GM, "gm heal bo 1");
    assert_eq!(t.log()[2], "bo is saved; the injury (d6 5) leaves nothing fray tracks");
    assert!(ch(&t, "bo").injuries.none());
    t.assert_dice_used();
    let mut t = dying_bo("injury-effects = false");
    t.dice(&[4, 1]).type_as(GM, "gm heal bo 1");
    assert!(!ch(&t, "bo").injuries.hobbled);
    assert_eq!(ch(&t, "bo").stats.abilities[1], 9);
    t.assert_dice_used();
}

#[test]
fn gm_enhance_and_impair_rule_the_next_hit_on_a_character() {
    let chars = [
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("cy", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "a", ""),
        who("dee", "foes", "a", ""),
    ];
    let mut t = table(&chars);
    // Oil-soaked bo: ruled while ash's attack waits (dee is asked whether to guard), it counts
    // for that attack: the better of 2 and 5.
    t.cmds(&["act ash", "attack bo"]);
    t.type_as(GM, "gm enhance bo");
    assert!(
        Murdham::tracker(t.state(), GM)
            .lines()
            .any(|l| l.starts_with("  bo ") && l.contains(" next-hit-enhanced"))
    );
    t.cmd("decline");
    t.dice(&[15, 2, 5]).cmd("dodge");
    assert_eq!(rolls(&t), [(vec![vec![2], vec![5]], 1)]);
    assert_eq!(damage(&t), [("bo".to_string(), 5)]);
    // It was for that one hit.
    assert_eq!(ch(&t, "bo").next_hit, 0);
    t.cmds(&["end", "pass", "act cy", "attack bo"]);
    t.dice(&[3]).cmd("decline");
    assert_eq!(rolls(&t), [(vec![vec![3]], 0)]);
    t.assert_dice_used();
    t.assert_replays();

    // A dodged attack rolls no damage and leaves the ruling waiting; an enhancement and an
    // impairment cancel; two impairments leave no damage.
    let mut t = table(&chars);
    t.type_as(GM, "gm impair dee");
    t.cmds(&["act ash", "attack dee", "decline"]);
    t.dice(&[5]).cmd("dodge");
    assert_eq!(ch(&t, "dee").next_hit, -1);
    t.type_as(GM, "gm enhance dee");
    assert_eq!(ch(&t, "dee").next_hit, 0);
    t.type_as(GM, "gm impair dee");
    t.type_as(GM, "gm impair dee");
    assert_eq!(ch(&t, "dee").next_hit, -2);
    t.cmds(&["end", "pass", "act cy", "attack dee"]);
    t.cmd("decline");
    assert_eq!(damage(&t), [("dee".to_string(), 0)]);
    assert_eq!(ch(&t, "dee").next_hit, 0);
    t.expect_rejection(GM, "gm enhance nobody", fray_engine::Reject::UNKNOWN_COMMAND);
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn gm_enhance_gives_its_target_a_roll_of_its_own_in_a_blast_rolled_once() {
    // Fire on oil-soaked bo: ash's flask hits bo and dee in b; bo's share is its own roll,
    // enhanced (the better of 1 and 4), dee's the blast's one roll (3), which dee2 shares.
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"alchemists-fire\"]"),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
        who("dee2", "foes", "b", ""),
    ]);
    t.type_as(GM, "gm enhance bo");
    t.cmd("act ash");
    t.cmd("attack b with alchemists-fire");
    t.dice(&[1, 4]).cmd("take");
    t.dice(&[3]).cmd("take");
    t.cmd("take");
    let all: Vec<(String, i32)> = ["bo", "dee", "dee2"]
        .iter()
        .map(|x| (x.to_string(), ch(&t, x).health))
        .collect();
    assert_eq!(
        all,
        [("bo".to_string(), 6), ("dee".to_string(), 7), ("dee2".to_string(), 7)]
    );
    t.assert_dice_used();
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// The log: a flask of no damage, GM rulings, a wrong answer

#[test]
fn a_flask_that_deals_no_damage_rolls_and_logs_no_damage() {
    // Flash powder into b: it stuns, and deals no damage, so bo and dee each get the STR save
    // against the stun and nothing else: no damage roll, no "takes no damage".
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"flash-powder\"]"),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
    ]);
    t.cmds(&["act ash", "attack b with flash-powder"]);
    t.dice(&[15]).cmd("take");
    t.dice(&[5]).cmd("take");
    assert!(
        !t.all_events().iter().any(|e| matches!(e, Event::DamageRoll { .. })),
        "{:?}",
        t.all_events()
    );
    let log = texts(&seat_log(&t, GM));
    let from = log
        .iter()
        .position(|l| l == "ash attacks b with flash powder")
        .expect("the attack");
    assert_eq!(
        log[from..],
        [
            "ash attacks b with flash powder",
            "bo rolls 15 on a STR save of 10 to shake off the effect: fails",
            "bo loses its turn this round",
            "dee rolls 5 on a STR save of 10 to shake off the effect: passes",
            "ash's flash powder is used up",
        ]
    );
    // A weapon that deals damage still logs a hit of none (impaired twice), with its reason.
    let mut t = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")]);
    t.type_as(GM, "gm impair bo");
    t.type_as(GM, "gm impair bo");
    t.cmds(&["act ash", "attack bo"]);
    t.cmd("take");
    let log = texts(&seat_log(&t, GM));
    assert!(
        log.iter().any(|l| l == "ash's damage is impaired twice: none"),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l == "bo takes no damage: health 10/10"), "{log:?}");
    t.assert_dice_used();
    t.assert_replays();
}

#[test]
fn gm_rulings_log_what_they_changed() {
    let mut t = table(&[
        who("ash", "pcs", "a", ""),
        who("bo", "foes", "b", ""),
        who("dee", "foes", "b", ""),
    ]);
    let ruled = |t: &mut Table<Murdham>, r: &str| {
        t.type_as(GM, r);
        t.log()
    };
    let cases = [
        ("gm poison bo on", "bo is poisoned: 1 damage at each round's end"),
        ("gm poison bo off", "bo is cured of poison"),
        ("gm hinder bo", "bo's next attack needs a WIT save to hit"),
        ("gm penetrate ash", "ash's next attack goes through cover"),
        (
            "gm overwhelm ash",
            "ash's next distract, intimidate or taunt allows no save",
        ),
        ("gm set bo health -2", "bo's health is 8/10"),
        ("gm set ash str -1", "ash's STR is 9 (maximum health 9)"),
        ("gm frighten bo ash", "bo is frightened of ash"),
        ("gm calm bo", "bo is no longer frightened"),
        ("gm stun dee", "dee is stunned: it loses its turn this round"),
        ("gm enhance dee", "the next hit on dee deals enhanced damage"),
        (
            "gm impair dee",
            "the next hit on dee deals its damage as rolled (the rulings cancel)",
        ),
        ("gm conceal ash on", "ash is concealed: its enemies lose sight of it"),
        ("gm conceal ash off", "ash is revealed (a)"),
        ("gm move bo c", "bo is put at c"),
        ("gm remove dee", "dee leaves the fight"),
    ];
    for (r, what) in cases {
        assert_eq!(ruled(&mut t, r), [format!("Ruling: {r}: {what}")], "{r}");
    }
    assert_eq!(
        ruled(&mut t, "gm end pcs"),
        ["Ruling: gm end pcs", "The combat ends: pcs win (gm-ended)"]
    );
    t.assert_replays();
}

#[test]
fn a_command_of_the_wrong_kind_is_refused_with_the_decision_asked() {
    let mut t = table(&[who("ash", "pcs", "a", ""), who("bo", "foes", "a", "")]);
    // The faction is asked whom to give the turn.
    let r = t.expect_rejection(PCS, "dodge", codes::NOT_NOW);
    assert!(r.reason.contains("pcs: act <id> or pass"), "{}", r.reason);
    // A turn: a reaction is no command for it.
    t.cmd("act ash");
    let r = t.expect_rejection(PCS, "take", codes::NOT_NOW);
    assert!(r.reason.contains("ash's turn at a"), "{}", r.reason);
    // bo is asked how to react: "end" is no reaction, and the reason lists the reactions open.
    t.cmd("attack bo");
    let r = t.expect_rejection(FOES, "end", codes::NOT_NOW);
    assert_eq!(
        r.reason,
        "that does not answer what is asked now: bo is attacked by ash: take, dodge, counter [with <item>]"
    );
    t.assert_replays();
}

// ---------------------------------------------------------------------------------------------
// The prompt and typed names

#[test]
fn the_prompt_hides_harm_aimed_at_allies_and_choices_all_keeps_it() {
    let mut t = table(&[
        who("ash", "pcs", "a", "carry = [\"healing-draught\"]"),
        who("cy", "pcs", "a", ""),
        who("bo", "foes", "a", ""),
    ]);
    t.cmd("act ash");
    let legal = t.legal();
    let hides = |t: &Table<Murdham>, c: &str| {
        let c = t.parse(c).expect("a command");
        Murdham::prompt_hides(t.state(), &c)
    };
    // Legal all the same (`choices all` lists them), but left out of the prompt's list.
    for c in [
        "attack cy",
        "taunt cy",
        "distract cy",
        "intimidate cy",
        "use healing-draught bo",
    ] {
        assert!(legal.iter().any(|l| l == c), "{c} is legal: {legal:?}");
        assert!(hides(&t, c), "{c} is hidden");
    }
    for c in [
        "attack bo",
        "taunt bo",
        "use healing-draught cy",
        "use healing-draught",
        "end",
    ] {
        assert!(legal.iter().any(|l| l == c), "{c} is legal: {legal:?}");
        assert!(!hides(&t, c), "{c} is shown");
    }
    // A sweep of a zone holding no smaller enemy hits nobody it is meant for; bo in b is.
    let mut g = table(&[
        who("ash", "pcs", "a", "size = \"large\"\nwield = [\"martial-hand\"]"),
        who("cy", "pcs", "a", "size = \"small\""),
        who("bo", "foes", "b", ""),
    ]);
    g.cmd("act ash");
    assert!(g.legal().iter().any(|l| l == "attack a sweep"), "{:?}", g.legal());
    assert!(hides(&g, "attack a sweep"));
    g.cmds(&["move b"]);
    assert!(!hides(&g, "attack b sweep"), "{:?}", g.legal());
    // A reaction is never hidden.
    t.cmd("attack bo");
    assert!(t.legal().iter().all(|c| !hides(&t, c)), "{:?}", t.legal());
}

#[test]
fn a_mistyped_character_item_place_or_faction_gets_a_did_you_mean() {
    let mut t = table(&[
        who("ash", "pcs", "a", "wield = [\"martial-hand\"]"),
        who("bo", "foes", "b", ""),
        who("sly", "foes", "d", ""),
    ]);
    let why = |t: &Table<Murdham>, c: &str| t.parse(c).expect_err("unreadable").reason;
    assert_eq!(why(&t, "act ahs"), "no character 'ahs' (did you mean 'ash'?)");
    assert_eq!(why(&t, "open pc"), "no faction 'pc' (did you mean 'pcs'?)");
    t.cmd("act ash");
    assert_eq!(
        why(&t, "attack boo"),
        "'boo' is neither a character nor a place (did you mean 'bo'?)"
    );
    assert_eq!(
        why(&t, "move bb"),
        "unknown zone 'bb' (did you mean 'b'?); the zones are: a, b, c, d, wall"
    );
    assert_eq!(
        why(&t, "attack bo with martial-hnd"),
        "ash has no item 'martial-hnd' (did you mean 'martial-hand'?) (it has: martial-hand)"
    );
    // A concealed character is never offered: the parse does not know who is typing.
    assert_eq!(
        why(&t, "attack sli"),
        "'sli' is neither a character nor a place (did you mean 'sly'?)"
    );
    t.type_as(GM, "gm conceal sly on");
    assert_eq!(why(&t, "attack sli"), "'sli' is neither a character nor a place");
    assert_eq!(why(&t, "gm stun sli"), "no character 'sli'");
}
