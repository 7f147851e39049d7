//! The class body every network class (fat tree, torus 3D and 2D, generic 2D) shares: they
//! keep a [`NetworkState`](super::network::NetworkState), prepare and draw it alike, and differ
//! only in their id, name, options and [`NetworkStyle`](super::network::NetworkStyle).

/// The body every network class shares (state, prepare, ranges, size, draw list, input), given
/// a `fn(&ViewSpec) -> NetworkStyle`; a class adds its id, name and options. The style's module
/// title is the class's own `title` for the view.
macro_rules! network_class_body {
    ($style:expr) => {
        network_class_body!(@body $style, |class: &Self, ctx: &$crate::modules::class::ViewContext<'_>| {
            $crate::modules::network::NetworkStyle {
                module_title: $crate::modules::class::ViewClass::title(class, ctx.dataset, &ctx.spec.module),
                ..$style(ctx.spec)
            }
        });
    };
    (@body $style:expr, $titled:expr) => {
        fn new_state(&self) -> $crate::modules::network::NetworkState {
            $crate::modules::network::NetworkState::default()
        }

        fn prepare(
            &self,
            ctx: &$crate::modules::class::PrepareContext<'_>,
            state: &mut $crate::modules::network::NetworkState,
        ) -> Result<(), String> {
            state.prepare_values(ctx, &$style(ctx.spec).layout)
        }

        fn ranges(
            &self,
            state: &$crate::modules::network::NetworkState,
        ) -> $crate::view_model::prepare::Ranges {
            state.ranges()
        }

        fn last_size(&self, state: &$crate::modules::network::NetworkState) -> Option<[f32; 2]> {
            Some([state.size.x, state.size.y])
        }

        fn draw_list<'s>(
            &self,
            ctx: &$crate::modules::class::ViewContext<'_>,
            state: &'s mut $crate::modules::network::NetworkState,
            eye: &$crate::modules::class::Eye,
            size: [f32; 2],
        ) -> Result<$crate::modules::class::Drawing<'s>, String> {
            state.draw_list(ctx, &$titled(self, ctx), eye, size)
        }

        fn ui(
            &self,
            ctx: &$crate::modules::class::ViewContext<'_>,
            state: &mut $crate::modules::network::NetworkState,
            eye: &mut $crate::modules::class::Eye,
            ui: &mut egui::Ui,
            commands: &mut Vec<$crate::modules::command::Command>,
        ) {
            $crate::modules::view_ui::view_ui(ctx, state, eye, ui, commands, $titled(self, ctx));
        }
    };
}
pub(crate) use network_class_body;
