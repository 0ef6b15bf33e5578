import { describeRoot } from "@/lib/health";
import { runsRoot } from "@/lib/runs";
import { RunList } from "@/components/runs/run-list";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const root = runsRoot();
  const runs = await describeRoot(root);
  return (
    <>
      <h1>Runs</h1>
      <p className="muted">
        Serving <span className="mono">{root}</span>
      </p>
      <RunList runs={runs} root={root} />
    </>
  );
}
