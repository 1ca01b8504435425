//! `quadrille serve`: the page and a JSON API on a local HTTP server (docs/serve.md).
//!
//! Routes and formatting only: each route reads a JSON body into the library's request, runs it
//! and returns the record that the CLI's `--json` writes. What the server adds is its limits:
//! a body size, a time cap on every request (each request's budget holds an interrupt that the
//! cancel route, a closed connection or the cap raises), and separate slots for quick searches
//! and long counts, so that a count never keeps a solve waiting.

use std::io::{Read, Write};
use std::str::FromStr;

use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use quadrille::batch::{self, Parallelism};
use quadrille::compare::plot;
use quadrille::engine::{DlxSolver, Engine};
use quadrille::exact_cover::{Dlx, PartsDone};
use quadrille::io::dlx;
use quadrille::io::puzzle::{Layout, Puzzle, PuzzleReader};
use quadrille::logic::step_svg;
use quadrille::request::{
    CompareRequest, EstimateRequest, ExactCoverCount, ExplainRecord, ExplainRequest,
    GenerateRequest, Jobs, RateRequest, SolveRecord, StepRecord, check, propagation_levels,
    score_band,
};
use quadrille::sudoku::Shape;
use quadrille::sudoku::variant::Variant;
use quadrille::{Budget, Interrupt, Request, restart::Restarts};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tiny_http::{Header, Method, Response, Server};

use super::{Status, flags};

/// Arguments of `quadrille serve`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  quadrille serve                 (then open the printed URL)
  quadrille serve --port 0 --open
  curl -s localhost:8080/api/solve -d '{\"puzzle\": \"1...........4..2\"}'")]
pub struct Args {
    /// The port (0: any free one); the URL is the first line printed.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: the loopback unless you mean to share the page.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
    /// The longest a solve, explain, rate, generate, estimate or compare request runs, in
    /// seconds.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = flags::seconds)]
    time_cap: Duration,
    /// The longest a count (`/api/count`, `/api/xc`) runs, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "3600", value_parser = flags::seconds)]
    count_time_cap: Duration,
    /// Quick searches (solve, explain, rate, generate, compare) run at once; more wait.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..))]
    searches: u16,
    /// Counts run at once; more wait their turn (at most 64 more; past them, 503).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    counts: u16,
    /// The largest request body, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    max_body: usize,
}

/// Connections served at once by the pool; counts stream on threads of their own.
const HANDLERS: usize = 16;
/// Counts waiting for a slot, past which a count is refused (each holds a thread and a socket).
const COUNTS_WAITING: usize = 64;
/// Puzzles in one request.
const MAX_PUZZLES: usize = 1000;
/// Puzzles in one generate request.
const MAX_GENERATE: usize = 50;
/// How long a quick request waits for a search slot before it is told the server is busy.
const SLOT_WAIT: Duration = Duration::from_secs(20);
/// How often a count's stream says where it is.
const TICK: Duration = Duration::from_millis(250);

const PAGE: &str = include_str!("serve/index.html");
const SCRIPT: &str = include_str!("serve/app.js");
const STYLE: &str = include_str!("serve/app.css");

/// Starts the server and serves until the process is stopped (Ctrl-C).
pub fn run(args: Args) -> quadrille::Result<Status> {
    let server = Server::http((args.bind.as_str(), args.port))
        .map_err(|e| std::io::Error::other(format!("{}:{}: {e}", args.bind, args.port)))?;
    let url = match server.server_addr().to_ip() {
        Some(addr) => format!("http://{addr}/"),
        None => return Err(std::io::Error::other("not an IP address").into()),
    };
    println!("{url}");
    std::io::stdout().flush()?;
    if args.open {
        let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
    }
    let state = Arc::new(State {
        jobs: Arc::default(),
        searches: Slots::new(args.searches.into()),
        counts: Slots::new(args.counts.into()),
        args,
    });
    let watchdog = Arc::clone(&state);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(Duration::from_millis(50));
            watchdog.jobs.raise_expired();
        }
    });
    let server = Arc::new(server);
    let handlers: Vec<_> = (0..HANDLERS)
        .map(|_| {
            let (server, state) = (Arc::clone(&server), Arc::clone(&state));
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    // A panic answers 500 (tiny_http answers a dropped request) and the
                    // thread goes on serving.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        handle(&state, request)
                    }));
                }
            })
        })
        .collect();
    for handler in handlers {
        let _ = handler.join();
    }
    Ok(Status::Success)
}

/// What the handlers share.
struct State {
    args: Args,
    jobs: Arc<Jobs>,
    searches: Slots,
    counts: Slots,
}

/// A refusal: the status and the JSON object that says why.
struct Refusal(u16, Value);

type Answer = Result<Value, Refusal>;

fn refuse(status: u16, message: impl std::fmt::Display) -> Refusal {
    Refusal(status, json!({ "error": message.to_string() }))
}

/// A library error is a 400, with the line and column it names, or the request's field.
impl From<quadrille::Error> for Refusal {
    fn from(err: quadrille::Error) -> Refusal {
        let mut object = json!({ "error": err.message() });
        if let Some(line) = err.line() {
            object["line"] = json!(line);
        }
        if let Some(column) = err.column() {
            object["column"] = json!(column);
        }
        if let quadrille::ErrorKind::InvalidRequest(invalid) = err.kind() {
            object["field"] = json!(invalid.field.name());
            object["error"] = json!(invalid.message);
        }
        Refusal(400, object)
    }
}

impl From<check::Invalid> for Refusal {
    fn from(invalid: check::Invalid) -> Refusal {
        Refusal::from(quadrille::Error::from(invalid))
    }
}

fn handle(state: &State, mut request: tiny_http::Request) {
    let path = request.url().split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    let (status, body, kind) = match (&method, path.as_str()) {
        (Method::Get, "/") => (200, PAGE.to_string(), "text/html; charset=utf-8"),
        (Method::Get, "/app.js") => (200, SCRIPT.to_string(), "text/javascript; charset=utf-8"),
        (Method::Get, "/app.css") => (200, STYLE.to_string(), "text/css; charset=utf-8"),
        (Method::Post, route) if route.starts_with("/api/") => {
            let reply = read_body(&mut request, state.args.max_body)
                .and_then(|body| api(state, route, &body));
            let (status, value) = match reply {
                Ok(Reply::Json(value)) => (200, value),
                Ok(Reply::Count(budgets, work)) => {
                    return stream_count(state, (budgets, work), request);
                }
                Err(Refusal(status, value)) => (status, value),
            };
            let _ = request.respond(json_response(status, &value));
            return;
        }
        (_, "/" | "/app.js" | "/app.css") => (405, "GET only".into(), "text/plain"),
        (_, route) if route.starts_with("/api/") => {
            let _ = request.respond(json_response(405, &json!({"error": "POST only"})));
            return;
        }
        _ => (404, "not found".into(), "text/plain"),
    };
    let response = Response::from_string(body).with_status_code(status);
    let _ = request.respond(response.with_header(header("Content-Type", kind)));
}

/// The body, at most `max` bytes, as text.
fn read_body(request: &mut tiny_http::Request, max: usize) -> Result<String, Refusal> {
    if request.body_length().is_some_and(|n| n > max) {
        return Err(refuse(413, format!("the body is larger than {max} bytes")));
    }
    let mut body = Vec::new();
    (request.as_reader().take(max as u64 + 1))
        .read_to_end(&mut body)
        .map_err(|e| refuse(400, format!("reading the body: {e}")))?;
    if body.len() > max {
        return Err(refuse(413, format!("the body is larger than {max} bytes")));
    }
    String::from_utf8(body).map_err(|e| refuse(400, format!("the body is not UTF-8: {e}")))
}

/// What a route answers: a JSON object, or a count to stream.
enum Reply {
    Json(Value),
    Count(Budgets, CountWork),
}

fn api(state: &State, route: &str, body: &str) -> Result<Reply, Refusal> {
    let quick = |run: &dyn Fn(&State, &str, Interrupt) -> Answer| -> Result<Reply, Refusal> {
        let _slot = state.searches.take(SLOT_WAIT).ok_or_else(|| {
            refuse(
                503,
                "the server is busy: every search slot is taken; try again",
            )
        })?;
        let job = state.jobs.start(Some(state.args.time_cap));
        run(state, body, job.interrupt()).map(Reply::Json)
    };
    match route {
        "/api/solve" => quick(&solve),
        "/api/explain" => quick(&explain),
        "/api/rate" => quick(&rate),
        "/api/generate" => quick(&generate),
        "/api/compare" => quick(&compare),
        "/api/estimate" => quick(&estimate),
        "/api/cancel" => cancel(state, body).map(Reply::Json),
        "/api/count" | "/api/xc" => {
            start_count(state, route, body).map(|(budgets, work)| Reply::Count(budgets, work))
        }
        _ => Err(refuse(404, format!("no route {route}"))),
    }
}

fn json_response(status: u16, value: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(value.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

/// Reads a request's JSON body, naming the line and column of a fault.
fn parse<T: DeserializeOwned>(body: &str) -> Result<T, Refusal> {
    serde_json::from_str(body).map_err(|e| {
        let message = e.to_string();
        Refusal(
            400,
            json!({ "error": message, "line": e.line(), "column": e.column() }),
        )
    })
}

/// A value read by its own `FromStr`, its error naming the JSON key.
fn named<T: FromStr>(key: &str, text: Option<&str>) -> Result<Option<T>, Refusal>
where
    T::Err: std::fmt::Display,
{
    (text.map(str::parse).transpose())
        .map_err(|e| Refusal(400, json!({ "error": format!("{key}: {e}"), "field": key })))
}

/// The puzzles of a request: its text read as the CLI reads a file.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Puzzles {
    puzzle: String,
    #[serde(rename = "box")]
    shape: Option<String>,
    variant: Option<String>,
    /// `line` or `grid` (the .sdk layout).
    layout: Option<String>,
}

impl Puzzles {
    fn read(&self) -> Result<Vec<Puzzle>, Refusal> {
        let layout = match self.layout.as_deref() {
            None | Some("line") => Layout::Line,
            Some("grid") => Layout::Grid,
            Some(other) => {
                return Err(refuse(
                    400,
                    format!("layout: '{other}' is not line or grid"),
                ));
            }
        };
        let shape = named::<Shape>("box", self.shape.as_deref())?;
        let variant = named::<Variant>("variant", self.variant.as_deref())?;
        let reader = PuzzleReader::new(self.puzzle.as_bytes(), shape, layout).with_variant(variant);
        let mut puzzles = Vec::new();
        for puzzle in reader.take(MAX_PUZZLES + 1) {
            puzzles.push(puzzle?);
        }
        match puzzles.len() {
            0 => Err(refuse(400, "no puzzle in the text")),
            n if n > MAX_PUZZLES => Err(refuse(413, format!("more than {MAX_PUZZLES} puzzles"))),
            _ => Ok(puzzles),
        }
    }

    fn one(&self) -> Result<Puzzle, Refusal> {
        let mut puzzles = self.read()?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0)),
            n => Err(refuse(400, format!("one puzzle, please: the text has {n}"))),
        }
    }
}

/// The budget a request asks for, checked by the library, within the server's cap.
#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Budgets {
    node_budget: Option<u64>,
    time_budget: Option<f64>,
}

impl Budgets {
    /// The time asked for, checked with the node budget by the library's rules.
    fn check(self) -> Result<Option<Duration>, Refusal> {
        check::node_budget(self.node_budget)?;
        Ok(self.time_budget.map(check::seconds).transpose()?)
    }

    fn budget(self, cap: Duration, interrupt: Interrupt) -> Result<Budget, Refusal> {
        let time = self.check()?;
        Ok(Budget {
            nodes: self.node_budget,
            time: Some(time.map_or(cap, |t| t.min(cap))),
            interrupt: Some(interrupt),
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    #[serde(flatten)]
    budgets: Budgets,
    engine: Option<String>,
    limit: Option<u64>,
    seed: Option<u64>,
}

fn solve(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: SolveBody = parse(body)?;
    let engine = named::<Engine>("engine", asked.engine.as_deref())?.unwrap_or_default();
    let limit = check::limit(Some(asked.limit.unwrap_or(2)))?;
    let request = Request {
        limit,
        budget: asked.budgets.budget(state.args.time_cap, interrupt)?,
        restarts: Some(Restarts::new(asked.seed.unwrap_or(0))),
    };
    let mut results = Vec::new();
    for puzzle in asked.puzzles.read()? {
        let (outcome, choice) =
            batch::solve_one(&puzzle, engine, &request, Parallelism::AcrossPuzzles)?;
        results.push(SolveRecord::new(&puzzle, &outcome, choice));
    }
    Ok(json!({ "results": results }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    #[serde(flatten)]
    budgets: Budgets,
    guesses: Option<bool>,
    scale: Option<String>,
}

/// The explanation as `explain --json` writes it, with each step's picture in `svg`.
fn explain(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: ExplainBody = parse(body)?;
    let puzzle = asked.puzzles.one()?;
    let request = ExplainRequest {
        guesses: asked.guesses.unwrap_or(true),
        scale: named("scale", asked.scale.as_deref())?.unwrap_or_default(),
        budget: asked.budgets.budget(state.args.time_cap, interrupt)?,
    };
    let (mut steps, mut pictures) = (Vec::new(), Vec::new());
    let explained = request.run(&puzzle, &mut |state, step| {
        steps.push(StepRecord::of(step));
        let title = format!(
            "step {}: {} ({:.1})",
            steps.len(),
            step.technique(),
            step.score()
        );
        pictures.push(step_svg(state, step, &title));
        true
    })?;
    let mut object = json!(ExplainRecord::new(&puzzle, &explained, steps));
    object["svg"] = json!(pictures);
    Ok(object)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RateBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    #[serde(flatten)]
    budgets: Budgets,
    scale: Option<String>,
    levels: Option<String>,
    level_nodes: Option<u64>,
}

fn rate(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: RateBody = parse(body)?;
    let puzzle = asked.puzzles.one()?;
    let defaults = RateRequest::default();
    let request = RateRequest {
        levels: match &asked.levels {
            Some(levels) => propagation_levels(levels.split(','))?,
            None => defaults.levels,
        },
        level_nodes: asked.level_nodes.unwrap_or(defaults.level_nodes),
        scale: named("scale", asked.scale.as_deref())?.unwrap_or_default(),
        budget: asked.budgets.budget(state.args.time_cap, interrupt)?,
    };
    Ok(json!(request.run(&puzzle)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateBody {
    #[serde(rename = "box")]
    shape: Option<String>,
    count: Option<usize>,
    seed: Option<u64>,
    kind: Option<String>,
    givens: Option<usize>,
    symmetry: Option<String>,
    minimal: Option<String>,
    difficulty: Option<String>,
    score: Option<(Option<f64>, Option<f64>)>,
    scale: Option<String>,
    rate: Option<bool>,
    #[serde(flatten)]
    budgets: Budgets,
}

fn generate(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: GenerateBody = parse(body)?;
    let shape = named("box", asked.shape.as_deref())?.unwrap_or(Shape::CLASSIC);
    let count = asked.count.unwrap_or(1);
    if count == 0 || count > MAX_GENERATE {
        return Err(refuse(
            400,
            format!("count: from 1 to {MAX_GENERATE} puzzles, not {count}"),
        ));
    }
    let defaults = GenerateRequest::new(shape);
    let kind = named("kind", asked.kind.as_deref())?.unwrap_or(defaults.kind);
    // Only unique puzzles take a budget (the library refuses it for the others).
    let budget = match kind {
        quadrille::request::Kind::Unique => asked.budgets.budget(state.args.time_cap, interrupt)?,
        _ => Budget {
            interrupt: Some(interrupt),
            ..Budget::unlimited()
        },
    };
    let score = match asked.score {
        Some((low, high)) => Some(score_band(low, high)?),
        None => None,
    };
    let request = GenerateRequest {
        count,
        seed: asked.seed.unwrap_or(defaults.seed),
        kind,
        givens: asked.givens,
        symmetry: named("symmetry", asked.symmetry.as_deref())?,
        minimal: named("minimal", asked.minimal.as_deref())?,
        difficulty: named("difficulty", asked.difficulty.as_deref())?,
        score,
        scale: named("scale", asked.scale.as_deref())?.unwrap_or_default(),
        rate: asked.rate.unwrap_or(false),
        budget,
        threads: 1,
        ..defaults
    };
    let mut puzzles = Vec::new();
    request.run(None, &mut |made| {
        puzzles.push(match made {
            Ok(record) => json!(record),
            Err(err) => json!({ "error": err.message() }),
        });
        Ok(())
    })?;
    Ok(json!({ "puzzles": puzzles }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    engines: Option<String>,
    limit: Option<u64>,
    node_budget: Option<u64>,
    time_budget: Option<f64>,
}

/// The comparison: its table, `compare --json`'s object, and `compare --plot`'s chart.
fn compare(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: CompareBody = parse(body)?;
    let puzzles = asked.puzzles.read()?;
    let engines = match &asked.engines {
        Some(list) => Some(
            (list
                .split(',')
                .map(|name| named::<Engine>("engines", Some(name.trim()))))
            .map(|engine| engine.map(Option::unwrap_or_default))
            .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    let time = asked.time_budget.map(check::seconds).transpose()?;
    let request = CompareRequest {
        engines,
        limit: asked.limit.unwrap_or(2),
        nodes: asked.node_budget,
        time: time.map(|t| t.min(state.args.time_cap)),
        interrupt: Some(interrupt),
        threads: 1,
        ..CompareRequest::default()
    };
    let (_, _, comparison) = request.run(puzzles.into_iter().map(Ok))?;
    let title = format!(
        "{} puzzles, count up to {}",
        comparison.puzzles().len(),
        request.limit
    );
    let svg = plot::svg(&comparison, &title)?;
    Ok(json!({ "table": comparison.table(), "comparison": comparison.to_json(), "svg": svg }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EstimateBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    #[serde(flatten)]
    budgets: Budgets,
    dlx: Option<String>,
    probes: Option<u64>,
    seed: Option<u64>,
}

/// Knuth's estimate of a count, of a dlx problem or a Sudoku, as `--estimate --json` writes it.
fn estimate(state: &State, body: &str, interrupt: Interrupt) -> Answer {
    let asked: EstimateBody = parse(body)?;
    let mut links = match &asked.dlx {
        Some(text) => {
            let problem = dlx::parse_problem(text)?;
            Dlx::try_new(problem.problem())?
        }
        None => {
            let puzzle = asked.puzzles.one()?;
            DlxSolver::links(puzzle.board(), &puzzle.grid)
        }
    };
    let request = EstimateRequest {
        probes: asked.probes.unwrap_or(EstimateRequest::DEFAULT_PROBES),
        seed: asked.seed.unwrap_or(0),
        budget: asked.budgets.budget(state.args.time_cap, interrupt)?,
    };
    let record = request.run(&mut links, &mut |_| {});
    Ok(json!(record?))
}

fn cancel(state: &State, body: &str) -> Answer {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct CancelBody {
        id: u64,
    }
    let asked: CancelBody = parse(body)?;
    Ok(json!({ "cancelled": state.jobs.cancel(asked.id) }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountBody {
    #[serde(flatten)]
    puzzles: Puzzles,
    #[serde(flatten)]
    budgets: Budgets,
    /// `/api/xc`: the problem in Knuth's dlx format.
    dlx: Option<String>,
    engine: Option<String>,
    limit: Option<u64>,
    threads: Option<usize>,
}

/// A count checked and ready to run: its work, given its budget and progress.
type CountWork = Box<dyn FnOnce(Budget, &(dyn Fn(PartsDone) + Sync)) -> Answer + Send>;

/// Reads and checks a count before any stream starts, so that a bad one is a plain 4xx.
fn start_count(state: &State, route: &str, body: &str) -> Result<(Budgets, CountWork), Refusal> {
    let asked: CountBody = parse(body)?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = check::threads(asked.threads.unwrap_or(0))?;
    let threads = if threads == 0 {
        cores
    } else {
        threads.min(cores)
    };
    let limit = check::limit(asked.limit)?;
    asked.budgets.check()?;
    if state.counts.waiting() >= COUNTS_WAITING {
        return Err(refuse(
            503,
            "the server is busy: too many counts waiting; try again",
        ));
    }
    if route == "/api/xc" {
        let text = asked
            .dlx
            .ok_or_else(|| refuse(400, "dlx: the problem, in Knuth's dlx format"))?;
        let problem = dlx::parse_problem(&text)?.into_problem();
        let request = ExactCoverCount {
            limit,
            threads,
            ..ExactCoverCount::default()
        };
        request.check(&problem)?;
        let work: CountWork = Box::new(move |budget, progress| {
            let record = ExactCoverCount { budget, ..request }.run(&problem, progress);
            Ok(json!(record?))
        });
        return Ok((asked.budgets, work));
    }
    let puzzle = asked.puzzles.one()?;
    let engine = named::<Engine>("engine", asked.engine.as_deref())?.unwrap_or_default();
    let work: CountWork = Box::new(move |budget, progress| {
        let request = Request {
            limit,
            budget,
            ..Request::default()
        };
        let pool = flags::pool(threads)?;
        let counted = pool.install(|| {
            batch::solve_one_with(
                &puzzle,
                engine,
                &request,
                Parallelism::WithinPuzzle,
                progress,
            )
        });
        let (outcome, choice) = counted?;
        Ok(json!(SolveRecord::new(&puzzle, &outcome, choice)))
    });
    Ok((asked.budgets, work))
}

/// Streams a count as server-sent events on a thread of its own: `job` (its id, for
/// `/api/cancel`), `queued` while it waits for a slot, `progress`, then `result` or `error`.
/// A closed connection cancels it.
fn stream_count(state: &State, (budgets, work): (Budgets, CountWork), request: tiny_http::Request) {
    let job = state.jobs.start(Some(state.args.count_time_cap));
    let budget = budgets.budget(state.args.count_time_cap, job.interrupt());
    let counts = state.counts.clone();
    std::thread::spawn(move || {
        let mut out = request.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n";
        if out.write_all(head.as_bytes()).is_err() {
            return;
        }
        // Each event a chunk; the last, an `error` or the `result`, ends the response.
        let mut send = |event: &str, data: &Value| -> bool {
            let text = format!("event: {event}\ndata: {data}\n\n");
            let end = if matches!(event, "error" | "result") {
                "0\r\n\r\n"
            } else {
                ""
            };
            let chunk = format!("{:x}\r\n{text}\r\n{end}", text.len());
            out.write_all(chunk.as_bytes())
                .and_then(|()| out.flush())
                .is_ok()
        };
        let budget = match budget {
            Ok(budget) => budget,
            Err(Refusal(_, value)) => {
                send("error", &value);
                return;
            }
        };
        let mut alive = send("job", &json!({ "id": job.id() }));
        let slot = loop {
            if let Some(slot) = counts.take(TICK) {
                break Some(slot);
            }
            alive = alive && send("queued", &json!({}));
            if !alive || job.interrupt().is_raised() {
                break None;
            }
        };
        let Some(_slot) = slot else {
            send("error", &json!({ "error": "cancelled before it started" }));
            return;
        };
        let (tell, told) = mpsc::channel::<Value>();
        let start = Instant::now();
        std::thread::scope(|scope| {
            // The worker owns `tell`: the channel closes as it ends, and the wait with it.
            let worker = scope.spawn(move || {
                let progress = |done: PartsDone| {
                    let _ = tell.send(json!({
                        "parts_done": done.parts_done, "parts": done.parts,
                        "nodes": done.stats.nodes, "solutions": done.stats.solutions,
                    }));
                };
                work(budget, &progress)
            });
            let mut last = json!({});
            loop {
                match told.recv_timeout(TICK) {
                    Ok(news) => last = news,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                while let Ok(news) = told.try_recv() {
                    last = news;
                }
                last["seconds"] = json!(start.elapsed().as_secs_f64());
                if alive && !send("progress", &last) {
                    alive = false;
                    job.interrupt().raise();
                }
            }
            let _ = match worker.join() {
                Ok(Ok(record)) => send("result", &record),
                Ok(Err(Refusal(_, value))) => send("error", &value),
                Err(_) => send("error", &json!({ "error": "the count failed" })),
            };
        });
        drop(job);
    });
}

/// A counting semaphore: searches at once, and how many wait.
#[derive(Clone)]
struct Slots(Arc<(Mutex<(usize, usize)>, Condvar)>);

/// A slot taken; given back when dropped.
struct Slot(Slots);

impl Slots {
    fn new(free: usize) -> Slots {
        Slots(Arc::new((Mutex::new((free, 0)), Condvar::new())))
    }

    /// A slot, waiting at most `wait` for one.
    fn take(&self, wait: Duration) -> Option<Slot> {
        let (lock, freed) = &*self.0;
        let mut state = lock.lock().ok()?;
        state.1 += 1;
        let (mut state, _) = freed.wait_timeout_while(state, wait, |s| s.0 == 0).ok()?;
        state.1 -= 1;
        if state.0 == 0 {
            return None;
        }
        state.0 -= 1;
        Some(Slot(self.clone()))
    }

    fn waiting(&self) -> usize {
        self.0.0.lock().map_or(0, |state| state.1)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let (lock, freed) = &*(self.0).0;
        if let Ok(mut state) = lock.lock() {
            state.0 += 1;
        }
        freed.notify_one();
    }
}
