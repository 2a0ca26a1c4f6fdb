/** Shared set-up for loop tests: real context files, the real Python worker, scripted answers. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GenerateRequest } from '../../src/lm/model.js';
import { type RunOptions, type RunResult, run } from '../../src/rlm/run.js';
import { ScriptedModel, type ScriptedReplies } from '../../src/testing/index.js';
import type { TrajectoryEvent } from '../../src/trace/events.js';
import { readTrajectory } from '../../src/trace/reader.js';

export const ARTIFACTS = resolve('.artifacts/test/rlm');

/** A fresh directory under .artifacts for one test. */
export function freshDir(name: string): string {
  const dir = join(ARTIFACTS, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes a context file of numbered lines with one needle line. */
export function needleFile(dir: string, lines = 1000, needleAt = 700): string {
  const path = join(dir, 'context.txt');
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(i === needleAt ? 'the passphrase is tangerine-42' : `line ${i}: nothing to see`);
  }
  writeFileSync(path, `${out.join('\n')}\n`);
  return path;
}

export interface ScriptedRun {
  result: RunResult;
  root: ScriptedModel;
  sub: ScriptedModel;
  events: TrajectoryEvent[];
  dir: string;
}

/** Runs the loop with scripted root and sub models over a real context file. */
export async function runScripted(
  name: string,
  rootReplies: ScriptedReplies,
  options: Partial<RunOptions> & { subReplies?: ScriptedReplies; contextPath?: string } = {},
): Promise<ScriptedRun> {
  const dir = freshDir(name);
  const { subReplies, contextPath, ...rest } = options;
  const root = new ScriptedModel({
    replies: rootReplies,
    modelId: 'root-model',
    endpoint: 'scripted://root',
  });
  const sub = new ScriptedModel({
    replies: subReplies ?? 'sub answer',
    modelId: 'sub-model',
    endpoint: 'scripted://sub',
  });
  const result = await run({
    query: 'Which line holds the passphrase?',
    context: contextPath ?? needleFile(dir),
    models: { root, sub },
    logDir: join(dir, 'runs'),
    ...rest,
  });
  const { events, errors } = await readTrajectory(result.trajectoryPath);
  if (errors.length > 0) throw new Error(`trajectory errors: ${JSON.stringify(errors)}`);
  return { result, root, sub, events, dir };
}

/** The text of every message in a request, joined. */
export function requestText(request: GenerateRequest | undefined): string {
  return (request?.messages ?? []).map((m) => m.content).join('\n');
}

/** The last user message of a request. */
export function lastUser(request: GenerateRequest | undefined): string {
  const users = (request?.messages ?? []).filter((m) => m.role === 'user');
  return users.at(-1)?.content ?? '';
}

export function ofType<T extends TrajectoryEvent['type']>(
  events: TrajectoryEvent[],
  type: T,
): Extract<TrajectoryEvent, { type: T }>[] {
  return events.filter((e): e is Extract<TrajectoryEvent, { type: T }> => e.type === type);
}
