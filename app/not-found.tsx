import Link from "next/link";

export default function NotFound() {
  return (
    <div className="card empty" data-testid="not-found">
      <h1>Not found</h1>
      <p>There is no such run or rollout in the runs root.</p>
      <Link href="/">Back to runs</Link>
    </div>
  );
}
