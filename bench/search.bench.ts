// Text search's budgets (docs/search.md). On 10,000 rollouts of agent text in large-run's shape
// (./search-fixtures): the first index with the rollouts' text (the run names a tokenizer) against
// the same files without it (the same run.json less its tokenizer, over hard links to the same
// token files), fresh processes, page cache dropped before each (median of three pairs; target
// ≤ 1.5); the same once on large-run's random ids (printed). On 100,000 rollouts of agent text: the
// search tables' size against the decoded text's UTF-8 bytes (target ≤ 1.5), a new selective query
// on a warm server (target ≤ 100 ms, checked against the planted truth), and a word most rollouts
// hold (printed, no target).
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { LARGE_DEFAULTS, writeLargeRun } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import {
  pendingTextIn,
  SEARCH_TABLES,
  TRIGRAM_FTS,
  TRIGRAM_TABLES,
  trigramFileOf,
} from "@/lib/index";
import { dropPageCache } from "./cache";
import { runFresh } from "./fresh";
import {
  INDEX_RUN,
  PLANTED,
  planted,
  QUERY_RUN,
  rolloutIdOf,
  SEARCH_DIR,
  SEARCH_TEXT_RUN,
  searchTextRun,
  type TextRunShape,
} from "./search-fixtures";
import { startServer, type BenchServer } from "./server";
import { figure, fmt, runAlone, scratchDir } from "./util";

const INDEX_ROOT = path.join(SEARCH_DIR, "index-run");
const QUERY_ROOT = path.join(SEARCH_DIR, "query-run");

/** `<root>/<run>` again in `<root>-no-text`: run.json without a tokenizer, token files hard links. */
function runWithoutText(root: string, run: string): string {
  const from = path.join(root, run);
  const twin = `${root}-no-text`;
  const to = path.join(twin, run);
  rmSync(twin, { recursive: true, force: true });
  mkdirSync(path.join(to, "tokens"), { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(from, "run.json"), "utf8"));
  delete manifest.tokenizer;
  writeFileSync(path.join(to, "run.json"), JSON.stringify(manifest));
  for (const f of readdirSync(from))
    if (f !== "run.json" && f !== "tokens") linkSync(path.join(from, f), path.join(to, f));
  for (const f of readdirSync(path.join(from, "tokens")))
    linkSync(path.join(from, "tokens", f), path.join(to, "tokens", f));
  return twin;
}

/** Paired cold first indexes of `<root>/<run>` with its text and without: each pair's ratio. */
async function pairs(root: string, run: string, n: number, label: string): Promise<number[]> {
  const noText = runWithoutText(root, run);
  const dir = path.join(root, run, "tokens");
  const files = readdirSync(dir).map((f) => path.join(dir, f));
  const ratios: number[] = [];
  for (let k = 0; k < n; k++) {
    const without = await coldIndex(noText, run, files);
    const withText = await coldIndex(root, run, files);
    ratios.push(withText.ms / without.ms);
    const s = textSizes(withText.db);
    console.log(
      `first index, ${label} (${withText.cache}): with text ${fmt(withText.ms)} (its summaries after ${fmt(withText.summariesMs)}), without ${fmt(without.ms)}: ${(withText.ms / without.ms).toFixed(2)}×; ${(s.text / 1e6).toFixed(1)} MB of text, search tables ${(s.table / 1e6).toFixed(1)} MB (${(s.table / s.text).toFixed(2)}×)`,
    );
    // Where the text's CPU goes: every thread's (the busiest are the two store workers, then the
    // trigram worker), against what FTS5's trigram tokenizer alone takes for the same text.
    const cpu = (r: typeof without) => r.threads.map(([, sec]) => sec.toFixed(2)).join(" ");
    console.log(
      `  CPU with text ${fmt(withText.cpuMs)} (threads, s: ${cpu(withText)}), without ${fmt(without.cpuMs)} (${cpu(without)}); FTS5 alone on the same text, in memory, one transaction: ${fmt(ftsAlone(withText.db))}`,
    );
  }
  return ratios.sort((a, b) => a - b);
}

async function coldIndex(root: string, run: string, files: string[]) {
  const db = path.join(scratchDir("rollout-lens-bench-"), "i.sqlite");
  const cache = dropPageCache(files);
  const r = await runFresh<{
    ms: number;
    summariesMs: number;
    cpuMs: number;
    threads: Array<[string, number]>;
    summaries: number;
  }>({
    task: "index",
    runsRoot: root,
    run,
    db,
  });
  return { ...r, db, cache };
}

/** CPU ms FTS5's trigram tokenizer takes for the index's text (as the index configures it). */
function ftsAlone(db: string): number {
  const d = new Database(db, { readonly: true });
  const mem = new Database(":memory:");
  try {
    const texts = (
      d.prepare("SELECT body, deflated FROM search_text WHERE trigrams = 1").all() as Array<{
        body: Buffer;
        deflated: number;
      }>
    ).map((r) => (r.deflated ? inflateRawSync(r.body) : r.body));
    mem.exec(`CREATE VIRTUAL TABLE f USING ${TRIGRAM_FTS}`);
    const put = mem.prepare("INSERT INTO f (rowid, body) VALUES (?, ?)");
    const c0 = process.cpuUsage();
    mem.transaction(() => texts.forEach((t, i) => put.run(i + 1, t)))();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  } finally {
    d.close();
    mem.close();
  }
}

/**
 * The search tables' bytes on disk (dbstat: the text's in the index, the trigrams' in their file)
 * and the UTF-8 bytes of the text they hold.
 */
function textSizes(db: string): { table: number; text: number; rollouts: number } {
  const d = new Database(db, { readonly: true });
  try {
    d.prepare("ATTACH DATABASE ? AS trig").run(trigramFileOf(db));
    let table = 0;
    for (const [schema, tables] of [
      ["main", [...SEARCH_TABLES, "sqlite_autoindex_search_text_1", "search_text_dense"]],
      ["trig", TRIGRAM_TABLES],
    ] as const)
      for (const r of d
        .prepare("SELECT name, SUM(pgsize) AS s FROM dbstat(?) GROUP BY name")
        .all(schema) as Array<{ name: string; s: number }>)
        if ((tables as readonly string[]).includes(r.name)) table += r.s;
    let text = 0;
    let rollouts = 0;
    for (const r of d.prepare("SELECT body, deflated FROM search_text").iterate() as Iterable<{
      body: Buffer;
      deflated: number;
    }>) {
      text += r.deflated ? inflateRawSync(r.body).length : r.body.length;
      rollouts++;
    }
    return { table, text, rollouts };
  } finally {
    d.close();
  }
}

interface Page {
  total: number;
  all: number;
  rollouts: Array<{ rollout_id: string }>;
  progress: { running: boolean };
}

async function get(server: BenchServer, url: string): Promise<{ ms: number; body: Page }> {
  const t0 = performance.now();
  // A keep-alive socket the server closed while the bench read the database fails once: retried.
  const res = await fetch(server.url + url).catch(() => fetch(server.url + url));
  const body = (await res.json()) as Page;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms: performance.now() - t0, body };
}

async function untilIndexed(server: BenchServer, all: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const p = (await get(server, `/api/runs/${SEARCH_TEXT_RUN}/rollouts?limit=1`)).body;
    if (p.all === all && !p.progress.running) return performance.now() - t0;
    if (performance.now() - t0 > 1_800_000) throw new Error("the text run took over 30 min");
    await new Promise((r) => setTimeout(r, 500));
  }
}

const textQuery = (text: string, limit = 200) =>
  `/api/runs/${SEARCH_TEXT_RUN}/rollouts?limit=${limit}&text=${encodeURIComponent(text)}`;

export async function queries(): Promise<void> {
  await generated(QUERY_ROOT, QUERY_RUN);
  const all = QUERY_RUN.rollouts;
  const truth = new Set<string>();
  for (let i = 0; i < all; i++) if (planted(i)) truth.add(rolloutIdOf(i));
  const cache = scratchDir("rollout-lens-search-");
  const server = await startServer(QUERY_ROOT, 3196, { ROLLOUT_LENS_CACHE: cache });
  try {
    console.log(
      `text run indexed (${all} rollouts, cold server): ${fmt(await untilIndexed(server, all))}`,
    );
    const db = readdirSync(cache, { recursive: true })
      .map(String)
      .find((f) => f.endsWith(".sqlite"));
    // The trigrams follow the summaries, in slices (docs/search.md): a query before they are all
    // written checks more candidates. Timed until none waits, then the queries are warm.
    const t0 = performance.now();
    while (db && pendingTextIn(path.join(cache, db)) > 0)
      await new Promise((r) => setTimeout(r, 500));
    console.log(`trigrams indexed ${fmt(performance.now() - t0)} after the summaries`);
    if (db) {
      const s = textSizes(path.join(cache, db));
      console.log(
        `text run: ${s.rollouts} rollouts' text, ${(s.text / 1e6).toFixed(1)} MB decoded; search tables ${(s.table / 1e6).toFixed(1)} MB`,
      );
      figure(
        "search tables / decoded text (UTF-8 bytes), 100,000 rollouts of agent text",
        s.table / s.text,
        1.5,
      );
    }
    await get(server, textQuery("warm-up query"));
    // Each query is new to the server (a repeated one is served from its per-generation memo).
    const selective = [
      `"${PLANTED}"`,
      '"/var/cache/apt"',
      '"rm -rf /var"',
      "kind:generated /var/cache/apt",
    ];
    const times: number[] = [];
    for (const q of selective) {
      const r = await get(server, textQuery(q));
      const ids = r.body.rollouts.map((x) => x.rollout_id);
      if (r.body.total !== truth.size || ids.some((id) => !truth.has(id)))
        throw new Error(`${q}: ${r.body.total} rollouts, the truth is ${truth.size}`);
      times.push(r.ms);
      console.log(`query ${q}: ${fmt(r.ms)}, ${r.body.total} rollouts (truth ${truth.size})`);
    }
    const again = await get(server, textQuery(selective[0] as string));
    console.log(`the first again (memoised): ${fmt(again.ms)}`);
    figure(
      "new selective text query, 100,000 rollouts, warm server (ms, slowest of 4)",
      Math.max(...times),
      100,
      (v) => v.toFixed(0),
    );
    for (const q of ["cache", "kind:input traceback"]) {
      const r = await get(server, textQuery(q));
      console.log(
        `(no target) a query most rollouts match, ${q}: ${fmt(r.ms)}, ${r.body.total} rollouts`,
      );
    }
  } finally {
    await server.stop();
  }
}

async function generated(root: string, shape: TextRunShape): Promise<void> {
  const gen = await searchTextRun(root, shape);
  console.log(
    gen.generatedMs === null
      ? `text run of ${shape.rollouts} rollouts: reused from ${root}`
      : `text run of ${shape.rollouts} rollouts: generated in ${fmt(gen.generatedMs)} under ${root}`,
  );
}

export async function benchSearch(): Promise<void> {
  await generated(INDEX_ROOT, INDEX_RUN);
  const ratios = await pairs(INDEX_ROOT, SEARCH_TEXT_RUN, 3, "10,000 rollouts of agent text");
  figure(
    "first index with text / without, 10,000 rollouts of agent text, cold (median of 3 pairs)",
    ratios[1] as number,
    1.5,
  );
  // The same on random token ids, once: what a run of text no one writes costs (no target).
  await writeLargeRun(LARGE_DIR, LARGE_DEFAULTS.rollouts, true);
  await pairs(LARGE_DIR, "large-run", 1, "10,000 rollouts of random token ids (no target)");
  await queries();
}

runAlone("search.bench.ts", "search bench", benchSearch);
