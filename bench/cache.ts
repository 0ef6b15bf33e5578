// What "cold" means here, stated with every cold figure: the OS page cache is dropped before the
// measurement (root: /proc/sys/vm/drop_caches; otherwise each file is evicted with
// posix_fadvise(DONTNEED) through `dd iflag=nocache`), and `fincore` then reports how much of the
// files is still resident, so a failed drop is visible. Fresh processes are the caller's part.
import { execFileSync, execSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { mb } from "./util";

function residentBytes(files: string[]): number {
  let sum = 0;
  for (let i = 0; i < files.length; i += 500) {
    const out = execFileSync(
      "fincore",
      ["--bytes", "--noheadings", "--raw", "--output", "RES", ...files.slice(i, i + 500)],
      { encoding: "utf8" },
    );
    for (const l of out.split("\n")) if (l.trim()) sum += Number(l.trim());
  }
  return sum;
}

/** Page-cache residency of `files` as "X MB of Y MB resident (fincore)", or why it is unknown. */
export function residency(files: string[]): string {
  const size = files.reduce((n, f) => n + statSync(f).size, 0);
  try {
    return `${mb(residentBytes(files))} of ${mb(size)} resident (fincore)`;
  } catch (e) {
    return `residency unknown: fincore failed (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`;
  }
}

/** Drops `files` from the page cache; returns how, and what fincore sees afterwards. */
export function dropPageCache(files: string[]): string {
  let how: string;
  try {
    execSync("sync");
    writeFileSync("/proc/sys/vm/drop_caches", "1");
    how = "page cache dropped (echo 1 > /proc/sys/vm/drop_caches)";
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    try {
      for (const f of files)
        execFileSync("dd", [`if=${f}`, "iflag=nocache", "count=0", "status=none"]);
      how = `drop_caches refused (${why}); files evicted with posix_fadvise(DONTNEED) (dd iflag=nocache)`;
    } catch (e2) {
      how = `could not drop the page cache (${why}; dd: ${e2 instanceof Error ? e2.message.split("\n")[0] : String(e2)})`;
    }
  }
  return `${how}; ${residency(files)}`;
}
