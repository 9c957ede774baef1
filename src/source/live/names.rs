//! The names shell completion offers from a live cluster: the namespaces (`-n <TAB>`)
//! and the objects of one kind (`describe httproute/<TAB>`), each read with one GET of a
//! list's metadata (after discovery, for a kind).

use super::{connect, LiveError, LiveOptions};
use crate::model::read::Resource;
use crate::model::{GroupKind, ObjRef};

/// How a list's metadata is asked for: names and namespaces only.
const METADATA: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// The objects of the kind TYPE names in `namespace` (None: every namespace), sorted by
/// name then namespace: `known`, the kind TYPE names among the kinds known without the
/// cluster, else the kind discovery serves under that name (its lowercase kind or plural,
/// with `.group` or not). A TYPE the cluster does not serve has none.
pub fn object_refs(
    opts: &LiveOptions,
    type_word: &str,
    known: Option<&GroupKind>,
    namespace: Option<&str>,
) -> Result<Vec<ObjRef>, LiveError> {
    current_thread_runtime()?.block_on(async {
        let cluster = connect(opts).await?;
        let discovery = cluster.discover().await?;
        let served = known
            .and_then(|gk| discovery.get(gk))
            .or_else(|| served_as(&discovery, type_word));
        let Some(resource) = served else {
            return Ok(Vec::new());
        };
        let gk = resource.group_kind();
        let path = resource.list_path(namespace);
        let body = cluster
            .api
            .get(&path, METADATA)
            .await
            .map_err(|error| LiveError::Listing {
                what: resource.display(),
                server: cluster.server.clone(),
                error,
            })?;
        let mut refs: Vec<ObjRef> = items(&body)?
            .into_iter()
            .map(|(ns, name)| ObjRef::new(&gk.group, &gk.kind, ns.as_deref(), &name))
            .collect();
        refs.sort_by(|a, b| (&a.name, &a.namespace).cmp(&(&b.name, &b.namespace)));
        Ok(refs)
    })
}

/// The names of the cluster's namespaces, sorted. One request (metadata only, as a
/// `PartialObjectMetadataList`), bounded by the request timeout.
pub fn namespace_names(opts: &LiveOptions) -> Result<Vec<String>, LiveError> {
    current_thread_runtime()?.block_on(async {
        let cluster = connect(opts).await?;
        let body = cluster
            .api
            .get("/api/v1/namespaces", METADATA)
            .await
            .map_err(|error| LiveError::Listing {
                what: "namespaces".into(),
                server: cluster.server.clone(),
                error,
            })?;
        names_in(&body)
    })
}

/// A runtime on this thread, for one or two requests.
fn current_thread_runtime() -> Result<tokio::runtime::Runtime, LiveError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| LiveError::Runtime { error })
}

/// The resource discovery serves under TYPE: its lowercase kind or its plural, with
/// `.group` or not.
fn served_as<'a>(
    discovery: &'a super::discovery::Discovery,
    type_word: &str,
) -> Option<&'a Resource> {
    let word = type_word.to_lowercase();
    let (name, group) = match word.split_once('.') {
        Some((n, g)) => (n, Some(g)),
        None => (word.as_str(), None),
    };
    discovery.resources.values().find(|r| {
        (r.kind.to_lowercase() == name || r.plural == name) && group.is_none_or(|g| g == r.group)
    })
}

/// `items[].metadata.name` of a list, sorted.
fn names_in(body: &[u8]) -> Result<Vec<String>, LiveError> {
    let mut names: Vec<String> = items(body)?.into_iter().map(|(_, n)| n).collect();
    names.sort();
    Ok(names)
}

/// Each item's namespace (if any) and name.
fn items(body: &[u8]) -> Result<Vec<(Option<String>, String)>, LiveError> {
    let list: serde_json::Value =
        serde_json::from_slice(body).map_err(|error| LiveError::NotAList { error })?;
    Ok(list
        .get("items")
        .and_then(|i| i.as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|i| {
                    let meta = i.get("metadata")?;
                    let name = meta.get("name")?.as_str()?.to_string();
                    let ns = meta.get("namespace").and_then(|n| n.as_str());
                    Some((ns.map(str::to_string), name))
                })
                .collect()
        })
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_a_list_sorted() {
        let body = br#"{"kind":"PartialObjectMetadataList","items":[{"metadata":{"name":"b"}},{"metadata":{"name":"a"}},{"metadata":{}}]}"#;
        assert_eq!(names_in(body).unwrap(), ["a", "b"]);
        assert!(names_in(b"not json").is_err());
    }
}
