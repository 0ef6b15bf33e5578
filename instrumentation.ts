// Runs once when the server starts (Next's instrumentation hook). Loads the bundled tokenizer's
// tables now: evaluating them is one synchronous ~100 ms step, which must not land on the event
// loop while the first inspector request of a run is being answered.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { o200kDecoder } = await import("@/lib/tokens/decoder");
  await o200kDecoder();
}
