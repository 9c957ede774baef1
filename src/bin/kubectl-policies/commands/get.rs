//! `get`: the policies in scope as a table, a List, a template's text or names; `get
//! kinds`; and `get -w`, the same rows again as the watches see them change.

use super::{nothing_found, structured, Outcome};
use crate::plan::{GetPlan, Output, Plan, SortBy};
use crate::session::Session;
use crate::settings::Format;
use crate::warn::{warn_blind_spots, warn_line};
use anyhow::{anyhow, bail, Context, Result};
use kubectl_policies::catalog::policy::LabelSelector;
use kubectl_policies::model::watch::Change;
use kubectl_policies::model::{ObjRef, Object, Snapshot};
use kubectl_policies::query::select::{self, Selection};
use kubectl_policies::query::watch::events::{Event, Shown, Shows};
use kubectl_policies::query::{self, ListOf, NameError, PolicyItem, PolicyRow, World};
use kubectl_policies::render::{self, human, jsonpath, Printer};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::io::Write;

pub(super) fn get_kinds(plan: &Plan, session: &Session, out: &mut impl Write) -> Result<Outcome> {
    let format = plan.output.format;
    let rows = query::kind_rows(&session.world);
    match format {
        Format::Json | Format::Yaml => {
            let blind = &session.world.topology.snapshot().blind_spots;
            structured(out, format, &ListOf::new("PolicyKindList", &rows, blind))?
        }
        _ => human::kinds_table(out, &rows, &plan.output.printer)?,
    }
    Ok(Outcome::Answered)
}

pub(super) fn get(
    plan: &Plan,
    get: &GetPlan,
    session: &Session,
    out: &mut impl Write,
) -> Result<Outcome> {
    let selection = select::read_selection(&session.world, &get.words).map_err(|e| anyhow!(e))?;
    let all = query::policy_rows(&session.world, session.scope());
    let (mut rows, missing) = select::select(&session.world, all, &selection, session.scope());
    // kubectl answers for the names it finds and reports the others (exit 1 at the end).
    for not_found in &missing {
        warn_line(&format!("Error from server (NotFound): {not_found}"));
    }
    // Statuses are computed over every policy; -l only chooses the rows shown.
    if let Some(sel) = &get.selector {
        rows.retain(|r| selected(&session.world, sel, &r.policy));
    }
    if let Some(sort) = &plan.output.templates.sort_by {
        let listed = !one_named(&selection, &rows)
            || !session.world.topology.snapshot().blind_spots.is_empty();
        let table = matches!(plan.output.format, Format::Table | Format::Wide);
        // kubectl sorts a table of more than one row, and any List it prints.
        let must_find = if table { rows.len() > 1 } else { listed };
        let sorting = Sorting {
            by: sort,
            must_find,
            table,
        };
        rows = sorted_by(rows, &sorting, |r| session.world.policy_object(r))?;
    }
    let output = GetOutput {
        output: &plan.output,
        session,
    };
    output.policies(out, &selection, &rows, !missing.is_empty())?;
    Ok(match missing.is_empty() {
        true => Outcome::Answered,
        false => Outcome::Missing,
    })
}

/// How `get` writes the policies it lists.
struct GetOutput<'a> {
    output: &'a Output,
    session: &'a Session,
}

impl GetOutput<'_> {
    /// `rows` in the format asked for, or kubectl's words for none on stderr (none when
    /// only names not found were asked for: `some_missing`, already said).
    fn policies(
        &self,
        out: &mut impl Write,
        selection: &Selection,
        rows: &[query::PolicyRow],
        some_missing: bool,
    ) -> Result<()> {
        let (output, scope) = (self.output, self.session.scope());
        let blind = &self.session.world.topology.snapshot().blind_spots;
        // One policy asked for by name is answered as itself, as `kubectl get KIND NAME`
        // answers, when everything could be read; anything else as a List, with what
        // could not be read beside the items (docs/reference.md#blind-spots).
        let as_itself = one_named(selection, rows) && blind.is_empty();
        let world = &self.session.world;
        let items: Vec<PolicyItem> = match output.format {
            Format::Table | Format::Wide | Format::Name => Vec::new(),
            _ => rows
                .iter()
                .map(|r| query::policy_item(r, world.policy_object(&r.policy)))
                .collect(),
        };
        let format = output.format;
        match format {
            Format::Json | Format::Yaml if as_itself => structured(out, format, &items[0])?,
            // Written as it is serialised, item by item: with every spec in it, the List
            // of a large cluster is tens of megabytes, not to be held twice.
            Format::Json => render::json_streamed(out, &ListOf::of_objects(&items, blind))?,
            Format::Yaml => render::yaml_streamed(out, &ListOf::of_objects(&items, blind))?,
            Format::JsonPath | Format::JsonPathFile | Format::JsonPathAsJson => {
                let list = match as_itself {
                    true => serde_json::to_value(items[0])?,
                    false => serde_json::to_value(ListOf::of_objects(&items, blind))?,
                };
                self.template(out, &list)?
            }
            Format::Name => {
                for row in rows {
                    let policy = &row.policy;
                    let kind = policy.kind.to_lowercase();
                    writeln!(out, "{kind}.{}/{}", policy.group, policy.name)?;
                }
            }
            _ if rows.is_empty() && some_missing => {}
            Format::CustomColumns | Format::CustomColumnsFile if !rows.is_empty() => {
                let items = serde_json::to_value(&items)?;
                if let Some(columns) = &output.templates.columns {
                    let items = items.as_array().map(Vec::as_slice).unwrap_or_default();
                    columns.write(out, items, &output.printer)?;
                }
            }
            _ if rows.is_empty() && *selection != Selection::All => {
                warn_line(&nothing_found(scope))
            }
            _ if rows.is_empty() => warn_line(&no_policies_found(scope)),
            _ => human::policies_table(out, rows, None, &output.printer)?,
        }
        Ok(())
    }

    /// kubectl's template, over the `-o json` answer; its text is written as it is
    /// (escaped on a terminal, as all text).
    fn template(&self, out: &mut impl Write, list: &serde_json::Value) -> Result<()> {
        let Some(template) = &self.output.templates.jsonpath else {
            return Ok(());
        };
        let text = match self.output.format {
            Format::JsonPathAsJson => template.execute_as_json(list),
            _ => template.execute(list),
        };
        let argument = &self.output.argument;
        let text = text.map_err(|e| anyhow!("error executing jsonpath {argument:?}: {e}"))?;
        out.write_all(text.as_bytes())?;
        Ok(())
    }
}

/// What `get` says when no policy is in scope.
fn no_policies_found(ns: Option<&str>) -> String {
    match ns {
        Some(ns) => format!("No policies found in {ns} namespace."),
        None => "No policies found.".to_string(),
    }
}

/// What the first answer of `get -w` fixed: the objects, the rows' selection, the scope;
/// and the policies whose rows are shown (a row that comes is ADDED or MODIFIED by it).
struct FirstAnswer {
    watched: query::watch::Watched,
    selection: Selection,
    scope: Option<String>,
    shown: Shown,
}

/// A row as kubectl's `--output-watch-events` prints an object with `-o json`: its item.
#[derive(serde::Serialize)]
struct WatchEvent<'a> {
    #[serde(rename = "type")]
    event: &'static str,
    object: PolicyItem<'a>,
}

/// `get -w`: the table (or json lines) as `get` prints it, then, after each batch of
/// changes the watches see, a row for every policy in scope whose row changed in what
/// the output prints (`query::watch::events`), without the header (as `kubectl get
/// -w`), until Ctrl-C.
pub(super) struct Watch<'a, W> {
    output: &'a Output,
    get: &'a GetPlan,
    policy_kinds: &'a [kubectl_policies::catalog::Declared],
    /// Rows are written as they come: each batch is flushed at once.
    out: RefCell<&'a mut W>,
    /// Set by the first answer, read by each batch of changes.
    first: RefCell<Option<FirstAnswer>>,
}

impl<'a, W: Write> Watch<'a, W> {
    pub(super) fn new(plan: &'a Plan, get: &'a GetPlan, out: &'a mut W) -> Watch<'a, W> {
        Watch {
            output: &plan.output,
            get,
            policy_kinds: &plan.input.policy_kinds,
            out: RefCell::new(out),
            first: RefCell::new(None),
        }
    }

    /// The first answer (the objects first read, and the namespace in scope: None with -A).
    pub(super) fn first(&self, snapshot: Snapshot, scope: Option<String>) -> Result<()> {
        let first = self.first_answer(snapshot, scope)?;
        *self.first.borrow_mut() = Some(first);
        Ok(())
    }

    /// A batch of changes the watches saw.
    pub(super) fn changed(&self, changes: Vec<Change>) -> Result<()> {
        match self.first.borrow_mut().as_mut() {
            Some(first) => self.changed_rows(first, changes),
            None => Ok(()),
        }
    }

    /// The first answer: the rows `get` prints (with what it says of names not found and
    /// of no policies), from the objects first read.
    fn first_answer(&self, snapshot: Snapshot, scope: Option<String>) -> Result<FirstAnswer> {
        let watched = query::watch::Watched::new(snapshot, self.policy_kinds);
        let world = watched.world();
        let selection = select::read_selection(world, &self.get.words).map_err(|e| anyhow!(e))?;
        let (mut rows, missing) = self.shown(world, watched.rows(), &selection, scope.as_deref());
        // As `get`: a name not found is said (the watch goes on: it may come).
        for m in &missing {
            warn_line(&format!("Error from server (NotFound): {m}"));
        }
        let object = |r: &ObjRef| watched.object(r);
        if let Some(sort) = &self.output.templates.sort_by {
            let table = matches!(self.output.format, Format::Table | Format::Wide);
            let sorting = Sorting {
                by: sort,
                must_find: self.output.format == Format::Json || rows.len() > 1,
                table,
            };
            rows = sorted_by(rows, &sorting, object)?;
        }
        if rows.is_empty() && missing.is_empty() && self.output.format != Format::Json {
            warn_line(&no_policies_found(scope.as_deref()));
        }
        let shown = Shown::new(&rows);
        let events = vec![Event::Added; rows.len()];
        self.write(&rows, &events, true, &object)?;
        let mut watched = watched;
        watched.forget_first();
        Ok(FirstAnswer {
            watched,
            selection,
            scope,
            shown,
        })
    }

    /// After a batch of changes: the rows in view that changed in what the output
    /// prints, those that came into view (ADDED), and those that left it (DELETED: their
    /// policies gone, or no longer selected by -l), without the header
    /// (`query::watch::events`).
    fn changed_rows(&self, first: &mut FirstAnswer, changes: Vec<Change>) -> Result<()> {
        let (changed, spots) = first.watched.apply(changes);
        warn_blind_spots(&spots);
        if !changed {
            return Ok(());
        }
        let answer = first.watched.answer();
        let scope = first.scope.as_deref();
        let (in_view, _) = self.shown(
            answer.world,
            answer.changed.clone(),
            &first.selection,
            scope,
        );
        let in_view: BTreeSet<ObjRef> = in_view.into_iter().map(|r| r.policy).collect();
        let printer = &self.output.printer;
        let alike = |a: &PolicyRow, b: &PolicyRow| human::policy_cells_alike(a, b, printer);
        let shows = match self.output.format {
            Format::Json => Shows::Items,
            _ => Shows::Cells(&alike),
        };
        let printed = first
            .shown
            .events(&answer, |r| in_view.contains(&r.policy), shows);
        if !printed.is_empty() {
            let (rows, events): (Vec<PolicyRow>, Vec<Event>) = printed.into_iter().unzip();
            self.write(&rows, &events, false, &|r| answer.object(r))?;
        }
        // After an answer in full, what the next answers are counted from is counted
        // now that its rows are printed.
        first.watched.forget_first();
        Ok(())
    }

    /// The rows `get` would show: in scope, of the kind or names asked for, selected by
    /// -l; and the names not found.
    fn shown(
        &self,
        world: &World,
        rows: Vec<query::PolicyRow>,
        selection: &Selection,
        scope: Option<&str>,
    ) -> (Vec<query::PolicyRow>, Vec<NameError>) {
        let rows: Vec<query::PolicyRow> = rows
            .into_iter()
            .filter(|r| scope.is_none() || r.policy.namespace.as_deref() == scope)
            .collect();
        let (mut rows, missing) = select::select(world, rows, selection, scope);
        if let Some(sel) = &self.get.selector {
            rows.retain(|r| sel.matches(&r.labels));
        }
        (rows, missing)
    }

    /// Rows as `get` prints them (json lines for `-o json`: each row's item, its policy
    /// found by `object`), each as its watch event with `--output-watch-events`, then
    /// flushed.
    fn write<'o>(
        &self,
        rows: &[PolicyRow],
        events: &[Event],
        headers: bool,
        object: &dyn Fn(&ObjRef) -> Option<&'o Object>,
    ) -> Result<()> {
        let output = self.output;
        let mut out = self.out.borrow_mut();
        match output.format {
            Format::Json => {
                for (r, event) in rows.iter().zip(events) {
                    let item = query::policy_item(r, object(&r.policy));
                    match self.get.events {
                        true => serde_json::to_writer(
                            &mut **out,
                            &WatchEvent {
                                event: event.as_str(),
                                object: item,
                            },
                        )?,
                        false => serde_json::to_writer(&mut **out, &item)?,
                    }
                    writeln!(out)?;
                }
            }
            _ => {
                let names: Vec<&str> = events.iter().map(|e| e.as_str()).collect();
                // The header with the first answer only, as `kubectl get -w`.
                let printer = Printer {
                    headers: headers && output.printer.headers,
                    ..output.printer
                };
                let events = self.get.events.then_some(&names[..]);
                human::policies_table(&mut **out, rows, events, &printer)?
            }
        }
        out.flush().context("writing output")?;
        Ok(())
    }
}

/// Whether `get` named exactly one policy and found it: kubectl then prints the object,
/// not a list.
fn one_named(selection: &Selection, rows: &[PolicyRow]) -> bool {
    matches!(selection, Selection::Named(names) if names.len() == 1) && rows.len() == 1
}

/// How `get` sorts its rows (`--sort-by`): by what, whether the path must be found on
/// some item, and whether kubectl would be sorting a table (its error names what it
/// sorts).
struct Sorting<'a> {
    by: &'a SortBy,
    must_find: bool,
    table: bool,
}

/// The rows in kubectl's `--sort-by` order of the path over each row's `-o json` item
/// (its policy found by `object`; stable: rows that tie keep their order). A path that
/// yields several values sorts by the first. As kubectl, a path that no item has is an
/// error where it sorts (`must_find`: a List, or a table of more than one row).
fn sorted_by<'o>(
    rows: Vec<PolicyRow>,
    sorting: &Sorting,
    object: impl Fn(&ObjRef) -> Option<&'o Object>,
) -> Result<Vec<PolicyRow>> {
    let sort = sorting.by;
    let items: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| serde_json::to_value(query::policy_item(r, object(&r.policy))))
        .collect::<Result<_, _>>()?;
    let mut keys: Vec<(Option<&serde_json::Value>, PolicyRow)> = Vec::with_capacity(rows.len());
    for (item, row) in items.iter().zip(rows) {
        let found = sort
            .path
            .find(item)
            .map_err(|e| anyhow!("--sort-by: {e}"))?;
        keys.push((found.first().copied(), row));
    }
    if sorting.must_find && !keys.is_empty() && keys.iter().all(|(key, _)| key.is_none()) {
        bail!(
            "couldn't find any field with path {:?} in the list of objects",
            sort.named
        );
    }
    // Values kubectl cannot compare (of two types, or booleans, maps, lists): its error.
    if let Some(reason) = jsonpath::unsortable(keys.iter().map(|(key, _)| *key)) {
        let sorted = match sorting.table {
            true => "[][][]reflect.Value",
            false => "*unstructured.Unstructured",
        };
        bail!(
            "Field {} in {sorted} is an unsortable type: interface, err: {reason}",
            sort.named
        );
    }
    keys.sort_by(|a, b| jsonpath::sort_order(a.0, b.0));
    Ok(keys.into_iter().map(|(_, r)| r).collect())
}

/// Whether the policy a `get` row lists has labels that `selector` selects.
fn selected(world: &World, selector: &LabelSelector, policy: &ObjRef) -> bool {
    let topology = &world.topology;
    topology
        .policy_id(policy)
        .and_then(|id| topology.objects().get(topology.policy(id).object.index()))
        .is_some_and(|o| selector.matches(&o.labels))
}
