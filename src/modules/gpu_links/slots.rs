//! The CPU side of the GPU links: which half sits in which instance slot of the geometry
//! buffer, and what one scene uploads (a style per slot, the lit halves apart).

use std::sync::Arc;

use crate::scene::{Emphasis, Half, Scene};

/// A half in world units: `[from.x, from.y, to.x, to.y]`.
pub type Segment = [f32; 4];

/// Per instance: straight-alpha colour (alpha 0 hides it) and whether it is lit (drawn twice
/// as wide plus a point, as the painter draws lit halves).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Style {
    pub colour: [u8; 4],
    pub lit: f32,
}

const NONE: u32 = u32::MAX;

/// The geometry of one geometry key: every half seen since the key last changed, identified
/// by `(rail, end.index())`, each in one slot.
#[derive(Default)]
pub struct Slots {
    /// `index[rail][end index]`: the half's slot, or [`NONE`].
    index: Vec<Vec<u32>>,
    /// Slot → `(rail, end index)`.
    ids: Vec<(u8, u32)>,
    pub geometry: Arc<Vec<Segment>>,
}

fn segment(h: &Half) -> Segment {
    [h.from.x, h.from.y, h.to.x, h.to.y]
}

impl Slots {
    /// The scene's halves in its order (so a depth-sorted scene keeps its order), then the
    /// halves `previous` held that the scene lacks: hidden now, but a filter may show them again.
    pub fn build(scene: &Scene, previous: Option<&Slots>) -> Slots {
        let mut slots = Slots::default();
        let extra = previous.map_or(0, Slots::len);
        let mut geometry = Vec::with_capacity(scene.halves.len() + extra);
        for h in &scene.halves {
            slots.push(h.rail, h.end.index(), segment(h), &mut geometry);
        }
        if let Some(p) = previous {
            for (&(rail, end), &seg) in p.ids.iter().zip(p.geometry.iter()) {
                slots.push(rail, end as usize, seg, &mut geometry);
            }
        }
        slots.geometry = Arc::new(geometry);
        slots
    }

    fn push(&mut self, rail: u8, end: usize, seg: Segment, geometry: &mut Vec<Segment>) {
        let r = usize::from(rail);
        if self.index.len() <= r {
            self.index.resize_with(r + 1, Vec::new);
        }
        let row = &mut self.index[r];
        if row.len() <= end {
            row.resize((end + 1).max(row.len() * 2), NONE);
        }
        if row[end] != NONE {
            return; // the same half twice: the first placement stands
        }
        row[end] = self.ids.len() as u32;
        self.ids.push((rail, end as u32));
        geometry.push(seg);
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    fn slot(&self, h: &Half) -> Option<usize> {
        let s = *self.index.get(usize::from(h.rail))?.get(h.end.index())?;
        (s != NONE).then_some(s as usize)
    }
}

/// What one scene uploads: a style per slot (alpha 0 where the scene hides the half or lights
/// it), and the lit halves again with their geometry, in scene order, drawn after the rest so
/// they stay on top.
#[derive(Default)]
pub struct Styles {
    pub main: Vec<Style>,
    pub lit_geometry: Vec<Segment>,
    pub lit: Vec<Style>,
}

/// The styles of `scene` over `slots`; `None` if one of its halves has no slot yet, or if the
/// scene draws its halves in another order than the slots hold them (the scene puts busier
/// ends on top, so a new region reorders them): then the geometry is built again in the
/// scene's order, which is what the GPU draws in.
pub fn styles(slots: &Slots, scene: &Scene) -> Option<Styles> {
    let mut out = Styles { main: vec![Style::default(); slots.len()], ..Default::default() };
    let mut last = None;
    for h in &scene.halves {
        let slot = slots.slot(h)?;
        if h.emphasis != Emphasis::Lit {
            if last.is_some_and(|l| slot < l) {
                return None;
            }
            last = Some(slot);
        }
        if h.emphasis == Emphasis::Lit {
            out.lit_geometry.push(segment(h));
            out.lit.push(Style { colour: h.colour.0, lit: 1.0 });
        } else {
            out.main[slot] = Style { colour: h.colour.0, lit: 0.0 };
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Position;
    use crate::model::LinkEnd;
    use crate::scene::Rgba;

    fn half(rail: u8, i: usize, x: f32, emphasis: Emphasis) -> Half {
        Half {
            from: Position { x, y: 0.0 },
            to: Position { x, y: 1.0 },
            colour: Rgba::rgb(10, 20, 30),
            rail,
            end: LinkEnd::from_index(i),
            emphasis,
        }
    }

    fn scene(halves: Vec<Half>) -> Scene {
        Scene { halves, ..Default::default() }
    }

    #[test]
    fn a_subset_of_the_halves_styles_without_new_slots_and_hides_the_rest() {
        let all = scene(vec![half(0, 0, 0.0, Emphasis::Normal), half(1, 5, 1.0, Emphasis::Normal)]);
        let slots = Slots::build(&all, None);
        let some = scene(vec![half(1, 5, 1.0, Emphasis::Normal)]);
        let s = styles(&slots, &some).expect("every half has a slot");
        assert_eq!(s.main.len(), 2);
        assert_eq!(s.main[0].colour[3], 0, "the filtered half is transparent");
        assert_eq!(s.main[1].colour, [10, 20, 30, 255]);
    }

    #[test]
    fn a_half_without_a_slot_asks_for_a_build_that_keeps_the_hidden_ones() {
        let first = scene(vec![half(0, 3, 0.0, Emphasis::Normal)]);
        let slots = Slots::build(&first, None);
        let second = scene(vec![half(0, 7, 2.0, Emphasis::Normal)]);
        assert!(styles(&slots, &second).is_none());
        let grown = Slots::build(&second, Some(&slots));
        assert_eq!(grown.len(), 2);
        assert_eq!(grown.geometry[0], [2.0, 0.0, 2.0, 1.0], "the scene's halves come first");
        assert_eq!(grown.geometry[1], [0.0, 0.0, 0.0, 1.0], "the hidden half keeps its place");
        assert!(styles(&grown, &first).is_some(), "showing the first half again needs no build");
    }

    #[test]
    fn a_scene_in_another_order_asks_for_a_build_in_its_order() {
        let first = scene(vec![half(0, 0, 0.0, Emphasis::Normal), half(0, 1, 1.0, Emphasis::Normal)]);
        let slots = Slots::build(&first, None);
        let busier_first = scene(vec![half(0, 1, 1.0, Emphasis::Normal), half(0, 0, 0.0, Emphasis::Normal)]);
        assert!(styles(&slots, &busier_first).is_none(), "the GPU would draw half 1 under half 0");
        let rebuilt = Slots::build(&busier_first, Some(&slots));
        assert_eq!(rebuilt.geometry[..2], [[1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0]]);
        assert!(styles(&rebuilt, &busier_first).is_some());
    }

    #[test]
    fn lit_halves_are_drawn_again_on_top_in_scene_order() {
        let s = scene(vec![
            half(0, 0, 0.0, Emphasis::Dim),
            half(0, 2, 2.0, Emphasis::Lit),
            half(0, 1, 1.0, Emphasis::Lit),
        ]);
        let slots = Slots::build(&s, None);
        let st = styles(&slots, &s).unwrap();
        assert_eq!(st.main.iter().filter(|x| x.colour[3] > 0).count(), 1, "lit slots stay transparent");
        assert_eq!(st.lit_geometry, vec![[2.0, 0.0, 2.0, 1.0], [1.0, 0.0, 1.0, 1.0]]);
        assert!(st.lit.iter().all(|x| x.lit == 1.0));
    }
}
