//! A fabric snapshot as GraphML, for Gephi and Cytoscape (issue 23 item 7).
//!
//! - One node per node per rail (a host's CA on each rail it is cabled to, as `nodes.csv`), with
//!   its name (node description), GUID, kind, level (hops to the nearest host), rail and the
//!   layout's position.
//! - One directed edge per link end: the end that sends `source → target`, with its rail and
//!   ports, the whole run's traced bytes, the link's capacity per direction where its width and
//!   speed are known, and the view's value (what the view the flags describe colours that end
//!   with: the region's bytes, a diff, a utilisation …; absent where the view has none).
//!
//! Names are escaped; characters XML 1.0 cannot hold at all (control characters other than
//! tab, line feed and carriage return) are written as U+FFFD, so the file always parses.

use std::io::{self, Write};

use crate::model::capacity::Capacity;
use crate::model::{LinkEnd, Side};
use crate::view_model::dataset::FabricData;

/// The `<key>` declarations: (id, for, attr.name, attr.type).
const KEYS: &[(&str, &str, &str, &str)] = &[
    ("name", "node", "name", "string"),
    ("guid", "node", "guid", "string"),
    ("kind", "node", "kind", "string"),
    ("level", "node", "level", "int"),
    ("rail", "node", "rail", "int"),
    ("x", "node", "x", "double"),
    ("y", "node", "y", "double"),
    ("e_rail", "edge", "rail", "int"),
    ("src_port", "edge", "source_port", "int"),
    ("dst_port", "edge", "target_port", "int"),
    ("bytes", "edge", "bytes", "long"),
    ("capacity", "edge", "capacity_bytes_per_s", "long"),
    ("value", "edge", "value", "double"),
];

/// Writes `fabric` as GraphML. `link_values` is the view's value per link position
/// (`FabricData::index`), `value_desc` says what it is.
pub fn write_graphml(
    out: &mut impl Write,
    fabric: &FabricData,
    link_values: &[Option<f64>],
    value_desc: &str,
) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">"#
    )?;
    for &(id, domain, name, kind) in KEYS {
        write!(out, r#"  <key id="{id}" for="{domain}" attr.name="{name}" attr.type="{kind}""#)?;
        if id == "value" {
            writeln!(out, "><desc>{}</desc></key>", escape(value_desc))?;
        } else {
            writeln!(out, "/>")?;
        }
    }
    writeln!(out, r#"  <graph id="fabric" edgedefault="directed">"#)?;
    write_nodes(out, fabric)?;
    write_edges(out, fabric, link_values)?;
    writeln!(out, "  </graph>\n</graphml>")
}

fn write_nodes(out: &mut impl Write, fabric: &FabricData) -> io::Result<()> {
    for (r, rail) in fabric.cluster.rails.iter().enumerate() {
        let layout = fabric.layout.rails.get(r);
        for node in rail.graph.node_indices() {
            let n = rail.node(node);
            writeln!(out, r#"    <node id="{}">"#, node_id(r, node.index()))?;
            data(out, "name", &escape(&n.description))?;
            data(out, "guid", &n.guid.to_string())?;
            data(out, "kind", n.kind.as_str())?;
            if let Some(level) = layout.and_then(|l| l.levels.get(node.index()).copied().flatten()) {
                data(out, "level", &level.to_string())?;
            }
            data(out, "rail", &r.to_string())?;
            if let Some(p) = layout.and_then(|l| l.positions.get(node.index()).copied().flatten()) {
                data(out, "x", &p.x.to_string())?;
                data(out, "y", &p.y.to_string())?;
            }
            writeln!(out, "    </node>")?;
        }
    }
    Ok(())
}

fn write_edges(out: &mut impl Write, fabric: &FabricData, link_values: &[Option<f64>]) -> io::Result<()> {
    for (r, rail) in fabric.cluster.rails.iter().enumerate() {
        let load = fabric.loads.total.rails.get(r);
        for edge in rail.graph.edge_indices() {
            let Some((a, b)) = rail.graph.edge_endpoints(edge) else { continue };
            let link = &rail.graph[edge];
            let capacity = Capacity::of(link).ok().map(|c| c.bytes_per_s().round() as u64);
            for (side, from, to, ports) in [
                (Side::A, a, b, (link.a_port.0, link.b_port.0)),
                (Side::B, b, a, (link.b_port.0, link.a_port.0)),
            ] {
                let end = LinkEnd { edge, side };
                let tag = if side == Side::A { 'a' } else { 'b' };
                let (source, target) = (node_id(r, from.index()), node_id(r, to.index()));
                writeln!(
                    out,
                    r#"    <edge id="r{r}-l{}{tag}" source="{source}" target="{target}">"#,
                    edge.index()
                )?;
                data(out, "e_rail", &r.to_string())?;
                data(out, "src_port", &ports.0.to_string())?;
                data(out, "dst_port", &ports.1.to_string())?;
                data(out, "bytes", &load.map_or(0, |l| l.at(end)).to_string())?;
                if let Some(c) = capacity {
                    data(out, "capacity", &c.to_string())?;
                }
                let position = fabric.index.link_position(r, end);
                if let Some(v) =
                    position.and_then(|p| link_values.get(p).copied().flatten()).filter(|v| v.is_finite())
                {
                    data(out, "value", &v.to_string())?;
                }
                writeln!(out, "    </edge>")?;
            }
        }
    }
    Ok(())
}

/// A node's id: unique over the rails (one GUID may be cabled to two rails' files).
fn node_id(rail: usize, node: usize) -> String {
    format!("r{rail}-n{node}")
}

fn data(out: &mut impl Write, key: &str, text: &str) -> io::Result<()> {
    writeln!(out, r#"      <data key="{key}">{text}</data>"#)
}

/// `text` as XML character data or an attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Kept as references: a parser would fold a literal line end or tab in an attribute.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_line_ends_are_escaped_and_unwritable_controls_replaced() {
        assert_eq!(escape(r#"a<b>&"c"'d'"#), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
        assert_eq!(escape("x\ty\nz\r"), "x&#9;y&#10;z&#13;");
        assert_eq!(escape("bell\u{7}"), "bell\u{FFFD}");
        assert_eq!(escape("nœud 東京"), "nœud 東京");
    }

    #[test]
    fn an_awkward_name_parses_back_unchanged_as_text_and_as_an_attribute() {
        let name = "sw <1> & \"spine\" 'a'\ttab\nline\r";
        let xml = format!(r#"<n a="{}">{}</n>"#, escape(name), escape(name));
        let doc = roxmltree::Document::parse(&xml).expect("well-formed");
        assert_eq!(doc.root_element().attribute("a"), Some(name));
        assert_eq!(doc.root_element().text(), Some(name));
    }
}
