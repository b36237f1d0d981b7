/**
 * The gRPC listener: started at boot when SWITCHBOARD_GRPC_PORT is set (decision 187), on HOST
 * (so the loopback rule and the non-loopback auth check of boot cover it too), closed by the
 * app's stop after the drain. Plaintext HTTP/2 like the HTTP listener; put TLS in front of both.
 */
import { Server, ServerCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { getSettings } from '../config/settings';
import { errorMessage, log } from '../log';
import { refuseToStart } from '../runtime/refuse';
import { A2A_GRPC_SERVICE } from '../client/grpc-wire';
import { a2aGrpcHandlers } from './grpc-service';

/** How long open calls get to finish at shutdown before they are cut. */
const SHUTDOWN_GRACE_MS = 2_000;

/** `host:port` for grpc-js; an IPv6 literal in brackets. */
export function grpcBindAddress(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare.includes(':') ? `[${bare}]:${port}` : `${bare}:${port}`;
}

function serverOptions(maxRequestBytes: number): ChannelOptions {
  return {
    // The same body limit as the JSON bindings: a bigger request is RESOURCE_EXHAUSTED before it is decoded.
    'grpc.max_receive_message_length': maxRequestBytes,
    // Answers are bounded elsewhere (SWITCHBOARD_MAX_TASK_OUTPUT_BYTES per task and per ListTasks page),
    // and may be larger than grpc-js's 4 MiB default.
    'grpc.max_send_message_length': -1,
    // Pings keep a blocking SendMessage (held up to W) and quiet streams alive through idle-timeout middleboxes.
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 20_000,
  };
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, SHUTDOWN_GRACE_MS);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}

/**
 * A start-up step (lib/app/switchboard.ts): listens when the port is configured; a port it cannot
 * bind stops start-up. Resolves to what stops it again (after the drain), null when not configured.
 */
export async function startGrpcServer(): Promise<(() => Promise<void>) | null> {
  const settings = getSettings();
  if (settings.grpcPort === undefined) return null;
  const server = new Server(serverOptions(settings.maxBodyBytes));
  server.addService(A2A_GRPC_SERVICE, a2aGrpcHandlers());
  const address = grpcBindAddress(settings.host, settings.grpcPort);
  try {
    await new Promise<number>((resolve, reject) => server.bindAsync(address, ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))));
  } catch (err) {
    refuseToStart(`SWITCHBOARD_GRPC_PORT=${settings.grpcPort}: cannot listen on ${address}: ${errorMessage(err)}`);
  }
  log.info('gRPC binding listening', { address });
  return () => stop(server);
}
