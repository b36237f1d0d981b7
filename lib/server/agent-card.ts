/**
 * Agent cards. Two generations of the same card (docs/decisions.md):
 * - **pure v1.0** when the card request says `A2A-Version: 1.x` (header or query parameter), as
 *   the a2a-js 1.x client and the TCK do: only v1.0 fields, so strict ProtoJSON parsers accept it;
 * - **dual** otherwise: the v1.0 fields plus the v0.3 top-level ones (`url`, `protocolVersion`,
 *   `preferredTransport`, `additionalInterfaces`, v0.3 security schemes) that v0.3 clients need.
 * Both list JSON-RPC 1.0, HTTP+JSON 1.0, gRPC 1.0 (when SWITCHBOARD_GRPC_PORT is set) and
 * JSON-RPC 0.3 in `supportedInterfaces`. Security
 * schemes are declared only when they apply: API-key schemes once a key exists, an
 * `openIdConnect` scheme (the issuer's discovery URL) per configured OIDC issuer. An agent with
 * `extendedSkills` declares its extended card; that card (`extended`) lists them after the public
 * skills (decisions 206–207).
 */
import { timingFor } from '../engine';
import type { ServedAgent } from '../agent-runner';
import { GENERATION_EXTENSION_URI, TIMING_EXTENSION_URI } from '../protocol/extensions';
import { getSettings, type OidcSettings } from '../config/settings';
import { isV1, requestedVersion } from './requested-version';
import { inputModesOf } from './input-modes';
import { discoveryUrl } from '../auth/oidc';

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
const OIDC_DESCRIPTION = 'Bearer JWT (access token) from this OpenID Connect issuer';

/** The card's security: API-key schemes while keys exist, one openIdConnect scheme per issuer. */
interface CardSecurity {
  keysRequired: boolean;
  oidc?: Pick<OidcSettings, 'issuers' | 'requiredScope'>;
}

/** `oidc`, `oidc2`, … : one name per configured issuer, in configuration order. */
const oidcSchemeName = (index: number) => (index === 0 ? 'oidc' : `oidc${index + 1}`);

function oidcSchemes(security: CardSecurity, agentSlug: string) {
  const scopes = security.oidc?.requiredScope ? [security.oidc.requiredScope.replaceAll('{agent}', agentSlug)] : [];
  return (security.oidc?.issuers ?? []).map((issuer, i) => ({ name: oidcSchemeName(i), url: discoveryUrl(issuer), scopes }));
}

function v10Security(security: CardSecurity, agentSlug: string) {
  const oidc = oidcSchemes(security, agentSlug);
  const schemes: Record<string, unknown> = {};
  const requirements: { schemes: Record<string, { list: string[] }> }[] = [];
  if (security.keysRequired) {
    schemes.bearer = { httpAuthSecurityScheme: { scheme: 'bearer', description: BEARER_DESCRIPTION } };
    schemes.apiKey = { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key', description: API_KEY_DESCRIPTION } };
    requirements.push({ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } });
  }
  for (const o of oidc) {
    schemes[o.name] = { openIdConnectSecurityScheme: { openIdConnectUrl: o.url, description: OIDC_DESCRIPTION } };
    requirements.push({ schemes: { [o.name]: { list: o.scopes } } });
  }
  return requirements.length ? { securitySchemes: schemes, securityRequirements: requirements } : {};
}

function dualSecurity(security: CardSecurity, agentSlug: string) {
  const v10 = v10Security(security, agentSlug);
  if (!('securitySchemes' in v10)) return {};
  const schemes: Record<string, unknown> = {};
  const requirements: Record<string, string[]>[] = [];
  if (security.keysRequired) {
    schemes.bearer = { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION };
    schemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key', description: API_KEY_DESCRIPTION };
    requirements.push({ bearer: [] }, { apiKey: [] });
  }
  for (const o of oidcSchemes(security, agentSlug)) {
    schemes[o.name] = { type: 'openIdConnect', openIdConnectUrl: o.url, description: OIDC_DESCRIPTION };
    requirements.push({ [o.name]: o.scopes });
  }
  return { securitySchemes: schemes, security: requirements, securityRequirements: v10.securityRequirements };
}

export interface CardOptions extends CardSecurity {
  isDefault: boolean;
  generation: CardGeneration;
  /** The extended card (GetExtendedAgentCard): the public skills, then the agent's extendedSkills. */
  extended?: boolean;
}

/**
 * The pure v1.0 card as ProtoJSON writes it: `required: false` is proto3's default and is left
 * out, so a card that crosses gRPC (GetExtendedAgentCard) arrives with the bytes it was signed over.
 */
function protoJsonCapabilities<C extends { extensions: { required?: boolean }[] }>(capabilities: C): C {
  return { ...capabilities, extensions: capabilities.extensions.map(({ required, ...rest }) => (required ? { ...rest, required } : rest)) };
}

const cardSkills = (skills: ServedAgent['skills']) => skills.map((s) => ({ ...s, tags: s.tags.length ? s.tags : ['general'] }));

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
    // Declared only when the operator configured extended skills: v1.0 then serves GetExtendedAgentCard.
    ...(agent.extendedSkills ? { extendedAgentCard: true } : {}),
  };
  const skills = opts.extended ? [...agent.skills, ...(agent.extendedSkills ?? [])] : agent.skills;
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
    skills: cardSkills(skills),
  };
  if (opts.generation === '1.0') return { ...card, capabilities: protoJsonCapabilities(capabilities), ...v10Security(opts, agent.slug) };
  return {
    ...card,
    // v0.3 top-level fields. Only JSON-RPC here: our HTTP+JSON and gRPC bindings are v1.0, and a
    // v0.3 client would speak v0.3 REST or the v0.3 proto (package a2a.v1) to them.
    protocolVersion: '0.3.0',
    url,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url, transport: 'JSONRPC' }],
    capabilities: { ...capabilities, stateTransitionHistory: true },
    ...(agent.extendedSkills ? { supportsAuthenticatedExtendedCard: true } : {}),
    ...dualSecurity(opts, agent.slug),
  };
}
