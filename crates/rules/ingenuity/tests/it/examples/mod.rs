//! The shipped Ingenuity examples, loaded as the `fray` command loads them (by the test kit), for
//! the test files that run whole games on them.

use fray_ingenuity::Ingenuity;

/// The setup and options of `examples/ingenuity/NAME`.
pub fn load(name: &str) -> (fray_ingenuity::setup::Setup, fray_ingenuity::options::Options) {
    let l = fray_testkit::example::<Ingenuity>(name);
    (l.setup, l.options)
}
