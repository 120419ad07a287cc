// Input limits, declared once: the server's request schemas, the IPC contract and the renderer's forms
// all read them from here. Documented for API users in docs/decisions/0003-limits.md.
// No imports: every layer may use it.

export const LIMITS = {
  /** Dictionary names. */
  name: 200,
  /** The audio file's name on upload. */
  filename: 500,
  word: 200,
  reading: 400,
  pattern: 200,
  replacement: 200,
  /** Items in one bulk request, or `words` on create and upload. */
  bulkItems: 1000,
  /** Replacement rules (`blacklist_words` on the wire) in one dictionary. */
  replacementRulesPerDictionary: 10_000,
  reviewedText: 2_000_000,
  /** Files queued by one "add files" or one folder import (uploads:add, uploads:add-folder). */
  uploadsPerRequest: 500,
  /** How many levels of subfolders a folder import looks into (decision 0029). */
  folderDepth: 8,
  /** A speaker's name (`speaker_names` in the transcript document). */
  speakerName: 100,
  /** Samples of one voice in the team voice library (decision 0065), in one request and in all. */
  voiceSamples: 20,
  /** Seconds of one sample: a voice is printed from its parts of a recording, not from whole recordings. */
  voiceSampleSeconds: 300,
  /** Seconds of speech a voice needs in all its samples to be enrolled. */
  voiceMinSpeechSeconds: 3,
  /**
   * Seconds of speech under which the app says a voice is recognized less reliably (decision 0075): a voice
   * learned from 4 s measured 0.08-0.45 from its own other sentences against the lone-voice threshold 0.3,
   * from 18 s 0.05-0.31.
   */
  voiceSteadySpeechSeconds: 20,
  /** num_speakers, min_speakers and max_speakers. */
  speakers: { min: 1, max: 99 },
} as const;
