// Generated speaker-embedding ONNX models for tests (no weights can be fetched here, as ggml-model.ts does
// for whisper): a ModelProto written with a minimal protobuf writer (no protobuf library is installed).
// The graph: feats [1, T, bins] -> ReduceMean over T -> MatMul by a fixed [bins, D] matrix -> embs [1, D].
// Field numbers are those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, TensorProto, ...).

type Field = [number, 'varint', number] | [number, 'bytes', Uint8Array | string];

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

function message(fields: Field[]): Uint8Array {
  const parts: number[] = [];
  for (const [number, type, value] of fields) {
    if (type === 'varint') parts.push(...varint(number * 8), ...varint(value));
    else {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      parts.push(...varint(number * 8 + 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(parts);
}

const FLOAT = 1;

function tensorType(shape: (number | string)[]): Uint8Array {
  const dims = shape.map(
    (d) => ['bytes', typeof d === 'number' ? message([[1, 'varint', d]]) : message([[2, 'bytes', d]])] as const,
  );
  // TypeProto { tensor_type (1): { elem_type (1), shape (2): { dim (1)... } } }
  return message([
    [
      1,
      'bytes',
      message([
        [1, 'varint', FLOAT],
        [2, 'bytes', message(dims.map(([, d]) => [1, 'bytes', d]))],
      ]),
    ],
  ]);
}

const valueInfo = (name: string, shape: (number | string)[]) =>
  message([
    [1, 'bytes', name],
    [2, 'bytes', tensorType(shape)],
  ]);

export interface GeneratedSpeakerModel {
  bytes: Buffer;
  /** The [bins, dimensions] matrix, row-major. */
  weights: Float32Array;
}

/**
 * An ONNX model: the mean (or with `operator` ReduceMax, the maximum) over frames of `feats` [1, T, bins], times `weights`
 * [bins, dims], as `embs` [1, dims].
 */
export function meanProjectionModel(
  weights: Float32Array,
  bins: number,
  dims: number,
  names = { input: 'feats', output: 'embs' },
  operator: 'ReduceMean' | 'ReduceMax' = 'ReduceMean',
): GeneratedSpeakerModel {
  if (weights.length !== bins * dims) throw new Error('weights must be bins x dims');
  const initializer = message([
    [1, 'varint', bins],
    [1, 'varint', dims],
    [2, 'varint', FLOAT],
    [8, 'bytes', 'W'],
    [9, 'bytes', new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength)],
  ]);
  const INTS = 7;
  const INT = 2;
  const reduce = message([
    [1, 'bytes', names.input],
    [2, 'bytes', 'mean'],
    [3, 'bytes', 'reduce'],
    [4, 'bytes', operator],
    // AttributeProto { name (1), ints (8), type (20) }; negative numbers are not needed here.
    [
      5,
      'bytes',
      message([
        [1, 'bytes', 'axes'],
        [8, 'varint', 1],
        [20, 'varint', INTS],
      ]),
    ],
    [
      5,
      'bytes',
      message([
        [1, 'bytes', 'keepdims'],
        [3, 'varint', 0],
        [20, 'varint', INT],
      ]),
    ],
  ]);
  const matmul = message([
    [1, 'bytes', 'mean'],
    [1, 'bytes', 'W'],
    [2, 'bytes', names.output],
    [3, 'bytes', 'project'],
    [4, 'bytes', 'MatMul'],
  ]);
  const graph = message([
    [1, 'bytes', reduce],
    [1, 'bytes', matmul],
    [2, 'bytes', 'speaker-embedding'],
    [5, 'bytes', initializer],
    [11, 'bytes', valueInfo(names.input, [1, 'T', bins])],
    [12, 'bytes', valueInfo(names.output, [1, dims])],
  ]);
  const model = message([
    [1, 'varint', 7], // ir_version
    [2, 'bytes', 'kikitori-tests'],
    [7, 'bytes', graph],
    [8, 'bytes', message([[2, 'varint', 13]])], // opset_import { version: 13 } (ReduceMean takes axes as an attribute)
  ]);
  return { bytes: Buffer.from(model), weights };
}

/**
 * A [bins, dims] matrix whose columns are cosines over the mel bins (a DCT without its constant row): the
 * embedding of a mean log mel spectrum is then its cepstral shape, which loudness does not move.
 */
export function cepstralWeights(bins: number, dims: number): Float32Array {
  const w = new Float32Array(bins * dims);
  for (let b = 0; b < bins; b++)
    for (let d = 0; d < dims; d++) w[b * dims + d] = Math.cos((Math.PI * (d + 1) * (b + 0.5)) / bins);
  return w;
}
