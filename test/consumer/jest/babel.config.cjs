// Only what Jest needs to load msw's ESM-only dependencies: ES modules → CommonJS.
module.exports = { plugins: ['@babel/plugin-transform-modules-commonjs'] };
