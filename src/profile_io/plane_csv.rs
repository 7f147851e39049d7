//! A generic 2D network: `nodes.csv` (`id,name,x,y,…`) and `links.csv` (`a,b,…`), documented in
//! `docs/formats/generic2d.md`. `shoal convert`'s output (`rail,guid,name,kind,level,x,y` and
//! `rail,a_guid,a_port,b_guid,b_port,region,bytes_a_to_b,bytes_b_to_a`) opens the same way: its
//! nodes are keyed by `(rail, guid)`, and each physical link becomes two directed links.
//!
//! A links row is one directed link `a → b` whose attributes are the `a` end's, unless the file
//! has paired columns (`NAME_a_to_b` + `NAME_b_to_a`, or `a_NAME` + `b_NAME`): then each row is
//! a physical link, `a → b` takes the first of each pair and `b → a` the second, both under
//! `NAME`; unpaired columns go to both. Rows repeating a pair (one per region …) are more rows of
//! the same link. Column types are inferred: integers, else numbers (an empty cell is missing),
//! else text. Convert's region `total` is read as region −1 (Boxfish's examples use a negative
//! `code_region` for the whole run too).

use std::collections::HashMap;
use std::path::Path;

use super::error::ParseError;
use super::input::Input;
use super::line_warnings::LineWarnings;
use crate::model::{Column, Domain, NetLink, NetNode, Network, Run, Shape, Table, Warning};

/// Reads a nodes file and its links file into a run with a [`Shape::Plane`] network.
pub fn load_plane(nodes_path: &Path, links_path: &Path) -> Result<(Run, Vec<Warning>), ParseError> {
    let (nodes_input, mut warnings) = Input::open(nodes_path)?;
    let (links_input, w) = Input::open(links_path)?;
    warnings.extend(w);
    let (run, w) = parse_plane(&nodes_input, &links_input)?;
    warnings.extend(w);
    Ok((run, warnings))
}

/// A CSV file as text cells, with each data row's 1-based line number.
struct Csv {
    header: Vec<String>,
    rows: Vec<(usize, Vec<String>)>,
}

fn read_csv(input: &Input, warnings: &mut LineWarnings) -> Result<Csv, ParseError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(input.text().as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| ParseError::invalid(input.display(), format!("no CSV header: {e}")))?
        .iter()
        .map(String::from)
        .collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        match record {
            Ok(r) => {
                let line = r.position().map_or(0, |p| p.line() as usize);
                if r.len() != header.len() {
                    warnings.line(
                        line,
                        format!("{} cells for {} columns; the row is skipped", r.len(), header.len()),
                    );
                    continue;
                }
                rows.push((line, r.iter().map(String::from).collect()));
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                warnings.line(line, format!("unreadable CSV row ({e}); skipped"));
            }
        }
    }
    if let Some(message) = duplicate_name(&header) {
        return Err(ParseError::invalid(input.display(), message));
    }
    warn_mixed_columns(&header, &rows, warnings);
    Ok(Csv { header, rows })
}

/// `column `x` is named twice (columns 2 and 5)` for the first repeated name, if any: a table
/// must not hold two columns one name picks between silently.
pub fn duplicate_name(names: &[String]) -> Option<String> {
    names.iter().enumerate().find_map(|(j, name)| {
        let i = names[..j].iter().position(|n| n.eq_ignore_ascii_case(name))?;
        Some(format!("column `{name}` is named twice (columns {} and {}); rename one", i + 1, j + 1))
    })
}

/// A column of numbers with a few cells that are not (a typo, `N/A`) becomes text: say so once
/// per column, with the first such cell's line, so a whole column is not lost without a word.
fn warn_mixed_columns(header: &[String], rows: &[(usize, Vec<String>)], warnings: &mut LineWarnings) {
    for (c, name) in header.iter().enumerate() {
        // Convert's `region` column says `total` for the whole run (read as −1 below).
        let total = |cell: &str| name.eq_ignore_ascii_case("region") && cell.eq_ignore_ascii_case("total");
        let numeric = |cell: &str| cell.parse::<f64>().is_ok() || total(cell);
        let bad: Vec<(usize, &str)> = rows
            .iter()
            .map(|(line, row)| (*line, row[c].as_str()))
            .filter(|(_, cell)| !cell.is_empty() && !numeric(cell))
            .collect();
        let numbers = rows.iter().filter(|(_, row)| numeric(&row[c])).count();
        if let Some(&(line, cell)) = bad.first()
            && numbers > bad.len()
        {
            let shown: String = cell.chars().take(40).collect();
            warnings.line(
                line,
                format!(
                    "column `{name}`: {} of {} cells are not numbers (the first is this line's `{shown}`); \
                     the whole column is read as text",
                    bad.len(),
                    rows.len()
                ),
            );
        }
    }
}

/// Typed column from text cells: integers, else numbers (empty = missing), else text.
fn typed(cells: Vec<String>) -> Column {
    if cells.iter().all(|c| c.parse::<i64>().is_ok()) {
        return Column::Int(cells.iter().filter_map(|c| c.parse().ok()).collect());
    }
    let numbers: Option<Vec<f64>> =
        cells.iter().map(|c| if c.is_empty() { Some(f64::NAN) } else { c.parse().ok() }).collect();
    match numbers {
        Some(v) if cells.iter().any(|c| !c.is_empty()) => Column::Float(v),
        _ => Column::Text(cells.into()),
    }
}

fn find(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h.eq_ignore_ascii_case(name))
}

/// A node's key as the links file names it, from its row.
type KeyOf = Box<dyn Fn(&[String]) -> String>;

/// Parses the two files (already read).
pub fn parse_plane(nodes: &Input, links: &Input) -> Result<(Run, Vec<Warning>), ParseError> {
    let mut nw = LineWarnings::new(nodes.display());
    let mut lw = LineWarnings::new(links.display());
    let node_csv = read_csv(nodes, &mut nw)?;
    let link_csv = read_csv(links, &mut lw)?;
    let convert = find(&node_csv.header, "guid").is_some() && find(&node_csv.header, "rail").is_some();
    let need = |header: &[String], name: &str, input: &Input| {
        find(header, name).ok_or_else(|| {
            ParseError::invalid(input.display(), format!("no `{name}` column (header: {})", header.join(",")))
        })
    };
    let (x, y) = (need(&node_csv.header, "x", nodes)?, need(&node_csv.header, "y", nodes)?);
    let name_col = find(&node_csv.header, "name");
    // A node's key as the links file names it: `id`, or `rail:guid` for convert's output.
    let node_key: KeyOf = if convert {
        let (rail, guid) = (need(&node_csv.header, "rail", nodes)?, need(&node_csv.header, "guid", nodes)?);
        Box::new(move |r: &[String]| format!("{}:{}", r[rail], r[guid].to_ascii_lowercase()))
    } else {
        let id = need(&node_csv.header, "id", nodes)?;
        Box::new(move |r: &[String]| r[id].clone())
    };
    let mut network = Network {
        shape: Shape::Plane,
        axes: vec!["x".into(), "y".into()],
        nodes: Vec::new(),
        links: Vec::new(),
    };
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut kept_rows = Vec::new();
    for (line, row) in &node_csv.rows {
        let (Ok(px), Ok(py)) = (row[x].parse::<f64>(), row[y].parse::<f64>()) else {
            nw.line(*line, "the node has no x, y position; it and its links are skipped");
            continue;
        };
        let id = if convert {
            network.nodes.len() as i64
        } else {
            match row[find(&node_csv.header, "id").unwrap_or(0)].parse::<i64>() {
                Ok(id) => id,
                Err(_) => {
                    nw.line(*line, "`id` is not an integer; the node is skipped");
                    continue;
                }
            }
        };
        if by_key.insert(node_key(row), network.nodes.len()).is_some() {
            nw.line(*line, "this node id was given before; links go to this later row");
        }
        let name = name_col.map(|c| row[c].clone()).filter(|n| !n.is_empty());
        network.nodes.push(NetNode { id, name, coords: vec![px, py] });
        kept_rows.push(row);
    }
    // The node table: `id` first, then every column of the file (convert's have no `id`).
    let mut names = vec!["id".to_string()];
    let mut cells: Vec<Vec<String>> = vec![network.nodes.iter().map(|n| n.id.to_string()).collect()];
    for (c, h) in node_csv.header.iter().enumerate() {
        if !h.eq_ignore_ascii_case("id") {
            names.push(h.clone());
            cells.push(kept_rows.iter().map(|r| r[c].clone()).collect());
        }
    }
    let node_table =
        Table::new(nodes.display(), Domain::Nodes, "id", names, cells.into_iter().map(typed).collect())
            .map_err(|m| ParseError::invalid(nodes.display(), m))?;
    let link_table = links_table(&link_csv, links, convert, &by_key, &mut network, &mut lw)?;
    let mut warnings = nw.finish();
    warnings.extend(lw.finish());
    let name = Path::new(nodes.display())
        .parent()
        .and_then(|p| p.file_name())
        .map_or("plane".into(), |n| n.to_string_lossy().into_owned());
    let projections = vec![crate::model::Projection::NodeLink {
        node_policy: crate::model::Policy::Source,
        link_policy: crate::model::Policy::Source,
    }];
    Ok((Run::new(name, network, vec![node_table, link_table], projections), warnings))
}

/// The links table (and the network's links): one row per directed link per input row.
fn links_table(
    csv: &Csv,
    input: &Input,
    convert: bool,
    by_key: &HashMap<String, usize>,
    network: &mut Network,
    warnings: &mut LineWarnings,
) -> Result<Table, ParseError> {
    let h = &csv.header;
    let need = |name: &str| {
        find(h, name).ok_or_else(|| {
            ParseError::invalid(input.display(), format!("no `{name}` column (header: {})", h.join(",")))
        })
    };
    let (a, b, rail) = if convert {
        (need("a_guid")?, need("b_guid")?, Some(need("rail")?))
    } else {
        (need("a")?, need("b")?, None)
    };
    let (pairs, shared) = paired_columns(h, a, b);
    let both_ways = !pairs.is_empty();
    let key = |row: &[String], col: usize| match rail {
        Some(r) => format!("{}:{}", row[r], row[col].to_ascii_lowercase()),
        None => row[col].clone(),
    };
    let mut link_of: HashMap<(usize, usize), i64> = HashMap::new();
    let mut ids: Vec<String> = Vec::new();
    let mut ends: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut pair_cells: Vec<Vec<String>> = vec![Vec::new(); pairs.len()];
    let mut shared_cells: Vec<Vec<String>> = vec![Vec::new(); shared.len()];
    for (line, row) in &csv.rows {
        let (Some(&na), Some(&nb)) = (by_key.get(&key(row, a)), by_key.get(&key(row, b))) else {
            warnings.line(
                *line,
                format!("a link end names no known node (`{}` → `{}`); the row is skipped", row[a], row[b]),
            );
            continue;
        };
        let directions: &[(usize, usize, bool)] =
            if both_ways { &[(na, nb, true), (nb, na, false)] } else { &[(na, nb, true)] };
        for &(s, t, forward) in directions {
            let next = link_of.len() as i64;
            let id = *link_of.entry((s, t)).or_insert_with(|| {
                network.links.push(NetLink { id: next, source: s, target: t });
                next
            });
            ids.push(id.to_string());
            ends[0].push(network.nodes[s].id.to_string());
            ends[1].push(network.nodes[t].id.to_string());
            for (k, (_, i, j)) in pairs.iter().enumerate() {
                pair_cells[k].push(row[if forward { *i } else { *j }].clone());
            }
            for (k, &c) in shared.iter().enumerate() {
                let cell = &row[c];
                let total =
                    convert && h[c].eq_ignore_ascii_case("region") && cell.eq_ignore_ascii_case("total");
                shared_cells[k].push(if total { "-1".to_string() } else { cell.clone() });
            }
        }
    }
    let mut names = vec!["linkid".to_string(), "source".to_string(), "target".to_string()];
    let [sources, targets] = ends;
    let mut columns = vec![typed(ids), typed(sources), typed(targets)];
    for ((name, _, _), cells) in pairs.iter().zip(pair_cells) {
        names.push(name.clone());
        columns.push(typed(cells));
    }
    for (&c, cells) in shared.iter().zip(shared_cells) {
        names.push(h[c].clone());
        columns.push(typed(cells));
    }
    empty_keys_are_integers(&mut columns[..3]);
    Table::new(input.display(), Domain::Links, "linkid", names, columns)
        .map_err(|m| ParseError::invalid(input.display(), m))
}

/// An empty file still gets integer key columns (an empty column types as text).
fn empty_keys_are_integers(columns: &mut [Column]) {
    for col in columns {
        if let Column::Text(v) = col
            && v.is_empty()
        {
            *col = Column::Int(Vec::new());
        }
    }
}

/// Columns that come in a→b / b→a pairs (`x_a_to_b` and `x_b_to_a`, `a_x` and `b_x`): (output
/// name, a→b column, b→a column); then the columns that describe the link as a whole, not one
/// direction (the end columns `a` and `b` are neither).
fn paired_columns(h: &[String], a: usize, b: usize) -> (Vec<(String, usize, usize)>, Vec<usize>) {
    let mut pairs: Vec<(String, usize, usize)> = Vec::new();
    let mut used = vec![false; h.len()];
    used[a] = true;
    used[b] = true;
    for (i, name) in h.iter().enumerate() {
        let lower = name.to_ascii_lowercase();
        let partner = if let Some(base) = lower.strip_suffix("_a_to_b") {
            find(h, &format!("{base}_b_to_a")).map(|j| (name[..base.len()].to_string(), j))
        } else if let Some(base) = lower.strip_prefix("a_") {
            find(h, &format!("b_{base}")).map(|j| (name[2..].to_string(), j))
        } else {
            None
        };
        if let Some((out, j)) = partner
            && !used[i]
            && !used[j]
        {
            pairs.push((out, i, j));
            used[i] = true;
            used[j] = true;
        }
    }
    let shared: Vec<usize> = (0..h.len()).filter(|&i| !used[i]).collect();
    (pairs, shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(nodes: &str, links: &str) -> (Run, Vec<Warning>) {
        parse_plane(&Input::from_text("nodes.csv", nodes), &Input::from_text("links.csv", links)).unwrap()
    }

    #[test]
    fn plain_rows_are_directed_links_with_the_a_ends_attributes() {
        let (r, w) =
            run("id,name,x,y,group\n1,a,0,0,g0\n2,b,1,0,g0\n", "a,b,bytes\n1,2,10\n2,1,20\n1,2,30\n");
        assert!(w.is_empty(), "{w:?}");
        let net = r.network();
        assert_eq!(
            net.links,
            vec![NetLink { id: 0, source: 0, target: 1 }, NetLink { id: 1, source: 1, target: 0 }]
        );
        let t = &r.tables()[1];
        assert_eq!(t.ids, vec![0, 1, 0]);
        assert_eq!(t.column("bytes"), Some(&Column::Int(vec![10, 20, 30])));
        assert_eq!(r.tables()[0].column("group"), Some(&Column::text_of(["g0", "g0"])));
    }

    #[test]
    fn paired_columns_split_a_row_into_both_directions() {
        let (r, _) =
            run("id,x,y\n1,0,0\n2,1,0\n", "a,b,a_port,b_port,bytes_a_to_b,bytes_b_to_a\n1,2,3,4,100,200\n");
        let t = &r.tables()[1];
        assert_eq!(r.network().links.len(), 2);
        assert_eq!(t.column("port"), Some(&Column::Int(vec![3, 4])));
        assert_eq!(t.column("bytes"), Some(&Column::Int(vec![100, 200])));
        assert_eq!(t.column("source"), Some(&Column::Int(vec![1, 2])));
    }

    #[test]
    fn unknown_ends_and_unplaced_nodes_are_warnings() {
        let (r, w) = run("id,x,y\n1,0,0\n2,,\n", "a,b\n1,2\n1,1\n");
        assert_eq!(r.network().nodes.len(), 1);
        assert_eq!(r.network().links.len(), 1);
        assert_eq!(w.iter().map(|w| w.line).collect::<Vec<_>>(), vec![Some(3), Some(2)]);
    }

    #[test]
    fn one_bad_cell_in_a_number_column_is_a_warning_with_line_and_column() {
        let (_, warnings) = run("id,name,x,y,load\n1,a,0,0,5\n2,b,1,0,5x\n3,c,2,0,7\n", "a,b\n1,2\n");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].line, Some(3));
        assert!(
            warnings[0].message.starts_with("column `load`: 1 of 3 cells are not numbers"),
            "{warnings:?}"
        );
    }

    #[test]
    fn a_column_named_twice_is_an_error_naming_the_file() {
        let nodes = Input::from_text("nodes.csv", "id,x,y,x\n1,0,0,0\n");
        let links = Input::from_text("links.csv", "a,b\n");
        let err = parse_plane(&nodes, &links).unwrap_err().to_string();
        assert_eq!(err, "nodes.csv: column `x` is named twice (columns 2 and 4); rename one");
    }
}
