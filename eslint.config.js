import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import noLiteralText from './eslint-rules/no-literal-text.js'

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'tests/artifacts/**', 'migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // The interface's texts go through t() (docs/architecture.md#languages); the dictionaries themselves are exempt.
    files: ['client/src/**/*.{ts,tsx}'],
    ignores: ['client/src/i18n/**'],
    plugins: { flagwave: { rules: { 'no-literal-text': noLiteralText } } },
    rules: { 'flagwave/no-literal-text': 'error' },
  },
)
