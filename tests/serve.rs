//! `quadrille serve` through the binary, over a plain TCP socket: its limits and its answers
//! to bad requests (python/tests/test_serve.py tests the API's records, the page in a browser
//! and a fuzz).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use crate::cli::BIN;

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut url = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout).read_line(&mut url).expect("a URL");
        let addr = (url.trim().strip_prefix("http://"))
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line is the URL: {url:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The status line and body of one request, written as is.
    fn ask(&self, request: &[u8]) -> (String, String) {
        let mut stream = TcpStream::connect(&self.addr).expect("connects");
        stream.write_all(request).expect("writes");
        let mut answer = String::new();
        // `Connection: close` in every request: the answer ends with the connection.
        stream.read_to_string(&mut answer).expect("reads");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        (
            head.lines().next().unwrap_or("").to_string(),
            body.to_string(),
        )
    }

    fn post(&self, route: &str, body: &str) -> (String, String) {
        let request = format!(
            "POST {route} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.ask(request.as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_refuses_bad_requests_with_4xx_and_keeps_serving() {
    let server = Server::start(&["--max-body", "2000"]);
    let (status, page) = server.ask(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(status.contains(" 200 ") && page.contains("<title>quadrille</title>"));
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "/api/solve",
            "{\"puzzle\": ".into(),
            " 400 ",
            "EOF while parsing",
        ),
        (
            "/api/solve",
            "{\"puzzle\": \"1.2\"}".into(),
            " 400 ",
            "\"line\":1",
        ),
        (
            "/api/solve",
            format!("{{\"puzzle\": \"{}\"}}", ".".repeat(3000)),
            " 413 ",
            "2000 bytes",
        ),
        (
            "/api/solve",
            "{\"puzzle\": \"1...\", \"time_budget\": -1}".into(),
            " 400 ",
            "\"field\":\"time_budget\"",
        ),
        (
            "/api/generate",
            "{\"count\": 100000}".into(),
            " 400 ",
            "from 1 to",
        ),
        (
            "/api/xc",
            "{\"dlx\": \"a\\nb\\n\"}".into(),
            " 400 ",
            "\"line\":2",
        ),
        (
            "/api/cancel",
            "{\"id\": 99}".into(),
            " 200 ",
            "\"cancelled\":false",
        ),
        ("/api/nothing", "{}".into(), " 404 ", "no route"),
    ];
    for (route, body, status, says) in cases {
        let (got, answer) = server.post(route, body);
        assert!(got.contains(status), "{route} {body:.60}: {got} {answer}");
        assert!(answer.contains(says), "{route} {body:.60}: {answer}");
    }
    let (status, _) =
        server.ask(b"GET /api/solve HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(status.contains(" 405 "), "{status}");
    let (status, answer) = server.post("/api/solve", "{\"puzzle\": \"1...........4..2\"}");
    assert!(
        status.contains(" 200 ") && answer.contains("\"solutions\":2"),
        "{answer}"
    );
}
