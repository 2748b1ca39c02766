import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'test-artifacts/**',
      'packages/server/public/vendor/**',
      'packages/node/test/types/anchor-v4/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        document: 'readonly',
        window: 'readonly',
        EventSource: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The core talks to ports only: no Node built-ins, no SQLite, no fetch.
    files: ['packages/sdk/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'better-sqlite3', 'pg', 'fastify'] }],
      'no-restricted-globals': ['error', 'fetch', 'process', 'Buffer'],
    },
  },
  {
    // @waypost/browser runs in pages and service workers: nothing of Node's.
    files: ['packages/browser/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'better-sqlite3', '@waypost/node'] }],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require'],
    },
  },
);
