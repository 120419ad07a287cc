import type { IpcError } from '../../src-shared/ipc-contract';

export function FieldMessage({ id, error }: { id?: string; error: IpcError | null }) {
  if (!error) return null;
  return (
    <p className="field-error" id={id} role="alert" data-testid="field-error" data-field={error.field ?? ''}>
      {error.message}
    </p>
  );
}
