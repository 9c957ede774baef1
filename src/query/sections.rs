//! Sections as answers of their own: for an object, each of its sections (listeners,
//! rules, ports) whose effective spec differs from the object's, with that spec (docs/reference.md's
//! `"sections": [{"sectionName": …, "effective": [EFFECTIVE]}]`).

use super::*;

/// The effective spec at one section of an object, where it differs from the object's.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SectionEffective {
    #[serde(rename = "sectionName")]
    pub(crate) section_name: String,
    pub(crate) effective: Vec<Effective>,
}

/// The sections of `node` (its children that it owns).
pub(crate) fn sections_of(topology: &Topology, node: NodeId) -> Vec<NodeId> {
    topology
        .node(node)
        .children
        .iter()
        .copied()
        .filter(|&c| topology.node(c).owner == Some(node))
        .collect()
}

/// The effective spec at `node` of each policy kind in use (only `kind`, when given), and,
/// for each section of `node` where some kind's differs from `node`'s, the section's (of the
/// kinds that differ), in the order of the sections.
pub(crate) fn effective_with_sections(
    world: &World,
    node: NodeId,
    kind: Option<&GroupKind>,
) -> (Vec<Effective>, Vec<SectionEffective>) {
    let topology = &world.topology;
    let sections = sections_of(topology, node);
    let mut effective = Vec::new();
    let mut at_sections: Vec<Vec<Effective>> = vec![Vec::new(); sections.len()];
    for gk in KindFold::kinds_in_use(topology) {
        if kind.is_some_and(|want| *want != gk) {
            continue;
        }
        let mut fold = KindFold::new(topology, &gk);
        let here = fold.effective_at(node);
        for (i, &section) in sections.iter().enumerate() {
            let at = fold.effective_at(section);
            // A section is shown when what applies there differs from its object.
            let differs = at.len() != here.len()
                || at
                    .iter()
                    .zip(&here)
                    .any(|(a, b)| a.spec != b.spec || a.sources != b.sources);
            if differs {
                at_sections[i].extend(at.iter().map(|g| Effective::from_group(world, g)));
            }
        }
        effective.extend(here.iter().map(|g| Effective::from_group(world, g)));
    }
    let sections = sections
        .iter()
        .zip(at_sections)
        .filter(|(_, e)| !e.is_empty())
        .map(|(&section, effective)| SectionEffective {
            section_name: topology
                .node(section)
                .obj_ref
                .section
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            effective,
        })
        .collect();
    (effective, sections)
}
