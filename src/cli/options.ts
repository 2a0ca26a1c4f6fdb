/** Shared commander option parsers with clear errors. */
import { InvalidArgumentError } from 'commander';

/** Parse a non-negative integer, allowing `_` or `,` as thousands separators (1_000_000). */
export function parseIntegerOption(value: string): number {
  const n = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  }
  return n;
}

/** Parse a comma-separated list of integers (sizes), e.g. `1000,10000` or `1e3,1e6`. */
export function parseIntegerListOption(value: string): number[] {
  return value.split(',').map((part) => {
    const n = Number(part.trim().replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 0) {
      throw new InvalidArgumentError(`expected integers separated by commas, got "${value}"`);
    }
    return n;
  });
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
