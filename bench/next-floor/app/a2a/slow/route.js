/* global Response, ReadableStream, TextEncoder */
// POST /a2a/slow — SendStreamingMessage answered from memory: the task, N artifact chunks and
// the completed status as SSE frames. No storage.
import { chunkStream, SSE_HEADERS } from '../../../lib/canned';

export const dynamic = 'force-dynamic';

export async function POST(req) {
  const body = await req.json();
  const encoder = new TextEncoder();
  const stream = new ReadableStream({
    start(controller) {
      for (const result of chunkStream(body.params?.message)) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result })}\n\n`));
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
