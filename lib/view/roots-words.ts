// Why the other builder profile counts a different number of roots in the same calls, in one
// sentence for the chain panel. The profiles build differently (lib/builder/profiles): seed sets
// side calls aside before it links and follows a call's recorded, digest-verified parent across a
// prefix break (a compaction); gym-v1 (Gym main's builder) keeps every call and links by token
// prefix only, so a side call or a break starts a root, and Gym main's consumer masks a rollout
// with more than one. gym-v1 also drops calls that generated nothing before it links.
import type { Profile } from "@/lib/builder";

interface Built {
  profile: Profile;
  roots: number;
  /** Side calls the profile set aside. */
  side_calls: number;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Null when both profiles count the same roots. */
export function rootsDifference(own: Built, other: Built): string | null {
  if (own.roots === other.roots) return null;
  const gym = own.profile === "gym-v1" ? own : other;
  const seed = own.profile === "seed" ? own : other;
  const extra = gym.roots - seed.roots;
  const why: string[] = [];
  if (extra > 0 && seed.side_calls > 0)
    why.push(
      `seed sets ${count(seed.side_calls, "side call", "side calls")} aside before it links, and gym-v1 keeps every call, so a side call is a root of its own`,
    );
  if (extra > seed.side_calls)
    why.push(
      "seed links a call to its recorded parent across a prefix break, where gym-v1 links by token prefix only",
    );
  if (extra < 0)
    why.push("gym-v1 drops calls that generated nothing before it links, and seed keeps them");
  const masks =
    other.profile === "gym-v1" && other.roots > 1 ? " (its consumer masks the rollout for it)" : "";
  const counts = `${own.profile} counts ${count(own.roots, "root", "roots")} here, ${other.profile} ${count(other.roots, "root", "roots")}${masks}`;
  return `${counts}: ${why.join("; ")}.`;
}
