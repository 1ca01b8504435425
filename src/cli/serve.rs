//! `quadrille serve`: the page and a JSON API on a local HTTP server (docs/serve.md).
//!
//! Routes and formatting only: each route reads a JSON body into the library's request, runs it
//! and returns the record that the CLI's `--json` writes; every check is the request's. What
//! the server adds is its limits: a body size, a time cap on every request (each request's
//! budget holds an interrupt that the cancel route, a closed connection or the cap raises),
//! separate slots for quick searches and long counts, so that a count never keeps a solve
//! waiting, and a clean stop on Ctrl-C (every search interrupted, every stream ended).

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use quadrille::compare::plot;
use quadrille::engine::DlxSolver;
use quadrille::exact_cover::{Dlx, PartsDone};
use quadrille::io::dlx;
use quadrille::request::{
    BudgetAsked, CompareRequest, ErrorRecord, EstimateRequest, ExactCoverCount, ExplainRequest,
    Field, GenerateRequest, Invalid, Job, Jobs, ListRequest, ProgressRecord, PuzzleCount,
    PuzzleText, RateRequest, Slots, SolveRecord, check, jobs, propagation_levels, score_band,
};
use quadrille::sudoku::Shape;
use quadrille::{Interrupt, Request, restart::Restarts};
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

const PAGE: &str = include_str!("serve/index.html");
const SCRIPT: &str = include_str!("serve/app.js");
const STYLE: &str = include_str!("serve/app.css");

/// Serves until Ctrl-C (SIGINT or SIGTERM); then stops taking requests, interrupts every
/// search, lets each answer and stream end, and says so.
pub fn run(args: Args) -> quadrille::Result<Status> {
    let server = Server::http((args.bind.as_str(), args.port))
        .map_err(|e| std::io::Error::other(format!("{}:{}: {e}", args.bind, args.port)))?;
    let addr = server.server_addr().to_ip();
    let url = format!(
        "http://{}/",
        addr.ok_or(std::io::Error::other("not an IP address"))?
    );
    let (stop, stopped) = mpsc::channel();
    ctrlc::set_handler(move || {
        let _ = stop.send(());
    })
    .map_err(|e| std::io::Error::other(format!("cannot catch Ctrl-C: {e}")))?;
    println!("{url}");
    std::io::stdout().flush()?;
    if args.open {
        let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
    }
    let state = Arc::new(State {
        jobs: Arc::default(),
        searches: Slots::new(args.searches.into()),
        counts: Slots::with_queue(args.counts.into(), jobs::COUNTS_WAITING),
        args,
        stopping: AtomicBool::new(false),
        streams: Mutex::default(),
    });
    let watchdog = Arc::clone(&state);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(jobs::CAP_CHECK);
            watchdog.jobs.raise_expired();
        }
    });
    let server = Arc::new(server);
    // Counts stream on threads of their own; the pool serves the connections.
    let handlers: Vec<_> = (0..jobs::CONNECTIONS)
        .map(|_| {
            let (server, state) = (Arc::clone(&server), Arc::clone(&state));
            std::thread::spawn(move || {
                while !state.stopping.load(Ordering::Relaxed) {
                    let Ok(Some(request)) = server.recv_timeout(jobs::TICK) else {
                        continue;
                    };
                    // A panic answers 500 (tiny_http answers a dropped request) and the
                    // thread goes on serving.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        handle(&state, request)
                    }));
                }
            })
        })
        .collect();
    let _ = stopped.recv();
    state.stopping.store(true, Ordering::Relaxed);
    let interrupted = state.jobs.running();
    state.jobs.close();
    state.searches.close();
    state.counts.close();
    for handler in handlers {
        let _ = handler.join();
    }
    let streams = std::mem::take(&mut *state.streams.lock().expect("no panic holds it"));
    for stream in streams {
        let _ = stream.join();
    }
    eprintln!("quadrille serve: stopped (running requests interrupted: {interrupted})");
    Ok(Status::Success)
}

/// What the handlers share.
struct State {
    args: Args,
    jobs: Arc<Jobs>,
    searches: Slots,
    counts: Slots,
    stopping: AtomicBool,
    /// The count streams' threads, joined before the server stops.
    streams: Mutex<Vec<JoinHandle<()>>>,
}

/// A refusal: the status and the JSON object that says why.
struct Refusal(u16, Value);

type Answer = Result<Value, Refusal>;

fn refuse(status: u16, message: impl std::fmt::Display) -> Refusal {
    Refusal(status, json!({ "error": message.to_string() }))
}

/// A library error is a 400, with its record: the line and column it names, or the field.
impl From<quadrille::Error> for Refusal {
    fn from(err: quadrille::Error) -> Refusal {
        Refusal(400, json!(ErrorRecord::of(&err)))
    }
}

impl From<Invalid> for Refusal {
    fn from(invalid: Invalid) -> Refusal {
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
                Ok(Reply::Count(count)) => {
                    return stream_count(state, count, request);
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
    Count(Count),
}

fn api(state: &State, route: &str, body: &str) -> Result<Reply, Refusal> {
    match route {
        "/api/solve" => quick(state, body, solve),
        "/api/explain" => quick(state, body, explain),
        "/api/rate" => quick(state, body, rate),
        "/api/generate" => quick(state, body, generate),
        "/api/compare" => quick(state, body, compare),
        "/api/estimate" => quick(state, body, estimate),
        "/api/solutions" => quick(state, body, solutions),
        "/api/cancel" => cancel(state, body).map(Reply::Json),
        "/api/count" | "/api/xc" => start_count(state, route, body).map(Reply::Count),
        _ => Err(refuse(404, format!("no route {route}"))),
    }
}

/// A quick search: its body read, then run in a search slot within the time cap.
fn quick<B: DeserializeOwned>(
    state: &State,
    body: &str,
    run: fn(&State, B, Interrupt) -> Answer,
) -> Result<Reply, Refusal> {
    let asked = parse(body)?;
    let busy = "the server is busy: every search slot is taken; try again";
    let _slot = (state.searches.take(jobs::SLOT_WAIT)).ok_or_else(|| refuse(503, busy))?;
    let job = state.jobs.start(Some(state.args.time_cap));
    run(state, asked, job.interrupt()).map(Reply::Json)
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
    serde_json::from_str(body).map_err(|e| Refusal(400, json!(ErrorRecord::of_json(&e))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(flatten)]
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    engine: Option<String>,
    limit: Option<u64>,
    seed: Option<u64>,
}

fn solve(state: &State, asked: SolveBody, interrupt: Interrupt) -> Answer {
    let engine = check::parse(Field::Engine, asked.engine.as_deref())?.unwrap_or_default();
    let request = Request {
        limit: check::limit(Some(asked.limit.unwrap_or(2)))?,
        budget: asked.budgets.capped(state.args.time_cap, interrupt)?,
        restarts: Some(Restarts::new(asked.seed.unwrap_or(0))),
        ..Request::default()
    };
    let results = SolveRecord::each(&asked.puzzles.read()?, engine, &request)?;
    Ok(json!({ "results": results }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainBody {
    #[serde(flatten)]
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    guesses: Option<bool>,
    scale: Option<String>,
}

/// The explanation as `explain --json` writes it, with each step's picture in `svg`.
fn explain(state: &State, asked: ExplainBody, interrupt: Interrupt) -> Answer {
    let request = ExplainRequest {
        guesses: asked.guesses.unwrap_or(true),
        scale: check::parse(Field::Scale, asked.scale.as_deref())?.unwrap_or_default(),
        budget: asked.budgets.capped(state.args.time_cap, interrupt)?,
    };
    let (record, pictures) = request.record(&asked.puzzles.one()?, true)?;
    let mut object = json!(record);
    object["svg"] = json!(pictures);
    Ok(object)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RateBody {
    #[serde(flatten)]
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    scale: Option<String>,
    levels: Option<String>,
    level_nodes: Option<u64>,
}

fn rate(state: &State, asked: RateBody, interrupt: Interrupt) -> Answer {
    let defaults = RateRequest::default();
    let request = RateRequest {
        levels: match &asked.levels {
            Some(levels) => propagation_levels(levels.split(','))?,
            None => defaults.levels,
        },
        level_nodes: asked.level_nodes.unwrap_or(defaults.level_nodes),
        scale: check::parse(Field::Scale, asked.scale.as_deref())?.unwrap_or_default(),
        budget: asked.budgets.capped(state.args.time_cap, interrupt)?,
    };
    Ok(json!(request.run(&asked.puzzles.one()?)?))
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
    budgets: BudgetAsked,
}

fn generate(state: &State, asked: GenerateBody, interrupt: Interrupt) -> Answer {
    let shape = check::parse(Field::Box, asked.shape.as_deref())?.unwrap_or(Shape::CLASSIC);
    let defaults = GenerateRequest::new(shape);
    let request = GenerateRequest {
        count: asked.count.unwrap_or(1),
        seed: asked.seed.unwrap_or(defaults.seed),
        kind: check::parse(Field::Kind, asked.kind.as_deref())?.unwrap_or(defaults.kind),
        givens: asked.givens,
        symmetry: check::parse(Field::Symmetry, asked.symmetry.as_deref())?,
        minimal: check::parse(Field::Minimal, asked.minimal.as_deref())?,
        difficulty: check::parse(Field::Difficulty, asked.difficulty.as_deref())?,
        score: (asked.score.map(|(low, high)| score_band(low, high))).transpose()?,
        scale: check::parse(Field::Scale, asked.scale.as_deref())?.unwrap_or_default(),
        rate: asked.rate.unwrap_or(false),
        threads: 1,
        ..defaults
    };
    let budget = asked.budgets.capped(state.args.time_cap, interrupt)?;
    let made = request.capped(budget).collect()?;
    let puzzles: Vec<Value> = (made.into_iter())
        .map(|made| made.map_or_else(|err| json!(ErrorRecord::of(&err)), |record| json!(record)))
        .collect();
    Ok(json!({ "puzzles": puzzles }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareBody {
    #[serde(flatten)]
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    engines: Option<String>,
    limit: Option<u64>,
}

/// The comparison: its table, `compare --json`'s object, and `compare --plot`'s chart.
fn compare(state: &State, asked: CompareBody, interrupt: Interrupt) -> Answer {
    let budget = asked.budgets.capped(state.args.time_cap, interrupt)?;
    let request = CompareRequest {
        engines: asked.engines.as_deref().map(check::engines).transpose()?,
        limit: asked.limit.unwrap_or(2),
        nodes: budget.nodes,
        time: budget.time,
        interrupt: budget.interrupt,
        threads: 1,
        ..CompareRequest::default()
    };
    let puzzles = asked.puzzles.read()?;
    let (_, _, comparison) = request.run(puzzles.into_iter().map(Ok))?;
    let (count, limit) = (comparison.puzzles().len(), request.limit);
    let svg = plot::svg(
        &comparison,
        &format!("{count} puzzles, count up to {limit}"),
    )?;
    Ok(json!({ "table": comparison.table(), "comparison": comparison.to_json(), "svg": svg }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EstimateBody {
    #[serde(flatten)]
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    dlx: Option<String>,
    probes: Option<u64>,
    seed: Option<u64>,
}

/// Knuth's estimate of a count, of a dlx problem or a Sudoku, as `--estimate --json` writes it.
fn estimate(state: &State, asked: EstimateBody, interrupt: Interrupt) -> Answer {
    let mut links = match &asked.dlx {
        Some(text) => Dlx::try_new(dlx::parse_problem(text)?.problem())?,
        None => {
            let puzzle = asked.puzzles.one()?;
            DlxSolver::links(puzzle.board(), &puzzle.grid)
        }
    };
    let request = EstimateRequest {
        probes: asked.probes.unwrap_or(EstimateRequest::DEFAULT_PROBES),
        seed: asked.seed.unwrap_or(0),
        budget: asked.budgets.capped(state.args.time_cap, interrupt)?,
    };
    Ok(json!(request.run(&mut links, &mut |_| {})?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolutionsBody {
    dlx: String,
    #[serde(flatten)]
    budgets: BudgetAsked,
    limit: Option<u64>,
    seed: Option<u64>,
}

/// The first solutions of an exact-cover problem, as `xc --limit N` lists them.
fn solutions(state: &State, asked: SolutionsBody, interrupt: Interrupt) -> Answer {
    let problem = dlx::parse_problem(&asked.dlx)?.into_problem();
    let defaults = ListRequest::default();
    let request = ListRequest {
        limit: asked.limit.or(defaults.limit),
        seed: asked.seed.unwrap_or(defaults.seed),
        budget: asked.budgets.capped(state.args.time_cap, interrupt)?,
        ..defaults
    };
    Ok(json!(request.run(&problem)?))
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
    puzzles: PuzzleText,
    #[serde(flatten)]
    budgets: BudgetAsked,
    /// `/api/xc`: the problem in Knuth's dlx format.
    dlx: Option<String>,
    engine: Option<String>,
    limit: Option<u64>,
    threads: Option<usize>,
}

/// A count checked and ready to run: its job, and its work, given where to tell its progress.
struct Count(Job, CountWork);

type CountWork = Box<dyn FnOnce(&(dyn Fn(PartsDone) + Sync)) -> Answer + Send>;

/// Reads and checks a count before any stream starts, so that a bad one is a plain 4xx.
fn start_count(state: &State, route: &str, body: &str) -> Result<Count, Refusal> {
    let asked: CountBody = parse(body)?;
    let threads = check::threads_here(asked.threads.unwrap_or(0))?;
    let limit = check::limit(asked.limit)?;
    if !state.counts.has_room() {
        let busy = "the server is busy: too many counts waiting; try again";
        return Err(refuse(503, busy));
    }
    let job = state.jobs.start(Some(state.args.count_time_cap));
    let budget = (asked.budgets).capped(state.args.count_time_cap, job.interrupt())?;
    if route == "/api/xc" {
        let text = (asked.dlx.as_deref())
            .ok_or_else(|| refuse(400, "dlx: the problem, in Knuth's dlx format"))?;
        let problem = dlx::parse_problem(text)?.into_problem();
        let request = ExactCoverCount {
            limit,
            threads,
            budget,
            ..ExactCoverCount::default()
        };
        request.check(&problem)?;
        let work = move |tell: &(dyn Fn(PartsDone) + Sync)| Ok(json!(request.run(&problem, tell)?));
        return Ok(Count(job, Box::new(work)));
    }
    let request = PuzzleCount {
        engine: check::parse(Field::Engine, asked.engine.as_deref())?.unwrap_or_default(),
        limit,
        threads,
        budget,
    };
    let puzzle = asked.puzzles.one()?;
    let work = move |tell: &(dyn Fn(PartsDone) + Sync)| Ok(json!(request.run(&puzzle, tell)?));
    Ok(Count(job, Box::new(work)))
}

/// Streams a count as server-sent events on a thread of its own: `job` (its id, for
/// `/api/cancel`), `queued` while it waits for a slot, `progress`, then `result` or `error`.
/// A closed connection cancels it.
fn stream_count(state: &State, Count(job, work): Count, request: tiny_http::Request) {
    let counts = state.counts.clone();
    let stream = std::thread::spawn(move || {
        let mut out = request.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nTransfer-Encoding: chunked\r\n\r\n";
        if out.write_all(head.as_bytes()).is_err() {
            return;
        }
        // Each event a chunk; the last, an `error` or the `result`, ends the response.
        let mut send = |event: &str, data: &Value| -> bool {
            let text = format!("event: {event}\ndata: {data}\n\n");
            let mut chunk = format!("{:x}\r\n{text}\r\n", text.len());
            if matches!(event, "error" | "result") {
                chunk.push_str("0\r\n\r\n");
            }
            out.write_all(chunk.as_bytes())
                .and_then(|()| out.flush())
                .is_ok()
        };
        let mut alive = send("job", &json!({ "id": job.id() }));
        let slot = loop {
            if let Some(slot) = counts.take(jobs::TICK) {
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
        let progress = &mut |done: &ProgressRecord| {
            if alive && !send("progress", &json!(done)) {
                alive = false;
                job.interrupt().raise();
            }
        };
        let _ = match jobs::ticking(jobs::TICK, work, progress) {
            Ok(Ok(record)) => send("result", &record),
            Ok(Err(Refusal(_, value))) => send("error", &value),
            Err(_) => send("error", &json!({ "error": "the count failed" })),
        };
        drop(job);
    });
    if let Ok(mut streams) = state.streams.lock() {
        streams.retain(|stream| !stream.is_finished());
        streams.push(stream);
    }
}
