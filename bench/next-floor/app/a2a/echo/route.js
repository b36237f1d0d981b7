/* global Response */
// POST /a2a/echo — SendMessage answered with a canned completed task. No storage.
import { completedTask } from '../../../lib/canned';

export const dynamic = 'force-dynamic';

export async function POST(req) {
  const body = await req.json();
  return Response.json({ jsonrpc: '2.0', id: body.id, result: { task: completedTask(body.params?.message) } });
}
