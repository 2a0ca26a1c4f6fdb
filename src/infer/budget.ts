/**
 * Budgets shared by a tree of frames. One pool of calls and tokens is shared
 * by every node of the tree; each node only lowers the depth and keeps a tally
 * of what its own subtree spent, so a caller can tell a child's spend apart.
 *
 * Every provider request reserves one call and an output tranche in one
 * synchronous step (JavaScript runs it without interleaving, so concurrent
 * frames can never reserve more than the pool holds), then settles against
 * the usage the server reported.
 */
import { ConfigError } from '../errors.js';
import type { Usage } from '../lm/model.js';

/** The three allowances of a budget. */
export type BudgetAllowance = 'calls' | 'tokens' | 'depth';

/** What a budget node can still spend. */
export interface BudgetRemaining {
  /** Provider requests that may still start. */
  calls: number;
  /** Tokens neither settled nor reserved by a request in flight. */
  tokens: number;
  /** Frame levels left at this node (1: a frame may run here but not recurse). */
  depth: number;
}

/** How a tranche is sized. */
export interface TrancheRule {
  /** Share of the free pool one request may reserve. Default 0.25. */
  share: number;
  /** Most tokens one request may reserve. Default 16,000. */
  cap: number;
}

/** `createBudget` options. */
export interface BudgetLimits {
  /** Provider requests the whole tree may make. */
  calls: number;
  /** Tokens the whole tree may spend: new input plus output (cached input is free). */
  tokens: number;
  /** Frame levels: 1 lets one frame run with no recursion. */
  depth: number;
  /** Tranche sizing; defaults to a quarter of the free pool, at most 16,000. */
  tranche?: Partial<TrancheRule>;
}

/** One reserved request: a call and an output tranche. */
export interface Reservation {
  readonly id: number;
  /** Output tokens reserved; sent as the request's output limit. */
  readonly tranche: number;
}

/** What `reserve()` returns. */
export type ReserveResult =
  | { ok: true; reservation: Reservation }
  | { ok: false; exhausted: BudgetAllowance; remaining: BudgetRemaining };

/** What a settlement charged. */
export interface Settlement {
  /** Tokens charged to the pool. */
  charged: number;
  /** Tokens the server reported beyond what the pool could still cover (charged as the pool's end). */
  overdrawn: number;
  /** Reserved tokens given back. */
  refunded: number;
}

/** One entry of the pool's ledger, for tests and audits. */
export type LedgerEntry =
  | {
      kind: 'reserve';
      id: number;
      tranche: number;
      /** Tokens reserved by requests in flight after this step. */
      outstanding: number;
      /** Tokens settled so far. */
      settled: number;
      at: number;
    }
  | {
      kind: 'settle';
      id: number;
      tranche: number;
      /** What the server reported as billable (new input plus output); 0 for a failed request. */
      billable: number;
      charged: number;
      overdrawn: number;
      outstanding: number;
      settled: number;
      at: number;
    };

/** Totals of the pool shared by a tree. */
export interface PoolTotals {
  calls: number;
  tokens: number;
  callsUsed: number;
  /** Tokens settled (charged). */
  tokensSettled: number;
  /** Tokens reserved by requests in flight. */
  tokensOutstanding: number;
  /** Reported tokens the pool could not cover. */
  tokensOverdrawn: number;
}

/** What one node's subtree spent. */
export interface SubtreeSpend {
  calls: number;
  tokens: number;
}

/** Billable tokens of a reported usage: cached prompt reads are not charged. */
export function billableTokens(usage: Usage): number {
  const fresh = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  return fresh + Math.max(0, usage.outputTokens);
}

class Pool {
  callsUsed = 0;
  settled = 0;
  outstanding = 0;
  overdrawn = 0;
  private nextId = 1;
  private readonly open = new Map<number, { tranche: number; path: BudgetNode[] }>();
  private readonly listeners = new Set<(entry: LedgerEntry) => void>();

  constructor(
    readonly calls: number,
    readonly tokens: number,
    readonly rule: TrancheRule,
    readonly now: () => number,
  ) {}

  get freeTokens(): number {
    return Math.max(0, this.tokens - this.settled - this.outstanding);
  }

  /** The tranche a request would get now: a share of the free pool, capped, at least 1. */
  trancheNow(): number {
    const free = this.freeTokens;
    return Math.min(free, this.rule.cap, Math.max(1, Math.floor(free * this.rule.share)));
  }

  reserve(path: BudgetNode[]): Reservation | BudgetAllowance {
    if (this.callsUsed >= this.calls) return 'calls';
    const tranche = this.trancheNow();
    if (tranche <= 0) return 'tokens';
    const id = this.nextId++;
    this.callsUsed += 1;
    this.outstanding += tranche;
    this.open.set(id, { tranche, path });
    for (const node of path) node.ownSpend.calls += 1;
    this.log({
      kind: 'reserve',
      id,
      tranche,
      outstanding: this.outstanding,
      settled: this.settled,
      at: this.now(),
    });
    return { id, tranche };
  }

  settle(reservation: Reservation, usage: Usage | null): Settlement {
    const entry = this.open.get(reservation.id);
    if (!entry) return { charged: 0, overdrawn: 0, refunded: 0 };
    this.open.delete(reservation.id);
    this.outstanding -= entry.tranche;
    const billable = usage ? billableTokens(usage) : 0;
    // Input is only known afterwards; what the pool can no longer cover is
    // recorded as overdrawn, so the ledger never shows more spent than it had.
    const cover = Math.max(0, this.tokens - this.settled - this.outstanding);
    const charged = Math.min(billable, cover);
    const overdrawn = billable - charged;
    this.settled += charged;
    this.overdrawn += overdrawn;
    for (const node of entry.path) node.ownSpend.tokens += charged;
    this.log({
      kind: 'settle',
      id: reservation.id,
      tranche: entry.tranche,
      billable,
      charged,
      overdrawn,
      outstanding: this.outstanding,
      settled: this.settled,
      at: this.now(),
    });
    return { charged, overdrawn, refunded: Math.max(0, entry.tranche - charged) };
  }

  onLedger(listener: (entry: LedgerEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private log(entry: LedgerEntry): void {
    for (const listener of this.listeners) listener(entry);
  }
}

/**
 * A node of a budget tree. The root comes from `createBudget`; `child()` makes
 * a node one level deeper over the same pool.
 */
export interface Budget {
  /** Frame levels left at this node. */
  readonly depth: number;
  /** A node one level deeper sharing this pool (at depth 0 it refuses every reservation). */
  child(): Budget;
  /** A node at the same depth sharing this pool, with a spend tally of its own (one per frame). */
  branch(): Budget;
  /** What this node may still spend. */
  remaining(): BudgetRemaining;
  /** What this node's subtree has spent: calls reserved, tokens charged. */
  spent(): SubtreeSpend;
  /** The shared pool's totals. */
  totals(): PoolTotals;
  /** Why a reservation would be refused now, or null when it would succeed. */
  blocked(): BudgetAllowance | null;
  /** Reserves one call and an output tranche, atomically; refuses once an allowance is gone. */
  reserve(): ReserveResult;
  /**
   * Settles a reservation against reported usage (null for a failed request):
   * the unused tranche goes back to the pool; the call stays spent. Settling
   * twice is a no-op.
   */
  settle(reservation: Reservation, usage: Usage | null): Settlement;
  /** Calls `listener` on every reserve and settle of the shared pool; returns an unsubscribe. */
  onLedger(listener: (entry: LedgerEntry) => void): () => void;
}

class BudgetNode implements Budget {
  readonly ownSpend: SubtreeSpend = { calls: 0, tokens: 0 };

  constructor(
    private readonly pool: Pool,
    readonly depth: number,
    private readonly parent: BudgetNode | undefined,
  ) {}

  child(): Budget {
    return new BudgetNode(this.pool, Math.max(0, this.depth - 1), this);
  }

  branch(): Budget {
    return new BudgetNode(this.pool, this.depth, this);
  }

  remaining(): BudgetRemaining {
    return {
      calls: Math.max(0, this.pool.calls - this.pool.callsUsed),
      tokens: this.pool.freeTokens,
      depth: this.depth,
    };
  }

  spent(): SubtreeSpend {
    return { ...this.ownSpend };
  }

  totals(): PoolTotals {
    const p = this.pool;
    return {
      calls: p.calls,
      tokens: p.tokens,
      callsUsed: p.callsUsed,
      tokensSettled: p.settled,
      tokensOutstanding: p.outstanding,
      tokensOverdrawn: p.overdrawn,
    };
  }

  blocked(): BudgetAllowance | null {
    if (this.depth < 1) return 'depth';
    if (this.pool.callsUsed >= this.pool.calls) return 'calls';
    if (this.pool.trancheNow() <= 0) return 'tokens';
    return null;
  }

  reserve(): ReserveResult {
    if (this.depth < 1) return { ok: false, exhausted: 'depth', remaining: this.remaining() };
    const result = this.pool.reserve(this.path());
    if (typeof result === 'string') {
      return { ok: false, exhausted: result, remaining: this.remaining() };
    }
    return { ok: true, reservation: result };
  }

  settle(reservation: Reservation, usage: Usage | null): Settlement {
    return this.pool.settle(reservation, usage);
  }

  onLedger(listener: (entry: LedgerEntry) => void): () => void {
    return this.pool.onLedger(listener);
  }

  private path(): BudgetNode[] {
    const nodes: BudgetNode[] = [];
    for (let node: BudgetNode | undefined = this; node; node = node.parent) nodes.push(node);
    return nodes;
  }
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigError(
      `createBudget: ${name} must be a whole number of at least 1, got ${JSON.stringify(value)}. A budget with nothing in it could make no request.`,
      undefined,
      name,
    );
  }
  return value;
}

/** Default tranche sizing: a quarter of the free pool, at most 16,000 tokens. */
export const DEFAULT_TRANCHE: TrancheRule = { share: 0.25, cap: 16_000 };

/**
 * A budget for a tree of frames: `calls` provider requests, `tokens` billable
 * tokens and `depth` frame levels. Throws ConfigError for a limit below 1.
 */
export function createBudget(limits: BudgetLimits, _internal: { now?: () => number } = {}): Budget {
  const calls = positiveInteger(limits.calls, 'calls');
  const tokens = positiveInteger(limits.tokens, 'tokens');
  const depth = positiveInteger(limits.depth, 'depth');
  const share = limits.tranche?.share ?? DEFAULT_TRANCHE.share;
  const cap = limits.tranche?.cap ?? DEFAULT_TRANCHE.cap;
  if (!(share > 0 && share <= 1)) {
    throw new ConfigError(
      `createBudget: tranche.share must be above 0 and at most 1, got ${share}.`,
      undefined,
      'tranche.share',
    );
  }
  positiveInteger(cap, 'tranche.cap');
  const pool = new Pool(calls, tokens, { share, cap }, _internal.now ?? performanceNow);
  return new BudgetNode(pool, depth, undefined);
}

function performanceNow(): number {
  return performance.now();
}
