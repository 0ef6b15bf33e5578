// The trainer's own evidence against "trained on": a sample of its step files
// (`train_data_step{N}.jsonl`, joined to the rollout by lib/trainer's truth check) whose token ids
// or loss mask differ from the capture's main chain. The capture's consumer still trains on it as
// built; what the trainer logged says it trained on something else, so the rollout is trained with
// a warning, never plainly "trained". A sample the trainer left out of the loss altogether (its
// sample or token loss masks all 0) was not trained on: the rollout is masked, this the reason.
import { makeReason, WARNING_TITLES, type Reason } from "./reasons";
import { plural } from "@/lib/text";
import type { TrainerDiffers } from "@/lib/schema";

/** The joined sample that differs (tokens before the mask), as the truth check reports it. */
export function trainerDiffersReason(f: TrainerDiffers): Reason {
  const where = `\`train_data_step${f.step}.jsonl\` line ${f.line} (the records' step ${f.record_step})`;
  const from = f.first_diff === null ? "" : ` from position ${f.first_diff} on`;
  const first = f.first_diff === null ? "" : ` (the first: position ${f.first_diff})`;
  const detail =
    f.class === "tokens_differ"
      ? `${where} holds other token ids than this main chain${from}`
      : f.left_out
        ? `${where} keeps none of its tokens in the loss (its sample or token loss masks are 0), where the capture's consumer trains ${plural(f.mask_diffs, "token")}`
        : `${where} has a loss mask that differs from the capture's at ${plural(f.mask_diffs, "position")}${first}`;
  // The same reason (its code, filter and counts); its title says what the trainer did instead.
  const title = f.left_out
    ? "the trainer left its sample out of the loss"
    : WARNING_TITLES.trainer_differs;
  const severity = f.left_out ? "masked" : "trained_with_warnings";
  return makeReason("trainer_differs", severity, title, detail);
}
