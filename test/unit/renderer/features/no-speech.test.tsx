// @vitest-environment happy-dom
// A finished transcription with no speech in it (a short tone, silence): the view says so and what to do,
// instead of an empty transcript strip under a lone "Speaker" legend.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TranscriptView } from '../../../../src-renderer/features/transcript/transcript-view';
import { ja } from '../../../../src-renderer/i18n/messages';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { installFakeApi, setUiLanguage, transcriptDetail } from '../fake-api';

beforeEach(() => {
  installFakeApi({ 'transcripts:get': () => transcriptDetail([]) });
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
});
afterEach(() => {
  cleanup();
  useSettingsStore.setState({ settings: null });
});

describe('a transcription with no speech', () => {
  it('says no speech was found and what to do, with no empty transcript and no speaker lane', async () => {
    render(<TranscriptView id="t1" />);
    const empty = await screen.findByTestId('no-speech');
    expect(empty.textContent).toContain('No speech was found in this recording.');
    expect(empty.textContent).toContain('Transcribe again');
    expect(screen.queryByTestId('transcript-pane')).toBeNull();
    expect(screen.queryByTestId('timeline')).toBeNull();
  });

  it('says so in Japanese', async () => {
    setUiLanguage('ja');
    render(<TranscriptView id="t1" />);
    expect((await screen.findByTestId('no-speech')).textContent).toContain(ja['transcript.noSpeech']);
  });
});
