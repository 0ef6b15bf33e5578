import { notFound } from "next/navigation";
import { getRun, UnknownRunError } from "@/lib/runs/runs-root";
import { runVerdicts } from "@/lib/runs/run-verdicts";
import { VerdictTable } from "@/components/runs/verdict-table";

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ run: string }> }) {
  const { run: runId } = await params;
  const run = await getRun(runId).catch((err: unknown) => {
    if (err instanceof UnknownRunError) notFound();
    throw err;
  });
  const { rows, total } = await runVerdicts(run);
  return (
    <>
      <h1>{run.manifest.name ?? run.id}</h1>
      {run.manifest.description && <p className="muted">{run.manifest.description}</p>}
      {run.manifestError && <div className="error-box">{run.manifestError}</div>}
      <p className="muted" data-testid="run-count">
        {rows.length} of {total} rollouts
      </p>
      <VerdictTable rows={rows} runId={run.id} />
    </>
  );
}
