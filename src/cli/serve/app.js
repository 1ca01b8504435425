// The page of `quadrille serve`: it only gathers what the user typed and shows what the API
// answers; every check and every computation is the library's.
"use strict";
const $ = (id) => document.getElementById(id);
const SHAPES = ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "2x5", "3x4", "4x3", "4x4", "4x5", "5x4", "5x5"];
const DIGITS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let shape = { r: 3, c: 3, n: 9 };
let cells = [];
let steps = null, step = 0, job = null;

function status(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function buildGrid() {
  const [r, c] = $("box").value.split("x").map(Number);
  shape = { r, c, n: r * c };
  const grid = $("grid");
  grid.innerHTML = "";
  const cell = shape.n > 16 ? 26 : shape.n > 9 ? 32 : 42;
  grid.style.setProperty("--cell", cell + "px");
  grid.style.gridTemplateColumns = `repeat(${shape.n}, ${cell}px)`;
  cells = [];
  for (let i = 0; i < shape.n * shape.n; i++) {
    const input = document.createElement("input");
    const row = Math.floor(i / shape.n), col = i % shape.n;
    input.maxLength = 1;
    input.dataset.i = i;
    input.setAttribute("aria-label", `r${row + 1}c${col + 1}`);
    if ((col + 1) % c === 0 && col + 1 < shape.n) input.classList.add("box-right");
    if ((row + 1) % r === 0 && row + 1 < shape.n) input.classList.add("box-bottom");
    input.addEventListener("input", () => { input.classList.remove("solved", "error"); input.value = input.value.toUpperCase(); });
    input.addEventListener("keydown", (e) => moveFocus(e, i));
    grid.appendChild(input);
    cells.push(input);
  }
  decorate();
}

function moveFocus(e, i) {
  const n = shape.n, moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  if (!(e.key in moves)) return;
  const j = i + moves[e.key];
  if (j >= 0 && j < n * n) { cells[j].focus(); e.preventDefault(); e.stopPropagation(); }
}

// Shading for the variants' extra groups, and the regions or cages of a map.
function decorate() {
  const v = $("variant").value, n = shape.n;
  $("map-label").hidden = !(v === "jigsaw" || v === "killer");
  const map = $("map").value.trim().split(/\s+/)[0] || "";
  cells.forEach((input, i) => {
    const row = Math.floor(i / n), col = i % n;
    input.classList.toggle("diag", v === "x" && (row === col || row + col === n - 1));
    const inWindow = (k) => k % (shape.r + 1) !== 0 && k < n - 1;
    input.classList.toggle("window", v === "windoku" && n === 9 && inWindow(row) && inWindow(col));
    const key = map.length === n * n && $("map-label").hidden === false ? map.charCodeAt(i) : 0;
    input.style.backgroundColor = key ? `hsl(${(key * 47) % 360} 60% 90%)` : "";
  });
}

// The puzzle as one line, in the CLI's format, with a `# variant:` header and the map.
function puzzleText() {
  const line = cells.map((c) => c.classList.contains("solved") || c.value === "" ? "." : c.value).join("");
  const v = $("variant").value;
  const map = $("map-label").hidden ? "" : " " + $("map").value.trim();
  return (v === "classic" ? "" : `# variant: ${v}\n`) + line + map;
}

function request() {
  return { puzzle: puzzleText(), box: `${shape.r}x${shape.c}` };
}

async function api(route, body) {
  const res = await fetch(`/api/${route}`, { method: "POST", body: JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw answer;
  return answer;
}

// An error where it is: the cell of its column, or the map after the cells.
function showError(err, headerLines) {
  cells.forEach((c) => c.classList.remove("error"));
  $("map").classList.remove("error");
  let where = "";
  if (err.column && (err.line || 1) > headerLines) {
    const i = err.column - 1;
    if (i < cells.length) { cells[i].classList.add("error"); where = ` (cell ${cells[i].getAttribute("aria-label")})`; }
    else $("map").classList.add("error");
  }
  status((err.error || String(err)) + where, true);
}

const headerLines = () => ($("variant").value === "classic" ? 0 : 1);

async function run(action) {
  try {
    await action();
  } catch (err) {
    showError(err, headerLines());
  }
}

function showGrid(line, cls) {
  cells.forEach((c, i) => {
    if (c.value === "" || c.classList.contains("solved")) {
      c.value = line[i] === "." ? "" : line[i];
      c.classList.toggle(cls, line[i] !== ".");
    }
  });
}

async function solve() {
  cells.forEach((c) => c.classList.remove("solved", "error", "placed"));
  status("solving…");
  const { results: [r] } = await api("solve", { ...request(), limit: 2 });
  if (r.solution) showGrid(r.solution, "solved");
  const how = r.status === "solved" ? (r.solutions > 1 ? "several solutions (one shown)" : r.exact ? "unique" : "solved") : r.status;
  status(`${how}; engine ${r.engine}${r.why ? " (" + r.why + ")" : ""}`);
}

async function explain() {
  cells.forEach((c) => c.classList.remove("solved", "error", "placed"));
  status("explaining…");
  const answer = await api("explain", request());
  steps = answer.steps.map((s, k) => ({ ...s, svg: answer.svg[k] }));
  step = 0;
  $("explain-panel").hidden = false;
  status(`${answer.ending} in ${steps.length} steps; hardest ${answer.hardest}, score ${answer.score ?? "none"}`);
  showStep();
}

function showStep() {
  if (!steps || steps.length === 0) { $("step-count").textContent = "no steps"; $("step-svg").innerHTML = ""; return; }
  const s = steps[step];
  $("step-count").textContent = `step ${step + 1} of ${steps.length}`;
  $("step-info").textContent = `${s.technique} (${s.score.toFixed(1)}): ${s.why}`;
  $("step-svg").innerHTML = s.svg;
  cells.forEach((c) => c.classList.remove("placed"));
  for (const [r, c] of s.placements) cells[(r - 1) * shape.n + c - 1].classList.add("placed");
}

function moveStep(by) {
  if (!steps) return;
  step = Math.min(Math.max(step + by, 0), steps.length - 1);
  showStep();
}

async function rate() {
  const [a, b] = await Promise.all(["se121", "sukaku"].map((scale) => api("rate", { ...request(), scale })));
  status(a.score == null ? `not rated: ${a.stopped || (a.unique === false ? "several solutions" : "no solution")}`
    : `score ${a.score} (Sudoku Explainer 1.2.1), ${b.score} (Sukaku Explainer); hardest ${a.hardest}; ${a.steps} steps, ${a.guesses} guesses`);
}

async function generate() {
  const low = $("gen-low").value, high = $("gen-high").value;
  const body = { box: `${shape.r}x${shape.c}`, seed: Number($("gen-seed").value) || 1, rate: true };
  if ($("gen-symmetry").value) body.symmetry = $("gen-symmetry").value;
  if ($("gen-difficulty").value) body.difficulty = $("gen-difficulty").value;
  if (low || high) body.score = [low ? Number(low) : null, high ? Number(high) : null];
  if ($("gen-minimal").checked) body.minimal = "givens";
  status("generating…");
  const { puzzles: [p] } = await api("generate", body);
  if (p.error) throw p;
  $("variant").value = "classic";
  load(p.puzzle);
  const r = p.rating;
  status(`seed ${p.seed}: ${p.givens} givens, ${p.symmetry}${p.minimal ? ", minimal" : ""}` +
    (r ? `; ${r.difficulty}, score ${r.score}, hardest ${r.hardest}` : ""));
}

// A count streamed as server-sent events, with a progress bar and a cancel button.
async function count(route, body, show) {
  const res = await fetch(`/api/${route}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw await res.json();
  $("progress-box").hidden = false;
  $("progress").removeAttribute("value");
  $("progress-text").textContent = "starting…";
  const reader = res.body.getReader(), text = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += text.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = (block.match(/^event: (.*)$/m) || [])[1];
      const data = JSON.parse((block.match(/^data: (.*)$/m) || [, "{}"])[1]);
      if (event === "job") job = data.id;
      else if (event === "queued") $("progress-text").textContent = "waiting for a free slot…";
      else if (event === "progress") progress(data);
      else if (event === "error") { job = null; $("progress-box").hidden = true; throw data; }
      else if (event === "result") { job = null; $("progress").value = 1; show(data); }
    }
  }
}

function progress(p) {
  if (p.parts) $("progress").value = p.parts_done / p.parts;
  const parts = p.parts ? `${p.parts_done} of ${p.parts} parts, ` : "";
  const found = p.solutions != null ? `${p.solutions.toLocaleString()} solutions so far, ` : "";
  $("progress-text").textContent = `${parts}${found}${(p.seconds || 0).toFixed(1)} s`;
}

const counted = (r) => `${r.solutions}${r.exact === false || r.complete === false ? "+" : ""}`;

async function countSudoku() {
  await count("count", request(), (r) => {
    $("progress-text").textContent = `${counted(r)} solutions`;
    status(`${counted(r)} solutions (engine ${r.engine})${r.stopped ? "; stopped by the budget or a cancel" : ""}`);
  });
}

async function countXc() {
  await count("xc", { dlx: $("xc-text").value }, (r) => {
    $("progress-text").textContent = `${counted(r)} solutions, ${r.nodes.toLocaleString()} nodes, ${r.seconds.toFixed(2)} s` +
      (r.complete ? "" : ` (${r.stop})`);
  });
}

// Knuth's estimate first: how many solutions, and how long a count would take.
async function estimateXc() {
  const e = await api("estimate", { dlx: $("xc-text").value, time_budget: 5 });
  const [low, high] = e.solutions_interval;
  $("xc-estimate-text").textContent = e.exact_solutions != null ? `exactly ${e.exact_solutions} solutions (the sample counted them all)`
    : `about ${e.solutions.toPrecision(3)} solutions (95%: ${low.toPrecision(3)} to ${high == null ? "?" : high.toPrecision(3)}), ` +
      `a count of about ${e.seconds == null ? "?" : e.seconds.toPrecision(2)} s on one core (${e.probes} probes)`;
}

// The first ten solutions, each as its options' lines, as `xc --limit 10` lists them.
async function solutionsXc() {
  const r = await api("solutions", { dlx: $("xc-text").value, limit: 10 });
  $("xc-list").replaceChildren(...r.solutions.map((s) => {
    const item = document.createElement("li"), lines = document.createElement("pre");
    lines.textContent = s.lines.join("\n");
    item.appendChild(lines);
    return item;
  }));
  const how = r.complete ? "all of them" : r.stop === "limit" ? "the first listed" : `stopped: ${r.stop}`;
  $("xc-solutions-text").textContent = `${r.found} solution${r.found === 1 ? "" : "s"} (${how}), ${r.nodes.toLocaleString()} nodes`;
}

async function cancel() {
  if (job != null) await api("cancel", { id: job });
}

async function compare() {
  const text = $("compare-text").value.trim() || puzzleText();
  const body = { puzzle: text };
  if ($("compare-engines").value.trim()) body.engines = $("compare-engines").value.trim();
  status("comparing…");
  const answer = await api("compare", body);
  $("compare-table").textContent = answer.table;
  $("compare-chart").innerHTML = answer.svg;
  status(`compared ${answer.comparison.puzzles.length} puzzles`);
}

// A pasted puzzle into the grid: a line, an .sdk grid or numbers; the library judges it when
// it is solved.
function load(text) {
  const lines = text.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
  let tokens;
  if (lines.length === 1 && /^\s*\d+(\s+\d+){3,}/.test(lines[0])) {
    tokens = lines[0].trim().split(/\s+/).map((t) => (t === "0" ? "." : DIGITS[Number(t) - 1] || "?"));
  } else if (lines.length === 1) {
    const [line, ...map] = lines[0].trim().split(/\s+/);
    tokens = [...line];
    if (map.length) $("map").value = map.join(" ");
  } else {
    tokens = [...lines.join("").replace(/[|+\-\s]/g, "")];
  }
  const n = Math.round(Math.sqrt(tokens.length));
  const fits = SHAPES.filter((s) => { const [r, c] = s.split("x").map(Number); return r * c === n; });
  if (n * n !== tokens.length || fits.length === 0) {
    return run(() => api("solve", { puzzle: text, layout: lines.length > 1 ? "grid" : "line" }).then(() => status("loaded")));
  }
  if (!fits.includes($("box").value)) { $("box").value = fits.find((s) => s.split("x")[0] <= s.split("x")[1]) || fits[0]; buildGrid(); }
  cells.forEach((c, i) => {
    const t = tokens[i] === "0" || tokens[i] === "_" ? "." : tokens[i].toUpperCase();
    c.value = t === "." ? "" : t;
    c.className = c.className.replace(/\b(solved|error|placed|given)\b/g, "").trim();
    if (t !== ".") c.classList.add("given");
  });
  decorate();
  status("");
}

for (const s of SHAPES) $("box").add(new Option(s, s, false, s === "3x3"));
$("box").addEventListener("change", buildGrid);
$("variant").addEventListener("change", decorate);
$("map").addEventListener("input", decorate);
$("clear").onclick = () => { buildGrid(); status(""); $("explain-panel").hidden = true; steps = null; };
$("load").onclick = () => load($("paste").value);
$("solve").onclick = () => run(solve);
$("explain").onclick = () => run(explain);
$("rate").onclick = () => run(rate);
$("generate").onclick = () => run(generate);
$("count").onclick = () => run(countSudoku);
$("xc-count").onclick = () => run(countXc);
$("xc-estimate").onclick = () => run(estimateXc);
$("xc-solutions").onclick = () => run(solutionsXc);
$("cancel").onclick = () => run(cancel);
$("compare").onclick = () => run(compare);
$("step-prev").onclick = () => moveStep(-1);
$("step-next").onclick = () => moveStep(1);
$("xc-file").addEventListener("change", async (e) => { $("xc-text").value = await e.target.files[0].text(); });
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "TEXTAREA" || (e.target.tagName === "INPUT" && e.target.type !== "checkbox")) return;
  if (e.key === "ArrowRight") moveStep(1);
  if (e.key === "ArrowLeft") moveStep(-1);
});
buildGrid();
