import type { Metadata } from 'next';
import { Suspense } from 'react';
import { DispatchForm } from '@/components/dispatch/dispatch-form';

export const metadata: Metadata = { title: 'Dispatch' };

export default function DispatchPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div>
        <h1 className="text-xl font-semibold">Dispatch a task</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Send a message to a peer agent; the task opens and updates live.</p>
      </div>
      <Suspense>
        <DispatchForm />
      </Suspense>
    </div>
  );
}
