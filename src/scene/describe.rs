//! What a glyph of a prepared view stands for: the view model's ids behind a mark or a half (a
//! merged torus cell has several), and the tooltip lines that describe them. One code path for
//! every module: a fat tree's marks and halves name rails and link ends, which the fabric index
//! turns into the same node and link ids a torus or a plane uses.

use crate::layout::torus;
use crate::model::{Domain, LinkEnd, Side};

use super::draw::Picked;
use super::network::{format_number, is_bytes};
use super::{MarkOf, Scene};
use crate::view_model::dataset::Dataset;
use crate::view_model::prepare::{Prepared, ViewLayout};
use crate::view_model::view::ViewSpec;

impl Prepared {
    /// The node positions behind mark `i` of this view's scene.
    pub fn mark_members(&self, dataset: &Dataset, scene: &Scene, i: usize) -> Vec<usize> {
        let Some(mark) = scene.marks.get(i) else { return Vec::new() };
        match (mark.of, &self.layout) {
            (MarkOf::Host(h), _) => vec![h],
            (MarkOf::Switch { rail, node }, _) => {
                let index = dataset.fabric.as_ref().map(|f| &f.index);
                index.and_then(|x| x.node_position(usize::from(rail), node)).into_iter().collect()
            }
            (MarkOf::Node(cell), ViewLayout::Torus(l)) => {
                l.cell_members.get(cell).cloned().unwrap_or_default()
            }
            (MarkOf::Node(n), _) => vec![n],
        }
    }

    /// The link positions behind half `i` of this view's scene.
    pub fn half_members(&self, dataset: &Dataset, scene: &Scene, i: usize) -> Vec<usize> {
        let Some(half) = scene.halves.get(i) else { return Vec::new() };
        match &self.layout {
            ViewLayout::FatTree => {
                let index = dataset.fabric.as_ref().map(|f| &f.index);
                index.and_then(|x| x.link_position(usize::from(half.rail), half.end)).into_iter().collect()
            }
            ViewLayout::Torus(l) => {
                l.links.get(half.end.index()).map(|m| m.members.clone()).unwrap_or_default()
            }
            ViewLayout::Plane(_) => vec![half.end.index()],
        }
    }

    /// The domain and ids a pick stands for (what a click highlights).
    pub fn picked_ids(&self, dataset: &Dataset, scene: &Scene, picked: Picked) -> (Domain, Vec<i64>) {
        let run = &dataset.run;
        let (domain, positions) = match picked {
            Picked::Mark(i) => (Domain::Nodes, self.mark_members(dataset, scene, i)),
            Picked::Half(i) => (Domain::Links, self.half_members(dataset, scene, i)),
        };
        let ids = run.ids(domain);
        (domain, positions.iter().filter_map(|&p| ids.get(p).copied()).collect())
    }

    /// Tooltip lines for a pick: names, attributes, the coloured value.
    pub fn describe(&self, dataset: &Dataset, spec: &ViewSpec, scene: &Scene, picked: Picked) -> Vec<String> {
        match picked {
            Picked::Mark(i) => {
                let members = self.mark_members(dataset, scene, i);
                let mut lines = node_lines(dataset, &members);
                let values: Vec<f64> =
                    members.iter().filter_map(|&n| self.node_values.get(n).copied().flatten()).collect();
                lines.push(value_text(spec.node_attribute.as_deref(), &values, spec.merge));
                lines
            }
            Picked::Half(i) => {
                let members = self.half_members(dataset, scene, i);
                let mut lines = self.torus_link_line(dataset, scene, i).into_iter().collect::<Vec<_>>();
                lines.extend(link_lines(dataset, &members));
                let values: Vec<f64> = members
                    .iter()
                    .filter(|&&m| self.link_pass.get(m).copied().unwrap_or(true))
                    .filter_map(|&m| self.link_values.get(m).copied().flatten())
                    .collect();
                lines.push(value_text(spec.link_attribute.as_deref(), &values, spec.merge));
                if let [one] = members.as_slice()
                    && let Some(back) = self.reverse_value(dataset, *one)
                {
                    lines.push(format!("back: {}", shown_value(spec.link_attribute.as_deref(), back)));
                }
                lines
            }
        }
    }

    /// `link (0, 0) x+, wrap-around` for a torus half.
    fn torus_link_line(&self, dataset: &Dataset, scene: &Scene, i: usize) -> Option<String> {
        let ViewLayout::Torus(l) = &self.layout else { return None };
        let half = scene.halves.get(i)?;
        let id = l.links.get(half.end.index())?.id.as_ref()?;
        let axes = &dataset.run.network().axes;
        let lower: Vec<String> = id.lower.iter().map(u32::to_string).collect();
        let axis = l.projection.kept.get(id.axis).and_then(|&a| axes.get(a)).cloned().unwrap_or_default();
        let wrap = if id.wraps { ", wrap-around" } else { "" };
        Some(format!("link ({}) {axis}{}{wrap}", lower.join(", "), id.direction.symbol()))
    }

    /// The value at the other end of a fabric link (its other direction).
    fn reverse_value(&self, dataset: &Dataset, link: usize) -> Option<f64> {
        let index = &dataset.fabric.as_ref()?.index;
        let (rail, end) = index.link(link)?;
        let side = if end.side == Side::A { Side::B } else { Side::A };
        let back = index.link_position(rail, LinkEnd { edge: end.edge, side })?;
        Some(self.link_values.get(back).copied().flatten().unwrap_or(0.0))
    }
}

fn node_name(dataset: &Dataset, n: usize) -> String {
    let node = dataset.run.network().nodes.get(n);
    node.and_then(|x| x.name.clone()).unwrap_or_else(|| format!("node {}", node.map_or(0, |x| x.id)))
}

fn coords_text(dataset: &Dataset, n: usize) -> String {
    let net = dataset.run.network();
    let Some(node) = net.nodes.get(n) else { return String::new() };
    let parts: Vec<String> = node
        .coords
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{} {}", net.axes.get(i).map_or("?", |s| s.as_str()), format_number(*c)))
        .collect();
    parts.join(", ")
}

/// The first table's text and integer columns of a row, as `name value` pairs (kind, rail,
/// GUID, LID for a fabric node).
fn attribute_line(dataset: &Dataset, domain: Domain, position: usize) -> Option<String> {
    let run = &dataset.run;
    let id = *run.ids(domain).get(position)?;
    let table = run.tables_of(domain).next()?;
    // Rows are usually in id order (a fabric's always): look there before scanning.
    let row = match table.ids.get(position) {
        Some(&x) if x == id => position,
        _ => table.ids.iter().position(|&x| x == id)?,
    };
    let parts: Vec<String> = table
        .names
        .iter()
        .zip(&table.columns)
        .filter(|(name, _)| **name != table.key && name.as_str() != "name")
        .take(6)
        .filter_map(|(name, column)| match (name.as_str(), column.text(row)) {
            // A host is on several rails (and a node off the planes has none): say which, never −1.
            ("rail", text) if text == "-1" => host_rails(dataset, domain, position),
            ("plane" | "level", text) if text == "-1" => None,
            (_, text) => Some(format!("{name} {text}")),
        })
        .filter(|s| !s.ends_with(' '))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn node_lines(dataset: &Dataset, members: &[usize]) -> Vec<String> {
    match members {
        [n] => {
            let id = dataset.run.network().nodes.get(*n).map_or(0, |x| x.id);
            let mut lines = vec![format!("{} (node {id})", node_name(dataset, *n))];
            if dataset.fabric.is_some() {
                lines.extend(attribute_line(dataset, Domain::Nodes, *n));
            } else {
                lines.push(coords_text(dataset, *n));
            }
            lines
        }
        many => {
            let nodes = &dataset.run.network().nodes;
            let ids: Vec<String> =
                many.iter().take(8).filter_map(|&n| nodes.get(n)).map(|x| x.id.to_string()).collect();
            let more = if many.len() > 8 { ", …" } else { "" };
            vec![format!("{} nodes merged", many.len()), format!("ids {}{more}", ids.join(", "))]
        }
    }
}

fn link_lines(dataset: &Dataset, members: &[usize]) -> Vec<String> {
    let net = dataset.run.network();
    let mut lines = Vec::new();
    for &m in members.iter().take(if members.len() == 1 { 1 } else { 4 }) {
        let Some(link) = net.links.get(m) else { continue };
        let where_ = |n: usize| match dataset.fabric {
            Some(_) => node_name(dataset, n),
            None => format!("node {} ({})", net.nodes.get(n).map_or(0, |x| x.id), coords_text(dataset, n)),
        };
        lines.push(format!("link {}: {} -> {}", link.id, where_(link.source), where_(link.target)));
        if dataset.fabric.is_some() {
            lines.extend(attribute_line(dataset, Domain::Links, m));
        }
    }
    if members.len() > 1 {
        lines.push(format!("{} directed links merged", members.len()));
    }
    lines
}

/// `rail 0`, `rails 0 and 1`: the rails a fabric's host has a CA on.
fn host_rails(dataset: &Dataset, domain: Domain, position: usize) -> Option<String> {
    let fabric = dataset.fabric.as_ref().filter(|_| domain == Domain::Nodes)?;
    let host = fabric.cluster.hosts.get(position)?;
    let rails: Vec<String> = (0..fabric.cluster.rails.len())
        .filter(|&r| !host.on_rail(r).is_empty())
        .map(|r| r.to_string())
        .collect();
    match rails.as_slice() {
        [] => None,
        [one] => Some(format!("rail {one}")),
        [first @ .., last] => Some(format!("rails {} and {last}", first.join(", "))),
    }
}

/// A value as the legends print it: binary byte units (`119 MiB`) for byte attributes.
fn shown_value(attribute: Option<&str>, v: f64) -> String {
    if is_bytes(attribute) { crate::units::format_bytes_f64(v) } else { format_number(v) }
}

fn value_text(attribute: Option<&str>, values: &[f64], merge: torus::Aggregate) -> String {
    match (attribute, values) {
        (None, _) => "not coloured".into(),
        (Some(a), []) => format!("{a}: no value (or filtered out)"),
        (Some(a), [v]) => format!("{a}: {}", shown_value(attribute, *v)),
        (Some(a), many) => {
            let v = merge.combine(many.iter().copied()).unwrap_or(0.0);
            format!("{a}: {} ({} of {})", shown_value(attribute, v), merge.name(), many.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::MarkOf;
    use crate::scene::draw::Picked;
    use crate::view_model::{Dataset, Filter, LayoutChoice, ViewSpec, prepare};

    #[test]
    fn a_host_tooltip_names_its_rails_and_its_bytes_in_binary_units() {
        let d = Dataset::synthetic(4, 3, 2, 2);
        let spec = ViewSpec::for_dataset(&d);
        let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
        let scene = crate::scene::scene_for(
            &d,
            &spec,
            &Filter::default(),
            &Default::default(),
            (&LayoutChoice::FatTree, 1.0),
        )
        .unwrap();
        let host = scene.marks.iter().position(|m| matches!(m.of, MarkOf::Host(_))).unwrap();
        let lines = prepared.describe(&d, &spec, &scene, Picked::Mark(host));
        let text = lines.join("\n");
        assert!(text.contains("rails 0 and 1"), "{text}");
        assert!(!text.contains("-1"), "never rail −1 or plane −1: {text}");
        let value = lines.last().unwrap();
        assert!(value.starts_with("bytes_sent: ") && value.ends_with('B'), "binary byte units: {value}");
        let half = scene.halves.iter().position(|h| h.rail == 0).unwrap();
        let lines = prepared.describe(&d, &spec, &scene, Picked::Half(half));
        assert!(lines.iter().any(|l| l.starts_with("bytes: ") && l.ends_with('B')), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("back: ") && l.ends_with('B')), "{lines:?}");
    }
}
