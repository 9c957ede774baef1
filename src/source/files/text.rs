//! One file's text decoded: JSON (one value, several concatenated, a large List read
//! on every core) or YAML (any number of documents, split as kubectl splits them, read
//! with budgets sized to the input), each document's objects added to what was loaded;
//! a text that cannot be decoded is a `SyntaxError` naming file, document and line.

use super::Loaded;
use crate::source::document::{Doc, MapOr};
use crate::source::{objects_from_document, MalformedObject, Origin};
use serde_json::Value;
use std::fmt;

/// A file that cannot be decoded at all: exit 1 with this line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub(crate) file: String,
    pub(crate) document: usize,
    pub(crate) line: Option<u64>,
    pub(crate) message: String,
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

/// Decodes one file's text (JSON, or YAML with any number of documents) into `loaded`.
pub fn load_text(text: &str, file: &str, loaded: &mut Loaded) -> Result<(), SyntaxError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // JSON: one value, or several concatenated (as `kubectl get -o json` of many
        // objects). Read as only the fields the tool uses: the rest is skipped as it
        // streams by, and no document is held whole. A large List is read on every
        // core, when its text allows it (see `split`).
        if trimmed.len() >= crate::source::split::MIN_BYTES {
            if let Some(doc) = crate::source::split::read_list(trimmed) {
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
        match crate::source::recorded_blind_spots(d, &origin) {
            Ok(spots) => loaded.snapshot.blind_spots.extend(spots),
            Err(e) => loaded.malformed.push(e),
        }
        match crate::source::recorded_listed(d, &origin) {
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
    pub(crate) number: usize,
    /// 1-based line of the file where `text` starts.
    pub(crate) first_line: u64,
    pub(crate) text: &'a str,
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
