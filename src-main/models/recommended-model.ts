// Which whisper model to offer a new user, from the memory of the computer the server runs on.
// whisper.cpp needs about 0.4 GB for tiny, 0.5 GB for base, 1 GB for small and 2 GB for
// large-v3-turbo while transcribing; the rest of the machine (the app, a browser, the user's work)
// must keep running beside it, so each tier leaves most memory free. large-v3-turbo is offered only
// with both room (16 GiB) and cores (8): its encoder is large-v3's, which is slow on a small CPU,
// and a first model that transcribes slower than real time is a worse first impression than small.
import type { SpeechModelAccuracy } from '../../src-shared/ipc-contract.js';

const GIB = 1024 ** 3;

export interface MachineResources {
  totalMemoryBytes: number;
  cpuCount: number;
}

export interface RecommendableModel {
  name: string;
  multilingual: boolean;
  quantized: boolean;
  accuracy: SpeechModelAccuracy;
  /** Memory the model needs while transcribing. */
  memoryBytes: number;
}

/** The official model for this machine, by the rule above. */
export function preferredModelName({ totalMemoryBytes, cpuCount }: MachineResources): string {
  if (totalMemoryBytes < 4 * GIB) return 'tiny';
  if (totalMemoryBytes < 8 * GIB) return 'base';
  if (totalMemoryBytes < 16 * GIB || cpuCount < 8) return 'small';
  return 'large-v3-turbo';
}

const ACCURACY_RANK: Record<SpeechModelAccuracy, number> = { basic: 0, good: 1, better: 2, great: 3, best: 4 };

/**
 * The catalogue model to recommend, or null when none fits. The preferred official name when the
 * catalogue has it; otherwise (a mirror's or a test's catalogue with other names) the most accurate
 * multilingual, unquantized model that needs at most an eighth of the memory, the smallest of equals.
 */
export function recommendModel(machine: MachineResources, catalogue: readonly RecommendableModel[]): string | null {
  const preferred = preferredModelName(machine);
  if (catalogue.some((m) => m.name === preferred)) return preferred;
  const budget = machine.totalMemoryBytes / 8;
  const fitting = catalogue.filter((m) => m.memoryBytes <= budget);
  const ranked = [...fitting].sort(
    (a, b) =>
      Number(b.multilingual) - Number(a.multilingual) ||
      Number(a.quantized) - Number(b.quantized) ||
      ACCURACY_RANK[b.accuracy] - ACCURACY_RANK[a.accuracy] ||
      a.memoryBytes - b.memoryBytes,
  );
  return ranked[0]?.name ?? null;
}
