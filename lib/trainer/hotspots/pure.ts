// The hotspots' pure tallies, for the truth check, which feeds ./joined while it joins samples to
// their rollouts (./index imports the truth check, so the check cannot import ./index).
export {
  addJoined,
  chainCallsOf,
  chainRoutesOf,
  emptyJoined,
  fallbackOf,
  MOE_KEY,
  replayedOf,
  mergeJoined,
  type ChainCalls,
  type JoinedTally,
} from "./joined";
