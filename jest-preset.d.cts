// The Jest preset (jest-preset.cjs): a Jest configuration object.
declare const preset: {
  testEnvironment: string;
  transform: Record<string, string>;
  transformIgnorePatterns: string[];
};
export = preset;
