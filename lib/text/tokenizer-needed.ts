// The sentence every feature that decodes token ids says when the run names no tokenizer.

/** "Search needs the run's tokenizer…": `what` is the feature, capitalised. */
export function tokenizerNeeded(what: string): string {
  return `${what} needs the run's tokenizer to decode its token ids: name one in run.json ("tokenizer": "o200k_base" or a tokenizer.json path).`;
}
