/**
 * Agent cards (design §2): v1.0 `supportedInterfaces` (1.0 first, then 0.3) plus the v0.3
 * top-level fields, so both generations of clients read the same document. Security schemes
 * are declared only when API keys exist (then calls without a key get 401).
 */
import type { ServedAgent } from '../engine/agent';
import { timingFor } from '../engine/inbound';

export const SWITCHBOARD_VERSION = '0.1.0';
import { TIMING_EXTENSION_URI } from '../protocol/extensions';

export function agentEndpoint(baseUrl: string, agent: ServedAgent, isDefault: boolean): string {
  return isDefault ? `${baseUrl}/a2a` : `${baseUrl}/a2a/${agent.slug}`;
}

export function buildAgentCard(agent: ServedAgent, baseUrl: string, opts: { isDefault: boolean; keysRequired: boolean }) {
  const url = agentEndpoint(baseUrl, agent, opts.isDefault);
  const { windowMs, graceMs } = timingFor(agent);
  const security = opts.keysRequired
    ? {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Switchboard API key as a bearer token' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Switchboard API key' },
        },
        security: [{ bearer: [] }, { apiKey: [] }],
        securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }],
      }
    : {};
  return {
    name: agent.name,
    description: agent.description,
    version: SWITCHBOARD_VERSION,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    // v0.3 top-level fields
    protocolVersion: '0.3.0',
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    provider: { organization: 'Switchboard', url: baseUrl },
    capabilities: {
      streaming: true,
      pushNotifications: true,
      stateTransitionHistory: true,
      extensions: [
        {
          uri: TIMING_EXTENSION_URI,
          description: 'Response window and late-result grace: a blocking call held longer than the window returns the task WORKING (detached); fetch the result with tasks/get or tasks/resubscribe.',
          required: false,
          params: { responseWindowSeconds: windowMs / 1000, lateResultGraceSeconds: graceMs / 1000 },
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: agent.skills.map((s) => ({ ...s, tags: s.tags.length ? s.tags : ['general'] })),
    ...security,
  };
}
