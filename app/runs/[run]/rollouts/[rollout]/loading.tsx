import { LoadingProgress } from "@/components/rollout/loading-progress";

// Shown at once on navigation to a rollout while its page (and, cold, its build) is on its way.
export default function RolloutLoading() {
  return <LoadingProgress />;
}
