/**
 * Agent cards (design §2). Two generations of the same card (docs/decisions.md):
 * - **pure v1.0** when the card request says `A2A-Version: 1.x` (header or query parameter), as
 *   the a2a-js 1.x client and the TCK do: only v1.0 fields, so strict ProtoJSON parsers accept it;
 * - **dual** otherwise: the v1.0 fields plus the v0.3 top-level ones (`url`, `protocolVersion`,
 *   `preferredTransport`, `additionalInterfaces`, v0.3 security schemes) that v0.3 clients need.
 * Both list JSON-RPC 1.0, HTTP+JSON 1.0, gRPC 1.0 (when SWITCHBOARD_GRPC_PORT is set) and
 * JSON-RPC 0.3 in `supportedInterfaces`. Security
 * schemes are declared only when API keys exist (then calls without a key get 401).
 */
import type { ServedAgent } from '../engine/agent';
import { timingFor } from '../engine/inbound';
import { GENERATION_EXTENSION_URI, TIMING_EXTENSION_URI } from '../protocol/extensions';
import { getSettings } from '../config/settings';
import { isV1, requestedVersion } from './requested-version';
import { inputModesOf } from './input-modes';

export const SWITCHBOARD_VERSION = '0.1.0';

export type CardGeneration = 'dual' | '1.0';

/** The generation a card request asks for: its A2A-Version (header, else query parameter). */
export function cardGenerationFor(req: Request): CardGeneration {
  return isV1(requestedVersion(req)) ? '1.0' : 'dual';
}

export function agentEndpoint(baseUrl: string, agent: ServedAgent, isDefault: boolean): string {
  return isDefault ? `${baseUrl}/a2a` : `${baseUrl}/a2a/${agent.slug}`;
}

/** The HTTP+JSON base: always the agent's own path (`/a2a/<slug>/message:send`, `/a2a/<slug>/tasks/…`). */
export function restEndpoint(baseUrl: string, agent: ServedAgent): string {
  return `${baseUrl}/a2a/${agent.slug}`;
}

/**
 * The gRPC interface: `host:port` (a gRPC target, no scheme): SWITCHBOARD_GRPC_PUBLIC_ADDRESS, else
 * the card's host and the gRPC port; `tenant` names the agent, as every gRPC request carries it
 * (decision 188).
 */
function grpcInterface(baseUrl: string, agent: ServedAgent) {
  const { grpcPort, grpcPublicAddress } = getSettings();
  if (grpcPort === undefined) return [];
  const url = grpcPublicAddress ?? `${new URL(baseUrl).hostname}:${grpcPort}`;
  return [{ url, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: agent.slug }];
}

const BEARER_DESCRIPTION = 'Switchboard API key as a bearer token';
const API_KEY_DESCRIPTION = 'Switchboard API key';

function v10Security() {
  return {
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: BEARER_DESCRIPTION } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: API_KEY_DESCRIPTION } },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }],
  };
}

function dualSecurity() {
  return {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: API_KEY_DESCRIPTION },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    securityRequirements: v10Security().securityRequirements,
  };
}

export interface CardOptions {
  isDefault: boolean;
  keysRequired: boolean;
  generation: CardGeneration;
}

export function buildAgentCard(agent: ServedAgent, baseUrl: string, opts: CardOptions) {
  const url = agentEndpoint(baseUrl, agent, opts.isDefault);
  const { windowMs, graceMs } = timingFor(agent);
  const capabilities = {
    streaming: true,
    pushNotifications: true,
    extensions: [
      {
        uri: TIMING_EXTENSION_URI,
        description: 'Response window and late-result grace: a blocking call held longer than the window returns the task WORKING (detached), without partial artifacts unless message.metadata.switchboard.partialArtifacts is true; fetch the result with tasks/get or tasks/resubscribe. A message with a contextId and no taskId answers the one task of yours in that context that asks for input (input-required), if there is exactly one; an explicit taskId always wins.',
        required: false,
        params: { responseWindowSeconds: windowMs / 1000, lateResultGraceSeconds: graceMs / 1000, continuesByContext: true },
      },
      {
        uri: GENERATION_EXTENSION_URI,
        description:
          'Generations (A2A v1.1 resumable tasks, for v1.0 and v0.3 clients): every task carries metadata.switchboard.generation and every streamed event its own; subscribe with the Last-Event-ID header (or metadata.switchboard.afterGeneration) set to the last generation seen to resume after it, with no gap and no duplicate. Sends are idempotent by messageId.',
        required: false,
        params: { field: 'metadata.switchboard.generation', resumeHeader: 'Last-Event-ID', resumeParam: 'metadata.switchboard.afterGeneration', sendDedupWindowSeconds: getSettings().sendDedupWindowMs / 1000 },
      },
      ...(agent.extensions ?? []),
    ],
  };
  const card = {
    name: agent.name,
    description: agent.description,
    version: SWITCHBOARD_VERSION,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: restEndpoint(baseUrl, agent), protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ...grpcInterface(baseUrl, agent),
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Switchboard', url: baseUrl },
    capabilities,
    defaultInputModes: [...inputModesOf(agent)],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: agent.skills.map((s) => ({ ...s, tags: s.tags.length ? s.tags : ['general'] })),
  };
  if (opts.generation === '1.0') return { ...card, ...(opts.keysRequired ? v10Security() : {}) };
  return {
    ...card,
    // v0.3 top-level fields. Only JSON-RPC here: our HTTP+JSON and gRPC bindings are v1.0, and a
    // v0.3 client would speak v0.3 REST or the v0.3 proto (package a2a.v1) to them.
    protocolVersion: '0.3.0',
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    capabilities: { ...capabilities, stateTransitionHistory: true },
    ...(opts.keysRequired ? dualSecurity() : {}),
  };
}
