/**
 * ref-sdk: the A2A server a user would otherwise run — @a2a-js/sdk's own Express integration
 * (jsonRpcHandler + agentCardHandler) over DefaultRequestHandler and InMemoryTaskStore, with
 * the same echo and chunking agents. One handler per agent, mounted at /a2a/<slug> like
 * Switchboard, v1.0 native with the SDK's v0.3 compat layer on.
 *
 *   PORT=4001 node --import tsx bench/ref-sdk/server.ts
 */
import express from 'express';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import type { AgentCard } from '@a2a-js/sdk';
import { chunkExecutor, echoExecutor } from './agents';

const host = '127.0.0.1';
const port = Number(process.env.PORT || 4001);
const base = `http://${host}:${port}`;

function card(slug: string): AgentCard {
  const url = `${base}/a2a/${slug}`;
  return {
    name: `ref-${slug}`,
    description: `@a2a-js/sdk reference server, ${slug} agent`,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: slug, name: slug, description: slug, tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

const app = express();
const agents: Record<string, AgentExecutor> = { echo: echoExecutor, slow: chunkExecutor };
for (const [slug, executor] of Object.entries(agents)) {
  const handler = new DefaultRequestHandler(card(slug), new InMemoryTaskStore(), executor);
  app.use(`/a2a/${slug}/.well-known/agent-card.json`, agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }));
  app.use(`/a2a/${slug}`, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
}
app.get('/health', (_req, res) => {
  res.json({ ok: true });
});

const server = app.listen(port, host, () => process.stdout.write(`ref-sdk listening on ${base}\n`));
server.keepAliveTimeout = 65_000;
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => server.close(() => process.exit(0)));
