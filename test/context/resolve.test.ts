import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveContext } from '../../src/context/resolve.js';
import { ConfigError } from '../../src/errors.js';

describe('resolveContext', () => {
  it('refuses `-` when standard input is a terminal instead of waiting on it', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const error = await resolveContext('-', tty).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /standard input is a terminal, not a pipe\. Pipe the text in/,
    );
  });
});
