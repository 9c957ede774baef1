//! Effective specs for people: each setting with the policy that set it (and, in
//! `effective`, how that policy arrives).

use super::*;

/// `settings`, each setting's policy written by `label`.
pub(super) fn settings_labelled(
    out: &mut impl Write,
    e: &Effective,
    indent: usize,
    style: Style,
    label: &dyn Fn(&ObjRef) -> String,
) -> io::Result<()> {
    // Each leaf's source by its path, looked up once per leaf: an effective spec may
    // have ten thousand leaves from as many policies.
    let mut by_path: std::collections::HashMap<&str, &ObjRef> = Default::default();
    for s in &e.sources {
        by_path.entry(s.path.as_str()).or_insert(&s.policy);
    }
    let source_of =
        |path: &str| -> Option<String> { by_path.get(path).map(|policy| label(policy)) };
    let lines: Vec<(String, Option<String>)> = spec_lines(&e.spec)
        .into_iter()
        .map(|(line, path)| {
            let src = path.and_then(|p| source_of(&p));
            (line, src)
        })
        .collect();
    let width = lines
        .iter()
        .map(|(l, _)| crate::render::width(l))
        .max()
        .unwrap_or(0);
    let pad = " ".repeat(indent);
    for (l, s) in lines {
        match s {
            Some(s) => {
                let gap = width - crate::render::width(&l) + 2;
                writeln!(
                    out,
                    "{pad}{l}{}{}",
                    " ".repeat(gap),
                    style.paint(&format!("# {s}"), Tint::Dim)
                )?
            }
            None => writeln!(out, "{pad}{l}")?,
        }
    }
    Ok(())
}

/// A spec as YAML-ish lines, each leaf's with its JSON pointer (a mapping's line has
/// none).
pub(super) fn spec_lines(spec: &Value) -> Vec<(String, Option<String>)> {
    fn walk(
        v: &Value,
        path: &str,
        depth: usize,
        key: Option<&str>,
        lines: &mut Vec<(String, Option<String>)>,
    ) {
        let pad = "  ".repeat(depth);
        match v {
            Value::Object(m) if !m.is_empty() => {
                if let Some(k) = key {
                    lines.push((format!("{pad}{k}:"), None));
                }
                let d = if key.is_some() { depth + 1 } else { depth };
                for (k, child) in m {
                    let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                    walk(child, &p, d, Some(k), lines);
                }
            }
            _ => {
                let text = scalar(v);
                let line = match key {
                    Some(k) => format!("{pad}{k}: {text}"),
                    None => format!("{pad}{text}"),
                };
                lines.push((line, Some(path.to_string())));
            }
        }
    }
    let mut lines = Vec::new();
    walk(spec, "", 0, None, &mut lines);
    lines
}

/// A leaf in flow style: strings bare when YAML would read them back as strings.
pub(super) fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./*".contains(c))
                && s.parse::<f64>().is_err()
                && !matches!(
                    s.to_ascii_lowercase().as_str(),
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
                );
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).unwrap_or_default()
            }
        }
        Value::Array(a) => format!("[{}]", a.iter().map(scalar).collect::<Vec<_>>().join(", ")),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", scalar(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

pub(super) const MAX_PATHS: usize = 3;

pub(crate) fn effective_blocks(
    out: &mut impl Write,
    effective: &[Effective],
    style: Style,
) -> io::Result<()> {
    effective_blocks_labelled(out, effective, style, &|p| {
        format!("{} {}", p.kind, p.ns_name())
    })
}

pub(super) fn effective_blocks_labelled(
    out: &mut impl Write,
    effective: &[Effective],
    style: Style,
    label: &dyn Fn(&ObjRef) -> String,
) -> io::Result<()> {
    for e in effective {
        writeln!(out)?;
        let where_ = match &e.target.section {
            Some(_) => format!(" at {}", human_ref(&e.target)),
            None => String::new(),
        };
        writeln!(
            out,
            "  {}{}",
            style.paint(
                &format!("{}.{}", e.policy_kind.kind, e.policy_kind.group),
                Tint::Bold
            ),
            where_
        )?;
        let n = e.contexts.len();
        writeln!(
            out,
            "    {n} {}:",
            if n == 1 { "context" } else { "contexts" }
        )?;
        for p in e.contexts.iter().take(MAX_PATHS) {
            for line in path_lines(p, PAGE_WIDTH - 6) {
                writeln!(out, "      {line}")?;
            }
        }
        if n > MAX_PATHS {
            writeln!(
                out,
                "      ... and {} more (-o json lists them all)",
                n - MAX_PATHS
            )?;
        }
        writeln!(out, "    settings:")?;
        settings_labelled(out, e, 6, style, label)?;
    }
    Ok(())
}

/// `effective` for people (the page of `query::effective`'s answer): the object, then
/// each policy kind's settings with, beside each, the policy that set it and how that
/// policy arrives here.
pub fn effective_page(
    out: &mut impl Write,
    e: &crate::query::EffectivePolicies,
    reaching: &[crate::query::ReachingPolicy],
    printer: &Printer,
) -> io::Result<()> {
    let style = printer.style;
    object_header(out, &e.target)?;
    writeln!(out)?;
    if e.effective.is_empty() && e.sections.is_empty() {
        writeln!(
            out,
            "Effective policies: none (no policy reaches this object)"
        )?;
    } else {
        writeln!(
            out,
            "Effective policies (each setting with the policy that set it, and how it arrives):"
        )?;
        // How policy `p` arrives at `section` of the object (none: the object itself).
        let arrival = |p: &ObjRef, section: Option<&ObjRef>| -> String {
            let name = match p.namespace == e.target.namespace {
                true => p.name.to_string(),
                false => p.ns_name(),
            };
            match reaching.iter().find(|r| r.policy == *p) {
                // On this section itself, whichever other sections it is on too.
                Some(r) if section.is_some_and(|s| r.attached_sections.contains(s)) => {
                    let on = section.map(section_only).unwrap_or_default();
                    format!("{name}, on {on}")
                }
                Some(r) => format!("{name}, {}", how_it_reaches(r)),
                None => name,
            }
        };
        effective_blocks_labelled(out, &e.effective, style, &|p| arrival(p, None))?;
        // Each section whose effective spec differs (its blocks say "at <section>").
        for s in &e.sections {
            for block in &s.effective {
                let section = Some(&block.target);
                effective_blocks_labelled(out, std::slice::from_ref(block), style, &|p| {
                    arrival(p, section)
                })?;
            }
        }
    }
    blind_spots(out, &e.blind_spots, style)
}
