/**
 * Host calls from model code: llm_query and llm_query_batched go to the sub
 * role; rlm_query starts a child RLM at depth + 1 (or, at the depth cap, is a
 * plain sub-call). Caps, the deadline and the token budget are enforced here;
 * a refusal raises in the model's code with the reason.
 */
import { createHash } from 'node:crypto';
import type { Completion } from '../../lm/model.js';
import type { ContextSource, HostCall, RlmQueryData } from '../../sandbox/sandbox.js';
import type { SubcallEvent, SubcallKind } from '../../trace/events.js';
import { roundMs } from '../../trace/round-ms.js';
import type { EventInput } from '../../trace/writer.js';
import { isRecord, safeParseJson } from '../../util/safe-json.js';
import { fmt } from '../prompts/format.js';
import type { RunTree } from '../run-tree.js';
import { callWithDeadline } from './model-call.js';
import { roleBounds, roleOptions } from './role-call.js';

const PREVIEW_CHARS = 200;
/** rlm_query data a plain call at the depth cap reads: what an llm_query prompt can carry. */
const PLAIN_CALL_DATA_BYTES = 64 * 1024 * 1024;

/** Where the current execution stands, as the loop tells the handler. */
export interface ExecPosition {
  turn: number;
  block: number;
  /** Sub-calls made by the current execution. */
  inExec: number;
}

export interface ChildRequest {
  question: string;
  context: ContextSource;
  /** The running sub-call count of the rlm_query that started the child. */
  subcall: number;
}

export interface SubcallHost {
  tree: RunTree;
  depth: number;
  position: ExecPosition;
  /** Writes a subcall event to this RLM's trajectory. */
  record(event: EventInput): void;
  /** Called with the size of each llm_query prompt (for the decompose nudge). */
  onPrompt(chars: number): void;
  /** Runs a child RLM and returns its answer and trajectory file name. */
  runChild(request: ChildRequest): Promise<{ answer: string; file: string }>;
}

/** Builds the HostCallHandler for one RLM's sandbox. */
export function createHostCallHandler(host: SubcallHost) {
  return async (call: HostCall): Promise<string | string[]> => {
    switch (call.kind) {
      case 'llm_query':
        host.onPrompt(call.prompt.length);
        return subQuery(host, call.prompt, 'llm_query', reserve(host, 1));
      case 'llm_query_batched': {
        const first = reserve(host, call.prompts.length);
        for (const p of call.prompts) host.onPrompt(p.length);
        // Every item is issued at once; the endpoint pool's semaphore bounds them.
        return Promise.all(
          call.prompts.map((p, i) =>
            subQuery(host, p, 'llm_query_batched', first + i).catch(
              (e: unknown) => `Error: ${message(e)}`,
            ),
          ),
        );
      }
      case 'rlm_query':
        return rlmQuery(host, call);
    }
  };
}

/**
 * The summary sub-call of compaction: one request to the sub role, counted
 * against the per-run cap and recorded as a `compaction_summary` sub-call.
 */
export function summarySubcall(host: SubcallHost, prompt: string): Promise<string> {
  const { tree } = host;
  if (tree.aborted() || tree.timeLeft() <= 0 || tree.budgetExhausted) {
    return Promise.reject(new Error('the run is ending; no summary sub-call'));
  }
  if (tree.subcalls + 1 > tree.settings.maxSubcallsPerRun) {
    return Promise.reject(new Error('the per-run sub-call cap is reached; no summary sub-call'));
  }
  tree.subcalls += 1;
  return subQuery(host, prompt, 'compaction_summary', tree.subcalls);
}

/**
 * Counts sub-calls against the caps, or throws the refusal the model will see.
 * Returns the running count of the first reserved call.
 */
function reserve(host: SubcallHost, n: number): number {
  const { tree, position } = host;
  const { settings } = tree;
  if (tree.aborted()) throw new Error('the run was cancelled; no more sub-calls');
  if (tree.timeLeft() <= 0) {
    throw new Error('the time limit for this run has passed; no more sub-calls can start');
  }
  if (tree.budgetExhausted) throw new Error('the token budget for this run is spent');
  if (position.inExec + n > settings.maxSubcallsPerExec) {
    throw new Error(
      `sub-call limit: at most ${fmt(settings.maxSubcallsPerExec)} per execution (this one has made ${position.inExec}; asked for ${n} more)`,
    );
  }
  if (tree.subcalls + n > settings.maxSubcallsPerRun) {
    throw new Error(
      `sub-call limit: at most ${fmt(settings.maxSubcallsPerRun)} per run (${tree.subcalls} made; asked for ${n} more)`,
    );
  }
  position.inExec += n;
  tree.subcalls += n;
  return tree.subcalls - n + 1;
}

async function subQuery(
  host: SubcallHost,
  prompt: string,
  kind: SubcallKind,
  count: number,
): Promise<string> {
  const { tree } = host;
  const sub = tree.settings.sub;
  const model = tree.models.sub;
  const started = tree.now();
  const request = {
    messages: [{ role: 'user' as const, content: prompt }],
    ...roleOptions(sub),
  };
  const bounds = roleBounds(tree, sub);
  let completion: Completion | undefined;
  try {
    completion = await callWithDeadline(model, request, bounds);
    tree.addUsage('sub', completion.usage);
    // Cut-off reasoning with no answer: one retry with thinking off.
    if (completion.content.trim() === '' && completion.finishReason === 'length') {
      completion = await callWithDeadline(model, { ...request, thinking: false }, bounds);
      tree.addUsage('sub', completion.usage);
    }
    record(host, kind, count, prompt, completion.content, tree.now() - started, completion);
    return completion.content;
  } catch (error) {
    record(host, kind, count, prompt, '', tree.now() - started, completion, message(error));
    throw error;
  }
}

async function rlmQuery(
  host: SubcallHost,
  call: Extract<HostCall, { kind: 'rlm_query' }>,
): Promise<string> {
  const { tree, depth } = host;
  if (depth + 1 >= tree.settings.maxDepth) {
    // At the depth cap rlm_query is a plain sub-call on the question and the data.
    const count = reserve(host, 1);
    const data = await dataText(call.data);
    const prompt = `${call.question}\n\n${data}`;
    host.onPrompt(prompt.length);
    return subQuery(host, prompt, 'rlm_query', count);
  }
  const count = reserve(host, 1);
  const started = tree.now();
  const context: ContextSource = await call.data.context();
  try {
    const child = await host.runChild({ question: call.question, context, subcall: count });
    host.record({
      ...base(host, 'rlm_query', count, call.question, child.answer, tree.now() - started),
      child: child.file,
    });
    return child.answer;
  } catch (error) {
    host.record({
      ...base(host, 'rlm_query', count, call.question, '', tree.now() - started),
      error: message(error),
    });
    throw error;
  }
}

function record(
  host: SubcallHost,
  kind: SubcallKind,
  count: number,
  prompt: string,
  answer: string,
  latencyMs: number,
  completion?: Completion,
  error?: string,
): void {
  const event: EventInput = {
    ...base(host, kind, count, prompt, answer, latencyMs),
    ...(completion
      ? { endpoint: completion.endpoint, model: completion.model, usage: completion.usage }
      : {}),
    ...(error !== undefined ? { error } : {}),
  };
  host.record(event);
}

function base(
  host: SubcallHost,
  kind: SubcallKind,
  count: number,
  prompt: string,
  answer: string,
  latencyMs: number,
): Omit<SubcallEvent, 'v' | 't'> {
  return {
    type: 'subcall',
    depth: host.depth,
    kind,
    turn: host.position.turn,
    block: host.position.block,
    count,
    promptChars: prompt.length,
    answerChars: answer.length,
    promptPreview: prompt.slice(0, PREVIEW_CHARS),
    answerPreview: answer.slice(0, PREVIEW_CHARS),
    promptSha256: sha256(prompt),
    answerSha256: sha256(answer),
    latencyMs: roundMs(latencyMs),
  };
}

/** The data an rlm_query handed over as prompt text: a str as it is, a dict as `key:\ntext` sections. */
async function dataText(data: RlmQueryData): Promise<string> {
  const text = await data.text(PLAIN_CALL_DATA_BYTES);
  if (data.type !== 'dict') return text;
  const parsed = safeParseJson(text);
  if (!parsed.ok || !isRecord(parsed.value))
    throw new Error('rlm_query: the dict data is not valid');
  return Object.entries(parsed.value)
    .map(([key, value]) => `${key}:\n${String(value)}`)
    .join('\n\n');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
