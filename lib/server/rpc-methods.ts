/**
 * The JSON-RPC method table (design §2): both protocol versions map onto one set of
 * operations; the method name decides the version of the answer.
 */
export type Operation =
  | 'send'
  | 'stream'
  | 'get'
  | 'list'
  | 'cancel'
  | 'subscribe'
  | 'pushSet'
  | 'pushGet'
  | 'pushList'
  | 'pushDelete'
  | 'extendedCard';

export type { ProtocolVersion } from '../protocol/types';
import type { ProtocolVersion } from '../protocol/types';

export const METHODS: Record<string, { version: ProtocolVersion; op: Operation }> = {
  'message/send': { version: '0.3', op: 'send' },
  'message/stream': { version: '0.3', op: 'stream' },
  'tasks/get': { version: '0.3', op: 'get' },
  'tasks/list': { version: '0.3', op: 'list' },
  'tasks/cancel': { version: '0.3', op: 'cancel' },
  'tasks/resubscribe': { version: '0.3', op: 'subscribe' },
  'tasks/subscribe': { version: '0.3', op: 'subscribe' },
  'tasks/pushNotificationConfig/set': { version: '0.3', op: 'pushSet' },
  'tasks/pushNotificationConfig/get': { version: '0.3', op: 'pushGet' },
  'tasks/pushNotificationConfig/list': { version: '0.3', op: 'pushList' },
  'tasks/pushNotificationConfig/delete': { version: '0.3', op: 'pushDelete' },
  'agent/getAuthenticatedExtendedCard': { version: '0.3', op: 'extendedCard' },
  SendMessage: { version: '1.0', op: 'send' },
  SendStreamingMessage: { version: '1.0', op: 'stream' },
  GetTask: { version: '1.0', op: 'get' },
  ListTasks: { version: '1.0', op: 'list' },
  CancelTask: { version: '1.0', op: 'cancel' },
  SubscribeToTask: { version: '1.0', op: 'subscribe' },
  CreateTaskPushNotificationConfig: { version: '1.0', op: 'pushSet' },
  GetTaskPushNotificationConfig: { version: '1.0', op: 'pushGet' },
  ListTaskPushNotificationConfigs: { version: '1.0', op: 'pushList' },
  DeleteTaskPushNotificationConfig: { version: '1.0', op: 'pushDelete' },
  GetExtendedAgentCard: { version: '1.0', op: 'extendedCard' },
};

/** The method table entry for a name; only own entries, so `__proto__` or `toString` are unknown methods. */
export function findMethod(name: string): { version: ProtocolVersion; op: Operation } | undefined {
  return Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
}

export const STREAMING_OPS: readonly Operation[] = ['stream', 'subscribe'];

/** A2A-Version values we accept (a missing header means 0.3, design §2). */
export function acceptsVersionHeader(value: string | null): boolean {
  if (value === null || value.trim() === '') return true;
  return ['0.3', '0.3.0', '1.0', '1', '1.0.0', '1.0.1'].includes(value.trim());
}
