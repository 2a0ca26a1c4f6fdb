/**
 * `system_prompt_file`: a user-supplied system prompt that replaces the
 * built-in one verbatim (for example the exact text a checkpoint was trained
 * with). The file is read once per run, as UTF-8, byte for byte.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';

/** Read the file; a missing, unreadable, empty or non-UTF-8 file is a ConfigError naming it. */
export async function readSystemPromptFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError(
      `system_prompt_file ${path} cannot be read (${code}). Fix: point system_prompt_file (or --system-prompt-file) at an existing text file.`,
      path,
      'system_prompt_file',
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ConfigError(
      `system_prompt_file ${path} is not UTF-8 text. Fix: save the prompt as UTF-8.`,
      path,
      'system_prompt_file',
    );
  }
  if (text.trim() === '') {
    throw new ConfigError(
      `system_prompt_file ${path} is empty. Fix: put the system prompt text in it, or remove the setting.`,
      path,
      'system_prompt_file',
    );
  }
  return text;
}
