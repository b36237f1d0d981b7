import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { AuditView } from '@/components/audit/audit-view';
import { Alert } from '@/components/ui/alert';
import { identifyHeaders } from '@/lib/auth/guard';
import { roleAllows } from '@/lib/auth/roles';

export const metadata: Metadata = { title: 'Audit log' };

/** Operators only (GET /api/audit checks the role again on every request). */
export default async function AuditPage() {
  const caller = identifyHeaders(await headers());
  if (!caller || !roleAllows(caller.role, 'operator')) {
    return (
      <Alert tone="error" title="Operators only">
        The audit log is shown to operators.
      </Alert>
    );
  }
  return <AuditView />;
}
