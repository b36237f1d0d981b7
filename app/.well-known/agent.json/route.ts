// GET /.well-known/agent.json — alias of agent-card.json for v0.2-era clients.
export { GET } from '../agent-card.json/route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
