/**
 * Property: however 64 concurrent frames interleave over a pool sized for
 * about 20 requests, outstanding reservations never exceed the pool, settled
 * spend never exceeds it, and no provider call starts without a reservation.
 */
import { describe, expect, it } from 'vitest';
import { createBudget, type LedgerEntry } from '../../src/infer/budget.js';
import { infer } from '../../src/infer/infer.js';
import type { GenerateRequest } from '../../src/lm/model.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAMES = 64;
const PER_REQUEST = 1_000;
const POOL = 20 * PER_REQUEST;

async function runSeed(seed: number) {
  const rand = random(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const budget = createBudget({ calls: 200, tokens: POOL, depth: 1 });
  const log: (LedgerEntry & { wall: number })[] = [];
  budget.onLedger((entry) => log.push({ ...entry, wall: performance.now() }));
  let billedByModel = 0;
  let started = 0;
  const model = new ScriptedModel({
    replies: async (request: GenerateRequest) => {
      started += 1;
      // Every call the model sees must hold a reservation made before it.
      const reserves = log.filter((e) => e.kind === 'reserve').length;
      if (started > reserves) throw new Error('a call started without a reservation');
      await new Promise((resolve) => setTimeout(resolve, int(0, 4)));
      const roll = rand();
      if (roll < 0.08) throw new Error('injected failure');
      const max = request.maxTokens ?? 0;
      const input = int(50, 600);
      const cached = roll < 0.3 ? int(0, input) : 0;
      const output = int(0, max);
      // Some servers report no usage at all.
      const usage =
        roll > 0.95
          ? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
          : { inputTokens: input, outputTokens: output, cachedInputTokens: cached };
      billedByModel += usage.inputTokens - usage.cachedInputTokens + usage.outputTokens;
      // Valid only now and then, so frames repair and keep drawing on the pool.
      return { content: rand() < 0.3 ? '{"ok": true}' : 'no json here', usage };
    },
  });
  const contract = { type: 'object', required: ['ok'] };
  const results = await Promise.allSettled(
    Array.from({ length: FRAMES }, (_, i) =>
      infer(`frame ${i}`, { model, budget, contract, logDir: false }),
    ),
  );
  return { budget, log, results, started, billedByModel };
}

describe('budget under 64 concurrent frames', () => {
  it('never oversubscribes the pool, over 40 seeds', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { budget, log, results, started, billedByModel } = await runSeed(seed);
      const where = `seed ${seed}`;
      let lastWall = 0;
      let charged = 0;
      let overdrawn = 0;
      const open = new Set<number>();
      let mostOpen = 0;
      for (const entry of log) {
        expect(entry.wall, where).toBeGreaterThanOrEqual(lastWall);
        lastWall = entry.wall;
        expect(entry.outstanding, where).toBeLessThanOrEqual(POOL);
        expect(entry.settled, where).toBeLessThanOrEqual(POOL);
        expect(entry.outstanding + entry.settled, where).toBeLessThanOrEqual(POOL);
        if (entry.kind === 'reserve') {
          expect(entry.tranche, where).toBeGreaterThan(0);
          expect(entry.tranche, where).toBeLessThanOrEqual(16_000);
          open.add(entry.id);
          mostOpen = Math.max(mostOpen, open.size);
        } else {
          expect(open.delete(entry.id), `${where}: settle of an open reservation`).toBe(true);
          expect(entry.charged, where).toBeLessThanOrEqual(entry.billable);
          charged += entry.charged;
          overdrawn += entry.overdrawn;
        }
      }
      // Requests really overlapped.
      expect(mostOpen, where).toBeGreaterThan(4);
      // Every reservation was settled, and nothing reported was lost.
      expect(open.size, where).toBe(0);
      expect(charged + overdrawn, where).toBe(billedByModel);
      const totals = budget.totals();
      expect(totals.tokensOutstanding, where).toBe(0);
      expect(totals.tokensSettled, where).toBe(charged);
      expect(started, where).toBe(log.filter((e) => e.kind === 'reserve').length);
      expect(results, where).toHaveLength(FRAMES);
      // The pool ran dry: the later frames could not all finish.
      const incomplete = results.filter(
        (r) => r.status === 'rejected' && (r.reason as Error).name === 'PartialResultError',
      );
      expect(incomplete.length, where).toBeGreaterThan(0);
    }
  });
});
