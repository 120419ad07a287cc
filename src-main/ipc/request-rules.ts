// What a request schema cannot say: rules that span several fields. They run after the schema
// accepted and decoded the request, so they see typed, normalised values.
import type { AnalysisKind, IpcChannel, IpcValidRequest, UploadOptions } from '../../src-shared/ipc-contract.js';
import { assertNever } from '../../src-shared/assert-never.js';
import { LIMITS } from '../../src-shared/limits.js';
import { checkSpeakerCounts, type SpeakerCountProblem } from '../../src-shared/speaker-count.js';

export interface RequestProblem {
  /** Dot path of the bad input inside the request. */
  field: string;
  message: string;
}

type Rules = { [C in IpcChannel]?: (request: IpcValidRequest<C>) => RequestProblem | null };

const RULES: Rules = {
  'uploads:add': ({ options }) => uploadOptionsProblem(options, 'options.'),
  'uploads:add-folder': ({ options }) => uploadOptionsProblem(options, 'options.'),
  'transcripts:rerun': ({ options }) => (options ? uploadOptionsProblem(options, 'options.') : null),
  'analysis:request': ({ kind, language }) => analysisLanguageProblem(kind, language, true),
  // Without a language, 'analysis:get' answers the latest translation.
  'analysis:get': ({ kind, language }) => analysisLanguageProblem(kind, language, false),
};

function analysisLanguageProblem(
  kind: AnalysisKind,
  language: string | undefined,
  translationNeedsOne: boolean,
): RequestProblem | null {
  if (kind !== 'translation')
    return language === undefined ? null : { field: 'language', message: 'Only a translation takes a language.' };
  return translationNeedsOne && language === undefined
    ? { field: 'language', message: 'Choose the language to translate into.' }
    : null;
}

export function requestRuleProblem<C extends IpcChannel>(
  channel: C,
  request: IpcValidRequest<C>,
): RequestProblem | null {
  const rule = RULES[channel];
  return rule ? rule(request) : null;
}

/** Speaker counts that cannot hold together, or a dictionary and ad-hoc words at once. */
function uploadOptionsProblem(options: UploadOptions, prefix: string): RequestProblem | null {
  const speakers = checkSpeakerCounts(options);
  if (speakers) return { field: `${prefix}${speakers.field}`, message: speakerCountMessage(speakers) };
  // The server makes a temporary dictionary of ad-hoc words in place of the chosen one.
  if (options.dictionaryId && options.words.length > 0)
    return { field: `${prefix}words`, message: 'Choose a dictionary or add words for this upload, not both.' };
  return null;
}

function speakerCountMessage(problem: SpeakerCountProblem): string {
  switch (problem.reason) {
    case 'out-of-range':
      return `The number of speakers must be between ${LIMITS.speakers.min} and ${LIMITS.speakers.max}.`;
    case 'min-above-max':
      return 'The minimum number of speakers is above the maximum.';
    case 'outside-min-max':
      return 'The number of speakers must lie between the minimum and the maximum.';
    default:
      return assertNever(problem.reason, 'speaker count problem');
  }
}
