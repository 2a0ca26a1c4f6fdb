/**
 * The scripted root model. It recognises the built-in task from the question,
 * then takes the next step of that task's script, deciding only from the
 * REPL output the harness echoed back. It never sees the answer key, so a
 * harness that loses or garbles output makes it answer wrong.
 */
import type { MockPolicy, MockReply } from '../../testing/mock-policy.js';
import { type RootAction, type RootTurn, readTurn, renderAction } from './conversation.js';
import { answerPlain, isPlainRequest, type PlainReaderOptions } from './plain-reader.js';
import { LONGDOC_MARKER, longdocStep } from './root/longdoc.js';
import { NEEDLE_MARKER, needleStep } from './root/needle.js';
import {
  type Delegation,
  NESTED_CHILD_MARKER,
  NESTED_MARKER,
  nestedChildStep,
  nestedStep,
} from './root/nested.js';
import { OOLONG_MARKER, oolongStep } from './root/oolong.js';

export interface RootPolicyOptions extends PlainReaderOptions {
  /** nested: start a child RLM per department when the prompt offers rlm_query (`auto`, default), always, or never. */
  delegation?: Delegation;
}

/** Which built-in task a conversation is about, from the question text. */
export function recogniseTask(turn: RootTurn): string | undefined {
  const text = turn.harnessText;
  if (text.includes(NESTED_CHILD_MARKER)) return 'nested-child';
  if (text.includes(NESTED_MARKER)) return 'nested';
  if (text.includes(NEEDLE_MARKER)) return 'needle';
  if (text.includes(OOLONG_MARKER)) return 'oolong-lite';
  if (text.includes(LONGDOC_MARKER)) return 'longdoc-qa';
  return undefined;
}

/** The next action of the scripted root for one request. */
export function rootStep(turn: RootTurn, options: RootPolicyOptions = {}): RootAction {
  switch (recogniseTask(turn)) {
    case 'needle':
      return needleStep(turn);
    case 'oolong-lite':
      return oolongStep(turn);
    case 'longdoc-qa':
      return longdocStep(turn);
    case 'nested':
      return nestedStep(turn, options.delegation ?? 'auto');
    case 'nested-child':
      return nestedChildStep(turn);
    default:
      return {
        kind: 'final',
        answer: 'The scripted offline policy has no strategy for this task',
        note: 'This question is not one of the built-in tasks.',
      };
  }
}

/** A mock-server policy playing the root role (and the plain baseline). */
export function createRootPolicy(options: RootPolicyOptions = {}): MockPolicy {
  return (request): MockReply => {
    if (isPlainRequest(request)) return { content: answerPlain(request, options) };
    const turn = readTurn(request);
    return renderAction(rootStep(turn, options), turn);
  };
}
