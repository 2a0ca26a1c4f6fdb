/**
 * Contracts: the shape of the value a frame must return. `'text'` returns the
 * answer as a string; a JSON Schema (draft 2020-12, checked by ajv, compiled
 * once per schema) or a zod schema (converted to JSON Schema for the prompt,
 * checked by zod so the value has the schema's type) returns a parsed JSON value.
 */
import Ajv2020Import from 'ajv/dist/2020.js';
import { type ZodType, z } from 'zod';
import { isRecord } from '../util/safe-json.js';
import { ContractError } from './errors.js';

/** A JSON Schema document (draft 2020-12), as a plain object. */
export type JsonSchema = Record<string, unknown> | boolean;

/** What a caller may pass as a contract. */
export type ContractInput = 'text' | JsonSchema | ZodType;

/** The value a contract yields: string for text, the zod output type, else unknown JSON. */
export type ContractValue<C> = C extends 'text' | undefined
  ? string
  : C extends ZodType
    ? z.output<C>
    : unknown;

/** A contract ready to use: its prompt text and its checker. */
export interface Contract {
  kind: 'text' | 'schema';
  /** The JSON Schema shown to the model and kept in the trace (schema contracts). */
  schema?: JsonSchema;
  /** Checks a parsed value; returns the value to hand back, or the problems found. */
  check(value: unknown): { ok: true; value: unknown } | { ok: false; errors: string[] };
}

type Checker = Contract['check'];

interface AjvLike {
  compile(schema: JsonSchema): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
  removeSchema(key: string): unknown;
}
interface AjvError {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}
type AjvClass = new (options: Record<string, unknown>) => AjvLike;

// ajv ships CommonJS: under Node's ESM loader the class is the default export's `default`.
const Ajv2020 = ((Ajv2020Import as unknown as { default?: AjvClass }).default ??
  Ajv2020Import) as unknown as AjvClass;

const TEXT: Contract = { kind: 'text', check: (value) => ({ ok: true, value }) };
const MAX_CACHED = 256;
const byObject = new WeakMap<object, Contract>();
const byText = new Map<string, Contract>();

/** Turns a contract option into a Contract; throws ContractError for a schema that cannot be used. */
export function resolveContract(input: ContractInput | undefined): Contract {
  if (input === undefined || input === 'text') return TEXT;
  if (typeof input === 'string') {
    throw new ContractError(
      `contract must be 'text', a JSON Schema object or a zod schema, got the string ${JSON.stringify(input)}.`,
      undefined,
      'contract',
    );
  }
  if (typeof input === 'boolean') return compileJsonSchema(input);
  const cached = byObject.get(input);
  if (cached) return cached;
  const contract = isZod(input) ? fromZod(input) : fromJsonSchema(input);
  byObject.set(input, contract);
  return contract;
}

function isZod(input: object): input is ZodType {
  return '_zod' in input && typeof (input as { safeParse?: unknown }).safeParse === 'function';
}

function fromZod(schema: ZodType): Contract {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema) as JsonSchema;
  } catch (error) {
    throw new ContractError(
      `The zod contract cannot be written as JSON Schema: ${(error as Error).message}. Use types JSON can carry (no dates, functions, maps or transforms without an output type).`,
      undefined,
      'contract',
    );
  }
  const check: Checker = (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return { ok: true, value: parsed.data };
    return {
      ok: false,
      errors: parsed.error.issues.map(
        (issue) => `${pointer(issue.path.map(String))}: ${issue.message}`,
      ),
    };
  };
  return { kind: 'schema', schema: json, check };
}

function fromJsonSchema(schema: Record<string, unknown>): Contract {
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    throw new ContractError(
      `The contract schema is not JSON (${(error as Error).message}). Pass a plain JSON Schema object.`,
      undefined,
      'contract',
    );
  }
  const cached = byText.get(text);
  if (cached) return cached;
  const contract = compileJsonSchema(schema);
  byText.set(text, contract);
  if (byText.size > MAX_CACHED) {
    const oldest = byText.keys().next().value;
    if (oldest !== undefined) byText.delete(oldest);
  }
  return contract;
}

function compileJsonSchema(schema: JsonSchema): Contract {
  if (
    isRecord(schema) &&
    typeof schema.$schema === 'string' &&
    !schema.$schema.includes('2020-12')
  ) {
    throw new ContractError(
      `The contract schema declares $schema ${JSON.stringify(schema.$schema)}; only JSON Schema draft 2020-12 is supported. Remove $schema or set it to https://json-schema.org/draft/2020-12/schema.`,
      undefined,
      'contract',
    );
  }
  const ajv = sharedAjv();
  // A new schema reusing an $id replaces the old one instead of clashing with it.
  if (isRecord(schema) && typeof schema.$id === 'string') ajv.removeSchema(schema.$id);
  let validate: ReturnType<AjvLike['compile']>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new ContractError(
      `The contract is not a valid JSON Schema (draft 2020-12): ${(error as Error).message}. Fix the schema; nothing was sent to the model.`,
      undefined,
      'contract',
    );
  }
  const check: Checker = (value) => {
    if (validate(value)) return { ok: true, value };
    return { ok: false, errors: (validate.errors ?? []).map(describeAjvError) };
  };
  return { kind: 'schema', schema, check };
}

let ajvInstance: AjvLike | undefined;

/** One validator instance: its meta-schemas cost ~100 ms to compile, a schema ~1 ms after that. */
function sharedAjv(): AjvLike {
  ajvInstance ??= new Ajv2020({
    allErrors: true,
    strictTypes: false,
    strictTuples: false,
    validateFormats: false,
    logger: false,
  });
  return ajvInstance;
}

function describeAjvError(error: AjvError): string {
  const extra =
    error.params && typeof error.params.additionalProperty === 'string'
      ? ` (${error.params.additionalProperty})`
      : '';
  return `${error.instancePath || '/'}: ${error.message ?? 'is invalid'}${extra}`;
}

function pointer(path: string[]): string {
  return path.length === 0 ? '/' : `/${path.join('/')}`;
}
