//! What `dump` writes: one `List` of everything read, as `kubectl get -o yaml` prints
//! one, its blind spots recorded in an annotation so that reading the dump back with
//! `-f` stays honest about what it could not see.

use super::files::Loaded;
use super::BLIND_SPOTS_ANNOTATION;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The `List` `dump` writes.
#[derive(Clone, Debug, Serialize)]
pub struct DumpList {
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub kind: &'static str,
    pub metadata: DumpMeta,
    pub items: Vec<Value>,
}

/// The dump's metadata: the blind spots of the read, when there are any.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DumpMeta {
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<&'static str, String>,
}

impl DumpList {
    pub fn of(loaded: &Loaded) -> DumpList {
        let mut metadata = DumpMeta::default();
        if !loaded.snapshot.blind_spots.is_empty() {
            let spots = serde_json::to_string(&loaded.snapshot.blind_spots).unwrap_or_default();
            metadata.annotations.insert(BLIND_SPOTS_ANNOTATION, spots);
        }
        DumpList {
            api_version: "v1",
            kind: "List",
            metadata,
            items: loaded
                .snapshot
                .objects
                .iter()
                .map(|o| o.to_value())
                .collect(),
        }
    }
}
