// Python's round(x, n) (round-half-even on the exact binary value), so fractions match the
// reference byte for byte: toFixed() rounds exact ties up, e.g. 0.03125 -> 0.0313 not 0.0312.

export function roundHalfEven(x: number, places: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const negative = x < 0;
  // toFixed(100) is the exact decimal expansion for every value this code rounds (fractions >= 2^-47).
  const [intPart = "0", fracPart = ""] = Math.abs(x).toFixed(100).split(".");
  const kept = fracPart.slice(0, places);
  const rest = fracPart.slice(places);
  let scaled = BigInt(intPart + kept);
  const first = rest.charCodeAt(0) - 48;
  const beyondHalf = /[1-9]/.test(rest.slice(1));
  const lastEven = Number(scaled % 2n) === 0;
  if (first > 5 || (first === 5 && (beyondHalf || !lastEven))) scaled += 1n;
  const value = Number(scaled) / 10 ** places;
  return negative ? -value : value;
}
