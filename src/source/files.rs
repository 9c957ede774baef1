//! `-f PATH`: files, directories (recursive) and stdin, YAML or JSON, one or many documents.

use super::document::{Doc, MapOr};
use super::{objects_from_document, MalformedObject, Origin, Snapshot};
use crate::model::Crd;
use serde_json::Value;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A file that cannot be decoded at all: exit 1 with this line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub file: String,
    pub document: usize,
    pub line: Option<u64>,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document {}", self.file, self.document)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for SyntaxError {}

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
    pub files: Vec<PathBuf>,
    /// Entries named like manifests that are not regular files (a FIFO, a device, a
    /// link to one or to a directory): never opened, since reading one could hang or
    /// never end. Each is a blind spot of the answer.
    pub skipped: Vec<(PathBuf, &'static str)>,
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

/// Decodes one file's text (JSON, or YAML with any number of documents) into `loaded`.
pub fn load_text(text: &str, file: &str, loaded: &mut Loaded) -> Result<(), SyntaxError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // JSON: one value, or several concatenated (as `kubectl get -o json` of many
        // objects). Read as only the fields the tool uses: the rest is skipped as it
        // streams by, and no document is held whole. A large List is read on every
        // core, when its text allows it (see `split`).
        if trimmed.len() >= super::split::MIN_BYTES {
            if let Some(doc) = super::split::read_list(trimmed) {
                add_document(doc, file, 1, loaded);
                return Ok(());
            }
        }
        let leading = text.len() - trimmed.len();
        let leading_lines = text.as_bytes()[..leading]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let stream = serde_json::Deserializer::from_str(trimmed).into_iter::<MapOr<Doc>>();
        for (i, doc) in stream.enumerate() {
            let document = i + 1;
            let doc = doc.map_err(|e| SyntaxError {
                file: file.into(),
                document,
                line: Some(
                    // The lines of the blank text before the JSON.
                    (e.line() + leading_lines) as u64,
                ),
                message: format!("invalid JSON: {e}"),
            })?;
            add_document(doc, file, document, loaded);
        }
        return Ok(());
    }
    // YAML allows a line to end in CR alone (old Mac files); the documents are split
    // on LF, so such a file is read with its line breaks made LF, lines counted alike.
    let text = lf_line_breaks(text);
    for doc in split_yaml_documents(&text) {
        let v: Value = serde_saphyr::from_str_with_options(doc.text, yaml_options(doc.text.len()))
            .map_err(|e| {
                let line = e.location().map(|l| l.line() + doc.first_line - 1);
                SyntaxError {
                    file: file.into(),
                    document: doc.number,
                    line,
                    message: yaml_error_message(&e),
                }
            })?;
        add_document(MapOr::from(v), file, doc.number, loaded);
    }
    Ok(())
}

/// `text` with every CR that ends a line alone (not followed by LF) made LF; borrowed
/// when there is none (LF and CRLF files).
fn lf_line_breaks(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !text.contains('\r') || !(0..bytes.len()).any(lone_cr) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// What a YAML error means, in words, instead of the reader's own (its budget's debug
/// form, its advice to call another function).
fn yaml_error_message(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    use serde_saphyr::Error as E;
    // The cause, under the reader's wrappers: a limit met while an alias was replayed
    // is an alias bomb, whichever limit it was.
    let (mut cause, mut via_alias) = (e.without_snippet(), false);
    while let E::AliasError { error, .. } = cause {
        (cause, via_alias) = (error.without_snippet(), true);
    }
    if via_alias && matches!(cause, E::Budget { .. }) {
        return "expands far beyond its own size through YAML aliases (an alias bomb?): refused"
            .into();
    }
    match cause {
        E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => {
            "expands far beyond its own size through YAML aliases (an alias bomb?): refused".into()
        }
        E::Budget { breach, .. } => match breach {
            B::Depth { .. } => {
                format!("nested deeper than {MAX_DEPTH} levels; no Kubernetes object is: refused")
            }
            B::Aliases { .. } | B::Anchors { .. } | B::AliasAnchorRatio { .. } => {
                "too many YAML aliases for its anchors (an alias bomb?): refused".into()
            }
            _ => "expands far beyond its own size (YAML aliases?): refused".into(),
        },
        E::MultipleDocuments { .. } => {
            "holds several YAML documents not separated by a `---` line of its own".into()
        }
        other => format!(
            "invalid YAML: {}",
            without_place(&first_line(&other.to_string()))
        ),
    }
}

/// The reader's message without its own `error: line N column M: ` (the line is said
/// once, by the caller, counted in the file).
fn without_place(message: &str) -> &str {
    let rest = message.strip_prefix("error: ").unwrap_or(message);
    match rest.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
        Some((place, said)) if place.contains(" column ") => said,
        _ => rest,
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().trim().to_string()
}

fn add_document(doc: MapOr<Doc>, file: &str, document: usize, loaded: &mut Loaded) {
    let origin = Origin {
        file: file.into(),
        document,
    };
    // A `dump` records what it could not read; reading it back keeps that honest.
    if let MapOr::Map(d) = &doc {
        match super::recorded_blind_spots(d, &origin) {
            Ok(spots) => loaded.snapshot.blind_spots.extend(spots),
            Err(e) => loaded.malformed.push(e),
        }
        match super::recorded_listed(d, &origin) {
            Ok(listed) if !listed.is_empty() => {
                let all = loaded.snapshot.listed.get_or_insert_with(Default::default);
                all.extend(listed);
            }
            Ok(_) => {}
            Err(e) => loaded.malformed.push(e),
        }
    }
    let before = loaded.malformed.len();
    objects_from_document(
        doc,
        &origin,
        &mut loaded.snapshot.objects,
        &mut loaded.malformed,
    );
    // Nothing read is dropped in silence: every answer says what was not shown.
    let invalid = loaded.malformed[before..]
        .iter()
        .map(MalformedObject::blind_spot);
    loaded.snapshot.blind_spots.extend(invalid);
}

/// How deep a document may nest: no Kubernetes object comes near it, and a deeper one
/// is refused before it can exhaust the stack.
const MAX_DEPTH: usize = 200;

/// Parser budgets for a document of `len` bytes: sized to the input, so that a `dump`
/// of any size reads back (without aliases a byte of text makes at most a few events:
/// `- ` opens a sequence and holds a null), while alias bombs (many events out of few
/// bytes) are still refused by the alias limits, which do not grow with it.
/// Indentation is read as kubectl reads it (go-yaml, a port of libyaml), not as
/// strictly as YAML 1.2 asks: the continuation lines of a quoted scalar may sit left of
/// its key, as in generated CRDs whose long CEL rules are wrapped. Their leading
/// spaces are never part of the value, so this takes what kubectl takes and reads it
/// the same.
pub(crate) fn yaml_options(len: usize) -> serde_saphyr::Options {
    let defaults = serde_saphyr::Budget::default();
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            max_aliases: 10_000,
            max_anchors: 10_000,
            max_events: defaults.max_events.max(len.saturating_mul(4)),
            max_nodes: defaults.max_nodes.max(len.saturating_mul(2)),
            max_total_scalar_bytes: defaults.max_total_scalar_bytes.max(len),
            max_reader_input_bytes: None,
        },
        strict_indentation: false,
    }
}

/// One YAML document of a stream, with where it starts.
pub(crate) struct YamlDoc<'a> {
    pub number: usize,
    /// 1-based line of the file where `text` starts.
    pub first_line: u64,
    pub text: &'a str,
}

/// Splits a YAML stream at `---` markers in column 0. A block scalar cannot hold a
/// column-0 line, so a marker there always starts a new document. Document numbers
/// count every document, empty ones too, as a reader counting `---` would.
pub(crate) fn split_yaml_documents(text: &str) -> Vec<YamlDoc<'_>> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u64;
    let mut offset = 0usize;
    let mut seen_content = false;
    let mut number = 0usize;
    for (line_no, line) in (1u64..).zip(text.split_inclusive('\n')) {
        let bare = line.trim_end_matches(['\n', '\r']);
        let is_marker = bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t");
        if is_marker {
            if seen_content || number > 0 || start < offset {
                let chunk = text.get(start..offset).unwrap_or_default();
                if number > 0 || !is_blank_yaml(chunk) {
                    number += 1;
                    docs.push(YamlDoc {
                        number,
                        first_line: start_line,
                        text: chunk,
                    });
                }
            }
            // Content after `--- ` on the marker line belongs to the new document.
            start = offset + 3;
            start_line = line_no;
            seen_content = false;
        } else if !is_blank_yaml(bare) {
            seen_content = true;
        }
        offset += line.len();
    }
    let chunk = text.get(start..).unwrap_or_default();
    if number > 0 || !is_blank_yaml(chunk) {
        number += 1;
        docs.push(YamlDoc {
            number,
            first_line: start_line,
            text: chunk,
        });
    }
    docs
}

fn is_blank_yaml(s: &str) -> bool {
    s.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "..." || t.starts_with('%')
    })
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

    #[test]
    fn lists_in_one_json_stream_keep_their_items_order_and_documents() {
        let svc = |name: &str| {
            format!(r#"{{"apiVersion":"v1","kind":"Service","metadata":{{"name":"{name}"}}}}"#)
        };
        // The first List is all objects; the second has a document, a null and a
        // broken item between its objects.
        let text = format!(
            r#"{{"kind":"List","items":[{},{}]}}
            {{"kind":"ServiceList","apiVersion":"v1","items":[{},{{"metadata":{{"name":"d"}}}},{},null,{{"apiVersion":"v1","kind":"Service"}},{}]}}"#,
            svc("a"),
            svc("b"),
            svc("c"),
            svc("e"),
            svc("f"),
        );
        let mut loaded = Loaded::default();
        load_text(&text, "s.json", &mut loaded).unwrap();
        let got: Vec<String> = loaded
            .snapshot
            .objects
            .iter()
            .map(|o| format!("{}@{}", o.name, o.origin))
            .collect();
        assert_eq!(
            got,
            [
                "a@s.json (document 1)",
                "b@s.json (document 1)",
                "c@s.json (document 2)",
                "d@s.json (document 2)",
                "e@s.json (document 2)",
                "f@s.json (document 2)",
            ]
        );
        let errors: Vec<String> = loaded.malformed.iter().map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("items[4].metadata"), "{errors:?}");
    }

    #[test]
    fn splits_documents_and_counts_them() {
        let text = "a: 1\n---\nb: 2\n--- \n\n---\nc: 3\n";
        let docs = split_yaml_documents(text);
        let numbers: Vec<_> = docs.iter().map(|d| (d.number, d.first_line)).collect();
        assert_eq!(numbers, vec![(1, 1), (2, 2), (3, 4), (4, 6)]);
        assert!(docs[1].text.contains("b: 2"));
    }

    #[test]
    fn leading_marker_starts_document_one() {
        let docs = split_yaml_documents("---\nkind: A\n---\nkind: B\n");
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].number, 1);
        assert_eq!(docs[1].number, 2);
    }

    #[test]
    fn syntax_error_names_file_document_and_line() {
        let text = "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\nkind: [unclosed\n";
        let mut loaded = Loaded::default();
        let err = load_text(text, "bad.yaml", &mut loaded).unwrap_err();
        assert_eq!(err.file, "bad.yaml");
        assert_eq!(err.document, 2);
        assert!(err.line.is_some_and(|l| l >= 5), "line: {:?}", err.line);
        assert!(err.to_string().starts_with("bad.yaml: document 2, line"));
    }

    /// A CRD whose quoted scalars continue left of their key (as gwctl's sample1 wraps
    /// its CEL rules), and other continuations PyYAML takes: at column 0, after an
    /// escaped line break, after a tab, after a blank line, and starting with an
    /// escaped quote. The values expected are PyYAML's.
    #[test]
    fn quoted_scalars_continued_left_of_their_key_read_as_kubectl_reads_them() {
        let text = r#"apiVersion: v1
kind: ConfigMap
metadata: {name: first}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: backendtlspolicies.gateway.networking.k8s.io
spec:
  versions:
  - name: v1alpha3
    schema:
      openAPIV3Schema:
        properties:
          subjectAltNames:
            items:
              x-kubernetes-validations:
              - message: SubjectAltName element must contain URI, if Type
                  is set to URI
                rule: '!(self.type == "URI" && (!has(self.uri) || self.uri
              == ""))'
              - message: SubjectAltName element must not contain URI, if Type
                  is not set to URI
                rule: '!(self.type != "URI" && has(self.uri) && self.uri !=
              "")'
            maxItems: 5
    certificate: "-----BEGIN CERTIFICATE-----
MIIB
-----END CERTIFICATE-----"
    escaped: "one\
  two"
    tabbed: 'one
<TAB>two'
    blank: 'one

  two'
    quote: 'it
''s'
"#
        .replace("<TAB>", "\t");
        let mut loaded = Loaded::default();
        load_text(&text, "crd.yaml", &mut loaded).unwrap();
        assert!(loaded.malformed.is_empty(), "{:?}", loaded.malformed);
        let crd = &loaded.snapshot.objects[1];
        assert_eq!(crd.origin.to_string(), "crd.yaml (document 2)");
        let rules = serde_json::json!([
            {
                "message": "SubjectAltName element must contain URI, if Type is set to URI",
                "rule": r#"!(self.type == "URI" && (!has(self.uri) || self.uri == ""))"#,
            },
            {
                "message": "SubjectAltName element must not contain URI, if Type is not set to URI",
                "rule": r#"!(self.type != "URI" && has(self.uri) && self.uri != "")"#,
            },
        ]);
        let version = &crd.spec["versions"][0];
        let properties = &version["schema"]["openAPIV3Schema"]["properties"];
        assert_eq!(
            properties["subjectAltNames"]["items"]["x-kubernetes-validations"].to_value(),
            rules
        );
        assert_eq!(properties["subjectAltNames"]["maxItems"].as_u64(), Some(5));
        for (field, value) in [
            (
                "certificate",
                "-----BEGIN CERTIFICATE----- MIIB -----END CERTIFICATE-----",
            ),
            ("escaped", "onetwo"),
            ("tabbed", "one two"),
            ("blank", "one\ntwo"),
            ("quote", "it 's"),
        ] {
            assert_eq!(version[field], value, "{field}");
        }
    }

    /// Taking what kubectl takes does not take broken YAML: an unclosed quoted scalar,
    /// one cut by a document marker, and a key left of its siblings are refused, with
    /// their file, document and line.
    #[test]
    fn broken_yaml_around_quoted_scalars_is_still_refused() {
        for (text, document, line) in [
            ("kind: A\n---\nkind: B\nrule: 'one\ntwo\n", 2, 4),
            ("kind: A\nrule: 'one\n--- two'\n", 1, 2),
            ("kind: A\nmetadata:\n  name: a\n namespace: b\n", 1, 4),
            ("kind: A\nrule: \"one\ntwo\" three\n", 1, 3),
        ] {
            let mut loaded = Loaded::default();
            let err = load_text(text, "bad.yaml", &mut loaded).unwrap_err();
            assert_eq!(
                (err.document, err.line),
                (document, Some(line)),
                "{text:?}: {err}"
            );
            assert!(err.message.starts_with("invalid YAML: "), "{err}");
        }
    }

    #[test]
    fn typed_lists_fill_kind_and_api_version() {
        let text = r#"{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRouteList","items":[{"metadata":{"name":"a","namespace":"n"}}]}"#;
        let mut loaded = Loaded::default();
        load_text(text, "x.json", &mut loaded).unwrap();
        let o = &loaded.snapshot.objects[0];
        assert_eq!(
            (o.kind.as_str(), o.api_version.as_str()),
            ("HTTPRoute", "gateway.networking.k8s.io/v1")
        );
    }

    #[test]
    fn wrong_shape_is_reported_not_fatal() {
        let text = "apiVersion: v1\nkind: Service\nmetadata: [1]\n---\napiVersion: v1\nkind: Service\nmetadata: {name: ok}\n";
        let mut loaded = Loaded::default();
        load_text(text, "f.yaml", &mut loaded).unwrap();
        assert_eq!(loaded.snapshot.objects.len(), 1);
        assert_eq!(loaded.malformed[0].field, "metadata");
        assert_eq!(loaded.malformed[0].origin.document, 1);
    }
}
