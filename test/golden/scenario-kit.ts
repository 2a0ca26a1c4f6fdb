/**
 * The parts a golden scenario is made of: a run clock that moves only when a
 * model is called (so a trajectory depends on what the run does, never on how
 * often the code reads the clock), scripted models that record their
 * requests, and real context files.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GenerateRequest } from '../../src/lm/model.js';
import type { RunOptions } from '../../src/rlm/run.js';
import type { ContextSource } from '../../src/sandbox/sandbox.js';
import type { MockPolicy, MockReply, MockRequest } from '../../src/testing/index.js';
import { ScriptedModel, type ScriptedReply } from '../../src/testing/index.js';
import type { RecordedRequest } from './recorder.js';

/** What a scenario's replies and options can use. */
export interface ScenarioEnv {
  /** This scenario's own folder under .artifacts. */
  dir: string;
  /** The run's clock (ms since epoch). */
  now(): number;
  /** Moves the run's clock on. */
  advance(ms: number): void;
}

/** A reply function of the request, its 0-based index and the scenario's environment. */
export type Reply = (
  request: GenerateRequest,
  index: number,
  env: ScenarioEnv,
) => ScriptedReply | Promise<ScriptedReply>;

/** Replies as ScriptedModel takes them, or a function that also sees the environment. */
export type Replies = ScriptedReply | ScriptedReply[] | Reply;

export interface Scenario {
  name: string;
  /** Root replies (a ScriptedModel `root-model` at `scripted://root`). */
  root?: Replies;
  /** Sub replies (a ScriptedModel `sub-model` at `scripted://sub`); default `sub answer`. */
  sub?: Replies;
  /** The context; default a 1,000-line needle file. */
  context?: (env: ScenarioEnv) => string | ContextSource | Promise<string | ContextSource>;
  query?: string;
  /** More run options (a profile, limits, a protocol). */
  options?: (env: ScenarioEnv) => Partial<RunOptions>;
  /** Model names the scripted models report (default root-model / sub-model). */
  modelIds?: { root: string; sub: string };
  /**
   * Answer through the mock server over real HTTP instead of ScriptedModels.
   * The clock stays still (replies arrive in whatever order the sockets give).
   */
  http?: { policy: MockPolicy; contextTokens?: number };
}

/** The default start of a scenario's clock. */
export const START = Date.parse('2026-10-07T12:00:00.000Z');
/** How far one root or sub request moves the clock. */
export const ROOT_STEP_MS = 1000;
export const SUB_STEP_MS = 100;

export const GOLDEN_ARTIFACTS = resolve('.artifacts/test/golden');

export function freshScenarioDir(name: string): string {
  const dir = join(GOLDEN_ARTIFACTS, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A text file of numbered lines with one needle line (line 700 of 1,000 by default). */
export function needleFile(dir: string, lines = 1000, needleAt = 700): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(i === needleAt ? 'the passphrase is tangerine-42' : `line ${i}: nothing to see`);
  }
  return writeText(dir, 'context.txt', `${out.join('\n')}\n`);
}

export function writeText(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A scripted model whose every call moves the clock by `stepMs` before it answers. */
export function clockedModel(
  replies: Replies,
  env: ScenarioEnv,
  stepMs: number,
  ids: { modelId: string; endpoint: string },
): ScriptedModel {
  const pick = (
    request: GenerateRequest,
    index: number,
  ): ScriptedReply | Promise<ScriptedReply> => {
    env.advance(stepMs);
    if (typeof replies === 'function') return replies(request, index, env);
    if (!Array.isArray(replies)) return replies;
    const reply = replies[index];
    if (reply === undefined) throw new Error(`no reply scripted for call ${index + 1}`);
    return reply;
  };
  return new ScriptedModel({ ...ids, replies: pick });
}

/** What a model request is recorded as: messages and the options that shape the reply. */
export function recordGenerate(request: GenerateRequest): RecordedRequest {
  const { messages, tools, maxTokens, thinking, sampling, reasoningEffort, timeoutMs } = request;
  return {
    messages,
    ...(tools ? { tools: tools.map((t) => t.name) } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(thinking !== undefined ? { thinking } : {}),
    ...(sampling ? { sampling } : {}),
    ...(reasoningEffort ? { reasoningEffort } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/** A request the mock server received, recorded the same way (its body minus the messages). */
export function recordMock(request: MockRequest): RecordedRequest {
  const { messages: _, ...body } = request.body;
  return { messages: request.messages, body };
}

/** True for the forced-finish request. */
export function isForced(request: GenerateRequest | MockRequest): boolean {
  const last = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  return last.includes('No more code will run');
}

/** The text of every message, joined. */
export function allText(request: GenerateRequest | MockRequest): string {
  return request.messages.map((m) => m.content).join('\n');
}

/** A mock-server policy (the scripted eval policies) played by a ScriptedModel. */
export function policyReplies(policy: MockPolicy, model: string): Reply {
  return async (request, index) => {
    const reply = await policy({
      protocol: 'openai',
      model,
      messages: request.messages,
      tools: request.tools ?? [],
      stream: false,
      body: {},
      headers: {},
      index,
    });
    return typeof reply === 'string' ? reply : fromMockReply(reply);
  };
}

function fromMockReply(reply: MockReply): ScriptedReply {
  return {
    content: reply.content ?? '',
    ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}),
    ...(reply.finishReason ? { finishReason: reply.finishReason } : {}),
  };
}
