import type { PushConfigRecord } from '../db/push-repo';
import type { ProtocolVersion } from './rpc-methods';

/** TaskPushNotificationConfig in the caller's version (the A2A specification). */
export function pushConfigToWire(c: PushConfigRecord, v: ProtocolVersion): unknown {
  if (v === '1.0') {
    return {
      taskId: c.taskId,
      id: c.id,
      url: c.url,
      ...(c.token ? { token: c.token } : {}),
      ...(c.authentication ? { authentication: c.authentication } : {}),
    };
  }
  return {
    taskId: c.taskId,
    pushNotificationConfig: {
      id: c.id,
      url: c.url,
      ...(c.token ? { token: c.token } : {}),
      ...(c.authentication ? { authentication: { schemes: [c.authentication.scheme], credentials: c.authentication.credentials } } : {}),
    },
  };
}
