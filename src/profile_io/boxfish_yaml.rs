//! The YAML options of Boxfish's meta files and table headers.

/// How Boxfish's YAML is read. Booleans are YAML 1.2's only (`true`/`false`): YAML 1.1 reads the
/// axis name `y` (and `n`, `on`, `no`) as a boolean, which would lose BG/P's `coords: [x, y, z]`.
/// The default budget (a million parser events) is for configuration files; a meta file or header
/// that inlines big lists may need more, so it scales with the input, generously.
pub(super) fn yaml_options(text: &str) -> serde_saphyr::Options {
    let events = (text.len() * 2).max(1_000_000);
    serde_saphyr::options! {
        strict_booleans: true,
        budget: serde_saphyr::budget! { max_events: events },
    }
}
