// The season's standings, its divisions and the weeks played, drawn from the
// season Python answered (season.js draws them after every step). Every
// number is Python's; the tables only place them.
//
// On a 360px phone the standings keep each player's columns together under
// the player's whole name, which wraps rather than being cut, and the
// columns' words break where a soft hyphen lets them.

import { el } from "./dom.js";

/** @typedef {import("./season.js").Season} Season */
/** @typedef {import("./season.js").SeasonWords} SeasonWords */

// The standings' counts: their heading and their key in each week's totals (`${player}_${key}`); a soft
// hyphen (U+00AD) where a narrow column may break the word.
const COUNTS = [["Suc\u00adcess\u00ades", "successes"], ["Train\u00adwrecks", "trainwrecks"]];
const POINTS = ["Points", "points"];

/** The running totals after each week, each player's counts side by side under the player's name.
 * @param {Season} state @param {SeasonWords} words @param {Record<string, string>} names */
export function standingsTable(state, words, names) {
  if (!state.standings.length) return el("p", { class: "season-note", text: "No Weekend yet: enter the first one below." });
  const counts = state.settings.goal === "championship" ? [...COUNTS, POINTS] : COUNTS;
  const head1 = el("tr", {}, el("th", { scope: "col", rowspan: 2, text: "Week" }),
    ...words.players.map((p) => el("th", { scope: "colgroup", colspan: counts.length, class: "season-name season-player-start", text: names[p] })));
  const head2 = el("tr", {}, ...words.players.flatMap((p) => counts.map(([label], i) => el("th", { scope: "col", class: i ? null : "season-player-start", text: label }))));
  const body = state.standings.map((s) => el("tr", { "data-week": s.week }, el("th", { scope: "row", text: s.week }),
    ...words.players.flatMap((p) => counts.map(([, key], i) => el("td", { "data-key": `${p}_${key}`, class: i ? null : "season-player-start", text: String(/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (s))[`${p}_${key}`]) })))));
  return el("div", { class: "season-scroll" }, el("table", { class: "season-standings" },
    el("caption", { text: `After each week (running totals; ${state.settings.trainwreck_limit} Trainwrecks lose at once)` }),
    el("thead", {}, head1, head2), el("tbody", {}, ...body)));
}

/** The duelists left in each player's Roster by division, and the champions in a Championship game.
 * @param {Season} state @param {SeasonWords} words @param {Record<string, string>} names */
export function divisionsTable(state, words, names) {
  const championship = state.settings.goal === "championship";
  const pools = words.players.some((p) => state.players[p].nom_pool.length);
  if (!pools) return el("p", { class: "season-note", text: "Enter the Nom Pools under Players and decks to follow each Roster and who runs out of a division." });
  /** @param {string} p @param {string} d */
  const cell = (p, d) => {
    const pool = state.players[p].nom_pool;
    if (!pool.length) return el("td", { text: "no Nom Pool" });
    const left = pool.filter((e) => e.division === d && e.discarded == null).length;
    const out = state.run_out[p][d];
    const text = out == null ? `${left} left` : out ? `run out (week ${out})` : "none in the Nom Pool";
    return el("td", { "data-key": `${p}_${d}`, class: out != null ? "season-out" : null, text });
  };
  const rows = words.divisions.map(([d, label]) => {
    const champ = state.champions[d];
    return el("tr", {}, el("th", { scope: "row", text: label }), ...words.players.map((p) => cell(p, d)),
      ...(championship ? [el("td", { "data-key": `champion_${d}`, text: champ ? `${names[champ.player]} (${words.points[d]})` : "—" })] : []));
  });
  return el("div", { class: "season-scroll" }, el("table", { class: "season-divisions" },
    el("caption", { text: championship ? "Divisions: duelists left in each Roster, and the champions" : "Divisions: duelists left in each Roster" }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Division" }), ...words.players.map((p) => el("th", { scope: "col", class: "season-name", text: names[p] })),
      ...(championship ? [el("th", { scope: "col", text: "Champion (points)" })] : []))),
    el("tbody", {}, ...rows)));
}

/** Each Weekend entered, folded under its headline (the last one open), or a note that none is.
 * @param {Season} state @returns {HTMLElement[]} */
export function weeksPlayed(state) {
  const entries = state.log.filter((e) => e.action.do === "weekend");
  if (!entries.length) return [el("p", { class: "season-note", text: "None yet." })];
  return entries.map((entry, i) => el("details", { class: "season-week", open: i === entries.length - 1, "data-week": i + 1 },
    el("summary", { text: entry.headline }),
    el("ul", {}, ...entry.details.map((d) => el("li", { text: d })))));
}
