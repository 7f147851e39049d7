//! Rails as one byte buffer: what libibprof's rank 0 reads from the file system and broadcasts,
//! so that thousands of ranks build the same fabric without all opening the dumps.
//!
//! Layout (little endian): `u32` rails; per rail `u32` files; per file `u8` kind, `u32` name
//! length, the name, `u64` content length, the content (as read: plain text or gzip).

use std::path::PathBuf;

use crate::model::{Cluster, RailId, Warning};

use super::error::ParseError;
use super::input::Input;
use super::rail::{DumpKind, RailInputs, build_rail, open_rail};

const KINDS: [DumpKind; 7] = [
    DumpKind::LinkList,
    DumpKind::Ibdiagnet2Csv,
    DumpKind::Ibnetdiscover,
    DumpKind::PortsList,
    DumpKind::Fdbs,
    DumpKind::LftsDump,
    DumpKind::Ibroute,
];

/// Reads every rail's dump files (as [`open_rail`] finds them) into one buffer.
pub fn pack_rails(rails: &[Vec<PathBuf>]) -> Result<(Vec<u8>, Vec<Warning>), ParseError> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    out.extend((rails.len() as u32).to_le_bytes());
    for paths in rails {
        let (inputs, w) = open_rail(paths)?;
        warnings.extend(w);
        out.extend((inputs.inputs.len() as u32).to_le_bytes());
        for (kind, input) in &inputs.inputs {
            let content = match input.deferred_path() {
                Some(path) => {
                    std::fs::read(path).map_err(|e| ParseError::io(path.display().to_string(), e))?
                }
                None => input.text().as_bytes().to_vec(),
            };
            let kind = KINDS.iter().position(|k| k == kind).unwrap_or(0) as u8;
            out.push(kind);
            let name = input.display().as_bytes();
            out.extend((name.len() as u32).to_le_bytes());
            out.extend(name);
            out.extend((content.len() as u64).to_le_bytes());
            out.extend(content);
        }
    }
    Ok((out, warnings))
}

/// Builds the cluster from a buffer made by [`pack_rails`] (rail by rail, as
/// [`super::load_cluster`] would from the files).
pub fn unpack_cluster(bytes: &[u8]) -> Result<(Cluster, Vec<Warning>), ParseError> {
    let bad = || ParseError::invalid("the broadcast rails", "the buffer is cut short or damaged");
    let mut reader = Reader { bytes, at: 0 };
    let rails = reader.u32().ok_or_else(bad)?;
    let mut fabrics = Vec::new();
    let mut warnings = Vec::new();
    for r in 0..rails {
        let files = reader.u32().ok_or_else(bad)?;
        let mut inputs = RailInputs::default();
        let mut names = Vec::new();
        for _ in 0..files {
            let kind = *KINDS.get(usize::from(reader.u8().ok_or_else(bad)?)).ok_or_else(bad)?;
            let name_len = reader.u32().ok_or_else(bad)? as usize;
            let name = String::from_utf8_lossy(reader.take(name_len).ok_or_else(bad)?).into_owned();
            let len = usize::try_from(reader.u64().ok_or_else(bad)?).map_err(|_| bad())?;
            let content = reader.take(len).ok_or_else(bad)?.to_vec();
            let (input, w) = Input::from_bytes(name.clone(), content)?;
            warnings.extend(w);
            names.push(name);
            inputs.inputs.push((kind, input));
        }
        let rail = RailId(u8::try_from(r).map_err(|_| bad())?);
        let (fabric, w) = build_rail(&inputs, rail, &format!("rail {rail} ({})", names.join(", ")))?;
        warnings.extend(w);
        fabrics.push(fabric);
    }
    Ok((Cluster::new(fabrics), warnings))
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let slice = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(slice)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_rails_build_the_same_fabric_as_the_files() {
        let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail");
        let rails = vec![vec![base.join("rail0")], vec![base.join("rail1")]];
        let (packed, _) = pack_rails(&rails).unwrap();
        let (from_bytes, _) = unpack_cluster(&packed).unwrap();
        let (from_files, _) = super::super::load_cluster(&rails).unwrap();
        assert_eq!(from_bytes.hosts.len(), from_files.hosts.len());
        for (a, b) in from_bytes.rails.iter().zip(&from_files.rails) {
            assert_eq!(a.link_count(), b.link_count());
            assert_eq!(a.switches_with_lft(), b.switches_with_lft());
        }
        assert!(unpack_cluster(&packed[..packed.len() / 2]).is_err(), "a cut buffer is an error");
    }
}
