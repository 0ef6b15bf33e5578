// While both rollouts are read and built (a cold 500-call pair takes seconds), the frame says so.
export default function DiffLoading() {
  return (
    <>
      <h1>Diff two rollouts</h1>
      <p className="muted" role="status" data-testid="diff-loading">
        Reading both rollouts and aligning their chains…
      </p>
    </>
  );
}
