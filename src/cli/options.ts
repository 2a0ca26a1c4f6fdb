/** Shared commander option parsers with clear errors. */
import { InvalidArgumentError } from 'commander';
import { MIN_MEMORY_HEADROOM_MB } from '../config/schema.js';

/** Parse a non-negative integer, allowing `_` or `,` as thousands separators (1_000_000). */
export function parseIntegerOption(value: string): number {
  const n = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  }
  return n;
}

/** Parse an integer of at least 1 (a count or a limit where 0 makes no sense). */
export function parsePositiveIntegerOption(value: string): number {
  const n = parseIntegerOption(value);
  if (n < 1)
    throw new InvalidArgumentError(`expected a whole number of at least 1, got "${value}"`);
  return n;
}

/** Parse `--memory-headroom-mb`: whole MiB, at least MIN_MEMORY_HEADROOM_MB. */
export function parseMemoryHeadroomOption(value: string): number {
  const n = Number(value.replace(/[_,]/g, ''));
  if (value.trim() === '' || !Number.isInteger(n) || n < MIN_MEMORY_HEADROOM_MB) {
    throw new InvalidArgumentError(
      `expected a whole number of MiB of at least ${MIN_MEMORY_HEADROOM_MB} (e.g. 2048), got "${value}"`,
    );
  }
  return n;
}

/** Parse a comma-separated list of names. */
export function parseListOption(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Parse a rate from 0 to 1. */
export function parseRateOption(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`expected a number from 0 to 1, got "${value}"`);
  }
  return n;
}

/** Parse `--compaction-threshold-pct`: a fraction of the root window, 0 < x < 1. */
export function parseThresholdFraction(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n >= 1) {
    throw new InvalidArgumentError(
      `expected a fraction of the root window between 0 and 1, both excluded (e.g. 0.7), got "${value}"`,
    );
  }
  return n;
}

/** Parse `--hard-ceiling-pct`: a fraction of the root window, 0 < x <= 1. */
export function parseCeilingFraction(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) {
    throw new InvalidArgumentError(
      `expected a fraction of the root window above 0 and at most 1 (e.g. 0.9), got "${value}"`,
    );
  }
  return n;
}
