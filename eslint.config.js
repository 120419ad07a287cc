// Lint guards the process boundaries; tsc (strict) does the type checking. Raw ipcMain/ipcRenderer
// may appear only in the typed wrappers (house style, Desktop 2), and the renderer imports neither
// electron nor Node.
import tseslint from 'typescript-eslint';

const IPC_RULE = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'Raw IPC lives only in src-main/ipc/typed-ipc.ts and src-preload/preload.ts.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'kikitori-data/**'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser },
    rules: { 'no-restricted-imports': ['error', { paths: [IPC_RULE] }] },
  },
  {
    files: ['src-main/ipc/typed-ipc.ts', 'src-preload/preload.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}', 'src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer and shared code reach main only through window.kikitori.' }],
          patterns: [{ group: ['node:*'], message: 'No Node APIs here.' }],
        },
      ],
    },
  },
);
