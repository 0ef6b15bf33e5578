// A memory budget for the jobs that hold a whole large file in memory (a trainer's event or MLflow
// file, a tokenizer.json, a step file): the bytes in flight across every worker stay within the
// budget, so two hostile files are never parsed side by side; the rest wait in turn (first come,
// first served). A job larger than the whole budget runs alone. Not responsible for the jobs.
import "server-only";

/** File bytes parsed at once across the process's workers. */
export const MEMORY_BUDGET_BYTES = 320 * 2 ** 20;

interface Waiter {
  bytes: number;
  go: () => void;
}

export class MemoryBudget {
  private inFlight = 0;
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly budget: number) {}

  /** Runs `job` once `bytes` fit in the budget (at once when nothing else runs). */
  async run<T>(bytes: number, job: () => Promise<T>): Promise<T> {
    const need = Math.max(0, bytes);
    if (this.queue.length > 0 || !this.fits(need)) {
      // Woken by next(), which has reserved our bytes.
      await new Promise<void>((go) => this.queue.push({ bytes: need, go }));
    } else {
      this.inFlight += need;
      this.running++;
    }
    try {
      return await job();
    } finally {
      this.inFlight -= need;
      this.running--;
      this.next();
    }
  }

  private fits(bytes: number): boolean {
    return this.running === 0 || this.inFlight + bytes <= this.budget;
  }

  private next(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.bytes)) {
      const w = this.queue.shift()!;
      // Reserved now, so the next waiter is judged against it.
      this.inFlight += w.bytes;
      this.running++;
      w.go();
    }
  }
}

const KEY = Symbol.for("rollout-lens.memory-budget");
const holder = globalThis as { [KEY]?: MemoryBudget };

/** The process's one budget. */
export function memoryBudget(): MemoryBudget {
  return (holder[KEY] ??= new MemoryBudget(MEMORY_BUDGET_BYTES));
}
