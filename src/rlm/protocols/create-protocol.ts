/** Picks the RootProtocol for a run's settings. */

import type { ResolvedSettings } from '../settings.js';
import { createFenceProtocol } from './fence/protocol.js';
import type { RootProtocol } from './protocol.js';
import { createToolsProtocol } from './tools/protocol.js';
import { createUpstreamProtocol } from './upstream/protocol.js';

/** One protocol object per loop (the tools protocol keeps per-run slip state). */
export function createRootProtocol(settings: ResolvedSettings, query: string): RootProtocol {
  if (settings.plannerStyle === 'upstream-rlm-v0') {
    return createUpstreamProtocol({ query, outputLimit: settings.outputTruncateChars });
  }
  if (settings.protocol === 'tools') return createToolsProtocol(settings.outputTruncateChars);
  return createFenceProtocol(settings.outputTruncateChars);
}
