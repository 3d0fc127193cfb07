// The whole Jest setup a consumer needs (README and docs/guides/testing.md, "Jest"): the package's preset. No babel config of its own.
module.exports = {
  preset: 'agent-work-sandbox',
  testMatch: ['**/jest/*.test.cjs'],
};
