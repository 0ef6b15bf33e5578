// Numbers in words for every view: byte counts in B, kB, MB, GB, TB in powers of 1000 (as disks
// and `ls -h --si` count them), three significant figures at most; differences with their sign.
// Counts of things are lib/text/plural's.

const UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

/** 512 → "512 B", 321_896 → "322 kB", 1_540_000 → "1.5 MB"; not a finite count of bytes → "—". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // One decimal below 100; rounding 999.96 up to 1000 moves to the next unit instead.
  let shown = value < 100 ? Math.round(value * 10) / 10 : Math.round(value);
  if (shown >= 1000 && unit < UNITS.length - 1) {
    unit++;
    shown = Math.round(shown / 100) / 10;
  }
  const digits = shown < 100 && !Number.isInteger(shown) ? 1 : 0;
  return `${shown.toFixed(digits)} ${UNITS[unit]}`;
}

/** A difference with its sign: +0.006, −0.007 (a minus sign, not a hyphen); 0.000 rounds unsigned. */
export function signed(x: number, digits = 3): string {
  const shown = Math.abs(x).toFixed(digits);
  if (Number(shown) === 0) return shown;
  return `${x > 0 ? "+" : "−"}${shown}`;
}
