//! Link halves drawn by the GPU through an `egui_wgpu` paint callback, for fabrics too big to
//! re-tessellate every frame.
//!
//! The geometry (every link half of every rail, from its node to the link's midpoint, in world
//! units) is uploaded once per data set. A scene change (filter, region, highlight, colours)
//! uploads one 8-byte style per half: its colour, whose alpha 0 hides it (the visibility mask),
//! and its width. A camera move only rewrites a 48-byte uniform. The vertex shader expands each
//! half into a quad of the requested pixel width.

use std::sync::Arc;

use egui_wgpu::wgpu;
use egui_wgpu::wgpu::util::DeviceExt;

use crate::layout::Position;
use crate::scene::camera::{Camera, ScreenRect, Transform};
use crate::scene::dataset::FabricData as Dataset;
use crate::scene::draw::{glyph_sizes, plot_rect};
use crate::scene::{Emphasis, Scene};

const SHADER: &str = r#"
struct View {
    scale: vec2<f32>,
    centre: vec2<f32>,
    size: vec2<f32>,
    width: f32,
    feather: f32,
};
@group(0) @binding(0) var<uniform> view: View;

struct Out {
    @builtin(position) pos: vec4<f32>,
    @location(0) colour: vec4<f32>,
    @location(1) across: f32,
    @location(2) half_width: f32,
};

@vertex
fn vs(@builtin(vertex_index) v: u32,
      @location(0) start: vec2<f32>, @location(1) end: vec2<f32>,
      @location(2) colour: vec4<f32>, @location(3) width: f32) -> Out {
    // World → points inside the plot (y down), centred on the camera.
    let a = (start - view.centre) * vec2<f32>(view.scale.x, -view.scale.y) + view.size * 0.5;
    let b = (end - view.centre) * vec2<f32>(view.scale.x, -view.scale.y) + view.size * 0.5;
    let d = b - a;
    let len = max(length(d), 1e-4);
    let n = vec2<f32>(-d.y, d.x) / len;
    let hw = width * view.width * 0.5 + view.feather;
    var corner = array<vec2<f32>, 6>(
        vec2<f32>(0.0, -1.0), vec2<f32>(0.0, 1.0), vec2<f32>(1.0, -1.0),
        vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 1.0), vec2<f32>(1.0, -1.0));
    let c = corner[v];
    let p = mix(a, b, c.x) + n * c.y * hw;
    var out: Out;
    out.pos = vec4<f32>(p.x / view.size.x * 2.0 - 1.0, 1.0 - p.y / view.size.y * 2.0, 0.0, 1.0);
    out.colour = colour;
    out.across = c.y * hw;
    out.half_width = hw;
    return out;
}

@fragment
fn fs(in: Out) -> @location(0) vec4<f32> {
    let edge = clamp((in.half_width - abs(in.across)) / max(view.feather, 1e-3), 0.0, 1.0);
    let a = in.colour.a * edge;
    // egui blends premultiplied colours.
    return vec4<f32>(in.colour.rgb * a, a);
}
"#;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Uniform {
    scale: [f32; 2],
    centre: [f32; 2],
    size: [f32; 2],
    width: f32,
    feather: f32,
    _pad: [f32; 4],
}

/// Per half: straight-alpha colour and a width multiplier (1 normal, 2+ lit).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Style {
    pub colour: [u8; 4],
    pub width: f32,
}

/// The pipeline, made once when the app starts on wgpu.
struct Pipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

/// One view's buffers on the GPU.
struct ViewBuffers {
    geometry_key: u64,
    geometry: wgpu::Buffer,
    styles: wgpu::Buffer,
    count: u32,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

/// All views' buffers, kept in egui_wgpu's callback resources.
#[derive(Default)]
struct Views(std::collections::HashMap<u64, ViewBuffers>);

/// Per-view CPU state: what was last sent, so unchanged frames send only the uniform.
#[derive(Default)]
pub struct GpuLinkState {
    /// (data generation, geometry) computed for the current data set.
    geometry: Option<(u64, Arc<Vec<[f32; 4]>>)>,
    /// Styles for the current scene and a counter that changes with them.
    styles: Option<(usize, Arc<Vec<Style>>)>,
    styles_version: u64,
    offsets: Vec<usize>,
}

const FLAG: &str = "shoal-gpu-links";

/// Creates the pipeline; call once with the app's wgpu render state.
pub fn install(render_state: &egui_wgpu::RenderState, ctx: &egui::Context) {
    let device = &render_state.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("shoal links"),
        source: wgpu::ShaderSource::Wgsl(SHADER.into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("shoal links"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("shoal links"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let geometry = wgpu::VertexBufferLayout {
        array_stride: 16,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2],
    };
    let styles = wgpu::VertexBufferLayout {
        array_stride: 8,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![2 => Unorm8x4, 3 => Float32],
    };
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("shoal links"),
        layout: Some(&pipeline_layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(geometry), Some(styles)],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: render_state.target_format,
                blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    });
    let mut renderer = render_state.renderer.write();
    renderer.callback_resources.insert(Pipeline { pipeline, layout });
    renderer.callback_resources.insert(Views::default());
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(FLAG), true));
}

/// Marks the GPU path as usable without a renderer, so a benchmark measures its CPU side
/// (egui frame, uniform, styles) with no device. Never call it in the app.
pub fn assume_available(ctx: &egui::Context) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(FLAG), true));
}

/// Whether [`install`] ran (on a wgpu renderer).
pub fn available(ui: &egui::Ui) -> bool {
    ui.ctx().data(|d| d.get_temp::<bool>(egui::Id::unique(FLAG))).unwrap_or(false)
}

/// Every link half of every rail in world units (`[from.x, from.y, mid.x, mid.y]`), indexed by
/// `offsets[rail] + LinkEnd::index`; halves of unplaced nodes collapse to a point.
pub fn geometry(dataset: &Dataset) -> (Vec<[f32; 4]>, Vec<usize>) {
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for (r, fabric) in dataset.cluster.rails.iter().enumerate() {
        offsets.push(out.len());
        let pos = |i: usize| dataset.layout.rails.get(r).and_then(|l| l.positions.get(i).copied().flatten());
        for edge in fabric.graph.edge_indices() {
            let ends =
                fabric.graph.edge_endpoints(edge).and_then(|(a, b)| Some((pos(a.index())?, pos(b.index())?)));
            let (pa, pb) = ends.unwrap_or((Position::default(), Position::default()));
            let mid = [(pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0];
            out.push([pa.x, pa.y, mid[0], mid[1]]);
            out.push([pb.x, pb.y, mid[0], mid[1]]);
        }
    }
    (out, offsets)
}

/// One style per half: the scene's visible halves get their colour, the rest alpha 0.
pub fn styles(scene: &Scene, offsets: &[usize], total: usize) -> Vec<Style> {
    let mut styles = vec![Style::default(); total];
    for h in &scene.halves {
        let Some(&base) = offsets.get(usize::from(h.rail)) else { continue };
        if let Some(s) = styles.get_mut(base + h.end.index()) {
            let width = if h.emphasis == Emphasis::Lit { 2.5 } else { 1.0 };
            *s = Style { colour: h.colour.0, width };
        }
    }
    styles
}

struct LinksCallback {
    view: u64,
    geometry_key: u64,
    geometry: Option<Arc<Vec<[f32; 4]>>>,
    styles: Option<Arc<Vec<Style>>>,
    uniform: Uniform,
}

impl egui_wgpu::CallbackTrait for LinksCallback {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut egui_wgpu::CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(layout) = resources.get::<Pipeline>().map(|p| p.layout.clone()) else { return Vec::new() };
        let Some(views) = resources.get_mut::<Views>() else { return Vec::new() };
        let stale = views.0.get(&self.view).is_none_or(|v| v.geometry_key != self.geometry_key);
        if stale && let (Some(geometry), Some(styles)) = (&self.geometry, &self.styles) {
            let usage = wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST;
            let geometry_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("shoal link geometry"),
                contents: bytemuck::cast_slice(geometry),
                usage,
            });
            let styles_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("shoal link styles"),
                contents: bytemuck::cast_slice(styles),
                usage,
            });
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("shoal link view"),
                contents: bytemuck::bytes_of(&self.uniform),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            });
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("shoal links"),
                layout: &layout,
                entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
            });
            let count = geometry.len().min(styles.len()) as u32;
            views.0.insert(
                self.view,
                ViewBuffers {
                    geometry_key: self.geometry_key,
                    geometry: geometry_buf,
                    styles: styles_buf,
                    count,
                    uniform,
                    bind_group,
                },
            );
            return Vec::new();
        }
        if let Some(v) = views.0.get(&self.view) {
            if let Some(styles) = &self.styles
                && styles.len() as u32 == v.count
            {
                queue.write_buffer(&v.styles, 0, bytemuck::cast_slice(styles));
            }
            queue.write_buffer(&v.uniform, 0, bytemuck::bytes_of(&self.uniform));
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &egui_wgpu::CallbackResources,
    ) {
        let (Some(p), Some(views)) = (resources.get::<Pipeline>(), resources.get::<Views>()) else { return };
        let Some(v) = views.0.get(&self.view) else { return };
        pass.set_pipeline(&p.pipeline);
        pass.set_bind_group(0, &v.bind_group, &[]);
        pass.set_vertex_buffer(0, v.geometry.slice(..));
        pass.set_vertex_buffer(1, v.styles.slice(..));
        pass.draw(0..6, 0..v.count);
    }
}

/// The per-frame CPU work of the GPU path: the uniform, plus styles when the scene changed
/// (`scene_version` bumps). Returns the callback to hand to egui.
#[allow(clippy::too_many_arguments)]
fn frame_callback(
    state: &mut GpuLinkState,
    dataset: &Dataset,
    generation: u64,
    scene: &Scene,
    scene_version: u64,
    camera: &Camera,
    plot_size: [f32; 2],
    view: u64,
) -> LinksCallback {
    let mut send_geometry = None;
    if state.geometry.as_ref().is_none_or(|(g, _)| *g != generation) {
        let (geometry, offsets) = geometry(dataset);
        state.offsets = offsets;
        state.geometry = Some((generation, Arc::new(geometry)));
        state.styles = None;
    }
    let total = state.geometry.as_ref().map_or(0, |(_, g)| g.len());
    let mut send_styles = None;
    if state.styles_version != scene_version || state.styles.is_none() {
        let s = Arc::new(styles(scene, &state.offsets, total));
        state.styles = Some((total, s.clone()));
        state.styles_version = scene_version;
        send_styles = Some(s);
    }
    if let Some((_, g)) = &state.geometry {
        send_geometry = Some(g.clone());
    }
    let t = Transform::new(camera, &scene.bounds, ScreenRect::new(0.0, 0.0, plot_size[0], plot_size[1]));
    let (width, _) = glyph_sizes(scene, &t);
    let uniform = Uniform {
        scale: t.scale,
        centre: [t.centre.x, t.centre.y],
        size: plot_size,
        width,
        feather: 0.6,
        _pad: [0.0; 4],
    };
    LinksCallback {
        view,
        geometry_key: generation,
        geometry: send_geometry,
        styles: send_styles.or_else(|| state.styles.as_ref().map(|(_, s)| s.clone())),
        uniform,
    }
}

/// Adds the links of `scene` to `painter` as a paint callback covering the plot.
#[allow(clippy::too_many_arguments)]
pub fn paint(
    painter: &egui::Painter,
    state: &mut GpuLinkState,
    dataset: &Dataset,
    scene: &Scene,
    scene_version: u64,
    camera: &Camera,
    rect: egui::Rect,
    generation: u64,
    view: u64,
) {
    let plot = plot_rect(rect.width(), rect.height());
    let plot_rect =
        egui::Rect::from_min_size(rect.min + egui::vec2(plot.x, plot.y), egui::vec2(plot.w, plot.h));
    let cb = frame_callback(state, dataset, generation, scene, scene_version, camera, [plot.w, plot.h], view);
    painter.add(egui_wgpu::Callback::new_paint_callback(plot_rect, cb));
}

/// What one frame of the GPU path costs on the CPU, for benchmarks: the uniform and (if the
/// scene changed) the style array. Returns the number of halves.
pub fn frame_cpu_work(
    state: &mut GpuLinkState,
    dataset: &Dataset,
    scene: &Scene,
    scene_version: u64,
    camera: &Camera,
    size: [f32; 2],
) -> usize {
    let cb = frame_callback(state, dataset, 1, scene, scene_version, camera, size, 0);
    cb.styles.map_or(0, |s| s.len())
}
