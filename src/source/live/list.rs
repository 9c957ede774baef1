//! One list, read to its end: paginated (`limit` 500, following `continue`), a 410
//! Expired on a continue token (the snapshot behind it was compacted) restarting it once
//! from the beginning, a continue token given twice stopping it, and a long
//! cluster-wide list read per namespace instead when that pays. Retries on 429 and 5xx
//! (with Retry-After) are the client's (`api.rs`).

use super::api::{Api, ApiError};
use super::page::{read_page, Page};
use crate::model::read::Resource;
use crate::model::{GroupKind, MalformedObject, Object, Origin};
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Page size of every list, as kubectl uses.
const PAGE_SIZE: usize = 500;

/// One list to make: a kind, cluster-wide (no namespace) or in one namespace, with a
/// label selector or not.
#[derive(Clone, Debug)]
pub(super) struct ListRequest {
    pub(crate) resource: Resource,
    pub(crate) namespace: Option<String>,
    pub(crate) selector: Option<String>,
}

impl ListRequest {
    /// The list of every object of `resource`, in `namespace` or cluster-wide.
    pub(crate) fn of(resource: &Resource, namespace: Option<String>) -> ListRequest {
        ListRequest {
            resource: resource.clone(),
            namespace,
            selector: None,
        }
    }

    /// Which list it is, to file its result under.
    pub(crate) fn key(&self) -> ListKey {
        ListKey {
            gk: self.resource.group_kind(),
            namespace: self.namespace.clone(),
        }
    }
}

/// One list: a kind, cluster-wide or in one namespace.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct ListKey {
    pub(crate) gk: GroupKind,
    pub(crate) namespace: Option<String>,
}

/// What one list gave.
pub(super) enum Listing {
    Items(Vec<Object>, Vec<MalformedObject>),
    /// A cluster-wide list too long to page through one page at a time: list it per
    /// namespace instead, concurrently.
    Shard,
}

/// What every list shares: the client, the bound on requests in flight, and what
/// decides whether a long list is sharded.
pub(super) struct ListContext {
    pub(crate) api: Api,
    pub(crate) permits: Arc<Semaphore>,
    pub(crate) server: String,
    /// How many namespaces a sharded list would be read in.
    pub(crate) shard_namespaces: usize,
    pub(crate) concurrency: usize,
}

/// How one pass through a list's pages ended.
enum Pass {
    ListField(Listing),
    /// 410 Expired on a continue token.
    Expired(ApiError),
}

/// Lists every page of one collection; a list whose continue token expired is listed
/// again from the beginning, once.
pub(super) async fn list_all(
    context: ListContext,
    request: ListRequest,
) -> Result<Listing, ApiError> {
    match list_pages(&context, &request).await? {
        Pass::ListField(listing) => Ok(listing),
        Pass::Expired(_) => match list_pages(&context, &request).await? {
            Pass::ListField(listing) => Ok(listing),
            Pass::Expired(error) => Err(error),
        },
    }
}

/// One pass through a list's pages, from the first.
async fn list_pages(context: &ListContext, request: &ListRequest) -> Result<Pass, ApiError> {
    let base = request.resource.list_path(request.namespace.as_deref());
    let origin = Origin {
        file: format!("{}{base}", context.server).into(),
        document: 0,
    };
    let mut objects = Vec::new();
    let mut errors = Vec::new();
    let mut token: Option<String> = None;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut pages = 0usize;
    loop {
        pages += 1;
        let query = page_query(&base, request.selector.as_deref(), token.as_deref());
        let body = {
            let _permit = context.permits.acquire().await;
            context
                .api
                .get(&query, request.resource.list_accept())
                .await
        };
        let body = match body {
            Err(error) if error.code() == Some(410) && token.is_some() => {
                return Ok(Pass::Expired(error))
            }
            other => other?,
        };
        let page = Page {
            resource: &request.resource,
            origin: &origin,
            objects: &mut objects,
            errors: &mut errors,
        };
        let page = read_page(&body, page)?;
        let page_len = page.items;
        let first_page = token.is_none();
        let remaining = page
            .metadata
            .as_ref()
            .and_then(|m| m.remaining_item_count)
            .unwrap_or(0);
        let next = page
            .metadata
            .and_then(|m| m.continue_token)
            .filter(|t| !t.is_empty());
        // A token seen before means the pages go round: the list would never end.
        if let Some(next) = &next {
            if !seen.insert(next.clone()) {
                return Err(going_round(pages));
            }
        }
        token = next;
        if token.is_none() {
            return Ok(Pass::ListField(Listing::Items(objects, errors)));
        }
        if first_page
            && request.namespace.is_none()
            && request.resource.namespaced
            && shard_pays(
                remaining,
                page_len,
                context.shard_namespaces,
                context.concurrency,
            )
        {
            return Ok(Pass::ListField(Listing::Shard));
        }
    }
}

/// A page's path and query: the page size, the label selector, the continue token.
fn page_query(base: &str, selector: Option<&str>, token: Option<&str>) -> String {
    let mut query = format!("{base}?limit={PAGE_SIZE}");
    if let Some(selector) = selector {
        query.push_str("&labelSelector=");
        query.push_str(&encode(selector));
    }
    if let Some(token) = token {
        query.push_str("&continue=");
        query.push_str(&encode(token));
    }
    query
}

/// A list whose server gave a continue token it had given before, after `pages` pages.
fn going_round(pages: usize) -> ApiError {
    ApiError::Invalid(format!(
        "the server gave a continue token it had given before, after {pages} {}; the list was stopped, as it would never end",
        if pages == 1 { "page" } else { "pages" }
    ))
}

/// Whether listing per namespace, concurrently, beats paging through the remaining
/// items one page after another: it must take clearly fewer rounds of requests, and
/// not many more requests in all.
fn shard_pays(remaining: u64, page_len: usize, namespaces: usize, concurrency: usize) -> bool {
    let pages = remaining.div_ceil(page_len.max(1) as u64) as usize;
    let rounds = namespaces.div_ceil(concurrency.max(1));
    namespaces > 0 && pages >= 3 && rounds * 2 <= pages && namespaces <= pages * 4
}

/// Percent-encodes a query value (label selectors and continue tokens).
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(
            encode("gateway.networking.k8s.io/policy"),
            "gateway.networking.k8s.io%2Fpolicy"
        );
        assert_eq!(encode("a=b,c"), "a%3Db%2Cc");
    }

    #[test]
    fn a_page_query_carries_the_selector_and_the_token_encoded() {
        assert_eq!(
            page_query("/api/v1/services", None, None),
            "/api/v1/services?limit=500"
        );
        assert_eq!(
            page_query("/x", Some("a=b"), Some("t/1")),
            "/x?limit=500&labelSelector=a%3Db&continue=t%2F1"
        );
    }
}
