/**
 * Who may scrape /api/metrics: a caller with the viewer role (like the rest of /api), or a
 * scraper presenting SWITCHBOARD_METRICS_TOKEN as a bearer token, which grants nothing else.
 */
import { requireRole } from '../auth/guard';
import { safeEqual } from '../auth/session';
import { getSettings } from '../config/settings';

export function metricsAccess(req: Request): { ok: true } | { response: Response } {
  const token = getSettings().metricsToken;
  const header = req.headers.get('authorization');
  if (token && header?.toLowerCase().startsWith('bearer ') && safeEqual(header.slice(7).trim(), token)) return { ok: true };
  const auth = requireRole(req, 'viewer');
  return 'response' in auth ? auth : { ok: true };
}
