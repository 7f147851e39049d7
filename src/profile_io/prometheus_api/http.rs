//! One GET against Prometheus's HTTP API, with timeouts, decoded from its JSON envelope
//! (`{"status":"success","data":…}` or `{"status":"error","errorType":…,"error":…}`). Every
//! failure is an error naming the URL and what came back: no answer, an HTTP status with the
//! server's own message, or a body that is not the API's JSON.
//!
//! `https://` URLs are verified (rustls) against Mozilla's root certificates, or, when the
//! environment sets `SSL_CERT_FILE` (as OpenSSL and curl read it), against the certificates in
//! that PEM file alone: a site's own CA, or a server's self-signed certificate.

use std::time::Duration;

use serde::Deserialize;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use super::super::error::ParseError;

/// How long a server may take to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one whole request may take: a day of every port at one-minute steps is large.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(300);
/// The largest answer read (a constant: never a size the server or a flag chose).
const BODY_LIMIT_BYTES: u64 = 4 << 30;
/// How much of a refused answer's body an error quotes.
const QUOTED_BYTES: usize = 300;
/// The variable naming a PEM file of the CA certificates to trust instead of Mozilla's.
pub const CA_FILE_VAR: &str = "SSL_CERT_FILE";

/// The API's envelope.
#[derive(Deserialize)]
struct Envelope<T> {
    status: String,
    data: Option<T>,
    #[serde(rename = "errorType")]
    error_type: Option<String>,
    error: Option<String>,
    #[serde(default)]
    warnings: Vec<String>,
}

/// A Prometheus server's API at a base URL (`http://host:9090`, a path prefix allowed).
pub struct Api {
    base: String,
    agent: ureq::Agent,
}

impl Api {
    /// The API at `base`; an error when `SSL_CERT_FILE` names a file without certificates.
    pub fn new(base: &str) -> Result<Api, ParseError> {
        let tls = tls_config().map_err(|why| ParseError::invalid(base, why))?;
        let agent = ureq::Agent::config_builder()
            .tls_config(tls)
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .timeout_global(Some(REQUEST_TIMEOUT))
            // A 400 or 422 carries the server's reason in its body: read it, not just the code.
            .http_status_as_error(false)
            .build()
            .into();
        Ok(Api { base: base.trim_end_matches('/').to_string(), agent })
    }

    /// The URL of an endpoint, as errors name it.
    pub fn url(&self, endpoint: &str) -> String {
        format!("{}{endpoint}", self.base)
    }

    /// GETs `endpoint` with `params` and decodes its `data`; the server's warnings come back
    /// beside it.
    pub fn get<T: serde::de::DeserializeOwned>(
        &self,
        endpoint: &str,
        params: &[(&str, String)],
    ) -> Result<(T, Vec<String>), ParseError> {
        self.get_seeded(endpoint, params, std::marker::PhantomData::<T>)
    }

    /// [`Api::get`] with `data` read by `seed` as the answer streams in (a long range's series
    /// are folded one by one, never all held).
    pub fn get_seeded<S: DeserializeSeed<'static>>(
        &self,
        endpoint: &str,
        params: &[(&str, String)],
        seed: S,
    ) -> Result<(S::Value, Vec<String>), ParseError> {
        let url = self.url(endpoint);
        let mut request = self.agent.get(&url);
        for (key, value) in params {
            request = request.query(*key, value);
        }
        let mut response = request.call().map_err(|e| unreachable_error(&url, &e))?;
        let status = response.status();
        let body = response.body_mut().with_config().limit(BODY_LIMIT_BYTES);
        if status == 200 {
            // Parsed as it arrives: a day of every port is never held as text as well.
            let reader = std::io::BufReader::with_capacity(1 << 16, body.reader());
            let mut deserializer = serde_json::Deserializer::from_reader(reader);
            let parsed = EnvelopeSeed(seed)
                .deserialize(&mut deserializer)
                .and_then(|e| deserializer.end().map(|()| e));
            let envelope = parsed.map_err(|e| {
                ParseError::invalid(
                    &url,
                    format!("HTTP 200, but the answer is not Prometheus's API JSON ({e})"),
                )
            })?;
            return unwrap_envelope(&url, 200, envelope, String::new);
        }
        let body = body.read_to_string().map_err(|e| {
            ParseError::invalid(&url, format!("HTTP {status}, but reading the answer failed: {e}"))
        })?;
        match decode::<IgnoredAny>(&url, status.as_u16(), &body) {
            Err(error) => Err(error),
            Ok(_) => Err(ParseError::invalid(&url, format!("HTTP {status}: {}", quoted(&body)))),
        }
    }
}

/// An answer whose body is read as a stream of bytes: its status, content type and body.
pub struct Streamed {
    pub status: u16,
    pub content_type: String,
    pub body: ureq::BodyReader<'static>,
}

impl Api {
    /// POSTs `body` to `endpoint` with `headers`; the answer's body is left to be read (at
    /// most [`BODY_LIMIT_BYTES`]). Only no answer at all is an error here.
    pub fn post(
        &self,
        endpoint: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Streamed, ParseError> {
        let url = self.url(endpoint);
        let mut request = self.agent.post(&url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send(body).map_err(|e| unreachable_error(&url, &e))?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let body = response.into_body().into_with_config().limit(BODY_LIMIT_BYTES).reader();
        Ok(Streamed { status, content_type, body })
    }
}

/// The start of a refused answer's body, quoted on one line (at most a few hundred bytes are
/// read).
pub fn quoted_start(body: impl std::io::Read) -> String {
    use std::io::Read as _;
    let mut start = Vec::new();
    match body.take(QUOTED_BYTES as u64 + 4).read_to_end(&mut start) {
        Ok(_) => quoted(&String::from_utf8_lossy(&start)),
        Err(e) => format!("(its body could not be read: {e})"),
    }
}

/// The envelope, its `data` read by a seed.
struct EnvelopeSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for EnvelopeSeed<S> {
    type Value = Envelope<S::Value>;
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for EnvelopeSeed<S> {
    type Value = Envelope<S::Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prometheus's API envelope")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seed = Some(self.0);
        let mut envelope = Envelope {
            status: String::new(),
            data: None,
            error_type: None,
            error: None,
            warnings: Vec::new(),
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "status" => envelope.status = map.next_value()?,
                "data" => match seed.take() {
                    Some(seed) => envelope.data = Some(map.next_value_seed(seed)?),
                    None => return Err(serde::de::Error::duplicate_field("data")),
                },
                "errorType" => envelope.error_type = map.next_value()?,
                "error" => envelope.error = map.next_value()?,
                "warnings" => envelope.warnings = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(envelope)
    }
}

/// Mozilla's roots, or the certificates of the PEM file `SSL_CERT_FILE` names.
fn tls_config() -> Result<ureq::tls::TlsConfig, String> {
    use ureq::tls::{PemItem, RootCerts, TlsConfig, parse_pem};
    let Some(path) = std::env::var_os(CA_FILE_VAR).filter(|p| !p.is_empty()) else {
        return Ok(TlsConfig::default());
    };
    let shown = std::path::Path::new(&path).display().to_string();
    let pem = std::fs::read(&path).map_err(|e| format!("{CA_FILE_VAR}={shown}: {e}"))?;
    let certificates: Vec<_> = parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(PemItem::Certificate(c)) => Some(c),
            _ => None,
        })
        .collect();
    if certificates.is_empty() {
        return Err(format!("{CA_FILE_VAR}={shown} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
    }
    Ok(TlsConfig::builder().root_certs(RootCerts::new_with_certs(&certificates)).build())
}

/// The envelope's data, or an error naming what the server said.
fn decode<T: serde::de::DeserializeOwned>(
    url: &str,
    status: u16,
    body: &str,
) -> Result<(T, Vec<String>), ParseError> {
    let envelope: Envelope<T> = match serde_json::from_str(body) {
        Ok(envelope) => envelope,
        Err(e) if status == 200 => {
            return Err(ParseError::invalid(
                url,
                format!("the answer is not Prometheus's API JSON ({e}): {}", quoted(body)),
            ));
        }
        Err(_) => return Err(ParseError::invalid(url, format!("HTTP {status}: {}", quoted(body)))),
    };
    unwrap_envelope(url, status, envelope, || quoted(body))
}

/// The envelope's data, or an error naming the server's error type and words (`quote`: the
/// body's start, where the envelope says nothing).
fn unwrap_envelope<T>(
    url: &str,
    status: u16,
    envelope: Envelope<T>,
    quote: impl FnOnce() -> String,
) -> Result<(T, Vec<String>), ParseError> {
    match (envelope.status.as_str(), envelope.data) {
        ("success", Some(data)) if status == 200 => Ok((data, envelope.warnings)),
        _ => {
            let kind = envelope.error_type.unwrap_or_else(|| "no error type".into());
            let said = envelope.error.unwrap_or_else(quote);
            Err(ParseError::invalid(
                url,
                format!("HTTP {status}, the server refused the query ({kind}): {said}"),
            ))
        }
    }
}

/// The start of a body, on one line.
fn quoted(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return "an empty body".into();
    }
    let end = body.char_indices().map(|(i, _)| i).find(|&i| i >= QUOTED_BYTES).unwrap_or(body.len());
    let more = if end < body.len() { " …" } else { "" };
    format!("`{}`{more}", body[..end].replace('\n', " "))
}

/// A request that got no HTTP answer.
fn unreachable_error(url: &str, error: &ureq::Error) -> ParseError {
    const TLS_HINT: &str = " (https: is the server's certificate signed by a CA in Mozilla's roots, or in the PEM file SSL_CERT_FILE names?)";
    let text = error.to_string();
    let hint = match error {
        ureq::Error::Timeout(_) => " (the server did not answer in time)",
        // rustls's refusals of a certificate arrive as I/O errors of the handshake.
        ureq::Error::Io(_) if text.contains("certificate") => TLS_HINT,
        ureq::Error::ConnectionFailed | ureq::Error::Io(_) => " (is Prometheus listening there?)",
        ureq::Error::TlsRequired | ureq::Error::Tls(_) | ureq::Error::Rustls(_) => TLS_HINT,
        _ => "",
    };
    ParseError::invalid(url, format!("no answer from the server: {text}{hint}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_the_url_the_error_type_and_the_servers_words() {
        let body = r#"{"status":"error","errorType":"bad_data","error":"invalid parameter \"step\": zero or negative query resolution step widths are not accepted"}"#;
        let error = decode::<serde_json::Value>("http://p:9090/api/v1/query_range", 400, body).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("http://p:9090/api/v1/query_range: HTTP 400"), "{text}");
        assert!(text.contains("bad_data") && text.contains("zero or negative"), "{text}");
    }

    #[test]
    fn a_body_that_is_not_the_api_is_quoted() {
        let error =
            decode::<serde_json::Value>("http://p/api/v1/series", 404, "404 page not found\n").unwrap_err();
        assert!(error.to_string().contains("HTTP 404: `404 page not found`"), "{error}");
        let error = decode::<serde_json::Value>("http://p/api/v1/series", 200, "<html>").unwrap_err();
        assert!(error.to_string().contains("not Prometheus's API JSON"), "{error}");
    }

    #[test]
    fn an_unreachable_server_is_named_with_its_url() {
        // Port 1 on the loopback: nothing listens there, the connection is refused at once.
        let api = Api::new("http://127.0.0.1:1/").unwrap();
        let error = api.get::<serde_json::Value>("/api/v1/series", &[]).unwrap_err().to_string();
        assert!(error.starts_with("http://127.0.0.1:1/api/v1/series: no answer from the server"), "{error}");
    }
}
