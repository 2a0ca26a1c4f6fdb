/** TOML-style dotted key paths for messages, e.g. `profiles.lab.root.max_tokens`. */

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** Joins path segments, quoting any that TOML would need quoted. */
export function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment) => {
      const text = String(segment);
      return BARE_KEY.test(text) ? text : JSON.stringify(text);
    })
    .join('.');
}

/** The TOML table header a key lives under, e.g. `[profiles.lab.root]`. */
export function tableOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'the top level' : `[${keyPath(path)}]`;
}
