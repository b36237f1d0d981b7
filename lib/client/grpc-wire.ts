/**
 * The A2A v1.0 gRPC service (`lf.a2a.v1.A2AService`, the spec's a2a.proto) as a grpc-js service
 * definition whose requests and responses are ProtoJSON objects, the same shapes the v1.0
 * JSON-RPC and HTTP+JSON bindings carry. The protobuf codec is the reference SDK's code
 * generated from the spec's proto (`@a2a-js/sdk`: binary encode/decode in `server/grpc`'s
 * service definition, ProtoJSON in the root exports), so this file holds no copy of the proto
 * (decision 188). The server adapter (lib/server/grpc-service.ts) and a client both use it.
 */
import type { MethodDefinition } from '@grpc/grpc-js';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';

/** A ProtoJSON object: what the v1.0 JSON bindings carry. */
export type ProtoJson = Record<string, unknown>;

/** A request whose bytes are not the method's message: answered INVALID_ARGUMENT, never INTERNAL. */
export interface UndecodableRequest {
  undecodable: string;
}

interface JsonCodec {
  fromJSON(object: unknown): unknown;
  toJSON(message: never): unknown;
}

/** google.protobuf.Empty, which the SDK's root does not export: no fields either way. */
const EMPTY: JsonCodec = { fromJSON: () => ({}), toJSON: () => ({}) };

type SdkMethod = keyof typeof A2AService;

/** Each RPC's request and response messages, by the SDK's method key. */
const MESSAGES: Record<SdkMethod, { request: JsonCodec; response: JsonCodec }> = {
  sendMessage: { request: SendMessageRequest, response: SendMessageResponse },
  sendStreamingMessage: { request: SendMessageRequest, response: StreamResponse },
  getTask: { request: GetTaskRequest, response: Task },
  listTasks: { request: ListTasksRequest, response: ListTasksResponse },
  cancelTask: { request: CancelTaskRequest, response: Task },
  subscribeToTask: { request: SubscribeToTaskRequest, response: StreamResponse },
  createTaskPushNotificationConfig: { request: TaskPushNotificationConfig, response: TaskPushNotificationConfig },
  getTaskPushNotificationConfig: { request: GetTaskPushNotificationConfigRequest, response: TaskPushNotificationConfig },
  listTaskPushNotificationConfigs: { request: ListTaskPushNotificationConfigsRequest, response: ListTaskPushNotificationConfigsResponse },
  getExtendedAgentCard: { request: GetExtendedAgentCardRequest, response: AgentCard },
  deleteTaskPushNotificationConfig: { request: DeleteTaskPushNotificationConfigRequest, response: EMPTY },
};

/** The gRPC method name (`SendMessage`) from its path (`/lf.a2a.v1.A2AService/SendMessage`): the v1.0 JSON-RPC method name too. */
export const grpcMethodName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** One RPC of the service, in ProtoJSON both ways. */
export type JsonMethod = MethodDefinition<ProtoJson | UndecodableRequest, ProtoJson>;

function jsonMethod(key: SdkMethod): JsonMethod {
  // The SDK's definitions are typed per message; through JsonCodec they are all ProtoJSON here.
  const binary = A2AService[key] as unknown as MethodDefinition<unknown, unknown>;
  const { request, response } = MESSAGES[key];
  return {
    path: binary.path,
    requestStream: binary.requestStream,
    responseStream: binary.responseStream,
    originalName: key,
    requestSerialize: (json) => binary.requestSerialize(request.fromJSON(json)),
    requestDeserialize: (bytes) => {
      try {
        return request.toJSON(binary.requestDeserialize(bytes) as never) as ProtoJson;
      } catch (err) {
        return { undecodable: `the request is not a ${grpcMethodName(binary.path)} request message (${err instanceof Error ? err.message : 'undecodable'})` };
      }
    },
    responseSerialize: (json) => binary.responseSerialize(response.fromJSON(json)),
    responseDeserialize: (bytes) => response.toJSON(binary.responseDeserialize(bytes) as never) as ProtoJson,
  };
}

/** The A2A service with ProtoJSON messages, keyed like the SDK's (sendMessage, getTask, …). */
export const A2A_GRPC_SERVICE = Object.fromEntries((Object.keys(MESSAGES) as SdkMethod[]).map((key) => [key, jsonMethod(key)])) as Record<SdkMethod, JsonMethod>;

export function isUndecodable(request: ProtoJson | UndecodableRequest): request is UndecodableRequest {
  return typeof (request as UndecodableRequest).undecodable === 'string' && Object.keys(request).length === 1;
}
