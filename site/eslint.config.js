// ESLint (flat config) for the SPA, its browser tests and build scripts: the TypeScript and
// react-hooks rules, no import cycles, and the architecture's boundaries — a feature imports no
// other feature (what two features share lives in lib/ or components/), and lib/ and components/
// import no feature. The app shell (src/app) is where features meet.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { config as tsConfig, configs as tsConfigs } from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tsConfig(
  { ignores: ['dist/', 'cores/', 'node_modules/', 'test-results/', 'public/', 'src/lib/apiSchema.gen.ts'] },
  js.configs.recommended,
  ...tsConfigs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    // Hooks are React's: the browser tests' fixtures call Playwright's `use`, no hook.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'A feature imports no other feature: move what both need to src/lib or src/components.',
            })),
            {
              target: ['./src/lib', './src/components'],
              from: './src/features',
              message: 'lib/ and components/ are below the features and import none of them.',
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
