import type { ShownError } from '../i18n/error-text';
import { ErrorText } from './error-details';

export function FieldMessage({ id, error }: { id?: string; error: ShownError | null }) {
  if (!error) return null;
  return (
    <div className="field-error" id={id} role="alert" data-testid="field-error" data-field={error.field ?? ''}>
      <ErrorText error={error} />
    </div>
  );
}
