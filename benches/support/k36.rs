//! The k = 36 fat tree with its profile, as `shoal gen --k 36 --rails 2 --ranks 10000 --peers
//! 100` writes it (two rails of 11,664 hosts, 1,620 switches and 34,992 links; 10,000 ranks ×
//! 100 peers in one region), for the benches that open it. Set `SHOAL_K36=DIR` to a folder
//! `shoal gen` wrote; without it the bench writes one under `target/bench-data/k36` first
//! (about a minute).

use std::path::PathBuf;

use shoal::model::RailId;
use shoal::model::synthetic::{PeerProfile, ThreeLevel};
use shoal::profile_io::ibprof::write_profile;
use shoal::profile_io::opensm_write::write_rail_dir;
use shoal::view_model::OpenRequest;

const K: usize = 36;
const RANKS: u32 = 10_000;
const PEERS: u32 = 100;

/// The k = 36 fabric and its profile, written once.
pub fn fabric_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SHOAL_K36") {
        return PathBuf::from(dir);
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/k36");
    let profile = dir.join(format!("ranks{RANKS}-peers{PEERS}.ibprof"));
    if profile.exists() {
        return dir;
    }
    let mut names = Vec::new();
    for rail in 0..2u8 {
        let shape =
            ThreeLevel::k_ary_pods(K, K).rail(RailId(rail), 0x0002_c900_0000_0000 + (u64::from(rail) << 32));
        names = shape.host_names();
        write_rail_dir(&shape.build(), &dir.join(format!("rail{rail}"))).expect("the rail is written");
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(&profile).expect("the profile is created"));
    write_profile(&PeerProfile::new(RANKS, PEERS).build(&names), &mut out).expect("the profile is written");
    dir
}

pub fn request(dir: &std::path::Path) -> OpenRequest {
    OpenRequest {
        profile: Some(dir.join(format!("ranks{RANKS}-peers{PEERS}.ibprof"))),
        ..OpenRequest::of_rails(vec![vec![dir.join("rail0")], vec![dir.join("rail1")]])
    }
}
