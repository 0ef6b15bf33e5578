// The domain's errors, named for what went wrong rather than for an HTTP status. lib/http maps
// them to statuses (unknown → 404, invalid → 400, anything else → 500); nothing here knows HTTP.

/** Something the caller named (a run, rollout, chain or call) does not exist. */
export class UnknownEntityError extends Error {}

/** A parameter, id or query the caller sent is malformed. */
export class InvalidInputError extends Error {}

export class UnknownRunError extends UnknownEntityError {
  constructor(readonly runId: string) {
    super(`no run ${JSON.stringify(runId.slice(0, 80))} in the runs root`);
  }
}

export class InvalidRunIdError extends InvalidInputError {
  constructor(readonly runId: string) {
    super(
      `invalid run id ${JSON.stringify(runId.slice(0, 80))}: run ids are letters, digits, '.', '_' and '-', starting with a letter or digit`,
    );
  }
}

export class UnknownRolloutError extends UnknownEntityError {}
export class UnknownChainError extends UnknownEntityError {}
export class UnknownCallError extends UnknownEntityError {}

export class InvalidRolloutIdError extends InvalidInputError {
  constructor(readonly rolloutId: string) {
    super(
      `invalid rollout id ${JSON.stringify(rolloutId.slice(0, 80))}: ids are letters, digits, '.', '_' and '-', starting with a letter or digit`,
    );
  }
}

/** A file of a store resolves (through a symlink) outside the directory it belongs to. */
export class OutsideStoreError extends Error {}
