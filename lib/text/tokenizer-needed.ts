// The sentence every feature that decodes token ids says when the run names no tokenizer, with
// both ways to name one: run.json's field, or the serve command's flag for a bare capture directory
// (which has no run.json to edit).

/** "Search needs the run's tokenizer…": `what` is the feature, capitalised. */
export function tokenizerNeeded(what: string): string {
  return `${what} needs the run's tokenizer to decode its token ids: name one in run.json ("tokenizer": "o200k_base" or a tokenizer.json path), or serve a bare capture directory with --tokenizer NAME|PATH.`;
}
