// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropZone } from '../../../../src-renderer/features/library/drop-zone';
import { UploadOptionsForm } from '../../../../src-renderer/features/library/upload-options-form';
import { DEFAULT_UPLOAD_OPTIONS, useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { LIMITS } from '../../../../src-shared/limits';
import { installFakeApi } from '../fake-api';

beforeEach(() => {
  useUploadsStore.setState({ ...useUploadsStore.getInitialState(), options: DEFAULT_UPLOAD_OPTIONS }, true);
  installFakeApi({ 'dictionaries:list': () => [] });
});
afterEach(cleanup);

/** The error the input points at with aria-describedby: the message next to it. */
const errorOf = (input: HTMLElement) => {
  const describedBy = input.getAttribute('aria-describedby');
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null;
};
const chooseMode = (mode: 'auto' | 'exact' | 'range') => fireEvent.change(screen.getByTestId('speaker-mode'), { target: { value: mode } });

describe('UploadOptionsForm', () => {
  it('allows the shared speaker limit, not a renderer-only one', () => {
    render(<UploadOptionsForm />);
    chooseMode('range');
    for (const testId of ['min-speakers-input', 'max-speakers-input']) {
      expect(screen.getByTestId(testId).getAttribute('max')).toBe(String(LIMITS.speakers.max));
    }
    chooseMode('exact');
    expect(screen.getByTestId('num-speakers-input').getAttribute('max')).toBe(String(LIMITS.speakers.max));
    fireEvent.change(screen.getByTestId('num-speakers-input'), { target: { value: '64' } });
    expect(useUploadsStore.getState().options.numSpeakers).toBe(64);
    expect(errorOf(screen.getByTestId('num-speakers-input'))).toBeNull();
  });

  it('checks the speaker counts with the shared rule and says so next to the field', () => {
    render(<UploadOptionsForm />);
    chooseMode('range');
    fireEvent.change(screen.getByTestId('min-speakers-input'), { target: { value: '4' } });
    fireEvent.change(screen.getByTestId('max-speakers-input'), { target: { value: '2' } });
    expect(errorOf(screen.getByTestId('min-speakers-input'))).toBe('The minimum is above the maximum.');
    expect(screen.getByTestId('min-speakers-input').getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(screen.getByTestId('max-speakers-input'))).toBeNull();

    chooseMode('exact');
    fireEvent.change(screen.getByTestId('num-speakers-input'), { target: { value: String(LIMITS.speakers.max + 1) } });
    expect(errorOf(screen.getByTestId('num-speakers-input'))).toBe(`Enter a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}.`);
  });

  it('places main’s refusal by its field, next to the option and not in the drop zone banner', async () => {
    installFakeApi({
      'dictionaries:list': () => [],
      'uploads:add': () => ({ ok: false, error: { code: 'validation', field: 'options.language', message: 'Language must be a two-letter ISO 639-1 code such as "en" or "ja".' } }),
    });
    render(
      <>
        <DropZone />
        <UploadOptionsForm />
      </>,
    );
    await act(() => useUploadsStore.getState().addPaths(['/tmp/a.wav']));
    const message = screen.getByText(/two-letter ISO 639-1 code/);
    expect(message.getAttribute('data-field')).toBe('options.language');
    expect(screen.getByTestId('language-input').getAttribute('aria-describedby')).toBe(message.id);
    expect(document.querySelector('.error-banner')).toBeNull();
    expect((document.querySelector('details.upload-options') as HTMLDetailsElement).open).toBe(true);

    // Changing an option settles the refusal.
    fireEvent.change(screen.getByTestId('language-input'), { target: { value: 'en' } });
    fireEvent.keyDown(screen.getByTestId('language-input'), { key: 'Enter' });
    expect(useUploadsStore.getState().options.language).toBe('en');
    expect(screen.queryByText(/two-letter ISO 639-1 code/)).toBeNull();
  });

  it('keeps errors that are not about an option in the drop zone banner', async () => {
    installFakeApi({ 'uploads:add': () => ({ ok: false, error: { code: 'validation', field: 'paths', message: '“a.wav” is empty.' } }) });
    render(<DropZone />);
    await act(() => useUploadsStore.getState().addPaths(['/tmp/a.wav']));
    expect(document.querySelector('.error-banner')?.textContent).toContain('“a.wav” is empty.');
  });
});
