'use client';
/**
 * Config errors where an operator looks: on every dashboard page, one line per problem naming
 * the file, the entry (agent or peer) and the key. Agent-provided text never reaches here; the
 * lines come from our own config validation, rendered as text.
 */
import { Alert } from '@/components/ui/alert';
import { useStatus } from '@/lib/query/use-status';

export function ConfigErrors() {
  const { data } = useStatus();
  const errors = data?.configErrors ?? [];
  if (errors.length === 0) return null;
  return (
    <Alert tone="error" title={`Configuration: ${errors.length} problem${errors.length > 1 ? 's' : ''}; the entries named are not served`} testId="config-errors" className="mb-4">
      <ul className="mt-1 space-y-1">
        {errors.map((issue) => (
          <li key={issue.text} className="font-mono text-xs break-all" data-testid="config-error">
            {issue.file ? <span className="text-red-700 dark:text-red-300">{issue.file}</span> : null}
            {issue.entry ? <> · <span>{issue.entry}</span></> : null}
            {' · '}
            <span className="font-semibold">{issue.key}</span>: {issue.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
