//! A plain HTTP proxy in front of a test server, on 127.0.0.1: it records each request's path
//! and either forwards it or, for paths it is told to refuse (at any time, so that one URL can
//! be read both ways), answers `404 page not found` as a server without that endpoint does. Each connection carries one request (the proxy asks
//! the server to close after it), which is all shoal's client needs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

pub struct Proxy {
    pub url: String,
    paths: Arc<Mutex<Vec<String>>>,
    refused: Arc<Mutex<Option<String>>>,
}

impl Proxy {
    /// A proxy to `upstream` (`http://127.0.0.1:PORT`) that forwards every request.
    pub fn start(upstream: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let upstream = upstream.trim_start_matches("http://").to_string();
        let paths = Arc::new(Mutex::new(Vec::new()));
        let refused = Arc::new(Mutex::new(None::<String>));
        let (seen, refuse) = (Arc::clone(&paths), Arc::clone(&refused));
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let (upstream, seen) = (upstream.clone(), Arc::clone(&seen));
                let refuse = refuse.lock().unwrap().clone();
                std::thread::spawn(move || serve(client, &upstream, refuse.as_deref(), &seen));
            }
        });
        Proxy { url, paths, refused }
    }

    /// From now on, refuses paths that start with `prefix`, and forgets the paths seen.
    pub fn refuse(&self, prefix: &str) {
        *self.refused.lock().unwrap() = Some(prefix.to_string());
        self.paths.lock().unwrap().clear();
    }

    /// The paths asked for so far, query strings cut off.
    pub fn paths(&self) -> Vec<String> {
        self.paths.lock().unwrap().clone()
    }
}

fn serve(mut client: TcpStream, upstream: &str, refuse: Option<&str>, seen: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let mut head = Vec::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
        if !line.to_ascii_lowercase().starts_with("connection:") {
            head.push(line);
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    let path = head[0].split_whitespace().nth(1).unwrap_or("").split('?').next().unwrap().to_string();
    seen.lock().unwrap().push(path.clone());
    if refuse.is_some_and(|prefix| path.starts_with(prefix)) {
        let text = "404 page not found\n";
        let answer = format!(
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
            text.len()
        );
        let _ = client.write_all(answer.as_bytes());
        return;
    }
    let mut server = TcpStream::connect(upstream).unwrap();
    let mut request = head.concat().into_bytes();
    request.extend(b"Connection: close\r\n\r\n");
    request.extend(body);
    server.write_all(&request).unwrap();
    let _ = std::io::copy(&mut server, &mut client);
}
