/**
 * The scripted sub-model: answers the reading requests the scripted root
 * sends through llm_query / llm_query_batched.
 */
import type { MockPolicy, MockReply } from '../../testing/mock-policy.js';
import { LABEL_INSTRUCTION, labelTicketLines, type ReaderOptions } from './reader.js';

/** A sub policy that labels ticket batches and declines anything else. */
export function createSubPolicy(options: ReaderOptions = {}): MockPolicy {
  return (request): MockReply => {
    const prompt = request.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    if (prompt.includes(LABEL_INSTRUCTION)) {
      const lines = labelTicketLines(prompt.slice(prompt.indexOf(LABEL_INSTRUCTION)), options);
      return { content: lines.join('\n') };
    }
    return {
      content:
        'This scripted reader only labels support tickets sent in its batch format; it has no answer for this request.',
    };
  };
}
