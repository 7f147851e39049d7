//! The GPU side: shader, pipeline, and the paint callback that keeps each view's instance
//! buffers up to date (uploading only what changed, by version) and draws them.

use std::collections::HashMap;
use std::sync::Arc;

use egui_wgpu::wgpu;

use super::slots::{Segment, Styles};

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
      @location(2) colour: vec4<f32>, @location(3) lit: f32) -> Out {
    // World → points inside the plot (y down), centred on the camera.
    let a = (start - view.centre) * vec2<f32>(view.scale.x, -view.scale.y) + view.size * 0.5;
    let b = (end - view.centre) * vec2<f32>(view.scale.x, -view.scale.y) + view.size * 0.5;
    let d = b - a;
    let len = max(length(d), 1e-4);
    let n = vec2<f32>(-d.y, d.x) / len;
    // As the painter: a lit half is twice as wide plus a point.
    let hw = (view.width * (1.0 + lit) + lit) * 0.5 + view.feather;
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
pub struct Uniform {
    pub scale: [f32; 2],
    pub centre: [f32; 2],
    pub size: [f32; 2],
    pub width: f32,
    pub feather: f32,
    pub _pad: [f32; 4],
}

const SEGMENT_BYTES: u64 = std::mem::size_of::<Segment>() as u64;
const STYLE_BYTES: u64 = std::mem::size_of::<super::slots::Style>() as u64;

/// A view's buffers unused for this many egui passes are dropped (a closed view); a view shown
/// again uploads anew from its CPU copies.
const PRUNE_AFTER_PASSES: u64 = 600;

/// The pipeline, made once when the app starts on wgpu.
struct Pipeline {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

/// A vertex buffer that grows (to a power of two) and is otherwise rewritten in place.
#[derive(Default)]
struct Grow(Option<wgpu::Buffer>);

impl Grow {
    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let len = bytes.len() as u64;
        if self.0.as_ref().is_none_or(|b| b.size() < len) {
            self.0 = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("shoal links"),
                size: len.next_power_of_two().max(256),
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(b) = &self.0 {
            queue.write_buffer(b, 0, bytes);
        }
    }
}

/// One view's buffers on the GPU, with the versions they hold.
struct ViewBuffers {
    geometry_version: u64,
    styles_version: u64,
    last_pass: u64,
    geometry: Grow,
    styles: Grow,
    lit_geometry: Grow,
    lit_styles: Grow,
    count: u32,
    lit_count: u32,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

impl ViewBuffers {
    fn new(device: &wgpu::Device, layout: &wgpu::BindGroupLayout) -> ViewBuffers {
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shoal link view"),
            size: std::mem::size_of::<Uniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shoal links"),
            layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
        });
        ViewBuffers {
            geometry_version: 0,
            styles_version: 0,
            last_pass: 0,
            geometry: Grow::default(),
            styles: Grow::default(),
            lit_geometry: Grow::default(),
            lit_styles: Grow::default(),
            count: 0,
            lit_count: 0,
            uniform,
            bind_group,
        }
    }
}

/// All views' buffers, kept in egui_wgpu's callback resources, by [`super::GpuLinkState`] id.
#[derive(Default)]
struct Views(HashMap<u64, ViewBuffers>);

/// Creates the pipeline; call once with the app's wgpu render state.
pub fn install(render_state: &egui_wgpu::RenderState) {
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
        array_stride: SEGMENT_BYTES,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2],
    };
    let styles = wgpu::VertexBufferLayout {
        array_stride: STYLE_BYTES,
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
}

/// One view's frame: everything it may need to upload (shared, so cloning is cheap), with the
/// versions that tell `prepare` whether the GPU already holds it.
pub struct LinksCallback {
    pub view: u64,
    pub pass: u64,
    pub geometry: (u64, Arc<Vec<Segment>>),
    pub styles: (u64, Arc<Styles>),
    pub uniform: Uniform,
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
        views.0.retain(|&id, v| id == self.view || v.last_pass + PRUNE_AFTER_PASSES >= self.pass);
        let v = views.0.entry(self.view).or_insert_with(|| ViewBuffers::new(device, &layout));
        v.last_pass = self.pass;
        let (geometry_version, geometry) = &self.geometry;
        if v.geometry_version != *geometry_version {
            v.geometry.write(device, queue, bytemuck::cast_slice(geometry));
            v.geometry_version = *geometry_version;
        }
        let (styles_version, styles) = &self.styles;
        if v.styles_version != *styles_version {
            v.styles.write(device, queue, bytemuck::cast_slice(&styles.main));
            v.lit_geometry.write(device, queue, bytemuck::cast_slice(&styles.lit_geometry));
            v.lit_styles.write(device, queue, bytemuck::cast_slice(&styles.lit));
            v.styles_version = *styles_version;
        }
        v.count = geometry.len().min(styles.main.len()) as u32;
        v.lit_count = styles.lit_geometry.len().min(styles.lit.len()) as u32;
        queue.write_buffer(&v.uniform, 0, bytemuck::bytes_of(&self.uniform));
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
        // The lit halves last, on top.
        for (geometry, styles, count) in
            [(&v.geometry, &v.styles, v.count), (&v.lit_geometry, &v.lit_styles, v.lit_count)]
        {
            let (Some(g), Some(s)) = (&geometry.0, &styles.0) else { continue };
            if count == 0 {
                continue;
            }
            let n = u64::from(count);
            pass.set_vertex_buffer(0, g.slice(..n * SEGMENT_BYTES));
            pass.set_vertex_buffer(1, s.slice(..n * STYLE_BYTES));
            pass.draw(0..6, 0..count);
        }
    }
}
