// Puts a server error next to the field that caused it. IpcError.field may be a plain name ("name")
// or a path into the request ("words[2].reading"); a form lists the names each of its fields answers to.
import type { IpcError } from '../../../src-shared/ipc-contract';

export function fieldPath(field: string): string[] {
  return field.split(/[.[\]]+/).filter(Boolean);
}

/** The error when it is about one of `names`, else null. */
export function errorFor(error: IpcError | null, names: string[]): IpcError | null {
  if (!error?.field) return null;
  const path = fieldPath(error.field);
  const leaf = [...path].reverse().find((part) => !/^\d+$/.test(part));
  return leaf && names.includes(leaf) ? error : null;
}

/** The error when no field of the form claims it (shown for the whole form). */
export function formLevelError(error: IpcError | null, claimed: string[]): IpcError | null {
  if (!error) return null;
  return errorFor(error, claimed) ? null : error;
}
