// The whole Jest setup a consumer needs (README and docs/guides/testing.md, "Jest"): the package's preset.
module.exports = {
  preset: 'agent-work-sandbox',
  testMatch: ['**/audit.jest.test.cjs'],
};
