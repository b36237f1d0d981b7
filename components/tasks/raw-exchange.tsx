'use client';
import { Card, CardBody } from '@/components/ui/card';
import { Pre } from '@/components/ui/pre';
import type { Task } from '@/lib/protocol/types';

/** The A2A task as tasks/get returns it, for whoever needs the exact exchange. */
export function RawExchange({ snapshot }: { snapshot: Task }) {
  return (
    <Card>
      <CardBody>
        <details>
          <summary className="cursor-pointer text-sm font-semibold">Raw A2A task (JSON)</summary>
          <Pre className="mt-2 max-h-[40rem]" data-testid="raw-json">
            {JSON.stringify(snapshot, null, 2)}
          </Pre>
        </details>
      </CardBody>
    </Card>
  );
}
