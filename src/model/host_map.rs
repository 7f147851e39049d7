//! How a profile's ranks map onto a fabric's hosts (`--host-map`): plain data. The file format
//! is read in `profile_io::host_map`; routing uses the map when it places a profile's bytes.

use std::collections::HashMap;

/// Maps a profile's ranks onto fabric hosts (`--host-map`): by host name, or rank by rank
/// (a rank entry wins). Identity where absent.
#[derive(Clone, Debug, Default)]
pub struct HostMap {
    /// Profile host name → fabric host name.
    pub hosts: HashMap<String, String>,
    /// World rank → fabric host name, for profiles whose ranks ran elsewhere (a single-node
    /// test run) or whose host names are missing.
    pub ranks: HashMap<u32, String>,
}

impl HostMap {
    pub fn fabric_name<'a>(&'a self, profile_name: &'a str) -> &'a str {
        self.hosts.get(profile_name).map_or(profile_name, String::as_str)
    }

    /// The fabric host name of a rank that the profile places on `profile_name`.
    pub fn host_of_rank<'a>(&'a self, rank: u32, profile_name: &'a str) -> &'a str {
        self.ranks.get(&rank).map_or_else(|| self.fabric_name(profile_name), String::as_str)
    }
}
