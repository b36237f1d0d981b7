import type { NextConfig } from 'next';

const config: NextConfig = {
  // A separate build directory lets parallel builds (tests, benchmarks) not collide.
  distDir: process.env.SWITCHBOARD_DIST_DIR || '.next',
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', 'yaml'],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` is the gate; build stays fast
};

export default config;
