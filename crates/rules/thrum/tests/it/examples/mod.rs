//! The shipped Thrum examples, loaded as the `fray` command loads them (by the test kit), for
//! the test files that run whole games on them.

use fray_thrum::Thrum;

/// The setup and options of `examples/thrum/NAME`.
pub fn load(name: &str) -> (fray_thrum::setup::Setup, fray_thrum::options::Options) {
    let l = fray_testkit::example::<Thrum>(name);
    (l.setup, l.options)
}
