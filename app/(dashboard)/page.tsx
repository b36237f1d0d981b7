import { Suspense } from 'react';
import { TaskListView } from '@/components/tasks/task-list-view';

export default function TasksPage() {
  return (
    <Suspense>
      <TaskListView />
    </Suspense>
  );
}
