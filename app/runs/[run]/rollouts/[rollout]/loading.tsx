import { PagePending } from "@/components/rollout/rollout-shell";

// Makes Next stream the segment's layout (with the loading frame, components/rollout/rollout-shell)
// at once while the page (and, cold, its build) is on its way. The frame itself is the layout's:
// a fallback still waiting on the server is never hydrated, so it could not poll the progress.
export default function RolloutLoading() {
  return <PagePending />;
}
