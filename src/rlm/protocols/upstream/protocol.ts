/**
 * The `upstream-rlm-v0` planner style as a RootProtocol: the message layout
 * of the upstream RLM repository (system, context metadata as an assistant
 * message, replies each followed by one user message per executed block, and
 * a per-turn prompt that is sent every turn and never stored).
 */
import type { Message } from '../../../lm/model.js';
import { noActionNudge } from '../../finish/nudges.js';
import type { FinalCandidate } from '../fence/grammar.js';
import type { RootProtocol } from '../protocol.js';
import { upstreamContextMetadata } from './context-metadata.js';
import {
  cutUpstreamResult,
  formatUpstreamResult,
  upstreamBlockOutput,
  upstreamExecutionMessage,
} from './execution-result.js';
import { findReplBlocks, findUpstreamFinal } from './parser.js';
import { upstreamSystemPrompt } from './system-prompt.js';
import { upstreamTurnPrompt } from './turn-prompt.js';

/** Variables the harness itself binds, left out of `REPL variables: [...]`. */
const HARNESS_NAMES = new Set(['question', 'history']);

export interface UpstreamProtocolOptions {
  query: string;
  /** Each block's formatted output is cut at this many characters (upstream: 20,000). */
  outputLimit: number;
}

export function createUpstreamProtocol(options: UpstreamProtocolOptions): RootProtocol {
  const hidden = (name: string) => HARNESS_NAMES.has(name) || /^history_\d+$/.test(name);
  return {
    answerDict: false,
    wording: 'fence',
    systemPrompt: (_version, o) => upstreamSystemPrompt({ subcallChars: o.subcallChars }),
    opening: (shape) => [{ role: 'assistant', content: upstreamContextMetadata(shape) }],
    request: (history, turn) => [
      ...history,
      { role: 'user', content: upstreamTurnPrompt({ query: options.query, turn }) },
    ],
    parse(content) {
      const blocks = findReplBlocks(content).map((code) => ({
        code,
        source: 'fence' as const,
        complete: true,
      }));
      const found = findUpstreamFinal(content);
      let final: FinalCandidate | null = null;
      if (found?.kind === 'final')
        final = { kind: 'final', answer: found.answer, viaToolCall: false };
      if (found?.kind === 'final_var') {
        final = { kind: 'final_var', variable: found.variable, viaToolCall: false };
      }
      return {
        blocks,
        final,
        slips: 0,
        rejectedFinals: 0,
        nudges: [],
        noAction: noActionNudge(),
        acted: false,
      };
    },
    async formatBlock(_index, code, result, sandbox) {
      const variables = await sandbox.listVariables().catch(() => []);
      const visible = variables.filter((v) => !hidden(v.name));
      const shown = cutUpstreamResult(
        formatUpstreamResult(upstreamBlockOutput(result, visible)),
        options.outputLimit,
      );
      return {
        message: upstreamExecutionMessage(code, shown.text),
        shown: shown.text,
        cutChars: shown.cut,
      };
    },
    skippedBlock: (_index, code, why) => upstreamExecutionMessage(code, `Not run: ${why}.`),
    closeTurn(input) {
      const out: Message[] = [{ role: 'assistant', content: input.content }];
      for (const message of input.outputs) out.push({ role: 'user', content: message });
      const notes = input.nudges.map((n) => n.text).filter((t) => t.trim() !== '');
      if (notes.length > 0) out.push({ role: 'user', content: notes.join('\n\n') });
      return out;
    },
  };
}
