// GET /api/metrics — Prometheus text format (prom-client). Viewer role, or the bearer token
// SWITCHBOARD_METRICS_TOKEN (a scraper's own credential, good for nothing else).
import { apiRoute } from '@/lib/api/route';
import { hasMetricsToken } from '@/lib/api/metrics-access';
import { scrapeMetrics } from '@/lib/api/metrics-scrape';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = apiRoute({ role: 'viewer', otherCredential: hasMetricsToken }, async () => {
  const { contentType, body } = await scrapeMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
});
