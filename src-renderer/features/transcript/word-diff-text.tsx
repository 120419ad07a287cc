// One side of a segment's before/after, its changed words highlighted (src-shared/word-diff.ts): removed
// words struck through on the earlier side, added words marked on the later one. The highlight repeats
// what the labelled "Before" and "After" lines say, so colour is never the only cue.
import { Fragment } from 'react';
import type { DiffRun } from '../../../src-shared/word-diff';

export function WordDiffText(props: { runs: DiffRun[]; separator: string; side: 'before' | 'after' }) {
  const Changed = props.side === 'before' ? 'del' : 'ins';
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
