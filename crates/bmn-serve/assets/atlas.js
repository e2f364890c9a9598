// bmn serve: the atlas of endless games. Every cycle of a catalogue file (`/api/catalogue`,
// the --json of `bmn census` or `bmn pieces factory`) drawn as one node, grouped by period or
// family; a cycle's basin (`/api/basin`) and its balanced deals, each replayed in the table at
// the top. An ES module: it imports app.js's helpers, and wires its events with
// addEventListener.

import {
  $, DEAL_COLUMNS, api, basinDeals, dealRows, downloads, drawBasin, esc, plural,
} from "/app.js";

const atlas = {
  tables: [], // `/api/catalogue`'s list
  table: null, // the chosen one's summary
  file: null, // its file, as it is
  cycles: [], // its catalogue, each with the keys below
  chosen: -1,
};

// A catalogue entry in one shape whichever command wrote it: both name the representative
// {deal, leader}; the census lists every deal, the factory gives one example.
function cycleOf(c, made_by) {
  const rep = c.representative;
  const found = made_by === "census" ? (c.found_by || []).join(";") : c.kind || "";
  const deals = (c.balanced_deal_list || []).map((d) => ({
    rank: d.rank, deal: d.deal, leader: 1, preperiod_tricks: d.preperiod.tricks,
    preperiod_cards: d.preperiod.cards, renamed: d.renamed,
  }));
  return {
    cycle_id: c.cycle_id, period_tricks: c.period.tricks, period_cards: c.period.cards,
    basin_positions: c.basin_positions, balanced_deals: c.balanced_deals,
    representative: rep.deal, representative_leader: rep.leader, found_by: found,
    family: familyOf(c), class: classOf(c), deals: c.balanced_deal_list ? deals : null,
  };
}

// A census entry's class (docs/census.md): its smallest hand, whether half a period swaps the
// hands, whether it is built of Casella's pieces. The factory's files do not say.
function classOf(c) {
  if (typeof c.anti_periodic !== "boolean") return "";
  const words = [`min hand ${c.min_hand}`];
  if (c.anti_periodic) words.push("anti-periodic");
  if (c.splits_at_rest_state) words.push("splits at rest states");
  return words.join(", ");
}

// Cycles built on the same frame: the census's pieces less the last (the part that varies
// between relatives), or the factory's chain of `relative_of` back to the cycle it grew from.
function familyOf(c) {
  if (Array.isArray(c.pieces) && c.pieces.length > 1) return `pieces ${c.pieces.slice(0, -1).join(" ")}`;
  if (c.relative_of) return `relatives of ${c.relative_of}`;
  if (c.kind === "new") return `relatives of ${c.cycle_id}`;
  return "no pieces";
}

async function loadAtlas() {
  try {
    atlas.tables = (await api("catalogue", {})).tables;
  } catch (e) {
    $("atlas-info").textContent = e.message;
    return;
  }
  const select = $("atlas-table");
  select.innerHTML = "";
  // Rows of a family (the road to Camicia) are listed under its heading, the rest on their own.
  const groups = new Map();
  for (const t of atlas.tables) {
    const o = document.createElement("option");
    o.value = t.table;
    o.textContent = t.group
      ? `n = ${t.n}: ${plural(t.cycles, "cycle")}, ${plural(t.balanced_deals, "endless deal")}`
      : `${t.title}: ${plural(t.cycles, "cycle")}, ${plural(t.balanced_deals, "balanced deal")}`;
    if (!t.group) {
      select.appendChild(o);
      continue;
    }
    if (!groups.has(t.group)) {
      const g = document.createElement("optgroup");
      g.label = t.group;
      groups.set(t.group, g);
      select.appendChild(g);
    }
    groups.get(t.group).appendChild(o);
  }
  if (atlas.tables.length) await openTable(atlas.tables[0].table);
}

async function openTable(name) {
  $("atlas-info").textContent = "loading…";
  let file;
  try {
    file = await api("catalogue", { table: name });
  } catch (e) {
    $("atlas-info").textContent = e.message;
    return;
  }
  atlas.table = atlas.tables.find((t) => t.table === name);
  atlas.file = file;
  atlas.cycles = file.catalogue.map((c) => cycleOf(c, atlas.table.made_by));
  atlas.chosen = -1;
  $("atlas-table").value = name;
  $("cycle-box").hidden = true;
  const t = atlas.table;
  $("atlas-info").textContent =
    `${t.deck}, ${t.players} players, from bmn ${t.made_by === "census" ? "census" : "pieces factory"} ` +
    `(${name}.json): ${plural(t.cycles, "cycle")}, ${plural(t.balanced_deals, "balanced deal")} with player 1 leading`;
  $("atlas-published").textContent = publishedText(t);
  familySteps(t);
  const columns = ["cycle_id", "period_tricks", "period_cards", "basin_positions", "balanced_deals",
    "representative", "representative_leader", "found_by", "family", "class"];
  downloads("atlas-downloads", `catalogue-${name}`, columns, atlas.cycles, file);
  cycleRows();
  drawAtlas();
}

// The tables before and after this one in its family (same players, and the same heading
// where it has one), by n: the buttons open them, so a family's rows can be read in order.
function familySteps(t) {
  const kin = atlas.tables
    .filter((o) => o.family === t.family && o.players === t.players && (!t.group || o.group === t.group))
    .sort((a, b) => a.n - b.n || a.table.localeCompare(b.table));
  const before = kin.filter((o) => o.n < t.n).pop();
  const after = kin.find((o) => o.n > t.n);
  for (const [id, other, text] of [
    // Said as the previous and next rows, so that neither reads as this row's n.
    ["atlas-prev", before, (o) => `◀ previous: n = ${o.n}`],
    ["atlas-next", after, (o) => `next: n = ${o.n} ▶`],
  ]) {
    const b = $(id);
    b.disabled = !other;
    b.dataset.table = other ? other.table : "";
    b.textContent = other ? text(other) : id === "atlas-prev" ? "◀" : "▶";
    b.title = other ? `${other.deck}: the ${id === "atlas-prev" ? "previous" : "next"} row of ${t.family}` : `no other row of ${t.family}`;
  }
}

// How this catalogue compares with an enumeration of every deal of its deck, where one exists.
function publishedText(t) {
  const p = t.published;
  if (!p) return "";
  const ours = new Map();
  for (const c of atlas.cycles) ours.set(c.period_tricks, (ours.get(c.period_tricks) || 0) + c.balanced_deals);
  // Shortest period first, as the graph draws them.
  const rows = [...p.periods].sort((a, b) => a.tricks - b.tricks).map((r) =>
    `${plural(r.tricks, "trick")}: ${plural(r.cycles, "cycle")}, ${plural(r.deals, "deal")} (here ${ours.get(r.tricks) || 0})`);
  return `Every deal of this deck has been played (${p.source}): ${p.cycling_deals} of ` +
    `${p.deals.toLocaleString("en")} never end, on ${plural(p.cycles, "cycle")}. By period: ${rows.join("; ")}. ` +
    `Hollow nodes: cycles it found that this catalogue lacks.`;
}

function cycleRows() {
  const body = $("atlas-cycles").querySelector("tbody");
  body.innerHTML = "";
  atlas.cycles.forEach((c, i) => {
    const tr = document.createElement("tr");
    tr.dataset.i = String(i);
    tr.innerHTML = `<td class="deal">${esc(c.cycle_id)}</td><td>${c.period_tricks} tricks, ${c.period_cards} cards</td>` +
      `<td>${c.basin_positions}</td><td>${c.balanced_deals}</td><td>${esc(c.found_by)}</td>` +
      `<td>${esc(c.class)}</td><td><button>open</button></td>`;
    tr.querySelector("button").addEventListener("click", () => openCycle(i));
    body.appendChild(tr);
  });
}

// Where an enumeration of every deal is published, the cycles it has that this catalogue lacks,
// as hollow nodes: what the catalogue missed, in the picture beside what it found.
function missingCycles() {
  const p = atlas.table.published;
  if (!p) return [];
  const missing = [];
  for (const r of p.periods) {
    const here = atlas.cycles.filter((c) => c.period_tricks === r.tricks);
    const deals = here.reduce((s, c) => s + c.balanced_deals, 0);
    const lacking = r.cycles - here.length;
    for (let k = 0; k < lacking; k++) {
      missing.push({ period_tricks: r.tricks, balanced_deals: Math.round((r.deals - deals) / lacking), family: "published, not here" });
    }
  }
  return missing;
}

// One node per cycle, its area the number of its balanced deals, in boxes by period or family.
function drawAtlas() {
  const by = $("atlas-group").value;
  const nodes = atlas.cycles.map((c, i) => ({ ...c, i })).concat(missingCycles());
  const groups = new Map();
  for (const n of nodes) {
    const key = by === "period" ? n.period_tricks : n.family;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(n);
  }
  const keys = [...groups.keys()].sort((a, b) => (by === "period" ? a - b : String(a).localeCompare(String(b))));
  const most = Math.max(1, ...nodes.map((n) => n.balanced_deals));
  const radius = (n) => 3 + 13 * Math.sqrt(n.balanced_deals / most);
  const graph = $("atlas-graph");
  // As wide, in units, as the graph is in pixels (up to 1000): captions stay 11 px on a phone.
  const W = Math.round(Math.min(1000, Math.max(280, graph.clientWidth || 1000)));
  const cell = 34, labelH = 18, gap = 14, charW = 5.6;
  const fit = (text) => (text.length * charW + 16 <= W ? text : `${text.slice(0, Math.floor((W - 16) / charW) - 1)}…`);
  let x = 0, y = 0, rowH = 0, svg = "";
  for (const key of keys) {
    const members = groups.get(key);
    const found = members.filter((n) => n.i !== undefined);
    const deals = found.reduce((s, n) => s + n.balanced_deals, 0);
    const lacking = members.length - found.length;
    const label = fit(`${by === "period" ? plural(key, "trick") : String(key).slice(0, 40)}: ${plural(found.length, "cycle")}, ` +
      `${plural(deals, "deal")}${lacking ? `; ${lacking} lacking` : ""}`);
    const cols = Math.min(Math.max(2, Math.ceil(Math.sqrt(members.length * 2))), Math.floor(W / cell));
    const w = Math.min(W, Math.max(cols * cell, charW * label.length + 16)), h = labelH + Math.ceil(members.length / cols) * cell;
    if (x > 0 && x + w > W) {
      x = 0;
      y += rowH + gap;
      rowH = 0;
    }
    svg += `<rect x="${x}" y="${y}" width="${w - 4}" height="${h}" rx="4" fill="#f7f8fb" stroke="#e3e6ec"/>` +
      `<text x="${x + 4}" y="${y + 13}" font-size="11" fill="#667085">${esc(label)}</text>`;
    members.forEach((n, k) => {
      const cx = x + (k % cols) * cell + cell / 2, cy = y + labelH + Math.floor(k / cols) * cell + cell / 2;
      const r = radius(n).toFixed(1);
      if (n.i === undefined) {
        svg += `<circle class="missing" cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#9aa3b2" stroke-dasharray="3 2">` +
          `<title>a cycle of ${n.period_tricks} tricks that the published enumeration found and this catalogue lacks (about ${n.balanced_deals} deals)</title></circle>`;
        return;
      }
      const fill = n.i === atlas.chosen ? "#c0392b" : n.balanced_deals > 0 ? "#2e8b57" : "#9aa3b2";
      svg += `<circle data-i="${n.i}" cx="${cx}" cy="${cy}" r="${r}" fill="${fill}">` +
        `<title>${esc(n.cycle_id)}: period ${n.period_tricks} tricks, ${n.period_cards} cards; ` +
        `basin ${n.basin_positions}; ${n.balanced_deals} balanced deals</title></circle>`;
    });
    x += w + gap;
    rowH = Math.max(rowH, h);
  }
  graph.setAttribute("viewBox", `0 0 ${W} ${Math.max(60, y + rowH + 2)}`);
  graph.innerHTML = svg;
}

async function openCycle(i) {
  atlas.chosen = i;
  drawAtlas();
  for (const tr of $("atlas-cycles").querySelectorAll("tbody tr")) tr.classList.toggle("chosen", tr.dataset.i === String(i));
  const c = atlas.cycles[i];
  const t = atlas.table;
  $("cycle-box").hidden = false;
  $("cycle-title").textContent = `Cycle ${c.cycle_id}: period ${c.period_tricks} tricks, ${c.period_cards} cards`;
  $("cycle-about").textContent = "searching backward…";
  $("cycle-deals").querySelector("tbody").innerHTML = "";
  $("cycle-downloads").textContent = "";
  let b;
  try {
    // A catalogue's basins hold under its own rules.
    const rules = { penalties: t.penalties, on_empty: t.on_empty };
    b = await api("basin", { deal: c.representative, leader: c.representative_leader, graph: "true", ...rules });
  } catch (e) {
    $("cycle-about").textContent = e.message;
    return;
  }
  if (atlas.chosen !== i) return; // another cycle was opened meanwhile
  // The census lists every deal with its preperiod; the factory counts them, so its deals are
  // the basin's (the same deals: those of the basin with player 1 leading).
  const deals = c.deals || basinDeals(b);
  $("cycle-about").textContent =
    `representative ${c.representative} (player ${c.representative_leader} leads); basin ${plural(b.positions, "position")}` +
    `${b.complete ? "" : " (cut short)"}; ${plural(deals.length, "balanced deal")} with player 1 leading` +
    (c.found_by ? `; found by ${c.found_by}` : "") + (c.class ? `; class: ${c.class}` : "");
  drawBasin("cycle-basin", b.graph);
  dealRows($("cycle-deals").querySelector("tbody"), deals, t.deck, t.players);
  downloads("cycle-downloads", `cycle-${c.cycle_id}-deals`, DEAL_COLUMNS, deals);
}

$("atlas-table").addEventListener("change", () => openTable($("atlas-table").value));
for (const id of ["atlas-prev", "atlas-next"]) {
  $(id).addEventListener("click", () => $(id).dataset.table && openTable($(id).dataset.table));
}
$("atlas-group").addEventListener("change", drawAtlas);
// The graph's units follow its width in pixels: draw it again when the window changes.
let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => atlas.table && drawAtlas(), 150);
});
$("atlas-graph").addEventListener("click", (ev) => {
  const i = ev.target.dataset && ev.target.dataset.i;
  if (i !== undefined) openCycle(Number(i));
});
loadAtlas();
