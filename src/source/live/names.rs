//! The names shell completion offers from a live cluster: the namespaces (`-n <TAB>`),
//! read with one GET of their list's metadata.

use super::{connect, LiveOptions};
use anyhow::{anyhow, Context, Result};

/// The names of the cluster's namespaces, sorted. One request (metadata only, as a
/// `PartialObjectMetadataList`), bounded by the request timeout.
pub fn namespace_names(opts: &LiveOptions) -> Result<Vec<String>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the I/O runtime")?;
    runtime.block_on(async {
        let cluster = connect(opts).await?;
        let body = cluster
            .api
            .get(
                "/api/v1/namespaces",
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
            )
            .await
            .map_err(|e| anyhow!("listing namespaces at {}: {e}", cluster.server))?;
        names_in(&body)
    })
}

/// `items[].metadata.name` of a list.
fn names_in(body: &[u8]) -> Result<Vec<String>> {
    let list: serde_json::Value =
        serde_json::from_slice(body).context("reading the namespace list")?;
    let mut names: Vec<String> = list
        .get("items")
        .and_then(|i| i.as_array())
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.pointer("/metadata/name").and_then(|n| n.as_str()))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    Ok(names)
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
