//! kubectl-describe-like pages: an object (with a Gateway's listeners and routes) and
//! a policy (its settings, reach, and what of it loses where).

use super::*;

/// `describe` of an object for people: the page of `query::describe_target`'s
/// description; `-o wide` (`printer.wide`): the policies' table with their class, how
/// they reach the object and where they attach spelled out (wider than the page).
pub fn target_page(
    out: &mut impl Write,
    description: &TargetDescription,
    printer: &Printer,
) -> io::Result<()> {
    let (wide, style) = (printer.wide, printer.style);
    object_header(out, &description.target)?;
    if !description.parents.is_empty() {
        field(
            out,
            "Parents",
            &description
                .parents
                .iter()
                .map(human_ref)
                .collect::<Vec<_>>()
                .join(", "),
        )?;
    }
    if !description.children.is_empty() {
        // A Pod a policy picks is said with the policies on it (they reach the Pod, not
        // the object described).
        let child = |c: &ObjRef| {
            let picked_by = description
                .pod_policies
                .iter()
                .find(|(pod, _)| pod == c)
                .map(|(_, policies)| policies.iter().map(human_ref).collect::<Vec<_>>())
                .filter(|policies| !policies.is_empty());
            match picked_by {
                Some(policies) => format!("{} (picked by {})", human_ref(c), policies.join(", ")),
                None => human_ref(c),
            }
        };
        field(
            out,
            "Children",
            &description
                .children
                .iter()
                .map(child)
                .collect::<Vec<_>>()
                .join(", "),
        )?;
    }
    listeners_and_routes(out, description, style)?;
    writeln!(out)?;
    if description.policies.is_empty() {
        writeln!(out, "Policies:     none reach this object")?;
    } else {
        writeln!(
            out,
            "Policies ({} reach this object):",
            description.policies.len()
        )?;
        let t = match wide {
            true => reaching_table_wide(description),
            false => reaching_table(description),
        };
        indented_table(out, t, style)?;
    }
    if !description.effective.is_empty() || !description.sections.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "Effective policies (each setting with the policy that set it):"
        )?;
        effective_blocks(out, &description.effective, style)?;
        // Each section whose effective spec differs (its blocks say "at <section>").
        for s in &description.sections {
            effective_blocks(out, &s.effective, style)?;
        }
    }
    if !description.reported_affected.is_empty() {
        writeln!(out)?;
        writeln!(out, "Reported on the object by controllers:")?;
        for r in &description.reported_affected {
            let how = if r.message.starts_with("annotation") {
                format!(" ({})", r.message)
            } else {
                String::new()
            };
            writeln!(out, "  {}={}{how}", r.type_, r.status)?;
        }
    }
    if !description.referenced_by.is_empty() {
        referenced_by(out, &description.target, &description.referenced_by, style)?;
    }
    findings_block(out, &description.findings, style)?;
    blind_spots(out, &description.blind_spots, style)
}

/// The policies that reach an object, within the page's width: each policy named
/// in its namespace when that is not the object's, and how it reaches the object
/// (`how_it_reaches`).
pub(super) fn reaching_table(description: &TargetDescription) -> Table {
    let mut t = Table::new(vec!["KIND", "POLICY", "HOW", "STATUS"]);
    for p in &description.policies {
        let name = match p.policy.namespace == description.target.namespace {
            true => p.policy.name.to_string(),
            false => p.policy.ns_name(),
        };
        t.row(vec![
            (p.policy.kind.to_string(), Tint::Plain),
            (name, Tint::Plain),
            (how_it_reaches(p), Tint::Plain),
            status_painted(p.status, p.reported.as_ref()),
        ]);
    }
    t
}

/// How a policy reaches the object described, as `describe` and `effective` say it:
/// `attached here`, `on rule orders`, `on ports http, 9000`, `from Gateway/gw#https` (the TARGETS column's
/// spelling, in the policy's namespace unless it names another).
pub(super) fn how_it_reaches(p: &crate::query::ReachingPolicy) -> String {
    match p.relation {
        Relation::Direct => "attached here".to_string(),
        // On several sections of it: each named (`on ports http, 9000`).
        Relation::Section if p.attached_sections.len() > 1 => format!(
            "on {}s {}",
            section_word(&p.attached_to.kind),
            p.attached_sections
                .iter()
                .filter_map(|s| s.section.as_deref())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Relation::Section => format!("on {}", section_only(&p.attached_to)),
        Relation::Inherited => format!(
            "from {}",
            target_cell(&p.attached_to, p.policy.namespace.as_deref())
        ),
    }
}

/// `reaching_table` with the class, the relation and the attachment point in words.
pub(super) fn reaching_table_wide(description: &TargetDescription) -> Table {
    let mut t = Table::new(vec![
        "KIND",
        "POLICY",
        "CLASS",
        "HOW",
        "ATTACHED TO",
        "STATUS",
    ]);
    for p in &description.policies {
        let how = match p.relation {
            Relation::Direct => "direct",
            Relation::Section => "section",
            Relation::Inherited => "inherited",
        };
        t.row(vec![
            (p.policy.kind.to_string(), Tint::Plain),
            (p.policy.ns_name(), Tint::Plain),
            (format!("{:?}", p.class), Tint::Plain),
            (how.to_string(), Tint::Plain),
            (human_ref(&p.attached_to), Tint::Plain),
            status_painted(p.status, p.reported.as_ref()),
        ]);
    }
    t
}

/// A Gateway's (or ListenerSet's, or one listener's) listeners and the routes attached.
pub(super) fn listeners_and_routes(
    out: &mut impl Write,
    description: &TargetDescription,
    style: Style,
) -> io::Result<()> {
    if let Some(listeners) = &description.listeners {
        writeln!(out)?;
        if listeners.is_empty() {
            writeln!(out, "Listeners:    none")?;
        } else {
            writeln!(out, "Listeners:")?;
            let mut t = Table::new(vec!["NAME", "PORT", "PROTOCOL", "HOSTNAME", "ROUTES"]);
            for l in listeners {
                let port = match &l.port {
                    Value::Null => "-".to_string(),
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                t.row(vec![
                    (l.name.clone(), Tint::Plain),
                    (port, Tint::Plain),
                    (
                        l.protocol.clone().unwrap_or_else(|| "-".into()),
                        Tint::Plain,
                    ),
                    (
                        l.hostname.clone().unwrap_or_else(|| "-".into()),
                        Tint::Plain,
                    ),
                    (l.attached_routes.to_string(), Tint::Plain),
                ]);
            }
            indented_table(out, t, style)?;
        }
    }
    if let Some(routes) = &description.routes {
        writeln!(out)?;
        if routes.is_empty() {
            writeln!(out, "Routes:       none attached")?;
        } else {
            writeln!(out, "Routes ({} attached):", routes.len())?;
            let mut t = Table::new(vec!["KIND", "NAME", "LISTENERS"]);
            for r in routes {
                let through = match r.listeners.is_empty() {
                    true => "-".to_string(),
                    false => r.listeners.join(", "),
                };
                t.row(vec![
                    (r.route.kind.to_string(), Tint::Plain),
                    (r.route.ns_name(), Tint::Plain),
                    (through, Tint::Plain),
                ]);
            }
            indented_table(out, t, style)?;
        }
    }
    Ok(())
}

/// `describe` of a policy for people: the page of `query::describe_policy`'s
/// description, its fields (AGE from `printer`'s clock), its settings, its targets and
/// what it reaches.
pub fn policy_page(
    out: &mut impl Write,
    description: &PolicyDescription,
    printer: &Printer,
) -> io::Result<()> {
    let (now, style) = (printer.now(), printer.style);
    policy_fields(out, description, now)?;
    match &description.settings {
        Value::Object(m) if m.is_empty() => field(out, "Settings", "none")?,
        Value::Null => field(out, "Settings", "none")?,
        spec => {
            writeln!(out, "Settings:")?;
            for (line, _) in spec_lines(spec) {
                writeln!(out, "  {line}")?;
            }
        }
    }
    policy_status(out, description, style)?;
    writeln!(out)?;
    affects_table(out, description, style)?;
    overridden_block(out, description, style)?;
    findings_block(out, &description.findings, style)?;
    blind_spots(out, &description.blind_spots, style)
}

/// A policy page's first fields: what it is, how its class and merging are known, when
/// it was made.
fn policy_fields(
    out: &mut impl Write,
    description: &PolicyDescription,
    now: i64,
) -> io::Result<()> {
    field(out, "Name", &description.policy.name)?;
    if let Some(ns) = &description.policy.namespace {
        field(out, "Namespace", ns)?;
    }
    field(
        out,
        "Kind",
        &format!("{} ({})", description.policy.kind, description.policy.group),
    )?;
    let origin = match description.class_origin {
        "label" => "from the CRD's gateway.networking.k8s.io/policy label",
        "registry" => "from the built-in registry",
        "declared" => "declared with --policy-kind",
        _ => "assumed: the name ends in Policy and it has a target",
    };
    field(out, "Class", &format!("{:?} ({origin})", description.class))?;
    if let Some(label) = description.label_class {
        field(
            out,
            "Label",
            &format!(
                "{label:?}: the kind's gateway.networking.k8s.io/policy label differs from how its controller behaves ({:?})",
                description.class
            ),
        )?;
    }
    if !description.project.is_empty() {
        field(out, "Project", description.project)?;
    }
    field(out, "Strategy", &description.strategy)?;
    if !description.merge.is_empty() {
        field(out, "Kind merges", description.merge)?;
    }
    // What the registry knows of the kind, and where it read it.
    if !description.cite.is_empty() {
        field(out, "Same target", description.same_target)?;
        field(out, "Namespaces", description.namespaces)?;
        field(out, "Read from", description.cite)?;
    }
    if let Some(ts) = &description.creation_timestamp {
        field(
            out,
            "Created",
            &format!("{ts} ({} ago)", age(Some(ts), now)),
        )?;
    }
    Ok(())
}

/// Its targets (resolved or not), its computed status (and what it loses to), and what
/// controllers reported.
fn policy_status(
    out: &mut impl Write,
    description: &PolicyDescription,
    style: Style,
) -> io::Result<()> {
    writeln!(out, "Targets:")?;
    for t in &description.targets {
        let state = match t.reason {
            None => style.paint("resolved", Tint::Good),
            Some(c) => style.paint(&format!("{c:?}"), Tint::Bad),
        };
        writeln!(out, "  {}   {}", human_ref(&t.target), state)?;
    }
    if !description.references.is_empty() {
        writeln!(out, "References:")?;
        for r in &description.references {
            let state = match r.reason {
                None => style.paint("resolved", Tint::Good),
                Some(crate::topology::RefReason::Unchecked) => "Unchecked".to_string(),
                Some(c) => style.paint(&format!("{c:?}"), Tint::Bad),
            };
            writeln!(out, "  {}   {}   {}", r.path, human_ref(&r.target), state)?;
        }
    }
    if let Some(shown) = &description.status.shown {
        field(out, "Status", &style.paint(&one_line(shown), Tint::Bad))?;
        writeln!(
            out,
            "              {} (computed)",
            description.status.computed.as_str()
        )?;
    } else {
        field(
            out,
            "Status",
            &style.paint(
                &format!("{} (computed)", description.status.computed.as_str()),
                status_tint(description.status.computed),
            ),
        )?;
    }
    let (verb, why) = description.lost_because;
    for lost in &description.lost_to {
        writeln!(out, "              {verb} {} {}", lost.kind, lost.ns_name())?;
    }
    if !description.lost_to.is_empty() {
        writeln!(out, "              ({why})")?;
    }
    if description.status.reported.is_empty() {
        field(
            out,
            "Reported",
            "nothing (no controller has written a status)",
        )?;
    } else {
        writeln!(out, "Reported:")?;
        for r in &description.status.reported {
            let on = r
                .ancestor
                .as_ref()
                .map(|a| format!(" on {}", human_ref(a)))
                .unwrap_or_default();
            let by = r
                .controller
                .as_deref()
                .map(|c| format!("{c}: "))
                .unwrap_or_default();
            let reason = if r.reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.reason)
            };
            let stale = match (r.stale, r.observed_generation) {
                (false, _) => String::new(),
                (true, Some(g)) => format!(" [stale: generation {g}]"),
                (true, None) => " [stale: no generation]".to_string(),
            };
            let text = format!("{by}{}={}{reason}{on}{stale}", r.type_, r.status);
            indented(out, &one_line(&text))?;
            if !r.message.is_empty() {
                indented(out, &format!("  {}", one_line(&r.message)))?;
            }
        }
    }
    Ok(())
}

/// The objects (and sections) it reaches, each with its status there.
fn affects_table(
    out: &mut impl Write,
    description: &PolicyDescription,
    style: Style,
) -> io::Result<()> {
    if description.affects.is_empty() {
        writeln!(out, "Affects:      nothing")?;
    } else {
        let extra = if description.affects.len() != description.affects_count {
            format!(" ({} with sections)", description.affects.len())
        } else {
            String::new()
        };
        let objects = match description.affects_count {
            1 => "object",
            _ => "objects",
        };
        writeln!(
            out,
            "Affects {} {objects}{extra}:",
            description.affects_count
        )?;
        let mut t = Table::new(vec!["KIND", "NAME", "SECTION", "STATUS"]);
        for a in &description.affects {
            t.row(vec![
                (a.target.kind.to_string(), Tint::Plain),
                (a.target.ns_name(), Tint::Plain),
                (
                    a.target
                        .section
                        .clone()
                        .unwrap_or_else(|| "-".into())
                        .to_string(),
                    Tint::Plain,
                ),
                (a.status.as_str().to_string(), status_tint(a.status)),
            ]);
        }
        let mut buf = Vec::new();
        t.write(&mut buf, style, true)?;
        for line in String::from_utf8_lossy(&buf).lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// The policy's settings that lose where it reaches: each setting and the policy it
/// loses to, then the objects where it does.
pub(super) fn overridden_block(
    out: &mut impl Write,
    description: &PolicyDescription,
    style: Style,
) -> io::Result<()> {
    // A large cluster's policy may lose to thousands of others: grouped in a map.
    let mut lost: std::collections::BTreeMap<&crate::query::Overridden, Vec<String>> =
        Default::default();
    for a in &description.affects {
        for o in &a.overridden {
            lost.entry(o).or_default().push(human_ref(&a.target));
        }
    }
    if lost.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "Overridden (settings of this policy that lose, the policy they lose to, and where):"
    )?;
    for (o, objects) in lost {
        // The pointer "" is the whole spec: a policy that sets nothing, replaced whole.
        let path = match o.path.as_str() {
            "" => "(the whole policy)",
            path => path,
        };
        writeln!(
            out,
            "  {}  {}",
            style.paint(path, Tint::Warn),
            format_args!("loses to {} {}", o.by.kind, o.by.ns_name())
        )?;
        for line in wrap_list("    at ", "       ", &objects, PAGE_WIDTH) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}
