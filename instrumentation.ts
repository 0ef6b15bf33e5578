// Runs once when the server starts (Next's instrumentation hook): bounds the growth of every heap
// of the process (lib/store/io/heap), then readies the inspector's first cold build
// (lib/inspect/model-pool warmInspector): a store worker started and the bundled tokenizer's
// tables loaded, one synchronous ~100 ms step that must not land on the event loop while the
// first inspector request is answered. A failure here only costs that head start.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Every heap of the server grows at most half past what it keeps (lib/store/io/heap).
  const { boundHeapGrowth } = await import("@/lib/store");
  boundHeapGrowth();
  // ICU's number formatting loads its locale data on first use (10 ms, about 50 ms from a cold
  // disk): paid here, not by the first page's render of its counts.
  (1234.5).toLocaleString("en-US", { maximumFractionDigits: 1 });
  // The run's health is computed as its index ends (lib/health settleHealth, registered on load):
  // loaded here, an index that a table route starts computes it too.
  await import("@/lib/health").catch(() => undefined);
  try {
    const { warmInspector } = await import("@/lib/inspect/model-pool");
    await warmInspector();
  } catch (err) {
    console.warn(`rollout-lens: could not warm the inspector at start: ${String(err)}`);
  }
}
