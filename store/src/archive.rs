//! A submitted bot's code: a `.tar.gz`, checked entry by entry without unpacking it anywhere
//! ([`check_archive`]), and a directory packed into one the same way every time
//! ([`pack_dir`]).
//!
//! An archive is refused when it holds an absolute path, a `..`, a symbolic or hard link that
//! leads out of its tree (through other links too), or anything but files, directories and
//! links (devices, fifos). It is refused when it is larger than [`ArchiveLimits`] allow,
//! compressed or unpacked, or holds more entries.

use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use sha2::{Digest, Sha256};

use crate::Echo;

/// How large a submission may be. The defaults: 8 MiB compressed, 64 MiB unpacked (the `.tar`
/// stream's size, headers included), 10,000 entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveLimits {
    /// The largest `.tar.gz`, in bytes.
    pub max_archive_bytes: u64,
    /// The largest `.tar` inside it, in bytes.
    pub max_unpacked_bytes: u64,
    /// The most entries (files, directories and links).
    pub max_entries: u64,
}

impl Default for ArchiveLimits {
    fn default() -> ArchiveLimits {
        ArchiveLimits {
            max_archive_bytes: 8 << 20,
            max_unpacked_bytes: 64 << 20,
            max_entries: 10_000,
        }
    }
}

/// An archive that passed [`check_archive`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedArchive {
    /// The SHA-256 of the `.tar.gz`, in lowercase hex: the submission's version.
    pub sha256: String,
    /// Its size, compressed.
    pub archive_bytes: u64,
    /// The size of the `.tar` inside.
    pub unpacked_bytes: u64,
    /// Its entries.
    pub entries: u64,
}

/// Why an archive is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// Larger than a limit (gRPC's RESOURCE_EXHAUSTED).
    #[error("the archive is over the limit of {limit} {what}")]
    TooLarge {
        /// What is counted: "bytes compressed", "bytes unpacked", "entries".
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// Not a `.tar.gz` (gRPC's INVALID_ARGUMENT).
    #[error("the archive is not a .tar.gz: {0}")]
    NotTarGz(String),
    /// An entry breaks a rule (gRPC's INVALID_ARGUMENT).
    #[error("the archive's entry {} is refused: {rule}", Echo(.entry))]
    BadEntry {
        /// The entry's path.
        entry: String,
        /// The rule it breaks.
        rule: &'static str,
    },
}

impl ArchiveError {
    /// Whether the archive is refused for its size (else for its contents).
    pub fn is_too_large(&self) -> bool {
        matches!(self, ArchiveError::TooLarge { .. })
    }
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Checks a `.tar.gz` against `limits` and the rules (see the module's docs), reading it
/// entry by entry in memory.
pub fn check_archive(bytes: &[u8], limits: &ArchiveLimits) -> Result<CheckedArchive, ArchiveError> {
    let archive_bytes = bytes.len() as u64;
    if archive_bytes > limits.max_archive_bytes {
        return Err(ArchiveError::TooLarge {
            what: "bytes compressed",
            limit: limits.max_archive_bytes,
        });
    }
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Err(ArchiveError::NotTarGz("it does not start as a gzip stream does".into()));
    }
    let over = Rc::new(Cell::new(false));
    let unpacked = Capped {
        inner: flate2::read::GzDecoder::new(bytes),
        read: 0,
        cap: limits.max_unpacked_bytes,
        over: Rc::clone(&over),
    };
    let mut archive = tar::Archive::new(unpacked);
    let walked = walk(&mut archive, limits);
    let unpacked_bytes = archive.into_inner().read;
    let too_large =
        ArchiveError::TooLarge { what: "bytes unpacked", limit: limits.max_unpacked_bytes };
    let walk = match walked {
        Err(_) if over.get() => return Err(too_large),
        // The reader's words may quote a header (a path): echoed, at most 64 bytes of it.
        Err(Walk::Io(error)) => {
            return Err(ArchiveError::NotTarGz(Echo(&error.to_string()).to_string()));
        }
        Err(Walk::Refused(error)) => return Err(error),
        Ok(walk) => walk,
    };
    if walk.entries == 0 {
        return Err(ArchiveError::NotTarGz("it holds no entries".into()));
    }
    walk.check_links()?;
    Ok(CheckedArchive {
        sha256: sha256_hex(bytes),
        archive_bytes,
        unpacked_bytes,
        entries: walk.entries,
    })
}

/// A reader that fails once more than `cap` bytes were read through it, and says so in `over`.
struct Capped<R> {
    inner: R,
    read: u64,
    cap: u64,
    over: Rc<Cell<bool>>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.cap {
            self.over.set(true);
            return Err(io::Error::other("over the unpacked size"));
        }
        Ok(n)
    }
}

/// Why a walk stopped.
enum Walk {
    Io(io::Error),
    Refused(ArchiveError),
}

impl From<io::Error> for Walk {
    fn from(error: io::Error) -> Walk {
        Walk::Io(error)
    }
}

/// What a walk found: the entries, and the links to follow once every link is known.
#[derive(Default)]
struct Walked {
    entries: u64,
    /// Each symbolic link, by its path's components, to its target.
    symlinks: HashMap<Vec<OsString>, PathBuf>,
    /// Each hard link's path and target (a path from the archive's root).
    hardlinks: Vec<(PathBuf, PathBuf)>,
}

/// Walks the entries, checking each one's path, type and link (links are followed later).
fn walk<R: Read>(archive: &mut tar::Archive<R>, limits: &ArchiveLimits) -> Result<Walked, Walk> {
    let mut walked = Walked::default();
    for entry in archive.entries()? {
        let entry = entry?;
        let path = entry.path()?.into_owned();
        let refuse = |rule| {
            Walk::Refused(ArchiveError::BadEntry { entry: path.to_string_lossy().into(), rule })
        };
        let kind = entry.header().entry_type();
        if kind == tar::EntryType::XGlobalHeader {
            // A pax global header (`git archive` writes one) is no file.
            continue;
        }
        walked.entries += 1;
        if walked.entries > limits.max_entries {
            return Err(Walk::Refused(ArchiveError::TooLarge {
                what: "entries",
                limit: limits.max_entries,
            }));
        }
        let parts = relative_parts(&path).map_err(refuse)?;
        if parts.is_empty() {
            return Err(refuse("an empty path"));
        }
        if kind.is_symlink() || kind.is_hard_link() {
            let target = entry.link_name()?.ok_or_else(|| refuse("a link without a target"))?;
            if target.is_absolute() {
                return Err(refuse("a link to an absolute path leads out of the tree"));
            }
            if kind.is_symlink() {
                walked.symlinks.insert(parts, target.into_owned());
            } else {
                walked.hardlinks.push((path.clone(), target.into_owned()));
            }
        } else if !(kind.is_file() || kind.is_dir()) {
            return Err(refuse("only files, directories and links are kept (no devices, fifos)"));
        }
    }
    Ok(walked)
}

/// A path's components, if it is relative and has no `..`.
fn relative_parts(path: &Path) -> Result<Vec<OsString>, &'static str> {
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err("a path with `..`"),
            Component::RootDir | Component::Prefix(_) => return Err("an absolute path"),
        }
    }
    Ok(parts)
}

/// Links followed in one resolution before it is taken as a loop (Linux's limit).
const MAX_HOPS: u32 = 40;

impl Walked {
    /// Refuses a link that leads out of the tree, followed through the other links.
    fn check_links(&self) -> Result<(), ArchiveError> {
        let out = |path: &Path| ArchiveError::BadEntry {
            entry: path.to_string_lossy().into(),
            rule: "a link that leads out of the tree",
        };
        for (parts, target) in &self.symlinks {
            let dir = &parts[..parts.len() - 1];
            if self.resolve(dir, target).is_none() {
                return Err(out(&parts.iter().collect::<PathBuf>()));
            }
        }
        for (path, target) in &self.hardlinks {
            if self.resolve(&[], target).is_none() {
                return Err(out(path));
            }
        }
        Ok(())
    }

    /// Where `target`, seen from the directory `dir`, leads (following the archive's symbolic
    /// links); `None` when out of the tree or through too many links.
    fn resolve(&self, dir: &[OsString], target: &Path) -> Option<Vec<OsString>> {
        let mut at = dir.to_vec();
        let mut pending: VecDeque<Component<'_>> = target.components().collect();
        let mut hops = 0;
        while let Some(component) = pending.pop_front() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    at.pop()?;
                }
                Component::RootDir | Component::Prefix(_) => return None,
                Component::Normal(part) => {
                    at.push(part.to_owned());
                    if let Some(link) = self.symlinks.get(&at) {
                        hops += 1;
                        if hops > MAX_HOPS {
                            return None;
                        }
                        at.pop();
                        for component in link.components().rev() {
                            pending.push_front(component);
                        }
                    }
                }
            }
        }
        Some(at)
    }
}

/// Packs the directory `dir` into a `.tar.gz` in memory: its entries sorted by name, paths
/// relative to it, times, owners and modes made the same everywhere (a mode keeps only
/// whether it is executable), symbolic links kept as links. The same tree gives the same
/// bytes, so the same version.
pub fn pack_dir(dir: &Path) -> io::Result<Vec<u8>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(gz);
    builder.mode(tar::HeaderMode::Deterministic);
    builder.follow_symlinks(false);
    let mut paths = Vec::new();
    list(dir, Path::new(""), &mut paths)?;
    for relative in paths {
        builder.append_path_with_name(dir.join(&relative), &relative)?;
    }
    builder.into_inner()?.finish()
}

/// Unpacks a stored archive (one [`check_archive`] passed) into the new directory `dir`, for a
/// runner to start the bot from. tar's own checks hold again: no entry is written outside
/// `dir`. Modes are kept; owners and times are not.
pub fn unpack_archive(bytes: &[u8], dir: &Path) -> io::Result<()> {
    std::fs::create_dir(dir)?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    archive.set_preserve_permissions(true);
    archive.set_preserve_mtime(false);
    archive.set_overwrite(false);
    archive.unpack(dir)
}

/// Appends every path under `dir.join(at)`, relative to `dir`, sorted by name, a directory
/// before what it holds.
fn list(dir: &Path, at: &Path, paths: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut names: Vec<OsString> = std::fs::read_dir(dir.join(at))?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()?;
    names.sort();
    for name in names {
        let relative = at.join(name);
        let kind = std::fs::symlink_metadata(dir.join(&relative))?.file_type();
        paths.push(relative.clone());
        if kind.is_dir() {
            list(dir, &relative, paths)?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::testing::{Item, archive};

    fn check(bytes: &[u8]) -> Result<CheckedArchive, ArchiveError> {
        check_archive(bytes, &ArchiveLimits::default())
    }

    #[test]
    fn a_packed_directory_unpacks_to_the_same_tree_and_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let code = dir.path().join("code");
        std::fs::create_dir_all(code.join("lib")).unwrap();
        std::fs::write(code.join("bot.py"), "print('hi')\n").unwrap();
        std::fs::write(code.join("lib/run"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(code.join("lib/run"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        let bytes = pack_dir(&code).unwrap();
        check(&bytes).unwrap();
        let out = dir.path().join("out");
        unpack_archive(&bytes, &out).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("bot.py")).unwrap(), "print('hi')\n");
        let mode = std::fs::metadata(out.join("lib/run")).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "an executable stays executable");
        let again = unpack_archive(&bytes, &out).unwrap_err();
        assert_eq!(again.kind(), std::io::ErrorKind::AlreadyExists, "never over another tree");
    }

    fn refused_entry(bytes: &[u8]) -> (String, &'static str) {
        match check(bytes).unwrap_err() {
            ArchiveError::BadEntry { entry, rule } => (entry, rule),
            other => panic!("not an entry's refusal: {other}"),
        }
    }

    #[test]
    fn a_tree_with_links_inside_it_passes_with_its_digest() {
        let bytes = archive(&[
            Item::File("bot.py", b"print('hi')"),
            Item::File("lib/util.py", b""),
            Item::Symlink("lib/again.py", "../bot.py"),
            Item::Symlink("here", "."),
            Item::Hardlink("copy.py", "lib/util.py"),
        ]);
        let checked = check(&bytes).unwrap();
        assert_eq!(checked.sha256, sha256_hex(&bytes));
        assert_eq!(checked.sha256.len(), 64);
        assert_eq!(checked.entries, 5);
        assert_eq!(checked.archive_bytes, bytes.len() as u64);
    }

    #[test]
    fn each_rule_names_the_entry() {
        let cases: &[(&[Item<'_>], &str, &str)] = &[
            (&[Item::File("/etc/passwd", b"")], "/etc/passwd", "absolute"),
            (&[Item::File("a/../../x", b"")], "a/../../x", "`..`"),
            (&[Item::Symlink("up", "..")], "up", "out of the tree"),
            (&[Item::Symlink("abs", "/etc")], "abs", "absolute path"),
            (&[Item::Hardlink("hard", "../../etc/shadow")], "hard", "out of the tree"),
            (&[Item::Fifo("pipe")], "pipe", "devices"),
            // Out through another link: `d` stays inside, `d/..` does not.
            (&[Item::Symlink("a/d", ".."), Item::Symlink("s", "a/d/../x")], "s", "out of the tree"),
            (&[Item::Symlink("loop", "loop/x")], "loop", "out of the tree"),
        ];
        for (items, entry, rule) in cases {
            let (refused, why) = refused_entry(&archive(items));
            assert_eq!(refused, *entry);
            assert!(why.contains(rule), "{entry}: {why}");
        }
    }

    #[test]
    fn sizes_and_formats_are_refused_by_their_limits() {
        let limits = ArchiveLimits { max_archive_bytes: 1_000, ..ArchiveLimits::default() };
        let noise: Vec<u8> =
            (0..5_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let big = archive(&[Item::File("noise", &noise)]);
        let refused = check_archive(&big, &limits).unwrap_err();
        assert_eq!(refused, ArchiveError::TooLarge { what: "bytes compressed", limit: 1_000 });
        assert!(refused.to_string().contains("1000 bytes compressed"), "{refused}");

        let zeros = archive(&[Item::File("zeros", &vec![0; 100_000])]);
        let limits = ArchiveLimits { max_unpacked_bytes: 50_000, ..ArchiveLimits::default() };
        let refused = check_archive(&zeros, &limits).unwrap_err();
        assert_eq!(refused, ArchiveError::TooLarge { what: "bytes unpacked", limit: 50_000 });

        let many = archive(&[Item::File("a", b""), Item::File("b", b""), Item::File("c", b"")]);
        let limits = ArchiveLimits { max_entries: 2, ..ArchiveLimits::default() };
        let refused = check_archive(&many, &limits).unwrap_err();
        assert_eq!(refused, ArchiveError::TooLarge { what: "entries", limit: 2 });

        assert!(matches!(check(b"PK\x03\x04 a zip"), Err(ArchiveError::NotTarGz(_))));
        let gzip_of_text = {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &[b'x'; 700]).unwrap();
            gz.finish().unwrap()
        };
        assert!(matches!(check(&gzip_of_text), Err(ArchiveError::NotTarGz(_))));
    }

    #[test]
    fn a_directory_packs_to_the_same_bytes_every_time_with_its_links() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("bot.py"), "print('hi')").unwrap();
        std::fs::write(dir.path().join("lib/b.py"), "").unwrap();
        std::fs::write(dir.path().join("lib/a.py"), "").unwrap();
        std::os::unix::fs::symlink("../bot.py", dir.path().join("lib/link.py")).unwrap();
        let first = pack_dir(dir.path()).unwrap();
        assert_eq!(first, pack_dir(dir.path()).unwrap());
        let checked = check(&first).unwrap();
        assert_eq!(checked.entries, 5);
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(first.as_slice()));
        let names: Vec<String> = archive
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["bot.py", "lib", "lib/a.py", "lib/b.py", "lib/link.py"]);

        std::os::unix::fs::symlink("/etc", dir.path().join("out")).unwrap();
        let (entry, rule) = refused_entry(&pack_dir(dir.path()).unwrap());
        assert_eq!(
            (entry.as_str(), rule),
            ("out", "a link to an absolute path leads out of the tree")
        );
    }
}
