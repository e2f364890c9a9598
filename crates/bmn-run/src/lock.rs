//! Run locks: one process at a time goes on with a given run, so that two `--resume`s of the
//! same run (or two runs writing the same `--out` file) cannot interleave their saves.
//!
//! A lock is an OS file lock (`flock`) on a small file beside what it guards
//! (`FILE.lock`, `DB.run-ID.lock`) holding the owner's process id for the message. The system
//! drops the lock when its process ends however it ends (`kill -9` included), so a crashed run
//! never leaves a lock that refuses its own `--resume`. The file is removed, while still
//! locked, when the run's recorder is dropped.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::error::RunError;

/// A held run lock; released (and its file removed) on drop.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    _file: File,
}

impl RunLock {
    /// Takes the lock at `path` for `what` (how the refusal names the run), or says which
    /// process holds it.
    pub fn acquire(path: PathBuf, what: &str) -> Result<RunLock, RunError> {
        let io = |e: std::io::Error| RunError::io(format!("locking {}", path.display()), &e);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {
                // The owner's id is only for the message: on a full disk it goes unwritten
                // and the run fails at its first save instead, naming the file it saves.
                let _ = file
                    .set_len(0)
                    .and_then(|()| file.rewind())
                    .and_then(|()| write!(file, "{}", std::process::id()));
                Ok(RunLock { path, _file: file })
            }
            Err(TryLockError::WouldBlock) => {
                let mut owner = String::new();
                let _ = file.read_to_string(&mut owner);
                let owner = owner.trim();
                let owner = if owner.is_empty() {
                    String::new()
                } else {
                    format!(" (process {owner})")
                };
                Err(RunError::Input(format!(
                    "{what} is being run by another bmn process{owner}: wait for it to end or \
                     stop it, then resume (its lock: {})",
                    path.display()
                )))
            }
            Err(TryLockError::Error(e)) => Err(io(e)),
        }
    }

    /// `FILE.lock`: the lock of a run that writes `file`.
    pub fn beside(file: &Path, suffix: &str) -> PathBuf {
        let mut name = file.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed before the lock is let go (when the file closes after this), so that no
        // one else can hold a lock on a file that is being removed.
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::RunLock;

    #[test]
    fn a_second_holder_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("bmn-run-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.json.lock");
        let first = RunLock::acquire(path.clone(), "x.json").unwrap();
        let refused = RunLock::acquire(path.clone(), "x.json")
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("x.json is being run by another bmn process"),
            "{refused}"
        );
        assert!(
            refused.contains(&format!("(process {})", std::process::id())),
            "{refused}"
        );
        drop(first);
        assert!(!path.exists());
        let again = RunLock::acquire(path.clone(), "x.json");
        assert!(again.is_ok());
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
