// `npm run test:e2e`: the extension in a real VS Code (code-server in headless Chromium). Kept out of `npm test`
// because it installs code-server on first use and needs Chromium; test/e2e/setup.sh prepares both.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    // The first run installs code-server (about a minute) and every run packages the VSIX.
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
