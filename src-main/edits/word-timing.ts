// Word timing lives in src-shared (the server reads reviews back into documents too).
export { alignWords, retimeWords, spreadWords, tokenize } from '../../src-shared/word-timing.js';
