// Validates every IPC request against its schema in src-shared/ipc/requests.ts, once, before the
// handler runs: the renderer is untrusted. A valid request is decoded (trimmed, lower-cased) and
// then checked against the rules that span fields (request-rules.ts). A refused one becomes an
// AppFailure {code: 'validation', field, message}: `field` is the dot path of the bad input
// ("options.numSpeakers", "words.0.reading"), the message says what is wrong in the user's terms.
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Check, Clone, DecodeUnsafe } from 'typebox/value';
import type { IpcChannel, IpcValidRequest } from '../../src-shared/ipc-contract.js';
import { IPC_REQUESTS, type MessageOptions } from '../../src-shared/ipc/requests.js';
import { AppFailure } from '../app-failure.js';
import { requestRuleProblem, type RequestProblem } from './request-rules.js';

type Validator = ReturnType<typeof Compile>;
const validators = new Map<IpcChannel, Validator>();

function validatorOf(channel: IpcChannel): Validator {
  let validator = validators.get(channel);
  if (!validator) {
    validator = Compile(IPC_REQUESTS[channel] as TSchema);
    validators.set(channel, validator);
  }
  return validator;
}

/** The request, validated and normalised, or an AppFailure naming the bad field. */
export function validateRequest<C extends IpcChannel>(channel: C, request: unknown): IpcValidRequest<C> {
  const validator = validatorOf(channel);
  if (!validator.Check(request)) throw refusal(explainFailure(IPC_REQUESTS[channel], request, validator));
  // Decoding may rewrite values in place: never touch the caller's object.
  const decoded = DecodeUnsafe({}, IPC_REQUESTS[channel], Clone(request)) as IpcValidRequest<C>;
  const problem = requestRuleProblem(channel, decoded);
  if (problem) throw refusal(problem);
  return decoded;
}

function refusal(problem: RequestProblem): AppFailure {
  // The words come from the schema, in English: the detail under the app's own reason.
  return new AppFailure({
    code: 'validation',
    field: problem.field,
    reason: 'invalid-request',
    detail: problem.message,
  });
}

// ---------- messages ----------

type Node = TSchema &
  MessageOptions & {
    title?: string;
    type?: string;
    anyOf?: Node[];
    enum?: unknown[];
    const?: unknown;
    properties?: Record<string, Node>;
    required?: string[];
    additionalProperties?: boolean;
    items?: Node;
    minItems?: number;
    maxItems?: number;
    minLength?: number;
    maxLength?: number;
    pattern?: string;
    minimum?: number;
    maximum?: number;
  };

function explainFailure(schema: TSchema, value: unknown, validator: Validator): RequestProblem {
  const explained = explain(schema, value, []);
  if (explained) return explained;
  // A keyword the wording below does not know: fall back on TypeBox's own report.
  const [first] = validator.Errors(value);
  const path = (first?.instancePath ?? '').split('/').filter(Boolean);
  return { field: fieldOf(path), message: `${labelOf({}, path)} ${first?.message ?? 'is not valid'}.` };
}

/**
 * Walks the schema in declaration order and words the first thing wrong with `value`, the way the
 * hand-written checks did: unknown and missing keys first, then each field in turn.
 */
function explain(schema: Node, value: unknown, path: string[]): RequestProblem | null {
  const problem = explainNode(schema, value, path);
  if (problem && schema.invalidMessage) return { field: fieldOf(path), message: schema.invalidMessage };
  return problem;
}

function explainNode(schema: Node, value: unknown, path: string[]): RequestProblem | null {
  const field = fieldOf(path);
  const label = labelOf(schema, path);
  const at = (message: string, where = field): RequestProblem => ({ field: where, message });

  if (schema.anyOf) {
    if (schema.anyOf.some((branch) => Check(branch, value))) return null;
    const choices = schema.anyOf.flatMap((branch) =>
      branch.const !== undefined ? [branch.const] : (branch.enum ?? []),
    );
    if (choices.length === schema.anyOf.length) return at(`${label} must be one of ${choices.join(', ')}.`);
    // Explain against the branch the value was meant for: the one of its type, else the first real one.
    const meant =
      schema.anyOf.find((branch) => branch.type !== undefined && jsonTypeMatches(branch.type, value)) ??
      schema.anyOf.find((branch) => branch.type !== 'null' && branch.type !== 'undefined') ??
      schema.anyOf[0]!;
    return explain({ ...meant, title: meant.title ?? schema.title }, value, path);
  }
  if (schema.enum) return schema.enum.includes(value) ? null : at(`${label} must be one of ${schema.enum.join(', ')}.`);
  if (schema.const !== undefined)
    return value === schema.const ? null : at(`${label} must be ${JSON.stringify(schema.const)}.`);

  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return at(`Expected an object for ${path.length ? label : 'the request'}.`, field || 'request');
      const properties = schema.properties ?? {};
      const record = value as Record<string, unknown>;
      if (schema.additionalProperties === false) {
        const unknown = Object.keys(record).find((key) => !(key in properties));
        if (unknown !== undefined) return at(`Unknown field "${unknown}".`, fieldOf([...path, unknown]));
      }
      const missing = (schema.required ?? []).find((key) => record[key] === undefined);
      if (missing !== undefined) return at(`Missing field "${missing}".`, fieldOf([...path, missing]));
      for (const [key, property] of Object.entries(properties)) {
        if (record[key] === undefined) continue;
        const problem = explain(property, record[key], [...path, key]);
        if (problem) return problem;
      }
      return null;
    }
    case 'array': {
      if (!Array.isArray(value)) return at(`${label} must be a list.`);
      if (schema.minItems !== undefined && value.length < schema.minItems) {
        return at(
          schema.minItems === 1 ? `${label} must not be empty.` : `${label} needs at least ${schema.minItems} items.`,
        );
      }
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        return at(`${label} can hold at most ${schema.maxItems} items.`);
      for (const [index, item] of value.entries()) {
        const problem = schema.items ? explain(schema.items, item, [...path, String(index)]) : null;
        if (problem) return problem;
      }
      return null;
    }
    case 'string': {
      if (typeof value !== 'string') return at(`${label} must be text.`);
      if (schema.minLength !== undefined && value.trim().length < schema.minLength) {
        return at(
          schema.minLength === 1
            ? `${label} must not be empty.`
            : `${label} must have at least ${schema.minLength} characters.`,
        );
      }
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
        return at(`${label} ${schema.patternHint ?? 'is not valid'}.`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return at(`${label} must have at most ${schema.maxLength} characters.`);
      return null;
    }
    case 'integer':
    case 'number': {
      if (schema.type === 'integer' && !Number.isInteger(value)) return at(`${label} must be a whole number.`);
      if (typeof value !== 'number' || !Number.isFinite(value)) return at(`${label} must be a number.`);
      const { minimum = -Infinity, maximum = Infinity } = schema;
      if (value < minimum || value > maximum) return at(`${label} must be between ${minimum} and ${maximum}.`);
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : at(`${label} must be true or false.`);
    default:
      return Check(schema, value) ? null : at(`${label} is not valid.`);
  }
}

function jsonTypeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number';
    case 'null':
      return value === null;
    case 'undefined':
      return value === undefined;
    default:
      return typeof value === type;
  }
}

function fieldOf(path: string[]): string {
  return path.join('.');
}

/** The schema's title, else the field's own name, else (for list items) the whole path. */
function labelOf(schema: Node, path: string[]): string {
  if (schema.title) return schema.title;
  const last = path.at(-1);
  if (last === undefined) return 'The request';
  return /^\d+$/.test(last) ? fieldOf(path) : last;
}
