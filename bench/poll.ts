// Polling a benchmark server's routes: a timed GET, and the run's first page until it is indexed.
import type { BenchServer } from "./server";

export interface Page {
  total: number;
  all: number;
  progress: { running: boolean; done: number; total: number };
}

export async function get<T>(server: BenchServer, url: string): Promise<{ ms: number; body: T }> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${url}`);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as T;
  return { ms: performance.now() - t0, body };
}

/**
 * Polls the run's first page until `all` rollouts are listed and nothing runs; its time, the
 * slowest poll answered while the index ran (what the run page's table waits), and how
 * often the progress went back (done, total or done/total lower than the poll before, or done at
 * its total while running).
 */
export async function untilIndexed(server: BenchServer, run: string, all: number, limitMs: number) {
  const t0 = performance.now();
  let firstRows: number | null = null;
  let page: Page | null = null;
  let back = 0;
  let slowest = 0;
  let was: Page["progress"] | null = null;
  while (performance.now() - t0 < limitMs) {
    const poll = await get<Page>(server, `/api/runs/${run}/rollouts?limit=50`);
    page = poll.body;
    if (page.progress.running) slowest = Math.max(slowest, poll.ms);
    if (firstRows === null && page.all > 0) firstRows = performance.now() - t0;
    const p = page.progress;
    if (p.running && p.total > 0) {
      if (p.done >= p.total) back++;
      if (
        was &&
        (p.done < was.done || p.total < was.total || p.done / p.total < was.done / was.total)
      )
        back++;
      was = p;
    }
    if (page.all === all && !page.progress.running) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ms: performance.now() - t0, firstRows, page, back, slowest };
}
