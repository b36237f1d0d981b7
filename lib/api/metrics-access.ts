/**
 * A scraper presenting SWITCHBOARD_METRICS_TOKEN as a bearer token may read /api/metrics, and
 * nothing else; anyone else needs the viewer role, like the rest of /api (lib/api/route.ts).
 */
import { safeEqual } from '../auth/session';
import { getSettings } from '../config/settings';

export function hasMetricsToken(req: Request): boolean {
  const token = getSettings().metricsToken;
  const header = req.headers.get('authorization');
  return Boolean(token && header?.toLowerCase().startsWith('bearer ') && safeEqual(header.slice(7).trim(), token));
}
