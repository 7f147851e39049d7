//! The fat-tree scene of a rail-optimized cluster: a host drawn as each of its CAs.

use crate::model::Cluster;
use crate::model::synthetic::RailOptimized;
use crate::scene::draw::Picked;
use crate::scene::{Emphasis, MarkOf};
use crate::view_model::highlight::{Highlight, project};
use crate::view_model::{Dataset, Filter, LayoutChoice, ViewSpec, prepare};

fn dataset() -> Dataset {
    let cluster = Cluster::new(vec![RailOptimized::new(2, 4, 8, 2).build()]);
    let n = cluster.hosts.len();
    let ring = (0..n).map(|s| (s, (s + 1) % n, 1 << 20)).collect();
    Dataset::from_host_traffic("rail-optimized".into(), cluster, vec![("ring".into(), ring)])
}

#[test]
fn picking_one_ca_of_a_host_lights_all_its_cas_and_brackets_them_under_its_name() {
    let d = dataset();
    let spec = ViewSpec::for_dataset(&d);
    let prepared = prepare(&d, &spec, &Filter::default(), &LayoutChoice::natural(&d)).unwrap();
    let plain = prepared.scene(&d, &spec, (None, None), &Default::default(), &Default::default(), 1.0);
    let host_marks = plain.marks.iter().filter(|m| matches!(m.of, MarkOf::Host(_))).count();
    assert_eq!(host_marks, 8 * 8, "one mark per CA");
    let plane_brackets: Vec<&str> = plain.brackets.iter().map(|b| b.text.as_str()).collect();
    assert_eq!(plane_brackets.len(), 8);
    assert_eq!(plane_brackets[3], "mlx5_3");

    // The third CA mark from the right belongs to some host: pick it, as a click does.
    let i = plain.marks.iter().rposition(|m| matches!(m.of, MarkOf::Host(_))).unwrap() - 2;
    let MarkOf::Host(h) = plain.marks[i].of else { unreachable!() };
    let (domain, ids) = prepared.picked_ids(&d, &plain, Picked::Mark(i));
    let seeds = ids.iter().map(|&id| crate::view_model::Seed::Id { domain, id }).collect();
    let lit = project(&d, &Highlight { seeds });
    let scene = prepared.scene(&d, &spec, (None, None), &lit, &Default::default(), 1.0);
    for m in scene.marks.iter().filter(|m| matches!(m.of, MarkOf::Host(_))) {
        let expected = if m.of == MarkOf::Host(h) { Emphasis::Lit } else { Emphasis::Dim };
        assert_eq!(m.emphasis, expected);
    }
    let host = &d.fabric.as_ref().unwrap().cluster.hosts[h];
    let bracket = scene.brackets.iter().find(|b| b.emphasis == Emphasis::Lit).unwrap();
    assert_eq!(bracket.text, host.name);
    assert_eq!(bracket.ticks.len(), 8, "a tick under each of its CAs");
}
