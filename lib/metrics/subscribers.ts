/** The SSE subscribers gauge: counted when a stream opens; the returned function, once, uncounts it. */
import { metrics } from './metrics';

export function countSubscriber(kind: 'dashboard' | 'a2a'): () => void {
  const gauge = metrics().sseSubscribers;
  gauge.inc({ kind });
  let counted = true;
  return () => {
    if (counted) gauge.dec({ kind });
    counted = false;
  };
}
