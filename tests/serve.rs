//! `quadrille serve` through the binary, over a plain TCP socket: its limits and its answers
//! to bad requests (python/tests/test_serve.py tests the API's records, the page in a browser
//! and a fuzz).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use std::time::{Duration, Instant};

use crate::cli::{self, bin};

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
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
    let server = Server::start(&["--max-body", "20000"]);
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
            format!("{{\"puzzle\": \"{}\"}}", ".".repeat(30000)),
            " 413 ",
            "20000 bytes",
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
            "/api/solutions",
            "{\"dlx\": \"a b\\na\\nb\\n\", \"limit\": 1001}".into(),
            " 400 ",
            "\"field\":\"limit\"",
        ),
        (
            "/api/solutions",
            "{\"limit\": 3}".into(),
            " 400 ",
            "missing field `dlx`",
        ),
        (
            "/api/solve",
            format!("{{\"puzzle\": \"{}\"}}", "1...........4..2\\n".repeat(1001)),
            " 400 ",
            "\"field\":\"puzzle\"",
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

/// The n queens in Knuth's dlx format (ranks and files primary, diagonals secondary).
fn queens(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| format!("r{i}"))
        .chain((0..n).map(|j| format!("c{j}")))
        .collect();
    let diagonals: Vec<String> = (0..2 * n - 1)
        .map(|k| format!("a{k}"))
        .chain((0..2 * n - 1).map(|k| format!("b{k}")))
        .collect();
    let mut text = format!("{} | {}\n", items.join(" "), diagonals.join(" "));
    for i in 0..n {
        for j in 0..n {
            text += &format!("r{i} c{j} a{} b{}\n", i + j, i + n - 1 - j);
        }
    }
    text
}

#[test]
fn serve_lists_the_first_solutions_as_xc_lists_them() {
    let server = Server::start(&[]);
    let problem = queens(8);
    let body = serde_json::json!({ "dlx": problem, "limit": 3 }).to_string();
    let (status, answer) = server.post("/api/solutions", &body);
    assert!(status.contains(" 200 "), "{status} {answer}");
    let record: serde_json::Value = serde_json::from_str(&answer).expect("JSON");
    let listed: Vec<String> = (record["solutions"].as_array().expect("solutions").iter())
        .map(|s| {
            let lines = s["lines"].as_array().expect("lines").iter();
            lines
                .map(|l| l.as_str().unwrap().to_string() + "\n")
                .collect()
        })
        .collect();
    let out = cli::run(&["xc", "--limit", "3", "-q"], &problem);
    assert_eq!(String::from_utf8_lossy(&out.stdout), listed.join("\n"));
    assert_eq!(
        (&record["found"], &record["stop"]),
        (&3.into(), &"limit".into())
    );
    // Each is an exact cover: every rank and file once, no diagonal twice.
    for solution in record["solutions"].as_array().unwrap() {
        let mut items: Vec<&str> = (solution["lines"].as_array().unwrap().iter())
            .flat_map(|line| line.as_str().unwrap().split(' '))
            .collect();
        items.sort_unstable();
        let before = items.len();
        items.dedup();
        assert_eq!((before, items.len()), (32, 32));
        assert_eq!(
            items.iter().filter(|i| i.starts_with(['r', 'c'])).count(),
            16
        );
    }
}

/// SIGINT (and SIGTERM alike) while a long count streams: the count is interrupted and its
/// stream ends with its result, and the server says so and exits with status 0 at once.
#[cfg(unix)]
#[test]
fn serve_stops_on_ctrl_c_ending_a_running_count() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut server = Server::start(&[]);
        let body = serde_json::json!({ "dlx": queens(16), "threads": 1 }).to_string();
        let request = format!(
            "POST /api/xc HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = TcpStream::connect(&server.addr).expect("connects");
        stream.write_all(request.as_bytes()).expect("writes");
        let mut events = BufReader::new(stream);
        let mut line = String::new();
        // Running: its first progress event is out.
        while !line.starts_with("event: progress") {
            line.clear();
            assert!(
                events.read_line(&mut line).expect("reads") > 0,
                "the stream ended"
            );
        }
        let pid = server.child.id() as libc::pid_t;
        // SAFETY: `kill` only sends a signal, to the server this test started and still holds.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let sent = Instant::now();
        let mut rest = String::new();
        events.read_to_string(&mut rest).expect("the stream ends");
        let result = rest
            .split("event: result\ndata: ")
            .nth(1)
            .expect("a result");
        assert!(result.contains("\"complete\":false"), "{result}");
        let status = loop {
            if let Some(status) = server.child.try_wait().expect("waits") {
                break status;
            }
            assert!(sent.elapsed() < Duration::from_secs(2), "still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(0));
        let mut said = String::new();
        let stderr = server.child.stderr.as_mut().expect("piped");
        stderr.read_to_string(&mut said).expect("reads");
        assert!(
            said.contains("stopped (running requests interrupted: 1)"),
            "{said}"
        );
    }
}
