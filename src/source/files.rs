//! `-f PATH`: files, directories (recursive) and stdin, YAML or JSON, one or many documents.
//!
//! Here: the paths walked (a directory's files in order, what is not a regular file
//! skipped and said), each file read, what was loaded placed in a namespace, and the
//! errors of a read that yields nothing. Each file's text is decoded by `text`.

use super::{MalformedObject, Snapshot};
use crate::model::Crd;
use std::io::Read;
use std::path::{Path, PathBuf};

mod text;

pub use text::{load_text, SyntaxError};

/// Why `-f` input could not be read at all (exit 1 with this line).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A path, directory or file that could not be opened or read.
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    /// A file that is not UTF-8 text.
    #[error("{path}: not UTF-8 text (byte {byte})")]
    NotUtf8 { path: String, byte: usize },
    /// A document that is not YAML or JSON.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Input that yields no object at all: `found` says what it held instead.
    #[error("{paths}: {found}")]
    NothingRead { paths: String, found: String },
}

impl ReadError {
    fn io(path: &Path, e: &std::io::Error) -> ReadError {
        ReadError::Io {
            path: path.display().to_string(),
            reason: io_reason(e),
        }
    }
}

/// What loading files produced: the snapshot, and documents that decoded but whose
/// shape is not an object's (reported as Invalid findings, not fatal).
#[derive(Debug, Default)]
pub struct Loaded {
    pub snapshot: Snapshot,
    pub malformed: Vec<MalformedObject>,
}

impl Loaded {
    /// Puts every namespaced object that names no namespace in `namespace`, as
    /// `kubectl apply -f` would (`-n`, else the context's, else `default`). Kinds that
    /// are cluster-scoped (Kubernetes' own, and those a CRD in the input declares so)
    /// stay without one.
    pub fn place_in(&mut self, namespace: &str) {
        let objects = &mut self.snapshot.objects;
        let declared_cluster: Vec<Crd> = objects
            .iter()
            .filter_map(Crd::read)
            .filter(|crd| crd.cluster_scoped)
            .collect();
        for object in objects.iter_mut().filter(|o| o.namespace.is_none()) {
            let cluster_scoped = crate::model::is_cluster_scoped(&object.kind)
                || declared_cluster
                    .iter()
                    .any(|crd| crd.defines(object.group(), &object.kind));
            if !cluster_scoped {
                object.namespace = Some(namespace.to_string().into());
            }
        }
    }
}

/// The files a `-f` argument names, and the entries of its directories passed over.
#[derive(Debug, Default)]
pub(crate) struct Expanded {
    pub(crate) files: Vec<PathBuf>,
    /// Entries named like manifests that are not regular files (a FIFO, a device, a
    /// link to one or to a directory): never opened, since reading one could hang or
    /// never end. Each is a blind spot of the answer.
    pub(crate) skipped: Vec<(PathBuf, &'static str)>,
}

/// Lists the files a `-f` argument names: the path itself (read whatever it is, as
/// kubectl reads `-f <(…)`), or every regular `*.yaml`, `*.yml`, `*.json` below a
/// directory, sorted so the order is stable. Links to regular files are followed.
pub(crate) fn expand_path(path: &Path) -> Result<Expanded, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| ReadError::io(path, &e))?;
    let mut out = Expanded::default();
    if !meta.is_dir() {
        out.files.push(path.to_path_buf());
        return Ok(out);
    }
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| ReadError::io(&dir, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| ReadError::io(&dir, &e))?;
            let entry_path = entry.path();
            let file_type = entry
                .file_type()
                .map_err(|e| ReadError::io(&entry_path, &e))?;
            if file_type.is_dir() {
                stack.push(entry_path);
                continue;
            }
            let manifest = matches!(
                entry_path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml" | "json")
            );
            if !manifest {
                continue;
            }
            match not_regular(&entry_path, file_type) {
                None => out.files.push(entry_path),
                Some(why) => out.skipped.push((entry_path, why)),
            }
        }
    }
    out.files.sort();
    out.skipped.sort();
    Ok(out)
}

/// Why a directory entry is not read as a manifest, or None for a regular file (or a
/// link to one).
fn not_regular(path: &Path, file_type: std::fs::FileType) -> Option<&'static str> {
    let target = match file_type.is_symlink() {
        true => match std::fs::metadata(path) {
            Ok(metadata) => metadata.file_type(),
            Err(_) => return Some("a link whose target cannot be read"),
        },
        false => file_type,
    };
    if target.is_file() {
        return None;
    }
    Some(match target.is_dir() {
        // As kubectl's walk, links to directories are not followed.
        true => "a link to a directory (not followed)",
        false => "not a regular file (a FIFO, socket or device)",
    })
}

/// A file's bytes. A large one is read in one part per core of the pool, side by side:
/// copying it out of the page cache into fresh memory is bound by the page faults, and
/// those are taken on every core at once.
#[cfg(unix)]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    const PARALLEL_FROM: u64 = 4 << 20;
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let cores = rayon::current_num_threads();
    if len < PARALLEL_FROM || cores < 2 || usize::try_from(len).is_err() {
        return std::fs::read(path);
    }
    let mut bytes = vec![0u8; len as usize];
    let per_part = bytes.len().div_ceil(cores);
    let whole = bytes
        .par_chunks_mut(per_part)
        .enumerate()
        .all(|(i, part)| file.read_exact_at(part, (i * per_part) as u64).is_ok());
    // A file that changed size while it was read is read again the plain way.
    if !whole || file.read_at(&mut [0u8], len)? != 0 {
        return std::fs::read(path);
    }
    Ok(bytes)
}

#[cfg(not(unix))]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Reads every `-f` argument (`-` is stdin) into one snapshot. Input that yields no
/// object at all is an error, not an empty answer.
pub fn load_paths(paths: &[String]) -> Result<Loaded, ReadError> {
    let mut loaded = Loaded::default();
    let (mut files_read, mut skipped) = (0usize, Vec::new());
    for arg in paths {
        if arg == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| ReadError::io(Path::new("<stdin>"), &e))?;
            load_text(&text, "<stdin>", &mut loaded)?;
            files_read += 1;
            continue;
        }
        let expanded = expand_path(Path::new(arg))?;
        for (file, why) in expanded.skipped {
            let spot = skipped_spot(&file, why);
            skipped.push(spot.message.clone());
            loaded.snapshot.blind_spots.push(spot);
        }
        for file in expanded.files {
            let bytes = read_file(&file).map_err(|e| ReadError::io(&file, &e))?;
            let text = String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
                path: file.display().to_string(),
                byte: e.utf8_error().valid_up_to(),
            })?;
            load_text(&text, &file.display().to_string(), &mut loaded)?;
            files_read += 1;
        }
    }
    if loaded.snapshot.objects.is_empty() {
        return Err(nothing_read(paths, files_read, &skipped, &loaded));
    }
    Ok(loaded)
}

/// The blind spot of a directory entry that was not read.
fn skipped_spot(file: &Path, why: &str) -> crate::model::BlindSpot {
    crate::model::BlindSpot {
        group: String::new(),
        kind: String::new(),
        namespace: None,
        reason: crate::model::BlindReason::Error,
        message: format!("{} was not read: {why}", file.display()),
        file: Some(file.display().to_string()),
        document: None,
    }
}

/// The error for input that yielded no object: what was found instead.
fn nothing_read(
    paths: &[String],
    files_read: usize,
    skipped: &[String],
    loaded: &Loaded,
) -> ReadError {
    let named = paths.join(", ");
    let found = match (files_read, loaded.malformed.len()) {
        (0, _) if !skipped.is_empty() => format!(
            "no manifest file could be read ({} skipped; the first: {})",
            skipped.len(),
            skipped[0]
        ),
        (0, _) => "no *.yaml, *.yml or *.json file in it".to_string(),
        (_, 0) => format!(
            "no Kubernetes object in {files_read} file{} (empty, or only comments)",
            if files_read == 1 { "" } else { "s" }
        ),
        (_, n) => format!(
            "no valid Kubernetes object: {n} document{} could not be read, the first: {}",
            if n == 1 { "" } else { "s" },
            loaded.malformed[0]
        ),
    };
    ReadError::NothingRead {
        paths: named,
        found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NamespaceLinks;

    #[test]
    fn a_large_file_read_in_parts_is_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("large.json");
        // Not a multiple of the part size, and no two parts alike.
        let bytes: Vec<u8> = (0..(5 << 20) + 7).map(|i: u32| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_file(&path).unwrap() == bytes);
        let small = dir.path().join("small.json");
        std::fs::write(&small, b"{}").unwrap();
        assert_eq!(read_file(&small).unwrap(), b"{}");
        assert!(read_file(&dir.path().join("missing.json")).is_err());
    }

    #[test]
    fn objects_without_a_namespace_go_where_kubectl_apply_puts_them() {
        let text = r#"
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: meshes.example.io}
spec: {group: example.io, scope: Cluster, names: {kind: Mesh, plural: meshes}}
---
apiVersion: example.io/v1
kind: Mesh
metadata: {name: global}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop}
spec: {parentRefs: [{name: gw, namespace: infra}]}
---
apiVersion: v1
kind: Service
metadata: {name: pinned, namespace: elsewhere}
"#;
        let mut loaded = Loaded::default();
        load_text(text, "f.yaml", &mut loaded).unwrap();
        loaded.place_in("team");
        let ns: Vec<(String, Option<String>)> = loaded
            .snapshot
            .objects
            .iter()
            .map(|o| {
                (
                    o.name.to_string(),
                    o.namespace.as_deref().map(str::to_string),
                )
            })
            .collect();
        let team = Some("team".to_string());
        assert_eq!(
            ns,
            [
                ("gc".into(), None),
                ("meshes.example.io".into(), None),
                ("global".into(), None),
                ("shop".into(), team),
                ("pinned".into(), Some("elsewhere".into())),
            ]
        );
        // The route's link to its Gateway's namespace is read from its new namespace.
        let links = NamespaceLinks::of(&loaded.snapshot.objects);
        let parents: Vec<&str> = links.parents_of("team").collect();
        assert_eq!(parents, ["infra"]);
    }
}
