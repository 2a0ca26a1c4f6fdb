/**
 * The text of a frame's request. Layout: the system prompt, then one user
 * message with the views first, the answer shape next and the task last, so
 * frames asking different questions of the same views share a cacheable
 * prefix (system prompt and views, byte for byte).
 */
import type { Message } from '../lm/model.js';
import type { Contract } from './contract.js';
import type { MaterializedView } from './views.js';

const PURE_SYSTEM = [
  'You are an inference frame: one bounded step of a larger computation.',
  'You see only the views and the task below; nobody reads your reply except the program that asked, so reply with the answer alone.',
  'Use the views as your evidence. If they do not settle the question, say so in the answer rather than guessing.',
].join('\n');

const READ_SYSTEM = [
  PURE_SYSTEM,
  '',
  'You may call tools before you answer: read_file and search_files read files under the allowed folders; infer and map ask further frames (they share your budget, so ask only what you need).',
  'When you have what you need, answer without calling a tool. Your last request may come with tool calls disabled: then answer from what you have.',
].join('\n');

/** The system prompt of a frame, by capability. */
export function systemPrompt(read: boolean): string {
  return read ? READ_SYSTEM : PURE_SYSTEM;
}

function viewBlock(view: MaterializedView): string {
  const head = `<view label=${JSON.stringify(view.label)} bytes="${view.bytes}" sha256="${view.sha256}">`;
  return `${head}\n${view.content}\n</view>`;
}

/** What the answer must look like, in words (and the schema itself). */
export function shapeText(contract: Contract): string {
  if (contract.kind === 'text') {
    return 'Answer shape: plain text. Reply with the answer itself, nothing before or after it.';
  }
  return [
    'Answer shape: exactly one JSON value (an object, array, string, number, boolean or null) that validates against this JSON Schema (draft 2020-12):',
    JSON.stringify(contract.schema),
    'Reply with that JSON value only: no prose and no code fence around it.',
  ].join('\n');
}

/** The first messages of a frame. */
export function frameMessages(
  task: string,
  views: readonly MaterializedView[],
  contract: Contract,
  read: boolean,
): Message[] {
  const parts: string[] = [];
  if (views.length > 0) parts.push(`Views:\n\n${views.map(viewBlock).join('\n\n')}`);
  else parts.push('Views: none.');
  parts.push(shapeText(contract));
  parts.push(`Task:\n${task}`);
  return [
    { role: 'system', content: systemPrompt(read) },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

/** The user message that re-asks after an answer that did not fit the contract. */
export function repairMessage(problems: readonly string[], contract: Contract): string {
  const list = problems.map((problem) => `- ${problem}`).join('\n');
  const again =
    contract.kind === 'text'
      ? 'Answer the same task again, as plain text.'
      : 'Answer the same task again with exactly one JSON value that validates against the schema above, and nothing else.';
  return `Your answer could not be accepted:\n${list}\n${again}`;
}

/** The user message sent when tool calls are switched off for the last request. */
export const FINAL_REQUEST_NOTE =
  'Tool calls are now disabled: answer the task from what you have gathered.';
