//! Stress and Wound Points: the rule tests of this section of the rules file.

use super::*;

#[test]
fn hal_r24_stress_is_rolled_per_hit_die_with_the_strength_modifier_the_first_at_its_maximum() {
    // The seed's Leonin: 5 HD of d8, Strength 16 (+3): 8 + 4d8 + 15.
    let leonin = "stress = 0\nhd = 5\nhd-die = 8\nstrength = 16";
    let toml = enc(
        "",
        &(who("leo", "pcs", "0,0", leonin).replace("stress = 0\n", "") + &who("x", "foes", "9,0", "")),
    );
    let t = Table::<HallowedEarth>::load(&toml, &[], &[1, 2, 3, 4, 6, 6]);
    assert_eq!(
        t.state().ch(0).stress_max,
        8 + 3 + (1 + 3) + (2 + 3) + (3 + 3) + (4 + 3)
    );
    // With `first-hd-max` off, all five are rolled: 5d8 + 15.
    let off = toml.replace("[options]\n", "[options]\nfirst-hd-max = false\n");
    let t = Table::<HallowedEarth>::load(&off, &[], &[1, 2, 3, 4, 5, 6, 6]);
    assert_eq!(t.state().ch(0).stress_max, 15 + 15);
    // A negative modifier still yields at least 1 a die: Strength 6 (−2), 3 HD of d4.
    let weak = enc(
        "first-hd-max = false",
        &(who("w", "pcs", "0,0", "hd = 3\nhd-die = 4\nstrength = 6").replace("stress = 10\n", "")
            + &who("x", "foes", "9,0", "")),
    );
    let t = Table::<HallowedEarth>::load(&weak, &[], &[1, 2, 4, 6, 6]);
    assert_eq!(t.state().ch(0).stress_max, 1 + 1 + 2);
}

#[test]
fn hal_r25_r36_damage_loses_armour_then_stress_and_overflows_into_wound_points() {
    // bo: Stress 4, Armour 1. A 1d6+3 sword hit of 6 + 3 = 9: 8 after Armour, 4 to Stress, 4 WP.
    let mut t = duel(
        "",
        "weapons = [{ name = \"sword\", damage = \"1d6+3\" }]",
        "stress = 4\narmour = 1",
        [5, 9],
    );
    t.type_as(PCS, "declare ash attack bo");
    t.type_as(FOES, "declare bo move");
    t.dice(&[15, 6]).cmd("act");
    assert_eq!((stress(&t, "bo"), wp(&t, "bo")), (0, 8));
    // HAL-R28: the Wound Point damage is a wound with its type and amount.
    let bo = t.state().ch(1);
    assert_eq!(
        (bo.wounds.len(), bo.wounds[0].kind.as_str(), bo.wounds[0].amount),
        (1, "blunt", 4)
    );
}

#[test]
fn hal_r27_maximum_wound_points_are_the_strength_score_plus_modifiers_whatever_the_hd() {
    let t = duel("", "strength = 15\nwp-bonus = 2\nhd = 6", "strength = 9", [5, 9]);
    assert_eq!((wp(&t, "ash"), wp(&t, "bo")), (17, 9));
}

#[test]
fn hal_r26_a_spell_is_paid_in_mana_and_then_stress() {
    let caster = "mana = 2\ncasting = 2\nspells = [{ name = \"bolt\", tn = 12, mana = 5, damage = \"1d6\" }]";
    let mut t = duel("", caster, "", [5, 9]);
    t.type_as(PCS, "declare ash cast bolt bo");
    t.type_as(FOES, "declare bo move");
    // Casting check 12 + 2 = 14 ≥ TN 12; damage 4 to bo's Stress.
    t.dice(&[12, 4]).cmd("act");
    assert_eq!((t.state().ch(0).mana, stress(&t, "ash")), (0, 7));
    assert_eq!(stress(&t, "bo"), 6);
    // Not enough Mana and Stress together: refused.
    let mut t = duel("", &caster.replace("mana = 5", "mana = 13"), "", [5, 9]);
    t.expect_rejection(PCS, "declare ash cast bolt bo", codes::SPENT);
}

#[test]
fn hal_r26_the_caster_chooses_how_much_stress_pays_in_place_of_mana() {
    // ash: 2 Mana, 10 Stress; the bolt costs 5.
    let caster = "mana = 2\ncasting = 2\nspells = [{ name = \"bolt\", tn = 12, mana = 5, damage = \"1d6\" }]";
    let mut t = duel("", caster, "", [5, 9]);
    // A split the caster cannot pay is refused, naming what is short.
    let r = t.expect_rejection(PCS, "declare ash cast bolt bo pay mana 3 stress 2", codes::SPENT);
    assert_eq!(r.reason, "bolt costs 5: ash has 2 Mana, not the 3 to pay in Mana");
    let r = t.expect_rejection(
        PCS,
        "declare ash cast bolt bo pay mana 1 stress 3",
        Reject::UNKNOWN_COMMAND,
    );
    assert_eq!(r.reason, "bolt costs 5: mana 1 and stress 3 make 4");
    // The caster keeps a Mana point: 1 Mana and 4 Stress (`pay stress 4` says the same).
    assert_eq!(
        t.parse("declare ash cast bolt bo pay stress 4"),
        t.parse("declare ash cast bolt bo pay mana 1 stress 4")
    );
    t.type_as(PCS, "declare ash cast bolt bo pay mana 1 stress 4");
    assert!(
        t.log()
            .contains(&"ash declares: cast bolt bo pay mana 1 stress 4".to_string()),
        "{:?}",
        t.log()
    );
    t.type_as(FOES, "declare bo move");
    t.dice(&[12, 4]).cmd("act");
    assert!(
        t.last
            .iter()
            .any(|e| matches!(e, Event::Spent { mana: 1, stress: 4, .. }))
    );
    assert_eq!((t.state().ch(0).mana, stress(&t, "ash")), (1, 6));
    t.assert_replays();
    // Not enough Stress for its part: refused too.
    let mut t = duel("", &format!("{caster}\nstress = 3"), "", [5, 9]);
    let r = t.expect_rejection(PCS, "declare ash cast bolt bo pay mana 0 stress 5", codes::SPENT);
    assert_eq!(r.reason, "bolt costs 5: ash has 3 Stress, not the 5 to pay in Stress");
}
