// Counted nouns in English for every view and alert: "1 call", "2 calls", "1 rollout has".
// Only the grammar; formatting the number (locale, separators) is the caller's choice.

/** `n` and the noun, singular for exactly 1: plural(1, "call") → "1 call". */
export function plural(n: number, one: string, many = `${one}s`, shown = String(n)): string {
  return `${shown} ${n === 1 ? one : many}`;
}

/** A counted subject and its verb: counted(1, "rollout", "has", "have") → "1 rollout has". */
export function counted(n: number, one: string, verbOne: string, verbMany: string): string {
  return `${plural(n, one)} ${n === 1 ? verbOne : verbMany}`;
}
