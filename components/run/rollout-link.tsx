"use client";
// A rollout's link in the run table. The inspector page is dynamic and not prefetched, so while
// its response is on its way (a slow network, a busy server) the clicked link itself says so; the
// inspector's own frame, with the build's progress, takes over as soon as the response starts.
import Link, { useLinkStatus } from "next/link";
import type { ReactNode } from "react";

function Opening() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span className="link-pending" role="status" data-testid="link-pending">
      opening…
    </span>
  ) : null;
}

export function RolloutLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="mono" prefetch={false}>
      {children}
      <Opening />
    </Link>
  );
}
