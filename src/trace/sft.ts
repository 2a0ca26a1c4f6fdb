/**
 * SFT export: one `{"messages", "completion"}` line per root turn, the
 * format used to fine-tune a planner on its own trajectories.
 */
import { readFile } from 'node:fs/promises';
import type { Message } from '../lm/model.js';
import { safeParseJson } from '../util/safe-json.js';

export interface SftRecord {
  /** The conversation sent for the turn (system prompt first). */
  messages: Message[];
  /** The model's reply content for the turn (reasoning excluded). */
  completion: string;
}

/** Reads an `.sft.jsonl` file; malformed lines are reported with their numbers. */
export async function readSft(
  path: string,
): Promise<{ records: SftRecord[]; errors: { line: number; message: string }[] }> {
  const records: SftRecord[] = [];
  const errors: { line: number; message: string }[] = [];
  const lines = (await readFile(path, 'utf8')).split('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const parsed = safeParseJson(raw);
    const v = parsed.ok ? (parsed.value as Partial<SftRecord>) : undefined;
    if (!v || !Array.isArray(v.messages) || typeof v.completion !== 'string') {
      errors.push({
        line: i + 1,
        message: parsed.ok ? 'expected {messages, completion}' : parsed.error,
      });
    } else {
      records.push({ messages: v.messages, completion: v.completion });
    }
  });
  return { records, errors };
}
