// bmn serve: the replay page. Plain JavaScript, no libraries, nothing fetched but /api/*.
// The server plays every game on bmn's reference engine and sends each card laid; this page
// only replays those events on the stacks of the deal, so what it shows is the engine's game.
// An ES module (strict): what the atlas (atlas.js) uses is exported, nothing is global, and
// every event is wired with addEventListener.

export const $ = (id) => document.getElementById(id);
const FACES = "JQKAX";

// The game on the page: the start, the engine's report and its events, and where we are.
const game = {
  report: null, // `/api/play`'s JSON: outcome, totals, trace, events, start
  hands: [], // the starting stacks, arrays of symbols, top card first
  events: [], // {step: "card"|"take", player, card?, owed?, claim?, cards?}
  trickEnds: [], // event index just after each take (the state after trick t is trickEnds[t-1])
  at: 0, // events applied
  timer: null,
};

// ---------- fetching ----------

export async function api(path, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${path}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

/** `n word`, with an s unless n is 1: "1 trick", "2 tricks". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Text made safe to put inside HTML: server answers echo what the user typed. */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// ---------- tables: downloads and deal lists ----------

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
function csvField(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `rows` (objects) as CSV with `columns` for its header. */
function toCsv(columns, rows) {
  const lines = [columns.join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField(row[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

const downloadUrls = {};

/** CSV and JSON links in `spanId` for a table of `rows` (JSON: `json`, or the rows themselves). */
export function downloads(spanId, name, columns, rows, json) {
  const span = $(spanId);
  for (const url of downloadUrls[spanId] || []) URL.revokeObjectURL(url);
  const files = [
    ["CSV", `${name}.csv`, "text/csv", toCsv(columns, rows)],
    ["JSON", `${name}.json`, "application/json", JSON.stringify(json ?? rows, null, 1) + "\n"],
  ];
  downloadUrls[spanId] = [];
  span.textContent = "";
  for (const [label, file, type, text] of files) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type }));
    a.download = file;
    a.textContent = `⤓ ${label}`;
    a.className = `download-${label.toLowerCase()}`;
    downloadUrls[spanId].push(a.href);
    span.appendChild(a);
  }
}

/** The link that replays deal `rank` of `deck` by its number. */
function rankLink(rank, deck, players, leader) {
  const params = { deal: `#${rank}`, deck, players: String(players), leader: String(leader) };
  const a = document.createElement("a");
  a.href = "?" + new URLSearchParams(params).toString();
  a.textContent = `#${rank}`;
  a.className = "rank-link";
  a.addEventListener("click", (ev) => {
    ev.preventDefault();
    replay(params);
  });
  return a;
}

/** Puts `params` in the form and replays them in the table at the top. */
function replay(params) {
  setForm(params);
  play();
  window.scrollTo({ left: 0, top: 0 });
}

export const DEAL_COLUMNS = ["rank", "deal", "leader", "preperiod_tricks", "preperiod_cards", "renamed"];

/** A list of deals into `tbody`: rank (a link that replays it by number), deal, preperiod,
 * and a button that replays it; deals are {deal, leader, rank, preperiod_tricks, ...}. */
export function dealRows(tbody, deals, deck, players) {
  tbody.innerHTML = "";
  for (const d of deals) {
    const tr = document.createElement("tr");
    const rank = document.createElement("td");
    if (d.rank !== null && d.rank !== undefined) rank.appendChild(rankLink(d.rank, deck, players, d.leader));
    tr.appendChild(rank);
    tr.insertAdjacentHTML("beforeend",
      `<td class="deal">${esc(d.deal)}</td><td>${plural(d.preperiod_tricks, "trick")}, ${plural(d.preperiod_cards, "card")}` +
      `${d.renamed ? " (players renamed)" : ""}</td><td><button>replay</button></td>`);
    tr.querySelector("button").addEventListener("click", () => replay({ deal: d.deal, leader: String(d.leader) }));
    tbody.appendChild(tr);
  }
}

function formParams() {
  const p = { deal: $("deal").value.trim(), leader: $("leader").value || "1" };
  for (const name of ["players", "deck", "penalties"]) {
    const v = $(name).value.trim();
    if (v) p[name] = v;
  }
  if ($("on_empty").value !== "pass") p.on_empty = $("on_empty").value;
  return p;
}

function setForm(p) {
  $("deal").value = p.deal || "";
  $("leader").value = p.leader || "1";
  $("players").value = p.players || "";
  $("deck").value = p.deck || "";
  $("penalties").value = p.penalties || "";
  $("on_empty").value = p.on_empty || "pass";
}

async function play(pushUrl = true) {
  stop();
  $("error").textContent = "";
  // An empty deal box plays the game its grey placeholder shows (the world record), as it
  // looks filled in: the box takes it, so the URL and the box say what was played.
  if (!$("deal").value.trim()) $("deal").value = $("deal").placeholder;
  const params = formParams();
  let report;
  try {
    report = await api("play", { ...params, trace: "true", events: "true" });
  } catch (e) {
    // The game on screen is not this deal's: take it away, so the message stands alone.
    $("error").textContent = e.message;
    game.report = null;
    $("game-panel").hidden = true;
    return;
  }
  if (pushUrl) history.replaceState(null, "", "?" + new URLSearchParams(params).toString());
  load(report);
}

// ---------- the game ----------

function load(report) {
  game.report = report;
  game.hands = report.start.deal.split("/").map((h) => Array.from(h));
  game.events = report.events;
  game.trickEnds = [];
  report.events.forEach((e, i) => {
    if (e.step === "take") game.trickEnds.push(i + 1);
  });
  game.at = 0;
  $("game-panel").hidden = false;
  $("slider").max = String(game.events.length);
  $("summary").textContent = summaryText(report);
  $("rank").textContent = "";
  if (report.rank !== null && report.rank !== undefined) {
    $("rank").append(`deal `);
    $("rank").appendChild(rankLink(report.rank, report.deck, report.players, report.start.leader));
    $("rank").append(` of the deck ${report.deck} (${report.players} players, player ${report.start.leader} leads)`);
  }
  const cycle = report.outcome === "cycle";
  $("to-cycle").hidden = !cycle;
  $("basin-box").hidden = !cycle;
  $("basin").innerHTML = "";
  $("basin").setAttribute("hidden", "");
  $("basin-info").textContent = "";
  $("basin-deals-box").hidden = true;
  drawChart();
  show();
}

function summaryText(r) {
  if (r.outcome === "finished") return `player ${r.winner} wins after ${plural(r.cards, "card")} and ${plural(r.tricks, "trick")}`;
  if (r.outcome === "cycle")
    return `the game never ends: preperiod ${plural(r.preperiod.tricks, "trick")}, ${plural(r.preperiod.cards, "card")}; ` +
      `period ${plural(r.period.tricks, "trick")}, ${plural(r.period.cards, "card")} (cycle ${r.cycle_id})`;
  return `stopped after ${plural(r.tricks, "trick")} (${plural(r.cards, "card")})`;
}

// The state after `n` events: stacks, pile, cards and tricks played, the last card's debt.
function stateAt(n) {
  const stacks = game.hands.map((h) => h.slice());
  const pile = [];
  let cards = 0, tricks = 0, last = null;
  for (let i = 0; i < n; i++) {
    const e = game.events[i];
    if (e.step === "card") {
      stacks[e.player - 1].shift();
      pile.push(e.card);
      cards++;
      last = e;
    } else {
      stacks[e.player - 1].push(...pile);
      pile.length = 0;
      tricks++;
      last = e;
    }
  }
  return { stacks, pile, cards, tricks, last };
}

function cardHtml(symbol) {
  const face = FACES.includes(symbol);
  return `<span class="card${face ? " face " + symbol : ""}">${face ? symbol : "·"}</span>`;
}

function show() {
  const s = stateAt(game.at);
  const next = game.events[game.at];
  const players = game.hands.length;
  let html = "";
  for (let p = 0; p < players; p++) {
    const turn = next && next.player === p + 1 && next.step === "card";
    const out = s.stacks[p].length === 0 && s.pile.length + s.cards > 0 && !(next && next.player === p + 1);
    html += `<div class="player${turn ? " turn" : ""}${out ? " out" : ""}">` +
      `<span class="label">Player ${p + 1}</span><span class="count">${s.stacks[p].length}</span>` +
      `<div class="cards">${s.stacks[p].map(cardHtml).join("")}</div></div>`;
  }
  $("table").innerHTML = html;
  $("pile").innerHTML = s.pile.map(cardHtml).join("");
  $("status").textContent = statusText(s, next);
  // A step is a card laid or a pile taken: the slider moves by steps, not by cards.
  $("counters").textContent = `${plural(s.cards, "card")} laid, ${plural(s.tricks, "trick")} taken ` +
    `(step ${game.at} of ${game.events.length}: a card laid or a pile taken)`;
  $("slider").value = String(game.at);
  $("cycle-info").textContent = cycleText(s);
  markChart(s.tricks);
}

function statusText(s, next) {
  const r = game.report;
  if (!next) {
    if (r.outcome === "finished") return `player ${r.winner} wins after ${plural(r.cards, "card")} and ${plural(r.tricks, "trick")}`;
    if (r.outcome === "cycle")
      return `the position repeats: after ${plural(s.tricks, "trick")} the game is back at the cycle's start (trick ${r.preperiod.tricks}), and it never ends`;
    return `stopped after ${plural(r.tricks, "trick")}`;
  }
  if (next.step === "take") return `player ${next.player} takes the pile (${plural(s.pile.length, "card")})`;
  const last = s.last && s.last.step === "card" ? s.last : null;
  if (last && last.claim && last.owed > 0)
    return `player ${next.player} to play: owes ${last.owed} card${last.owed === 1 ? "" : "s"} to player ${last.claim}`;
  return `player ${next.player} to play`;
}

function cycleText(s) {
  const r = game.report;
  if (r.outcome !== "cycle") return "";
  if (s.tricks === r.preperiod.tricks && atTrickBoundary())
    return `at the cycle's start: preperiod ${plural(r.preperiod.tricks, "trick")}, ${plural(r.preperiod.cards, "card")}`;
  if (s.tricks < r.preperiod.tricks)
    return `in the preperiod (${plural(r.preperiod.tricks, "trick")}, ${plural(r.preperiod.cards, "card")})`;
  return `on the cycle: period ${plural(r.period.tricks, "trick")}, ${plural(r.period.cards, "card")}`;
}

function atTrickBoundary() {
  return game.at === 0 || game.events[game.at - 1].step === "take";
}

// ---------- stepping ----------

function go(n) {
  game.at = Math.max(0, Math.min(game.events.length, n));
  show();
}

function toTrick(t) {
  go(t <= 0 ? 0 : game.trickEnds[Math.min(t, game.trickEnds.length) - 1]);
}

function trickNow() {
  return game.trickEnds.filter((e) => e <= game.at).length;
}

function stop() {
  if (game.timer) clearInterval(game.timer);
  game.timer = null;
  $("play-pause").textContent = "▶ play";
}

function togglePlay() {
  if (game.timer) return stop();
  const perSecond = Number($("speed").value);
  const tick = Math.max(16, 1000 / perSecond);
  const per = Math.max(1, Math.round(perSecond * tick / 1000));
  game.timer = setInterval(() => {
    if (game.at >= game.events.length) return stop();
    go(game.at + per);
  }, tick);
  $("play-pause").textContent = "⏸ pause";
}

// ---------- the picture ----------

function drawChart() {
  const trace = game.report.trace || [];
  const players = game.hands.length;
  const total = trace.length ? trace[0].deal.replace(/\//g, "").length : 1;
  const W = 800, H = 200;
  const x = (t) => (trace.length > 1 ? (t / (trace.length - 1)) * W : 0);
  const y = (n) => H - 4 - (n / total) * (H - 8);
  const colors = ["#2f5bd3", "#c0392b", "#2e8b57", "#e67e22", "#8e44ad", "#16a085", "#7f8c8d", "#d35400", "#2c3e50", "#b7950b"];
  let svg = "";
  for (let p = 0; p < players; p++) {
    const points = trace.map((pos, t) => `${x(t).toFixed(1)},${y(pos.deal.split("/")[p].length).toFixed(1)}`).join(" ");
    svg += `<polyline fill="none" stroke="${colors[p % colors.length]}" stroke-width="1.5" points="${points}"/>`;
  }
  const r = game.report;
  if (r.outcome === "cycle") {
    svg += `<line x1="${x(r.preperiod.tricks)}" x2="${x(r.preperiod.tricks)}" y1="0" y2="${H}" stroke="#c0392b" stroke-dasharray="4 3"/>`;
  }
  svg += `<line id="chart-mark" x1="0" x2="0" y1="0" y2="${H}" stroke="#1d2330" stroke-width="1"/>`;
  $("chart").innerHTML = svg;
  // Classes, not style attributes: the page's policy allows no inline style.
  let legend = "";
  for (let p = 0; p < players; p++) legend += `<span class="line p${p % colors.length}"></span>player ${p + 1}`;
  if (r.outcome === "cycle") legend += `<span class="line cycle-start"></span>the cycle's start`;
  legend += `<span class="line now"></span>now`;
  $("chart-legend").innerHTML = legend;
  $("chart").dataset.tricks = String(Math.max(1, trace.length - 1));
}

function markChart(tricks) {
  const mark = $("chart-mark");
  if (!mark) return;
  const n = Number($("chart").dataset.tricks);
  const xx = (tricks / n) * 800;
  mark.setAttribute("x1", xx);
  mark.setAttribute("x2", xx);
}

function chartClick(ev) {
  const box = $("chart").getBoundingClientRect();
  const n = Number($("chart").dataset.tricks);
  toTrick(Math.round(((ev.clientX - box.left) / box.width) * n));
}

// ---------- the basin ----------

async function loadBasin() {
  const start = game.report.start;
  $("basin-info").textContent = "searching backward…";
  let b;
  try {
    b = await api("basin", { deal: start.deal, leader: start.leader, graph: "true", ...rulesParams() });
  } catch (e) {
    $("basin-info").textContent = e.message;
    return;
  }
  $("basin-info").textContent =
    `${plural(b.positions, "position")}${b.complete ? "" : " (cut short at the cap: a lower bound)"}; ` +
    `${plural(b.balanced_deals_count, "balanced starting deal")} with player 1 leading` +
    (b.graph.truncated ? `; drawing the first ${b.graph.nodes.length}` : "");
  drawBasin("basin", b.graph);
  const deals = basinDeals(b);
  dealRows($("basin-deals").querySelector("tbody"), deals, game.report.deck, game.report.players);
  downloads("basin-downloads", `basin-${b.cycle_id || "final"}-deals`, DEAL_COLUMNS, deals);
  $("basin-deals-box").hidden = false;
}

/** A basin's balanced deals (player 1 leading) as deal rows. */
export function basinDeals(b) {
  return b.balanced_deal_list.map((d) => ({
    rank: d.rank, deal: d.deal, leader: d.leader, preperiod_tricks: d.tricks, preperiod_cards: d.cards, renamed: d.renamed,
  }));
}

function rulesParams() {
  const p = {};
  if ($("penalties").value.trim()) p.penalties = $("penalties").value.trim();
  if ($("on_empty").value !== "pass") p.on_empty = $("on_empty").value;
  return p;
}

// The graph each basin drawing shows, by the drawing's id (see drawBasin).
const basinShown = {};

// A radial layout of a forest rooted on a cycle: the cycle on a circle, every other position
// one ring further out than the position its trick leads to, spread around its angle.
export function drawBasin(svgId, graph) {
  const n = graph.nodes.length;
  const next = new Array(n).fill(-1);
  const children = Array.from({ length: n }, () => []);
  for (const [a, b] of graph.edges) {
    next[a] = b;
    if (graph.nodes[a].mark !== "cycle") children[b].push(a);
  }
  const angle = new Array(n).fill(0), depth = new Array(n).fill(0);
  const cycle = graph.nodes.map((v, i) => (v.mark === "cycle" ? i : -1)).filter((i) => i >= 0);
  const leaves = (i) => (children[i].length ? children[i].reduce((s, c) => s + leaves(c), 0) : 1);
  const roots = cycle.length ? cycle : graph.nodes.map((_, i) => i).filter((i) => next[i] < 0);
  const totalLeaves = roots.reduce((s, r) => s + leaves(r), 0) || 1;
  let cursor = 0;
  const place = (i, d, from, span) => {
    angle[i] = from + span / 2;
    depth[i] = d;
    let at = from;
    for (const c of children[i]) {
      const share = (span * leaves(c)) / leaves(i);
      place(c, d + 1, at, share);
      at += share;
    }
  };
  for (const r of roots) {
    const span = (2 * Math.PI * leaves(r)) / totalLeaves;
    place(r, 0, cursor, span);
    cursor += span;
  }
  const maxDepth = Math.max(1, ...depth);
  const radius = (d) => 120 + (d / maxDepth) * 360;
  const xy = (i) => [Math.cos(angle[i]) * radius(depth[i]), Math.sin(angle[i]) * radius(depth[i])];
  let svg = "";
  for (const [a, b] of graph.edges) {
    const [x1, y1] = xy(a), [x2, y2] = xy(b);
    svg += `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="#c5cad3" stroke-width="0.7"/>`;
  }
  const fill = { cycle: "#c0392b", balanced: "#2e8b57", start: "#2f5bd3", final: "#7f8c8d", plain: "#9aa3b2" };
  const rank = { plain: 0, final: 1, start: 2, balanced: 3, cycle: 4 };
  // A position and its twin with the seats renamed (a balanced deal A/B with player 1 leading,
  // B/A with player 2 leading: the same game) lie a pixel apart: they are one node, and a
  // click on it asks which. The key is the position with the leader's stack first.
  const twinKey = (v) => {
    const stacks = v.deal.split("/");
    const k = (v.leader - 1) % stacks.length;
    return stacks.slice(k).concat(stacks.slice(0, k)).join("/");
  };
  const groups = new Map();
  graph.nodes.forEach((v, i) => {
    const key = twinKey(v);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  });
  const nodes = [...groups.values()].map((members) => {
    members.sort((a, b) => (rank[graph.nodes[b].mark] ?? 0) - (rank[graph.nodes[a].mark] ?? 0));
    return members;
  });
  // Plain positions first, so the marked ones (cycle, balanced deals) lie on top.
  nodes.sort((a, b) => (graph.nodes[a[0]].mark !== "plain") - (graph.nodes[b[0]].mark !== "plain"));
  for (const [k, members] of nodes.entries()) {
    const v = graph.nodes[members[0]];
    const [x, y] = xy(members[0]);
    const r = v.mark === "plain" && members.length === 1 ? 3 : 6;
    const twin = members.length > 1 ? ` class="twin" stroke="#1d2330" stroke-width="1.5"` : "";
    const title = members.map((i) => `${graph.nodes[i].deal}, leader ${graph.nodes[i].leader}: ${graph.nodes[i].mark}`).join("; ");
    svg += `<circle data-k="${k}" data-members="${members.length}" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" ` +
      `fill="${fill[v.mark] || "#9aa3b2"}"${twin}><title>${esc(title)}</title></circle>`;
  }
  const box = $(svgId);
  box.innerHTML = svg;
  box.removeAttribute("hidden");
  const choice = $(`${svgId}-choice`);
  choice.hidden = true;
  basinShown[svgId] = { nodes, graph, choice };
  // One listener per drawing, for whichever graph it shows now.
  if (!box.dataset.wired) {
    box.dataset.wired = "1";
    box.addEventListener("click", (ev) => basinClick(svgId, ev));
  }
}


// A click on a basin's node: that position replayed, or a choice among the renamings it stands
// for.
function basinClick(svgId, ev) {
  const k = ev.target.dataset && ev.target.dataset.k;
  if (k === undefined) return;
  const { nodes, graph, choice } = basinShown[svgId];
  const load = (v) => replay({ deal: v.deal, leader: String(v.leader), ...rulesParams() });
  const members = nodes[Number(k)].map((i) => graph.nodes[i]);
  if (members.length === 1) return load(members[0]);
  choice.textContent = `One game, ${members.length} positions (the players renamed). Replay `;
  for (const v of members) {
    const b = document.createElement("button");
    b.textContent = `${v.deal}, player ${v.leader} leading${v.mark === "balanced" ? " (a balanced deal)" : ""}`;
    b.dataset.deal = v.deal;
    b.dataset.leader = String(v.leader);
    b.addEventListener("click", () => load(v));
    choice.appendChild(b);
  }
  choice.hidden = false;
}

// ---------- records, presets, search ----------

async function loadPresets() {
  let presets;
  try {
    presets = await api("presets", {});
  } catch (e) {
    return;
  }
  const select = $("preset");
  for (const group of [["records", "Record games"], ["endless_list", "Games that never end"]]) {
    const og = document.createElement("optgroup");
    og.label = group[1];
    presets[group[0]].forEach((p) => {
      const o = document.createElement("option");
      o.value = JSON.stringify({ deal: p.deal, leader: String(p.leader) });
      o.textContent = p.name;
      og.appendChild(o);
    });
    select.appendChild(og);
  }
}

async function loadRecords() {
  const body = $("records").querySelector("tbody");
  let data;
  try {
    data = await api("records", {});
  } catch (e) {
    body.innerHTML = `<tr><td colspan="7" class="error">${esc(e.message)}</td></tr>`;
    return;
  }
  body.innerHTML = "";
  downloads("records-downloads", "records", ["year", "finder", "cards", "tricks", "winner", "deal", "leader", "verified"], data.records);
  for (const r of data.records) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td>${esc(r.year)}</td><td>${esc(r.finder)}</td><td>${r.cards}</td><td>${r.tricks}</td>` +
      `<td>${r.winner}</td><td>${r.verified ? "yes" : "NO"}</td><td><button>replay</button></td>`;
    tr.querySelector("button").addEventListener("click", () => replay({ deal: r.deal, leader: String(r.leader) }));
    body.appendChild(tr);
  }
}

let search = null;

function startSearch(ev) {
  ev.preventDefault();
  if (search) search.close();
  const params = new URLSearchParams({
    seconds: $("search-seconds").value,
    seed: $("search-seed").value,
    balanced: $("search-balanced").checked ? "true" : "false",
    stream: "true",
  });
  $("search-progress").textContent = "starting…";
  $("search-downloads").textContent = "";
  $("search-results").hidden = true;
  search = new EventSource(`/api/search?${params}`);
  search.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    $("search-progress").textContent =
      `${p.games.toLocaleString()} games, ${(p.games_per_second / 1e6).toFixed(2)} M games/s, ` +
      `best so far ${p.best_cards ?? "-"} cards (${p.elapsed_seconds.toFixed(1)} s)`;
  });
  search.addEventListener("result", (e) => {
    search.close();
    search = null;
    const r = JSON.parse(e.data);
    $("search-progress").textContent =
      `${r.games.toLocaleString()} games in ${r.elapsed_seconds.toFixed(1)} s ` +
      `(${(r.games_per_second / 1e6).toFixed(2)} M games/s, seed ${r.seed}); ${r.cycling_games} never end`;
    const body = $("search-results").querySelector("tbody");
    body.innerHTML = "";
    downloads("search-downloads", `search-seed-${r.seed}-longest`, ["cards", "tricks", "winner", "deal", "leader"], r.longest);
    for (const g of r.longest) {
      const tr = document.createElement("tr");
      tr.innerHTML = `<td>${g.cards}</td><td>${g.tricks}</td><td>${g.winner}</td><td class="deal">${esc(g.deal)}</td><td><button>replay</button></td>`;
      tr.querySelector("button").addEventListener("click", () => replay({ deal: g.deal, leader: String(g.leader) }));
      body.appendChild(tr);
    }
    $("search-results").hidden = false;
  });
  search.addEventListener("failed", (e) => {
    $("search-progress").textContent = JSON.parse(e.data).error;
    search.close();
    search = null;
  });
  search.addEventListener("error", () => {
    if (search) {
      $("search-progress").textContent += " (connection closed)";
      search.close();
      search = null;
    }
  });
}

// ---------- wiring ----------

function wire() {
  $("deal-form").addEventListener("submit", (e) => {
    e.preventDefault();
    play();
  });
  $("preset").addEventListener("change", () => {
    if (!$("preset").value) return;
    setForm(JSON.parse($("preset").value));
    play();
  });
  $("to-start").addEventListener("click", () => go(0));
  $("to-end").addEventListener("click", () => go(game.events.length));
  $("back-card").addEventListener("click", () => go(game.at - 1));
  $("fwd-card").addEventListener("click", () => go(game.at + 1));
  $("back-trick").addEventListener("click", () => toTrick(atTrickBoundary() ? trickNow() - 1 : trickNow()));
  $("fwd-trick").addEventListener("click", () => toTrick(trickNow() + 1));
  $("to-cycle").addEventListener("click", () => toTrick(game.report.preperiod.tricks));
  $("play-pause").addEventListener("click", togglePlay);
  $("speed").addEventListener("change", () => {
    if (game.timer) {
      stop();
      togglePlay();
    }
  });
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("chart").addEventListener("click", chartClick);
  $("basin-load").addEventListener("click", loadBasin);
  $("search-form").addEventListener("submit", startSearch);
}

wire();
loadPresets();
loadRecords();
const initial = Object.fromEntries(new URLSearchParams(location.search));
if (initial.deal) {
  setForm(initial);
  play(false);
}
