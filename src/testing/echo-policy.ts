import type { MockPolicy } from './mock-policy.js';

/** The mock server's default policy: answers every request by quoting its last message. */
export const echoPolicy: MockPolicy = (request) => {
  const last = request.messages.at(-1)?.content ?? '';
  return `mock reply to: ${last.length > 200 ? `${last.slice(0, 200)}...` : last}`;
};
