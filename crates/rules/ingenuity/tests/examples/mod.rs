//! The shipped Ingenuity examples, loaded as the `fray` command loads them (files an example refers
//! to are read beside it), for the test files that run whole games on them.

use fray_engine::diag::SourceFile;
use fray_engine::text::TextRuleset;
use fray_ingenuity::Ingenuity;
use std::path::Path;

/// The setup and options of `examples/ingenuity/NAME`.
pub fn load(name: &str) -> (fray_ingenuity::setup::Setup, fray_ingenuity::options::Options) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../examples/ingenuity")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("example exists");
    let src = SourceFile {
        name: name.into(),
        text,
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut read = |p: &str| {
        let f = dir.join(p);
        std::fs::read_to_string(&f)
            .map(|text| SourceFile { name: p.into(), text })
            .map_err(|e| e.to_string())
    };
    let l = Ingenuity::load(&src, &mut read).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    (l.setup, l.options)
}
