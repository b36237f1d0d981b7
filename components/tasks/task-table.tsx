'use client';
import type { TaskSummary } from '@/lib/dashboard/wire';
import { TaskRow } from './task-row';
import { useNow } from './use-now';
import { useListShortcuts } from './use-list-shortcuts';

const TH = 'py-2 pr-3 text-left text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400';

export function TaskTable({ tasks }: { tasks: TaskSummary[] }) {
  const now = useNow();
  const selected = useListShortcuts(tasks);
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed border-collapse" data-testid="task-table">
        <caption className="sr-only">Tasks, newest first. Keys: j or ↓ next, k or ↑ previous, Enter or o open, c cancel.</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className={`${TH} w-36 pl-4`}>State</th>
            <th scope="col" className={`${TH} hidden w-28 md:table-cell`}>Direction</th>
            <th scope="col" className={`${TH} hidden w-36 sm:table-cell`}>Agent / peer</th>
            <th scope="col" className={TH}>Request</th>
            <th scope="col" className={`${TH} w-24 text-right`}>Duration</th>
            <th scope="col" className={`${TH} hidden w-24 pr-4 text-right lg:table-cell`}>Updated</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {tasks.map((task, i) => (
            <TaskRow key={task.id} task={task} now={now} selected={i === selected} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
