// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropZone } from '../../../../src-renderer/features/library/drop-zone';
import { DEFAULT_UPLOAD_OPTIONS, useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { installFakeApi, setUiLanguage } from '../fake-api';

const REFUSAL = {
  ok: false as const,
  error: {
    code: 'validation' as const,
    field: 'options.numSpeakers',
    message: 'The number of speakers must be 1 to 20.',
  },
};

beforeEach(() => {
  useUploadsStore.setState({ ...useUploadsStore.getInitialState(), options: DEFAULT_UPLOAD_OPTIONS }, true);
});
afterEach(() => {
  cleanup();
  setUiLanguage('en');
});

const drop = (name: string) =>
  fireEvent.drop(screen.getByTestId('drop-zone'), {
    dataTransfer: { files: [new File(['RIFF'], name, { type: 'audio/wav' })], types: ['Files'] },
  });

describe('a file dropped while an upload option is invalid', () => {
  it('is not added, and the drop zone says so and why', async () => {
    const fake = installFakeApi({ 'uploads:add': () => REFUSAL });
    render(<DropZone />);
    await act(async () => drop('meeting.wav'));
    expect(fake.calls.some((c) => c.channel === 'uploads:add')).toBe(true);
    expect(useUploadsStore.getState().jobs).toEqual([]);
    expect(screen.getByTestId('drop-refused').textContent).toContain(
      'Nothing was added: an option in “Upload options” is not valid (it says why there). Correct it, then add the files again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('drop-refused')).toBeNull();
  });

  it('says so in Japanese', async () => {
    setUiLanguage('ja');
    installFakeApi({ 'uploads:add': () => REFUSAL });
    render(<DropZone />);
    await act(async () => drop('meeting.wav'));
    expect(screen.getByTestId('drop-refused').textContent).toContain('追加されませんでした');
  });
});
