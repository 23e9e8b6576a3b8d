//! Reading and writing the files `fray` is given: bounded reads with UTF-8 positions, and
//! writes that a crash or a kill cannot leave half done.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest file `fray` reads (encounters, the files they name, records): 16 MiB. The
/// largest real encounter or record is far smaller; the limit keeps `fray check /dev/zero` or a
/// runaway pipe from using all memory.
pub const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system refused (missing file, no permission, a folder...).
    Io(io::Error),
    /// More than [`MAX_INPUT_BYTES`].
    TooLarge,
    /// Not UTF-8: the 1-based line and character column of the first bad byte, and the byte.
    NotUtf8 { line: usize, column: usize, byte: u8 },
}

impl ReadError {
    /// `FILE`, or `FILE:LINE:COLUMN` when the problem has a place.
    pub fn place(&self, name: &str) -> String {
        match self {
            ReadError::NotUtf8 { line, column, .. } => format!("{name}:{line}:{column}"),
            _ => name.to_string(),
        }
    }

    /// What is wrong, without the place.
    pub fn what(&self) -> String {
        match self {
            ReadError::Io(e) => format!("cannot read the file: {e}"),
            ReadError::TooLarge => format!(
                "the file is larger than {} MiB, the most fray reads",
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
            ReadError::NotUtf8 { byte, .. } => {
                format!("the file is not UTF-8 text (byte 0x{byte:02X} here is not valid UTF-8); save it as UTF-8")
            }
        }
    }

    /// The message, as `FILE:LINE:COLUMN: error: ...` (or `FILE: error: ...`).
    pub fn message(&self, name: &str) -> String {
        format!("{}: error: {}", self.place(name), self.what())
    }
}

/// Reads a whole file as UTF-8 text, refusing more than [`MAX_INPUT_BYTES`] without reading
/// further (safe on `/dev/zero` and endless pipes).
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    read_text_from(file)
}

/// [`read_text`] from any reader.
pub fn read_text_from(r: impl Read) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let byte = bytes.get(good).copied().unwrap_or(0);
        // The prefix is valid UTF-8 by definition of `valid_up_to`.
        let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let (line, column) = fray_engine::diag::line_col(prefix, prefix.len());
        ReadError::NotUtf8 { line, column, byte }
    })
}

/// Replaces the file at `path` with `contents` so that, whatever happens (a crash, a kill, a
/// full disk), the file holds either its old contents or the new ones, never a mix or nothing:
/// the bytes go to a temporary file in the same folder, are synced to disk, and the temporary
/// file is renamed over the target (then the folder is synced where the system allows it).
///
/// A symbolic link at `path` is followed, so the file it points to is replaced. A kill at the
/// wrong moment can leave the temporary file (`.NAME.PID.tmp`) behind; the target is never
/// damaged.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = resolve_link(path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
        if let Ok(meta) = std::fs::metadata(&target) {
            // Keep the permissions of the file being replaced.
            let _ = f.set_permissions(meta.permissions());
        }
        f.write_all(contents)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    sync_dir(&dir);
    Ok(())
}

/// Follows symbolic links at `path` (a few levels), so the link itself is not replaced.
fn resolve_link(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..16 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&p) {
                Ok(next) => {
                    p = match p.parent() {
                        Some(parent) => parent.join(next),
                        None => next,
                    }
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    p
}

/// Syncs a folder so a rename in it survives a power cut (Unix; elsewhere a no-op).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("fray-files-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn bounded_reads_refuse_more_than_the_limit() {
        let exact = io::repeat(b'a').take(MAX_INPUT_BYTES);
        assert_eq!(read_text_from(exact).unwrap().len() as u64, MAX_INPUT_BYTES);
        let endless = io::repeat(b'a');
        assert!(matches!(read_text_from(endless), Err(ReadError::TooLarge)));
    }

    #[test]
    fn the_first_bad_byte_is_located_by_line_and_character_column() {
        let bytes: &[u8] = b"ab\nc\xc3\xa9d\xffe\n";
        match read_text_from(bytes) {
            Err(ReadError::NotUtf8 { line, column, byte }) => {
                assert_eq!((line, column, byte), (2, 4, 0xff));
            }
            other => panic!("{other:?}"),
        }
        // A character cut off at the end of the file.
        match read_text_from(&b"x\xe2\x82"[..]) {
            Err(ReadError::NotUtf8 { line, column, byte }) => assert_eq!((line, column, byte), (1, 2, 0xe2)),
            other => panic!("{other:?}"),
        }
        let e = ReadError::NotUtf8 {
            line: 2,
            column: 4,
            byte: 0xff,
        };
        assert!(
            e.message("f.toml")
                .starts_with("f.toml:2:4: error: the file is not UTF-8")
        );
    }

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary_file() {
        let d = tmp_dir("atomic");
        let p = d.join("r.json");
        write_atomic(&p, b"first, longer contents").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("r.json")]);
        assert!(write_atomic(&d.join("no/such/folder/r.json"), b"x").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn atomic_writes_follow_symbolic_links() {
        let d = tmp_dir("link");
        let real = d.join("real.json");
        let link = d.join("link.json");
        std::fs::write(&real, "old").unwrap();
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
    }
}
