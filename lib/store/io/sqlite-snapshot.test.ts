import Database from "better-sqlite3";
import { mkdirSync, readdirSync, truncateSync, writeFileSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprintDir, tempStore } from "@/lib/testing/temp-store";
import { withSqliteSnapshot, SQLITE_SNAPSHOT_MAX_BYTES } from "./sqlite-snapshot";

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

/** A WAL database whose table `t` holds 1..n, all of them only in its -wal, its writer open. */
function liveWal(dir: string, n: number): Database.Database {
  const w = new Database(path.join(dir, "live.db"));
  open.push(w);
  w.pragma("journal_mode = WAL");
  w.pragma("wal_autocheckpoint = 0");
  w.exec("CREATE TABLE t (x INTEGER)");
  w.pragma("wal_checkpoint(TRUNCATE)");
  const insert = w.prepare("INSERT INTO t VALUES (?)");
  for (let i = 1; i <= n; i++) insert.run(i);
  return w;
}

const countOf = (db: Database.Database) =>
  db.prepare("SELECT count(*) FROM t").pluck().get() as number;

const snapshotDirs = () =>
  readdirSync(os.tmpdir()).filter((n) => n.startsWith("rollout-lens-sqlite-"));

describe("withSqliteSnapshot", () => {
  it("sees rows only the -wal holds under a live writer, and changes no file beside it", async () => {
    const dir = tempStore({});
    liveWal(dir, 3);
    const before = fingerprintDir(dir);
    expect(Object.keys(before).sort()).toEqual(["live.db", "live.db-shm", "live.db-wal"]);
    const tmpBefore = snapshotDirs();

    const n = await withSqliteSnapshot(path.join(dir, "live.db"), 1 << 20, countOf);

    expect(n).toBe(3);
    expect(fingerprintDir(dir)).toEqual(before);
    expect(snapshotDirs()).toEqual(tmpBefore);
  });

  it("reads what is committed while the writer holds BEGIN EXCLUSIVE with rows not yet committed", async () => {
    const dir = tempStore({});
    const w = liveWal(dir, 2);
    w.exec("BEGIN EXCLUSIVE");
    w.prepare("INSERT INTO t VALUES (99)").run();
    const before = fingerprintDir(dir);

    const n = await withSqliteSnapshot(path.join(dir, "live.db"), 1 << 20, countOf);

    expect(n).toBe(2);
    expect(fingerprintDir(dir)).toEqual(before);
    w.exec("ROLLBACK");
  });

  it("reads a WAL database whose writer keeps it in exclusive locking mode (no -shm)", async () => {
    const dir = tempStore({});
    const w = new Database(path.join(dir, "x.db"));
    open.push(w);
    w.pragma("locking_mode = EXCLUSIVE");
    w.pragma("journal_mode = WAL");
    w.pragma("wal_autocheckpoint = 0");
    w.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3), (4);");
    const before = fingerprintDir(dir);
    expect(Object.keys(before).sort()).toEqual(["x.db", "x.db-wal"]);

    expect(await withSqliteSnapshot(path.join(dir, "x.db"), 1 << 20, countOf)).toBe(4);
    expect(fingerprintDir(dir)).toEqual(before);
  });

  it("reads a rollback-journal database mid-transaction (its -journal hot), changing nothing", async () => {
    const dir = tempStore({});
    const w = new Database(path.join(dir, "j.db"));
    open.push(w);
    w.pragma("journal_mode = DELETE");
    w.exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);");
    // A transaction big enough to spill pages into the database file before it commits.
    w.pragma("cache_size = 1");
    w.exec("BEGIN EXCLUSIVE");
    const insert = w.prepare("INSERT INTO t VALUES (?)");
    for (let i = 0; i < 5000; i++) insert.run(1000 + i);
    const before = fingerprintDir(dir);
    expect(Object.keys(before).sort()).toEqual(["j.db", "j.db-journal"]);

    // The copy's hot journal is rolled back: only the two committed rows.
    expect(await withSqliteSnapshot(path.join(dir, "j.db"), 1 << 24, countOf)).toBe(2);
    expect(fingerprintDir(dir)).toEqual(before);
    w.exec("ROLLBACK");
  });

  it("gives the copy read-only to the caller", async () => {
    const dir = tempStore({});
    liveWal(dir, 1);
    await expect(
      withSqliteSnapshot(path.join(dir, "live.db"), 1 << 20, (db) => db.exec("DELETE FROM t")),
    ).rejects.toThrow(/^live\.db: attempt to write a readonly database \(SQLITE_READONLY\)/);
  });

  it("removes the copy when the caller throws, and passes its error on", async () => {
    const dir = tempStore({});
    liveWal(dir, 1);
    const tmpBefore = snapshotDirs();
    await expect(
      withSqliteSnapshot(path.join(dir, "live.db"), 1 << 20, () => {
        throw new Error("caller's own");
      }),
    ).rejects.toThrow("caller's own");
    expect(snapshotDirs()).toEqual(tmpBefore);
  });

  it("gives consistent snapshots while a writer commits and checkpoints in another thread", async () => {
    const dir = tempStore({});
    const file = path.join(dir, "busy.db");
    const setup = new Database(file);
    setup.pragma("journal_mode = WAL");
    setup.exec(
      "CREATE TABLE t (i INTEGER, pad TEXT); CREATE TABLE c (n INTEGER); INSERT INTO c VALUES (0);",
    );
    setup.close();
    // Each transaction adds a row to t and counts it in c: a torn copy breaks count(t) = c.n.
    const writer = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       const db = new (require(workerData.sqlite))(workerData.file);
       db.pragma("wal_autocheckpoint = 100");
       const add = db.transaction((i) => {
         db.prepare("INSERT INTO t VALUES (?, ?)").run(i, "x".repeat(500));
         db.prepare("UPDATE c SET n = n + 1").run();
       });
       const pause = new Int32Array(new SharedArrayBuffer(4));
       let i = 0;
       for (const end = Date.now() + workerData.ms; Date.now() < end; ) {
         add(i++);
         if (i % 20 === 0) Atomics.wait(pause, 0, 0, 1);
         if (i % 400 === 0) db.pragma("wal_checkpoint(RESTART)");
       }
       db.close();
       parentPort.postMessage(i);`,
      { eval: true, workerData: { file, ms: 1500, sqlite: require.resolve("better-sqlite3") } },
    );
    const done = new Promise<number>((resolve, reject) => {
      writer.once("message", resolve);
      writer.once("error", reject);
    });
    let finished = false;
    void done.then(() => (finished = true));
    const seen: number[] = [];
    let busy = 0;
    while (!finished) {
      try {
        const [check, rows, counted] = await withSqliteSnapshot(file, 1 << 28, (db) => [
          db.pragma("integrity_check", { simple: true }),
          countOf(db),
          db.prepare("SELECT n FROM c").pluck().get(),
        ]);
        expect([check, rows]).toEqual(["ok", counted]);
        seen.push(rows as number);
      } catch (err) {
        // Copies that kept colliding with checkpoints are refused, never read torn.
        expect((err as Error).message).toMatch(/^busy\.db: changed while it was copied/);
        busy++;
      }
    }
    const written = await done;
    expect(seen.length).toBeGreaterThan(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    console.log(
      `sqlite-snapshot: ${seen.length} snapshots consistent, ${busy} refused as busy, ${written} transactions`,
    );
  });

  describe("refuses, naming the file", () => {
    const good = () => {
      const dir = tempStore({});
      const db = new Database(path.join(dir, "good.db"));
      db.exec("CREATE TABLE t (x INTEGER)");
      const insert = db.prepare("INSERT INTO t VALUES (?)");
      db.transaction(() => {
        for (let i = 0; i < 20_000; i++) insert.run(i);
      })();
      db.close();
      return path.join(dir, "good.db");
    };

    it("an empty file", async () => {
      const file = path.join(tempStore({ "empty.db": "" }), "empty.db");
      await expect(withSqliteSnapshot(file, 1 << 20, countOf)).rejects.toThrow(
        "empty.db: an empty file (0 bytes), not an SQLite database yet",
      );
    });

    it("random bytes, in SQLite's words", async () => {
      const bytes = Buffer.alloc(8192);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 251;
      const file = path.join(tempStore({ "noise.db": bytes }), "noise.db");
      await expect(withSqliteSnapshot(file, 1 << 20, countOf)).rejects.toThrow(
        "noise.db: file is not a database (SQLITE_NOTADB)",
      );
    });

    it("a database cut in half, when a read reaches the missing pages", async () => {
      const file = good();
      truncateSync(file, Math.floor(readFileSync(file).length / 2));
      await expect(withSqliteSnapshot(file, 1 << 24, countOf)).rejects.toThrow(
        /^good\.db: database disk image is malformed \(SQLITE_CORRUPT\)/,
      );
    });

    it("a database whose header is overwritten", async () => {
      const file = good();
      const bytes = readFileSync(file);
      bytes.fill(0x41, 0, 100);
      writeFileSync(file, bytes);
      await expect(withSqliteSnapshot(file, 1 << 24, countOf)).rejects.toThrow(
        "good.db: file is not a database (SQLITE_NOTADB)",
      );
    });

    it("a directory named like a database", async () => {
      const dir = tempStore({});
      mkdirSync(path.join(dir, "x.db"));
      await expect(withSqliteSnapshot(path.join(dir, "x.db"), 1 << 20, countOf)).rejects.toThrow(
        "x.db: a directory, not a regular file; refused",
      );
    });

    it("a file over the cap, counting its -wal", async () => {
      const dir = tempStore({});
      liveWal(dir, 2000);
      await expect(
        withSqliteSnapshot(path.join(dir, "live.db"), 16 * 1024, countOf),
      ).rejects.toThrow("live.db: larger than 16384 bytes with its WAL; not read");
      expect(SQLITE_SNAPSHOT_MAX_BYTES).toBe(2 * 1024 ** 3);
    });

    it("a missing file, as ENOENT", async () => {
      const file = path.join(tempStore({}), "gone.db");
      await expect(withSqliteSnapshot(file, 1 << 20, countOf)).rejects.toMatchObject({
        code: "ENOENT",
      });
    });
  });
});
