// One side of two versions of a segment, its differing words highlighted (src-shared/word-diff.ts): in
// History, removed words struck through on the earlier side and added ones marked on the later; in a
// conflict, each side's own words marked. The highlight repeats what the labels beside the text say
// ("Before", "After", "Your version"...), so colour is never the only cue.
import { Fragment } from 'react';
import type { DiffRun } from '../../../src-shared/word-diff';

const ELEMENT = { before: 'del', after: 'ins', mine: 'mark', theirs: 'mark' } as const;

export function WordDiffText(props: { runs: DiffRun[]; separator: string; side: keyof typeof ELEMENT }) {
  const Changed = ELEMENT[props.side];
  return (
    <>
      {props.runs.map((run, index) => (
        <Fragment key={index}>
          {index > 0 && props.separator}
          {run.changed ? <Changed className={`diff-${props.side}`}>{run.text}</Changed> : run.text}
        </Fragment>
      ))}
    </>
  );
}
