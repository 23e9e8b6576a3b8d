//! The shipped examples, loaded as the `fray` command loads them: files an example refers to
//! are read beside it.

use fray_engine::diag::SourceFile;
use fray_engine::text::{Loaded, TextRuleset};
use std::path::{Path, PathBuf};

/// The path of `examples/<ruleset id>/NAME` in this workspace.
pub fn example_path<R: TextRuleset>(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(R::ID)
        .join(name)
}

/// Loads `examples/<ruleset id>/NAME`; panics with the diagnostics if it does not load.
pub fn example<R: TextRuleset>(name: &str) -> Loaded<R> {
    let path = example_path::<R>(name);
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
    R::load(&src, &mut read).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}
