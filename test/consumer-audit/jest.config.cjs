// STACK.md's recipe (as test/consumer/jest): babel-jest turns msw's ESM-only dependencies into CommonJS.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/audit.jest.test.cjs'],
  transform: { '\\.[cm]?js$': 'babel-jest' },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft)/)'],
};
