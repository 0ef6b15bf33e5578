// Rollout ids become file names, so they are checked before any path is built (capture-format.md §2.1).
const ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_ROLLOUT_ID_LENGTH = 200;

export function isValidRolloutId(id: string): boolean {
  return id.length <= MAX_ROLLOUT_ID_LENGTH && ROLLOUT_ID.test(id);
}

export class InvalidRolloutIdError extends Error {
  constructor(readonly rolloutId: string) {
    super(`invalid rollout id ${JSON.stringify(rolloutId.slice(0, 80))}: ids are letters, digits, '.', '_' and '-', starting with a letter or digit`);
  }
}

export function assertRolloutId(id: string): void {
  if (!isValidRolloutId(id)) throw new InvalidRolloutIdError(id);
}
