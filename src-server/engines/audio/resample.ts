// 24 kHz -> 16 kHz for live audio (OpenAI's Realtime clients send 24 kHz PCM16; the engines take 16 kHz),
// chunk by chunk: a windowed-sinc low-pass at the new Nyquist (8 kHz), evaluated only at the output
// instants. 16 kHz is 2/3 of 24 kHz, so the output falls on whole or half input samples: two fixed
// kernels. Uploads are resampled by ffmpeg; this exists because live audio arrives in pieces of a stream.

/** Input samples on each side of an output instant. */
const HALF_WIDTH = 16;
const RATIO = 2 / 3;

function kernel(phase: number): Float64Array {
  const taps = new Float64Array(2 * HALF_WIDTH);
  let sum = 0;
  for (let i = 0; i < taps.length; i++) {
    // Distance from the output instant (at `phase` past input sample HALF_WIDTH - 1) to input sample i.
    const x = i - (HALF_WIDTH - 1) - phase;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * RATIO * x) / (Math.PI * RATIO * x);
    const window = 0.5 + 0.5 * Math.cos((Math.PI * x) / (HALF_WIDTH + 1));
    taps[i] = sinc * window;
    sum += taps[i]!;
  }
  for (let i = 0; i < taps.length; i++) taps[i]! /= sum; // unity gain at DC
  return taps;
}

const KERNELS = [kernel(0), kernel(0.5)] as const;

/** A stream of 24 kHz samples in, 16 kHz out; it keeps the filter's history between chunks. */
export class Resampler24To16 {
  /** The input not yet consumed, with HALF_WIDTH - 1 samples of history before the next output instant. */
  private pending = new Int16Array(HALF_WIDTH - 1);
  /** Output instants so far, in units of half input samples (each output advances 3 halves). */
  private nextHalf = 2 * (HALF_WIDTH - 1);

  push(input: Int16Array): Int16Array {
    const buffer = new Int16Array(this.pending.length + input.length);
    buffer.set(this.pending);
    buffer.set(input, this.pending.length);
    const out: number[] = [];
    // An output at half-position h needs input up to floor(h / 2) + HALF_WIDTH.
    while (Math.floor(this.nextHalf / 2) + HALF_WIDTH < buffer.length) {
      const base = Math.floor(this.nextHalf / 2) - (HALF_WIDTH - 1);
      const taps = KERNELS[this.nextHalf & 1]!;
      let acc = 0;
      for (let i = 0; i < taps.length; i++) acc += taps[i]! * buffer[base + i]!;
      out.push(Math.max(-32768, Math.min(32767, Math.round(acc))));
      this.nextHalf += 3;
    }
    // Keep what the next outputs need: from the first sample of the next window on.
    const keepFrom = Math.max(0, Math.floor(this.nextHalf / 2) - (HALF_WIDTH - 1));
    this.pending = buffer.slice(keepFrom);
    this.nextHalf -= 2 * keepFrom;
    return Int16Array.from(out);
  }
}
