// typescript-eslint over the TypeScript of src/ (strict, type-checked) and of test/ (type-checked recommended: a lighter
// set suited to tests; see the test/ block below). `npm run lint` runs both.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'examples/', 'bench/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: ['src/**/*.ts'] })),
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Template literals with numbers read naturally in messages (`${n} keys`).
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `(req, res) => res.json(…)`, `() => void promise` and `return next()` in a void function are the idiom of
      // express handlers and callbacks.
      '@typescript-eslint/no-confusing-void-expression': [
        'error',
        { ignoreArrowShorthand: true, ignoreVoidOperator: true, ignoreVoidReturningFunctions: true },
      ],
      // A leading underscore marks a parameter a signature needs but the body does not (express's `(err, req, res, _next)`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Small rooms: no source file over 300 lines, no function over 80, counting every line.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }],
      // More than four values go in an object: a call then names what it passes.
      'max-params': ['error', 4],
    },
  },
  {
    // Tests read answers as untyped JSON (`await res.json()` is `any`) and assert on them with `expect`, which checks
    // at run time what the no-unsafe-* rules would check statically; a lookup that ends in `!` fails the test when it
    // is wrong. The rest of the type-checked recommended set holds.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `declare module 'vitest' { interface Assertion<T> extends AuditMatchers<T> {} }`: how matchers are typed.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
);
