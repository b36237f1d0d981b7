/**
 * The OpenTelemetry SDK, loaded only when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): without one nothing of
 * OpenTelemetry is imported and every span helper is one property check. The exporter reads the
 * standard OTEL_EXPORTER_OTLP_* variables itself (headers, timeout); OTEL_SERVICE_NAME names us.
 */
import type { Tracer } from '@opentelemetry/api';
import { appPart } from '../process-singleton';
import { errorMessage, log } from '../log';

type Api = typeof import('@opentelemetry/api');

export interface LoadedTracing {
  api: Api;
  tracer: Tracer;
  flush(): Promise<void>;
}

interface TracingState {
  loaded: LoadedTracing | null;
  starting: Promise<void> | null;
}

export const tracingState = () => appPart('tracing', () => ({ loaded: null, starting: null }));

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

async function load(): Promise<LoadedTracing> {
  const [api, base, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const resource = resources.resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || 'switchboard' });
  const provider = new base.BasicTracerProvider({ resource, spanProcessors: [new base.BatchSpanProcessor(new otlp.OTLPTraceExporter())] });
  return { api, tracer: provider.getTracer('switchboard'), flush: () => provider.forceFlush() };
}

/** Called once at boot; a failure to load leaves tracing off (and says why). */
export function startTracing(): Promise<void> {
  const state = tracingState();
  if (!tracingConfigured() || state.loaded) return Promise.resolve();
  state.starting ??= load().then(
    (loaded) => {
      state.loaded = loaded;
      log.info('tracing on: exporting spans over OTLP/HTTP');
    },
    (err) => log.error('tracing off: the OpenTelemetry SDK failed to start', { error: errorMessage(err) }),
  );
  return state.starting;
}

/** Exports what is buffered (the shutdown drain calls it). */
export async function flushTracing(): Promise<void> {
  await tracingState().loaded?.flush().catch(() => undefined);
}

declare module '../process-singleton' {
  interface AppParts {
    /** The loaded OpenTelemetry SDK. */
    tracing: TracingState;
  }
}
