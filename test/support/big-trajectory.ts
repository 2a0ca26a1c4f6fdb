import { closeSync, openSync, writeSync } from 'node:fs';

export interface BigTrajectoryOptions {
  /** Root turns to write. */
  turns: number;
  /** Characters of REPL output per turn; raise it to reach a file size. */
  outputChars?: number;
  /** A sub-call every this many turns. */
  subcallEvery?: number;
}

const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, cachedInputTokens: 0 });

/**
 * Writes a long reclamo trajectory (metadata, turns with code, output and
 * reasoning, sub-calls, a compaction now and then, a final record), one line
 * at a time, and returns its size. Deterministic: same options, same bytes.
 */
export function writeBigTrajectory(path: string, options: BigTrajectoryOptions): { bytes: number } {
  const { turns, outputChars = 2_000, subcallEvery = 7 } = options;
  const fd = openSync(path, 'w');
  let bytes = 0;
  const t = (ms: number) => new Date(Date.UTC(2026, 9, 7, 9, 0, 0) + ms).toISOString();
  const write = (event: Record<string, unknown>) => {
    const line = `${JSON.stringify({ v: 1, ...event })}\n`;
    bytes += Buffer.byteLength(line);
    writeSync(fd, line);
  };
  const outputLine = 'record 0000: the quick brown fox jumps over the lazy dog\n';
  try {
    write({
      type: 'metadata',
      t: t(0),
      runId: 'big000',
      query: `Count the records that mention a fox, over ${turns} turns.`,
      context: { type: 'str', totalChars: 50_000_000, partLengths: [50_000_000] },
      depth: 0,
      maxDepth: 1,
      profile: { name: 'bench', settings: {} },
      endpoints: [
        { baseUrl: 'scripted://model', api: 'scripted', roles: ['root', 'sub'], concurrency: 1 },
      ],
      promptVersion: 'v0.2',
      protocol: 'fence',
      plannerStyle: 'reclamo',
    });
    let subcalls = 0;
    for (let turn = 1; turn <= turns; turn++) {
      const at = turn * 1000;
      if (turn % 50 === 0) {
        write({
          type: 'compaction',
          t: t(at),
          turn,
          beforeTokens: 30_000,
          afterTokens: 12_000,
          budgetTokens: 22_000,
          elidedTurns: [turn - 5],
          summarized: false,
          shrunkMessages: 0,
          estimator: 'chars',
        });
      }
      const code = `chunk = context[${turn * 10_000}:${(turn + 1) * 10_000}]\nhits = [l for l in chunk.splitlines() if 'fox' in l]\nprint(len(hits))\nprint(chunk[:${outputChars}])`;
      if (turn % subcallEvery === 0) {
        subcalls += 1;
        const prompt = `Does this chunk mention a fox? ${outputLine.repeat(10)}`;
        write({
          type: 'subcall',
          t: t(at + 500),
          depth: 0,
          kind: 'llm_query',
          turn,
          block: 1,
          count: subcalls,
          promptChars: prompt.length,
          answerChars: 3,
          promptPreview: prompt.slice(0, 200),
          answerPreview: 'yes',
          promptSha256: '0'.repeat(64),
          answerSha256: '1'.repeat(64),
          latencyMs: 420,
          endpoint: 'scripted://model',
          model: 'scripted',
          usage: usage(150, 1),
        });
      }
      const stdout = outputLine
        .repeat(Math.ceil(outputChars / outputLine.length))
        .slice(0, outputChars);
      write({
        type: 'iteration',
        t: t(at + 900),
        turn,
        content: `Turn ${turn}: reading the next chunk.\n\n\`\`\`repl\n${code}\n\`\`\``,
        reasoning: `I have read ${turn - 1} chunks so far. The next one starts at ${turn * 10_000}.`,
        blocks: [
          {
            code,
            result: {
              stdout,
              stderr: '',
              stdoutChars: stdout.length,
              stderrChars: 0,
              truncated: false,
              elapsedMs: 40,
              hostCalls: turn % subcallEvery === 0 ? 1 : 0,
              timedOut: false,
            },
          },
        ],
        nudges: [],
        final: null,
        endpoint: 'scripted://model',
        model: 'scripted',
        usage: usage(2_000 + (turn % 100) * 30, 120),
        finishReason: 'stop',
        timings: { modelMs: 800 + (turn % 13) * 40, replMs: 40, harnessMs: 3 },
      });
    }
    write({
      type: 'final',
      t: t(turns * 1000 + 1000),
      answer: String(turns),
      stopReason: 'final',
      turns,
      subcalls,
      usage: { root: usage(turns * 2_000, turns * 120), sub: usage(subcalls * 150, subcalls) },
      elapsedMs: turns * 1000,
      stats: { execs: turns, syntaxErrors: 0, rejectedFinals: 0, protocolSlips: 0, nudges: 0 },
    });
  } finally {
    closeSync(fd);
  }
  return { bytes };
}
