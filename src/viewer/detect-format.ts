import type { Obj } from './coerce.js';
import type { TrajectoryFormat } from './view-model.js';

const RECLAMO_TYPES = new Set([
  'metadata',
  'iteration',
  'subcall',
  'compaction',
  'context_overflow',
  'forced_finish',
  'final',
]);

/** Which format a record comes from, or undefined when it could be either or neither. */
export function detectFormat(record: Obj): TrajectoryFormat | undefined {
  if (record.type === 'run_context') return 'upstream';
  if (record.type === 'metadata') {
    if ('root_model' in record || 'backend' in record) return 'upstream';
    if ('v' in record || 'runId' in record || 'query' in record) return 'reclamo';
    return undefined;
  }
  if (record.type === 'iteration') {
    if ('code_blocks' in record || 'response' in record || 'iteration' in record) return 'upstream';
    if ('v' in record || 'blocks' in record) return 'reclamo';
    return undefined;
  }
  if (typeof record.type === 'string' && RECLAMO_TYPES.has(record.type) && 'v' in record) {
    return 'reclamo';
  }
  return undefined;
}
