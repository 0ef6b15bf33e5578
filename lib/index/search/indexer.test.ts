// The trigram worker's job, run here on its own connection as the worker runs it: it writes the
// trigrams of every row the summaries' connection wrote without them, into the trigram file only,
// and a query's candidates are then exactly the rows holding the text (the planted texts below are
// the truth).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { IndexedText } from "@/lib/rollout";
import { summaryOf } from "@/lib/testing/summary";
import { parseRolloutQuery } from "../query";
import { SummaryRows } from "../rows";
import { countMatching, pageRows } from "../sql";
import { runSearchJob } from "./indexer";
import {
  openSearch,
  pendingTextCount,
  trigramFileOf,
  trigramsDone,
  writeSearchText,
} from "./store";

const textOf = (s: string): IndexedText => {
  const bytes = Buffer.from(s, "utf8");
  return {
    body: deflateRawSync(bytes),
    deflated: true,
    bytes: bytes.length,
    segs: JSON.stringify([["g", "c0", 0, 1, 0]]),
    trigrams: true,
  };
};

/** An index database as the summaries' connection opens it (the search tables, the trigram file). */
function opened(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
  db.exec("CREATE TABLE IF NOT EXISTS summaries (id TEXT PRIMARY KEY)");
  openSearch(db, trigramFileOf(file));
  return db;
}

const newFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "lens-indexer-")), "i.sqlite");

describe("the trigram worker's job", () => {
  it("indexes, from its own connection, every row written without trigrams", () => {
    const file = newFile();
    const db = opened(file);
    const planted = new Set<string>();
    db.transaction(() => {
      for (let i = 0; i < 300; i++) {
        const id = `r${i}`;
        const hit = i % 37 === 5;
        if (hit) planted.add(id);
        const body = `step ${i}: ${hit ? "rm -rf /var/cache/apt then " : ""}测试 全部通过 ${i * 7}`;
        writeSearchText(db, id, textOf(body));
      }
    })();
    expect(pendingTextCount(db)).toBe(300);
    let turns = 0;
    while (runSearchJob({ kind: "index-text", file }).more) turns++;
    expect(turns).toBeLessThan(10);
    expect(pendingTextCount(db)).toBe(0);
    const match = (q: string) =>
      (
        db
          .prepare(
            "SELECT t.id FROM trig.search_fts f JOIN search_text t ON t.rid = f.rowid WHERE search_fts MATCH ?",
          )
          .pluck()
          .all(q) as string[]
      ).sort();
    expect(match('"/va" AND "var" AND "ar/" AND "r/c" AND "/ca" AND "cac"')).toEqual(
      [...planted].sort(),
    );
    expect(match('"测试 "')).toHaveLength(300);
    db.close();
  });

  it("replaces a rollout's text whether its trigrams were written or still wait, raw or deflated", () => {
    const file = newFile();
    const db = opened(file);
    // Long text is kept raw; the first two rows' trigrams are written before they are replaced.
    const long = (word: string) => ({ ...textOf(`${word} `.repeat(1000)), deflated: false });
    const raw = (t: IndexedText): IndexedText => ({ ...t, body: inflateRawSync(t.body) });
    writeSearchText(db, "a", raw(long("alpha")));
    writeSearchText(db, "b", textOf("bravo bravo"));
    while (runSearchJob({ kind: "index-text", file }).more);
    writeSearchText(db, "c", textOf("charlie charlie"));
    db.transaction(() => {
      writeSearchText(db, "a", textOf("delta delta"));
      writeSearchText(db, "b", raw(long("echo")));
      writeSearchText(db, "c", textOf("foxtrot foxtrot"));
    })();
    expect(pendingTextCount(db)).toBe(3);
    while (runSearchJob({ kind: "index-text", file }).more);
    const ids = (q: string) =>
      db
        .prepare(
          "SELECT t.id FROM trig.search_fts f JOIN search_text t ON t.rid = f.rowid WHERE search_fts MATCH ?",
        )
        .pluck()
        .all(q);
    for (const [q, id] of [
      ["alp", []],
      ["bra", []],
      ["cha", []],
      ["del", ["a"]],
      ["ech", ["b"]],
      ["fox", ["c"]],
    ] as const)
      expect(ids(q), q).toEqual(id);
    // The trigram index holds exactly the three rows' rowids: nothing left of the replaced ones.
    expect(
      db
        .prepare(
          "SELECT COUNT(*) FROM trig.search_fts WHERE search_fts MATCH 'lta OR cho OR rot OR pha OR avo OR rli'",
        )
        .pluck()
        .get(),
    ).toBe(3);
    expect(db.prepare("SELECT COUNT(*) FROM search_text").pluck().get()).toBe(3);
    db.close();
  });

  it("never waits on the summaries' write lock, and the summaries never wait on it", () => {
    const file = newFile();
    const db = opened(file);
    writeSearchText(db, "a", textOf("alpha words here"));
    // Another connection holds the index's write lock (a summaries write that has not committed):
    // the job reads the index and writes only the trigram file, so it neither waits nor fails.
    const writer = new Database(file);
    writer.exec("BEGIN IMMEDIATE; INSERT INTO meta (k, v) VALUES ('held', '1')");
    let t0 = performance.now();
    while (runSearchJob({ kind: "index-text", file }).more);
    expect(performance.now() - t0).toBeLessThan(2000); // its busy timeout is 10 s
    writer.exec("ROLLBACK");
    expect(pendingTextCount(db)).toBe(0);
    // The trigram file's write lock held (the worker mid-transaction, however long it is starved):
    // the summaries' connection writes text at once.
    const trig = new Database(trigramFileOf(file));
    trig.exec("BEGIN IMMEDIATE; UPDATE search_state SET v = v WHERE k = 'done'");
    t0 = performance.now();
    db.transaction(() => writeSearchText(db, "b", textOf("bravo words here")))();
    expect(performance.now() - t0).toBeLessThan(1000); // its busy timeout is 5 s
    trig.exec("ROLLBACK");
    trig.close();
    writer.close();
    db.close();
  });

  it("writes the trigrams again for a rebuilt index, and moves a damaged trigram file aside", () => {
    const file = newFile();
    let db = opened(file);
    writeSearchText(db, "a", textOf("alpha words here"));
    while (runSearchJob({ kind: "index-text", file }).more);
    expect(trigramsDone(db)).not.toBeNull();
    // A new epoch (the index rebuilt): its trigrams are not trusted until written again.
    db.prepare("UPDATE meta SET v = 'another' WHERE k = 'search_epoch'").run();
    expect(trigramsDone(db)).toBeNull();
    expect(pendingTextCount(db)).toBe(1);
    while (runSearchJob({ kind: "index-text", file }).more);
    expect(pendingTextCount(db)).toBe(0);
    db.close();
    // Garbage for a trigram file: the index opens and is queried without it, the job rewrites it.
    writeFileSync(trigramFileOf(file), Buffer.alloc(8192, 7));
    for (const side of ["-wal", "-shm"]) rmSync(trigramFileOf(file) + side, { force: true });
    db = opened(file);
    expect(trigramsDone(db)).toBeNull();
    db.close();
    while (runSearchJob({ kind: "index-text", file }).more);
    expect(readFileSync(`${trigramFileOf(file)}.damaged`)).toEqual(Buffer.alloc(8192, 7));
    db = opened(file);
    expect(pendingTextCount(db)).toBe(0);
    const ids = db
      .prepare(
        "SELECT t.id FROM trig.search_fts f JOIN search_text t ON t.rid = f.rowid WHERE search_fts MATCH 'alp'",
      )
      .pluck()
      .all();
    expect(ids).toEqual(["a"]);
    db.close();
  });

  it("answers exactly over a trigram file whose pages went bad, and writes it again", async () => {
    const file = newFile();
    const rows = new SummaryRows(file);
    await rows.open(async () => null);
    const planted = ["r3", "r17", "r29"];
    rows.write(
      Array.from({ length: 40 }, (_, i) => {
        const id = `r${i}`;
        const body = `${planted.includes(id) ? "Segmentation fault in " : ""}worker ${i} `.repeat(
          20,
        );
        return {
          summary: { ...summaryOf({ rollout_id: id }), search_text: textOf(body) },
          key: "k",
        };
      }),
    );
    while (runSearchJob({ kind: "index-text", file }).more);
    const q = parseRolloutQuery(new URLSearchParams({ text: '"segmentation fault"' }));
    const facts = { policy_model: null, capture_expected: false };
    expect(countMatching(rows, q, facts)).toBe(3);
    rows.close();
    // The trigram data's pages overwritten (its state still reads), the WAL checkpointed first.
    const trig = new Database(trigramFileOf(file));
    trig.pragma("wal_checkpoint(TRUNCATE)");
    const pages = trig
      .prepare("SELECT pageno FROM dbstat WHERE name = 'search_fts_data'")
      .pluck()
      .all() as number[];
    const size = trig.pragma("page_size", { simple: true }) as number;
    trig.close();
    const bytes = readFileSync(trigramFileOf(file));
    for (const n of pages) bytes.fill(0x55, (n - 1) * size, n * size);
    writeFileSync(trigramFileOf(file), bytes);
    expect(trigramsDone(rows.handle)).not.toBeNull(); // narrowed: the data's pages are read
    expect(countMatching(rows, q, facts)).toBe(3);
    expect(pageRows(rows, q, facts, 0, 10).map((r) => r.rollout_id)).toEqual(planted);
    expect(rows.takeDamage()).toBeNull(); // the summaries' index is not rebuilt for it
    rows.close();
    while (runSearchJob({ kind: "index-text", file }).more);
    expect(readFileSync(`${trigramFileOf(file)}.damaged`).length).toBe(bytes.length);
    expect(pendingTextCount(rows.handle)).toBe(0);
    expect(countMatching(rows, q, facts)).toBe(3);
    rows.close();
  });
});
