/** A server that is not running: the error names the address and what to do. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EndpointError } from '../../src/errors.js';
import { createOpenAICompatibleModel } from '../../src/lm/openai-compatible.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('connection failures', () => {
  it('a refused connection says nothing listens there and how to fix base_url', async () => {
    const port = await closedPort();
    const model = createOpenAICompatibleModel({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      retry: { maxRetries: 0 },
    });
    const error = await model
      .doGenerate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:${port}/v1: connection failed: .*ECONNREFUSED.*\\. Nothing is listening there: start the model server, or fix base_url`,
      ),
    );
  });
});
