/**
 * The JSON-RPC method table: both protocol versions map onto one set of
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

const V03_METHODS: Record<string, Operation> = {
  'message/send': 'send',
  'message/stream': 'stream',
  'tasks/get': 'get',
  'tasks/list': 'list',
  'tasks/cancel': 'cancel',
  'tasks/resubscribe': 'subscribe',
  'tasks/subscribe': 'subscribe',
  'tasks/pushNotificationConfig/set': 'pushSet',
  'tasks/pushNotificationConfig/get': 'pushGet',
  'tasks/pushNotificationConfig/list': 'pushList',
  'tasks/pushNotificationConfig/delete': 'pushDelete',
  'agent/getAuthenticatedExtendedCard': 'extendedCard',
};

const V10_METHODS: Record<string, Operation> = {
  SendMessage: 'send',
  SendStreamingMessage: 'stream',
  GetTask: 'get',
  ListTasks: 'list',
  CancelTask: 'cancel',
  SubscribeToTask: 'subscribe',
  CreateTaskPushNotificationConfig: 'pushSet',
  GetTaskPushNotificationConfig: 'pushGet',
  ListTaskPushNotificationConfigs: 'pushList',
  DeleteTaskPushNotificationConfig: 'pushDelete',
  GetExtendedAgentCard: 'extendedCard',
};

const tagged = (version: ProtocolVersion, methods: Record<string, Operation>) => Object.fromEntries(Object.entries(methods).map(([name, op]) => [name, { version, op }]));

export const METHODS: Record<string, { version: ProtocolVersion; op: Operation }> = { ...tagged('0.3', V03_METHODS), ...tagged('1.0', V10_METHODS) };

/** The method table entry for a name; only own entries, so `__proto__` or `toString` are unknown methods. */
export function findMethod(name: string): { version: ProtocolVersion; op: Operation } | undefined {
  return Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
}

export const STREAMING_OPS: readonly Operation[] = ['stream', 'subscribe'];

/** A2A-Version values we accept (a missing header means 0.3). */
export function acceptsVersionHeader(value: string | null): boolean {
  if (value === null || value.trim() === '') return true;
  return ['0.3', '0.3.0', '1.0', '1', '1.0.0', '1.0.1'].includes(value.trim());
}
