// "diff with…" in the inspector's head: the same rollout's main chain under the other builder
// profile, each other attempt `R-aN` of it, and the same rollout id in the root's other runs, as
// links to the diff page (an id is a task index and a rollout index: the same task only where the
// runs ran one agent's dataset, which the link's title says rather than checks). A server component
// streamed after the page (its own Suspense boundary): listing the store never delays a paint.
import Link from "next/link";
import { otherProfile, type Profile } from "@/lib/builder";
import { otherAttempts, sameRolloutElsewhere } from "@/lib/diff";
import type { RunLayout } from "@/lib/runs";
import { diffHref } from "@/lib/view";

export async function DiffWith({
  run,
  rollout,
  profile,
}: {
  run: RunLayout;
  rollout: string;
  profile: Profile;
}) {
  const [attempts, elsewhere] = await Promise.all([
    otherAttempts(run, rollout).catch(() => []),
    sameRolloutElsewhere(run, rollout).catch(() => ({ runs: [], total: 0 })),
  ]);
  const self = { run: run.id, rollout, profile };
  const other = otherProfile(profile);
  return (
    <span className="small" data-testid="diff-with">
      diff with:{" "}
      <Link
        href={diffHref(self, { ...self, profile: other })}
        data-testid="diff-with-profile"
        title={`this rollout's main chain as the ${other} profile builds it`}
      >
        the {other} profile
      </Link>
      {attempts.map((id) => (
        <span key={id}>
          {" · "}
          <Link href={diffHref(self, { run: run.id, rollout: id })} data-testid="diff-with-attempt">
            attempt {id}
          </Link>
        </span>
      ))}
      {elsewhere.runs.length > 0 && (
        // Kept short: the head stays one line at 1280 px, or the panels below lose a row.
        <span
          className="muted"
          data-testid="diff-with-runs-label"
          title="The same rollout id in the root's other runs: an id is a task index and a rollout index, so the same task only if both runs ran one agent's dataset (maybe another task; not checked)"
        >
          {" · "}same id in:
        </span>
      )}
      {elsewhere.runs.map((id, i) => (
        <span key={`run:${id}`}>
          {i === 0 ? " " : " · "}
          <Link
            href={diffHref(self, { run: id, rollout })}
            data-testid="diff-with-run"
            title={`rollout ${rollout} in run ${id}: the same id, the same task only if both runs ran one agent's dataset`}
          >
            {id}
          </Link>
        </span>
      ))}
      {elsewhere.total > elsewhere.runs.length && (
        <span className="muted">
          {" "}
          · {elsewhere.total - elsewhere.runs.length} more runs hold it
        </span>
      )}
    </span>
  );
}
