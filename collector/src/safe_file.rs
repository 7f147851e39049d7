//! Every file the collector writes (`IBPROF_OUT`, its per-rank copies, `IBPROF_LOADS`) is opened
//! here: without following a symbolic link in its last component (`O_NOFOLLOW`), and only if
//! it is a regular file (issue 24). The job runs in a working directory others may share: a
//! link planted there as `app.ibprof` would otherwise make the job overwrite any file its user
//! can write, and a FIFO or device would take the profile somewhere else or block the job.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Opens (creating if missing) `path` for writing, refusing a symbolic link and anything but a
/// regular file; the file is not truncated (MPI-IO sets its size itself).
pub fn open_regular(path: &Path) -> io::Result<File> {
    // O_NONBLOCK: opening a FIFO with no reader fails at once instead of waiting for one.
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => {
                io::Error::other("it is a symbolic link, which the collector does not follow")
            }
            _ => e,
        })?;
    if !file.metadata()?.file_type().is_file() {
        return Err(io::Error::other("it is not a regular file (a device, FIFO or socket); refused"));
    }
    Ok(file)
}

/// [`open_regular`], emptied: for a file written from its start.
pub fn create_regular(path: &Path) -> io::Result<File> {
    let file = open_regular(path)?;
    file.set_len(0)?;
    Ok(file)
}

/// Whether `path` now holds exactly `len` bytes: a write that returned success but landed
/// nowhere (a `/proc` file takes writes and keeps none) is not reported as written.
pub fn holds(path: &Path, len: u64) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ibprof-safe-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_symbolic_link_is_refused_and_its_target_left_alone() {
        let dir = scratch("link");
        let target = dir.join("victim");
        std::fs::write(&target, b"precious").unwrap();
        std::os::unix::fs::symlink(&target, dir.join("app.ibprof")).unwrap();
        let error = create_regular(&dir.join("app.ibprof")).unwrap_err();
        assert!(error.to_string().contains("symbolic link"), "{error}");
        assert_eq!(std::fs::read(&target).unwrap(), b"precious");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fifo_or_device_is_refused_and_a_regular_file_emptied() {
        let dir = scratch("kinds");
        let fifo = dir.join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(create_regular(&fifo).is_err(), "a FIFO without a reader");
        assert!(
            create_regular(Path::new("/dev/null")).unwrap_err().to_string().contains("not a regular file")
        );
        let plain = dir.join("p.ibprof");
        std::fs::write(&plain, b"old contents").unwrap();
        drop(create_regular(&plain).unwrap());
        assert!(holds(&plain, 0));
        assert!(!holds(Path::new("/proc/version"), 5), "a /proc file keeps no bytes");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
