// Plain JavaScript on purpose: a next.config.ts makes `next start` load the SWC compiler (~60 MB
// of resident memory in the server process) just to read this file. See docs/decisions.md.

import fs from 'node:fs';

/**
 * Security headers on every answer (issue 11 §5), listed once in lib/server/security-headers.json
 * (the health probe answered before Next sends them too). The CSP fits a statically rendered
 * Next.js app: its pages carry inline bootstrap scripts without a nonce, so scripts need
 * 'unsafe-inline' (a nonce would force every page to render per request); everything else is
 * same-origin only, and no other site may frame the dashboard. `next dev` also needs eval for its
 * refresh runtime.
 */
const dev = process.env.NODE_ENV === 'development';
const listed = JSON.parse(fs.readFileSync(new URL('./lib/server/security-headers.json', import.meta.url), 'utf8'));
const contentSecurityPolicy = listed.contentSecurityPolicy.map((d) => (dev && d.startsWith('script-src') ? `${d} 'unsafe-eval'` : d)).join('; ');
const securityHeaders = [{ key: 'Content-Security-Policy', value: contentSecurityPolicy }, ...Object.entries(listed.headers).map(([key, value]) => ({ key, value }))];

/** @type {import('next').NextConfig} */
const config = {
  // A separate build directory lets parallel builds (tests, benchmarks) not collide.
  distDir: process.env.SWITCHBOARD_DIST_DIR || '.next',
  // OpenTelemetry stays external: loaded from node_modules only when tracing is configured.
  // gRPC (grpc-js and the SDK's generated codec) is loaded from node_modules as published.
  serverExternalPackages: ['@grpc/grpc-js', '@bufbuild/protobuf', '@a2a-js/sdk', 'better-sqlite3', '@prisma/adapter-better-sqlite3', 'pg', '@prisma/adapter-pg', 'yaml', 'prom-client', '@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources'],
  poweredByHeader: false,
  // Routes are loaded when first asked for, not all at start: an A2A hub answers /a2a and the
  // health probe before Next (decisions 378, 395), so preloading every page and route kept a
  // second copy of lib/ (Next bundles the routes apart from instrumentation.ts) that an echo hub
  // never runs. Decision 407.
  experimental: { preloadEntriesOnStart: false },
  // Python httpx clients (the A2A TCK) call `POST /a2a/`: API routes answer with and without a
  // trailing slash, never with a redirect (a 308 has no JSON body). See docs/decisions.md.
  skipTrailingSlashRedirect: true,
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` is the gate; build stays fast
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default config;
