//! Which trace a fabric view shows when the dumps hold adaptive-routing tables: the static
//! forwarding tables' loads, the AR spread (modelled, see `routing::ar`), or their difference per
//! link end. The switch is the view's link attribute (`bytes`, `bytes_ar`, `ar_minus_static`),
//! so filters, highlights, linked ranges, compare and diff treat it like any other column, and
//! the legend's caption says "AR modelled" for the last two (see `ViewSpec::caption`;
//! `ViewSpec::routing_shown` and `ViewSpec::show_routing` read and set it on a view).

use super::dataset::Dataset;

pub use super::dataset::{AR_BYTES, AR_MINUS_STATIC, STATIC_BYTES};

/// The trace a view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutingShown {
    Static,
    ArModelled,
    ArMinusStatic,
}

impl RoutingShown {
    /// Every choice with the label the switch shows.
    pub const ALL: [(RoutingShown, &'static str); 3] = [
        (RoutingShown::Static, "static"),
        (RoutingShown::ArModelled, "AR modelled"),
        (RoutingShown::ArMinusStatic, "AR − static (modelled)"),
    ];

    /// The link attribute that shows this trace.
    pub fn attribute(self) -> &'static str {
        match self {
            RoutingShown::Static => STATIC_BYTES,
            RoutingShown::ArModelled => AR_BYTES,
            RoutingShown::ArMinusStatic => AR_MINUS_STATIC,
        }
    }

    /// The trace a link attribute shows, if it is one of the three; `None` for any other
    /// attribute (packets, counters, …): the switch then lights none of its choices.
    pub fn of_attribute(attribute: Option<&str>) -> Option<RoutingShown> {
        let attribute = attribute?;
        Self::ALL.iter().map(|&(shown, _)| shown).find(|shown| shown.attribute() == attribute)
    }

    /// The trace model behind this choice: AR for both AR choices (the pairs crossing an end
    /// are those of the AR spread).
    pub fn model(self) -> crate::routing::RoutingModel {
        match self {
            RoutingShown::Static => crate::routing::RoutingModel::Static,
            RoutingShown::ArModelled | RoutingShown::ArMinusStatic => {
                crate::routing::RoutingModel::AdaptiveModelled
            }
        }
    }

    /// Whether the data set can switch: a fabric whose dumps hold AR tables.
    pub fn available(dataset: &Dataset) -> bool {
        dataset.fabric.as_ref().is_some_and(|f| f.ar_loads.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view_model::view::ViewSpec;

    #[test]
    fn each_choice_names_its_own_attribute_and_reads_back_from_the_spec() {
        let mut spec = ViewSpec::default();
        assert_eq!(spec.routing_shown(), Some(RoutingShown::Static));
        for (shown, _) in RoutingShown::ALL {
            spec.show_routing(shown);
            assert_eq!(spec.routing_shown(), Some(shown));
        }
        spec.link_attribute = Some("packets".into());
        assert_eq!(spec.routing_shown(), None);
    }

    #[test]
    fn the_difference_is_coloured_as_signed_and_both_ar_choices_are_captioned_modelled() {
        assert!(crate::view_model::dataset::counters::is_signed_attribute(AR_MINUS_STATIC));
        let spec = ViewSpec::default();
        for shown in [RoutingShown::ArModelled, RoutingShown::ArMinusStatic] {
            assert!(spec.caption(Some(shown.attribute()), false).contains("AR modelled"));
        }
        assert!(!spec.caption(Some(STATIC_BYTES), false).contains("AR"));
    }
}
