//! `--prometheus https://…` (issue 26): a real Prometheus serving TLS (`--web.config.file`) with
//! a self-signed certificate for 127.0.0.1. Trusted through `SSL_CERT_FILE`, it gives what the
//! same history gives over plain HTTP; untrusted, the error names the URL and the certificate.

#[path = "support/prometheus.rs"]
mod prometheus;

use std::path::Path;
use std::process::Command;

use prometheus::{History, Prometheus};

const T0: i64 = 1_700_000_000;

fn history() -> History {
    let scrape = |name: &str| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/counters/testbed").join(name);
        std::fs::read_to_string(path).unwrap()
    };
    let mut history = History::new();
    history
        .scrape(&scrape("infiniband_exporter-before.prom"), T0)
        .scrape(&scrape("infiniband_exporter-after.prom"), T0 + 60);
    history
}

/// `shoal hot` on the testbed by the server's observed bytes: (success, stdout, stderr).
fn hot(url: &str, ca_file: Option<&Path>) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
    command
        .args(["hot", "sample-data/testbed", "--by", "observed", "--json", "--prometheus", url])
        .args(["--from", "2023-11-14T22:13:20Z", "--to", "2023-11-14T22:14:20Z"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("SSL_CERT_FILE");
    if let Some(path) = ca_file {
        command.env("SSL_CERT_FILE", path);
    }
    let out = command.output().expect("shoal runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn https_with_the_servers_certificate_in_ssl_cert_file_reads_what_plain_http_reads() {
    let history = history();
    let (tls, plain) = (Prometheus::serve_https(&history), Prometheus::serve(&history));
    assert!(tls.url.starts_with("https://"));
    let (ok, by_tls, err) = hot(&tls.url, tls.certificate.as_deref());
    assert!(ok, "{err}");
    let (ok, by_http, err) = hot(&plain.url, None);
    assert!(ok, "{err}");
    assert!(by_tls.contains("\"observed"), "{by_tls}");
    assert_eq!(by_tls, by_http, "the same history read over TLS and plain HTTP");
}

#[test]
fn an_untrusted_certificate_or_a_file_without_one_is_an_error_naming_the_url() {
    let tls = Prometheus::serve_https(&history());
    let (ok, _, err) = hot(&tls.url, None);
    assert!(!ok);
    // Remote read is asked first: its request is the one refused.
    assert!(err.contains(&format!("{}/api/v1/read: no answer from the server", tls.url)), "{err}");
    assert!(err.contains("invalid peer certificate") && err.contains("SSL_CERT_FILE names?"), "{err}");
    let not_pem = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data/tworail/sacct.txt");
    let (ok, _, err) = hot(&tls.url, Some(&not_pem));
    assert!(!ok);
    assert!(err.contains("SSL_CERT_FILE=") && err.contains("holds no PEM certificate"), "{err}");
}
