//! Forwarding-table tracing and profile → link-end loads.
