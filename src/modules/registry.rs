//! Every view class, by its stable id. Adding a class is adding its file and a line here.

use std::path::Path;

use crate::view_model::dataset::Dataset;
use crate::view_model::filter::Filter;
use crate::view_model::prepare::{LayoutChoice, Prepared, prepare};
use crate::view_model::session::Session;
use crate::view_model::view::{ModuleSpec, ViewSpec};

use super::class::AnyViewClass;
use super::congestion_view::CongestionClass;
use super::fat_tree::FatTree;
use super::generic2d::Generic2d;
use super::matrix::MatrixClass;
use super::time_strip::TimeStripClass;
use super::torus::{Torus, TorusFlat};

/// Every class, in menu order.
pub static REGISTRY: &[&dyn AnyViewClass] =
    &[&FatTree, &Torus, &TorusFlat, &Generic2d, &TimeStripClass, &MatrixClass, &CongestionClass];

/// The class with this id (or one of its aliases), if there is one.
pub fn class(id: &str) -> Option<&'static dyn AnyViewClass> {
    REGISTRY.iter().copied().find(|c| c.id() == id || c.aliases().contains(&id))
}

/// The class that draws a view: the one its spec names (generic 2D, which draws any network
/// at its given positions, if none has that id).
pub fn class_of(spec: &ViewSpec) -> &'static dyn AnyViewClass {
    class(spec.module.class_id()).unwrap_or(&Generic2d)
}

/// What a new view of each class that can draw `dataset` shows, in menu order.
pub fn choices(dataset: &Dataset) -> Vec<ModuleSpec> {
    REGISTRY.iter().filter_map(|c| c.module_for(dataset)).collect()
}

/// What menus call a module: its class's name (an unknown id names itself).
pub fn module_name(module: &ModuleSpec) -> &str {
    class(module.class_id()).map_or(module.class_id(), |c| c.display_name())
}

/// What a view's title calls its module: its class's words for it.
pub fn module_title(spec: &ViewSpec, dataset: &Dataset) -> String {
    class_of(spec).title(dataset, &spec.module)
}

/// Why the view's class cannot draw `dataset` with the view's parameters, if it cannot.
pub fn unavailable(spec: &ViewSpec, dataset: &Dataset) -> Option<&'static str> {
    class_of(spec).unavailable(dataset, &spec.module)
}

/// The layout a network view puts its nodes in; an error for a view that draws no network.
pub fn network_layout(spec: &ViewSpec) -> Result<LayoutChoice, String> {
    let class = class_of(spec);
    class.layout(&spec.module).ok_or_else(|| format!("the {} view draws no network", class.display_name()))
}

/// Step 1 of drawing a view ([`prepare`]), in the layout its class chose: what `render`, the
/// session renderer and the tests call.
pub fn prepare_view(dataset: &Dataset, spec: &ViewSpec, group: &Filter) -> Result<Prepared, String> {
    if let Some(why) = unavailable(spec, dataset) {
        return Err(why.to_string());
    }
    prepare(dataset, spec, group, &network_layout(spec)?)
}

/// A module read from a session, under its class's own id, if its class exists and its
/// parameters read.
pub fn checked(module: &ModuleSpec) -> Result<ModuleSpec, String> {
    let Some(class) = class(module.class_id()) else {
        let known: Vec<&str> = REGISTRY.iter().map(|c| c.id()).collect();
        return Err(format!("no view class `{}` (known: {})", module.class_id(), known.join(", ")));
    };
    class.check_params(module)?;
    Ok(module.renamed(class.id()))
}

/// Checks every view of the session read from `path` against the registry (its class exists,
/// its parameters read) and names each class by its own id.
pub fn check_session(session: &mut Session, path: &Path) -> Result<(), String> {
    for (i, view) in session.views.iter_mut().enumerate() {
        view.spec.module =
            checked(&view.spec.module).map_err(|e| format!("{}: view {}: {e}", path.display(), i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_finds_each_class_by_its_id() {
        for id in ["fat_tree", "torus", "torus_flat", "generic_2d", "time_strip", "matrix", "congestion"] {
            assert_eq!(class(id).map(|c| c.id()), Some(id), "{id}");
        }
        assert!(class("sunburst").is_none(), "an unknown id finds no class");
    }

    #[test]
    fn class_ids_are_unique() {
        let mut ids: Vec<&str> = REGISTRY.iter().map(|c| c.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), REGISTRY.len());
    }

    #[test]
    fn each_module_of_a_spec_is_drawn_by_the_class_it_names() {
        let modules = [
            (ModuleSpec::of("fat_tree"), "fat tree"),
            (ModuleSpec::with("torus", &crate::layout::torus::KeptAxes { kept: vec![0, 1, 2] }), "torus 3D"),
            (ModuleSpec::with("torus_flat", &crate::layout::torus::LookingDown { down: 2 }), "torus 2D"),
            (ModuleSpec::of("generic_2d"), "generic 2D"),
            (ModuleSpec::of("time_strip"), "time strip"),
            (ModuleSpec::of("congestion"), "congestion regions"),
        ];
        for (module, name) in modules {
            let spec = ViewSpec { module: module.clone(), ..Default::default() };
            assert_eq!(class_of(&spec).display_name(), name, "{module:?}");
            assert_eq!(class_of(&spec).id(), module.class_id());
        }
    }

    #[test]
    fn a_session_module_is_checked_against_its_class() {
        assert_eq!(checked(&ModuleSpec::of("generic2d")), Ok(ModuleSpec::of("generic_2d")), "an alias");
        let e = checked(&ModuleSpec::of("sunburst")).unwrap_err();
        assert!(e.starts_with("no view class `sunburst` (known: fat_tree, torus"), "{e}");
        let bad: ModuleSpec = serde_saphyr::from_str("torus_flat:\n  down: north\n").unwrap();
        assert!(checked(&bad).unwrap_err().starts_with("the torus_flat view's parameters"));
    }

    #[test]
    fn network_classes_name_their_layout_and_the_others_draw_no_network() {
        let spec = |m: ModuleSpec| ViewSpec { module: m, ..Default::default() };
        assert_eq!(network_layout(&spec(ModuleSpec::of("fat_tree"))), Ok(LayoutChoice::FatTree));
        let flat = ModuleSpec::with("torus_flat", &crate::layout::torus::LookingDown { down: 1 });
        assert_eq!(network_layout(&spec(flat)), Ok(LayoutChoice::TorusDown(1)));
        assert_eq!(
            network_layout(&spec(ModuleSpec::of("time_strip"))),
            Err("the time strip view draws no network".into())
        );
    }

    #[test]
    fn the_menus_offer_the_classes_that_can_draw_the_data_set_as_scene_lists_them() {
        let fabric = Dataset::synthetic(6, 4, 3, 2);
        let names = |d: &Dataset| choices(d).iter().map(|m| m.class_id().to_string()).collect::<Vec<_>>();
        assert_eq!(names(&fabric), ["fat_tree", "generic_2d", "time_strip", "matrix"]);
        let torus = Dataset::from_run(
            crate::view_model::run_synthetic::synthetic_run(&["x", "y", "z"], &[4, 4, 4]),
            Vec::new(),
        );
        assert_eq!(names(&torus), ["torus", "torus_flat", "generic_2d"]);
    }
}
