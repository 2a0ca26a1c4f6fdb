/**
 * `reclamo mock-server --policy rlm-demo`: a mock model that behaves like a
 * small RLM on any question and context, so `reclamo run` against it shows the
 * whole loop. The root looks at `context`, searches it for the question's
 * words with `grep`, has a sub-call read the lines it found, and finishes with
 * FINAL_VAR. The sub role answers with the line that shares the most words
 * with the question. It reads only what the harness sends; it is a stand-in
 * for a model, not one.
 */
import type { MockPolicy, MockReply, MockRequest } from '../../testing/mock-policy.js';
import { type RootAction, type RootTurn, readTurn, renderAction } from './conversation.js';

/** Words too common to search for. */
const STOP = new Set(
  'what which where when who whom whose why how does did do is are was were the a an of in on at to for from by with and or not this that these those there their them they it its into about line lines file files text context say says said hold holds'.split(
    ' ',
  ),
);

/** The Python that finds the question's words (bound by the harness as `question`). */
const SEARCH = `import re
_stop = set(${JSON.stringify([...STOP].sort().join(' '))}.split())
words = [w for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,}", question) if w.lower() not in _stop]
text = context if isinstance(context, str) else "\\n".join(f"{k}: {v}" for k, v in context.items())
pattern = "|".join(re.escape(w) for w in words)
hits = grep(text, pattern, context=0, ignore_case=True, max_matches=40) if words else ""
print(f"searched for {words}: {len(hits.splitlines())} lines")
print(hits[:3000] or "no line matches")`;

const LOOK = `print(type(context).__name__, len(context))
if isinstance(context, str):
    print(context[:400])
else:
    print(sorted(context)[:20])`;

const READ = `result = llm_query("Answer the question from these lines only. Reply with the best line.\\n"
                   f"Question: {question}\\nLines:\\n{hits[:6000]}") if hits else "no line of the context matches the question"
print(result)`;

/** The root's next step: look, search, read with a sub-call, answer. */
function rootStep(turn: RootTurn): RootAction {
  switch (turn.turn) {
    case 0:
      return { kind: 'code', code: LOOK, note: 'First I look at what the context is.' };
    case 1:
      return {
        kind: 'code',
        code: SEARCH,
        note: "It is too long to read whole; I search it for the question's words.",
      };
    case 2:
      return {
        kind: 'code',
        code: READ,
        note: 'A sub-call reads the matching lines and picks the answer.',
      };
    case 3:
      return { kind: 'final_var', variable: 'result', note: 'The sub-call answered.' };
    default:
      // FINAL_VAR was refused (no `result`: a block failed): say so rather than loop.
      return { kind: 'final', answer: 'no answer: the search failed', note: 'Giving up.' };
  }
}

/** The sub role: the line of the prompt that shares the most words with its question. */
function subAnswer(prompt: string): string {
  const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? '';
  const words = new Set(
    (question.toLowerCase().match(/[a-z0-9][a-z0-9_.-]{2,}/g) ?? []).filter((w) => !STOP.has(w)),
  );
  const lines = prompt.split('\n').slice(prompt.split('\n').indexOf('Lines:') + 1);
  let best = '';
  let bestScore = 0;
  for (const line of lines) {
    const score = (line.toLowerCase().match(/[a-z0-9][a-z0-9_.-]{2,}/g) ?? []).filter((w) =>
      words.has(w),
    ).length;
    if (score > bestScore) [best, bestScore] = [line.trim(), score];
  }
  return best.replace(/^\d+:\s*/, '') || 'The lines do not answer the question.';
}

/** A request from the loop's root (a system prompt, or tools) rather than a sub-call. */
function isRoot(request: MockRequest): boolean {
  return request.tools.length > 0 || request.messages.some((m) => m.role === 'system');
}

/** The rlm-demo policy: plays both roles of a small RLM on any question. */
export const rlmDemoPolicy: MockPolicy = (request): MockReply => {
  if (!isRoot(request)) return { content: subAnswer(request.messages.at(-1)?.content ?? '') };
  const turn = readTurn(request);
  // The forced finish (turns or time ran out) gets the answer the REPL holds, if any.
  const forced = /No more code will run/.test(turn.observation);
  return renderAction(forced ? rootStep({ ...turn, turn: 3 }) : rootStep(turn), turn);
};
