/**
 * Keeping a read frame's file access under its allowed folders. Every path
 * the model names is hostile input: it is resolved (relative to the first
 * root), its symlinks followed, and refused unless the real path lies under
 * one of the roots' real paths.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A path the model named that may not be read, with the reason the model will see. */
export class PathRefused extends Error {
  override readonly name = 'PathRefused';
}

/** True when `path` is `root` or inside it (both real, absolute paths). */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** How a path is shown to the model: relative to the first root it lies under. */
export function shownPath(real: string, roots: readonly string[]): string {
  const root = roots.find((r) => isUnder(real, r)) ?? roots[0] ?? '';
  const rel = relative(root, real);
  return rel === '' ? '.' : rel;
}

/** Resolves a requested path to a real path under the roots, or throws PathRefused. */
export async function confinePath(requested: unknown, roots: readonly string[]): Promise<string> {
  if (typeof requested !== 'string' || requested === '' || requested.length > 4_096) {
    throw new PathRefused('path must be a non-empty string of at most 4096 characters');
  }
  if (requested.includes('\0')) throw new PathRefused('path must not contain NUL');
  const first = roots[0];
  if (first === undefined) throw new PathRefused('no folders are readable in this frame');
  const candidate = isAbsolute(requested) ? requested : resolve(first, requested);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    throw new PathRefused(`${requested}: no such file or folder under the allowed folders`);
  }
  if (!roots.some((root) => isUnder(real, root))) {
    throw new PathRefused(
      `${requested}: outside the allowed folders; only files under them can be read`,
    );
  }
  return real;
}
