/**
 * The A2A JSON-RPC endpoint over HTTP: auth, body limit, envelope checks, dispatch, and SSE for
 * streaming methods. JSON-RPC errors go out with HTTP 200 (a2a-protocol.md §6); a missing or bad
 * credential gets 401 with WWW-Authenticate; never a stack trace or an HTML page.
 */
import type { ServedAgent } from '../engine/agent';
import { authenticateInbound } from '../auth/api-keys';
import { getSettings } from '../config/settings';
import { A2AError, toJsonRpcError } from '../protocol/errors';
import { BodyTooLargeError, readBodyText } from './read-body';
import { acceptsVersionHeader, findMethod, type ProtocolVersion } from './rpc-methods';
import { jsonDepth, MAX_JSON_DEPTH } from './json-depth';
import { runOperation } from './rpc-handlers';
import { KEEPALIVE_MS, SSE_HEADERS, SSE_KEEPALIVE, sseData, sseErrorEvent } from './sse';
import { errorMessage, log } from '../log';

type RpcId = string | number | null;

function rpcError(id: RpcId, err: A2AError, version: ProtocolVersion, status = 200): Response {
  return Response.json({ jsonrpc: '2.0', id, error: toJsonRpcError(err, version) }, { status });
}

function asA2AError(err: unknown, context: Record<string, unknown>): A2AError {
  if (err instanceof A2AError) return err;
  log.error('JSON-RPC method failed', { ...context, error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
  return new A2AError('internal');
}

interface Envelope {
  id: RpcId;
  method: string;
  params: unknown;
}

function checkEnvelope(body: unknown): Envelope | { error: A2AError; id: RpcId } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { id: null, error: new A2AError('invalidRequest', 'expected a single JSON-RPC request object (batches are not supported)') };
  }
  const b = body as Record<string, unknown>;
  const validId = typeof b.id === 'string' || typeof b.id === 'number' || b.id === null;
  const id = validId ? (b.id as RpcId) : null;
  if (!('id' in b) || !validId) return { id, error: new A2AError('invalidRequest', 'id: expected a string, number or null') };
  if (b.jsonrpc !== '2.0') return { id, error: new A2AError('invalidRequest', 'jsonrpc: expected "2.0"') };
  if (typeof b.method !== 'string' || !b.method) return { id, error: new A2AError('invalidRequest', 'method: expected a non-empty string') };
  if (b.params !== undefined && (typeof b.params !== 'object' || b.params === null || Array.isArray(b.params))) {
    return { id, error: new A2AError('invalidParams', 'params: expected an object') };
  }
  return { id, method: b.method, params: b.params };
}

export async function serveJsonRpc(req: Request, agent: ServedAgent): Promise<Response> {
  const auth = await authenticateInbound(req);
  if (!auth.ok) return auth.response;
  let text: string;
  try {
    text = await readBodyText(req, getSettings().maxBodyBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return rpcError(null, new A2AError('invalidRequest', err.message), '0.3', 413);
    throw err;
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return rpcError(null, new A2AError('invalidRequest', `the body nests deeper than ${MAX_JSON_DEPTH} levels`), '0.3');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rpcError(null, new A2AError('parse'), '0.3');
  }
  const envelope = checkEnvelope(body);
  if ('error' in envelope) return rpcError(envelope.id, envelope.error, '0.3');
  const method = findMethod(envelope.method);
  if (!method) return rpcError(envelope.id, new A2AError('methodNotFound', envelope.method), '0.3');
  const header = req.headers.get('a2a-version');
  if (!acceptsVersionHeader(header)) {
    return rpcError(envelope.id, new A2AError('versionNotSupported', `A2A-Version ${header}; supported: 0.3, 1.0`), '1.0');
  }
  const ctx = { agent, version: method.version, caller: auth.caller, signal: req.signal };
  const logContext = { agent: agent.slug, method: envelope.method, caller: auth.caller };
  try {
    const outcome = await runOperation(method.op, envelope.params, ctx);
    if (outcome.kind === 'result') return Response.json({ jsonrpc: '2.0', id: envelope.id, result: outcome.result });
    return await streamResponse(envelope.id, outcome.events, method.version, logContext);
  } catch (err) {
    return rpcError(envelope.id, asA2AError(err, logContext), method.version);
  }
}

/**
 * Pulls the first batch before committing to SSE, so early errors are plain JSON-RPC errors.
 * Each batch (the events that committed together) goes out as one write of its frames.
 */
async function streamResponse(id: RpcId, batches: AsyncGenerator<unknown[]>, version: ProtocolVersion, logContext: Record<string, unknown>): Promise<Response> {
  const first = await batches.next();
  const encoder = new TextEncoder();
  let keepalive: NodeJS.Timeout | undefined;
  const frames = (results: unknown[]) => {
    let text = '';
    for (const result of results) text += sseData({ jsonrpc: '2.0', id, result });
    return text;
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (chunk: string) => controller.enqueue(encoder.encode(chunk));
      keepalive = setInterval(() => send(SSE_KEEPALIVE), KEEPALIVE_MS);
      try {
        if (!first.done) send(frames(first.value));
        for (let step = await batches.next(); !step.done; step = await batches.next()) send(frames(step.value));
      } catch (err) {
        send(sseErrorEvent({ jsonrpc: '2.0', id, error: toJsonRpcError(asA2AError(err, logContext), version) }));
      } finally {
        clearInterval(keepalive);
        try {
          controller.close();
        } catch {
          // the client already went away
        }
      }
    },
    cancel() {
      // The client went away. The request signal already stops the observation (and detaches
      // the task); this only releases the generator once its pending step settles.
      clearInterval(keepalive);
      void batches.return(undefined);
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
