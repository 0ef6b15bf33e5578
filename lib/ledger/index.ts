// The signal ledger (docs/ledger.md): per step, the generated tokens captured, where each was lost
// on the way to the gradient, and the share of calls whose prompt re-rendered an earlier turn.
export { ADVANTAGE_RULE, assembleLedger, type JoinedSample } from "./assemble";
export { type RerenderFacts, rerenderedAt, runLedger } from "./run-ledger";
export { LOSS_WORDS, ledgerSentence, lossesOf, type LedgerLosses, type LossName } from "./words";
