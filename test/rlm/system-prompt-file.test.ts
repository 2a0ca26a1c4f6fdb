import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { readSystemPromptFile } from '../../src/rlm/system-prompt-file.js';

const dir = join('.artifacts', 'system-prompt-file');
mkdirSync(dir, { recursive: true });

describe('readSystemPromptFile', () => {
  it('returns the text byte for byte', async () => {
    const path = join(dir, 'ok.txt');
    const text = 'You are an RLM.\n  Keep this indentation.\n\n';
    writeFileSync(path, text);
    expect(await readSystemPromptFile(path)).toBe(text);
  });

  it('names the file and the fix when it is missing, empty or not UTF-8', async () => {
    const missing = join(dir, 'nope.txt');
    await expect(readSystemPromptFile(missing)).rejects.toThrow(
      /system_prompt_file .*nope\.txt cannot be read \(ENOENT\)\. Fix:/,
    );
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, ' \n');
    await expect(readSystemPromptFile(empty)).rejects.toBeInstanceOf(ConfigError);
    const binary = join(dir, 'bin.txt');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    await expect(readSystemPromptFile(binary)).rejects.toThrow(/not UTF-8/);
  });
});
