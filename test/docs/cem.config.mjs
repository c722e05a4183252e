// custom-elements-manifest analyzer settings for test/docs/reference.ts. `packagejson: false`
// because the analyzer otherwise rewrites package.json's customElements to wherever it wrote.
export default {
  globs: ['src/chat/**/*.ts', 'src/admin/**/*.ts'],
  exclude: ['**/*.styles.ts'],
  litelement: true,
  packagejson: false,
};
