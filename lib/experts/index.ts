// Routed experts (MoE router replay): decoding an entry's routes and reading them per call.
export { decodeEnvelope, decodeNested, decodeRoutes, isRoutes } from "./codec";
export type { Decoded, Routes, RoutesDtype } from "./codec";
export {
  callRoutes,
  countCallRoutes,
  fallbackFraction,
  isFallbackRow,
  routeRow,
  rowCountProblem,
  type RouteCount,
} from "./routes";
