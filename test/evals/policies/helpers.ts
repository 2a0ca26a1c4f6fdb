import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeTaskContext } from '../../../src/evals/context-file.js';
import type { TaskInstance } from '../../../src/evals/task.js';
import type { Message } from '../../../src/lm/model.js';
import type { MockRequest } from '../../../src/testing/mock-policy.js';

const dir = join(process.cwd(), '.artifacts/policies');

/**
 * Run one code block of the scripted root in a plain python3 with `context`
 * loaded from a real file, and return what it printed. No sub-calls: only
 * for blocks that read the context by code.
 */
export async function runBlock(instance: TaskInstance, code: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${instance.task}-${instance.size}-${instance.seed}.txt`);
  await writeTaskContext(instance.context, path);
  const prelude = `context = open(${JSON.stringify(path)}, encoding="utf-8").read()\n`;
  return execFileSync('python3', ['-c', prelude + code], { encoding: 'utf8' });
}

/** Check that Python accepts each code block (compile only), in one interpreter. */
export function compiles(...codes: string[]): void {
  execFileSync(
    'python3',
    ['-c', 'import ast, json, sys\nfor c in json.load(sys.stdin): ast.parse(c)'],
    {
      input: JSON.stringify(codes),
    },
  );
}

/** A root request as the mock server would hand it to the policy. */
export function request(messages: Message[], model = 'scripted-root'): MockRequest {
  return {
    protocol: 'openai',
    model,
    messages,
    tools: [],
    stream: false,
    body: {},
    headers: {},
    index: 0,
  };
}

/** The code of a fenced reply. */
export function codeOf(content: string): string {
  const m = /```repl\n([\s\S]*?)\n```/.exec(content);
  if (!m?.[1]) throw new Error(`no repl block in: ${content}`);
  return m[1];
}
