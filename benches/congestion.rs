//! Congestion regions and CCDFs (issue 22, items 5 and 6), on one rail of a k = 36 three-level
//! fat tree (34,992 links = 69,984 link ends):
//!
//! - `regions_1440_intervals`: the regions of 1,440 intervals (a day of minutes) × 69,984 ends,
//!   linked across intervals (target ≤ 2 s). Each interval's stalls come from one of 24 patterns
//!   (hot spots of ~1 % of the ends, around a few spines and leaves, some ends unknown), so the
//!   input costs 24 × 69,984 floats, not 1,440 ×, while every interval is scanned whole;
//! - `ccdf_10m_samples`: the CCDF of ten million percentages (target ≤ 0.2 s).
//!
//! `cargo bench --bench congestion`

use std::sync::OnceLock;

use divan::Bencher;
use shoal::model::Cluster;
use shoal::model::synthetic::ThreeLevel;
use shoal::view_model::ccdf::ccdf_percent;
use shoal::view_model::congestion::{EndPlaces, congestion_regions};

fn main() {
    divan::main();
}

/// `cargo test --all-targets` runs each bench once in a debug build: small there, full in `cargo bench`.
const INTERVALS: usize = if cfg!(debug_assertions) { 10 } else { 1_440 };
const SAMPLES: usize = if cfg!(debug_assertions) { 100_000 } else { 10_000_000 };
const PATTERNS: usize = 24;

/// A small deterministic generator (no crate needed for noise).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    fn unit(&mut self) -> f32 {
        self.next() as f32 / (1u64 << 31) as f32
    }
}

struct Data {
    places: EndPlaces,
    patterns: Vec<Vec<f32>>,
    samples: Vec<f32>,
}

fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let cluster = Cluster::new(vec![ThreeLevel::k_ary(36).build()]);
        let places = EndPlaces::new(&cluster);
        assert_eq!(places.len(), 69_984);
        let mut rng = Lcg(22);
        let patterns = (0..PATTERNS).map(|_| pattern(places.len(), &mut rng)).collect();
        let samples = (0..SAMPLES).map(|_| 100.0 * rng.unit() * rng.unit()).collect();
        Data { places, patterns, samples }
    })
}

/// Background stalls under 10 %, hot runs of consecutive ends (one switch's ports) above it,
/// and 2 % of ends unknown.
fn pattern(ends: usize, rng: &mut Lcg) -> Vec<f32> {
    let mut v: Vec<f32> = (0..ends).map(|_| 8.0 * rng.unit() * rng.unit()).collect();
    for _ in 0..ends / 50 {
        v[rng.next() as usize % ends] = f32::NAN;
    }
    for _ in 0..24 {
        let start = rng.next() as usize % ends;
        for e in start..(start + 30).min(ends) {
            v[e] = 10.0 + 80.0 * rng.unit();
        }
    }
    v
}

#[divan::bench]
fn regions_1440_intervals(bencher: Bencher) {
    let d = data();
    bencher.bench(|| {
        let intervals = (0..INTERVALS).map(|i| d.patterns[i % PATTERNS].as_slice());
        let evolution = congestion_regions(&d.places, intervals, 10.0);
        assert_eq!(evolution.by_interval.len(), INTERVALS);
        evolution
    });
}

#[divan::bench]
fn ccdf_10m_samples(bencher: Bencher) {
    let d = data();
    bencher.bench(|| {
        let c = ccdf_percent(d.samples.iter().copied());
        assert_eq!(c.samples as usize, SAMPLES);
        c
    });
}
