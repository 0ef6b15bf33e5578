import Link from "next/link";
import { PageArrived } from "@/components/rollout/rollout-shell";

export default function NotFound() {
  return (
    <div className="card empty" data-testid="not-found">
      <PageArrived />
      <h1>Not found</h1>
      <p>There is no such run or rollout in the runs root.</p>
      <Link href="/">Back to runs</Link>
    </div>
  );
}
