// A summary-index worker thread, run as dist/index-worker.mjs (bundled by scripts/build-node.mjs):
// receives chunks of rollouts to summarise and posts one summary each, then `chunkDone`. A failure
// outside one rollout's summary is posted as `fatal`; the pool then finishes the chunk inline.
import "server-only";
import { parentPort } from "node:worker_threads";
import { summarizeSafely, type SummarizeInput } from "./summarize";

const port = parentPort;
if (!port) throw new Error("index-worker runs only as a worker thread of the summary index");

port.on("message", async (chunk: SummarizeInput[]) => {
  try {
    for (const input of chunk) port.postMessage({ summary: await summarizeSafely(input) });
    port.postMessage({ chunkDone: true });
  } catch (err) {
    port.postMessage({ fatal: err instanceof Error ? err.message : String(err) });
  }
});
