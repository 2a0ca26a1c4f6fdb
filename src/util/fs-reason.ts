/** A file-system error's cause in words, for messages that name the problem. */

const REASONS: Record<string, string> = {
  ENOTDIR: 'part of the path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'it does not exist',
  ENOSPC: 'the disk is full',
};

/** The reason behind a file-system error, in words. */
export function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  if (known !== undefined) return `${known} (${String(code)})`;
  return error instanceof Error ? error.message : String(error);
}
