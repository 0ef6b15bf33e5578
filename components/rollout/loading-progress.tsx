"use client";
// The inspector's frame while the rollout's page is on its way (held by the segment layout, rollout-shell): the
// crumbs, a verdict area that says "Loading…" (never a verdict or a count it does not have yet) and
// a bar of the build's progress, polled from the progress route: bytes read of the rollout's files
// on a cold build, then the deciding and decoding phases.
import Link from "next/link";
import { useEffect, useState } from "react";
import { type BuildProgress, API } from "@/lib/schema";
import { getApi } from "@/components/shared/api";

const POLL_MS = 250;

export function LoadingProgress({ run, rollout }: { run: string; rollout: string }) {
  const progress = useBuildProgress(run, rollout);
  return (
    <div data-testid="rollout-loading" aria-busy="true">
      <p className="crumbs">
        <Link href="/">runs</Link> / <Link href={`/runs/${encodeURIComponent(run)}`}>{run}</Link> /{" "}
        <span className="mono">{rollout}</span>
      </p>
      <section className="card verdict-bar">
        <div className="verdict-main">
          <span className="badge big sev-pending" data-testid="loading-verdict">
            Loading…
          </span>
        </div>
        <ProgressBar progress={progress} />
      </section>
    </div>
  );
}

/** The build's progress, polled until this frame goes away (the page has arrived) or the route fails. */
function useBuildProgress(run: string, rollout: string): BuildProgress | { error: string } | null {
  const [progress, setProgress] = useState<BuildProgress | { error: string } | null>(null);
  useEffect(() => {
    // Once the page has arrived, a poll still in flight is let finish and its answer dropped: it is
    // a few bytes, and aborting it would log a failed request on every page that streamed in.
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The profile decides which build the page waits for; the frame reads it once, as the page does.
    const profile = new URLSearchParams(window.location.search).get("profile");
    const poll = () =>
      getApi(API.progress, { run, rollout }, { profile }).then(
        (p) => {
          if (stopped) return;
          setProgress(p);
          timer = setTimeout(poll, POLL_MS);
        },
        (err: unknown) =>
          !stopped && setProgress({ error: err instanceof Error ? err.message : String(err) }),
      );
    // The first poll waits a task: on a direct load of a built rollout the page arrives in the same
    // HTML, and its PageArrived unmounts this frame within the task that hydrated it, so the poll
    // never starts (rather than starting on every load only to be dropped).
    timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [run, rollout]);
  return progress;
}

/** A byte count as a reader says it: kB under a megabyte (a small rollout is not "0 MB"). */
const mb = (bytes: number) =>
  bytes < 1e6
    ? `${Math.max(1, Math.round(bytes / 1e3)).toLocaleString("en-US")} kB`
    : `${(bytes / 1e6).toLocaleString("en-US", { maximumFractionDigits: bytes < 10e6 ? 1 : 0 })} MB`;

/** The bar and its words: determinate while the files are read, full afterwards. */
function ProgressBar({ progress }: { progress: BuildProgress | { error: string } | null }) {
  let words: string;
  let bar: { value: number; max: number } | null = null;
  if (progress === null) words = "Opening the rollout…";
  else if ("error" in progress) words = `Progress unavailable: ${progress.error}`;
  else if (progress.state === "ready") words = "Built; rendering…";
  else if (progress.state === "queued") words = `Queued · ${mb(progress.total_bytes)} to read`;
  else if (progress.phase === "reading") {
    const pct =
      progress.total_bytes > 0 ? Math.floor((progress.bytes_read / progress.total_bytes) * 100) : 0;
    words = `Reading ${mb(progress.bytes_read)} of ${mb(progress.total_bytes)} (${pct}%)`;
    bar = { value: progress.bytes_read, max: Math.max(1, progress.total_bytes) };
  } else {
    words =
      progress.phase === "deciding"
        ? "Read; deciding the verdict…"
        : "Decoding tokens and laying out calls…";
    bar = { value: 1, max: 1 };
  }
  return (
    <p
      className="progress muted"
      role="status"
      data-testid="loading-progress"
      data-state={progress && !("error" in progress) ? progress.state : "pending"}
    >
      {bar ? (
        <progress max={bar.max} value={bar.value} data-testid="loading-bar" />
      ) : (
        <progress data-testid="loading-bar" />
      )}{" "}
      <span data-testid="loading-words">{words}</span>
    </p>
  );
}
