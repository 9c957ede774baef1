//! A large JSON List read on every core: `kubectl get -o json` of a cluster, or a
//! `dump`, is one document whose `items` are most of its bytes.
//!
//! A quick scan finds where the top-level `items` array and each of its elements lie.
//! The elements are then read, independently, on every core, and the rest of the
//! document (its envelope) is read with the array left empty. The result is the same
//! `Doc` the serial reader gives, because the pieces are checked, not trusted: the
//! envelope and every element must each read as valid JSON on their own, and then the
//! whole text is valid JSON made of exactly those pieces. Anything the scan does not
//! expect (a second document, a key written with escapes, a second `items`, deep
//! nesting, invalid JSON) gives `None`, and the caller reads the text serially, which
//! also reports errors with the line they are on.

use super::document::{read_item, Doc, Item, Items, MapOr};
use crate::model::Object;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Below this size a document is read serially: splitting it would not pay.
pub(crate) const MIN_BYTES: usize = 1 << 20;

/// Deeper nesting is left to the serial reader, whose recursion limit counts from the
/// document's top (an element read alone would start its count two levels lower).
const MAX_DEPTH: usize = 64;

/// The document `text` (one JSON value, nothing after it but whitespace), read with
/// its `items` shared among the cores; `None` when the serial reader must read it.
///
/// The scan runs on one thread of the pool (a `rayon::scope`) and hands each run of
/// elements to the others (`spawn`) as soon as it has found it; once it is done, its
/// thread reads runs too. A run that does not read stops the runs not yet begun.
pub(crate) fn read_list(text: &str) -> Option<MapOr<Doc>> {
    let stopped = AtomicBool::new(false);
    let read: Mutex<Vec<(usize, Option<Run>)>> = Mutex::default();
    let layout = rayon::scope(|s| {
        let (stopped, read) = (&stopped, &read);
        let read_later = |i: usize, run: Vec<Range<usize>>| {
            s.spawn(move |_| {
                if stopped.load(Ordering::Relaxed) {
                    return;
                }
                let part = read_run(text, &run);
                if part.is_none() {
                    stopped.store(true, Ordering::Relaxed);
                }
                lock(read).push((i, part));
            });
        };
        let mut run = Vec::new();
        let (mut count, mut bytes) = (0, 0);
        let layout = layout(text.as_bytes(), |element| {
            bytes += element.len();
            run.push(element);
            if bytes >= RUN_BYTES {
                read_later(count, std::mem::take(&mut run));
                (count, bytes) = (count + 1, 0);
            }
        });
        if layout.is_none() {
            stopped.store(true, Ordering::Relaxed);
        } else if !run.is_empty() {
            read_later(count, run);
        }
        layout
    })?;
    // Every run was read unless one was stopped; then the serial reader reads it all.
    if layout.elements < 2 || stopped.into_inner() {
        return None;
    }
    // The envelope, with `items: []` in place of the array.
    let envelope = [text.get(..=layout.open)?, text.get(layout.close..)?].concat();
    let mut doc = match serde_json::from_str::<MapOr<Doc>>(&envelope).ok()? {
        MapOr::Map(d) => d,
        MapOr::Other(_) => return None,
    };
    let mut read = read.into_inner().unwrap_or_else(|e| e.into_inner());
    read.sort_unstable_by_key(|&(i, _)| i);
    let (mut items, mut objects) = (Vec::new(), Vec::new());
    items.reserve(layout.elements);
    for (_, part) in read {
        let (run_items, mut run_objects) = part?;
        items.extend(run_items);
        if objects.is_empty() {
            objects = run_objects;
        } else {
            objects.append(&mut run_objects);
        }
    }
    doc.items = Some(Items::List {
        items,
        read: objects,
    });
    Some(MapOr::Map(doc))
}

/// About this many bytes of elements make a run, read by one core at a time.
const RUN_BYTES: usize = 256 << 10;

type Run = (Vec<Item>, Vec<Object>);

/// Reads a run of elements as the serial reader reads a List's items.
fn read_run(text: &str, run: &[Range<usize>]) -> Option<Run> {
    let mut items = Vec::with_capacity(run.len());
    let mut objects = Vec::new();
    for element in run {
        let item = serde_json::from_str::<MapOr<Doc>>(text.get(element.clone())?).ok()?;
        items.push(read_item(item, &mut objects));
    }
    Some((items, objects))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where the top-level `items` array lies: its `[` and `]`, and how many elements it
/// holds.
#[derive(Debug, PartialEq)]
struct Layout {
    open: usize,
    close: usize,
    elements: usize,
}

/// Scans a JSON text for its top-level `items` array, handing each element's bytes
/// (with the whitespace around it) to `element` as it is found. Correct for valid JSON; on
/// anything else it may return a layout that does not fit, which reading the pieces
/// then refuses (see the module's comment).
fn layout(text: &[u8], mut element: impl FnMut(Range<usize>)) -> Option<Layout> {
    let mut i = skip_whitespace(text, 0);
    if text.get(i) != Some(&b'{') {
        return None;
    }
    let (mut depth, mut expect_key, mut key_is_items) = (0usize, false, false);
    let (mut items, mut in_items, mut element_start) = (None::<Layout>, false, 0);
    while i < text.len() {
        match text[i] {
            b'"' => {
                let end = end_of_string(text, i + 1)?;
                if depth == 1 && expect_key {
                    let key = &text[i + 1..end - 1];
                    if key.contains(&b'\\') {
                        return None;
                    }
                    key_is_items = key == b"items";
                    if key_is_items && items.is_some() {
                        return None;
                    }
                    expect_key = false;
                }
                i = end;
                continue;
            }
            open @ (b'{' | b'[') => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
                if depth == 1 {
                    expect_key = true;
                } else if depth == 2 && open == b'[' && key_is_items {
                    in_items = true;
                    element_start = i + 1;
                    items = Some(Layout {
                        open: i,
                        close: 0,
                        elements: 0,
                    });
                }
            }
            b'}' | b']' => {
                if depth == 2 && in_items {
                    let layout = items.as_mut()?;
                    layout.close = i;
                    let last = element_start..i;
                    if !(layout.elements == 0 && is_blank(&text[last.clone()])) {
                        layout.elements += 1;
                        element(last);
                    }
                    in_items = false;
                }
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let rest = skip_whitespace(text, i + 1);
                    return if rest == text.len() { items } else { None };
                }
            }
            b',' => {
                if depth == 1 {
                    expect_key = true;
                    key_is_items = false;
                } else if depth == 2 && in_items {
                    items.as_mut()?.elements += 1;
                    element(element_start..i);
                    element_start = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Just past the `"` that closes the string whose content starts at `from`.
fn end_of_string(text: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i = next_quote_or_escape(text, i);
        match text.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The first quote or backslash at or after `i`, or where fewer than eight bytes are
/// left if none comes before: found eight bytes at a time, each byte of a word tested
/// against both at once (as `memchr` does, without a call per string).
fn next_quote_or_escape(text: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const ESCAPES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // A byte of `x` is zero: its high bit is set in `zero(x)`. Higher bytes may be set
    // falsely after a zero byte, never before one: the lowest set byte is exact.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(word) = text.get(i..i + 8) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(word);
        let w = u64::from_le_bytes(bytes);
        let found = zero(w ^ QUOTES) | zero(w ^ ESCAPES);
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

fn skip_whitespace(text: &[u8], mut i: usize) -> usize {
    while i < text.len() && matches!(text[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

fn is_blank(text: &[u8]) -> bool {
    skip_whitespace(text, 0) == text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NamespaceLinks;

    #[test]
    fn a_string_ends_where_a_byte_at_a_time_finds_its_end() {
        let naive = |text: &[u8], mut i: usize| {
            while let Some(&b) = text.get(i) {
                match b {
                    b'"' => return Some(i + 1),
                    b'\\' => i += 2,
                    _ => i += 1,
                }
            }
            None
        };
        // Quotes and escapes at every offset in and across eight-byte words, and
        // bytes that differ from them by one bit.
        let alphabet = *b"abcdefg#\xa2\"\\!";
        for len in 0..40usize {
            for seed in 0..60usize {
                let text: Vec<u8> = (0..len)
                    .map(|k| alphabet[(k * 7 + seed * 13 + k * k * seed) % alphabet.len()])
                    .collect();
                for from in 0..=len {
                    assert_eq!(
                        end_of_string(&text, from),
                        naive(&text, from),
                        "{:?} from {from}",
                        String::from_utf8_lossy(&text)
                    );
                }
            }
        }
    }

    fn pieces(text: &str) -> Option<Vec<&str>> {
        let mut elements = Vec::new();
        let l = layout(text.as_bytes(), |e| elements.push(e))?;
        assert_eq!(&text[l.open..=l.open], "[");
        assert_eq!(&text[l.close..=l.close], "]");
        assert_eq!(l.elements, elements.len());
        Some(elements.into_iter().map(|e| text[e].trim()).collect())
    }

    #[test]
    fn the_scan_finds_the_top_level_items_and_their_elements() {
        let text = r#" {"kind":"List","metadata":{"items":[9]},"x":"items","items":[
            {"a":"],[{\"\\"}, [1,[2]] ,null, "s,]" ],"after":{"items":[]}}
        "#;
        assert_eq!(
            pieces(text).unwrap(),
            [r#"{"a":"],[{\"\\"}"#, "[1,[2]]", "null", r#""s,]""#]
        );
        assert_eq!(pieces(r#"{"items":[ ]}"#).unwrap(), Vec::<&str>::new());
        assert_eq!(pieces(r#"{"items":[1]}"#).unwrap(), ["1"]);
    }

    #[test]
    fn what_the_scan_does_not_expect_is_left_to_the_serial_reader() {
        for text in [
            r#"[{"items":[1,2]}]"#,
            r#"{"items":[1,2]} {"items":[3]}"#,
            r#"{"items":[1,2],"items":[3,4]}"#,
            r#"{"it\u0065ms":[1,2]}"#,
            r#"{"kind":"List"}"#,
            r#"{"items":[1,2]"#,
            r#"{"items":"[1,2]"}"#,
            r#"{"items":[1,2]}}"#,
        ] {
            assert_eq!(layout(text.as_bytes(), |_| {}), None, "{text}");
        }
        let deep = format!(r#"{{"items":[{}1{}]}}"#, "[".repeat(70), "]".repeat(70));
        assert_eq!(layout(deep.as_bytes(), |_| {}), None);
    }

    /// The objects, malformed documents and links a document gives.
    fn objects(doc: MapOr<Doc>) -> String {
        let origin = crate::model::Origin {
            file: "f.json".into(),
            document: 1,
        };
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        crate::source::objects_from_document(doc, &origin, &mut out, &mut errors);
        let links = NamespaceLinks::of(&out);
        format!("{out:?} {errors:?} {links:?}")
    }

    #[test]
    fn a_list_read_on_every_core_is_the_list_read_serially() {
        let mut items = vec![
            r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","namespace":"n",
                "labels":{"app":"a"}},"spec":{"ports":[{"port":80}]}}"#
                .to_string(),
            "null".into(),
            "3".into(),
            r#"{"metadata":{"name":"no-kind"}}"#.into(),
            r#"{"kind":"List","apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Service",
                "metadata":{"name":"inner","namespace":"n"}}]}"#
                .into(),
            r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":7}}"#.into(),
        ];
        // Enough routes for several runs, each linking namespaces.
        for i in 0..3000 {
            items.push(format!(
                r#"{{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute",
                "metadata":{{"name":"r-{i}","namespace":"app-{}"}},"spec":{{"parentRefs":
                [{{"name":"gw","namespace":"infra-{}"}}],"rules":[{{"backendRefs":
                [{{"name":"s-{i}","port":80}}]}}]}},"status":{{"parents":[]}}}}"#,
                i % 7,
                i % 3
            ));
        }
        let text = format!(
            r#" {{"apiVersion":"v1","kind":"List","items":[
            {}
            ],"metadata":{{"resourceVersion":""}}}}
            "#,
            items.join(",\n")
        );
        assert!(text.len() > 2 * RUN_BYTES, "several runs");
        let parallel = read_list(&text).expect("read on every core");
        let serial: MapOr<Doc> = serde_json::from_str(&text).unwrap();
        assert_eq!(objects(parallel), objects(serial));
    }

    #[test]
    fn a_list_that_is_not_valid_json_is_left_to_the_serial_reader() {
        for text in [
            r#"{"items":[{"a":1},{"b":]}"#,
            r#"{"items":[{"a":1} x,{"b":2}]}"#,
            r#"{"items":[1,,2]}"#,
            r#"{"items":[1,2],"kind":}"#,
            r#"{"items":[1,2]"#,
            r#"{"items":[1,{"a":"\q"}]}"#,
        ] {
            assert!(read_list(text).is_none(), "{text}");
            assert!(serde_json::from_str::<MapOr<Doc>>(text).is_err(), "{text}");
        }
        // Valid, but nested deeper than the scan follows.
        let deep = format!(r#"{{"items":[{}1{}, 2]}}"#, "[".repeat(70), "]".repeat(70));
        assert!(read_list(&deep).is_none());
        assert!(read_list(r#"{"items":[1,2]}"#).is_some());
        assert!(read_list(r#"{"items":[1]}"#).is_none(), "too few to share");
    }
}
