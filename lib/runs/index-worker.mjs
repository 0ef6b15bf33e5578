// A summary-index worker: receives chunks of rollouts to summarise and posts one summary each,
// then `chunkDone`. Runs the TypeScript summariser through tsx (which resolves "@/" paths).
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { summarizeSafely } = await import("./summarize.ts");

parentPort.on("message", async (chunk) => {
  try {
    for (const input of chunk) parentPort.postMessage({ summary: await summarizeSafely(input) });
    parentPort.postMessage({ chunkDone: true });
  } catch (err) {
    parentPort.postMessage({ fatal: err instanceof Error ? err.message : String(err) });
  }
});
