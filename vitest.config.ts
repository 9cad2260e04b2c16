import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Files run in parallel processes; each gets its own database (tests/support/server.ts).
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    // Browser and container tests depend on timing of real engines on 2 shared cores: in CI a
    // failed test is tried once more (and the retry is visible in the report).
    retry: process.env.CI ? 1 : 0,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
})
