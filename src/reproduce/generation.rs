//! How [`super::run`] replaces its output directory, so that two runs never mix and an interrupted run leaves it whole: one writer at a
//! time, a staging directory of its own, and one atomic switch from the old set of files to
//! the new one.
//!
//! For an output directory `DIR/NAME` every helper path is a sibling in `DIR` (the same file
//! system, so renames are atomic), and none outlives a run that ends normally:
//!
//! - `.NAME.reproduce.lock`: locked ([`std::fs::File::try_lock`]) for the whole run and holding
//!   the process id of its writer; a second run into the same directory is refused, naming it.
//!   It is removed (while still locked) when the run ends.
//! - `.NAME.reproduce.staging.PID`: the run's files. When every step has succeeded, the files of
//!   `NAME` that the run did not produce are hard-linked (or copied) into it, a produced file
//!   equal to its old version but for commit hashes is replaced by the old file, and the two
//!   directories are swapped in one system call (Linux `renameat2` with `RENAME_EXCHANGE`).
//!   The old generation, now at the staging path, is then removed.
//! - `.NAME.reproduce.old.PID`: used only where the swap is not supported (not Linux, or a file
//!   system answering `EINVAL`/`ENOSYS`): `NAME` is renamed there, then the staging directory
//!   to `NAME`. Between the two renames `NAME` does not exist; a run killed in that window
//!   leaves the old generation whole here, and the next run renames it back before anything
//!   else.
//!
//! A staging or old directory left by a killed run is removed by the next run into the same
//! directory, under the lock.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::plot::ArtefactError;

type Result<T, E = ArtefactError> = std::result::Result<T, E>;

fn io(what: String) -> impl FnOnce(std::io::Error) -> ArtefactError {
    move |source| ArtefactError::Io { what, source }
}

/// The output directory of a run, resolved: its real path (symbolic links of the directory
/// followed), the directory holding it and its name.
#[derive(Debug, Clone)]
pub(super) struct Target {
    /// The real path of the output directory (it may not exist yet).
    pub(super) real: PathBuf,
    parent: PathBuf,
    name: String,
}

impl Target {
    /// Resolves `out` (the user's `--out`): an existing directory (or a link to one), or a
    /// path whose parent can be created. Anything else is refused naming `--out`.
    pub(super) fn resolve(out: &Path) -> Result<Target> {
        let refuse = |what: &str| {
            ArtefactError::Library(crate::Error::invalid(
                "--out",
                "a directory (or a path where one can be created)",
                format!("{} ({what})", out.display()),
            ))
        };
        let real = match std::fs::metadata(out) {
            Ok(meta) if meta.is_dir() => std::fs::canonicalize(out).map_err(io(format!(
                "resolving the output directory {}",
                out.display()
            )))?,
            Ok(meta) => return Err(refuse(crate::report::output::kind_of(&meta))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(out).is_ok() {
                    return Err(refuse("a symbolic link to nothing"));
                }
                let name = out.file_name().ok_or_else(|| refuse("no directory name"))?;
                let parent = match out.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                std::fs::create_dir_all(&parent).map_err(|e| {
                    refuse(&format!(
                        "its parent {} cannot be created: {e}",
                        parent.display()
                    ))
                })?;
                let parent = std::fs::canonicalize(&parent)
                    .map_err(io(format!("resolving {}", parent.display())))?;
                parent.join(name)
            }
            Err(e) => return Err(refuse(&e.to_string())),
        };
        let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
            return Err(refuse("the root directory, which cannot be swapped"));
        };
        Ok(Target {
            parent: parent.to_path_buf(),
            name: name.to_string_lossy().into_owned(),
            real: real.clone(),
        })
    }

    /// `.NAME.reproduce.SUFFIX` beside the output directory.
    fn sibling(&self, suffix: &str) -> PathBuf {
        self.parent
            .join(format!(".{}.reproduce.{suffix}", self.name))
    }

    /// The lock file.
    pub(super) fn lock_path(&self) -> PathBuf {
        self.sibling("lock")
    }

    /// This process's staging directory.
    pub(super) fn staging(&self) -> PathBuf {
        self.sibling(&format!("staging.{}", std::process::id()))
    }

    /// Where the old generation goes when the directories cannot be swapped in one step.
    fn old(&self) -> PathBuf {
        self.sibling(&format!("old.{}", std::process::id()))
    }

    /// The staging and old directories of earlier runs (killed before they cleaned up).
    fn leftovers(&self, kind: &str) -> Vec<PathBuf> {
        let prefix = format!(".{}.reproduce.{kind}.", self.name);
        let Ok(entries) = std::fs::read_dir(&self.parent) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
            .collect();
        found.sort();
        found
    }

    /// Under the lock: puts back an old generation that a run killed between the two renames
    /// of the fallback left aside, removes every other leftover, and creates the output
    /// directory if it is missing.
    pub(super) fn recover(&self) -> Result<()> {
        let mut old = self.leftovers("old");
        if std::fs::symlink_metadata(&self.real).is_err()
            && let Some(previous) = old.pop()
        {
            std::fs::rename(&previous, &self.real).map_err(io(format!(
                "restoring {} from {}",
                self.real.display(),
                previous.display()
            )))?;
        }
        for stale in old.into_iter().chain(self.leftovers("staging")) {
            std::fs::remove_dir_all(&stale)
                .map_err(io(format!("removing the stale {}", stale.display())))?;
        }
        if std::fs::symlink_metadata(&self.real).is_err() {
            std::fs::create_dir(&self.real).map_err(io(format!(
                "creating the output directory {}",
                self.real.display()
            )))?;
        }
        Ok(())
    }
}

/// The lock of one output directory, held while the guard lives; dropping it removes the
/// lock file (still locked, so that no other run can hold a lock on a file about to vanish:
/// [`Lock::acquire`] checks that the file it locked is still the one at the path).
#[derive(Debug)]
pub(super) struct Lock {
    file: File,
    path: PathBuf,
    _registered: crate::report::output::PartialFileGuard,
}

impl Lock {
    /// Locks `target`'s lock file (created if missing) and writes this process's id in it.
    ///
    /// # Errors
    ///
    /// [`crate::Error::InvalidArgument`] naming `--out` (exit code 2) when another process
    /// holds the lock, with its process id; an I/O error when the file cannot be created.
    pub(super) fn acquire(target: &Target, out: &Path) -> Result<Lock> {
        let path = target.lock_path();
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io(format!("creating the lock file {}", path.display())))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let who = if holder.is_empty() {
                        "another `pathology reproduce`".to_string()
                    } else {
                        format!("`pathology reproduce` process {holder}")
                    };
                    return Err(ArtefactError::Library(crate::Error::invalid(
                        "--out",
                        "a directory that no other run is writing",
                        format!(
                            "{} ({who} is writing it; wait for it to end or choose another \
                             --out)",
                            out.display()
                        ),
                    )));
                }
                Err(std::fs::TryLockError::Error(source)) => {
                    return Err(ArtefactError::Io {
                        what: format!("locking {}", path.display()),
                        source,
                    });
                }
            }
            // The previous holder removes the file before it unlocks: a lock taken on a file
            // that is no longer at the path is worthless, so try again with the new one.
            if !same_file(&file, &path) {
                continue;
            }
            let registered = crate::report::output::register_partial_file(&path);
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| write!(file, "{}", std::process::id()))
                .and_then(|()| file.flush())
                .map_err(io(format!("writing the lock file {}", path.display())))?;
            return Ok(Lock {
                file,
                path,
                _registered: registered,
            });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether the open `file` is the file now at `path`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

/// Completes the staging directory from the output directory: every entry of `out` that the
/// run did not produce is hard-linked (or copied) into `staging`, and every produced file that
/// equals its old version but for commit hashes (`keep_old`) is replaced by the old file.
///
/// # Errors
///
/// An I/O error naming the path; a produced file whose name is taken in `out` by a directory
/// (the directory would be lost).
pub(super) fn complete(
    staging: &Path,
    out: &Path,
    keep_old: impl Fn(&Path, &Path) -> bool,
) -> Result<()> {
    let entries = std::fs::read_dir(out).map_err(io(format!("reading {}", out.display())))?;
    if let Ok(meta) = std::fs::metadata(out) {
        let _ = std::fs::set_permissions(staging, meta.permissions());
    }
    for entry in entries {
        let entry = entry.map_err(io(format!("reading {}", out.display())))?;
        let old = entry.path();
        let new = staging.join(entry.file_name());
        let old_type = entry
            .file_type()
            .map_err(io(format!("reading {}", old.display())))?;
        match std::fs::symlink_metadata(&new) {
            Err(_) => carry_over(&old, &new)?,
            Ok(_) if old_type.is_dir() => {
                return Err(ArtefactError::Io {
                    what: format!(
                        "writing {}: a directory of that name is in the way",
                        old.display()
                    ),
                    source: std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory"),
                });
            }
            Ok(_) if old_type.is_file() && keep_old(&new, &old) => {
                std::fs::remove_file(&new).map_err(io(format!("removing {}", new.display())))?;
                carry_over(&old, &new)?;
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

/// Puts `from` (an entry of the old output directory) at `to` without touching it: a hard
/// link (a file, a symbolic link, a FIFO), a copy when it cannot be linked, and a directory
/// rebuilt entry by entry.
fn carry_over(from: &Path, to: &Path) -> Result<()> {
    let meta =
        std::fs::symlink_metadata(from).map_err(io(format!("reading {}", from.display())))?;
    if meta.is_dir() {
        std::fs::create_dir(to).map_err(io(format!("creating {}", to.display())))?;
        let _ = std::fs::set_permissions(to, meta.permissions());
        for entry in std::fs::read_dir(from).map_err(io(format!("reading {}", from.display())))? {
            let entry = entry.map_err(io(format!("reading {}", from.display())))?;
            carry_over(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let what = format!("keeping {} (linking or copying it failed)", from.display());
    #[cfg(unix)]
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(from).map_err(io(what.clone()))?;
        return std::os::unix::fs::symlink(target, to).map_err(io(what));
    }
    if meta.is_file() {
        return std::fs::copy(from, to).map(drop).map_err(io(what));
    }
    Err(ArtefactError::Io {
        what,
        source: std::io::Error::new(std::io::ErrorKind::Unsupported, "a special file"),
    })
}

/// Switches `target` to the finished `staging` directory: one atomic exchange where the system
/// has it (afterwards `staging` holds the old generation), else two renames (the old
/// generation goes to `.NAME.reproduce.old.PID`, which is returned for removal). Runs while
/// the signal handler cannot remove directories ([`crate::report::output::PartialDirectory::exclusive`]).
///
/// # Errors
///
/// An I/O error naming the directories.
pub(super) fn switch(staging: &Path, target: &Target) -> Result<PathBuf> {
    let out = &target.real;
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, staging, CWD, out, RenameFlags::EXCHANGE) {
            Ok(()) => return Ok(staging.to_path_buf()),
            Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {}
            Err(e) => {
                return Err(ArtefactError::Io {
                    what: format!("swapping {} with {}", staging.display(), out.display()),
                    source: e.into(),
                });
            }
        }
    }
    let old = target.old();
    std::fs::rename(out, &old).map_err(io(format!(
        "moving the old {} aside to {}",
        out.display(),
        old.display()
    )))?;
    std::fs::rename(staging, out).map_err(io(format!(
        "moving {} into place as {}",
        staging.display(),
        out.display()
    )))?;
    Ok(old)
}

/// The fallback's old directory of this process, for the signal handler's list.
pub(super) fn old_directory(target: &Target) -> PathBuf {
    target.old()
}
