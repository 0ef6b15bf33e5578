"use client";
// What a chart's bar or point links to: the run's rollouts table filtered to exactly its rollouts
// (lib/view/rollout-nav chartBucketQuery). A click pushes the URL (so Back undoes it) without a
// server round trip, the table follows the URL, and the page scrolls to the table.
import { useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { bucketTableHref, isBucketShown } from "@/lib/view";
import { ROLLOUTS_ANCHOR } from "../alerts";

export interface BucketLink {
  /** The page URL that lists a bucket's rollouts (for a link's href: a new tab works too). */
  href: (query: string) => string;
  /** Shows a bucket's rollouts in the table of this page. */
  open: (query: string) => void;
  /** The table lists exactly this bucket's rollouts now. */
  shown: (query: string) => boolean;
}

export function useBucketLink(runId: string): BucketLink {
  const params = useSearchParams();
  const search = params.toString();
  const href = useCallback(
    (query: string) =>
      `${bucketTableHref(runId, new URLSearchParams(search), query)}#${ROLLOUTS_ANCHOR}`,
    [runId, search],
  );
  const open = useCallback(
    (query: string) => {
      window.history.pushState(null, "", href(query));
      document.getElementById(ROLLOUTS_ANCHOR)?.scrollIntoView({ block: "start" });
    },
    [href],
  );
  const shown = useCallback(
    (query: string) => isBucketShown(new URLSearchParams(search), query),
    [search],
  );
  return { href, open, shown };
}
