// Puts an error next to the field that caused it, going by IpcError.field only (never the message).
// The field is the dot path of the bad input in the request ("name", "words.0.reading",
// "options.numSpeakers"); each form field lists the paths it answers to, `*` standing for any list
// index ("words.*.reading").
export function fieldMatches(field: string, pattern: string): boolean {
  const parts = field.split('.');
  const wanted = pattern.split('.');
  return (
    parts.length === wanted.length &&
    wanted.every((part, i) => part === parts[i] || (part === '*' && /^\d+$/.test(parts[i]!)))
  );
}

/** The error when it is about one of `paths`, else null. */
export function errorFor<E extends { field?: string }>(error: E | null, paths: string[]): E | null {
  const field = error?.field;
  return field !== undefined && paths.some((path) => fieldMatches(field, path)) ? error : null;
}

/** The error when no field of the form claims it (shown for the whole form). */
export function formLevelError<E extends { field?: string }>(error: E | null, claimed: string[]): E | null {
  if (!error) return null;
  return errorFor(error, claimed) ? null : error;
}
