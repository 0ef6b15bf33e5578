import { answer } from "@/lib/http";
import { runLedger } from "@/lib/ledger";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The run's signal ledger per step (docs/ledger.md): generated tokens captured, each loss named,
 * delivered, in the trainer's loss mask and with an advantage; and the re-rendered prefix share.
 */
export const GET = answer(API.ledger, async ({ params }) => runLedger(await getRun(params.run)));
