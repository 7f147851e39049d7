//! A real Prometheus server (Debian's `prometheus` 2.42) for the tests, on 127.0.0.1 only, at a
//! free port, serving series backfilled at chosen past times with `promtool tsdb
//! create-blocks-from openmetrics`. It is stopped and its store removed when dropped.
//! [`Prometheus::serve_https`] serves over TLS (`--web.config.file`) with a self-signed
//! certificate for 127.0.0.1 made by `openssl req`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One series: metric name, label text as written in a scrape (`{guid="0x…",port="1"}`), and
/// its points (Unix seconds, value as text).
pub struct History {
    series: BTreeMap<(String, String), Vec<(i64, String)>>,
}

impl History {
    pub fn new() -> History {
        History { series: BTreeMap::new() }
    }

    /// Adds every sample of an exporter's scrape (a `.prom` file) at time `at`.
    pub fn scrape(&mut self, text: &str, at: i64) -> &mut History {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let name_end = line.find(['{', ' ']).expect("a sample line names its metric");
            let (name, rest) = line.split_at(name_end);
            let close = rest.rfind('}').map_or(0, |i| i + 1);
            let (labels, value) = rest.split_at(close);
            self.point(name, labels, at, value.split_whitespace().next().expect("a value"));
        }
        self
    }

    /// Adds one point, or replaces the series' point at that time.
    pub fn point(&mut self, name: &str, labels: &str, at: i64, value: &str) -> &mut History {
        let points = self.series.entry((name.to_string(), labels.to_string())).or_default();
        points.retain(|p| p.0 != at);
        points.push((at, value.to_string()));
        self
    }

    /// Removes a series' points from `from` to `to` (Unix seconds, both included): a gap.
    #[allow(dead_code)] // not every test file makes one
    pub fn gap(&mut self, name: &str, labels: &str, from: i64, to: i64) -> &mut History {
        if let Some(points) = self.series.get_mut(&(name.to_string(), labels.to_string())) {
            points.retain(|p| p.0 < from || p.0 > to);
        }
        self
    }

    /// The OpenMetrics text promtool backfills from: each family's samples together, each
    /// series in time order, `# EOF` last.
    fn openmetrics(&self) -> String {
        let mut text = String::new();
        let mut family = String::new();
        for ((name, labels), points) in &self.series {
            let base = name.strip_suffix("_total").unwrap_or(name);
            if base != family {
                text.push_str(&format!("# TYPE {base} counter\n"));
                family = base.to_string();
            }
            let mut points = points.clone();
            points.sort_by_key(|p| p.0);
            for (at, value) in points {
                text.push_str(&format!("{name}{labels} {value} {at}\n"));
            }
        }
        text.push_str("# EOF\n");
        text
    }
}

/// The testbed's traffic in the first of two minutes from `t0`: treydock's exporter scraped
/// before it at `t0`, after it at `t0 + 60`, and the same after scrape again at `t0 + 120`.
#[allow(dead_code)] // not every test file serves it
pub fn serve_testbed_first_minute(t0: i64) -> Prometheus {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/counters/testbed");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("a testbed scrape");
    let (before, after) = (read("infiniband_exporter-before.prom"), read("infiniband_exporter-after.prom"));
    Prometheus::serve(History::new().scrape(&before, t0).scrape(&after, t0 + 60).scrape(&after, t0 + 120))
}

/// A running server.
pub struct Prometheus {
    child: Child,
    dir: PathBuf,
    pub url: String,
    /// The self-signed certificate (PEM) of a server started with [`Prometheus::serve_https`].
    pub certificate: Option<PathBuf>,
}

static SERVERS: AtomicUsize = AtomicUsize::new(0);

fn installed(tool: &str) -> String {
    let path = format!("/usr/bin/{tool}");
    assert!(
        std::path::Path::new(&path).exists(),
        "{path} is missing: install Debian's prometheus package (scripts/test.sh does)"
    );
    path
}

impl Prometheus {
    /// Backfills `history` into a fresh store and serves it.
    pub fn serve(history: &History) -> Prometheus {
        Prometheus::start(history, false)
    }

    /// The same over https, with a self-signed certificate for 127.0.0.1 (only the https tests
    /// use it).
    #[allow(dead_code)]
    pub fn serve_https(history: &History) -> Prometheus {
        Prometheus::start(history, true)
    }

    fn start(history: &History, https: bool) -> Prometheus {
        let n = SERVERS.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("shoal-prometheus-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("history.om");
        std::fs::write(&input, history.openmetrics()).unwrap();
        let store = dir.join("data");
        let out = Command::new(installed("promtool"))
            .args(["tsdb", "create-blocks-from", "openmetrics"])
            .arg(&input)
            .arg(&store)
            .output()
            .unwrap();
        assert!(out.status.success(), "promtool: {}", String::from_utf8_lossy(&out.stderr));
        let port = free_port();
        let mut command = Command::new(installed("prometheus"));
        command
            .arg("--config.file=/dev/null")
            .arg(format!("--storage.tsdb.path={}", store.display()))
            .arg("--storage.tsdb.retention.time=100y")
            .arg(format!("--web.listen-address=127.0.0.1:{port}"));
        let certificate = https.then(|| {
            let (certificate, web_config) = self_signed(&dir);
            command.arg(format!("--web.config.file={}", web_config.display()));
            certificate
        });
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(dir.join("prometheus.log")).unwrap()))
            .spawn()
            .unwrap();
        let scheme = if https { "https" } else { "http" };
        let server = Prometheus { child, dir, url: format!("{scheme}://127.0.0.1:{port}"), certificate };
        server.wait_ready();
        server
    }

    /// Polls `/-/ready` (about a second after the start).
    fn wait_ready(&self) {
        let ready = format!("{}/-/ready", self.url);
        let mut tls = ureq::tls::TlsConfig::builder();
        if let Some(path) = &self.certificate {
            let pem = std::fs::read(path).unwrap();
            let certificates: Vec<_> = ureq::tls::parse_pem(&pem)
                .filter_map(|item| match item {
                    Ok(ureq::tls::PemItem::Certificate(c)) => Some(c),
                    _ => None,
                })
                .collect();
            tls = tls.root_certs(ureq::tls::RootCerts::new_with_certs(&certificates));
        }
        let agent: ureq::Agent = ureq::Agent::config_builder().tls_config(tls.build()).build().into();
        for _ in 0..600 {
            if agent.get(&ready).call().is_ok_and(|r| r.status() == 200) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let log = std::fs::read_to_string(self.dir.join("prometheus.log")).unwrap_or_default();
        panic!("prometheus at {} never became ready:\n{log}", self.url);
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A self-signed certificate and key for 127.0.0.1 in `dir`, and a web config that serves TLS
/// with them: (certificate, web config).
fn self_signed(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let (certificate, key) = (dir.join("server.crt"), dir.join("server.key"));
    let out = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
        // A leaf, not a CA: rustls refuses a CA certificate as the server's own.
        .args(["-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&certificate)
        .output()
        .expect("openssl is installed (scripts/test.sh installs it)");
    assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
    let web_config = dir.join("web.yml");
    let yaml = format!(
        "tls_server_config:\n  cert_file: {}\n  key_file: {}\n",
        certificate.display(),
        key.display()
    );
    std::fs::write(&web_config, yaml).unwrap();
    (certificate, web_config)
}

/// A port nothing listens on now (the kernel's choice for port 0).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
