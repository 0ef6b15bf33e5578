"use client";
// The builder-profile switch: links that keep every other piece of the inspector's URL state (tab,
// call, chain, message, position), read from the live URL so state set on the client survives.
import Link from "next/link";
import { useSearchParams } from "next/navigation";

const PROFILES = ["seed", "gym-v1"] as const;

export function ProfileSwitch({ current }: { current: string }) {
  const params = useSearchParams();
  const href = (p: string) => {
    const q = new URLSearchParams(params.toString());
    q.set("profile", p);
    return `?${q.toString()}`;
  };
  return (
    <>
      {PROFILES.map((p) => (
        <Link
          key={p}
          href={href(p)}
          className={`seg ${current === p ? "on" : ""}`}
          data-testid={`profile-${p}`}
          scroll={false}
          // A prefetch of the other profile could start its build while this one is on its way.
          prefetch={false}
        >
          {p}
        </Link>
      ))}
    </>
  );
}
