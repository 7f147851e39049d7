//! Natural name order, shared by host lists, planes and the layout.

use std::cmp::Ordering;

/// Compares names with digit runs as numbers: `n2` < `n10`, `a01` < `a1` by length on ties.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let dx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let dy = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (nx, ny) = (trim_zeros(&x[..dx]), trim_zeros(&y[..dy]));
                let ord = nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros..]
}
