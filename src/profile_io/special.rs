//! Special files (FIFOs, sockets, devices) met in a folder scan. Opening a FIFO blocks until
//! someone writes to it, and a device may never end, so a rail, run or profile folder skips them
//! with a warning naming each; a special file given as a path by itself is read (see
//! [`super::stream`]): that is what the user asked for.

use std::path::{Path, PathBuf};

use crate::model::Warning;

/// What `path` is if it is neither a regular file nor a directory (following symbolic links):
/// `"FIFO (named pipe)"`, `"socket"`, `"character device"`, `"block device"`. `None` for regular
/// files, directories and paths that cannot be looked at (their reader reports that).
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let file_type = std::fs::metadata(path).ok()?.file_type();
    if file_type.is_file() || file_type.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("FIFO (named pipe)");
        } else if file_type.is_socket() {
            return Some("socket");
        } else if file_type.is_char_device() {
            return Some("character device");
        } else if file_type.is_block_device() {
            return Some("block device");
        }
    }
    Some("special file")
}

/// The warning for a special file skipped in a folder scan.
pub fn skipped_special(path: &Path, kind: &str) -> Warning {
    Warning::in_file(
        path.display().to_string(),
        format!(
            "skipped: a {kind}, not a regular file, so reading it in a folder scan could block; give it by itself to read it"
        ),
    )
}

/// `paths` without the special files, each of which gets a warning.
pub fn without_special(paths: Vec<PathBuf>, warnings: &mut Vec<Warning>) -> Vec<PathBuf> {
    paths
        .into_iter()
        .filter(|path| match special_kind(path) {
            Some(kind) => {
                warnings.push(skipped_special(path, kind));
                false
            }
            None => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_in_a_folder_is_skipped_with_a_warning_naming_it() {
        let dir = std::env::temp_dir().join(format!("shoal-special-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("opensm.fdbs");
        let plain = dir.join("opensm-subnet.lst");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        std::fs::write(&plain, "x\n").unwrap();
        let mut warnings = Vec::new();
        let kept = without_special(vec![fifo.clone(), plain.clone(), dir.clone()], &mut warnings);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(kept, vec![plain, dir]);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].file, fifo.display().to_string());
        assert!(warnings[0].message.contains("FIFO"), "{}", warnings[0].message);
        assert_eq!(special_kind(Path::new("/dev/null")), Some("character device"));
    }
}
