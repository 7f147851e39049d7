//! The host's InfiniBand ports, read from sysfs.
//!
//! `<root>/class/infiniband/<device>/ports/<n>/{lid,lid_mask_count,state,link_layer,gids/0}`,
//! where `<root>` is `/sys` or `IBPROF_SYSFS_ROOT`. Only active InfiniBand ports are listed
//! (RoCE ports have no LID), ordered by device name then port number, and numbered from 0.
//! A host without InfiniBand simply has no ports.

use std::fs;
use std::path::Path;

use crate::local_port::LocalPort;

/// The active InfiniBand ports under `root` (normally `/sys`).
pub fn local_ports(root: &Path) -> Vec<LocalPort> {
    let class = root.join("class/infiniband");
    let mut devices: Vec<String> = match fs::read_dir(&class) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect(),
        Err(_) => return Vec::new(),
    };
    devices.sort();
    let mut ports = Vec::new();
    for dev in devices {
        let mut nums: Vec<u8> = match fs::read_dir(class.join(&dev).join("ports")) {
            Ok(rd) => {
                rd.filter_map(|e| e.ok()).filter_map(|e| e.file_name().to_str()?.parse().ok()).collect()
            }
            Err(_) => continue,
        };
        nums.sort_unstable();
        for n in nums {
            let dir = class.join(&dev).join("ports").join(n.to_string());
            if let Some(mut p) = read_port(&dir) {
                p.index = ports.len() as u32;
                p.device = Some(dev.clone());
                p.portnum = Some(n);
                ports.push(p);
            }
        }
    }
    ports
}

fn read_port(dir: &Path) -> Option<LocalPort> {
    let read = |name: &str| fs::read_to_string(dir.join(name)).ok().map(|s| s.trim().to_string());
    if let Some(layer) = read("link_layer")
        && !layer.eq_ignore_ascii_case("InfiniBand")
    {
        return None;
    }
    if !read("state")?.contains("ACTIVE") {
        return None;
    }
    let lid = parse_hex(&read("lid")?)?;
    let lid = u16::try_from(lid).ok().filter(|&l| l != 0)?;
    let lmc = read("lid_mask_count").and_then(|s| s.parse::<u8>().ok()).unwrap_or(0);
    let guid = read("gids/0").and_then(|g| guid_from_gid(&g)).unwrap_or(0);
    Some(LocalPort { index: 0, device: None, portnum: None, guid, lid, lmc })
}

fn parse_hex(s: &str) -> Option<u64> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
    u64::from_str_radix(digits, 16).ok()
}

/// The port GUID is the interface id: the low 64 bits of GID 0
/// (`fe80:0000:0000:0000:0002:c903:00a1:b2c3` → `0x0002c90300a1b2c3`).
fn guid_from_gid(gid: &str) -> Option<u64> {
    let groups: Vec<&str> = gid.split(':').collect();
    if groups.len() != 8 {
        return None;
    }
    groups[4..].iter().try_fold(0u64, |acc, g| Some(acc << 16 | u64::from_str_radix(g, 16).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(root: &Path, dev: &str, n: u8, files: &[(&str, &str)]) {
        let dir = root.join("class/infiniband").join(dev).join("ports").join(n.to_string());
        fs::create_dir_all(dir.join("gids")).unwrap();
        for (name, text) in files {
            fs::write(dir.join(name), format!("{text}\n")).unwrap();
        }
    }

    fn tempdir(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("ibprof-sysfs-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn active_ib_ports_are_listed_in_device_then_port_order() {
        let root = tempdir("order");
        let gid = "fe80:0000:0000:0000:0002:c903:00a1:b2c3";
        let active = |lid: &'static str| {
            vec![("lid", lid), ("lid_mask_count", "1"), ("state", "4: ACTIVE"), ("link_layer", "InfiniBand")]
        };
        let mut a = active("0x12");
        a.push(("gids/0", gid));
        port(&root, "mlx5_1", 1, &active("0x20"));
        port(&root, "mlx5_0", 2, &a);
        port(&root, "mlx5_0", 1, &[("lid", "0x0"), ("state", "1: DOWN")]);
        port(&root, "mlx5_2", 1, &[("lid", "0x0"), ("state", "4: ACTIVE"), ("link_layer", "Ethernet")]);
        let ports = local_ports(&root);
        assert_eq!(ports.len(), 2);
        assert_eq!(
            (ports[0].index, ports[0].device.as_deref(), ports[0].portnum),
            (0, Some("mlx5_0"), Some(2))
        );
        assert_eq!((ports[0].lid, ports[0].lmc, ports[0].guid), (0x12, 1, 0x0002_c903_00a1_b2c3));
        assert_eq!((ports[1].index, ports[1].lid, ports[1].guid), (1, 0x20, 0));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_host_without_infiniband_has_no_ports() {
        assert!(local_ports(&tempdir("none")).is_empty());
    }

    #[test]
    fn gid_zero_carries_the_port_guid() {
        assert_eq!(guid_from_gid("fe80:0000:0000:0000:0002:c903:00a1:b2c3"), Some(0x0002_c903_00a1_b2c3));
        assert_eq!(guid_from_gid("fe80::1"), None);
    }
}
