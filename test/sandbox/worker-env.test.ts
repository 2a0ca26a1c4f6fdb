import { describe, expect, it } from 'vitest';
import { isSafeEnvName, workerEnv } from '../../src/sandbox/python/worker-env.js';

describe('worker environment', () => {
  it('is built from nothing but a minimal PATH, a locale and throwaway dirs', () => {
    const env = workerEnv({ home: '/s/home', tmp: '/s/tmp' });
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(env.HOME).toBe('/s/home');
    expect(env.TMPDIR).toBe('/s/tmp');
    expect(env.LC_ALL).toBe('C.UTF-8');
    for (const name of Object.keys(process.env)) {
      if (!['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TMP', 'TEMP'].includes(name)) {
        expect(env).not.toHaveProperty(name);
      }
    }
  });

  it('refuses extra variables named like secrets or harness settings', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'MY_TOKEN',
      'db_secret',
      'RECLAMO_PROFILE',
      'ANTHROPIC_X',
      'GH_AUTH',
    ]) {
      expect(isSafeEnvName(name)).toBe(false);
    }
    expect(() => workerEnv({ home: '/h', tmp: '/t' }, { SERVICE_KEY: 'x' })).toThrow(
      /SERVICE_KEY may not be passed to the sandbox/,
    );
    expect(workerEnv({ home: '/h', tmp: '/t' }, { OMP_NUM_THREADS: '1' }).OMP_NUM_THREADS).toBe(
      '1',
    );
  });
});
