// STACK.md's recipe: msw's CommonJS build requires ESM-only packages, which babel-jest transforms.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/jest/*.test.cjs'],
  transform: { '\\.[cm]?js$': 'babel-jest' },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft)/)'],
};
